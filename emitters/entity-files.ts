/** Every file generated for an entity or for the relations, with its path and kind (docs/entities.md "Generated files"). */
import type { EntityNode, ModelNode } from '../compiler/ir.js';
import { emitBaseClass } from './base-class.js';
import { emitEntityClass, emitEntityIndex } from './entity-manual.js';
import { DIALECT_NAMES, spellingOf, type DialectName } from '../runtime/db/dialect.js';
import { ENTITIES_DIR, type PlannedFile } from './planned-file.js';
import { emitRelationsSql } from './sql-relations.js';
import { emitTableSql } from './sql-table.js';

function entityDir(entity: EntityNode): string {
  return `${ENTITIES_DIR}/${entity.snake}`;
}

/** The table file of `entity` in one dialect: `<snake>.sql` (MariaDB), `<snake>.sqlite.sql` (SQLite). */
function tableFile(model: ModelNode, entity: EntityNode, dialect: DialectName): PlannedFile {
  return { path: `${entityDir(entity)}/${entity.snake}${spellingOf(dialect).fileSuffix}`, content: emitTableSql(model, entity, dialect), kind: 'regenerable' };
}

/**
 * The files of one entity (the canonical `<snake>.json` is not generated here): its table SQL in every dialect and
 * the base class (regenerable), the business class and `index.ts` (manual).
 */
export function entityFiles(model: ModelNode, entity: EntityNode): PlannedFile[] {
  const dir = entityDir(entity);
  return [
    ...DIALECT_NAMES.map((dialect) => tableFile(model, entity, dialect)),
    { path: `${dir}/${entity.snake}_base.ts`, content: emitBaseClass(model, entity), kind: 'regenerable' },
    { path: `${dir}/${entity.snake}.ts`, content: emitEntityClass(model, entity), kind: 'manual' },
    { path: `${dir}/index.ts`, content: emitEntityIndex(model, entity), kind: 'manual' },
  ];
}

/**
 * `relations.sql` and `relations.sqlite.sql` (one per dialect), plus the table file of every entity in each dialect
 * whose many-to-one foreign keys are inline (SQLite): adding or removing a relation must regenerate those files too
 * (the ones that did not change are reported unchanged).
 */
export function relationFiles(model: ModelNode): PlannedFile[] {
  const inline = DIALECT_NAMES.filter((dialect) => spellingOf(dialect).foreignKeys === 'inline');
  return [
    ...DIALECT_NAMES.map((dialect): PlannedFile => ({
      path: `${ENTITIES_DIR}/relations${spellingOf(dialect).fileSuffix}`,
      content: emitRelationsSql(model, dialect),
      kind: 'regenerable',
    })),
    ...inline.flatMap((dialect) => model.entities.map((entity) => tableFile(model, entity, dialect))),
  ];
}

/** Every generated file of the model: each entity's files, then the relation files (each path once). */
export function modelFiles(model: ModelNode): PlannedFile[] {
  const files = new Map<string, PlannedFile>();
  for (const file of [...model.entities.flatMap((e) => entityFiles(model, e)), ...relationFiles(model)]) files.set(file.path, file);
  return [...files.values()];
}
