/**
 * Migration files (`fw migration:make`): one file holds both dialects in `-- fw:dialect <name>` sections, so
 * a version means the same change on MariaDB and SQLite. Pure functions; the command picks the name and time.
 */
import type { Dialect, EntityNode, FieldNode, ModelNode } from '../compiler/ir.js';
import { emitRelationsSql } from './sql-relations.js';
import { renderAddForeignKey, renderColumn, renderCreateTable } from './sql-render.js';
import { quoteIdentifier } from './sql-names.js';
import { entityTableSpec, manyToOneForeignKey, manyToOneOf } from './sql-table-spec.js';

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
}

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
    } else if (change.status === 'COLUMN_CHANGED' && column) {
      if (dialect === 'mariadb') {
        lines.push(`ALTER TABLE ${table} MODIFY COLUMN ${renderColumn(column, dialect)};`);
      } else {
        lines.push(
          `-- ${change.column} : SQLite ne sait pas modifier une colonne. Reconstruisez la table :`,
          `--   CREATE TABLE nouvelle table, INSERT INTO … SELECT …, DROP TABLE ${entity.table}, ALTER TABLE … RENAME TO ${entity.table}.`,
        );
      }
    } else if (change.status === 'COLUMN_EXTRA') {
      lines.push(`-- ${change.column} n'est plus dans l'entité. Pour la supprimer (données perdues), décommentez :`, `-- ALTER TABLE ${table} DROP COLUMN ${quoteIdentifier(change.column, dialect)};`);
    }
  }
  return lines.length > 0 ? lines : ['-- Aucun écart.'];
}

/**
 * The migration that brings the table of `entity` to its definition, with a section per dialect (the same
 * change on MariaDB and SQLite, like every migration file). A change a dialect cannot express (SQLite cannot
 * modify a column) is a comment there: `migration:apply` refuses a section without any statement.
 */
export function emitDiffMigration(name: string, model: ModelNode, entity: EntityNode, changes: readonly DiffChange[]): string {
  const parts = { mariadb: [diffStatements(model, entity, changes, 'mariadb').join('\n')], sqlite: [diffStatements(model, entity, changes, 'sqlite').join('\n')] };
  return `${header(name, `fw migration:make --from-diff ${entity.name}`)}\n${sections(parts)}`;
}
