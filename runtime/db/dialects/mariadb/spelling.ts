/**
 * How MariaDB (and MySQL 8) is written (runtime/db/dialect.ts `DialectSpelling`): backquoted names, InnoDB tables in
 * utf8mb4_unicode_ci with their keys inside CREATE TABLE, foreign keys added by ALTER TABLE once every table exists,
 * columns, keys, defaults and CHECK constraints changed in place. Pure: emitters import it through runtime/db/ddl/render.ts.
 */
import { body, checkClause, columnList, constraint, defaultClause, foreignKeyClause, statement, type CheckSyntax } from '../../ddl/clauses.js';
import type { ColumnSpec, TableSpec } from '../../ddl/table-spec.js';
import type { DialectSpelling, KeyDefinition } from '../../dialect.js';

const TABLE_OPTIONS = 'ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci';

function quote(name: string): string {
  return `\`${name.replace(/`/g, '``')}\``;
}

function column(spec: ColumnSpec): string {
  const charset = spec.mariadbCharset ? ` CHARACTER SET ${spec.mariadbCharset.charset} COLLATE ${spec.mariadbCharset.collation}` : '';
  const nullability = spec.nullable ? 'NULL' : 'NOT NULL';
  return `${quote(spec.name)} ${spec.type}${charset} ${nullability}${defaultClause(spec)}${spec.autoIncrement ? ' AUTO_INCREMENT' : ''}`;
}

/**
 * A CHECK's syntax: a pattern is tested with REGEXP (PCRE2), made case-sensitive (`(?-i)`: the column's
 * utf8mb4_unicode_ci would ignore case) and anchored as the form anchors it; its literal written for the default
 * `sql_mode`, a backslash doubled (docs/entities.md "Constraints").
 */
const CHECKS: CheckSyntax = {
  quote,
  charLength: (expression) => `CHAR_LENGTH(${expression})`,
  textNumber: (expression) => expression,
  matches: (expression, pattern) => `${expression} REGEXP '${`(?-i)^(?:${pattern})$`.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`,
};

function createTable(spec: TableSpec): string[] {
  const definitions = [
    ...spec.columns.map(column),
    `PRIMARY KEY ${columnList(spec.primaryKey, quote)}`,
    ...spec.uniques.map((u) => `UNIQUE KEY ${quote(u.name)} ${columnList(u.columns, quote)}`),
    ...spec.indexes.map((k) => `KEY ${quote(k.name)} ${columnList(k.columns, quote)}`),
    ...spec.foreignKeys.map((fk) => constraint(fk, quote)),
    ...(spec.checks ?? []).flatMap((check) => checkClause(check, CHECKS) ?? []),
  ];
  return [`CREATE TABLE IF NOT EXISTS ${quote(spec.table)} (`, ...body(definitions), `) ${TABLE_OPTIONS};`];
}

function addKey(table: string, key: KeyDefinition): string {
  return `ALTER TABLE ${quote(table)} ADD ${key.unique ? 'UNIQUE ' : ''}KEY ${quote(key.name)} ${columnList(key.columns, quote)};`;
}

export const mariadbSpelling: DialectSpelling = {
  name: 'mariadb',
  product: 'MariaDB',
  label: 'MariaDB / MySQL',
  fileSuffix: '.sql',
  lexicon: { doubleQuotedStrings: true, bracketIdentifiers: false, hashComments: true, dashCommentsNeedSpace: true, backslashEscapes: true },
  foreignKeys: 'alter',
  tableChanges: 'alter',
  addedNotNullNeedsDefault: false,
  transactionalDdl: false,
  quote,
  declaredType: (type) => type,
  column,
  createTable,
  createStatements: (spec) => [statement(createTable(spec))],
  addForeignKey: (table, fk) => `ALTER TABLE ${quote(table)} ADD CONSTRAINT ${quote(fk.name)} ${foreignKeyClause(fk, quote)};`,
  // A constraint name the catalogue did not give (a diff read on SQLite): SHOW CREATE TABLE shows it.
  dropForeignKey: (table, name) => `ALTER TABLE ${quote(table)} DROP FOREIGN KEY ${name === null ? `<nom> (SHOW CREATE TABLE ${quote(table)})` : quote(name)};`,
  addKey,
  dropKey: (table, name) => `ALTER TABLE ${quote(table)} DROP INDEX ${quote(name)};`,
  // One statement: the old key may be the one a foreign key needs, and MariaDB refuses to drop it alone.
  replaceKey: (table, oldName, key) => [addKey(table, key).replace(' ADD ', ` DROP INDEX ${quote(oldName)}, ADD `)],
  modifyColumn: (table, spec) => `ALTER TABLE ${quote(table)} MODIFY COLUMN ${column(spec)};`,
  rebuildTable: () => null,
  charLength: (expression) => `CHAR_LENGTH(${expression})`,
  check: (check) => checkClause(check, CHECKS),
  alterDefault: (table, name, literal) =>
    `ALTER TABLE ${quote(table)} ALTER COLUMN ${quote(name)} ${literal === null ? 'DROP DEFAULT' : `SET DEFAULT ${literal}`};`,
  addCheck: (table, check) => {
    const clause = checkClause(check, CHECKS);
    return clause === null ? null : `ALTER TABLE ${quote(table)} ADD ${clause};`;
  },
  dropCheck: (table, name) => `ALTER TABLE ${quote(table)} DROP CONSTRAINT ${quote(name)};`,
};
