/**
 * What a dialect's catalogue tells of a table (`dialects/<name>/catalogue.ts`): tables, columns (type as the server
 * reports it), indexes, unique keys and foreign keys. `db:apply`, `migration:*`, `migration:diff` and the diagnostics
 * read the real schema through it (cli/db/schema.ts).
 */
import type { Queryable } from './database.js';

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
  /**
   * The DEFAULT as the catalogue gives it, an SQL expression (`18`, `'l''x'`, MariaDB's `NULL` for a nullable column
   * without one); null when the column has none. `migration:diff` compares it by meaning (cli/db/sql-meaning.ts).
   */
  readonly default: string | null;
}

/** An index or unique key of a table (the primary key left out), as the catalogue describes it. */
export interface IndexInfo {
  readonly name: string;
  /** Column names in key order (`<expression>` for an expression index). */
  readonly columns: readonly string[];
  readonly unique: boolean;
  /** SQLite only: the index of a UNIQUE constraint written in CREATE TABLE (`sqlite_autoindex_*`): DROP INDEX cannot remove it. */
  readonly constraint: boolean;
}

/** A foreign key of a table, as the catalogue describes it (SQLite keeps no constraint name: null). */
export interface ForeignKeyInfo {
  readonly name: string | null;
  readonly columns: readonly string[];
  readonly refTable: string;
  readonly refColumns: readonly string[];
  /** Upper-case referential actions (`RESTRICT`, `CASCADE`, `SET NULL`, `NO ACTION`, `SET DEFAULT`). */
  readonly onDelete: string;
  readonly onUpdate: string;
}

/** A CHECK constraint of a table: its name (null when SQLite's CREATE TABLE gives none) and its expression, as the catalogue spells it. */
export interface CheckInfo {
  readonly name: string | null;
  readonly clause: string;
}

/** The catalogue queries of one dialect, run on a handle, a held connection or a transaction. */
export interface Catalogue {
  /** The columns of `table` in declaration order, or null when the table does not exist. */
  readColumns(handle: Queryable, table: string): Promise<ColumnInfo[] | null>;
  /** The indexes and unique keys of `table`, the primary key left out. */
  readIndexes(handle: Queryable, table: string): Promise<IndexInfo[]>;
  readForeignKeys(handle: Queryable, table: string): Promise<ForeignKeyInfo[]>;
  /** The CHECK constraints of `table` (MariaDB's information_schema.CHECK_CONSTRAINTS, SQLite's CREATE TABLE text). */
  readChecks(handle: Queryable, table: string): Promise<CheckInfo[]>;
  /** True when `table` exists (a base table, not a view). */
  tableExists(handle: Queryable, table: string): Promise<boolean>;
  /** The tables of the database, sorted (the dialect's own internal tables excluded). */
  listTables(handle: Queryable): Promise<string[]>;
  /** True when the named constraint (foreign key, unique…) exists on `table`; false where constraints have no name. */
  constraintExists(handle: Queryable, table: string, name: string): Promise<boolean>;
  /** True when the named index exists (on `table` where index names are per table). */
  indexExists(handle: Queryable, table: string, name: string): Promise<boolean>;
}

/** Groups catalogue rows (already in key order) by name, keeping the first row of each. */
export function groupBy<T>(rows: readonly T[], key: (row: T) => string): Array<{ first: T; rows: T[] }> {
  const groups = new Map<string, { first: T; rows: T[] }>();
  for (const row of rows) {
    const group = groups.get(key(row));
    if (group) group.rows.push(row);
    else groups.set(key(row), { first: row, rows: [row] });
  }
  return [...groups.values()];
}
