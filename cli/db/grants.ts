/**
 * The application account's grants as MariaDB prints them (`SHOW GRANTS`), read for `db:init`: does the account
 * hold the four privileges on the database, and does it hold more? The runtime spec gives it SELECT, INSERT,
 * UPDATE, DELETE only; anything else (CREATE, DROP, ALTER, ALL PRIVILEGES, GRANT OPTION, a global privilege)
 * is reported with the REVOKE that takes it away, never revoked by fw itself.
 */

/** The privileges of the application account, and nothing else (runtime spec "Database access"). */
export const APP_PRIVILEGES = ['SELECT', 'INSERT', 'UPDATE', 'DELETE'] as const;

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

/** True when a grant line gives at least the four privileges on `database`.* (escaped or not). */
export function hasAppGrant(grants: readonly string[], database: string): boolean {
  const names = databaseNames(database);
  return grants.some((text) => {
    const line = parse(text);
    if (!line || line.database === null || !names.has(line.database)) return false;
    return APP_PRIVILEGES.every((privilege) => line.privileges.includes(privilege));
  });
}

/** Privileges beyond the four, on `database`.* or on every database (`*.*`, USAGE aside), by grant line. */
export function extraGrants(grants: readonly string[], database: string): ExtraGrant[] {
  const names = databaseNames(database);
  const allowed = new Set<string>(APP_PRIVILEGES);
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
