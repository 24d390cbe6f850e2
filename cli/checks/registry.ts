/**
 * Which families of checks `fw doctor`, `fw project:check` and `fw project:audit` run, in order, and the runner
 * they share: it gathers nothing itself (the context does), runs each family's checks (a check that throws becomes
 * a FAIL of its family rather than a stack trace), then applies the silencing of `fw.config.json`
 * (`"silenced_checks": ["FW-…"]`) and of `--skip <ID>`: a silenced result is shown as SKIP with the reason, never
 * dropped. A new family is one import and one entry of FAMILIES. See docs/diagnostics.md.
 */
import { AUDIT_CHECKS, AUDIT_DEFINITIONS } from './audit.js';
import { AUTH_CHECK_DEFINITIONS, AUTH_CHECKS } from './auth.js';
import { result, type CheckDefinition, type CheckFunction, type CheckResult } from './check.js';
import type { DiagnosticCommand, ProjectContext } from './context.js';
import { ENTITY_CHECKS, ENTITY_DEFINITIONS } from './entity.js';
import { ENV_CHECKS, ENV_DEFINITIONS } from './env.js';
import { GEN_CHECKS, GEN_DEFINITIONS } from './gen.js';
import { entryKind, fsReason, readSource, walkFiles } from './files.js';
import { I18N_CHECKS, I18N_DEFINITIONS } from './i18n.js';
import { mailFilesPresent } from '../mail/inspect.js';
import { readMailEnvironment } from '../mail/settings.js';
import { MAIL_CHECK_DEFINITIONS, MAIL_CHECKS, MAIL_DEFINITIONS } from './mail.js';
import { JOBS_CHECKS, JOBS_DEFINITIONS } from './jobs.js';
import { MFA_CHECKS, MFA_DEFINITIONS } from './mfa.js';
import { MOD_CHECKS, MOD_DEFINITIONS } from './mod.js';
import { NPM_CHECKS, NPM_DEFINITIONS } from './npm.js';
import { SEC_CHECKS, SEC_DEFINITIONS } from './sec.js';
import { CONFIG_DEFINITION, STRUCT_CHECKS, STRUCT_DEFINITIONS } from './struct.js';
import { ROUTE_CHECKS, ROUTE_DEFINITIONS } from './route.js';
import { MIGR_CHECKS, MIGR_DEFINITIONS } from './migr.js';
import { DB_CHECKS, DB_DEFINITIONS } from './db.js';
import { TPL_CHECKS, TPL_DEFINITIONS } from './tpl.js';

/** The three project diagnostics (`auth:doctor` and `mail:doctor` run their family alone, cli/commands/<family>/doctor.ts). */
export type ProjectDiagnostic = Exclude<DiagnosticCommand, 'auth:doctor' | 'mail:doctor'>;

export interface CheckFamily {
  readonly family: string;
  readonly checks: readonly CheckFunction[];
  readonly definitions: readonly CheckDefinition[];
  /** The commands that run this family. */
  readonly commands: readonly ProjectDiagnostic[];
}

const ALL: readonly ProjectDiagnostic[] = ['doctor', 'project:check', 'project:audit'];

const AUTH_DEFINITIONS: readonly CheckDefinition[] = Object.values(AUTH_CHECK_DEFINITIONS).map(({ id, family, label }) => ({ id, family, label }));

/** Auth is installed when its SQL files or the `registerAuthRoutes` call are in the project (read as text). */
function authInstalled(root: string): boolean {
  if (walkFiles(root, 'mvc/models/sql').files.some((file) => file.includes('/auth/') && file.endsWith('.sql'))) return true;
  const routes = readSource(root, 'mvc/routes.ts');
  return routes.ok && /\bregisterAuthRoutes\b/.test(routes.text);
}

/** `auth:doctor`'s checks when auth is installed, else one SKIP. */
const authWhenInstalled: CheckFunction = async (context) => {
  if (!authInstalled(context.root)) return [result(AUTH_CHECK_DEFINITIONS.sqlFiles, 'SKIP', "authentification non installée (« fw auth:init » l'installe)")];
  const out: CheckResult[] = [];
  for (const check of AUTH_CHECKS) out.push(...(await check(context)));
  return out;
};

/** `mail:doctor`'s checks when the project uses mail (templates, mail SQL files or a MAIL_* variable), else one SKIP. */
const mailWhenConfigured: CheckFunction = async (context) => {
  if (!mailFilesPresent(context.root) && readMailEnvironment(process.env).set.length === 0) {
    return [result(MAIL_CHECK_DEFINITIONS.config, 'SKIP', "mail non configuré (aucune variable MAIL_*, « fw mail:init » l'installe)")];
  }
  const out: CheckResult[] = [];
  for (const check of MAIL_CHECKS) out.push(...(await check(context)));
  return out;
};

/** The families in report order. */
export const FAMILIES: readonly CheckFamily[] = [
  { family: 'env', checks: ENV_CHECKS, definitions: ENV_DEFINITIONS, commands: ALL },
  { family: 'struct', checks: STRUCT_CHECKS, definitions: STRUCT_DEFINITIONS, commands: ALL },
  { family: 'entity', checks: ENTITY_CHECKS, definitions: ENTITY_DEFINITIONS, commands: ALL },
  { family: 'gen', checks: GEN_CHECKS, definitions: GEN_DEFINITIONS, commands: ALL },
  { family: 'route', checks: ROUTE_CHECKS, definitions: ROUTE_DEFINITIONS, commands: ALL },
  { family: 'migr', checks: MIGR_CHECKS, definitions: MIGR_DEFINITIONS, commands: ALL },
  { family: 'db', checks: DB_CHECKS, definitions: DB_DEFINITIONS, commands: ALL },
  { family: 'tpl', checks: TPL_CHECKS, definitions: TPL_DEFINITIONS, commands: ALL },
  { family: 'i18n', checks: I18N_CHECKS, definitions: I18N_DEFINITIONS, commands: ['doctor', 'project:audit'] },
  { family: 'mod', checks: MOD_CHECKS, definitions: MOD_DEFINITIONS, commands: ALL },
  { family: 'mfa', checks: MFA_CHECKS, definitions: MFA_DEFINITIONS, commands: ['doctor', 'project:audit'] },
  { family: 'npm', checks: NPM_CHECKS, definitions: NPM_DEFINITIONS, commands: ['doctor', 'project:audit'] },
  { family: 'auth', checks: [authWhenInstalled], definitions: AUTH_DEFINITIONS, commands: ['doctor'] },
  { family: 'mail', checks: [mailWhenConfigured], definitions: MAIL_DEFINITIONS, commands: ['doctor'] },
  { family: 'jobs', checks: JOBS_CHECKS, definitions: JOBS_DEFINITIONS, commands: ['doctor'] },
  { family: 'sec', checks: SEC_CHECKS, definitions: SEC_DEFINITIONS, commands: ['doctor', 'project:audit'] },
  { family: 'audit', checks: AUDIT_CHECKS, definitions: AUDIT_DEFINITIONS, commands: ['project:audit'] },
];

/** Every id a diagnostic can report, with its label (the documentation lists them all). */
export function allDefinitions(): CheckDefinition[] {
  return FAMILIES.flatMap((family) => family.definitions);
}

/** A stable check id: `FW-<FAMILY>-<NNN>`. */
export const CHECK_ID = /^FW-[A-Z0-9]+-\d{3}$/;

export const CONFIG_FILE = 'fw.config.json';

/** The ids `fw.config.json` silences, and its own result (absent file: none). */
export function readSilenced(root: string): { ids: string[]; result: CheckResult | null } {
  const fail = (detail: string): { ids: string[]; result: CheckResult } => ({
    ids: [],
    result: {
      ...result(CONFIG_DEFINITION, 'FAIL', `${CONFIG_FILE} : ${detail}`, 'écrivez { "silenced_checks": ["FW-…"] } (docs/diagnostics.md)'),
      file: CONFIG_FILE,
    },
  });
  if (entryKind(root, CONFIG_FILE) === 'absent') return { ids: [], result: null };
  const read = readSource(root, CONFIG_FILE);
  if (!read.ok) return fail(read.reason);
  let data: unknown;
  try {
    data = JSON.parse(read.text);
  } catch (error) {
    return fail(`JSON invalide (${(error as Error).message})`);
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) return fail('un objet JSON est attendu');
  const silenced = (data as { silenced_checks?: unknown }).silenced_checks ?? [];
  if (!Array.isArray(silenced)) return fail('« silenced_checks » doit être une liste');
  const bad = silenced.filter((id) => typeof id !== 'string' || !CHECK_ID.test(id));
  if (bad.length > 0)
    return fail(`identifiant(s) invalide(s) dans « silenced_checks » : ${bad.map((id) => JSON.stringify(id)).join(', ')} (forme FW-FAMILLE-001)`);
  return { ids: silenced as string[], result: result(CONFIG_DEFINITION, 'OK', `${silenced.length} contrôle(s) réduit(s) au silence`) };
}

/** A check that threw: a FAIL of its family (the first id of the family) naming the cause. */
function interrupted(family: CheckFamily, error: unknown): CheckResult {
  const definition = family.definitions[0]!;
  const where = (error as NodeJS.ErrnoException)?.path;
  const reason = (error as NodeJS.ErrnoException)?.code ? fsReason(error) : String((error as Error)?.message ?? error).split('\n')[0];
  return result(definition, 'FAIL', `contrôle interrompu${where ? ` (${where})` : ''} : ${reason}`);
}

/** `result` silenced: SKIP, with the reason and what it was. */
function silence(found: CheckResult, by: string): CheckResult {
  const was = [found.status, found.detail].filter(Boolean).join(' : ');
  const { hint: _hint, ...rest } = found;
  return { ...rest, status: 'SKIP', detail: `réduit au silence par ${by} (${was})` };
}

/** Runs the families of `command` over `context`, then applies the silencing of fw.config.json and `--skip`. */
export async function runDiagnostic(command: ProjectDiagnostic, context: ProjectContext, skip: readonly string[]): Promise<CheckResult[]> {
  const config = readSilenced(context.root);
  const results: CheckResult[] = [];
  for (const family of FAMILIES) {
    if (!family.commands.includes(command)) continue;
    for (const check of family.checks) {
      try {
        results.push(...(await check(context)));
      } catch (error) {
        results.push(interrupted(family, error));
      }
    }
    if (family.family === 'struct' && config.result) results.push(config.result);
  }
  const bySkip = new Set(skip);
  const byConfig = new Set(config.ids);
  return results.map((found) => (bySkip.has(found.id) ? silence(found, '--skip') : byConfig.has(found.id) ? silence(found, CONFIG_FILE) : found));
}
