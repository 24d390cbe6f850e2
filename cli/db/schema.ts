/**
 * Introspection of the real schema, for `db:apply`, `migration:*` and `migration:diff`: tables, columns (type
 * as the server reports it), indexes, unique keys and foreign keys. MariaDB reads information_schema of the current
 * database; SQLite reads its catalogue and pragmas.
 */
import type { ForeignKeyShape, KeyShape } from '../../emitters/migration.js';
import type { Connection, Database, DialectName } from '../../runtime/db/index.js';

/** A handle or a connection held by `withConnection` / a transaction. */
export type Handle = Database | Connection;

export interface ColumnInfo {
  readonly name: string;
  /** As the server reports it: `int(11)`, `varchar(120)` on MariaDB; the declared type on SQLite. */
  readonly type: string;
  readonly nullable: boolean;
  /** `PRI`, `UNI`, `MUL` or '' (MariaDB's COLUMN_KEY; computed the same way on SQLite). */
  readonly key: string;
  /**
   * SQLite only: the column is the table's `INTEGER PRIMARY KEY`, an alias of the 64-bit rowid. fw writes every
   * auto-increment key that way whatever its declared integer type (BIGINT, INT UNSIGNED…), so the declared
   * type says nothing about the entity's.
   */
  readonly rowid: boolean;
}

/** The dialect behind a handle. */
export function dialectOf(handle: Handle): DialectName {
  return 'driver' in handle ? handle.driver : handle.database.driver;
}

/** The columns of `table` in declaration order, or null when the table does not exist. */
export async function readColumns(handle: Handle, table: string): Promise<ColumnInfo[] | null> {
  if (dialectOf(handle) === 'mariadb') {
    const rows = await handle.fetchAll<{ name: string; type: string; nullable: string; column_key: string }>(
      `SELECT COLUMN_NAME AS name, COLUMN_TYPE AS type, IS_NULLABLE AS nullable, COLUMN_KEY AS column_key
         FROM information_schema.COLUMNS
        WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?
        ORDER BY ORDINAL_POSITION`,
      [table],
    );
    if (rows.length === 0) return (await tableExists(handle, table)) ? [] : null;
    return rows.map((row) => ({ name: row.name, type: row.type, nullable: row.nullable === 'YES', key: row.column_key ?? '', rowid: false }));
  }
  if (!(await tableExists(handle, table))) return null;
  const columns = await handle.fetchAll<{ name: string; type: string; not_null: number; pk: number }>(
    'SELECT name, type, "notnull" AS not_null, pk FROM pragma_table_info(?) ORDER BY cid',
    [table],
  );
  const indexes = await handle.fetchAll<{ name: string; is_unique: number }>('SELECT name, "unique" AS is_unique FROM pragma_index_list(?)', [table]);
  const unique = new Set<string>();
  const indexed = new Set<string>();
  for (const index of indexes) {
    const parts = await handle.fetchAll<{ name: string | null }>('SELECT name FROM pragma_index_info(?) ORDER BY seqno', [index.name]);
    const first = parts[0]?.name;
    if (!first) continue;
    if (index.is_unique && parts.length === 1) unique.add(first);
    else indexed.add(first);
  }
  const singleKey = columns.filter((column) => column.pk > 0).length === 1;
  return columns.map((column) => ({
    name: column.name,
    type: column.type,
    // SQLite lets a non-INTEGER primary key hold NULL unless NOT NULL is written; report what the table allows.
    nullable: column.not_null === 0 && !(column.pk > 0 && /^INTEGER$/i.test(column.type)),
    key: column.pk > 0 ? 'PRI' : unique.has(column.name) ? 'UNI' : indexed.has(column.name) ? 'MUL' : '',
    rowid: singleKey && column.pk > 0 && /^INTEGER$/i.test(column.type),
  }));
}

/**
 * An index or unique key of a table (the primary key left out), as the catalogue describes it: the shape
 * `migration:diff` compares (emitters/migration.ts), with `constraint` always known here.
 */
export interface IndexInfo extends KeyShape {
  /** SQLite only: the index of a UNIQUE constraint written in CREATE TABLE (`sqlite_autoindex_*`): DROP INDEX cannot remove it. */
  readonly constraint: boolean;
}

/** A foreign key of a table, as the catalogue describes it (emitters/migration.ts). */
export type ForeignKeyInfo = ForeignKeyShape;

/** What `migration:diff` compares: columns, indexes and unique keys, foreign keys. */
export interface TableInfo {
  readonly columns: readonly ColumnInfo[];
  readonly indexes: readonly IndexInfo[];
  readonly foreignKeys: readonly ForeignKeyInfo[];
}

/** Columns, indexes and foreign keys of `table`, or null when the table does not exist. */
export async function readTable(handle: Handle, table: string): Promise<TableInfo | null> {
  const columns = await readColumns(handle, table);
  if (columns === null) return null;
  return { columns, indexes: await readIndexes(handle, table), foreignKeys: await readForeignKeys(handle, table) };
}

/** Groups catalogue rows (already in key order) by name, keeping the first row of each. */
function groupBy<T>(rows: readonly T[], key: (row: T) => string): Array<{ first: T; rows: T[] }> {
  const groups = new Map<string, { first: T; rows: T[] }>();
  for (const row of rows) {
    const group = groups.get(key(row));
    if (group) group.rows.push(row);
    else groups.set(key(row), { first: row, rows: [row] });
  }
  return [...groups.values()];
}

/** The indexes and unique keys of `table` (MariaDB: information_schema.STATISTICS; SQLite: PRAGMA index_list / index_info). */
export async function readIndexes(handle: Handle, table: string): Promise<IndexInfo[]> {
  if (dialectOf(handle) === 'mariadb') {
    const rows = await handle.fetchAll<{ name: string; non_unique: number | string; column_name: string | null }>(
      `SELECT INDEX_NAME AS name, NON_UNIQUE AS non_unique, COLUMN_NAME AS column_name
         FROM information_schema.STATISTICS
        WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND INDEX_NAME <> 'PRIMARY'
        ORDER BY INDEX_NAME, SEQ_IN_INDEX`,
      [table],
    );
    return groupBy(rows, (row) => row.name).map(({ first, rows: parts }) => ({
      name: first.name,
      columns: parts.map((part) => part.column_name ?? '<expression>'),
      unique: Number(first.non_unique) === 0,
      constraint: false,
    }));
  }
  const list = await handle.fetchAll<{ name: string; is_unique: number; origin: string; partial: number }>(
    'SELECT name, "unique" AS is_unique, origin, partial FROM pragma_index_list(?) ORDER BY name',
    [table],
  );
  const indexes: IndexInfo[] = [];
  for (const index of list.filter((i) => i.origin !== 'pk')) {
    const parts = await handle.fetchAll<{ name: string | null }>('SELECT name FROM pragma_index_info(?) ORDER BY seqno', [index.name]);
    indexes.push({
      name: index.name,
      columns: parts.map((part) => part.name ?? '<expression>'),
      unique: index.is_unique === 1,
      constraint: index.origin === 'u',
    });
  }
  return indexes;
}

/**
 * The foreign keys of `table` (MariaDB: information_schema KEY_COLUMN_USAGE and REFERENTIAL_CONSTRAINTS; SQLite:
 * PRAGMA foreign_key_list, where a key written without its parent columns refers to the parent's primary key).
 */
export async function readForeignKeys(handle: Handle, table: string): Promise<ForeignKeyInfo[]> {
  if (dialectOf(handle) === 'mariadb') {
    const rows = await handle.fetchAll<{ name: string; column_name: string; ref_table: string; ref_column: string; on_delete: string; on_update: string }>(
      `SELECT k.CONSTRAINT_NAME AS name, k.COLUMN_NAME AS column_name, k.REFERENCED_TABLE_NAME AS ref_table,
              k.REFERENCED_COLUMN_NAME AS ref_column, r.DELETE_RULE AS on_delete, r.UPDATE_RULE AS on_update
         FROM information_schema.KEY_COLUMN_USAGE k
         JOIN information_schema.REFERENTIAL_CONSTRAINTS r
           ON r.CONSTRAINT_SCHEMA = k.CONSTRAINT_SCHEMA AND r.TABLE_NAME = k.TABLE_NAME AND r.CONSTRAINT_NAME = k.CONSTRAINT_NAME
        WHERE k.TABLE_SCHEMA = DATABASE() AND k.TABLE_NAME = ? AND k.REFERENCED_TABLE_NAME IS NOT NULL
        ORDER BY k.CONSTRAINT_NAME, k.ORDINAL_POSITION`,
      [table],
    );
    return groupBy(rows, (row) => row.name).map(({ first, rows: parts }) => ({
      name: first.name,
      columns: parts.map((part) => part.column_name),
      refTable: first.ref_table,
      refColumns: parts.map((part) => part.ref_column),
      onDelete: first.on_delete.toUpperCase(),
      onUpdate: first.on_update.toUpperCase(),
    }));
  }
  const rows = await handle.fetchAll<{ id: number; table: string; from: string; to: string | null; on_delete: string; on_update: string }>(
    'SELECT id, "table", "from", "to", on_delete, on_update FROM pragma_foreign_key_list(?) ORDER BY id, seq',
    [table],
  );
  const keys: ForeignKeyInfo[] = [];
  for (const { first, rows: parts } of groupBy(rows, (row) => String(row.id))) {
    let refColumns = parts.map((part) => part.to);
    if (refColumns.some((column) => column === null)) {
      const parent = await handle.fetchAll<{ name: string }>('SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk', [first.table]);
      refColumns = parent.map((column) => column.name);
    }
    keys.push({
      name: null,
      columns: parts.map((part) => part.from),
      refTable: first.table,
      refColumns: refColumns.map((column) => column ?? ''),
      onDelete: first.on_delete.toUpperCase(),
      onUpdate: first.on_update.toUpperCase(),
    });
  }
  return keys;
}

/** True when `table` exists (a base table, not a view). */
export async function tableExists(handle: Handle, table: string): Promise<boolean> {
  const row =
    dialectOf(handle) === 'mariadb'
      ? await handle.fetchOne(
          "SELECT 1 AS found FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND TABLE_TYPE = 'BASE TABLE'",
          [table],
        )
      : await handle.fetchOne("SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = ?", [table]);
  return row !== null;
}

/** The tables of the database, sorted (SQLite's internal `sqlite_*` tables excluded). */
export async function listTables(handle: Handle): Promise<string[]> {
  const rows =
    dialectOf(handle) === 'mariadb'
      ? await handle.fetchAll<{ name: string }>(
          "SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_TYPE = 'BASE TABLE' ORDER BY TABLE_NAME",
        )
      : await handle.fetchAll<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name");
  return rows.map((row) => row.name);
}

/** True when the named constraint (foreign key, unique…) exists on `table` (MariaDB; SQLite does not name them: false). */
export async function constraintExists(handle: Handle, table: string, name: string): Promise<boolean> {
  if (dialectOf(handle) !== 'mariadb') return false;
  const row = await handle.fetchOne(
    `SELECT 1 AS found FROM information_schema.TABLE_CONSTRAINTS
      WHERE CONSTRAINT_SCHEMA = DATABASE() AND TABLE_NAME = ? AND CONSTRAINT_NAME = ?`,
    [table, name],
  );
  return row !== null;
}

/** True when the named index exists (on `table` for MariaDB, where index names are per table). */
export async function indexExists(handle: Handle, table: string, name: string): Promise<boolean> {
  const row =
    dialectOf(handle) === 'mariadb'
      ? await handle.fetchOne(
          'SELECT 1 AS found FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND INDEX_NAME = ? LIMIT 1',
          [table, name],
        )
      : await handle.fetchOne("SELECT 1 AS found FROM sqlite_master WHERE type = 'index' AND name = ?", [name]);
  return row !== null;
}
