/** Every file generated for an entity or for the relations, with its path and kind (docs/entities.md "Generated files"). */
import type { EntityNode, ModelNode } from '../compiler/ir.js';
import { emitBaseClass } from './base-class.js';
import { emitEntityClass, emitEntityIndex } from './entity-manual.js';
import { ENTITIES_DIR, type PlannedFile } from './planned-file.js';
import { emitRelationsSql } from './sql-relations.js';
import { emitTableSql } from './sql-table.js';

function entityDir(entity: EntityNode): string {
  return `${ENTITIES_DIR}/${entity.snake}`;
}

function sqliteTableFile(model: ModelNode, entity: EntityNode): PlannedFile {
  return { path: `${entityDir(entity)}/${entity.snake}.sqlite.sql`, content: emitTableSql(model, entity, 'sqlite'), kind: 'regenerable' };
}

/**
 * The files of one entity (the canonical `<snake>.json` is not generated here): table SQL for both dialects and
 * the base class (regenerable), the business class and `index.ts` (manual).
 */
export function entityFiles(model: ModelNode, entity: EntityNode): PlannedFile[] {
  const dir = entityDir(entity);
  return [
    { path: `${dir}/${entity.snake}.sql`, content: emitTableSql(model, entity, 'mariadb'), kind: 'regenerable' },
    sqliteTableFile(model, entity),
    { path: `${dir}/${entity.snake}_base.ts`, content: emitBaseClass(model, entity), kind: 'regenerable' },
    { path: `${dir}/${entity.snake}.ts`, content: emitEntityClass(model, entity), kind: 'manual' },
    { path: `${dir}/index.ts`, content: emitEntityIndex(model, entity), kind: 'manual' },
  ];
}

/**
 * `relations.sql` and `relations.sqlite.sql`, plus the SQLite table file of every entity: SQLite declares
 * many-to-one foreign keys inline, so adding or removing a relation must regenerate those files too (the ones
 * that did not change are reported unchanged).
 */
export function relationFiles(model: ModelNode): PlannedFile[] {
  return [
    { path: `${ENTITIES_DIR}/relations.sql`, content: emitRelationsSql(model, 'mariadb'), kind: 'regenerable' },
    { path: `${ENTITIES_DIR}/relations.sqlite.sql`, content: emitRelationsSql(model, 'sqlite'), kind: 'regenerable' },
    ...model.entities.map((entity) => sqliteTableFile(model, entity)),
  ];
}

/** Every generated file of the model: each entity's files, then the relation files (each path once). */
export function modelFiles(model: ModelNode): PlannedFile[] {
  const files = new Map<string, PlannedFile>();
  for (const file of [...model.entities.flatMap((e) => entityFiles(model, e)), ...relationFiles(model)]) files.set(file.path, file);
  return [...files.values()];
}
