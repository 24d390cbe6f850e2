/**
 * Migration files (`fw migration:make`): one file holds both dialects in `-- fw:dialect <name>` sections, so
 * a version means the same change on MariaDB and SQLite. Pure functions; the command picks the name and time.
 */
import type { Dialect, EntityNode, FieldNode, ModelNode } from '../compiler/ir.js';
import { emitRelationsSql } from './sql-relations.js';
import { renderAddForeignKey, renderColumn, renderCreateTable, renderSqliteRebuild } from './sql-render.js';
import { quoteIdentifier } from './sql-names.js';
import { entityTableSpec, manyToOneForeignKey, manyToOneOf, type TableSpec } from './sql-table-spec.js';

const DIALECTS: readonly Dialect[] = ['mariadb', 'sqlite'];

/** A generated SQL file without its marker line (a migration is the user's file once written). */
function withoutMarker(sql: string): string {
  return sql.replace(/^--[^\n]*\n/, '').trim();
}

function header(name: string, origin: string): string {
  return `-- Migration ${name} (${origin}).\n-- Relisez-la avant « fw migration:apply » : une fois appliquée, ne la modifiez plus.\n`;
}

function sections(parts: Record<Dialect, string[]>): string {
  return DIALECTS.map((d) => `-- fw:dialect ${d}\n${parts[d].filter(Boolean).join('\n\n')}\n`).join('\n');
}

/** An empty migration to fill by hand. */
export function emitEmptyMigration(name: string): string {
  const blank = { mariadb: ['-- SQL pour MariaDB ici.'], sqlite: ['-- SQL pour SQLite ici.'] };
  return `${header(name, 'écrite à la main')}\n${sections(blank)}`;
}

/**
 * The creation of some entities' tables, in the order given (dependency order), with on MariaDB the
 * foreign keys of their many-to-one relations; `withRelations` adds the whole relations SQL (pivots) instead.
 */
export function emitCreateMigration(name: string, model: ModelNode, entities: readonly EntityNode[], withRelations: boolean): string {
  const parts: Record<Dialect, string[]> = { mariadb: [], sqlite: [] };
  for (const dialect of DIALECTS) {
    for (const entity of entities) parts[dialect].push(renderCreateTable(entityTableSpec(model, entity, dialect), dialect).join('\n'));
    if (withRelations) {
      parts[dialect].push(withoutMarker(emitRelationsSql(model, dialect)));
    } else if (dialect === 'mariadb') {
      for (const entity of entities) {
        for (const relation of manyToOneOf(model, entity)) {
          const { table, foreignKey } = manyToOneForeignKey(model, relation);
          parts.mariadb.push(renderAddForeignKey(table, foreignKey));
        }
      }
    }
  }
  const origin = withRelations ? 'fw migration:make --from-entities' : `fw migration:make --from-entity ${entities.map((e) => e.name).join(', ')}`;
  return `${header(name, origin)}\n${sections(parts)}`;
}

export interface DiffChange {
  readonly status: 'COLUMN_MISSING' | 'COLUMN_CHANGED' | 'COLUMN_EXTRA' | 'TABLE_MISSING';
  readonly column: string;
  readonly field?: FieldNode;
  /** COLUMN_EXTRA: the real column's type and nullability. */
  readonly actual?: { readonly type: string; readonly nullable: boolean };
}

/**
 * The first statement of a SQLite section that rebuilds a table. migration:apply runs such a migration in a
 * transaction of its own opened after this PRAGMA (inside a transaction it would be a no-op), and refuses to
 * commit it while PRAGMA foreign_key_check reports a row: SQLite's documented procedure, steps 1 and 10
 * (cli/db/migration-apply.ts).
 */
const SQLITE_FOREIGN_KEYS_OFF = 'PRAGMA foreign_keys = OFF;';

/** A default SQLite accepts when adding a NOT NULL column to a table that may hold rows. */
function sqliteDefault(field: FieldNode): string {
  switch (field.logicalType) {
    case 'int':
    case 'float':
    case 'decimal':
    case 'bool':
      return '0';
    default:
      return "''";
  }
}

/**
 * The statements of one dialect that bring the table of `entity` to its definition. The diff (read on one
 * database) only says which columns differ; what each column should be comes from the entity, so both dialects
 * can be written.
 */
function diffStatements(model: ModelNode, entity: EntityNode, changes: readonly DiffChange[], dialect: Dialect): string[] {
  const spec = entityTableSpec(model, entity, dialect);
  const table = quoteIdentifier(entity.table, dialect);
  const lines: string[] = [];
  for (const change of changes) {
    if (change.status === 'TABLE_MISSING') {
      lines.push(renderCreateTable(spec, dialect).join('\n'));
      continue;
    }
    const column = spec.columns.find((c) => c.name === change.field?.column);
    if (change.status === 'COLUMN_MISSING' && column && change.field) {
      let definition = renderColumn(column, dialect);
      if (dialect === 'sqlite' && !column.nullable) definition += ` DEFAULT ${sqliteDefault(change.field)}`;
      lines.push(`ALTER TABLE ${table} ADD COLUMN ${definition};`);
      // The column's unique key or index comes with it: CREATE TABLE (which holds them) is skipped on an existing table.
      for (const [keys, unique] of [[spec.uniques, true], [spec.indexes, false]] as const) {
        for (const key of keys.filter((k) => k.columns.length === 1 && k.columns[0] === column.name)) {
          const keyName = quoteIdentifier(key.name, dialect);
          const columnName = quoteIdentifier(column.name, dialect);
          lines.push(
            dialect === 'mariadb'
              ? `ALTER TABLE ${table} ADD ${unique ? 'UNIQUE ' : ''}KEY ${keyName} (${columnName});`
              : `CREATE ${unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS ${keyName} ON ${table} (${columnName});`,
          );
        }
      }
    } else if (change.status === 'COLUMN_CHANGED' && column && dialect === 'mariadb') {
      lines.push(`ALTER TABLE ${table} MODIFY COLUMN ${renderColumn(column, dialect)};`);
    } else if (change.status === 'COLUMN_EXTRA') {
      lines.push(`-- ${change.column} n'est plus dans l'entité. Pour la supprimer (données perdues), décommentez :`, `-- ALTER TABLE ${table} DROP COLUMN ${quoteIdentifier(change.column, dialect)};`);
    }
  }
  if (dialect === 'sqlite' && changes.some((c) => c.status === 'COLUMN_CHANGED')) return sqliteRebuild(spec, changes, lines);
  return lines.length > 0 ? lines : ['-- Aucun écart.'];
}

/**
 * SQLite cannot modify a column: the table is rebuilt after the missing columns were added (so that every
 * column of the entity is copied), keeping the extra columns with their real type so that no data is lost
 * without the user's decision (the commented DROP COLUMN stays).
 */
function sqliteRebuild(spec: TableSpec, changes: readonly DiffChange[], lines: readonly string[]): string[] {
  const extras = changes.flatMap((c) => (c.status === 'COLUMN_EXTRA' && c.actual ? [{ name: c.column, type: c.actual.type, nullable: c.actual.nullable, autoIncrement: false }] : []));
  const rebuilt: TableSpec = { ...spec, columns: [...spec.columns, ...extras] };
  const changed = changes.filter((c) => c.status === 'COLUMN_CHANGED').map((c) => c.column);
  // The ADD COLUMN lines bring their key with them; the rebuild re-creates every key, so only the columns stay.
  const added = lines.filter((line) => line.startsWith('ALTER TABLE') && line.includes(' ADD COLUMN '));
  const comments = lines.filter((line) => line.startsWith('--'));
  return [
    `-- ${changed.join(', ')} : SQLite ne sait pas modifier une colonne, la table ${spec.table} est reconstruite`,
    '-- (https://www.sqlite.org/lang_altertable.html#otheralter). « fw migration:apply » exécute cette migration',
    '-- dans sa propre transaction, clés étrangères désactivées, et ne la valide que si PRAGMA foreign_key_check est vide.',
    SQLITE_FOREIGN_KEYS_OFF,
    ...added,
    ...renderSqliteRebuild(rebuilt, rebuilt.columns.map((c) => c.name)),
    ...comments,
  ];
}

/**
 * The migration that brings the table of `entity` to its definition, with a section per dialect (the same
 * change on MariaDB and SQLite, like every migration file). A changed column is MODIFY COLUMN on MariaDB and a
 * table rebuild on SQLite.
 */
export function emitDiffMigration(name: string, model: ModelNode, entity: EntityNode, changes: readonly DiffChange[]): string {
  const parts = Object.fromEntries(DIALECTS.map((dialect) => [dialect, [diffStatements(model, entity, changes, dialect).join('\n')]])) as Record<Dialect, string[]>;
  return `${header(name, `fw migration:make --from-diff ${entity.name}`)}\n${sections(parts)}`;
}
