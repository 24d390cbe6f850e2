/**
 * The intermediate model (IR): what the compiler produces from entity and relation files and what every
 * emitter consumes. Nodes are plain data with a `kind`, made by the factory functions below and deeply frozen.
 */

/** The logical type of a value (`python_type` in entity files, read as a hint; deduced from sql_type when absent). */
export type LogicalType = 'int' | 'str' | 'bool' | 'float' | 'decimal' | 'date' | 'datetime' | 'time' | 'bytes';

/** A normalised SQL type: `INT(11)` -> base INT, no args (display width dropped); `BOOLEAN` -> base TINYINT, args [1]. */
export interface SqlTypeNode {
  readonly kind: 'sql_type';
  /** Upper-case base name: INT, BIGINT, SMALLINT, TINYINT, MEDIUMINT, VARCHAR, CHAR, TEXT, MEDIUMTEXT, LONGTEXT, DATE, DATETIME, TIMESTAMP, TIME, DECIMAL, FLOAT, DOUBLE, BLOB... */
  readonly base: string;
  /** Length, or precision and scale. */
  readonly args: readonly number[];
  readonly unsigned: boolean;
  /** Canonical MariaDB spelling, e.g. `VARCHAR(100)`, `INT UNSIGNED`, `DECIMAL(10,2)`, `TINYINT(1)`. */
  readonly text: string;
}

export interface FieldNode {
  readonly kind: 'field';
  /** snake_case name used in code and forms. */
  readonly name: string;
  /** PascalCase SQL column. */
  readonly column: string;
  /** What users read (forms, list, CSV and detail headers): `label` from the file, else humanLabel(name). */
  readonly label: string;
  readonly logicalType: LogicalType;
  readonly sqlType: SqlTypeNode;
  readonly nullable: boolean;
  readonly unique: boolean;
  readonly primaryKey: boolean;
  readonly autoIncrement: boolean;
  readonly notEmpty: boolean;
  /** From constraints.max_length, else the VARCHAR/CHAR length, else null. */
  readonly maxLength: number | null;
  /** list.filter: an equality filter on the generated list page. */
  readonly filter: boolean;
  /** JSON pointer of the field in its file (for messages). */
  readonly pointer: string;
  /** `renamed_from`: the column the field had before (docs/entities.md "Renaming a field"); absent when not given. */
  readonly renamedFrom?: string;
  /** `constraints.min` / `max`, `min_length`, `pattern`, and `default` (docs/entities.md "Constraints"); absent keys: none. */
  readonly constraints?: FieldConstraints;
}

/** The value constraints of a field, as checked by compiler/constraint-check.ts; every key absent when not given. */
export interface FieldConstraints {
  /** Bounds of a number, as exact text (`0`, `9.99`). */
  readonly min?: string;
  readonly max?: string;
  readonly minLength?: number;
  /** A regular expression the whole value must match (JavaScript syntax, `u` flag), and the form's message when it does not. */
  readonly pattern?: string;
  readonly patternMessage?: string;
  /** The DEFAULT of the column and the create form's initial value: a DECIMAL's as exact text. */
  readonly default?: string | number | boolean;
}

/** One piece of how a record is named (`display`): a field's value, or text written as is. */
export type DisplayPart = { readonly field: string } | { readonly text: string };

export interface MediaNode {
  readonly kind: 'media';
  readonly name: string;
  readonly field: 'image' | 'file';
  readonly role: string;
  readonly label: string;
  /** `true`: made during the upload; `'job'`: made afterwards by a background job (docs/uploads.md "Variants made by a job"). */
  readonly variants: boolean | 'job';
  readonly multiple: boolean;
}

export interface RbacNode {
  readonly kind: 'rbac';
  /** Permission name (e.g. `index`, `show`, `create`, `update`, `delete`) -> roles allowed. */
  readonly permissions: Readonly<Record<string, readonly string[]>>;
}

export interface EntityNode {
  readonly kind: 'entity';
  /** PascalCase entity name, e.g. `ContactClient`. */
  readonly name: string;
  /** snake_case of the name: folder and file names, e.g. `contact_client`. */
  readonly snake: string;
  readonly table: string;
  /** Route plural: `plural` key, else snake + `s` unless it ends in s, x or z. */
  readonly plural: string;
  /** What users read for one record (detail and form titles): `label` from the file, else the entity name. */
  readonly label: string;
  /** What users read for the records (list titles): `label_plural` from the file, else the plural in PascalCase. */
  readonly labelPlural: string;
  readonly description: string;
  readonly primaryKey: FieldNode;
  /** Every field, the primary key first, in file order otherwise. */
  readonly fields: readonly FieldNode[];
  readonly media: readonly MediaNode[];
  readonly rbac: RbacNode | null;
  /** `display`: how a record is named (docs/entities.md "How a record is named"); absent: the default label field. */
  readonly display?: readonly DisplayPart[];
  /** Path of the entity file relative to the project root (posix separators). */
  readonly file: string;
}

export type RelationType = 'many_to_one' | 'many_to_many';
export type ReferentialAction = 'RESTRICT' | 'CASCADE' | 'SET NULL' | 'NO ACTION' | 'SET DEFAULT';

export interface RelationNode {
  readonly kind: 'relation';
  readonly name: string;
  readonly type: RelationType;
  /** many_to_one: the entity holding the foreign key and its field. many_to_many: one side and its key. */
  readonly fromEntity: string;
  readonly fromField: string;
  /** many_to_one: the referenced entity and field (usually its primary key). many_to_many: the other side and its key. */
  readonly toEntity: string;
  readonly toField: string;
  /** Constraint name (given, or `fk_<table>_<column>` derived; for pivots one per side). */
  readonly foreignKeyName: string;
  readonly onDelete: ReferentialAction;
  readonly onUpdate: ReferentialAction;
  /** many_to_many only: pivot table name and its extra fields. */
  readonly pivotTable: string | null;
  readonly pivotFields: readonly FieldNode[];
  readonly pointer: string;
  /** A many-to-many from an entity to itself: what each side is called (docs/entities.md "Relations (`mvc/entities/relations.json`)"); absent otherwise. */
  readonly sides?: RelationSides;
}

/** One side of a self many-to-many: `name` (snake_case) gives the pivot column and the form field, `label` what users read. */
export interface RelationSide {
  readonly name: string;
  readonly label: string;
}

export interface RelationSides {
  readonly from: RelationSide;
  readonly to: RelationSide;
}

export interface ModelNode {
  readonly kind: 'model';
  /** Sorted by name. */
  readonly entities: readonly EntityNode[];
  readonly relations: readonly RelationNode[];
}

/** One problem found in a definition file: file, JSON pointer, French message. */
export interface Diagnostic {
  readonly file: string;
  readonly pointer: string;
  readonly message: string;
  /** Stable code, e.g. `schema`, `reserved_word`, `naming`, `fk_type`, `unknown_entity`. */
  readonly code: string;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value as object)) deepFreeze(child);
  }
  return value;
}

type Props<T> = Omit<T, 'kind'>;

export const sqlTypeNode = (p: Props<SqlTypeNode>): SqlTypeNode => deepFreeze({ kind: 'sql_type', ...p });
export const fieldNode = (p: Props<FieldNode>): FieldNode => deepFreeze({ kind: 'field', ...p });
export const mediaNode = (p: Props<MediaNode>): MediaNode => deepFreeze({ kind: 'media', ...p });
export const rbacNode = (p: Props<RbacNode>): RbacNode => deepFreeze({ kind: 'rbac', ...p });
export const entityNode = (p: Props<EntityNode>): EntityNode => deepFreeze({ kind: 'entity', ...p });
export const relationNode = (p: Props<RelationNode>): RelationNode => deepFreeze({ kind: 'relation', ...p });
export const modelNode = (p: Props<ModelNode>): ModelNode =>
  deepFreeze({ kind: 'model', entities: [...p.entities].sort((a, b) => a.name.localeCompare(b.name)), relations: p.relations });

/** The entity of that name, or undefined. */
export function findEntity(model: ModelNode, name: string): EntityNode | undefined {
  return model.entities.find((e) => e.name === name);
}

/** The many-to-one relations whose foreign key sits in this entity. */
export function manyToOneFrom(model: ModelNode, entity: string): RelationNode[] {
  return model.relations.filter((r) => r.type === 'many_to_one' && r.fromEntity === entity);
}
