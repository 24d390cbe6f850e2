/** Identifier names shared by every dialect; each dialect quotes them its own way (its `spelling.ts`). */
import { createHash } from 'node:crypto';
import { spellingOf, type DialectName } from '../dialect.js';

/** MariaDB refuses identifiers longer than 64 characters; SQLite has no limit, but every dialect gets the same names. */
export const MAX_IDENTIFIER_LENGTH = 64;

/** The name itself when it fits, else its first 55 characters, `_` and 8 hex digits of its SHA-1 (stable). */
export function shortenIdentifier(name: string): string {
  if (name.length <= MAX_IDENTIFIER_LENGTH) return name;
  const hash = createHash('sha1').update(name).digest('hex').slice(0, 8);
  return `${name.slice(0, MAX_IDENTIFIER_LENGTH - 9)}_${hash}`;
}

/** Every identifier is quoted, so a column that is a reserved word (`Order`, `Group`) still works. */
export function quoteIdentifier(name: string, dialect: DialectName): string {
  return spellingOf(dialect).quote(name);
}
