/**
 * The canonical definition files as `fw make:entity` and `fw make:relation` write them (docs/entities.md
 * "Entity files", "Relations"): the same keys in the same order, whoever writes them (the commands, the starters).
 */

/** `$schema` of an entity file, relative to `mvc/entities/<snake>/`. */
export const ENTITY_SCHEMA_REF = '../../../node_modules/fw-mvc/schemas/entity.schema.json';
/** `$schema` of the relations file, relative to `mvc/entities/`. */
export const RELATIONS_SCHEMA_REF = '../../node_modules/fw-mvc/schemas/relations.schema.json';
export const RELATIONS_PATH = 'mvc/entities/relations.json';

/** A field as make:entity's questions produce it. */
export interface EntityFieldAnswer {
  name: string;
  /** Not asked by make:entity; the starters give their accented labels (`Prénom`). */
  label?: string;
  sql_type: string;
  nullable: boolean;
  unique: boolean;
  constraints?: { not_empty?: boolean; max_length?: number };
  list?: { filter: boolean };
}

/** A field from make:entity's answers: a (VAR)CHAR gets `not_empty` (unless nullable) and its `max_length`. */
export function fieldAnswer(
  name: string,
  sqlType: string,
  options: { label?: string; nullable?: boolean; unique?: boolean; filter?: boolean } = {},
): EntityFieldAnswer {
  const type = sqlType.toUpperCase();
  const field: EntityFieldAnswer = {
    name,
    ...(options.label ? { label: options.label } : {}),
    sql_type: type,
    nullable: options.nullable === true,
    unique: options.unique === true,
  };
  const length = /^(VAR)?CHAR\((\d+)\)$/.exec(type);
  if (length) field.constraints = { not_empty: !field.nullable, max_length: Number(length[2]) };
  if (options.filter) field.list = { filter: true };
  return field;
}

/** `mvc/entities/<snake>/<snake>.json` */
export function entityJsonPath(snake: string): string {
  return `mvc/entities/${snake}/${snake}.json`;
}

/**
 * What a starter may add to an entity file beside its fields: a description, the names users read (`Élève`,
 * `Élèves`), and the route plural (`observations`).
 */
export interface EntityExtras {
  readonly description?: string;
  readonly label?: string;
  readonly label_plural?: string;
  readonly plural?: string;
}

/** The text of an entity file: an `id` auto-increment key and the fields, as make:entity writes it. */
export function entityJsonText(name: string, table: string, fields: readonly EntityFieldAnswer[], extras: EntityExtras = {}): string {
  const definition = {
    $schema: ENTITY_SCHEMA_REF,
    format_version: 1,
    entity: name,
    table,
    description: extras.description ?? '',
    ...(extras.label ? { label: extras.label } : {}),
    ...(extras.label_plural ? { label_plural: extras.label_plural } : {}),
    ...(extras.plural ? { plural: extras.plural } : {}),
    primary_key: { name: 'id', sql: 'Id', python_type: 'int', sql_type: 'INT', auto_increment: true },
    fields,
  };
  return `${JSON.stringify(definition, null, 2)}\n`;
}

/** A relation object as make:relation writes it. */
export interface RelationDefinition {
  name: string;
  type: string;
  from_entity: string;
  from_field: string;
  to_entity: string;
  to_field: string;
  on_delete: string;
  on_update: string;
  foreign_key_name?: string;
  /** A many-to-many from an entity to itself: what each side is called (docs/entities.md "Relations (`mvc/entities/relations.json`)"). */
  from_name?: string;
  to_name?: string;
}

/** The relations file that holds nothing yet. */
export function emptyRelations(): { relations: unknown[] } & Record<string, unknown> {
  return { $schema: RELATIONS_SCHEMA_REF, format_version: 1, relations: [] };
}

/** The text of the relations file `data` with `added` appended to its relations. */
export function relationsJsonText(data: { relations: unknown[] } & Record<string, unknown>, added: readonly RelationDefinition[]): string {
  return `${JSON.stringify({ ...data, relations: [...data.relations, ...added] }, null, 2)}\n`;
}
