/** What the auth repositories (users.ts, roles.ts) share: the database they work on and the time they stamp. */
import { getDatabase, type Queryable } from '../db/database.js';
import { formatUtcDateTime } from '../db/params.js';

/** The given database, connection or transaction; else the application's default database (runtime/db). */
export function authDb(db?: Queryable): Queryable {
  return db ?? getDatabase();
}

/** The current time as the auth tables store it (UTC, `YYYY-MM-DD HH:MM:SS`). */
export function utcNow(): string {
  return formatUtcDateTime(new Date());
}

/**
 * A DATETIME value as `YYYY-MM-DD HH:MM:SS`: mysql2 gives strings here (`dateStrings`, runtime/db/dialects/mariadb/driver.ts),
 * SQLite the text that was stored; a Date (another driver setting) is formatted in UTC; fractions are dropped.
 */
export function dateTimeText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return formatUtcDateTime(value);
  return String(value).replace('T', ' ').slice(0, 19);
}
