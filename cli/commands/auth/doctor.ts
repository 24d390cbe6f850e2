/**
 * `fw auth:doctor [--json]`: read-only diagnosis of authentication, as `doctor` reports (OK, WARN, FAIL, SKIP;
 * exit 1 on any FAIL). Checks: the SQL files, the tables in the configured database, `registerAuthRoutes` in
 * `mvc/routes.ts`, an active user, the session and login-limit stores in production (the memory session store
 * wherever the auth tables exist), TRUSTED_PROXIES, that argon2
 * loads, and the TOTP secrets stored in clear.
 */
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import { checksExitCode, checksJson, formatChecks, type Check, type CheckStatus } from '../../diagnostic-report.js';
import { readDbSettings, type DbSettings } from '../../db/connection.js';
import { CliError } from '../../errors.js';
import { projectRoot } from '../../project.js';
import type { DatabaseInfo, RoutesState, SqlFileInfo } from '../../auth/inspect.js';

export function configure(command: Command): void {
  command.option('--json', 'écrit le diagnostic en JSON');
}

/** `problem : advice` without the problem's final period. */
function joined(problem: string, advice: string): string {
  const head = problem.trim().replace(/[.]$/, '');
  return advice.trim() ? `${head} : ${advice.trim()}` : head;
}

const check = (code: string, status: CheckStatus, label: string, detail: string): Check => ({ code, status, label, detail });

export async function run({ options }: CommandInput): Promise<number> {
  const root = projectRoot();
  const { sqlFileStates, routesState, databaseState, ROUTES_FILE } = await import('../../auth/inspect.js');
  const { describeTarget } = await import('../../auth/database.js');
  let settings: DbSettings | null = null;
  let settingsError: CliError | null = null;
  try {
    settings = readDbSettings(root);
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    settingsError = error;
  }
  const checks: Check[] = [sqlFilesCheck(sqlFileStates(root), settings?.driver ?? null), routesCheck(await routesState(root), ROUTES_FILE)];
  let mfaTable = false;
  let authTables = false;
  if (settings) {
    const database = await databaseState(settings);
    checks.push(...databaseChecks(database, describeTarget(settings)));
    mfaTable = database.present.includes('auth_mfa_factors');
    authTables = database.present.length > 0;
  } else {
    checks.push(
      check('tables', 'FAIL', "Tables d'authentification", joined(settingsError!.message, settingsError!.advice ?? '')),
      check('active_user', 'SKIP', 'Utilisateur actif', 'base non configurée'),
    );
  }
  const production = (process.env.APP_ENV || 'dev').trim() === 'prod';
  const { sessionStoreName } = await import('../../../runtime/session/select.js');
  const { rateLimitStoreName } = await import('../../../runtime/rate-limit/index.js');
  checks.push(
    sessionStoreCheck(sessionStoreName, production, authTables),
    storeCheck(
      'rate_limit_store',
      'Limites de connexion',
      'RATE_LIMIT_STORE',
      rateLimitStoreName,
      production,
      'les échecs ne sont pas comptés en commun entre processus ni conservés au redémarrage : RATE_LIMIT_STORE=database',
    ),
    await trustedProxiesCheck(),
    await argon2Check(),
  );
  checks.push(
    mfaTable
      ? check('totp_secrets', 'WARN', 'Secrets TOTP', 'auth_mfa_factors.totp_secret est stocké en clair : protégez la base et ses sauvegardes')
      : check('totp_secrets', 'SKIP', 'Secrets TOTP', 'table auth_mfa_factors absente ou base non lue'),
  );
  process.stdout.write(options.json === true ? checksJson(checks) : formatChecks(checks));
  return checksExitCode(checks);
}

function sqlFilesCheck(files: readonly SqlFileInfo[], dialect: string | null): Check {
  const label = "Fichiers SQL d'authentification";
  const mine = files.filter((file) => dialect === null || file.dialect === dialect);
  const absent = mine.filter((file) => file.state === 'absent');
  const stale = mine.filter((file) => file.state === 'stale');
  const owned = mine.filter((file) => file.state === 'owned');
  if (absent.length === mine.length) return check('sql_files', 'FAIL', label, 'aucun fichier dans mvc/models/sql/auth/ : lancez « fw auth:init »');
  if (absent.length > 0) return check('sql_files', 'FAIL', label, `absents : ${absent.map((f) => f.path).join(', ')} : relancez « fw auth:init »`);
  if (stale.length > 0)
    return check('sql_files', 'WARN', label, `${stale.length} fichier(s) périmé(s) (${stale.map((f) => f.path).join(', ')}) : « fw auth:init » les réécrit`);
  const extra = owned.length > 0 ? ` dont ${owned.length} modifié(s) à la main` : '';
  return check('sql_files', 'OK', label, `${mine.length} fichiers${dialect ? ` (${dialect})` : ''}${extra}`);
}

function routesCheck(state: RoutesState, file: string): Check {
  const label = "Routes d'authentification";
  switch (state.kind) {
    case 'no-file':
      return check('routes', 'FAIL', label, `${file} est introuvable`);
    case 'unreadable':
      return check('routes', 'FAIL', label, state.reason);
    case 'absent':
      return check('routes', 'FAIL', label, `registerAuthRoutes n'est pas appelé dans ${file} : lancez « fw auth:init »`);
    default:
      if (state.conflicts.length > 0)
        return check('routes', 'WARN', label, `registerAuthRoutes appelé, mais ${file} déclare aussi ${state.conflicts.join(', ')}`);
      return check('routes', 'OK', label, `registerAuthRoutes(router) appelé dans ${file}`);
  }
}

function databaseChecks(database: DatabaseInfo, target: string): Check[] {
  const label = "Tables d'authentification";
  if (database.problem) {
    return [
      check('tables', 'FAIL', label, joined(database.problem.summary, database.problem.advice)),
      check('active_user', 'SKIP', 'Utilisateur actif', 'base non lue'),
    ];
  }
  const tables =
    database.missing.length === 0
      ? check('tables', 'OK', label, `${database.present.length} tables présentes (${target})`)
      : check('tables', 'FAIL', label, `absentes de ${target} : ${database.missing.join(', ')} : lancez « fw auth:init » puis « fw db:apply »`);
  const active =
    database.activeUsers === null
      ? check('active_user', 'SKIP', 'Utilisateur actif', 'table users absente')
      : database.activeUsers === 0
        ? check('active_user', 'WARN', 'Utilisateur actif', 'aucun : personne ne peut se connecter ; « fw auth:user:create --email <EMAIL> --password-prompt »')
        : check('active_user', 'OK', 'Utilisateur actif', `${database.activeUsers} sur ${database.users}`);
  return [tables, active];
}

/**
 * The session store: memory is a WARN in production, and in any environment whose database holds the auth
 * tables, since `fw auth:user:disable` and `fw auth:user:password` cannot end the sessions the server keeps.
 */
function sessionStoreCheck(read: () => string, production: boolean, authTables: boolean): Check {
  const checked = storeCheck(
    'session_store',
    'Stockage des sessions',
    'SESSION_STORE',
    read,
    production,
    'les sessions sont perdues au redémarrage et ne sont pas partagées entre processus : SESSION_STORE=database (ou file)',
  );
  if (checked.status !== 'OK' || !authTables || checked.detail !== 'SESSION_STORE=memory') return checked;
  return check(
    'session_store',
    'WARN',
    checked.label,
    'SESSION_STORE=memory : les sessions vivent dans le processus du serveur, « fw auth:user:disable » et « fw auth:user:password » ne peuvent pas les fermer ; redémarrez le serveur après ces commandes, ou SESSION_STORE=file (ou database)',
  );
}

/** The store the runtime would choose, read by the runtime's own function (an unknown value is its error). */
function storeCheck(code: string, label: string, variable: string, read: () => string, production: boolean, memoryRisk: string): Check {
  let value: string;
  try {
    value = read();
  } catch (error) {
    return check(code, 'FAIL', label, (error as Error).message.replace(/\.$/, ''));
  }
  if (value === 'memory' && production) return check(code, 'WARN', label, `${variable}=memory avec APP_ENV=prod : ${memoryRisk}`);
  return check(code, 'OK', label, `${variable}=${value}`);
}

/** TRUSTED_PROXIES parsed as the server parses it at start-up (runtime/app/client-ip.ts): a bad entry stops the server. */
async function trustedProxiesCheck(): Promise<Check> {
  const label = 'Proxys de confiance (TRUSTED_PROXIES)';
  const { trustedProxiesFromConfig } = await import('../../../runtime/app/client-ip.js');
  try {
    const proxies = trustedProxiesFromConfig();
    if (!proxies) return check('trusted_proxies', 'OK', label, "aucun : l'adresse du client est celle de la connexion, X-Forwarded-For est ignoré");
    return check('trusted_proxies', 'OK', label, `${proxies.entries.length} entrée(s) : ${proxies.entries.join(', ')}`);
  } catch (error) {
    return check('trusted_proxies', 'FAIL', label, `${(error as Error).message.replace(/\.$/, '')} ; le serveur refuse de démarrer`);
  }
}

async function argon2Check(): Promise<Check> {
  try {
    const argon2 = (await import('argon2')).default;
    if (typeof argon2.hash !== 'function') throw new Error('argon2.hash absent');
    return check('argon2', 'OK', 'Argon2', 'module argon2 chargé (hachages Argon2id)');
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return check('argon2', 'FAIL', 'Argon2', `le module argon2 ne se charge pas (${reason}) : « npm install » (ou « npm rebuild argon2 »)`);
  }
}
