/**
 * Meaning of `mvc/entities/relations.json` (docs/entities.md "Relations (`mvc/entities/relations.json`)"): relations
 * name existing entities and fields, foreign-key types match after normalisation, SET NULL needs a nullable key, pivot
 * tables are valid and free names, constraint names are unique and fit in 64 characters.
 */
import { pointerTo, type DiagnosticList } from './diagnostics.js';
import type { EntityDraft } from './entity-check.js';
import { frameworkTableConflict } from './framework-tables.js';
import { frenchNumber, MAX_PIVOT_FIELDS, MAX_RELATIONS, MAX_ROW_BYTES, rowBytes } from './limits.js';
import { arrayAt, checkField, isObject, stringAt, type Json } from './field-check.js';
import { relationNode, type FieldNode, type ReferentialAction, type RelationNode } from './ir.js';
import { MAX_IDENTIFIER_LENGTH } from './naming.js';
import { checkSides, pivotSideColumn, pivotSideSuffix } from './relation-sides.js';
import { isReservedTableName } from './reserved-words.js';
import { sameSqlType } from './sql-types.js';
import { claimConstraint, resolve, snakeOf, type Context, type End } from './relation-context.js';

const ACTIONS: readonly ReferentialAction[] = ['RESTRICT', 'CASCADE', 'SET NULL', 'NO ACTION'];
export const DEFAULT_ON_DELETE: ReferentialAction = 'RESTRICT';
/** A pivot row means nothing once one side is gone: many-to-many relations cascade deletes by default. */
export const DEFAULT_PIVOT_ON_DELETE: ReferentialAction = 'CASCADE';
export const DEFAULT_ON_UPDATE: ReferentialAction = 'CASCADE';

/**
 * Checks the parsed relations file; the relation nodes, or undefined when something is wrong.
 * `unreadable` holds the snake_case names of entity files that failed before naming their entity: a
 * relation to such an entity is not reported as unknown, the file's own error says what to fix.
 */
export function checkRelations(
  data: unknown,
  file: string,
  entities: ReadonlyMap<string, EntityDraft>,
  diags: DiagnosticList,
  unreadable: ReadonlySet<string> = new Set(),
): RelationNode[] | undefined {
  if (!isObject(data)) return undefined;
  const errorsBefore = diags.countFor(file);
  const context: Context = { file, entities, diags, constraintNames: new Map(), foreignKeys: new Map(), unreadable };
  const names = new Map<string, string>();
  const nodes: RelationNode[] = [];
  let complete = true;
  const count = arrayAt(data, 'relations')?.length ?? 0;
  if (count > MAX_RELATIONS) {
    diags.add(file, '#/relations', 'limit', `${frenchNumber(count)} relations : un projet en a au plus ${MAX_RELATIONS} ; regroupez les entités`);
    return undefined;
  }
  (arrayAt(data, 'relations') ?? []).forEach((raw, i) => {
    const pointer = pointerTo('#/relations', i);
    if (!isObject(raw)) return void (complete = false);
    const name = stringAt(raw, 'name');
    if (name !== undefined) {
      const first = names.get(name);
      if (first !== undefined)
        diags.add(
          file,
          pointerTo(pointer, 'name'),
          'duplicate_relation',
          `relation « ${name} » en double (déjà définie en ${first}) : chaque relation a un nom unique ; renommez-la`,
        );
      else names.set(name, pointer);
    }
    const node = checkRelation(raw, pointer, context);
    if (node) nodes.push(node);
    else complete = false;
  });
  return complete && diags.countFor(file) === errorsBefore ? nodes : undefined;
}

function checkRelation(raw: Json, pointer: string, context: Context): RelationNode | undefined {
  const { file, diags } = context;
  const errorsBefore = diags.countFor(file);
  const name = stringAt(raw, 'name');
  const type = stringAt(raw, 'type');
  const onDelete = action(stringAt(raw, 'on_delete'), stringAt(raw, 'type') === 'many_to_many' ? DEFAULT_PIVOT_ON_DELETE : DEFAULT_ON_DELETE);
  const onUpdate = action(stringAt(raw, 'on_update'), DEFAULT_ON_UPDATE);
  const from = resolve(raw, 'from_entity', 'from_field', pointer, context);
  const to = resolve(raw, 'to_entity', 'to_field', pointer, context);
  if (name === undefined || (type !== 'many_to_one' && type !== 'many_to_many')) return undefined;

  let foreignKeyName: string | undefined;
  let pivotTable: string | null = null;
  let pivotFields: FieldNode[] = [];
  const self = type === 'many_to_many' && from !== undefined && to !== undefined && from.entity.name === to.entity.name;
  const sides = checkSides(raw, pointer, self, from?.entity.name ?? '', file, diags);
  if (type === 'many_to_one') {
    foreignKeyName = checkManyToOne(raw, pointer, from, to, onDelete, onUpdate, context);
  } else {
    const pivot = checkManyToMany(raw, name, pointer, from, to, onDelete, onUpdate, context, sides);
    foreignKeyName = pivot.foreignKeyName;
    pivotTable = name;
    pivotFields = pivot.fields ?? [];
    if (!pivot.fields) return undefined;
  }
  if (!from?.field || !to?.field || foreignKeyName === undefined || diags.countFor(file) > errorsBefore) return undefined;
  return relationNode({
    name,
    type,
    fromEntity: from.entity.name,
    fromField: from.field.name,
    toEntity: to.entity.name,
    toField: to.field.name,
    foreignKeyName,
    onDelete,
    onUpdate,
    pivotTable,
    pivotFields,
    pointer,
    ...(sides ? { sides } : {}),
  });
}

function action(value: string | undefined, fallback: ReferentialAction): ReferentialAction {
  return (ACTIONS as readonly string[]).includes(value ?? '') ? (value as ReferentialAction) : fallback;
}

function checkManyToOne(
  raw: Json,
  pointer: string,
  from: End | undefined,
  to: End | undefined,
  onDelete: ReferentialAction,
  onUpdate: ReferentialAction,
  context: Context,
): string | undefined {
  const { file, diags } = context;
  const at = (key: string): string => pointerTo(pointer, key);
  if (raw.pivot_fields !== undefined) {
    diags.add(file, at('pivot_fields'), 'pivot', "pivot_fields ne s'applique qu'aux relations many_to_many : retirez-le, ou changez « type »");
  }
  const fk = from?.field;
  const target = to?.field;
  if (from && fk) {
    const ref = `${from.entity.name}.${fk.name}`;
    if (fk.primaryKey) {
      diags.add(
        file,
        at('from_field'),
        'fk_target',
        `from_field « ${ref} » est la clé primaire de « ${from.entity.name} » : une relation many_to_one part d'un champ clé étrangère, par exemple « ${snakeOf(to?.entity.name)}_id » (ajoutez ce champ à l'entité)`,
      );
    }
    const previous = context.foreignKeys.get(ref);
    if (previous !== undefined) {
      diags.add(
        file,
        at('from_field'),
        'fk_target',
        `le champ « ${ref} » est déjà la clé étrangère de la relation ${previous} : un champ ne référence qu'une cible ; ajoutez un autre champ`,
      );
    } else context.foreignKeys.set(ref, pointer);
    for (const [key, value] of [
      ['on_delete', onDelete],
      ['on_update', onUpdate],
    ] as const) {
      if (value === 'SET NULL' && !fk.nullable) {
        diags.add(
          file,
          at(key),
          'set_null',
          `${key} SET NULL exige que la clé étrangère « ${ref} » accepte NULL : ajoutez "nullable": true à ce champ, ou choisissez RESTRICT ou CASCADE`,
        );
      }
    }
  }
  if (to && target && !target.primaryKey && !target.unique) {
    diags.add(
      file,
      at('to_field'),
      'fk_target',
      `to_field « ${to.entity.name}.${target.name} » n'est ni la clé primaire ni un champ unique : une clé étrangère doit référencer une valeur unique ; visez « ${to.entity.primaryKey?.name ?? 'id'} » ou ajoutez "unique": true`,
    );
  }
  if (from && fk && to && target && fk.sqlType && target.sqlType && !sameSqlType(fk.sqlType, target.sqlType)) {
    diags.add(
      file,
      at('from_field'),
      'fk_type',
      `type de clé étrangère incompatible : « ${from.entity.name}.${fk.name} » est ${fk.sqlType.text}, « ${to.entity.name}.${target.name} » est ${target.sqlType.text} ; les deux doivent être identiques après normalisation (INT(11) = INT, mais INT ≠ BIGINT et INT ≠ INT UNSIGNED) : mettez "sql_type": "${target.sqlType.text}" au champ « ${fk.name} »`,
    );
  }
  if (!from || !fk) return undefined;
  const given = stringAt(raw, 'foreign_key_name');
  const name = given ?? `fk_${from.entity.table ?? snakeOf(from.entity.name)}_${fk.column}`.toLowerCase();
  if (given === undefined && name.length > MAX_IDENTIFIER_LENGTH) {
    diags.add(
      file,
      pointer,
      'identifier_length',
      `le nom de contrainte déduit « ${name} » dépasse ${MAX_IDENTIFIER_LENGTH} caractères : donnez un « foreign_key_name » plus court`,
    );
  }
  claimConstraint(name, given !== undefined ? at('foreign_key_name') : pointer, context);
  return name;
}

function checkManyToMany(
  raw: Json,
  name: string,
  pointer: string,
  from: End | undefined,
  to: End | undefined,
  onDelete: ReferentialAction,
  onUpdate: ReferentialAction,
  context: Context,
  sides: RelationNode['sides'],
): { foreignKeyName: string | undefined; fields: FieldNode[] | undefined } {
  const { file, entities, diags } = context;
  const at = (key: string): string => pointerTo(pointer, key);
  for (const [end, key] of [
    [from, 'from_field'],
    [to, 'to_field'],
  ] as const) {
    if (end?.field && !end.field.primaryKey) {
      diags.add(
        file,
        at(key),
        'fk_target',
        `${key} « ${end.entity.name}.${end.field.name} » : une relation many_to_many relie les clés primaires ; écrivez « ${end.entity.primaryKey?.name ?? 'id'} »`,
      );
    }
  }
  for (const [key, value] of [
    ['on_delete', onDelete],
    ['on_update', onUpdate],
  ] as const) {
    if (value === 'SET NULL') {
      diags.add(
        file,
        at(key),
        'set_null',
        `${key} SET NULL impossible pour une relation many_to_many : les colonnes de la table pivot forment sa clé et ne peuvent pas être NULL ; choisissez CASCADE ou RESTRICT`,
      );
    }
  }
  // The pivot table is named after the relation.
  if (isReservedTableName(name)) {
    diags.add(
      file,
      at('name'),
      'reserved_word',
      `table pivot « ${name} » (nom de la relation) : mot réservé SQL (MariaDB ou MySQL 8), refusé ; renommez la relation`,
    );
  }
  const owned = frameworkTableConflict(name);
  if (owned !== undefined) {
    diags.add(file, at('name'), 'framework_table', `table pivot « ${name} » (nom de la relation) : ${owned} ; renommez la relation`);
  }
  const owner = [...entities.values()].find((e) => e.table === name);
  if (owner) {
    diags.add(
      file,
      at('name'),
      'pivot',
      `table pivot « ${name} » : c'est déjà la table de l'entité « ${owner.name} » ; renommez la relation (par exemple « ${name}_liens »)`,
    );
  }

  const fields: FieldNode[] = [];
  let complete = true;
  const seen = new Map<string, string>();
  // The pivot's own columns, one per side, are named <EntityName><KeyColumn> (emitters/sql-table-spec.ts).
  const sideColumns = new Map<string, string>();
  for (const [end, side] of [
    [from, 'from'],
    [to, 'to'],
  ] as const) {
    const described = sides ? `${end?.entity.name ?? ''} (${sides[side].name})` : (end?.entity.name ?? '');
    if (end?.entity.primaryKey) sideColumns.set(pivotSideColumn({ sides }, side, end.entity.name, end.entity.primaryKey.column).toLowerCase(), described);
  }
  const pivotCount = arrayAt(raw, 'pivot_fields')?.length ?? 0;
  if (pivotCount > MAX_PIVOT_FIELDS) {
    diags.add(
      file,
      at('pivot_fields'),
      'limit',
      `${frenchNumber(pivotCount)} champs pivot : une relation en a au plus ${MAX_PIVOT_FIELDS} ; faites de la table pivot une entité`,
    );
    return { foreignKeyName: `fk_${name}`, fields: undefined };
  }
  (arrayAt(raw, 'pivot_fields') ?? []).forEach((item, j) => {
    const fieldPointer = pointerTo(at('pivot_fields'), j);
    const field = isObject(item) ? checkField(item, 'pivot_field', file, fieldPointer, diags) : undefined;
    if (!field?.node) complete = false;
    if (!field) return;
    const side = sideColumns.get(field.column.toLowerCase());
    if (side !== undefined) {
      diags.add(
        file,
        pointerTo(fieldPointer, item !== null && typeof item === 'object' && 'sql' in item ? 'sql' : 'name'),
        'duplicate_column',
        `champ pivot « ${field.name} » : la colonne « ${field.column} » est déjà celle qui référence « ${side} » dans la table pivot ; renommez le champ ou donnez une autre colonne avec « sql »`,
      );
      complete = false;
    }
    const first = seen.get(field.column.toLowerCase());
    if (first !== undefined) {
      diags.add(
        file,
        pointerTo(fieldPointer, 'name'),
        'duplicate_field',
        `champ pivot « ${field.name} » en double (colonne « ${field.column} » déjà définie en ${first}) : renommez-le`,
      );
      complete = false;
    } else seen.set(field.column.toLowerCase(), fieldPointer);
    if (field.node) fields.push(field.node);
  });

  const keyTypes = [from, to].map((end) => end?.entity.primaryKey?.sqlType ?? null);
  if (complete && keyTypes.every((t) => t !== null)) {
    const size = rowBytes([...keyTypes.map((type) => ({ type, nullable: false })), ...fields.map((f) => ({ type: f.sqlType, nullable: f.nullable }))]);
    if (size > MAX_ROW_BYTES) {
      diags.add(
        file,
        at('pivot_fields'),
        'sql_limit',
        `table pivot « ${name} » : ligne de ${frenchNumber(size)} octets ; MariaDB limite une ligne à ${frenchNumber(MAX_ROW_BYTES)} octets (utf8mb4 : 4 octets par caractère) ; passez de longs VARCHAR en TEXT`,
      );
      complete = false;
    }
  }
  const given = stringAt(raw, 'foreign_key_name');
  const base = given ?? `fk_${name}`;
  // The emitter names one constraint per side: <base>_<side table>.
  for (const [end, side] of [
    [from, 'from'],
    [to, 'to'],
  ] as const) {
    const table = end?.entity.table;
    if (table === undefined) continue;
    const constraint = `${base}_${pivotSideSuffix({ sides }, side, table)}`.toLowerCase();
    if (constraint.length > MAX_IDENTIFIER_LENGTH) {
      diags.add(
        file,
        given !== undefined ? at('foreign_key_name') : at('name'),
        'identifier_length',
        `le nom de contrainte « ${constraint} » dépasse ${MAX_IDENTIFIER_LENGTH} caractères : donnez un « foreign_key_name » plus court`,
      );
    }
    claimConstraint(constraint, given !== undefined ? at('foreign_key_name') : pointer, context);
  }
  return { foreignKeyName: base, fields: complete ? fields : undefined };
}
