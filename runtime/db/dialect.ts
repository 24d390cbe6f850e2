/**
 * The database dialects (docs/architecture.md "Dialects", docs/decisions.md#one-folder-per-dialect, after Kysely's
 * `Dialect`): their names, in one list, and what each one's folder `dialects/<name>/` gives behind the same
 * interfaces. This file and each dialect's `spelling.ts` run nothing and load no package (emitters import them); the
 * pieces that talk to a server or read its catalogue are joined in `dialects/index.ts`. Kysely itself (about a
 * thousand modules, 140 ms and 12 MB to load) and the native driver are imported only when the first query runs: an
 * application that has not touched its database yet carries neither, and one on one dialect never loads the other's
 * driver.
 */
import type { Dialect as KyselyDialect } from 'kysely';
import type { CheckSpec, ColumnSpec, ForeignKeySpec, TableSpec } from './ddl/table-spec.js';
import { mariadbSpelling } from './dialects/mariadb/spelling.js';
import { sqliteSpelling } from './dialects/sqlite/spelling.js';

/**
 * Every dialect, in the order their files are written and their sections follow one another in a migration. A
 * new dialect adds its name here, its spelling below and its folder `dialects/<name>/`.
 */
export const DIALECT_NAMES = ['mariadb', 'sqlite'] as const;

/** `mariadb` or `sqlite`: the value of `DB_DRIVER` and of the `db_driver` setting. */
export type DialectName = (typeof DIALECT_NAMES)[number];

/** True when `value` names a dialect (a `DB_DRIVER`, a `-- fw:dialect` marker). */
export function isDialectName(value: unknown): value is DialectName {
  return (DIALECT_NAMES as readonly unknown[]).includes(value);
}

/** How the text of a SQL script is read (runtime/db/sql-lexer.ts): which quotes and comments the dialect knows. */
export interface SqlLexicon {
  /** `"…"` is a string literal (MariaDB), else a quoted identifier (SQLite). */
  readonly doubleQuotedStrings: boolean;
  /** `[…]` quotes an identifier (SQLite). */
  readonly bracketIdentifiers: boolean;
  /** `#` opens a comment up to the end of the line (MariaDB). */
  readonly hashComments: boolean;
  /** `--` opens a comment only before a space or a control character (MariaDB: `1--1` is arithmetic). */
  readonly dashCommentsNeedSpace: boolean;
  /** `\` escapes inside string literals, unless the session says otherwise (MariaDB without NO_BACKSLASH_ESCAPES). */
  readonly backslashEscapes: boolean;
}

/** An index or unique key to add by a migration. */
export interface KeyDefinition {
  readonly name: string;
  readonly columns: readonly string[];
  readonly unique: boolean;
}

/**
 * How a dialect writes SQL: names, files, scripts and the DDL of a `TableSpec` (the one place that knows each
 * dialect's DDL syntax, reached through `ddl/render.ts`). Pure: no driver, no disk.
 */
export interface DialectSpelling {
  readonly name: DialectName;
  /** The database as messages name it: `MariaDB`, `SQLite`. */
  readonly product: string;
  /** The database as the header of a generated SQL file names it: `MariaDB / MySQL`, `SQLite`. */
  readonly label: string;
  /** The end of its generated SQL files' names: `users.sql` (MariaDB), `users.sqlite.sql` (SQLite). */
  readonly fileSuffix: string;
  readonly lexicon: SqlLexicon;
  /**
   * Where a table's many-to-one foreign keys are written: `alter`, by `ALTER TABLE … ADD CONSTRAINT` once every
   * table exists (relations.sql); `inline`, in the CREATE TABLE itself (SQLite cannot add one to a table).
   */
  readonly foreignKeys: 'alter' | 'inline';
  /**
   * How a migration changes a column, its DEFAULT, a foreign key, a UNIQUE or a CHECK constraint of CREATE TABLE:
   * `alter` in place (MODIFY COLUMN, DROP FOREIGN KEY, ALTER COLUMN … SET DEFAULT, ADD CONSTRAINT … CHECK), or
   * `rebuild` the table (SQLite's documented procedure, `rebuildTable`).
   */
  readonly tableChanges: 'alter' | 'rebuild';
  /** A NOT NULL column added to a table that may hold rows needs a DEFAULT (SQLite). */
  readonly addedNotNullNeedsDefault: boolean;
  /**
   * DDL runs inside a transaction and rolls back with it (SQLite): `fw migration:apply` runs each migration in one.
   * False where each DDL statement commits at once (MariaDB), so that a failed migration may leave its first ones done.
   */
  readonly transactionalDdl: boolean;
  /** Every identifier is quoted, so a column that is a reserved word (`Order`, `Group`) still works. */
  quote(name: string): string;
  /** The type a column is declared with in this dialect: the entity's, or SQLite's TEXT for a DECIMAL. */
  declaredType(type: string): string;
  /** One column definition as written in CREATE TABLE or ALTER TABLE … ADD/MODIFY COLUMN. */
  column(column: ColumnSpec): string;
  /** CREATE TABLE IF NOT EXISTS (and the indexes a dialect creates apart): re-running the lines is harmless. */
  createTable(spec: TableSpec): string[];
  /** The same, one statement per item without its final `;`, for `execute`. */
  createStatements(spec: TableSpec): string[];
  /** `ALTER TABLE … ADD CONSTRAINT … FOREIGN KEY …;`, or null where a foreign key is only written inline. */
  addForeignKey(table: string, fk: ForeignKeySpec): string | null;
  /**
   * `ALTER TABLE … DROP FOREIGN KEY …;`, or null where only a rebuild removes one. `name` null: the catalogue that
   * was read gave none (SQLite's), and the statement says where to find it.
   */
  dropForeignKey(table: string, name: string | null): string | null;
  addKey(table: string, key: KeyDefinition): string;
  dropKey(table: string, name: string): string;
  /** The statements that replace the key `oldName` by `key`. */
  replaceKey(table: string, oldName: string, key: KeyDefinition): string[];
  /** `ALTER TABLE … MODIFY COLUMN …;`, or null where only a rebuild changes a column. */
  modifyColumn(table: string, column: ColumnSpec): string | null;
  /** The statements that rebuild `spec`'s table keeping the `copied` columns (`tableChanges: 'rebuild'`), else null. */
  rebuildTable(spec: TableSpec, copied: readonly string[]): string[] | null;
  /** The number of characters of a text expression: `CHAR_LENGTH(x)` (MariaDB), `LENGTH(x)` (SQLite). */
  charLength(expression: string): string;
  /** `CONSTRAINT <name> CHECK (…)` of a column constraint, or null when the dialect cannot write it (SQLite: a pattern). */
  check(check: CheckSpec): string | null;
  /** `ALTER TABLE … ALTER COLUMN … SET DEFAULT <literal>` (DROP DEFAULT for null), or null where only a rebuild changes it. */
  alterDefault(table: string, column: string, literal: string | null): string | null;
  /** `ALTER TABLE … ADD CONSTRAINT … CHECK (…)`, or null where only a rebuild adds one (or the dialect writes none). */
  addCheck(table: string, check: CheckSpec): string | null;
  /** `ALTER TABLE … DROP CONSTRAINT …`, or null where only a rebuild removes one. */
  dropCheck(table: string, name: string): string | null;
}

const SPELLINGS: Readonly<Record<DialectName, DialectSpelling>> = { mariadb: mariadbSpelling, sqlite: sqliteSpelling };

/** The spelling of a dialect. */
export function spellingOf(dialect: DialectName): DialectSpelling {
  return SPELLINGS[dialect];
}

/** The kysely module, loaded on first use and handed to the dialect's factory. */
export type KyselyModule = typeof import('kysely');

/** A dialect bound to one target (a server and its account, a file): what `Database` runs its queries through. */
export interface Dialect {
  readonly name: DialectName;
  /** The Kysely dialect (driver and pool) for this target, built with the loaded `kysely` module. */
  createKyselyDialect(kysely: KyselyModule): KyselyDialect;
  /** Opens a transaction on the current connection (SQLite takes the write lock at once: `BEGIN IMMEDIATE`). */
  readonly beginTransactionSql: string;
  /**
   * Translates a driver error into `DuplicateError` or `DatabaseUnavailableError` (with the target and the
   * settings to check), or returns it unchanged.
   */
  translateError(error: unknown): unknown;
  /** The target as shown in messages: `MariaDB 127.0.0.1:3306/base` or `SQLite /path/file.sqlite`. */
  describe(): string;
}

/** A dialect's driver: the dialect bound to one target, and the options of the default handle. */
export interface DialectDriver<Options> {
  readonly name: DialectName;
  connect(options: Options): Dialect;
  /** The options of the default handle, read from the configuration registry (`db_file`, `db_host`…). */
  optionsFromConfig(): Options;
}

/** SQL and its `?` parameters. */
export interface SqlPart {
  readonly sql: string;
  readonly params: unknown[];
}

/**
 * How the runtime's own queries differ per dialect: the list pages' search, filters and sorts (runtime/crud/), which
 * match MariaDB's utf8mb4_unicode_ci everywhere, the lock of a row read in a transaction, an insert-or-update.
 */
export interface DialectQueries {
  /** A text column equal to `value` as the collation compares; null: `column = ?` does it. */
  textEquals(column: string, value: string): SqlPart | null;
  /** One condition true when a column holds `q`, ignoring case and accents; null: `column LIKE ?` on each does it. */
  textSearch(q: string, columns: readonly string[]): SqlPart | null;
  /** What orders a text column as the collation does: the column itself, or a function of it. */
  textSortKey(column: string): string;
  /** What orders a DECIMAL column by its value. */
  decimalSortKey(column: string): string;
  /** The join of a page's keys to its rows (docs/performance.md "Far pages: the keys first, then the rows"). */
  readonly keysJoin: string;
  /** The end of a SELECT that locks its rows until the transaction ends (` FOR UPDATE`), '' where the transaction already does. */
  readonly lockRows: string;
  /** `insert` (an INSERT … VALUES) that updates the `update` columns when a row with the same `key` exists. */
  upsert(insert: string, key: readonly string[], update: readonly string[]): string;
}
