/**
 * Entity vs real table (`migration:diff`, docs/entities.md): one row per column with OK,
 * COLUMN_MISSING, COLUMN_CHANGED, COLUMN_EXTRA, then one per index or unique key (INDEX_*) and per foreign key
 * (FK_*), or a single TABLE_MISSING row. Types are compared after normalisation (`INT(11)` equals `INT`, `BOOLEAN`
 * equals `TINYINT(1)`). On SQLite, the `INTEGER PRIMARY KEY` (rowid) column equals any integer primary key: the
 * SQLite DDL writes every auto-increment key that way (runtime/db/dialects/sqlite/spelling.ts). Keys are compared by meaning (diff-keys.ts),
 * and so are each column's DEFAULT (a DEFAULT_* row after the column's) and the CHECK constraints (CHECK_* rows, last):
 * diff-constraints.ts.
 */
import type { EntityNode, ModelNode } from '../../compiler/ir.js';
import { isInteger, parseSqlType, sameSqlType } from '../../compiler/sql-types.js';
import type { DiffChange } from '../../emitters/migration.js';
import { spellingOf, type DialectName } from '../../runtime/db/dialect.js';
import { diffChecks, diffDefault } from './diff-constraints.js';
import { diffForeignKeys, diffIndexes } from './diff-keys.js';
import type { DiffRow } from './diff-row.js';
import type { TableInfo } from './schema.js';

export type { DiffRow, DiffStatus } from './diff-row.js';

/** A type as the server reports it, upper-cased outside its quoted values (`enum('a','b')` -> `ENUM('a','b')`). */
export function displayType(type: string): string {
  return type.replace(/'(?:[^']|'')*'|[^']+/g, (part) => (part.startsWith("'") ? part : part.toUpperCase()));
}

function describe(type: string, nullable: boolean): string {
  return `${displayType(type)} ${nullable ? 'NULL' : 'NOT NULL'}`;
}

/** Compares an entity with its table read from the database (`null`: the table does not exist). */
export function diffEntity(model: ModelNode, entity: EntityNode, table: TableInfo | null, dialect: DialectName): DiffRow[] {
  if (table === null) return [{ status: 'TABLE_MISSING', column: entity.table, detail: `table « ${entity.table} » absente de la base` }];
  const rows: DiffRow[] = [];
  const byName = new Map(table.columns.map((c) => [c.name.toLowerCase(), c]));
  // `renamed_from` (docs/entities.md "Renaming a field"): the old column, when the new one is not there, is the field's.
  const renames = new Map<string, string>();
  for (const field of entity.fields) {
    const old = field.renamedFrom === undefined ? undefined : byName.get(field.renamedFrom.toLowerCase());
    if (old && !byName.has(field.column.toLowerCase())) renames.set(old.name.toLowerCase(), field.column);
  }
  for (const field of entity.fields) {
    // SQLite declares DECIMAL columns TEXT (its spelling's `declaredType`): that is the type to find there.
    const expectedType = spellingOf(dialect).declaredType(field.sqlType.text);
    const wanted = expectedType === field.sqlType.text ? field.sqlType : parseSqlType(expectedType);
    const expected = describe(expectedType, field.nullable && !field.primaryKey);
    const from = [...renames].find(([, to]) => to === field.column)?.[0];
    const actual = byName.get(from ?? field.column.toLowerCase());
    if (from !== undefined && actual) {
      rows.push({
        status: 'COLUMN_RENAMED',
        column: field.column,
        detail: `renommée depuis ${actual.name} (« renamed_from »), valeurs gardées`,
        field,
        from: actual.name,
      });
      byName.delete(from);
    }
    if (!actual) {
      rows.push({ status: 'COLUMN_MISSING', column: field.column, detail: `attendu ${expected}`, field });
      continue;
    }
    if (from === undefined) byName.delete(field.column.toLowerCase());
    const parsed = parseSqlType(actual.type);
    // MariaDB reports a JSON column as LONGTEXT (JSON is an alias there).
    const jsonAlias = field.sqlType.base === 'JSON' && parsed?.base === 'LONGTEXT';
    const rowidKey = actual.rowid && field.primaryKey && isInteger(field.sqlType);
    const typeOk = rowidKey || (parsed !== null && wanted !== null && (sameSqlType(parsed, wanted) || jsonAlias));
    const nullOk = actual.nullable === (field.nullable && !field.primaryKey);
    if (typeOk && nullOk) rows.push({ status: 'OK', column: field.column, detail: expected, field });
    else rows.push({ status: 'COLUMN_CHANGED', column: field.column, detail: `attendu ${expected}, trouvé ${describe(actual.type, actual.nullable)}`, field });
    rows.push(...diffDefault(entity, field.column, actual, dialect));
  }
  for (const extra of byName.values()) {
    rows.push({
      status: 'COLUMN_EXTRA',
      column: extra.name,
      detail: `${describe(extra.type, extra.nullable)} absente de l'entité`,
      actual: { type: extra.type, nullable: extra.nullable },
    });
  }
  // The keys of a renamed column are compared as they will be once it is renamed (RENAME COLUMN carries them).
  const renamed = (columns: readonly string[]): string[] => columns.map((c) => renames.get(c.toLowerCase()) ?? c);
  const indexes = table.indexes.map((index) => ({ ...index, columns: renamed(index.columns) }));
  const foreignKeys = table.foreignKeys.map((fk) => ({ ...fk, columns: renamed(fk.columns) }));
  const checks = diffChecks(entity, table.checks, dialect, (name) => renames.get(name)?.toLowerCase() ?? name);
  return [...rows, ...diffIndexes(model, entity, indexes), ...diffForeignKeys(model, entity, foreignKeys), ...checks];
}

/** True when a diff has anything else than OK rows. */
export function hasDrift(rows: readonly DiffRow[]): boolean {
  return rows.some((row) => row.status !== 'OK');
}

/** The rows a migration has to deal with. */
export function changesOf(rows: readonly DiffRow[]): DiffChange[] {
  return rows.flatMap(({ status, detail: _detail, ...rest }) => (status === 'OK' ? [] : [{ ...rest, status }]));
}

/** `STATUT  COLONNE  DETAIL` with padded columns (COLONNE names the key of an INDEX_* or FK_* row). */
export function formatDiff(rows: readonly DiffRow[]): string {
  const table = [['STATUT', 'COLONNE', 'DETAIL'], ...rows.map((r) => [r.status, r.column, r.detail])];
  const widths = [0, 1].map((i) => Math.max(...table.map((row) => row[i]!.length)));
  return `${table.map((row) => `${row[0]!.padEnd(widths[0]!)}  ${row[1]!.padEnd(widths[1]!)}  ${row[2]}`).join('\n')}\n`;
}
