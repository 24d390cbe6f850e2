/**
 * What the CRUD emitters need to know about one entity, derived once from the IR: class and file names, the
 * list's columns and allow-lists, the form's fields, the many-to-one targets and their labels, the routes. The
 * shapes of the plan are in plan-types.ts.
 */
import { manyToOneFrom, type EntityNode, type FieldNode, type MediaNode, type ModelNode, type RelationNode } from '../../compiler/ir.js';
import { requireEntity, requireField } from '../ir-lookup.js';
import { pivotTableSpec } from '../sql-table-spec.js';
import type { CrudField, CrudLink, CrudMedia, CrudPlan, CrudReference, CrudRelation, CrudRoute, InputKind } from './plan-types.js';

export { humanLabel } from '../../compiler/naming.js';
export type { CrudField, CrudLink, CrudMedia, CrudPlan, CrudReference, CrudRelation, CrudRoute, InputKind } from './plan-types.js';

const TEXT_TYPES = new Set(['VARCHAR', 'CHAR']);
const LONG_TEXT_TYPES = new Set(['TEXT', 'TINYTEXT', 'MEDIUMTEXT', 'LONGTEXT']);
/** Words of a field's snake name that make its input an email, url or tel one (docs/crud.md "Forms"). */
const EMAIL_WORDS = ['email', 'courriel'];
const URL_WORDS = ['url', 'website', 'site'];
const TEL_WORDS = ['phone', 'telephone', 'tel', 'mobile', 'portable'];
const LABEL_NAMES = ['nom', 'name', 'libelle', 'label', 'titre', 'title', 'intitule', 'designation', 'email'];

/** VARCHAR, CHAR and the TEXT types: searched by `q`, ordered in the collation's order. */
export function isTextual(field: FieldNode): boolean {
  return TEXT_TYPES.has(field.sqlType.base) || LONG_TEXT_TYPES.has(field.sqlType.base);
}

export function inputKind(field: FieldNode, relation: CrudRelation | null): InputKind {
  if (relation) return 'relation';
  const base = field.sqlType.base;
  if (field.logicalType === 'bool') return 'bool';
  if (LONG_TEXT_TYPES.has(base)) return 'textarea';
  switch (field.logicalType) {
    case 'int':
      return 'int';
    case 'decimal':
      return 'decimal';
    case 'float':
      return 'float';
    case 'date':
      return 'date';
    case 'datetime':
      return 'datetime';
    case 'time':
      return 'time';
    default:
      break;
  }
  // Whole words of the snake name only: `tel_fixe` is a telephone number, `hotel` is not.
  const words = new Set(field.name.split('_'));
  const has = (candidates: readonly string[]): boolean => candidates.some((word) => words.has(word));
  if (has(EMAIL_WORDS)) return 'email';
  if (has(URL_WORDS)) return 'url';
  if (has(TEL_WORDS)) return 'tel';
  return 'text';
}

/**
 * The field that names a row of `target` in selects and lists; `allowed` narrows the candidates (the public pages
 * take it among the fields they show), the key when none is left.
 */
export function labelField(target: EntityNode, allowed: (field: FieldNode) => boolean = () => true): FieldNode {
  const texts = target.fields.filter((f) => !f.primaryKey && TEXT_TYPES.has(f.sqlType.base) && allowed(f));
  for (const name of LABEL_NAMES) {
    const found = texts.find((f) => f.name === name || f.name.startsWith(`${name}_`));
    if (found) return found;
  }
  return texts[0] ?? target.primaryKey;
}

/** What names a record of `entity` in SQL: the column, or the expression of its `display`, read from `prefix`. */
export interface LabelSql {
  readonly sql: string;
  /** Ordered as text (in MariaDB's order on SQLite too). */
  readonly text: boolean;
}

/** `'…'` with its quotes doubled: the same literal on both dialects (the schema refuses a backslash in `display`). */
function sqlText(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/**
 * The label of a record of `entity` as SQL, columns read from `prefix` (`r_ville_id.`, `o.`, or none): its
 * `display` (docs/entities.md "How a record is named"), else the default label field. A display of one field
 * alone is that column; a pattern is `NULLIF(TRIM(CONCAT(COALESCE(<column>, ''), ' ', …)), '')`, which reads the
 * same on MariaDB and SQLite (3.44+): an empty field is empty text, an empty label NULL (the key shows instead).
 */
export function labelSql(entity: EntityNode, prefix = ''): LabelSql {
  const parts = entity.display;
  if (!parts) {
    const field = labelField(entity);
    return { sql: `${prefix}${field.column}`, text: isTextual(field) };
  }
  const column = (name: string): FieldNode => requireField(entity, name, `display de ${entity.name}`);
  const only = parts.length === 1 ? parts[0] : undefined;
  if (only && 'field' in only) {
    const field = column(only.field);
    return { sql: `${prefix}${field.column}`, text: isTextual(field) };
  }
  const pieces = parts.map((part) => ('field' in part ? `COALESCE(${prefix}${column(part.field).column}, '')` : sqlText(part.text)));
  return { sql: `NULLIF(TRIM(CONCAT(${pieces.join(', ')})), '')`, text: true };
}

/** The runtime's pattern of a `display` (`{prenom} {nom}`) and the fields it names; null without `display`. */
export function displayPattern(entity: EntityNode): { pattern: string; fields: string[] } | null {
  const parts = entity.display;
  if (!parts) return null;
  return {
    fields: [...new Set(parts.flatMap((part) => ('field' in part ? [part.field] : [])))],
    pattern: parts.map((part) => ('field' in part ? `{${part.field}}` : part.text)).join(''),
  };
}

function pascal(snake: string): string {
  return snake
    .split('_')
    .map((p) => p.charAt(0).toUpperCase() + p.slice(1))
    .join('');
}

/** `ville_id` → `villeId`. */
function camel(snake: string): string {
  const name = pascal(snake);
  return name.charAt(0).toLowerCase() + name.slice(1);
}

/**
 * The choice methods' names, by field. Two fields can share a camelCase name (`ville_2` and `ville2`): those keep
 * their snake name, which the entity's field names make unique.
 */
function choicesMethods(fields: readonly string[]): Map<string, string> {
  const counts = new Map<string, number>();
  for (const f of fields) counts.set(camel(f), (counts.get(camel(f)) ?? 0) + 1);
  return new Map(fields.map((f) => [f, `${counts.get(camel(f)) === 1 ? camel(f) : f}Choices`]));
}

/** The many-to-many relations of `entity`, from either side, as form fields named after the other side. */
function crudLinks(model: ModelNode, entity: EntityNode, taken: ReadonlySet<string>): CrudLink[] {
  const links: CrudLink[] = [];
  const names = new Set(taken);
  for (const relation of model.relations) {
    if (relation.type !== 'many_to_many' || !relation.pivotTable) continue;
    for (const isFrom of ownSides(relation, entity)) {
      const target = requireEntity(model, isFrom ? relation.toEntity : relation.fromEntity, `relation ${relation.name}`);
      const targetKey = requireField(target, isFrom ? relation.toField : relation.fromField, `relation ${relation.name}`);
      const spec = pivotTableSpec(model, relation);
      const [fromColumn, toColumn] = spec.primaryKey as [string, string];
      // A self relation: the field is named after the other side (the students of a mentor, `eleve_ids`).
      const otherSide = relation.sides ? (isFrom ? relation.sides.to : relation.sides.from) : null;
      // Two relations to the same entity, or a field already named so: the relation's name tells them apart.
      let name = `${otherSide?.name ?? target.snake}_ids`;
      if (names.has(name)) name = `${relation.name}_${otherSide ? `${otherSide.name}_` : ''}ids`;
      names.add(name);
      links.push({
        relation,
        name,
        label: otherSide?.label ?? target.labelPlural,
        target,
        targetKey,
        targetLabel: labelField(target),
        pivotTable: relation.pivotTable,
        ownColumn: isFrom ? fromColumn : toColumn,
        otherColumn: isFrom ? toColumn : fromColumn,
        pivotFields: relation.pivotFields,
        choicesMethod: `${camel(name)}Choices`,
      });
    }
  }
  return links;
}

/** The sides of a many-to-many that `entity` is on: true for the from side, false for the to side (both on a self relation). */
function ownSides(relation: RelationNode, entity: EntityNode): boolean[] {
  return [relation.fromEntity === entity.name ? [true] : [], relation.toEntity === entity.name ? [false] : []].flat();
}

/** `Animaux` → `animaux` inside a sentence; an acronym (`TVA`, `PDFs`) keeps its capitals. */
export function inSentence(label: string): string {
  return /^\p{Lu}\p{Ll}/u.test(label) || label.length === 1 ? label.charAt(0).toLowerCase() + label.slice(1) : label;
}

const BLOCKING_ACTIONS = new Set(['RESTRICT', 'NO ACTION']);

/** The foreign keys that refuse the deletion of `entity`'s records: many-to-one toward it, and pivots' sides on it. */
function crudReferences(model: ModelNode, entity: EntityNode): CrudReference[] {
  const references: CrudReference[] = [];
  for (const relation of model.relations) {
    if (!BLOCKING_ACTIONS.has(relation.onDelete)) continue;
    if (relation.type === 'many_to_one' && relation.toEntity === entity.name) {
      const from = requireEntity(model, relation.fromEntity, `relation ${relation.name}`);
      const column = requireField(from, relation.fromField, `relation ${relation.name}`).column;
      const target = requireField(entity, relation.toField, `relation ${relation.name}`).column;
      references.push({
        table: from.table,
        column,
        target,
        selfKey: from.name === entity.name ? from.primaryKey.column : null,
        one: inSentence(from.label),
        many: inSentence(from.labelPlural),
      });
    } else if (relation.type === 'many_to_many' && relation.pivotTable) {
      for (const isFrom of ownSides(relation, entity)) {
        // A pivot row is a link to the other side's record: it is named after that side.
        const other = requireEntity(model, isFrom ? relation.toEntity : relation.fromEntity, `relation ${relation.name}`);
        const otherSide = relation.sides ? (isFrom ? relation.sides.to : relation.sides.from) : null;
        const [fromColumn, toColumn] = pivotTableSpec(model, relation).primaryKey as [string, string];
        const target = requireField(entity, isFrom ? relation.fromField : relation.toField, `relation ${relation.name}`).column;
        references.push({
          table: relation.pivotTable,
          column: isFrom ? fromColumn : toColumn,
          target,
          selfKey: null,
          one: inSentence(otherSide?.label ?? other.label),
          many: inSentence(otherSide?.label ?? other.labelPlural),
        });
      }
    }
  }
  return references;
}

function crudMedia(node: MediaNode): CrudMedia {
  return {
    node,
    name: node.name,
    label: node.label,
    kind: node.field,
    role: node.role,
    multiple: node.multiple,
    variants: node.field === 'image' ? node.variants : false,
  };
}

export function crudPlan(model: ModelNode, entityName: string, options: { isPublic?: boolean; media?: boolean } = {}): CrudPlan {
  const entity = requireEntity(model, entityName, 'make:crud');
  const relations = new Map<string, CrudRelation>();
  const manyToOne = manyToOneFrom(model, entity.name);
  const methods = choicesMethods(manyToOne.map((r) => r.fromField));
  for (const relation of manyToOne) {
    const field = requireField(entity, relation.fromField, `relation ${relation.name}`);
    const target = requireEntity(model, relation.toEntity, `relation ${relation.name}`);
    relations.set(field.name, {
      field,
      target,
      targetKey: requireField(target, relation.toField, `relation ${relation.name}`),
      targetLabel: labelField(target),
      alias: `r_${field.name}`,
      labelKey: `${field.name}_label`,
      choicesMethod: methods.get(field.name)!,
    });
  }
  const fields: CrudField[] = entity.fields
    .filter((f) => !f.primaryKey)
    .map((field) => {
      const relation = relations.get(field.name) ?? null;
      const input = inputKind(field, relation);
      return {
        field,
        label: field.label,
        input,
        relation,
        inList: input !== 'textarea' && field.logicalType !== 'bytes',
        inForm: field.logicalType !== 'bytes',
      };
    });
  const pk = entity.primaryKey;
  const formFields = pk.autoIncrement
    ? fields.filter((f) => f.inForm)
    : [{ field: pk, label: pk.label, input: inputKind(pk, null), relation: null, inList: true, inForm: true }, ...fields.filter((f) => f.inForm)];
  const links = crudLinks(model, entity, new Set(entity.fields.map((f) => f.name)));
  const media = options.media === true ? entity.media.map(crudMedia) : null;
  const prefix = `/${entity.plural}`;
  const routeName = entity.plural;
  const route = (method: 'GET' | 'POST', path: string, action: string, name: string): CrudRoute => ({
    method,
    path: `${prefix}${path}`,
    action,
    name: `${routeName}.${name}`,
  });
  return {
    entity,
    entityClass: entity.name,
    modelClass: `${entity.name}Model`,
    formClass: `${entity.name}Form`,
    controllerClass: `${entity.name}Controller`,
    listConst: `${entity.snake.toUpperCase()}_LIST`,
    primaryKey: pk,
    fields,
    listFields: fields.filter((f) => f.inList),
    formFields,
    filterFields: fields.filter((f) => (f.field.filter || f.relation !== null) && f.field.logicalType !== 'bytes'),
    relations: [...relations.values()],
    links,
    searchColumns: entity.fields.filter((f) => isTextual(f) && !relations.has(f.name)).map((f) => `t.${f.column}`),
    references: crudReferences(model, entity),
    prefix,
    routeName,
    viewDir: entity.snake,
    // GET /new before GET /{id} (the router also ranks static segments first, docs/decisions.md#routing-static-segments-first).
    routes: [
      route('GET', '', 'index', 'index'),
      route('GET', '/new', 'create', 'new'),
      route('POST', '', 'store', 'store'),
      route('GET', '/export.csv', 'exportCsv', 'export'),
      route('POST', '/bulk-delete', 'bulkDelete', 'bulk_delete'),
      route('POST', '/bulk-delete/confirm', 'bulkDeleteConfirm', 'bulk_delete_confirm'),
      route('GET', '/{id}', 'show', 'show'),
      route('GET', '/{id}/edit', 'edit', 'edit'),
      route('POST', '/{id}', 'update', 'update'),
      route('POST', '/{id}/delete', 'destroy', 'delete'),
    ],
    isPublic: options.isPublic === true,
    checksPermissions: entity.rbac !== null,
    title: entity.labelPlural,
    label: entity.label,
    crudModule: `${entity.snake}_crud`,
    fieldsConst: `${entity.snake.toUpperCase()}_FIELDS`,
    media,
    mediaModule: `${entity.snake}_media`,
    listImage: media?.find((m) => m.kind === 'image' && !m.multiple) ?? null,
  };
}
