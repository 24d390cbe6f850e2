/**
 * What the checks of `mvc/entities/relations.json` share (compiler/relation-check.ts): the file being read, the
 * entities, the names already taken, and the reading of one side of a relation (`Entity.field`) with its message
 * when the entity or the field is unknown.
 */
import { pointerTo, type DiagnosticList } from './diagnostics.js';
import type { EntityDraft } from './entity-check.js';
import { stringAt, type FieldDraft, type Json } from './field-check.js';
import { closest, snakeCase } from './naming.js';

export interface Context {
  readonly file: string;
  readonly entities: ReadonlyMap<string, EntityDraft>;
  readonly diags: DiagnosticList;
  /** Constraint name (lower-case) → pointer of the relation that uses it. */
  readonly constraintNames: Map<string, string>;
  /** `Entity.field` → pointer of the many-to-one relation whose foreign key it is. */
  readonly foreignKeys: Map<string, string>;
  /** snake_case names of entity files that could not be read to a name (their own error is reported). */
  readonly unreadable: ReadonlySet<string>;
}

export interface End {
  readonly entity: EntityDraft;
  readonly field: FieldDraft | undefined;
}

/** The entity and field one side of a relation names, with a message when either is unknown. */
export function resolve(raw: Json, entityKey: string, fieldKey: string, pointer: string, context: Context): End | undefined {
  const { file, entities, diags } = context;
  const entityName = stringAt(raw, entityKey);
  if (entityName === undefined) return undefined;
  const entity = entities.get(entityName);
  if (!entity && context.unreadable.has(snakeCase(entityName))) return undefined;
  if (!entity) {
    const known = [...entities.keys()].sort();
    const guess = closest(entityName, known);
    const hint = guess ? ` : vouliez-vous dire « ${guess} » ?` : '';
    const list = known.length > 0 ? `entités définies : ${known.join(', ')}` : "aucune entité n'est définie ; créez-la avec fw make:entity";
    diags.add(file, pointerTo(pointer, entityKey), 'unknown_entity', `${entityKey} : entité inconnue « ${entityName} »${hint} (${list})`);
    return undefined;
  }
  const fieldName = stringAt(raw, fieldKey);
  if (fieldName === undefined) return { entity, field: undefined };
  const field = entity.fields.get(fieldName);
  if (!field) {
    const known = [...entity.fields.keys()];
    const guess = closest(fieldName, known);
    const hint = guess ? ` : vouliez-vous dire « ${guess} » ?` : '';
    diags.add(
      file,
      pointerTo(pointer, fieldKey),
      'unknown_field',
      `${fieldKey} : l'entité « ${entity.name} » n'a pas de champ « ${fieldName} »${hint} (champs : ${known.join(', ')})`,
    );
  }
  return { entity, field };
}

/** Constraint names are unique per database in MariaDB. */
export function claimConstraint(name: string, pointer: string, context: Context): void {
  const key = name.toLowerCase();
  const first = context.constraintNames.get(key);
  if (first !== undefined && first !== pointer) {
    context.diags.add(
      context.file,
      pointer,
      'duplicate_constraint',
      `nom de contrainte « ${name} » déjà utilisé (${first}) : les noms de clés étrangères sont uniques dans la base ; donnez un autre « foreign_key_name »`,
    );
  } else context.constraintNames.set(key, pointer);
}

export function snakeOf(entity: string | undefined): string {
  return snakeCase(entity ?? 'cible');
}
