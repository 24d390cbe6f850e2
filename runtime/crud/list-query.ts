/**
 * The state of a generated list page, read from the query string through allow-lists (docs/crud.md
 * "The list page"): search `q`, `page`, `sort`, `direction` and equality filters. Column names only ever
 * come from the `ListSpec` the generator wrote, never from the request; every value is a `?` parameter.
 */
import { getDatabase } from '../db/database.js';
import type { DialectName } from '../db/dialect.js';
import { queriesOf } from '../db/dialects/index.js';
import type { Request } from '../http/request.js';
import type { PageLinkParam } from '../pagination.js';
import { formPairs, formQuery, joinPairs } from '../http/url-encoded.js';

/** How a filter reads its value: text input (text, int), All / Yes / No select (bool), select of target labels (relation). */
export type FilterKind = 'text' | 'int' | 'bool' | 'relation';

export interface ListFilterSpec {
  /** The SQL expression compared with `=`, e.g. `t.VilleId`. */
  readonly column: string;
  readonly kind: FilterKind;
  /**
   * Instead of `column = ?`, a condition with one `?` (a many-to-many filter: the rows linked to the chosen record,
   * `EXISTS (SELECT 1 FROM <pivot> p WHERE p.<own> = t.<key> AND p.<other> = ?)`). Written by `fw make:crud`.
   */
  readonly match?: string;
}

/** The allow-lists of one list page, written by `fw make:crud` into the entity's model. */
export interface ListSpec {
  /** Sort key (a field name) → SQL expression; every column of the entity, primary key included. */
  readonly sortable: Readonly<Record<string, string>>;
  /** The key of the default sort (the primary key), always descending. */
  readonly defaultSort: string;
  /** Textual columns (VARCHAR, CHAR, TEXT) searched by `q`. */
  readonly searchable: readonly string[];
  /**
   * Sort keys whose column holds text, sorted in Unicode order ignoring case and accents on SQLite as on MariaDB
   * (docs/crud.md "Search and sort on SQLite"). Optional: without it, the sort keys whose column is `searchable`.
   */
  readonly textSorts?: readonly string[];
  /**
   * Sort keys whose column is DECIMAL: SQLite stores it as text at the declared scale (docs/entities.md "Types"),
   * so it is ordered there by its numeric value (`9.00` before `10.00`), as MariaDB orders the column itself.
   */
  readonly decimalSorts?: readonly string[];
  /** Filter key (a field name) → column and kind; fields with `list.filter` and many-to-one foreign keys. */
  readonly filters: Readonly<Record<string, ListFilterSpec>>;
}

/** A filter key that is not in the allow-list (a `ValueError` under the old Python name; docs/api-mapping.md). */
export class UnknownFilterError extends Error {
  override readonly name = 'UnknownFilterError';
  constructor(key: string, allowed: readonly string[]) {
    super(`Filtre inconnu « ${key} » : les filtres autorisés sont ${allowed.length ? allowed.map((k) => `« ${k} »`).join(', ') : '(aucun)'}.`);
  }
}

/** A SQL fragment and its `?` parameters. */
export interface SqlFragment {
  readonly sql: string;
  readonly params: readonly unknown[];
}

/** Which empty-state message a list shows (`crud.empty_search`, `crud.empty_filters`, `crud.empty_search_filters`, `crud.empty`). */
export type EmptyContext = 'search' | 'filters' | 'search_filters' | 'general';

/** The character that escapes `%`, `_` and itself in LIKE patterns (the same on MariaDB and SQLite). */
const LIKE_ESCAPE = '!';

/** `%`, `_` and the escape character made literal, so `q=50%` looks for "50%" and not for "50" followed by anything. */
export function escapeLike(text: string): string {
  return text.replace(/[!%_]/g, (c) => LIKE_ESCAPE + c);
}

const INTEGER = /^-?\d{1,15}$/;

/** The parsed, allow-listed state of one list request. */
export class ListQuery {
  /** The search text, trimmed ('' when absent). */
  readonly q: string;
  /** The sort key asked for when it is allowed (the primary key for a `direction` alone), else null (default sort). */
  readonly sort: string | null;
  /** `asc` or `desc`; `asc` when invalid; `desc` for the default sort (no `sort`, or an unknown one, and no valid `direction`). */
  readonly direction: 'asc' | 'desc';
  /** Active filters: key → the value as given (only allowed keys with a usable value). */
  readonly filters: Readonly<Record<string, string>>;
  /** The encoded state without the sort, for the column headers' links (sortUrl). */
  #unsorted: Array<readonly [string, string]> | undefined;

  private constructor(
    readonly spec: ListSpec,
    q: string,
    sort: string | null,
    direction: 'asc' | 'desc',
    filters: Record<string, string>,
    /** A condition every row of this list also meets (a controller's `scope`, docs/crud.md "Hooks"), or null. */
    readonly scope: SqlFragment | null = null,
  ) {
    this.q = q;
    this.sort = sort;
    this.direction = direction;
    this.filters = Object.freeze(filters);
  }

  /**
   * The state of `request`'s query string; unknown sort keys and filter keys are ignored, bad values dropped. `scope`
   * (SQL written by the application, never the request's) narrows every query of the list.
   */
  static fromRequest(request: Pick<Request, 'params'>, spec: ListSpec, scope: SqlFragment | null = null): ListQuery {
    const first = (name: string): string => (request.params[name]?.[0] ?? '').trim();
    const q = first('q');
    const askedSort = first('sort');
    const askedDirection = first('direction').toLowerCase();
    let sort: string | null = Object.hasOwn(spec.sortable, askedSort) ? askedSort : null;
    let direction: 'asc' | 'desc' = sort === null ? 'desc' : askedDirection === 'desc' ? 'desc' : 'asc';
    // `?direction=asc` alone orders the default sort key that way (it is then a chosen sort, kept by the links). An
    // unknown `sort` is not "no sort": it gets the default sort, descending, whatever the direction.
    if (askedSort === '' && (askedDirection === 'asc' || askedDirection === 'desc')) {
      sort = spec.defaultSort;
      direction = askedDirection;
    }
    const filters: Record<string, string> = {};
    for (const [key, filter] of Object.entries(spec.filters)) {
      const value = first(key);
      if (value !== '' && acceptsValue(filter.kind, value)) filters[key] = value;
    }
    return new ListQuery(spec, q, sort, direction, filters, scope);
  }

  /** True when a search or a filter narrows the list (the reset link shows). */
  get isFiltered(): boolean {
    return this.q !== '' || Object.keys(this.filters).length > 0;
  }

  get emptyContext(): EmptyContext {
    const searching = this.q !== '';
    const filtering = Object.keys(this.filters).length > 0;
    if (searching && filtering) return 'search_filters';
    if (searching) return 'search';
    if (filtering) return 'filters';
    return 'general';
  }

  /** The i18n key of the empty-state message. */
  get emptyMessageKey(): string {
    return this.emptyContext === 'general' ? 'crud.empty' : `crud.empty_${this.emptyContext}`;
  }

  /**
   * The SQL of one equality filter; UnknownFilterError when `key` is not in the allow-list. A text filter matches
   * as MariaDB's utf8mb4_unicode_ci `=` does on both dialects (`chat` finds `Chat` and `Chât`, trailing spaces
   * ignored): MariaDB's collation does it, SQLite compares the `fw_sort_key` of both sides (docs/crud.md
   * "Search and sort on SQLite").
   */
  filterClause(key: string, value: string, dialect: DialectName = currentDialect()): SqlFragment {
    const filter = Object.hasOwn(this.spec.filters, key) ? this.spec.filters[key] : undefined;
    if (!filter) throw new UnknownFilterError(key, Object.keys(this.spec.filters));
    const text = filter.kind === 'text' && !filter.match ? queriesOf(dialect).textEquals(filter.column, value) : null;
    if (text) return text;
    return { sql: filter.match ?? `${filter.column} = ?`, params: [filterValue(filter.kind, value)] };
  }

  /**
   * `WHERE (search) AND filter = ? AND … AND (scope)`, or '' when nothing narrows the list. The search ignores case and
   * accents on both dialects: MariaDB's collation does it, SQLite calls `fw_contains` (folded text holds the folded
   * `q`). `dialect` defaults to the driver of the default database, the one the generated models query.
   */
  where(dialect: DialectName = currentDialect()): SqlFragment {
    const parts: string[] = [];
    const params: unknown[] = [];
    const search = this.q !== '' && this.spec.searchable.length > 0 ? queriesOf(dialect).textSearch(this.q, this.spec.searchable) : null;
    if (search) {
      parts.push(search.sql);
      params.push(...search.params);
    } else if (this.q !== '' && this.spec.searchable.length > 0) {
      const pattern = `%${escapeLike(this.q)}%`;
      parts.push(`(${this.spec.searchable.map((column) => `${column} LIKE ? ESCAPE '${LIKE_ESCAPE}'`).join(' OR ')})`);
      params.push(...this.spec.searchable.map(() => pattern));
    } else if (this.q !== '') {
      // Nothing textual to search: a search finds nothing rather than everything.
      parts.push('1 = 0');
    }
    for (const [key, value] of Object.entries(this.filters)) {
      const clause = this.filterClause(key, value, dialect);
      parts.push(clause.sql);
      params.push(...clause.params);
    }
    if (this.scope) {
      parts.push(`(${this.scope.sql})`);
      params.push(...this.scope.params);
    }
    return { sql: parts.length ? `WHERE ${parts.join(' AND ')}` : '', params };
  }

  /**
   * `ORDER BY <allowed column> ASC|DESC`, then the primary key in the same direction when the column is another
   * one: rows with equal values keep one order, so that no row shows on two pages or on none. On SQLite a text
   * column is ordered by `fw_sort_key` (MariaDB's order); numbers and dates keep their own.
   */
  orderBy(dialect: DialectName = currentDialect()): string {
    const key = this.sort ?? this.spec.defaultSort;
    const column = this.spec.sortable[key];
    const primary = this.spec.sortable[this.spec.defaultSort];
    if (column === undefined || primary === undefined) throw new UnknownFilterError(key, Object.keys(this.spec.sortable));
    const direction = this.direction.toUpperCase();
    // The primary key breaks ties as stored: two keys equal for the collation (`A`, `a`) may both exist on SQLite.
    const tieBreak = `${primary} ${direction}`;
    const sortKey = this.#sortKey(key, column, dialect);
    if (sortKey !== column) return `ORDER BY ${sortKey} ${direction}, ${tieBreak}`;
    return key === this.spec.defaultSort ? `ORDER BY ${tieBreak}` : `ORDER BY ${column} ${direction}, ${tieBreak}`;
  }

  /**
   * True when an index can give the rows in `orderBy()`'s order: the default sort (the primary key), or the column
   * of an equality filter (`fw` gives each an index, which also holds the key: docs/crud.md "Indexes"), unless SQLite
   * orders it through `fw_sort_key` or a CAST (text and DECIMAL sorts), which no index holds.
   */
  sortFollowsIndex(dialect: DialectName = currentDialect()): boolean {
    const key = this.sort ?? this.spec.defaultSort;
    if (key === this.spec.defaultSort) return true;
    const column = this.spec.sortable[key];
    if (column !== undefined && this.#sortKey(key, column, dialect) !== column) return false;
    return Object.values(this.spec.filters).some((filter) => filter.match === undefined && filter.column === column);
  }

  /** What orders the rows by `key`: its column, or on SQLite a function of it for a text or DECIMAL column. */
  #sortKey(key: string, column: string, dialect: DialectName): string {
    if (this.#isText(key)) return queriesOf(dialect).textSortKey(column);
    if (this.spec.decimalSorts?.includes(key)) return queriesOf(dialect).decimalSortKey(column);
    return column;
  }

  #isText(sortKey: string): boolean {
    if (this.spec.textSorts) return this.spec.textSorts.includes(sortKey);
    const column = this.spec.sortable[sortKey];
    return column !== undefined && this.spec.searchable.includes(column);
  }

  /** The state that links keep: `q`, active filters, and `sort` / `direction` when a sort was chosen. */
  linkParams(options: { sort?: boolean } = {}): Record<string, PageLinkParam> {
    const params: Record<string, PageLinkParam> = { q: this.q, ...this.filters };
    if (options.sort !== false && this.sort !== null) {
      params.sort = this.sort;
      params.direction = this.direction;
    }
    return params;
  }

  /**
   * What a form that comes back to this list carries (the delete forms of the rows): the non-empty `linkParams()`,
   * and `page` past the first. Empty values are left out here rather than in the template, which loops over this
   * once per row.
   */
  formState(page: number): Record<string, PageLinkParam> {
    const state: Record<string, PageLinkParam> = {};
    for (const [name, value] of Object.entries(this.linkParams())) if (value !== '' && value !== null && value !== undefined) state[name] = value;
    if (page > 1) state.page = String(page);
    return state;
  }

  /** The link of a column header: sorts by `key` (toggling the direction when it is already the sort), keeps `q` and filters, back to page 1. */
  sortUrl(base: string, key: string): string {
    const direction = this.sort === key && this.direction === 'asc' ? 'desc' : 'asc';
    // The state without the sort is the same for every header: encoded once, then merged by name with the sort.
    this.#unsorted ??= formPairs(this.linkParams({ sort: false })).filter(([name]) => name !== 'sort' && name !== 'direction');
    const sorting = formPairs({ sort: key, direction });
    const merged = [...this.#unsorted, ...sorting].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return `${base}?${joinPairs(merged)}`;
  }

  /** `asc`, `desc` or '' (not sorted by this key): for the arrow of a column header. */
  sortState(key: string): string {
    return this.sort === key ? this.direction : '';
  }

  /** The list link with the whole state but the page (CSV export, return after an action). */
  urlWithState(base: string): string {
    return withQuery(base, this.linkParams());
  }
}

/**
 * A text column in an ORDER BY outside the list query (the choices of a select, the labels of links): on SQLite its
 * MariaDB `utf8mb4_unicode_ci` order through `fw_sort_key`, the column itself on MariaDB. `column` comes from
 * generated code, never from a request.
 */
export function textOrder(column: string, dialect: DialectName = currentDialect()): string {
  return queriesOf(dialect).textSortKey(column);
}

/** The driver of the default database (the generated models query it through `fetchAll`). */
function currentDialect(): DialectName {
  return getDatabase().driver;
}

function acceptsValue(kind: FilterKind, value: string): boolean {
  switch (kind) {
    case 'bool':
      return value === '1' || value === '0';
    case 'int':
    case 'relation':
      return INTEGER.test(value);
    default:
      return true;
  }
}

function filterValue(kind: FilterKind, value: string): unknown {
  if (kind === 'text') return value;
  if (!acceptsValue(kind, value)) throw new RangeError(`Valeur de filtre invalide : « ${value} ».`);
  return Number(value);
}

/** `base?a=1&b=2`, empty values left out, names sorted (the same state gives the same URL). */
export function withQuery(base: string, params: Readonly<Record<string, PageLinkParam>>): string {
  const query = formQuery(params);
  return query ? `${base}?${query}` : base;
}
