/**
 * The write generation of this process: a number that grows once each write made through a `Database` of this
 * process has ended (`execute`, `insert`, a `fetchOne` / `fetchAll` of a statement that is not a plain read, the
 * COMMIT or ROLLBACK of a transaction). What keeps query results for a while (the list counts of
 * runtime/crud/list-page.ts, docs/crud.md "What a list page costs") compares it with the value it had when it read
 * them. Reads (`SELECT`, `SHOW`, `EXPLAIN`…) leave it alone: a page's own queries never forget its cache.
 */

let generation = 0;

/** The current write generation; it only grows. */
export function writeGeneration(): number {
  return generation;
}

/** Counts one write that has ended (or failed: a failure may have written part of a statement). */
export function noteWrite(): void {
  generation++;
}

const READ = /^[\s(]*(?:select|show|explain|describe|desc|values)\b/i;
const WITH = /^[\s(]*with\b/i;
const WRITE_WORD = /\b(?:insert|update|delete|replace)\b/i;

/**
 * True when `sql` only reads (it starts with SELECT, SHOW, EXPLAIN, DESCRIBE or VALUES, or is a WITH query without
 * INSERT, UPDATE, DELETE or REPLACE): `fetchOne` / `fetchAll` of it is not a write. Anything else (an
 * `INSERT … RETURNING`, a statement after a comment) counts as one: a write taken for a read would leave a stale
 * count, a read taken for a write costs one count.
 */
export function onlyReads(sql: string): boolean {
  return READ.test(sql) || (WITH.test(sql) && !WRITE_WORD.test(sql));
}

/**
 * The framework's bookkeeping tables, written on the way of ordinary requests (the sliding expiry of a database
 * session, a counted attempt, the outbox's claims): no generated list shows them, so their writes keep the counts.
 * Each is named here by the module that owns it (bookkeepingTable), when that module loads.
 */
const bookkeeping = new Set<string>();
const WRITE_TARGET = /^\s*(?:insert\s+(?:ignore\s+)?into|replace\s+into|update|delete\s+from)\s+[`"]?([A-Za-z0-9_]+)[`"]?(?:\s|$)/i;

/** Declares `table` a bookkeeping table (above). */
export function bookkeepingTable(table: string): void {
  bookkeeping.add(table.toLowerCase());
}

/** True when `sql` writes only to a bookkeeping table: it does not grow the write generation. */
export function onlyBookkeeping(sql: string): boolean {
  const target = WRITE_TARGET.exec(sql)?.[1];
  return target !== undefined && bookkeeping.has(target.toLowerCase());
}
