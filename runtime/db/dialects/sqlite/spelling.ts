/**
 * How SQLite is written (runtime/db/dialect.ts `DialectSpelling`): double-quoted names, the auto-increment key as the
 * rowid, text compared with NOCASE, indexes created after their table, foreign keys inline (SQLite cannot add one to
 * a table), and a column, its DEFAULT, a foreign key, a UNIQUE or a CHECK constraint changed only by rebuilding the table. Pure: emitters
 * import it through runtime/db/ddl/render.ts.
 */
import { body, checkClause, columnList, constraint, defaultClause, statement, type CheckSyntax } from '../../ddl/clauses.js';
import type { ColumnSpec, TableSpec } from '../../ddl/table-spec.js';
import type { DialectSpelling, KeyDefinition } from '../../dialect.js';

/** The collation of text columns unless a table or a column says otherwise. */
const TEXT_COLLATION = 'NOCASE';

function quote(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * The SQLite declared type of a column: the MariaDB spelling, except DECIMAL, declared TEXT (docs/entities.md
 * "Types"): with its NUMERIC affinity SQLite would store `3.00` as the integer 3 and `0.1` as a
 * float; as TEXT it keeps the exact decimal the application wrote, at the declared scale.
 */
function declaredType(type: string): string {
  return /^\s*(?:DECIMAL|NUMERIC|DEC|FIXED)\b/i.test(type) ? 'TEXT' : type;
}

/** The single auto-increment key column becomes SQLite's `INTEGER PRIMARY KEY AUTOINCREMENT` (the rowid). */
function rowidColumn(spec: TableSpec): string | null {
  if (spec.primaryKey.length !== 1) return null;
  const found = spec.columns.find((c) => c.name === spec.primaryKey[0]);
  return found?.autoIncrement ? found.name : null;
}

/**
 * Text columns (CHAR, VARCHAR, the TEXT types) compare ignoring case on SQLite as MariaDB's utf8mb4_unicode_ci
 * compares them: `COLLATE NOCASE` makes their UNIQUE indexes, `=`, `IN`, GROUP BY and DISTINCT treat `Chat` and
 * `chat` as one value. NOCASE is built into SQLite (the sqlite3 shell and any other tool open the file as is);
 * it folds the 26 ASCII letters only, the documented difference of docs/entities.md "Letter case and accents".
 * A table or a column may name another collation, or none (`sqliteTextCollation`, `sqliteCollation`).
 */
function collation(spec: ColumnSpec, tableDefault: string | null): string {
  const isText = /^\s*(?:VARCHAR|CHAR|TINYTEXT|TEXT|MEDIUMTEXT|LONGTEXT)\b/i.test(spec.type);
  const chosen = spec.sqliteCollation !== undefined ? spec.sqliteCollation : isText ? tableDefault : null;
  return chosen ? ` COLLATE ${chosen}` : '';
}

function columnOf(spec: ColumnSpec, rowid: string | null, tableDefault: string | null): string {
  const name = quote(spec.name);
  if (spec.name === rowid) return `${name} INTEGER PRIMARY KEY AUTOINCREMENT`;
  const type = spec.sqliteType ?? declaredType(spec.type);
  return `${name} ${type}${spec.nullable ? '' : ' NOT NULL'}${defaultClause(spec)}${collation(spec, tableDefault)}`;
}

/** The collation of the table's text columns that name none: NOCASE unless the table says otherwise. */
function textCollation(spec: TableSpec): string | null {
  return spec.sqliteTextCollation === undefined ? TEXT_COLLATION : spec.sqliteTextCollation;
}

/**
 * A CHECK's syntax: a DECIMAL, stored as text, is compared once cast to a number; SQLite has no REGEXP function
 * (an application one would make the file unwritable outside fw), so a pattern is the form's alone.
 */
const CHECKS: CheckSyntax = {
  quote,
  charLength: (expression) => `LENGTH(${expression})`,
  textNumber: (expression) => `CAST(${expression} AS REAL)`,
  matches: null,
};

function tableLines(spec: TableSpec, create: string): string[] {
  const rowid = rowidColumn(spec);
  const definitions = [
    ...spec.columns.map((c) => columnOf(c, rowid, textCollation(spec))),
    ...(rowid ? [] : [`PRIMARY KEY ${columnList(spec.primaryKey, quote)}`]),
    ...spec.foreignKeys.map((fk) => constraint(fk, quote)),
    ...(spec.checks ?? []).flatMap((check) => checkClause(check, CHECKS) ?? []),
  ];
  return [`${create} (`, ...body(definitions), ');'];
}

function keyLines(spec: TableSpec): string[] {
  return [
    ...spec.uniques.map((u) => `CREATE UNIQUE INDEX IF NOT EXISTS ${quote(u.name)} ON ${quote(spec.table)} ${columnList(u.columns, quote)};`),
    ...spec.indexes.map((k) => `CREATE INDEX IF NOT EXISTS ${quote(k.name)} ON ${quote(spec.table)} ${columnList(k.columns, quote)};`),
  ];
}

function createTable(spec: TableSpec): string[] {
  return [...tableLines(spec, `CREATE TABLE IF NOT EXISTS ${quote(spec.table)}`), ...keyLines(spec)];
}

/**
 * SQLite's documented table rebuild (lang_altertable.html, "other kinds of table schema changes"), the only
 * way it has to change a column: a new table with the very DDL of `createTable` (columns, inline foreign
 * keys), the `copied` columns carried over, the old table dropped (its indexes with it), the new one renamed,
 * the keys re-created. The statements must run with foreign keys OFF: with them on, DROP TABLE of a referenced
 * table deletes its rows first and fires the children's ON DELETE actions (RESTRICT fails, CASCADE empties them).
 */
function rebuildTable(spec: TableSpec, copied: readonly string[]): string[] {
  const table = quote(spec.table);
  const staging = quote(`${spec.table}__fw_new`);
  const list = copied.map(quote).join(', ');
  return [
    ...tableLines(spec, `CREATE TABLE ${staging}`),
    `INSERT INTO ${staging} (${list}) SELECT ${list} FROM ${table};`,
    `DROP TABLE ${table};`,
    `ALTER TABLE ${staging} RENAME TO ${table};`,
    ...keyLines(spec),
  ];
}

function addKey(table: string, key: KeyDefinition): string {
  return `CREATE ${key.unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS ${quote(key.name)} ON ${quote(table)} ${columnList(key.columns, quote)};`;
}

function dropKey(_table: string, name: string): string {
  return `DROP INDEX ${quote(name)};`;
}

export const sqliteSpelling: DialectSpelling = {
  name: 'sqlite',
  product: 'SQLite',
  label: 'SQLite',
  fileSuffix: '.sqlite.sql',
  lexicon: { doubleQuotedStrings: false, bracketIdentifiers: true, hashComments: false, dashCommentsNeedSpace: false, backslashEscapes: false },
  foreignKeys: 'inline',
  tableChanges: 'rebuild',
  addedNotNullNeedsDefault: true,
  transactionalDdl: true,
  quote,
  declaredType,
  column: (spec) => columnOf(spec, null, TEXT_COLLATION),
  createTable,
  createStatements: (spec) => [
    statement(tableLines(spec, `CREATE TABLE IF NOT EXISTS ${quote(spec.table)}`)),
    ...keyLines(spec).map((line) => statement([line])),
  ],
  addForeignKey: () => null,
  dropForeignKey: () => null,
  addKey,
  dropKey,
  replaceKey: (table, oldName, key) => [dropKey(table, oldName), addKey(table, key)],
  modifyColumn: () => null,
  rebuildTable,
  charLength: (expression) => `LENGTH(${expression})`,
  check: (check) => checkClause(check, CHECKS),
  alterDefault: () => null,
  addCheck: () => null,
  dropCheck: () => null,
};
