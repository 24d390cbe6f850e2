/** `mvc/entities/relations<suffix>` per dialect (`.sql` for MariaDB, `.sqlite.sql` for SQLite): foreign keys and pivot tables. */
import type { ModelNode, RelationNode } from '../compiler/ir.js';
import { requireEntity } from './ir-lookup.js';
import { sqlMarkerLine, SYNC_RELATIONS_COMMAND } from './marker.js';
import { renderCreateTable } from '../runtime/db/ddl/render.js';
import { spellingOf, type DialectName } from '../runtime/db/dialect.js';
import { manyToOneForeignKey, pivotTableSpec } from './sql-table-spec.js';
import { byCodeUnits, commentText, fileText } from './text.js';

function heading(relation: RelationNode): string {
  return `-- ${commentText(relation.name)}: ${relation.type} ${commentText(`${relation.fromEntity}.${relation.fromField} -> ${relation.toEntity}.${relation.toField}`)}`;
}

function relationLines(model: ModelNode, relation: RelationNode, dialect: DialectName): string[] {
  if (relation.type === 'many_to_many') return [heading(relation), ...renderCreateTable(pivotTableSpec(model, relation), dialect), ''];
  const spelling = spellingOf(dialect);
  const { table, foreignKey } = manyToOneForeignKey(model, relation);
  const added = spelling.addForeignKey(table, foreignKey);
  if (added !== null) return [heading(relation), added, ''];
  const from = requireEntity(model, relation.fromEntity, `relation « ${relation.name} »`);
  return [heading(relation), `-- (inline in ${from.snake}/${from.snake}${spelling.fileSuffix})`, ''];
}

/**
 * Every relation by name: MariaDB gets `ALTER TABLE … ADD CONSTRAINT` per many-to-one and a pivot table per
 * many-to-many; SQLite only the pivot tables (its many-to-one keys are inline in the entity tables: `foreignKeys`).
 */
export function emitRelationsSql(model: ModelNode, dialect: DialectName): string {
  const relations = [...model.relations].sort((a, b) => byCodeUnits(a.name, b.name));
  return fileText([
    sqlMarkerLine(SYNC_RELATIONS_COMMAND),
    spellingOf(dialect).foreignKeys === 'alter'
      ? '-- Apply after every entity table: many-to-one foreign keys and many-to-many pivot tables, by relation name.'
      : '-- Apply after every entity table: pivot tables of many-to-many relations.',
    '',
    ...(relations.length === 0 ? ['-- No relation.'] : relations.flatMap((r) => relationLines(model, r, dialect))),
  ]);
}
