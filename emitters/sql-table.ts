/** `mvc/entities/<snake>/<snake><suffix>` per dialect (`.sql` for MariaDB, `.sqlite.sql` for SQLite): an entity's table. */
import type { EntityNode, ModelNode } from '../compiler/ir.js';
import { sqlMarkerLine, syncEntityCommand } from './marker.js';
import { renderCreateTable } from '../runtime/db/ddl/render.js';
import { spellingOf, type DialectName } from '../runtime/db/dialect.js';
import { entityTableSpec, manyToOneOf } from './sql-table-spec.js';
import { commentText, fileText } from './text.js';

/** The table DDL of one entity in one dialect (docs/entities.md "Generated files"; docs/decisions.md#two-database-dialects). */
export function emitTableSql(model: ModelNode, entity: EntityNode, dialect: DialectName): string {
  const spec = entityTableSpec(model, entity, dialect);
  const holdsForeignKeys = manyToOneOf(model, entity).length > 0;
  const note =
    spellingOf(dialect).foreignKeys === 'alter'
      ? `-- Its foreign keys are in relations${spellingOf(dialect).fileSuffix}, applied once every table exists.`
      : `-- Its many-to-one foreign keys are inline: ${spellingOf(dialect).product} cannot add one to an existing table.`;
  return fileText([
    sqlMarkerLine(syncEntityCommand(entity.name)),
    `-- Entity ${commentText(entity.name)} (${commentText(entity.file)}), table ${commentText(entity.table)}.`,
    ...(holdsForeignKeys ? [note] : []),
    '',
    ...renderCreateTable(spec, dialect),
  ]);
}
