/**
 * The authentication checks (family `auth`, ids FW-AUTH-001 to FW-AUTH-009), in the order `auth:doctor` prints
 * them: the SQL files, the `registerAuthRoutes` call in `mvc/routes.ts`, the tables in the configured database and
 * an active user, the session and login-limit stores (memory is risky in production, and for sessions wherever the
 * auth tables exist), TRUSTED_PROXIES, that argon2 loads, and the TOTP secrets stored in clear. Read-only.
 */
import { describeTarget } from '../auth/database.js';
import { databaseState, routesState, ROUTES_FILE, sqlFileStates, type DatabaseInfo } from '../auth/inspect.js';
import { problem, result, type CheckFunction, type CheckDefinition, type CheckResult } from './check.js';
import type { ProjectContext } from './context.js';

function auth(id: number, code: string, label: string): CheckDefinition & { readonly code: string } {
  return { id: `FW-AUTH-${String(id).padStart(3, '0')}`, family: 'auth', code, label };
}

/**
 * The auth checks' definitions. `code` is the short name `auth:doctor --json` has always given each check (its
 * `code` field): kept for the scripts that read it.
 */
export const AUTH_CHECK_DEFINITIONS = {
  sqlFiles: auth(1, 'sql_files', "Fichiers SQL d'authentification"),
  routes: auth(2, 'routes', "Routes d'authentification"),
  tables: auth(3, 'tables', "Tables d'authentification"),
  activeUser: auth(4, 'active_user', 'Utilisateur actif'),
  sessionStore: auth(5, 'session_store', 'Stockage des sessions'),
  rateLimitStore: auth(6, 'rate_limit_store', 'Limites de connexion'),
  trustedProxies: auth(7, 'trusted_proxies', 'Proxys de confiance (TRUSTED_PROXIES)'),
  argon2: auth(8, 'argon2', 'Argon2'),
  totpSecrets: auth(9, 'totp_secrets', 'Secrets TOTP'),
} as const;

const D = AUTH_CHECK_DEFINITIONS;

/** The `code` of an auth check's id (`FW-AUTH-001` → `sql_files`). */
export function authCheckCode(id: string): string {
  const found = Object.values(D).find((definition) => definition.id === id);
  if (!found) throw new Error(`Contrôle d'authentification inconnu : ${id}.`);
  return found.code;
}

/** The auth tables and counts of the configured database, read once per context; null when it is not configured. */
function authDatabase(context: ProjectContext): Promise<DatabaseInfo | null> {
  return context.once('auth.database', async () => (context.settings ? databaseState(context.settings) : null));
}

/** FW-AUTH-001: the auth SQL files of the configured dialect (of both when the settings cannot be read). */
export const sqlFilesCheck: CheckFunction = async (context) => {
  const dialect = context.settings?.driver ?? null;
  const mine = sqlFileStates(context.root).filter((file) => dialect === null || file.dialect === dialect);
  const absent = mine.filter((file) => file.state === 'absent');
  const stale = mine.filter((file) => file.state === 'stale');
  const owned = mine.filter((file) => file.state === 'owned');
  if (absent.length === mine.length) return [result(D.sqlFiles, 'FAIL', 'aucun fichier dans mvc/models/sql/auth/', 'lancez « fw auth:init »')];
  if (absent.length > 0) return [result(D.sqlFiles, 'FAIL', `absents : ${absent.map((f) => f.path).join(', ')}`, 'relancez « fw auth:init »')];
  if (stale.length > 0) {
    return [result(D.sqlFiles, 'WARN', `${stale.length} fichier(s) périmé(s) (${stale.map((f) => f.path).join(', ')})`, '« fw auth:init » les réécrit')];
  }
  const extra = owned.length > 0 ? ` dont ${owned.length} modifié(s) à la main` : '';
  return [result(D.sqlFiles, 'OK', `${mine.length} fichiers${dialect ? ` (${dialect})` : ''}${extra}`)];
};

/** FW-AUTH-002: `registerAuthRoutes(router)` imported and called in `mvc/routes.ts` (read through ts-morph). */
export const routesCheck: CheckFunction = async (context) => {
  const state = await routesState(context.root);
  switch (state.kind) {
    case 'no-file':
      return [result(D.routes, 'FAIL', `${ROUTES_FILE} est introuvable`)];
    case 'unreadable':
      return [result(D.routes, 'FAIL', state.reason)];
    case 'absent':
      return [result(D.routes, 'FAIL', `registerAuthRoutes n'est pas appelé dans ${ROUTES_FILE}`, 'lancez « fw auth:init »')];
    default:
      if (state.conflicts.length > 0) {
        return [result(D.routes, 'WARN', `registerAuthRoutes appelé, mais ${ROUTES_FILE} déclare aussi ${state.conflicts.join(', ')}`)];
      }
      return [result(D.routes, 'OK', `registerAuthRoutes(router) appelé dans ${ROUTES_FILE}`)];
  }
};

/** FW-AUTH-003 and FW-AUTH-004: the auth tables in the configured database, and how many users are active. */
export const databaseChecks: CheckFunction = async (context) => {
  const database = await authDatabase(context);
  if (!context.settings || !database) {
    const error = context.settingsError;
    return [problem(D.tables, 'FAIL', error?.message ?? 'base non configurée', error?.advice ?? ''), result(D.activeUser, 'SKIP', 'base non configurée')];
  }
  if (database.problem) {
    return [problem(D.tables, 'FAIL', database.problem.summary, database.problem.advice), result(D.activeUser, 'SKIP', 'base non lue')];
  }
  const target = describeTarget(context.settings);
  const tables =
    database.missing.length === 0
      ? result(D.tables, 'OK', `${database.present.length} tables présentes (${target})`)
      : result(D.tables, 'FAIL', `absentes de ${target} : ${database.missing.join(', ')}`, 'lancez « fw auth:init » puis « fw db:apply »');
  const active =
    database.activeUsers === null
      ? result(D.activeUser, 'SKIP', 'table users absente')
      : database.activeUsers === 0
        ? result(D.activeUser, 'WARN', 'aucun : personne ne peut se connecter ; « fw auth:user:create --email <EMAIL> --password-prompt »')
        : result(D.activeUser, 'OK', `${database.activeUsers} sur ${database.users}`);
  return [tables, active];
};

/** The store the runtime would choose, read by the runtime's own function (an unknown value is its error). */
function storeCheck(
  definition: CheckDefinition,
  variable: string,
  read: () => string,
  production: boolean,
  memoryRisk: { risk: string; fix: string },
): CheckResult {
  let value: string;
  try {
    value = read();
  } catch (error) {
    return result(definition, 'FAIL', (error as Error).message.replace(/\.$/, ''));
  }
  if (value === 'memory' && production) return result(definition, 'WARN', `${variable}=memory avec APP_ENV=prod : ${memoryRisk.risk}`, memoryRisk.fix);
  return result(definition, 'OK', `${variable}=${value}`);
}

/**
 * FW-AUTH-005: the session store. Memory is a WARN in production, and in any environment whose database holds
 * the auth tables, since `fw auth:user:disable` and `fw auth:user:password` cannot end the sessions the server keeps.
 */
export const sessionStoreCheck: CheckFunction = async (context) => {
  const { sessionStoreName } = await import('../../runtime/session/select.js');
  const checked = storeCheck(D.sessionStore, 'SESSION_STORE', sessionStoreName, context.production, {
    risk: 'les sessions sont perdues au redémarrage et ne sont pas partagées entre processus',
    fix: 'SESSION_STORE=database (ou file)',
  });
  const authTables = ((await authDatabase(context))?.present.length ?? 0) > 0;
  if (checked.status !== 'OK' || !authTables || checked.detail !== 'SESSION_STORE=memory') return [checked];
  return [
    result(
      D.sessionStore,
      'WARN',
      'SESSION_STORE=memory : les sessions vivent dans le processus du serveur, « fw auth:user:disable » et « fw auth:user:password » ne peuvent pas les fermer ; redémarrez le serveur après ces commandes, ou SESSION_STORE=file (ou database)',
    ),
  ];
};

/** FW-AUTH-006: the login-limit store; memory is a WARN in production. */
export const rateLimitStoreCheck: CheckFunction = async (context) => {
  const { rateLimitStoreName } = await import('../../runtime/rate-limit/index.js');
  return [
    storeCheck(D.rateLimitStore, 'RATE_LIMIT_STORE', rateLimitStoreName, context.production, {
      risk: 'les échecs ne sont pas comptés en commun entre processus ni conservés au redémarrage',
      fix: 'RATE_LIMIT_STORE=database',
    }),
  ];
};

/** FW-AUTH-007: TRUSTED_PROXIES parsed as the server parses it at start-up (runtime/app/client-ip.ts): a bad entry stops the server. */
export const trustedProxiesCheck: CheckFunction = async () => {
  const { trustedProxiesFromConfig } = await import('../../runtime/app/client-ip.js');
  try {
    const proxies = trustedProxiesFromConfig();
    if (!proxies) return [result(D.trustedProxies, 'OK', "aucun : l'adresse du client est celle de la connexion, X-Forwarded-For est ignoré")];
    return [result(D.trustedProxies, 'OK', `${proxies.entries.length} entrée(s) : ${proxies.entries.join(', ')}`)];
  } catch (error) {
    return [result(D.trustedProxies, 'FAIL', `${(error as Error).message.replace(/\.$/, '')} ; le serveur refuse de démarrer`)];
  }
};

/** FW-AUTH-008: the argon2 module loads (a native module: a missing build stops every login). */
export const argon2Check: CheckFunction = async () => {
  try {
    const argon2 = (await import('argon2')).default;
    if (typeof argon2.hash !== 'function') throw new Error('argon2.hash absent');
    return [result(D.argon2, 'OK', 'module argon2 chargé (hachages Argon2id)')];
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return [result(D.argon2, 'FAIL', `le module argon2 ne se charge pas (${reason})`, '« npm install » (ou « npm rebuild argon2 »)')];
  }
};

/** FW-AUTH-009: the TOTP secrets of `auth_mfa_factors` are stored in clear (a WARN whenever the table exists). */
export const totpSecretsCheck: CheckFunction = async (context) => {
  const mfaTable = (await authDatabase(context))?.present.includes('auth_mfa_factors') ?? false;
  return [
    mfaTable
      ? result(D.totpSecrets, 'WARN', 'auth_mfa_factors.totp_secret est stocké en clair', 'protégez la base et ses sauvegardes')
      : result(D.totpSecrets, 'SKIP', 'table auth_mfa_factors absente ou base non lue'),
  ];
};

/** The auth checks in report order. */
export const AUTH_CHECKS: readonly CheckFunction[] = [
  sqlFilesCheck,
  routesCheck,
  databaseChecks,
  sessionStoreCheck,
  rateLimitStoreCheck,
  trustedProxiesCheck,
  argon2Check,
  totpSecretsCheck,
];
