/**
 * The migration that brings the framework's own tables to their description (`fw migration:make <name>
 * --framework`, docs/upgrading.md "The framework's tables"), from the changes cli/db/framework-diff.ts found, with a
 * section per dialect as every migration file. The tables are the framework's: an extra column, key or foreign key
 * is dropped, not left commented as an entity's would be (`fw migration:apply` asks `--allow-destructive` for a
 * dropped column). MariaDB alters in place; SQLite adds columns and indexes in place and rebuilds the table for
 * anything else (a changed or extra column, a foreign key, a UNIQUE constraint of CREATE TABLE), its documented
 * procedure (runtime/db/dialects/sqlite/spelling.ts `rebuildTable`).
 */
import type { ColumnSpec, ForeignKeySpec, TableSpec } from '../runtime/db/ddl/table-spec.js';
import { renderColumn, renderCreateTable } from '../runtime/db/ddl/render.js';
import { spellingOf, type DialectName, type DialectSpelling, type KeyDefinition } from '../runtime/db/dialect.js';
import { FOREIGN_KEYS_OFF, migrationHeader, migrationSections, type ForeignKeyShape, type KeyShape } from './migration.js';
import { adoptQueuedMailSql, MAIL_JOB, MAIL_LOG_TABLE, MAIL_QUEUE } from '../runtime/mail/schema.js';

/** One difference between a framework table and its description. */
export type FrameworkChange =
  | { readonly kind: 'table_missing' }
  | { readonly kind: 'column_missing' | 'column_changed' | 'column_extra'; readonly column: string; readonly detail: string }
  | { readonly kind: 'key_missing'; readonly key: KeyDefinition }
  | { readonly kind: 'key_extra'; readonly key: KeyShape }
  | { readonly kind: 'fk_missing'; readonly foreignKey: ForeignKeySpec }
  | { readonly kind: 'fk_extra'; readonly foreignKey: ForeignKeyShape };

export interface FrameworkTableDiff {
  readonly spec: TableSpec;
  readonly changes: readonly FrameworkChange[];
}

/** One line of the migration's comment per change. */
export function describeFrameworkChange(change: FrameworkChange): string {
  switch (change.kind) {
    case 'table_missing':
      return 'table absente';
    case 'column_missing':
      return `colonne ${change.column} absente (${change.detail})`;
    case 'column_changed':
      return `colonne ${change.column} changée (${change.detail})`;
    case 'column_extra':
      return `colonne ${change.column} en trop (${change.detail})`;
    case 'key_missing':
      return `${change.key.unique ? 'clé unique' : 'index'} ${change.key.name} (${change.key.columns.join(', ')}) absent`;
    case 'key_extra':
      return `${change.key.unique ? 'clé unique' : 'index'} ${change.key.name} (${change.key.columns.join(', ')}) en trop`;
    case 'fk_missing':
      return `clé étrangère (${change.foreignKey.columns.join(', ')}) → ${change.foreignKey.refTable} absente`;
    case 'fk_extra':
      return `clé étrangère (${change.foreignKey.columns.join(', ')}) → ${change.foreignKey.refTable} en trop`;
  }
}

/** A column as ALTER TABLE … ADD / MODIFY COLUMN writes it, with its table's SQLite collation. */
function columnOf(spec: TableSpec, name: string): ColumnSpec {
  const column = spec.columns.find((c) => c.name === name)!;
  if (column.sqliteCollation !== undefined || spec.sqliteTextCollation === undefined) return column;
  return { ...column, sqliteCollation: spec.sqliteTextCollation };
}

/**
 * `ALTER TABLE … ADD COLUMN …;`, with a DEFAULT where the dialect needs one for a NOT NULL column (rows may exist):
 * 0, the first second of 1970 for a date, or the empty text.
 */
function addColumn(spec: TableSpec, name: string, dialect: DialectName, spelling: DialectSpelling): string {
  const column = columnOf(spec, name);
  let definition = renderColumn(column, dialect);
  if (spelling.addedNotNullNeedsDefault && !column.nullable && column.default === undefined) {
    definition += /INT|DECIMAL|NUMERIC|FLOAT|DOUBLE|REAL|BOOL/i.test(column.type)
      ? ' DEFAULT 0'
      : /^\s*(DATETIME|TIMESTAMP)/i.test(column.type)
        ? " DEFAULT '1970-01-01 00:00:00'"
        : /^\s*DATE\b/i.test(column.type)
          ? " DEFAULT '1970-01-01'"
          : " DEFAULT ''";
  }
  return `ALTER TABLE ${spelling.quote(spec.table)} ADD COLUMN ${definition};`;
}

/** SQLite cannot change or drop a column, a foreign key or a UNIQUE constraint in place: a rebuild does. */
function needsRebuild(change: FrameworkChange): boolean {
  return (
    change.kind === 'column_changed' ||
    change.kind === 'column_extra' ||
    change.kind === 'fk_missing' ||
    change.kind === 'fk_extra' ||
    (change.kind === 'key_extra' && change.key.constraint === true)
  );
}

/** The statements of one table in one dialect. */
function tableStatements(diff: FrameworkTableDiff, dialect: DialectName): string[] {
  const { spec, changes } = diff;
  const spelling = spellingOf(dialect);
  const comment = changes.map((change) => `-- ${spec.table} : ${describeFrameworkChange(change)}.`);
  if (changes.some((change) => change.kind === 'table_missing')) return [...comment, renderCreateTable(spec, dialect).join('\n')];
  const table = spelling.quote(spec.table);
  const missing = changes.flatMap((change) => (change.kind === 'column_missing' ? [addColumn(spec, change.column, dialect, spelling)] : []));
  if (spelling.tableChanges === 'rebuild' && changes.some(needsRebuild)) {
    // The missing columns first, so that the rebuild copies every column of the description.
    return [
      ...comment,
      `-- ${spelling.product} ne change ni ne supprime une colonne, une clé étrangère ou une contrainte UNIQUE en place : la table ${spec.table}`,
      '-- est reconstruite, ses lignes gardées (https://www.sqlite.org/lang_altertable.html#otheralter).',
      ...missing,
      ...(spelling.rebuildTable(
        spec,
        spec.columns.map((c) => c.name),
      ) ?? []),
    ];
  }
  const lines = [...comment];
  for (const change of changes) {
    if (change.kind === 'fk_extra') lines.push(spelling.dropForeignKey(spec.table, change.foreignKey.name) ?? '');
  }
  for (const change of changes) if (change.kind === 'key_extra') lines.push(spelling.dropKey(spec.table, change.key.name));
  for (const change of changes) if (change.kind === 'column_extra') lines.push(`ALTER TABLE ${table} DROP COLUMN ${spelling.quote(change.column)};`);
  for (const change of changes) {
    if (change.kind === 'column_changed') lines.push(spelling.modifyColumn(spec.table, columnOf(spec, change.column)) ?? '');
  }
  lines.push(...missing);
  for (const change of changes) if (change.kind === 'key_missing') lines.push(spelling.addKey(spec.table, change.key));
  for (const change of changes) if (change.kind === 'fk_missing') lines.push(spelling.addForeignKey(spec.table, change.foreignKey) ?? '');
  return lines.filter(Boolean);
}

/**
 * After the `mail_log` of a release whose sender claimed rows itself (`claimed_by`, dropped here): a job for each
 * message still waiting, so that none is lost (docs/upgrading.md "Mail as jobs").
 */
function adoptMail(diff: FrameworkTableDiff, dialect: DialectName): string[] {
  if (diff.spec.table !== MAIL_LOG_TABLE || !diff.changes.some((change) => change.kind === 'column_extra' && change.column === 'claimed_by')) return [];
  return [`-- ${MAIL_LOG_TABLE} : chaque message encore en attente reçoit sa tâche ${MAIL_JOB} (file ${MAIL_QUEUE}).`, adoptQueuedMailSql(dialect)];
}

/** The migration file: per dialect, the tables in the order given (a referenced table first). */
export function emitFrameworkMigration(name: string, diffs: readonly FrameworkTableDiff[]): string {
  return `${migrationHeader(name, 'fw migration:make --framework')}\n${migrationSections((dialect) => {
    const spelling = spellingOf(dialect);
    const rebuilds =
      spelling.tableChanges === 'rebuild' && diffs.some((diff) => !diff.changes.some((c) => c.kind === 'table_missing') && diff.changes.some(needsRebuild));
    const parts = diffs.map((diff) => [...tableStatements(diff, dialect), ...adoptMail(diff, dialect)].join('\n'));
    return rebuilds ? [FOREIGN_KEYS_OFF, ...parts] : parts;
  })}`;
}
