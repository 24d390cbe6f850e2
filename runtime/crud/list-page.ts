/**
 * One page of a generated list with as little database work as the answer allows (docs/crud.md "The list page",
 * "What a list page costs"): the exact `COUNT(*)` only runs when the rows cannot tell the total themselves; a count
 * is kept for a short window and forgotten on every write this process makes through the framework's Database API;
 * a far page reads its keys first, then joins its rows to them.
 */
import { getDatabase, type Database, type Row as DbRow } from '../db/database.js';
import type { DialectName } from '../db/dialect.js';
import { queriesOf } from '../db/dialects/index.js';
import { writeGeneration } from '../db/writes.js';
import type { Request } from '../http/request.js';
import { Pagination } from '../pagination.js';
import { ListQuery, type ListSpec, type SqlFragment } from './list-query.js';

/** How long a list's count is reused for the same query (search, filters) without a write in this process. */
export const LIST_COUNT_TTL_MS = 5_000;
/**
 * From this OFFSET on, a page's keys are read first and its rows joined to them (`listRowsQuery`). Measured on
 * 100,000 rows, it wins or ties from there on every sort, filter and search of both dialects; before it, MariaDB may
 * plan the keys' subquery worse (10 ms against 0.1 for a narrow filter on page 2). The figures:
 * docs/performance.md "Far pages: the keys first, then the rows".
 */
export const KEYS_FIRST_OFFSET = 1_000;
/** Counts kept at most (per database); the oldest goes first. */
export const LIST_COUNT_MAX = 500;

interface CachedCount {
  readonly total: number;
  readonly expires: number;
  readonly generation: number;
}

const counts = new WeakMap<Database, Map<string, CachedCount>>();
let forgotten = 0;

/**
 * What a kept count is valid for: it grows with every write made through a `Database` of this process (`execute`,
 * `insert`, a transaction's end: runtime/db/writes.ts) and with every `forgetListCounts()`.
 */
function generation(): number {
  return writeGeneration() + forgotten;
}

/**
 * Forgets every cached list count of this process. Writes made through the framework's Database API (`execute`,
 * `insert`, `transaction`, of any table: a delete may cascade or set keys to NULL in another one) already do it,
 * the generated models' included; call it after a write this process makes another way (a driver of its own).
 * Writes made by another process are seen when the window (LIST_COUNT_TTL_MS) ends, or at once when the rows
 * contradict the count.
 */
export function forgetListCounts(): void {
  forgotten++;
}

let clock: () => number = Date.now;

/**
 * The clock of the count windows, in milliseconds as `Date.now` (null: `Date.now` again). Not exported by
 * fw-mvc: a test moves it past LIST_COUNT_TTL_MS instead of waiting (docs/decisions.md "Clocks the tests move, and what a test waits for").
 */
export function setListCountClock(now: (() => number) | null): void {
  clock = now ?? Date.now;
}

/** The `total` of `sql` (a `SELECT COUNT(*) AS total …`), from the window's cache unless `fresh`. */
export async function listCount(sql: string, params: readonly unknown[], options: { fresh?: boolean } = {}): Promise<number> {
  if (!options.fresh) {
    const hit = cachedCount(sql, params);
    if (hit !== undefined) return hit;
  }
  const asked = generation();
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
  return hit && hit.expires > clock() && hit.generation === generation() ? hit.total : undefined;
}

/** Keeps `total`, read when the generation was `asked`: a write that ended meanwhile may not be in it, so it is not kept. */
function remember(sql: string, params: readonly unknown[], total: number, asked: number): void {
  const cache = cacheOf(getDatabase());
  const key = cacheKey(sql, params);
  cache.delete(key);
  if (asked !== generation()) return;
  cache.set(key, { total, expires: clock() + LIST_COUNT_TTL_MS, generation: asked });
  if (cache.size > LIST_COUNT_MAX) cache.delete(cache.keys().next().value!);
}

/** The SQL of a list page: `select` (its columns and joins, no WHERE) and `count` (`SELECT COUNT(*) AS total FROM <table> t`). */
export interface ListPageSql {
  readonly select: string;
  readonly count: string;
  readonly perPage: number;
  /**
   * Whether the page's keys are read first and its rows joined to them (`keysFirstSql`): true for every page, false
   * for none; by default, as `listRowsQuery` decides.
   */
  readonly keysFirst?: boolean;
  /** A condition every row also meets (a controller's `scope`): part of the WHERE, of the count and of its cache key. */
  readonly scope?: SqlFragment | null;
}

/**
 * The page the request asks for: its `q`, filters, `sort`, `direction` and `page` read through `spec`.
 * - A count in the window's cache gives the total; rows that contradict it (a page shorter or longer than the count
 *   implies: another process wrote) make it counted again, and a kept 0 is always counted again.
 * - Without a search, the count comes first (an index scan), then the page's rows, none when it is 0: a sorted LIMIT
 *   over a filter that matches nothing would walk a whole index.
 * - With a search, which reads the whole table anyway, the rows come first: a page that is not full is the last one,
 *   its total is `offset + rows` and the table is read once, not twice; a full page is then counted.
 * - The rows of a far page (and of a whole-table sort no index orders) are read keys first (`listRowsQuery`).
 * The total stays exact, and a page asked past the end gives the last one, as `Pagination` clamps.
 */
export async function listPage<Row extends object = DbRow>(
  request: Pick<Request, 'params'>,
  spec: ListSpec,
  sql: ListPageSql,
): Promise<{ query: ListQuery; rows: Row[]; pagination: Pagination }> {
  const query = ListQuery.fromRequest(request, spec, sql.scope ?? null);
  const where = query.where();
  const countSql = `${sql.count} ${where.sql}`;
  const fetchRows = (offset: number): Promise<Row[]> => {
    const rows = listRowsQuery(sql, query, offset);
    return getDatabase().fetchAll<Row>(rows.sql, rows.params);
  };
  const options = { params: query.linkParams() };
  const paginate = (total: number): Pagination => new Pagination(request, total, sql.perPage, options);
  const counted = async (total: number, checked: boolean): Promise<{ query: ListQuery; rows: Row[]; pagination: Pagination }> => {
    const pagination = paginate(total);
    const rows = total === 0 ? [] : await fetchRows(pagination.offset);
    const expected = Math.min(sql.perPage, total - pagination.offset);
    if (!checked && rows.length !== expected) return counted(await listCount(countSql, where.params, { fresh: true }), true);
    return { query, rows, pagination };
  };
  // A kept 0 is counted again: rows that appeared since could not contradict it (no rows are read for 0).
  const cached = cachedCount(countSql, where.params);
  if (cached !== undefined && cached > 0) return counted(cached, false);
  if (query.q === '') return counted(await listCount(countSql, where.params, { fresh: cached === 0 }), true);
  const offset = paginate(Number.MAX_SAFE_INTEGER).offset;
  const asked = generation();
  const rows = await fetchRows(offset);
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

/**
 * The SQL and parameters of a page's rows at `offset`. Its keys are read first (`keysFirstSql`) where that was
 * measured to pay (docs/performance.md "Far pages: the keys first, then the rows"): from OFFSET KEYS_FIRST_OFFSET
 * on, and on every page of a list that neither searches nor filters and is sorted by a column no index orders
 * (`ListQuery.sortFollowsIndex`), whose plain form sorts whole rows. Otherwise, and for a `select` that
 * `keysFirstSql` cannot rewrite, `<select> WHERE … ORDER BY … LIMIT ? OFFSET ?`. `sql.keysFirst` forces either form.
 */
export function listRowsQuery(sql: ListPageSql, query: ListQuery, offset: number, dialect: DialectName = getDatabase().driver): SqlFragment {
  const where = query.where(dialect);
  const orderBy = query.orderBy(dialect);
  const params = [...where.params, sql.perPage, offset];
  const wanted = sql.keysFirst ?? (offset >= KEYS_FIRST_OFFSET || (!query.isFiltered && !query.sortFollowsIndex(dialect)));
  const keysFirst = wanted ? keysFirstSql(sql, query.spec.sortable[query.spec.defaultSort]!, where.sql, orderBy, dialect) : null;
  return { sql: keysFirst ?? `${sql.select} ${where.sql} ${orderBy} LIMIT ? OFFSET ?`, params };
}

/**
 * The rows of one page read in two steps: the keys of the page first (`SELECT t.Id … LIMIT ? OFFSET ?`, which walks
 * an index holding the key instead of whole rows), then the rows and the labels of their references joined to those
 * keys, in the same order: `SELECT <columns> FROM (SELECT t.Id AS fw_key FROM <table> t WHERE … ORDER BY … LIMIT ?
 * OFFSET ?) fw_k JOIN <table> t ON t.Id = fw_k.fw_key LEFT JOIN … ORDER BY …`. The parameters are those of the
 * plain form (`where`'s, then the limit and the offset). `key` is the primary key's expression (`t.Id`). Null when
 * `select` does not hold the count's `FROM <table> t` once (a model written by hand): the plain form is used. On
 * SQLite the join is a `CROSS JOIN`, which keeps the page's keys as the outer loop: with a plain `JOIN` its planner
 * may scan the whole table and look each row up among the keys.
 */
export function keysFirstSql(sql: Pick<ListPageSql, 'select' | 'count'>, key: string, where: string, orderBy: string, dialect: DialectName): string | null {
  const fromAt = sql.count.search(/ FROM /i);
  if (fromAt < 0) return null;
  const from = sql.count.slice(fromAt); // ` FROM <table> t`
  const at = sql.select.indexOf(from);
  const rest = at < 0 ? '' : sql.select.slice(at + from.length);
  if (at < 0 || (rest !== '' && !rest.startsWith(' ')) || sql.select.includes(from, at + 1)) return null;
  const keys = `SELECT ${key} AS fw_key${from} ${where} ${orderBy} LIMIT ? OFFSET ?`;
  const join = queriesOf(dialect).keysJoin;
  return `${sql.select.slice(0, at)} FROM (${keys}) fw_k ${join}${from.slice(' FROM'.length)} ON ${key} = fw_k.fw_key${rest} ${orderBy}`;
}
