/** Lookups an emitter needs from the IR; a miss means the compiler let an inconsistent model through. */
import { findEntity, type EntityNode, type FieldNode, type ModelNode } from '../compiler/ir.js';

/** An IR that the compiler should have refused reached an emitter. The message names the culprit. */
export class EmitError extends Error {
  override readonly name = 'EmitError';
}

export function requireEntity(model: ModelNode, name: string, context: string): EntityNode {
  const entity = findEntity(model, name);
  if (!entity) throw new EmitError(`${context} : entité inconnue « ${name} ».`);
  return entity;
}

export function requireField(entity: EntityNode, name: string, context: string): FieldNode {
  const field = entity.fields.find((f) => f.name === name);
  if (!field) throw new EmitError(`${context} : l'entité « ${entity.name} » n'a pas de champ « ${name} ».`);
  return field;
}
