/**
 * Many-to-many links of the generated CRUD pages (docs/crud.md "Many-to-many"): the ids a form posts are saved in
 * the pivot table with the record, in its transaction. Table and column names come from the generated crud module,
 * never from the request; every id goes through a `?`.
 */
import { execute, fetchAll, type Transaction } from '../db/database.js';
import { placeholders } from './ids.js';

/** Where the links of one many-to-many relation live, seen from one side. */
export interface LinkSpec {
  /** The pivot table. */
  readonly table: string;
  /** Its column holding the record's key, and the one holding the other side's. */
  readonly ownColumn: string;
  readonly otherColumn: string;
  /** Extra pivot columns and the value each new link gets (a default: the form does not edit them). */
  readonly extra?: Readonly<Record<string, () => unknown>>;
}

/** How many ids one statement carries at most: far below SQLite's and MariaDB's limits on parameters. */
const CHUNK = 500;

/** The other side's ids linked to `id`, in ascending order. */
export async function linkedIds(spec: LinkSpec, id: number, tx?: Transaction): Promise<number[]> {
  const rows = await fetchAll<{ other: unknown }>(`SELECT ${spec.otherColumn} AS other FROM ${spec.table} WHERE ${spec.ownColumn} = ? ORDER BY ${spec.otherColumn}`, [id], tx);
  return rows.map((row) => Number(row.other));
}

/**
 * Makes the links of `id` exactly `ids`: removes the others, adds the missing ones with the extra columns' defaults,
 * leaves the links that stay untouched (their extra columns keep their values). Returns what changed.
 */
export async function replaceLinks(spec: LinkSpec, id: number, ids: readonly number[], tx: Transaction): Promise<{ added: number; removed: number }> {
  const wanted = [...new Set(ids)];
  const current = new Set(await linkedIds(spec, id, tx));
  const removed = [...current].filter((other) => !wanted.includes(other));
  const added = wanted.filter((other) => !current.has(other));
  for (let i = 0; i < removed.length; i += CHUNK) {
    const chunk = removed.slice(i, i + CHUNK);
    await execute(`DELETE FROM ${spec.table} WHERE ${spec.ownColumn} = ? AND ${spec.otherColumn} IN (${placeholders(chunk.length)})`, [id, ...chunk], tx);
  }
  const extra = Object.entries(spec.extra ?? {});
  const columns = [spec.ownColumn, spec.otherColumn, ...extra.map(([column]) => column)];
  const perRow = `(${placeholders(columns.length)})`;
  const rowsPerStatement = Math.max(1, Math.floor(CHUNK / columns.length));
  for (let i = 0; i < added.length; i += rowsPerStatement) {
    const chunk = added.slice(i, i + rowsPerStatement);
    const params = chunk.flatMap((other) => [id, other, ...extra.map(([, value]) => value())]);
    await execute(`INSERT INTO ${spec.table} (${columns.join(', ')}) VALUES ${chunk.map(() => perRow).join(', ')}`, params, tx);
  }
  return { added: added.length, removed: removed.length };
}

/**
 * The keys a many-to-many select must offer whatever their rank (the record's links, the values posted), from a
 * list of ids, a request's list of values or a comma list (`'1,2'`), as RelatedIdsField reads them.
 */
export function relatedKeys(value: unknown): string[] {
  const items: unknown[] = Array.isArray(value) ? value : [value];
  const keys: string[] = [];
  for (const item of items) {
    if (typeof item !== 'string' && typeof item !== 'number' && typeof item !== 'bigint') continue;
    for (const piece of String(item).split(',')) {
      const key = piece.trim();
      if (key !== '' && !keys.includes(key)) keys.push(key);
    }
  }
  return keys;
}
