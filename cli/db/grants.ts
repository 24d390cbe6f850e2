/**
 * The application account's grants as MariaDB prints them (`SHOW GRANTS`), read for `db:init`: does the account
 * hold its privileges on the database, and does it hold more? By default it gets SELECT, INSERT, UPDATE, DELETE
 * (what the application needs: the schema commands run with the admin account, docs/entities.md "Which
 * account"); `DB_APP_PRIVILEGES` lists others. Anything beyond that list (CREATE, DROP, ALTER, ALL PRIVILEGES,
 * GRANT OPTION, a global privilege) is reported with the REVOKE that takes it away, never revoked by fw itself.
 */

/** The privileges of the application account when `DB_APP_PRIVILEGES` is empty: what the running application needs. */
export const APP_PRIVILEGES = ['SELECT', 'INSERT', 'UPDATE', 'DELETE'] as const;

/** Privileges MariaDB grants on `base`.* (GRANT … ON `base`.*), in the order SHOW GRANTS prints them. */
export const DATABASE_PRIVILEGES = [
  'SELECT',
  'INSERT',
  'UPDATE',
  'DELETE',
  'CREATE',
  'DROP',
  'REFERENCES',
  'INDEX',
  'ALTER',
  'CREATE TEMPORARY TABLES',
  'LOCK TABLES',
  'EXECUTE',
  'CREATE VIEW',
  'SHOW VIEW',
  'CREATE ROUTINE',
  'ALTER ROUTINE',
  'EVENT',
  'TRIGGER',
  'DELETE HISTORY',
] as const;

/**
 * The privileges listed in `DB_APP_PRIVILEGES` (comma-separated, any case), in SHOW GRANTS order, or the default
 * four when the value is empty. Throws a message naming each unknown name (ALL PRIVILEGES and GRANT OPTION are
 * refused: they are not a list of what the application needs).
 */
export function parseAppPrivileges(value: string | undefined): readonly string[] | { readonly unknown: readonly string[] } {
  if (!value || value.trim() === '') return APP_PRIVILEGES;
  const names = value.split(',').map((part) => part.trim().replace(/\s+/g, ' ').toUpperCase());
  const known = new Set<string>(DATABASE_PRIVILEGES);
  const unknown = names.filter((name) => !known.has(name));
  if (unknown.length > 0) return { unknown: unknown.map((name) => name || '(vide)') };
  return DATABASE_PRIVILEGES.filter((privilege) => names.includes(privilege));
}

/** Privileges of one grant line that the application account should not have. */
export interface ExtraGrant {
  /** As SHOW GRANTS prints it: `*.*` or `` `base`.* `` (escaped or not, as granted: REVOKE needs the same). */
  readonly on: string;
  readonly privileges: readonly string[];
}

const LINE = /^GRANT (.+?) ON (\*\.\*|`(?:[^`]|``)+`\.\*) TO /;

interface GrantLine {
  readonly on: string;
  /** The database named by `on`, unescaped of nothing: as printed between backticks; null for `*.*`. */
  readonly database: string | null;
  readonly privileges: readonly string[];
}

function parse(line: string): GrantLine | null {
  const match = LINE.exec(line);
  if (!match) return null; // table- or column-level grants, roles, proxies: outside what db:init manages
  const privileges = match[1]!.split(',').map((part) => part.trim().toUpperCase());
  if (/\bWITH GRANT OPTION\b/i.test(line)) privileges.push('GRANT OPTION');
  const on = match[2]!;
  return { on, database: on === '*.*' ? null : on.slice(1, -3).replace(/``/g, '`'), privileges };
}

/** The names a grant on `database` may carry: as is, or with `_` escaped (the form db:init grants). */
function databaseNames(database: string): Set<string> {
  return new Set([database, database.replace(/_/g, '\\_')]);
}

/** True when a grant line gives at least `privileges` on `database`.* (escaped or not). */
export function hasAppGrant(grants: readonly string[], database: string, privileges: readonly string[] = APP_PRIVILEGES): boolean {
  const names = databaseNames(database);
  return grants.some((text) => {
    const line = parse(text);
    if (!line || line.database === null || !names.has(line.database)) return false;
    return privileges.every((privilege) => line.privileges.includes(privilege));
  });
}

/** Privileges beyond `granted`, on `database`.* or on every database (`*.*`, USAGE aside), by grant line. */
export function extraGrants(grants: readonly string[], database: string, granted: readonly string[] = APP_PRIVILEGES): ExtraGrant[] {
  const names = databaseNames(database);
  const allowed = new Set<string>(granted);
  const extras: ExtraGrant[] = [];
  for (const text of grants) {
    const line = parse(text);
    if (!line) continue;
    if (line.database === null) {
      const privileges = line.privileges.filter((privilege) => privilege !== 'USAGE');
      if (privileges.length > 0) extras.push({ on: line.on, privileges });
    } else if (names.has(line.database)) {
      const privileges = line.privileges.filter((privilege) => !allowed.has(privilege));
      if (privileges.length > 0) extras.push({ on: line.on, privileges });
    }
  }
  return extras;
}

/** `REVOKE … ON … FROM 'login'@'host';` for one extra grant. */
export function revokeStatement(extra: ExtraGrant, login: string, host: string): string {
  return `REVOKE ${extra.privileges.join(', ')} ON ${extra.on} FROM '${login}'@'${host}';`;
}
