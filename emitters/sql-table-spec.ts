/**
 * The dialect-neutral shape of an entity or pivot table, built once from the IR: the SQL emitters decide here
 * what a table holds, and the runtime's renderer (runtime/db/ddl/render.ts) only spells it, as it spells the
 * framework's own tables. The shape itself is runtime/db/ddl/table-spec.ts.
 */
import { manyToOneFrom, type EntityNode, type FieldNode, type ModelNode, type RelationNode, type SqlTypeNode } from '../compiler/ir.js';
import { shortenIdentifier } from '../runtime/db/ddl/names.js';
import { spellingOf, type DialectName } from '../runtime/db/dialect.js';
import type { CheckSpec, ColumnSpec, ForeignKeySpec, TableSpec } from '../runtime/db/ddl/table-spec.js';
import { EmitError, requireEntity, requireField } from './ir-lookup.js';
import { pivotSideColumn, pivotSideSuffix } from '../compiler/relation-sides.js';
import { byCodeUnits } from './text.js';

export type { ColumnSpec, ForeignKeySpec, IndexSpec, TableSpec } from '../runtime/db/ddl/table-spec.js';

/** The IR's canonical text, with UNSIGNED added if a hand-built node forgot it. */
export function columnType(sqlType: SqlTypeNode): string {
  return sqlType.unsigned && !/\bUNSIGNED\b/i.test(sqlType.text) ? `${sqlType.text} UNSIGNED` : sqlType.text;
}

/** `uq_<table>_<column lower>` / `ix_<table>_<column lower>`, shortened past 64 characters. */
export function keyName(prefix: 'uq' | 'ix', table: string, column: string): string {
  return shortenIdentifier(`${prefix}_${table}_${column.toLowerCase()}`);
}

/** The DEFAULT of a field as an SQL literal, the same on both dialects: a number, 1 / 0, `'…'` (no backslash: the compiler refuses it). */
function defaultLiteral(value: string | number | boolean): string {
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (typeof value === 'number') return String(value);
  return `'${value.replace(/'/g, "''")}'`;
}

/** The DEFAULT a field's column is written with, an SQL literal; undefined when it has none. */
export function entityDefault(field: FieldNode): string | undefined {
  const value = field.constraints?.default;
  // A DECIMAL's default is its exact text, written as a number.
  return value === undefined ? undefined : field.logicalType === 'decimal' ? String(value) : defaultLiteral(value);
}

function fieldColumn(field: FieldNode): ColumnSpec {
  const literal = entityDefault(field);
  return {
    name: field.column,
    type: columnType(field.sqlType),
    nullable: field.nullable && !field.primaryKey,
    autoIncrement: field.autoIncrement,
    ...(literal === undefined ? {} : { default: literal }),
  };
}

/** `ck_<table>_<column lower>_<kind>`, shortened past 64 characters. */
function checkName(table: string, column: string, kind: string): string {
  return shortenIdentifier(`ck_${table}_${column.toLowerCase()}_${kind}`);
}

/** The CHECK constraints of the fields' `constraints` (min, max, min_length, pattern), in field order. */
export function fieldChecks(table: string, fields: readonly FieldNode[]): CheckSpec[] {
  const checks: CheckSpec[] = [];
  for (const field of fields) {
    const c = field.constraints;
    if (!c) continue;
    const numeric = field.logicalType === 'decimal' ? { numeric: 'text' as const } : {};
    if (c.min !== undefined) checks.push({ name: checkName(table, field.column, 'min'), column: field.column, kind: 'min', value: c.min, ...numeric });
    if (c.max !== undefined) checks.push({ name: checkName(table, field.column, 'max'), column: field.column, kind: 'max', value: c.max, ...numeric });
    if (c.minLength !== undefined)
      checks.push({ name: checkName(table, field.column, 'min_length'), column: field.column, kind: 'min_length', value: String(c.minLength) });
    if (c.pattern !== undefined) checks.push({ name: checkName(table, field.column, 'pattern'), column: field.column, kind: 'pattern', value: c.pattern });
  }
  return checks;
}

/** `checks` only when there are some: a table without constraints keeps the description it always had. */
function withChecks(checks: CheckSpec[]): { checks?: CheckSpec[] } {
  return checks.length ? { checks } : {};
}

/** The many-to-one relations whose key sits in this entity, by relation name. */
export function manyToOneOf(model: ModelNode, entity: EntityNode): RelationNode[] {
  return manyToOneFrom(model, entity.name).sort((a, b) => byCodeUnits(a.name, b.name));
}

/** The foreign key of a many-to-one relation, on the table of its `from` entity. */
export function manyToOneForeignKey(model: ModelNode, relation: RelationNode): { table: string; foreignKey: ForeignKeySpec } {
  const context = `relation « ${relation.name} »`;
  const from = requireEntity(model, relation.fromEntity, context);
  const to = requireEntity(model, relation.toEntity, context);
  const column = requireField(from, relation.fromField, context).column;
  const refColumn = requireField(to, relation.toField, context).column;
  return {
    table: from.table,
    foreignKey: {
      name: shortenIdentifier(relation.foreignKeyName),
      columns: [column],
      refTable: to.table,
      refColumns: [refColumn],
      onDelete: relation.onDelete,
      onUpdate: relation.onUpdate,
    },
  };
}

/**
 * An entity's table: every field, the primary key, a unique key per unique field, an index per filter field
 * (not unique) and per many-to-one key column. Foreign keys are inline only where the dialect writes them so
 * (SQLite, which cannot add one to an existing table); MariaDB gets them from relations.sql once every table exists.
 */
export function entityTableSpec(model: ModelNode, entity: EntityNode, dialect: DialectName): TableSpec {
  const relations = manyToOneOf(model, entity);
  const foreignKeyFields = new Set(relations.map((r) => r.fromField));
  const indexed = (field: FieldNode): boolean => !field.primaryKey && !field.unique && (field.filter || foreignKeyFields.has(field.name));
  return {
    table: entity.table,
    columns: entity.fields.map(fieldColumn),
    primaryKey: [entity.primaryKey.column],
    uniques: entity.fields.filter((f) => f.unique && !f.primaryKey).map((f) => ({ name: keyName('uq', entity.table, f.column), columns: [f.column] })),
    indexes: entity.fields.filter(indexed).map((f) => ({ name: keyName('ix', entity.table, f.column), columns: [f.column] })),
    foreignKeys: spellingOf(dialect).foreignKeys === 'inline' ? relations.map((r) => manyToOneForeignKey(model, r).foreignKey) : [],
    ...withChecks(fieldChecks(entity.table, entity.fields)),
  };
}

/**
 * A many-to-many pivot: one NOT NULL column per side named `<EntityName><KeyColumn>` with the referenced key's
 * type, the pivot fields, the pair as primary key, an index on the second side (the primary key already serves
 * the first) and one foreign key per side named `<foreign_key_name>_<side table>`.
 */
export function pivotTableSpec(model: ModelNode, relation: RelationNode): TableSpec {
  const context = `relation « ${relation.name} »`;
  if (relation.type !== 'many_to_many' || !relation.pivotTable)
    throw new EmitError(`${context} : une table pivot demande une relation many_to_many avec pivot_table.`);
  if (relation.fromEntity === relation.toEntity && !relation.sides) {
    throw new EmitError(`${context} : une relation many_to_many d'une entité vers elle-même demande « from_name » et « to_name ».`);
  }
  const table = relation.pivotTable;
  const side = (entityName: string, fieldName: string, which: 'from' | 'to') => {
    const entity = requireEntity(model, entityName, context);
    const key = requireField(entity, fieldName, context);
    const column: ColumnSpec = {
      name: pivotSideColumn(relation, which, entity.name, key.column),
      type: columnType(key.sqlType),
      nullable: false,
      autoIncrement: false,
    };
    const foreignKey: ForeignKeySpec = {
      name: shortenIdentifier(`${relation.foreignKeyName}_${pivotSideSuffix(relation, which, entity.table)}`),
      columns: [column.name],
      refTable: entity.table,
      refColumns: [key.column],
      onDelete: relation.onDelete,
      onUpdate: relation.onUpdate,
    };
    return { column, foreignKey };
  };
  const from = side(relation.fromEntity, relation.fromField, 'from');
  const to = side(relation.toEntity, relation.toField, 'to');
  const extra = relation.pivotFields.map((f) => ({ ...fieldColumn(f), autoIncrement: false }));
  const names = new Set<string>();
  for (const column of [from.column, to.column, ...extra]) {
    if (names.has(column.name.toLowerCase())) throw new EmitError(`${context} : la table pivot « ${table} » aurait deux colonnes « ${column.name} ».`);
    names.add(column.name.toLowerCase());
  }
  return {
    table,
    columns: [from.column, to.column, ...extra],
    primaryKey: [from.column.name, to.column.name],
    uniques: relation.pivotFields.filter((f) => f.unique).map((f) => ({ name: keyName('uq', table, f.column), columns: [f.column] })),
    indexes: [{ name: keyName('ix', table, to.column.name), columns: [to.column.name] }],
    foreignKeys: [from.foreignKey, to.foreignKey],
    ...withChecks(fieldChecks(table, relation.pivotFields)),
  };
}
