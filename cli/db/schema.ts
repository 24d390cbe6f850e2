/**
 * Introspection of the real schema, for `db:apply`, `migration:*` and `migration:diff`: tables, columns (type
 * as the server reports it), constraints and indexes. MariaDB reads information_schema of the current
 * database; SQLite reads its catalogue and pragmas.
 */
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
  const indexes = await handle.fetchAll<{ name: string; is_unique: number }>(
    'SELECT name, "unique" AS is_unique FROM pragma_index_list(?)',
    [table],
  );
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
      : await handle.fetchAll<{ name: string }>(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
        );
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
