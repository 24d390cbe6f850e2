/**
 * Factories of IR values for table-driven emitter tests (one field, one relation, an entity made for a case), built
 * with the factories of `compiler/ir.ts`, and the schema a database should hold for a model. The model of the
 * snapshots is not built here: it is compiled from the JSON files of test/fixtures/project (helpers/fixture-project.ts).
 */
import {
  entityNode,
  fieldNode,
  relationNode,
  sqlTypeNode,
  type EntityNode,
  type FieldNode,
  type LogicalType,
  type ModelNode,
  type ReferentialAction,
  type RelationNode,
  type SqlTypeNode,
} from '../compiler/ir.js';
import { humanLabel, pascalCase } from '../compiler/naming.js';

/** `VARCHAR(100)`, `INT UNSIGNED`, `DECIMAL(10,2)`, `TINYINT(1)`… in the canonical spelling the compiler produces. */
export function sqlType(text: string): SqlTypeNode {
  const match = /^([A-Z]+)(?:\(([\d,]+)\))?( UNSIGNED)?$/.exec(text);
  if (!match) throw new Error(`fixture: unreadable SQL type ${text}`);
  return sqlTypeNode({ base: match[1] ?? '', args: match[2] ? match[2].split(',').map(Number) : [], unsigned: Boolean(match[3]), text });
}

function logicalOf(type: SqlTypeNode): LogicalType {
  if (type.base === 'TINYINT' && type.args[0] === 1) return 'bool';
  if (/INT$/.test(type.base)) return 'int';
  if (type.base === 'DECIMAL') return 'decimal';
  if (type.base === 'FLOAT' || type.base === 'DOUBLE') return 'float';
  if (type.base === 'DATE') return 'date';
  if (type.base === 'DATETIME' || type.base === 'TIMESTAMP') return 'datetime';
  if (type.base === 'TIME') return 'time';
  if (/BLOB$/.test(type.base)) return 'bytes';
  return 'str';
}

/** snake_case -> PascalCase, the default column (docs/decisions.md#entity-names-and-columns). */
export function pascal(name: string): string {
  return name
    .split('_')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

export interface FieldOptions {
  column?: string;
  logicalType?: LogicalType;
  nullable?: boolean;
  unique?: boolean;
  primaryKey?: boolean;
  autoIncrement?: boolean;
  notEmpty?: boolean;
  maxLength?: number | null;
  filter?: boolean;
  label?: string;
}

export function field(name: string, type: string, options: FieldOptions = {}): FieldNode {
  const node = sqlType(type);
  const textLength = (node.base === 'VARCHAR' || node.base === 'CHAR') && node.args[0] !== undefined ? node.args[0] : null;
  return fieldNode({
    name,
    column: options.column ?? pascal(name),
    label: options.label ?? humanLabel(name),
    logicalType: options.logicalType ?? logicalOf(node),
    sqlType: node,
    nullable: options.nullable ?? false,
    unique: options.unique ?? false,
    primaryKey: options.primaryKey ?? false,
    autoIncrement: options.autoIncrement ?? false,
    notEmpty: options.notEmpty ?? false,
    maxLength: options.maxLength === undefined ? textLength : options.maxLength,
    filter: options.filter ?? false,
    pointer: `/fields/${name}`,
  });
}

/** The usual key: `id`, column `Id`, INT UNSIGNED AUTO_INCREMENT. */
export function idField(): FieldNode {
  return field('id', 'INT UNSIGNED', { primaryKey: true, autoIncrement: true });
}

function snakeOf(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

/** An entity whose first field is its primary key. */
export function entity(name: string, fields: FieldNode[], table = snakeOf(name), description = ''): EntityNode {
  const snake = snakeOf(name);
  const key = fields.find((f) => f.primaryKey);
  if (!key) throw new Error(`fixture: ${name} has no primary key`);
  const plural = /[sxz]$/.test(snake) ? snake : `${snake}s`;
  return entityNode({
    name,
    snake,
    table,
    plural,
    label: name,
    labelPlural: pascalCase(plural),
    description,
    primaryKey: key,
    fields: [key, ...fields.filter((f) => f !== key)],
    media: [],
    rbac: null,
    file: `mvc/entities/${snake}/${snake}.json`,
  });
}

export function manyToOne(
  name: string,
  from: string,
  to: string,
  options: { foreignKeyName: string; onDelete?: ReferentialAction; onUpdate?: ReferentialAction },
): RelationNode {
  const [fromEntity = '', fromField = ''] = from.split('.');
  const [toEntity = '', toField = ''] = to.split('.');
  return relationNode({
    name,
    type: 'many_to_one',
    fromEntity,
    fromField,
    toEntity,
    toField,
    foreignKeyName: options.foreignKeyName,
    onDelete: options.onDelete ?? 'RESTRICT',
    onUpdate: options.onUpdate ?? 'CASCADE',
    pivotTable: null,
    pivotFields: [],
    pointer: `/relations/${name}`,
  });
}

export function manyToMany(
  name: string,
  from: string,
  to: string,
  options: { pivotTable: string; foreignKeyName: string; pivotFields?: FieldNode[]; onDelete?: ReferentialAction; onUpdate?: ReferentialAction },
): RelationNode {
  const [fromEntity = '', fromField = ''] = from.split('.');
  const [toEntity = '', toField = ''] = to.split('.');
  return relationNode({
    name,
    type: 'many_to_many',
    fromEntity,
    fromField,
    toEntity,
    toField,
    foreignKeyName: options.foreignKeyName,
    onDelete: options.onDelete ?? 'CASCADE',
    onUpdate: options.onUpdate ?? 'CASCADE',
    pivotTable: options.pivotTable,
    pivotFields: options.pivotFields ?? [],
    pointer: `/relations/${name}`,
  });
}

/** What a database should hold after the generated SQL ran: derived from the IR here, independently of the emitters. */
export interface ExpectedColumn {
  name: string;
  /** Declared MariaDB type text. */
  type: string;
  nullable: boolean;
  autoIncrement: boolean;
  /** 1-based position in the primary key, 0 when not part of it. */
  pk: number;
}
export interface ExpectedForeignKey {
  name: string;
  column: string;
  refTable: string;
  refColumn: string;
  onDelete: string;
  onUpdate: string;
}
export interface ExpectedTable {
  table: string;
  columns: ExpectedColumn[];
  /** Index name -> [unique, columns]. */
  indexes: Record<string, { unique: boolean; columns: string[] }>;
  foreignKeys: ExpectedForeignKey[];
}

export function expectedSchema(model: ModelNode): ExpectedTable[] {
  const tables: ExpectedTable[] = model.entities.map((e) => {
    const fkFields = model.relations.filter((r) => r.type === 'many_to_one' && r.fromEntity === e.name);
    const indexes: ExpectedTable['indexes'] = {};
    for (const f of e.fields) {
      if (f.primaryKey) continue;
      if (f.unique) indexes[`uq_${e.table}_${f.column.toLowerCase()}`] = { unique: true, columns: [f.column] };
      else if (f.filter || fkFields.some((r) => r.fromField === f.name))
        indexes[`ix_${e.table}_${f.column.toLowerCase()}`] = { unique: false, columns: [f.column] };
    }
    return {
      table: e.table,
      columns: e.fields.map((f) => ({ name: f.column, type: f.sqlType.text, nullable: f.nullable, autoIncrement: f.autoIncrement, pk: f.primaryKey ? 1 : 0 })),
      indexes,
      foreignKeys: fkFields.map((r) => {
        const to = model.entities.find((x) => x.name === r.toEntity);
        return {
          name: r.foreignKeyName,
          column: e.fields.find((f) => f.name === r.fromField)?.column ?? '?',
          refTable: to?.table ?? '?',
          refColumn: to?.fields.find((f) => f.name === r.toField)?.column ?? '?',
          onDelete: r.onDelete,
          onUpdate: r.onUpdate,
        };
      }),
    };
  });
  for (const r of model.relations.filter((x) => x.type === 'many_to_many')) {
    const sides = [
      [r.fromEntity, r.fromField],
      [r.toEntity, r.toField],
    ].map(([entityName, fieldName]) => {
      const e = model.entities.find((x) => x.name === entityName);
      const key = e?.fields.find((f) => f.name === fieldName);
      if (!e || !key) throw new Error('fixture: bad relation');
      return { e, key, column: `${e.name}${key.column}` };
    });
    const table = r.pivotTable ?? '?';
    tables.push({
      table,
      columns: [
        ...sides.map((s, i) => ({ name: s.column, type: s.key.sqlType.text, nullable: false, autoIncrement: false, pk: i + 1 })),
        ...r.pivotFields.map((f) => ({ name: f.column, type: f.sqlType.text, nullable: f.nullable, autoIncrement: false, pk: 0 })),
      ],
      indexes: { [`ix_${table}_${sides[1]?.column.toLowerCase()}`]: { unique: false, columns: [sides[1]?.column ?? '?'] } },
      foreignKeys: sides.map((s) => ({
        name: `${r.foreignKeyName}_${s.e.table}`,
        column: s.column,
        refTable: s.e.table,
        refColumn: s.key.column,
        onDelete: r.onDelete,
        onUpdate: r.onUpdate,
      })),
    });
  }
  return tables.sort((a, b) => (a.table < b.table ? -1 : 1));
}
