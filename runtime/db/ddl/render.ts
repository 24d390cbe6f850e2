/**
 * Spells a TableSpec in one dialect: the only place that knows MariaDB and SQLite DDL syntax. It writes the
 * generated entity tables (emitters/sql-table.ts, sql-relations.ts, migration.ts) and the framework's own tables
 * (auth, media, `fw_sessions`), which is why it lives in the runtime, below the emitters.
 */
import type { DialectName as Dialect } from '../dialect.js';
import { quoteIdentifier } from './names.js';
import type { ColumnSpec, ForeignKeySpec, TableSpec } from './table-spec.js';

const MARIADB_TABLE_OPTIONS = 'ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci';
const SQLITE_TEXT_COLLATION = 'NOCASE';

function columnList(columns: readonly string[], dialect: Dialect): string {
  return `(${columns.map((c) => quoteIdentifier(c, dialect)).join(', ')})`;
}

/** `FOREIGN KEY (…) REFERENCES … (…) ON DELETE … ON UPDATE …` (the part after the constraint name). */
export function foreignKeyClause(fk: ForeignKeySpec, dialect: Dialect): string {
  return (
    `FOREIGN KEY ${columnList(fk.columns, dialect)} REFERENCES ${quoteIdentifier(fk.refTable, dialect)} ${columnList(fk.refColumns, dialect)}` +
    ` ON DELETE ${fk.onDelete}${fk.onUpdate ? ` ON UPDATE ${fk.onUpdate}` : ''}`
  );
}

function constraint(fk: ForeignKeySpec, dialect: Dialect): string {
  return `CONSTRAINT ${quoteIdentifier(fk.name, dialect)} ${foreignKeyClause(fk, dialect)}`;
}

/** ` DEFAULT <literal>`, or nothing. */
function defaultClause(column: ColumnSpec): string {
  return column.default === undefined ? '' : ` DEFAULT ${column.default}`;
}

function mariadbColumn(column: ColumnSpec): string {
  const charset = column.mariadbCharset ? ` CHARACTER SET ${column.mariadbCharset.charset} COLLATE ${column.mariadbCharset.collation}` : '';
  const nullability = column.nullable ? 'NULL' : 'NOT NULL';
  return `${quoteIdentifier(column.name, 'mariadb')} ${column.type}${charset} ${nullability}${defaultClause(column)}${column.autoIncrement ? ' AUTO_INCREMENT' : ''}`;
}

/** The single auto-increment key column becomes SQLite's `INTEGER PRIMARY KEY AUTOINCREMENT` (the rowid). */
function sqliteRowidColumn(spec: TableSpec): string | null {
  if (spec.primaryKey.length !== 1) return null;
  const column = spec.columns.find((c) => c.name === spec.primaryKey[0]);
  return column?.autoIncrement ? column.name : null;
}

/**
 * The SQLite declared type of a column: the MariaDB spelling, except DECIMAL, declared TEXT (docs/entities.md
 * "Types"): with its NUMERIC affinity SQLite would store `3.00` as the integer 3 and `0.1` as a
 * float; as TEXT it keeps the exact decimal the application wrote, at the declared scale.
 */
export function sqliteColumnType(type: string): string {
  return /^\s*(?:DECIMAL|NUMERIC|DEC|FIXED)\b/i.test(type) ? 'TEXT' : type;
}

/**
 * Text columns (CHAR, VARCHAR, the TEXT types) compare ignoring case on SQLite as MariaDB's utf8mb4_unicode_ci
 * compares them: `COLLATE NOCASE` makes their UNIQUE indexes, `=`, `IN`, GROUP BY and DISTINCT treat `Chat` and
 * `chat` as one value. NOCASE is built into SQLite (the sqlite3 shell and any other tool open the file as is);
 * it folds the 26 ASCII letters only, the documented difference of docs/entities.md "Letter case and accents".
 * A table or a column may name another collation, or none (`sqliteTextCollation`, `sqliteCollation`).
 */
function sqliteCollation(column: ColumnSpec, tableDefault: string | null): string {
  const isText = /^\s*(?:VARCHAR|CHAR|TINYTEXT|TEXT|MEDIUMTEXT|LONGTEXT)\b/i.test(column.type);
  const collation = column.sqliteCollation !== undefined ? column.sqliteCollation : isText ? tableDefault : null;
  return collation ? ` COLLATE ${collation}` : '';
}

function sqliteColumn(column: ColumnSpec, rowid: string | null, tableDefault: string | null): string {
  const name = quoteIdentifier(column.name, 'sqlite');
  if (column.name === rowid) return `${name} INTEGER PRIMARY KEY AUTOINCREMENT`;
  const type = column.sqliteType ?? sqliteColumnType(column.type);
  return `${name} ${type}${column.nullable ? '' : ' NOT NULL'}${defaultClause(column)}${sqliteCollation(column, tableDefault)}`;
}

/** The collation of the table's text columns that name none: NOCASE unless the table says otherwise. */
function sqliteTextCollation(spec: TableSpec): string | null {
  return spec.sqliteTextCollation === undefined ? SQLITE_TEXT_COLLATION : spec.sqliteTextCollation;
}

function body(definitions: readonly string[]): string[] {
  return definitions.map((line, i) => `  ${line}${i < definitions.length - 1 ? ',' : ''}`);
}

function mariadbCreateTable(spec: TableSpec): string[] {
  const q = (name: string) => quoteIdentifier(name, 'mariadb');
  const definitions = [
    ...spec.columns.map(mariadbColumn),
    `PRIMARY KEY ${columnList(spec.primaryKey, 'mariadb')}`,
    ...spec.uniques.map((u) => `UNIQUE KEY ${q(u.name)} ${columnList(u.columns, 'mariadb')}`),
    ...spec.indexes.map((k) => `KEY ${q(k.name)} ${columnList(k.columns, 'mariadb')}`),
    ...spec.foreignKeys.map((fk) => constraint(fk, 'mariadb')),
  ];
  return [`CREATE TABLE IF NOT EXISTS ${q(spec.table)} (`, ...body(definitions), `) ${MARIADB_TABLE_OPTIONS};`];
}

function sqliteTableLines(spec: TableSpec, create: string): string[] {
  const rowid = sqliteRowidColumn(spec);
  const definitions = [
    ...spec.columns.map((c) => sqliteColumn(c, rowid, sqliteTextCollation(spec))),
    ...(rowid ? [] : [`PRIMARY KEY ${columnList(spec.primaryKey, 'sqlite')}`]),
    ...spec.foreignKeys.map((fk) => constraint(fk, 'sqlite')),
  ];
  return [`${create} (`, ...body(definitions), ');'];
}

function sqliteKeyLines(spec: TableSpec): string[] {
  const q = (name: string) => quoteIdentifier(name, 'sqlite');
  return [
    ...spec.uniques.map((u) => `CREATE UNIQUE INDEX IF NOT EXISTS ${q(u.name)} ON ${q(spec.table)} ${columnList(u.columns, 'sqlite')};`),
    ...spec.indexes.map((k) => `CREATE INDEX IF NOT EXISTS ${q(k.name)} ON ${q(spec.table)} ${columnList(k.columns, 'sqlite')};`),
  ];
}

function sqliteCreateTable(spec: TableSpec): string[] {
  return [...sqliteTableLines(spec, `CREATE TABLE IF NOT EXISTS ${quoteIdentifier(spec.table, 'sqlite')}`), ...sqliteKeyLines(spec)];
}

/**
 * SQLite's documented table rebuild (lang_altertable.html, "other kinds of table schema changes"), the only
 * way it has to change a column: a new table with the very DDL of `renderCreateTable` (columns, inline foreign
 * keys), the `copied` columns carried over, the old table dropped (its indexes with it), the new one renamed,
 * the keys re-created. The statements must run with foreign keys OFF: with them on, DROP TABLE of a referenced
 * table deletes its rows first and fires the children's ON DELETE actions (RESTRICT fails, CASCADE empties them).
 */
export function renderSqliteRebuild(spec: TableSpec, copied: readonly string[]): string[] {
  const table = quoteIdentifier(spec.table, 'sqlite');
  const staging = quoteIdentifier(`${spec.table}__fw_new`, 'sqlite');
  const list = copied.map((c) => quoteIdentifier(c, 'sqlite')).join(', ');
  return [
    ...sqliteTableLines(spec, `CREATE TABLE ${staging}`),
    `INSERT INTO ${staging} (${list}) SELECT ${list} FROM ${table};`,
    `DROP TABLE ${table};`,
    `ALTER TABLE ${staging} RENAME TO ${table};`,
    ...sqliteKeyLines(spec),
  ];
}

/** One column definition as written in CREATE TABLE or ALTER TABLE … ADD/MODIFY COLUMN (never the SQLite rowid form). */
export function renderColumn(column: ColumnSpec, dialect: Dialect): string {
  return dialect === 'mariadb' ? mariadbColumn(column) : sqliteColumn(column, null, SQLITE_TEXT_COLLATION);
}

/** CREATE TABLE IF NOT EXISTS (and, for SQLite, its indexes): re-running the lines is harmless. */
export function renderCreateTable(spec: TableSpec, dialect: Dialect): string[] {
  return dialect === 'mariadb' ? mariadbCreateTable(spec) : sqliteCreateTable(spec);
}

/**
 * The same CREATE TABLE IF NOT EXISTS (and SQLite indexes), one statement per item without its final `;`, for
 * `execute`: the framework's own tables are created this way by `fw db:init` and the tests.
 */
export function renderCreateStatements(spec: TableSpec, dialect: Dialect): string[] {
  const statement = (lines: readonly string[]): string => lines.join('\n').replace(/;$/, '');
  if (dialect === 'mariadb') return [statement(mariadbCreateTable(spec))];
  return [
    statement(sqliteTableLines(spec, `CREATE TABLE IF NOT EXISTS ${quoteIdentifier(spec.table, 'sqlite')}`)),
    ...sqliteKeyLines(spec).map((line) => statement([line])),
  ];
}

/** MariaDB only: `ALTER TABLE … ADD CONSTRAINT … FOREIGN KEY …;` */
export function renderAddForeignKey(table: string, fk: ForeignKeySpec): string {
  return `ALTER TABLE ${quoteIdentifier(table, 'mariadb')} ADD CONSTRAINT ${quoteIdentifier(fk.name, 'mariadb')} ${foreignKeyClause(fk, 'mariadb')};`;
}
