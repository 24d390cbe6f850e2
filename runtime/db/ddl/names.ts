/** Identifier spelling shared by both dialects. */
import { createHash } from 'node:crypto';

/** MariaDB refuses identifiers longer than 64 characters; SQLite has no limit, but both get the same names. */
export const MAX_IDENTIFIER_LENGTH = 64;

/** The name itself when it fits, else its first 55 characters, `_` and 8 hex digits of its SHA-1 (stable). */
export function shortenIdentifier(name: string): string {
  if (name.length <= MAX_IDENTIFIER_LENGTH) return name;
  const hash = createHash('sha1').update(name).digest('hex').slice(0, 8);
  return `${name.slice(0, MAX_IDENTIFIER_LENGTH - 9)}_${hash}`;
}

/** Every identifier is quoted, so a column that is a reserved word (`Order`, `Group`) still works. */
export function quoteIdentifier(name: string, dialect: 'mariadb' | 'sqlite'): string {
  return dialect === 'mariadb' ? `\`${name.replace(/`/g, '``')}\`` : `"${name.replace(/"/g, '""')}"`;
}
