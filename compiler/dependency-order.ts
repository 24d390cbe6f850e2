/**
 * Entities ordered so that every table comes after the tables its many-to-one foreign keys reference, and the
 * foreign-key cycles that leave tables impossible to fill.
 *
 * A cycle of foreign keys does not stop the tables from being created on either dialect: MariaDB gets its
 * foreign keys from relations.sql once every table exists, and SQLite accepts an inline REFERENCES to a table
 * that does not exist yet (it checks references when rows are written, not when tables are created). What a
 * cycle can break is the data: when every key of the cycle is NOT NULL, no row can be the first one.
 */
import type { EntityNode, ModelNode, RelationNode } from './ir.js';

/**
 * A stable topological order (independent entities keep the model's order); the entities of a cycle, and those
 * that depend on one, are appended in the model's order.
 */
export function dependencyOrder(model: ModelNode): EntityNode[] {
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
  for (const entity of model.entities) if (!done.has(entity.name)) order.push(entity);
  return order;
}

/**
 * The cycles of NOT NULL many-to-one foreign keys between different entities: in each, every row needs a row of
 * the next table first, so none of these tables can ever receive a row. Each cycle is given as its relations
 * (a strongly connected group of entities and the NOT NULL keys between them), in declaration order.
 */
export function unfillableCycles(model: ModelNode): RelationNode[][] {
  const edges = model.relations.filter((relation) => {
    if (relation.type !== 'many_to_one' || relation.fromEntity === relation.toEntity) return false;
    const field = model.entities.find((e) => e.name === relation.fromEntity)?.fields.find((f) => f.name === relation.fromField);
    return field !== undefined && !field.nullable;
  });
  const groups = stronglyConnected(
    model.entities.map((e) => e.name),
    edges,
  );
  return groups.filter((group) => group.size > 1).map((group) => edges.filter((edge) => group.has(edge.fromEntity) && group.has(edge.toEntity)));
}

/** Tarjan's strongly connected components of the graph entity -> referenced entity. */
function stronglyConnected(nodes: readonly string[], edges: readonly RelationNode[]): Array<Set<string>> {
  const next = new Map<string, string[]>(nodes.map((n) => [n, []]));
  for (const edge of edges) next.get(edge.fromEntity)?.push(edge.toEntity);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: Array<Set<string>> = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const target of next.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const group = new Set<string>();
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.add(member);
      } while (member !== node);
      groups.push(group);
    }
  };
  for (const node of nodes) if (!index.has(node)) visit(node);
  return groups;
}
