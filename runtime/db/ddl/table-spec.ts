/**
 * The dialect-neutral description of a table: what it holds, never how a dialect spells it (render.ts does).
 * Entity and pivot tables are built from the model by the emitters (emitters/sql-table-spec.ts); the framework's
 * own tables (auth, media, `fw_sessions`) are written as such descriptions in the runtime (runtime/auth/schema.ts,
 * runtime/media/schema.ts, runtime/session/sessions-table.ts). The optional fields serve the framework tables,
 * whose schema predates this description and is kept as it is; entity tables leave them out.
 */

export type ReferentialAction = 'RESTRICT' | 'CASCADE' | 'SET NULL' | 'NO ACTION' | 'SET DEFAULT';

/** MariaDB's character set and collation of a text column. */
export interface CharsetSpec {
  readonly charset: string;
  readonly collation: string;
}

export interface ColumnSpec {
  readonly name: string;
  /** MariaDB spelling of the type, e.g. `VARCHAR(100)`, `INT UNSIGNED` (SQLite accepts it as a type name). */
  readonly type: string;
  readonly nullable: boolean;
  readonly autoIncrement: boolean;
  /** The DEFAULT value as an SQL literal (`0`, `'default'`), the same on both dialects; absent: no DEFAULT. */
  readonly default?: string;
  /** MariaDB: `CHARACTER SET … COLLATE …` of this column; absent: the table's (utf8mb4, utf8mb4_unicode_ci). */
  readonly mariadbCharset?: CharsetSpec;
  /** SQLite: the declared type when it is not derived from `type` (e.g. `INTEGER` for `INT UNSIGNED`). */
  readonly sqliteType?: string;
  /**
   * SQLite: the column's `COLLATE`; null: none (SQLite compares bytes, BINARY); absent: the table's
   * `sqliteTextCollation` for a text column.
   */
  readonly sqliteCollation?: string | null;
}

export interface IndexSpec {
  readonly name: string;
  readonly columns: readonly string[];
}

export interface ForeignKeySpec {
  readonly name: string;
  readonly columns: readonly string[];
  readonly refTable: string;
  readonly refColumns: readonly string[];
  readonly onDelete: ReferentialAction;
  /** Absent: no ON UPDATE clause (the dialect's default, RESTRICT on MariaDB, NO ACTION on SQLite). */
  readonly onUpdate?: ReferentialAction;
}

/**
 * A CHECK constraint on one column (an entity field's `constraints`, docs/entities.md "Constraints"): `min` / `max`
 * compare the number `value` (`numeric: 'text'` for a DECIMAL, which SQLite stores as text and compares as a
 * number only once cast), `min_length` counts characters, `pattern` is a regular expression the whole value
 * matches. A dialect that cannot write one (SQLite has no REGEXP) leaves it out.
 */
export interface CheckSpec {
  readonly name: string;
  readonly column: string;
  readonly kind: 'min' | 'max' | 'min_length' | 'pattern';
  readonly value: string;
  readonly numeric?: 'text';
}

export interface TableSpec {
  readonly table: string;
  readonly columns: readonly ColumnSpec[];
  readonly primaryKey: readonly string[];
  readonly uniques: readonly IndexSpec[];
  readonly indexes: readonly IndexSpec[];
  /** Declared inside CREATE TABLE. */
  readonly foreignKeys: readonly ForeignKeySpec[];
  /** CHECK constraints, declared inside CREATE TABLE after the keys; absent: none. */
  readonly checks?: readonly CheckSpec[];
  /**
   * SQLite: the collation of the text columns that name none. Absent: NOCASE, as MariaDB's utf8mb4_unicode_ci
   * compares (render.ts); null: none, the columns compare bytes.
   */
  readonly sqliteTextCollation?: string | null;
}
