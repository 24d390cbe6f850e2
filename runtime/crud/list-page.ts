/**
 * One page of a generated list with as little database work as the answer allows (docs/crud.md "The list page",
 * "What a page costs"): the rows are read first, and the exact `COUNT(*)` only runs when they cannot tell the
 * total themselves; a count is kept for a short window and forgotten on every write a generated model makes.
 */
import { getDatabase, type Database, type Row as DbRow } from '../db/database.js';
import type { Request } from '../http/request.js';
import { Pagination } from '../pagination.js';
import { ListQuery, type ListSpec } from './list-query.js';

/** How long a list's count is reused for the same query (search, filters) without a write in this process. */
export const LIST_COUNT_TTL_MS = 5_000;
/** Counts kept at most (per database); the oldest goes first. */
export const LIST_COUNT_MAX = 500;

interface CachedCount {
  readonly total: number;
  readonly expires: number;
  readonly generation: number;
}

const counts = new WeakMap<Database, Map<string, CachedCount>>();
let generation = 0;

/**
 * Forgets every cached list count of this process: the generated models call it after each insert, update and
 * delete (of any entity: a delete may cascade or set keys to NULL in another table). Writes made by another
 * process are seen when the window (LIST_COUNT_TTL_MS) ends, or at once when the rows contradict the count.
 */
export function forgetListCounts(): void {
  generation++;
}

/** The `total` of `sql` (a `SELECT COUNT(*) AS total …`), from the window's cache unless `fresh`. */
export async function listCount(sql: string, params: readonly unknown[], options: { fresh?: boolean } = {}): Promise<number> {
  if (!options.fresh) {
    const hit = cachedCount(sql, params);
    if (hit !== undefined) return hit;
  }
  const asked = generation;
  const row = await getDatabase().fetchOne<{ total: unknown }>(sql, params);
  const total = Number(row?.total ?? 0);
  remember(sql, params, total, asked);
  return total;
}

function cacheKey(sql: string, params: readonly unknown[]): string {
  return `${sql}\u0000${JSON.stringify(params)}`;
}

function cacheOf(database: Database): Map<string, CachedCount> {
  let cache = counts.get(database);
  if (!cache) {
    cache = new Map();
    counts.set(database, cache);
  }
  return cache;
}

/** The total kept for this query, if its window is open and no write happened since. */
function cachedCount(sql: string, params: readonly unknown[]): number | undefined {
  const hit = cacheOf(getDatabase()).get(cacheKey(sql, params));
  return hit && hit.expires > Date.now() && hit.generation === generation ? hit.total : undefined;
}

/** Keeps `total`, read when the generation was `asked`: a write that ended meanwhile may not be in it, so it is not kept. */
function remember(sql: string, params: readonly unknown[], total: number, asked: number): void {
  const cache = cacheOf(getDatabase());
  const key = cacheKey(sql, params);
  cache.delete(key);
  if (asked !== generation) return;
  cache.set(key, { total, expires: Date.now() + LIST_COUNT_TTL_MS, generation });
  if (cache.size > LIST_COUNT_MAX) cache.delete(cache.keys().next().value as string);
}

/** The SQL of a list page: `select` (its columns and joins, no WHERE) and `count` (`SELECT COUNT(*) AS total FROM <table> t`). */
export interface ListPageSql {
  readonly select: string;
  readonly count: string;
  readonly perPage: number;
}

/**
 * The page the request asks for: its `q`, filters, `sort`, `direction` and `page` read through `spec`.
 * - A count in the window's cache gives the total; rows that contradict it (a page shorter or longer than the count
 *   implies: another process wrote) make it counted again, and a kept 0 is always counted again.
 * - Without a search, the count comes first (an index scan), then the page's rows, none when it is 0: a sorted LIMIT
 *   over a filter that matches nothing would walk a whole index.
 * - With a search, which reads the whole table anyway, the rows come first: a page that is not full is the last one,
 *   its total is `offset + rows` and the table is read once, not twice; a full page is then counted.
 * The total stays exact, and a page asked past the end gives the last one, as `Pagination` clamps.
 */
export async function listPage<Row extends object = DbRow>(
  request: Pick<Request, 'params'>,
  spec: ListSpec,
  sql: ListPageSql,
): Promise<{ query: ListQuery; rows: Row[]; pagination: Pagination }> {
  const query = ListQuery.fromRequest(request, spec);
  const where = query.where();
  const rowsSql = `${sql.select} ${where.sql} ${query.orderBy()} LIMIT ? OFFSET ?`;
  const countSql = `${sql.count} ${where.sql}`;
  const options = { params: query.linkParams() };
  const paginate = (total: number): Pagination => new Pagination(request, total, sql.perPage, options);
  const counted = async (total: number, checked: boolean): Promise<{ query: ListQuery; rows: Row[]; pagination: Pagination }> => {
    const pagination = paginate(total);
    const rows = total === 0 ? [] : await fetchRows<Row>(rowsSql, where.params, sql.perPage, pagination.offset);
    const expected = Math.min(sql.perPage, total - pagination.offset);
    if (!checked && rows.length !== expected) return counted(await listCount(countSql, where.params, { fresh: true }), true);
    return { query, rows, pagination };
  };
  // A kept 0 is counted again: rows that appeared since could not contradict it (no rows are read for 0).
  const cached = cachedCount(countSql, where.params);
  if (cached !== undefined && cached > 0) return counted(cached, false);
  if (query.q === '') return counted(await listCount(countSql, where.params, { fresh: cached === 0 }), true);
  const offset = paginate(Number.MAX_SAFE_INTEGER).offset;
  const asked = generation;
  const rows = await fetchRows<Row>(rowsSql, where.params, sql.perPage, offset);
  if (rows.length > 0 && rows.length < sql.perPage) {
    const total = offset + rows.length;
    remember(countSql, where.params, total, asked);
    return { query, rows, pagination: paginate(total) };
  }
  if (rows.length === 0 && offset === 0) {
    remember(countSql, where.params, 0, asked);
    return { query, rows, pagination: paginate(0) };
  }
  if (rows.length === sql.perPage) return { query, rows, pagination: paginate(await listCount(countSql, where.params)) };
  // Past the end: the count decides the last page.
  return counted(await listCount(countSql, where.params, { fresh: true }), true);
}

function fetchRows<Row extends object>(sql: string, params: readonly unknown[], limit: number, offset: number): Promise<Row[]> {
  return getDatabase().fetchAll<Row>(sql, [...params, limit, offset]);
}
