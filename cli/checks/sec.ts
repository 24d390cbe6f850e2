/**
 * The security checks of the environment a command is run for (family `sec`, ids FW-SEC-001 to FW-SEC-011):
 * `env/dev` and `env/prod` out of git, the session and attempt-limit stores in production, TRUSTED_PROXIES behind a
 * proxy, the HTTPS certificate and key, API_TOKEN, the secrets of `env/example`, APP_SECRET, the modes of the secret files. The environment is
 * the one the context loaded (`env/<APP_ENV>` under the process's own variables, as the server reads it); the
 * values are read by the runtime's own functions where it has them, so that a check cannot drift from what the
 * server does. Read-only, never runs project code; docs/diagnostics.md (« Security of the environment ») describes
 * each id.
 */
import fs from 'node:fs';
import path from 'node:path';
import { result, type CheckDefinition, type CheckFunction, type CheckResult } from './check.js';
import type { ProjectContext } from './context.js';
import { gitEnvironmentCheck } from './sec-git.js';
import { secretFileModesCheck } from './sec-files.js';
import { apiTokenCheck, appSecretCheck, exampleSecretsCheck } from './sec-secrets.js';
import { tlsChecks } from './sec-tls.js';

function sec(id: number, label: string): CheckDefinition {
  return { id: `FW-SEC-${String(id).padStart(3, '0')}`, family: 'sec', label };
}

export const SEC_CHECK_DEFINITIONS = {
  envFilesInGit: sec(1, "Fichiers d'environnement hors de git"),
  sessionStore: sec(2, 'Stockage des sessions en production'),
  rateLimitStore: sec(3, 'Limites de tentatives en production'),
  trustedProxies: sec(4, 'Proxys de confiance derrière un proxy'),
  tlsFiles: sec(5, 'Fichiers HTTPS (SSL_CERTFILE, SSL_KEYFILE)'),
  tlsKeyMatch: sec(6, 'Clé HTTPS et certificat'),
  tlsExpiry: sec(7, 'Expiration du certificat HTTPS'),
  apiToken: sec(8, "Jeton d'API (API_TOKEN)"),
  exampleSecrets: sec(9, 'Secrets dans env/example'),
  appSecret: sec(10, "Secret de l'application (APP_SECRET)"),
  secretFileModes: sec(11, 'Droits des fichiers secrets'),
} as const;

const D = SEC_CHECK_DEFINITIONS;

/** Every id the family can produce, with its label, in report order. */
export const SEC_DEFINITIONS: readonly CheckDefinition[] = Object.values(D);

const PROD_ONLY = 'contrôlé pour la production seulement (APP_ENV=prod, « --env prod »)';

/** FW-SEC-001: env/dev, env/prod (and env/<APP_ENV>) are not tracked by git, and git ignores them. */
export const envFilesInGitCheck: CheckFunction = async (context) => [await gitEnvironmentCheck(D.envFilesInGit, context)];

/**
 * A store in production, named by the runtime's own function: memory is a FAIL (one process, lost at restart), an
 * unknown value too (the server would not start). FW-AUTH-005 and FW-AUTH-006 say the same with a WARN in any
 * environment; these are the strict production version.
 */
function productionStore(
  definition: CheckDefinition,
  variable: string,
  read: () => string,
  context: ProjectContext,
  memory: { risk: string; fix: string },
): CheckResult {
  if (!context.production) return result(definition, 'SKIP', PROD_ONLY);
  let name: string;
  try {
    name = read();
  } catch (error) {
    return result(definition, 'FAIL', `${(error as Error).message.replace(/\.$/, '')} ; le serveur refuse de démarrer`, memory.fix);
  }
  if (name === 'memory') return result(definition, 'FAIL', `${variable}=memory en production : ${memory.risk}`, memory.fix);
  return result(definition, 'OK', `${variable}=${name}`);
}

/** FW-SEC-002: the session store in production (runtime/session/select.ts). */
export const sessionStoreCheck: CheckFunction = async (context) => {
  const { sessionStoreName } = await import('../../runtime/session/select.js');
  return [
    productionStore(D.sessionStore, 'SESSION_STORE', sessionStoreName, context, {
      risk: 'les sessions sont perdues à chaque redémarrage et ne sont pas partagées entre processus',
      fix: 'SESSION_STORE=database (plusieurs processus ; table créée par « fw db:init »), redis (REDIS_URL) ou file (une machine)',
    }),
  ];
};

/** FW-SEC-003: the attempt-limit store in production (runtime/rate-limit/limiter.ts). */
export const rateLimitStoreCheck: CheckFunction = async (context) => {
  const { rateLimitStoreName } = await import('../../runtime/rate-limit/index.js');
  return [
    productionStore(D.rateLimitStore, 'RATE_LIMIT_STORE', rateLimitStoreName, context, {
      risk: 'les tentatives ne sont comptées que par processus et repartent de zéro à chaque redémarrage',
      fix: 'RATE_LIMIT_STORE=database (table auth_rate_limit_attempts : « fw auth:init » puis « fw db:apply ») ou redis (REDIS_URL)',
    }),
  ];
};

/** A reverse proxy's configuration at the project's root. */
const ROOT_PROXY_FILE = /^(nginx.*\.conf|caddyfile|traefik\.(ya?ml|toml)|haproxy\.cfg|httpd\.conf|apache2?\.conf)$/i;
/** Under `deploy/`, a file whose path below it names a proxy (`deploy/nginx/site.conf`, `deploy/caddy/Caddyfile`). */
const DEPLOY_PROXY_PATH = /nginx|caddy|traefik|haproxy|apache|httpd/i;
/** Variables named …PROXY… that say nothing about a proxy in front of the server (outgoing proxies, the list itself). */
const NOT_A_PROXY_HINT = new Set([
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'ALL_PROXY',
  'FTP_PROXY',
  'TRUSTED_PROXIES',
  'NPM_CONFIG_PROXY',
  'NPM_CONFIG_HTTPS_PROXY',
]);
const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost|::ffff:127\.\d+\.\d+\.\d+)$/i;

/** The entries of a folder, none when it cannot be read. */
function entriesOf(folder: string): fs.Dirent[] {
  try {
    return fs.readdirSync(folder, { withFileTypes: true });
  } catch {
    return [];
  }
}

/** Proxy configuration files at the root and under `deploy/` (three levels, symbolic links not followed, 500 entries at most). */
function proxyFiles(root: string): string[] {
  const found = entriesOf(root)
    .filter((entry) => entry.isFile() && ROOT_PROXY_FILE.test(entry.name))
    .map((entry) => entry.name);
  let budget = 500;
  const walk = (relative: string, depth: number): void => {
    for (const entry of entriesOf(path.join(root, relative))) {
      if (--budget < 0) return;
      const child = `${relative}/${entry.name}`;
      if (entry.isDirectory() && depth < 3) walk(child, depth + 1);
      else if (entry.isFile() && DEPLOY_PROXY_PATH.test(child.slice('deploy/'.length))) found.push(child);
    }
  };
  walk('deploy', 1);
  return found.slice(0, 3);
}

/** Why the server probably runs behind a reverse proxy, as short phrases (none: no hint). */
export function proxyHints(root: string): string[] {
  const hints: string[] = [];
  const files = proxyFiles(root);
  if (files.length > 0) hints.push(`configuration de proxy ${files.join(', ')}`);
  const host = process.env.HOST ?? '127.0.0.1';
  if (LOOPBACK.test(host.trim())) hints.push(`HOST=${host.trim()} n'accepte que les connexions locales`);
  const keys = Object.keys(process.env).filter(
    (key) => /PROXY/i.test(key) && !NOT_A_PROXY_HINT.has(key.toUpperCase()) && !/^(|0|false|no|non|off)$/i.test((process.env[key] ?? '').trim()),
  );
  if (keys.length > 0) hints.push(`${keys.sort().join(', ')} défini(s)`);
  return hints;
}

/**
 * FW-SEC-004: in production, TRUSTED_PROXIES (parsed by the server's own function) is set when something says the
 * server runs behind a reverse proxy; otherwise every client has the proxy's address and shares its login limit.
 */
export const trustedProxiesCheck: CheckFunction = async (context) => {
  const definition = D.trustedProxies;
  if (!context.production) return [result(definition, 'SKIP', PROD_ONLY)];
  const { trustedProxiesFromConfig } = await import('../../runtime/app/client-ip.js');
  let proxies: { entries: readonly string[] } | null;
  try {
    proxies = trustedProxiesFromConfig();
  } catch (error) {
    return [
      result(
        definition,
        'FAIL',
        `${(error as Error).message.replace(/\.$/, '')} ; le serveur refuse de démarrer`,
        'TRUSTED_PROXIES : des adresses IP ou des blocs CIDR séparés par des virgules (ex. 127.0.0.1, 10.0.0.0/8)',
      ),
    ];
  }
  if (proxies) return [result(definition, 'OK', `${proxies.entries.length} entrée(s) : ${proxies.entries.join(', ')}`)];
  const hints = proxyHints(context.root);
  if (hints.length === 0) return [result(definition, 'OK', 'non défini, et rien ne signale de proxy devant le serveur')];
  return [
    result(
      definition,
      'WARN',
      `TRUSTED_PROXIES non défini alors que le serveur semble derrière un proxy (${hints.join(' ; ')}) : tous les clients ont l'adresse du proxy et partagent ses limites de connexion`,
      "TRUSTED_PROXIES=<l'adresse du proxy, ex. 127.0.0.1> (docs/auth.md du framework, « Proxies and the client address »)",
    ),
  ];
};

/** FW-SEC-005 to FW-SEC-007: the HTTPS certificate and key (cli/checks/sec-tls.ts). */
export const tlsCheck: CheckFunction = (context) => tlsChecks({ files: D.tlsFiles, keyMatch: D.tlsKeyMatch, expiry: D.tlsExpiry }, context);

/** FW-SEC-008: API_TOKEN. */
export const apiTokenLengthCheck: CheckFunction = async () => [apiTokenCheck(D.apiToken)];

/** FW-SEC-009: env/example. */
export const exampleSecretsFileCheck: CheckFunction = async (context) => [exampleSecretsCheck(D.exampleSecrets, context)];

/** FW-SEC-010: APP_SECRET. */
export const appSecretLengthCheck: CheckFunction = async (context) => [appSecretCheck(D.appSecret, context)];

/** FW-SEC-011: the modes of the files that hold secrets (cli/checks/sec-files.ts). */
export const secretFileModesFileCheck: CheckFunction = async (context) => [secretFileModesCheck(D.secretFileModes, context, PROD_ONLY)];

/** The security checks in report order. */
export const SEC_CHECKS: readonly CheckFunction[] = [
  envFilesInGitCheck,
  sessionStoreCheck,
  rateLimitStoreCheck,
  trustedProxiesCheck,
  tlsCheck,
  apiTokenLengthCheck,
  exampleSecretsFileCheck,
  appSecretLengthCheck,
  secretFileModesFileCheck,
];
