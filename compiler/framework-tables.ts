/**
 * The tables the framework owns or may create, which no entity or pivot may take (docs/entities.md "Limits and
 * reserved names"): the auth, media, mail and session modules' tables, the migrations' bookkeeping, the staging
 * table of SQLite's rebuild, and the names SQLite keeps for itself. The compiler may not import the runtime
 * (docs/architecture.md), so the names are listed here; test/compiler-framework-names.test.ts checks that they
 * are the runtime's (runtime/auth/schema.ts, runtime/media/schema.ts, runtime/mail/schema.ts,
 * runtime/session/sessions-table.ts, runtime/rate-limit/database-store.ts, cli/db/migrations.ts).
 */

/** Tables of the framework's modules (`fw auth:init`, `fw media:init`, `fw mail:init`), by module. */
export const FRAMEWORK_TABLES: Readonly<Record<string, readonly string[]>> = {
  auth: [
    'users',
    'roles',
    'user_roles',
    'permissions',
    'role_permissions',
    'auth_tokens',
    'auth_mfa_factors',
    'auth_mfa_recovery_codes',
    'auth_audit_log',
    'auth_rate_limit_attempts',
  ],
  media: ['media'],
  mail: ['mail_log'],
  session: ['fw_sessions'],
  migrations: ['fw_migrations'],
};

/** Prefixes of the tables the framework may create: its own (`fw_`), the auth module's, SQLite's. */
export const FRAMEWORK_TABLE_PREFIXES: readonly string[] = ['fw_', 'auth_', 'sqlite_'];

/** Suffix of the staging table of SQLite's table rebuild (runtime/db/ddl/render.ts). */
export const REBUILD_TABLE_SUFFIX = '__fw_new';

/**
 * What owns `table` (a French phrase: « la table du module auth », « le préfixe fw_ … »), compared without case
 * (SQLite and MariaDB on case-insensitive file systems ignore it), or undefined when an entity may take it.
 */
export function frameworkTableConflict(table: string): string | undefined {
  const lower = table.toLowerCase();
  for (const [module, tables] of Object.entries(FRAMEWORK_TABLES)) {
    if (tables.includes(lower)) return `c'est la table « ${lower} » du framework (module ${module})`;
  }
  const prefix = FRAMEWORK_TABLE_PREFIXES.find((p) => lower.startsWith(p));
  if (prefix === 'sqlite_') return `le préfixe ${prefix} est réservé à SQLite`;
  if (prefix !== undefined) return `le préfixe ${prefix} est réservé aux tables du framework`;
  if (lower.endsWith(REBUILD_TABLE_SUFFIX)) return `le suffixe ${REBUILD_TABLE_SUFFIX} est celui de la table de passage des migrations SQLite`;
  return undefined;
}
