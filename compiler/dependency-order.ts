/** Entities ordered so that every table comes after the tables its many-to-one foreign keys reference. */
import type { EntityNode, ModelNode } from './ir.js';

/**
 * A stable topological order (alphabetical among independent entities). A cycle of foreign keys is legal
 * on MariaDB (constraints are added after the tables) but not creatable inline on SQLite; the entities of
 * a cycle are appended in alphabetical order and `cycles` names them.
 */
export function dependencyOrder(model: ModelNode): { order: EntityNode[]; cycles: string[] } {
  const byName = new Map(model.entities.map((e) => [e.name, e]));
  const needs = new Map<string, Set<string>>(model.entities.map((e) => [e.name, new Set<string>()]));
  for (const relation of model.relations) {
    if (relation.type !== 'many_to_one' || relation.fromEntity === relation.toEntity) continue;
    needs.get(relation.fromEntity)?.add(relation.toEntity);
  }
  const order: EntityNode[] = [];
  const done = new Set<string>();
  let progress = true;
  while (progress) {
    progress = false;
    for (const entity of model.entities) {
      if (done.has(entity.name)) continue;
      if ([...needs.get(entity.name)!].every((dep) => done.has(dep) || !byName.has(dep))) {
        order.push(entity);
        done.add(entity.name);
        progress = true;
      }
    }
  }
  const cycles = model.entities.filter((e) => !done.has(e.name)).map((e) => e.name);
  for (const name of cycles) order.push(byName.get(name)!);
  return { order, cycles };
}
