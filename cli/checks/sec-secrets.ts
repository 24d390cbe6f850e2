/**
 * FW-SEC-008 to FW-SEC-011: the secrets of the environment. API_TOKEN (the token `requireApiToken` compares,
 * runtime/security/api-token.ts) must be long enough to resist guessing; `env/example`, the versioned model of the
 * environment files, must not hold a real secret; APP_SECRET (runtime/security/app-secret.ts) must have the length
 * the runtime demands, and be set in production; the files that hold secrets are readable by their owner only
 * (cli/checks/sec-files.ts). Values are never printed. Files are read bounded; nothing is written.
 */
import fs from 'node:fs';
import path from 'node:path';
import { APP_SECRET_MIN_LENGTH } from '../../runtime/security/app-secret.js';
import { EnvSyntaxError, parseEnv } from '../../runtime/env.js';
import { result, type CheckDefinition, type CheckResult } from './check.js';
import { OUTSIDE_REASON, outsideProject } from './files.js';
import type { ProjectContext } from './context.js';

/** An API token shorter than this is a FAIL: `openssl rand -hex 32` gives 64 characters. */
export const API_TOKEN_MIN_LENGTH = 32;
/**
 * An APP_SECRET with fewer different characters than this is a FAIL (40 × `a`, `abab…`): 32 random hexadecimal
 * digits show about 14 of the 16, and fewer than 8 happens less than once in 25 million draws.
 */
export const APP_SECRET_MIN_DISTINCT = 8;
/** An environment file larger than this is not read. */
const MAX_ENV_BYTES = 1024 * 1024;
export const EXAMPLE_FILE = 'env/example';

/** Key names that hold a secret: …SECRET…, …PASSWORD…, …PASSWD…, …PWD…, …TOKEN…, …KEY… (not a file, path or name). */
const SECRET_KEY = /SECRET|PASSWORD|PASSWD|PWD|TOKEN|KEY/i;
const NOT_A_SECRET_KEY = /(FILE|PATH|DIR|NAME|ID|HOST|PORT|LOGIN|USER|ENABLED|LENGTH|TTL|HEADER)$/i;
/** A URL carrying a password (`scheme://user:password@host`), whatever its key. */
const URL_WITH_PASSWORD = /^[a-z][a-z0-9+.-]*:\/\/[^/\s:@]*:([^/\s@]+)@/i;
/** Words and shapes of a value left for the reader to replace. */
const PLACEHOLDER_WORDS =
  /change|replace|remplace|your|votre|example|exemple|placeholder|dummy|todo|fixme|secret|password|passwd|motdepasse|mot_de_passe|mot-de-passe|token|jeton|redacted|definir|définir|generate|générer|generer|xxx|\.\.\./i;

/** True when `value` is empty or an obvious placeholder (`changeme`, `<token>`, `${SECRET}`, `xxxxxxxx`, `your-key`…). */
export function isPlaceholder(value: string): boolean {
  const text = value.trim();
  if (text === '') return true;
  if (/^(.)\1*$/.test(text)) return true;
  if (/^<.*>$/.test(text) || /^\$\{.*\}$/.test(text) || /^\[.*\]$/.test(text) || /^%.*%$/.test(text)) return true;
  return PLACEHOLDER_WORDS.test(text);
}

/** The secret keys of `values` whose value looks real, with the secret a URL of another key carries. */
export function realSecrets(values: Readonly<Record<string, string>>): string[] {
  return Object.entries(values)
    .filter(([key, value]) => {
      const url = URL_WITH_PASSWORD.exec(value);
      if (url) return !isPlaceholder(url[1]!);
      return SECRET_KEY.test(key) && !NOT_A_SECRET_KEY.test(key) && !isPlaceholder(value);
    })
    .map(([key]) => key);
}

type EnvRead = { readonly values: Record<string, string>; readonly text: string } | { readonly problem: string; readonly line?: number } | null;

/** An environment file of the project parsed as the runtime parses it; null when absent. Never throws. */
function readEnvFile(root: string, relative: string): EnvRead {
  const file = path.join(root, relative);
  try {
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (!stat) return null;
    if (!stat.isFile()) return { problem: `${relative} n'est pas un fichier` };
    // A link out of the project is not read: a parse error would quote its target (docs/diagnostics.md).
    if (outsideProject(root, relative)) return { problem: `${relative} : ${OUTSIDE_REASON}` };
    if (stat.size > MAX_ENV_BYTES) return { problem: `${relative} pèse ${stat.size} octets : trop gros pour un fichier d'environnement` };
    const bytes = fs.readFileSync(file);
    if (bytes.includes(0)) return { problem: `${relative} est un fichier binaire` };
    const text = bytes.toString('utf8');
    return { values: parseEnv(text, relative), text };
  } catch (error) {
    if (error instanceof EnvSyntaxError) return { problem: error.message.replace(/\.$/, ''), line: error.line };
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EPERM') return { problem: `${relative} est illisible (permissions)` };
    return { problem: `${relative} : ${code ?? (error as Error).message}` };
  }
}

/** The 1-based line of the last `KEY=` assignment of `key` in `text` (the one parseEnv keeps). */
function lineOf(text: string, key: string): number | undefined {
  const pattern = new RegExp(`^[ \\t]*(?:export[ \\t]+)?${key.replace(/[.]/g, '\\.')}[ \\t]*=`);
  let found: number | undefined;
  text.split(/\r\n?|\n/).forEach((line, index) => {
    if (pattern.test(line)) found = index + 1;
  });
  return found;
}

/** FW-SEC-009: FAIL when env/example holds the production value of a secret, WARN for another real-looking one. */
export function exampleSecretsCheck(definition: CheckDefinition, context: ProjectContext): CheckResult {
  const example = readEnvFile(context.root, EXAMPLE_FILE);
  if (example === null) return result(definition, 'SKIP', `${EXAMPLE_FILE} absent`);
  if ('problem' in example) {
    return { ...result(definition, 'FAIL', example.problem, `corrigez ${EXAMPLE_FILE}`), file: EXAMPLE_FILE, ...(example.line ? { line: example.line } : {}) };
  }
  const found = realSecrets(example.values);
  if (found.length === 0) return result(definition, 'OK', `aucune valeur de secret dans ${EXAMPLE_FILE} (clés vides ou à remplacer)`);
  const prod = readEnvFile(context.root, 'env/prod');
  const prodValues = prod && 'values' in prod ? prod.values : {};
  const leaked = found.filter((key) => prodValues[key] !== undefined && prodValues[key] === example.values[key]);
  const first = leaked[0] ?? found[0]!;
  const at = { file: EXAMPLE_FILE, ...(lineOf(example.text, first) ? { line: lineOf(example.text, first)! } : {}) };
  if (leaked.length > 0) {
    return {
      ...result(
        definition,
        'FAIL',
        `${EXAMPLE_FILE} (versionné) donne la valeur de production de ${leaked.join(', ')}`,
        `videz ${leaked.length > 1 ? 'ces clés' : 'cette clé'} dans ${EXAMPLE_FILE} et changez le secret dans env/prod : il est dans l'historique du dépôt`,
      ),
      ...at,
    };
  }
  return {
    ...result(
      definition,
      'WARN',
      `${EXAMPLE_FILE} (versionné) donne une valeur à ${found.join(', ')}`,
      'laissez ces clés vides (ou « changeme ») dans env/example ; les vraies valeurs vont dans env/dev et env/prod',
    ),
    ...at,
  };
}

/** FW-SEC-008: API_TOKEN, when set, has at least 32 characters. */
export function apiTokenCheck(definition: CheckDefinition): CheckResult {
  const token = process.env.API_TOKEN ?? '';
  if (token === '') return result(definition, 'OK', "vide : les routes d'API refusent toute requête");
  if (token.length < API_TOKEN_MIN_LENGTH) {
    return result(
      definition,
      'FAIL',
      `API_TOKEN compte ${token.length} caractère(s), moins de ${API_TOKEN_MIN_LENGTH} : il se devine`,
      'API_TOKEN=<la sortie de « openssl rand -hex 32 »>',
    );
  }
  return result(definition, 'OK', `${token.length} caractères`);
}

/**
 * FW-SEC-010: APP_SECRET as runtime/security/app-secret.ts reads it (trimmed; empty is unset). Shorter than the
 * runtime's minimum is a FAIL (the runtime throws when it signs the first anonymous form), and so is one made of
 * fewer than APP_SECRET_MIN_DISTINCT different characters; unset is a WARN in
 * production, where the secret would be the one the server creates in its sessions folder, another one on each
 * machine or container.
 */
export function appSecretCheck(definition: CheckDefinition, context: ProjectContext): CheckResult {
  const secret = (process.env.APP_SECRET ?? '').trim();
  const generate = 'APP_SECRET=<la sortie de « openssl rand -hex 32 »>, le même sur chaque machine';
  if (secret !== '' && secret.length < APP_SECRET_MIN_LENGTH) {
    return result(
      definition,
      'FAIL',
      `APP_SECRET compte ${secret.length} caractère(s), moins de ${APP_SECRET_MIN_LENGTH} : le serveur le refuse et les formulaires des visiteurs anonymes échouent`,
      generate,
    );
  }
  const distinct = new Set(secret).size;
  if (secret !== '' && distinct < APP_SECRET_MIN_DISTINCT) {
    return result(
      definition,
      'FAIL',
      `APP_SECRET n'a que ${distinct} caractère(s) différent(s) sur ${secret.length}, moins de ${APP_SECRET_MIN_DISTINCT} : ce n'est pas un secret tiré au hasard`,
      generate,
    );
  }
  if (secret !== '') return result(definition, 'OK', `${secret.length} caractères`);
  if (context.production) {
    return result(
      definition,
      'WARN',
      'APP_SECRET non défini en production : le serveur crée le sien dans storage/sessions/.app_secret, différent sur chaque machine et perdu avec le stockage du conteneur',
      generate,
    );
  }
  return result(definition, 'OK', 'non défini : le serveur crée le sien dans storage/sessions/.app_secret');
}
