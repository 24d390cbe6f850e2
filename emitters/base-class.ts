/**
 * `mvc/entities/<snake>/<snake>_base.ts`: the generated class of an entity (docs/entities.md "Generated files":
 * regenerable, with validation). Self-contained: it imports nothing, so it compiles on its own.
 */
import { classMemberConflict } from '../compiler/class-members.js';
import type { EntityNode, FieldNode, LogicalType, ModelNode } from '../compiler/ir.js';
import { HELPER_ORDER, HELPER_SOURCE, type Helper } from './base-class-helpers.js';
import { EmitError } from './ir-lookup.js';
import { syncEntityCommand, tsMarkerLine } from './marker.js';
import { commentText, fileText, tsString } from './text.js';

const named = (label: string): string => `Le champ « ${label} »`;

/**
 * French validation messages, one per field (the first rule that fails), naming the field by its label as the
 * form's messages do (runtime/forms/messages.ts).
 */
export const VALIDATION_MESSAGES = {
  required: (label: string): string => `${named(label)} est obligatoire.`,
  notEmpty: (label: string): string => `${named(label)} ne peut pas être vide.`,
  maxLength: (label: string, max: number): string => `${named(label)} doit contenir au plus ${max} caractère${max > 1 ? 's' : ''}.`,
  integer: (label: string): string => `${named(label)} doit être un nombre entier.`,
  unsigned: (label: string): string => `${named(label)} doit être un nombre positif ou nul.`,
  number: (label: string): string => `${named(label)} doit être un nombre.`,
  decimal: (label: string): string => `${named(label)} doit être un nombre décimal (par exemple 12.50).`,
  decimalPlaces: (label: string, n: number): string => `${named(label)} doit comporter au plus ${n} décimale${n > 1 ? 's' : ''}.`,
  minLength: (label: string, n: number): string => `${named(label)} doit contenir au moins ${n} caractère${n > 1 ? 's' : ''}.`,
  min: (label: string, min: string): string => `${named(label)} doit être supérieur ou égal à ${frenchNumber(min)}.`,
  max: (label: string, max: string): string => `${named(label)} doit être inférieur ou égal à ${frenchNumber(max)}.`,
  pattern: (label: string): string => `${named(label)} n’a pas le format attendu.`,
} as const;

/** A bound as the French pages write it (`0.01` → `0,01`), as the form's messages do (runtime/forms/messages.ts). */
function frenchNumber(text: string): string {
  return text.replace('.', ',');
}

/**
 * The label a field is named by in messages: its `label` when the model carries one, else its name made
 * readable as the generated form does (`date_naissance` → `Date naissance`, `ville_id` → `Ville`).
 */
export function fieldLabel(field: FieldNode): string {
  if ('label' in field && typeof field.label === 'string' && field.label.trim() !== '') return field.label;
  const spaced = field.name.replace(/_id$/, '').replace(/_+/g, ' ').trim();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/** The scale of a DECIMAL(p,s) column read as a decimal string; null for any other column. */
function decimalScale(field: FieldNode): number | null {
  return field.logicalType === 'decimal' && field.sqlType.base === 'DECIMAL' ? (field.sqlType.args[1] ?? 0) : null;
}

const TEXT_TYPES: ReadonlySet<LogicalType> = new Set(['str', 'decimal', 'date', 'datetime', 'time']);

interface Check {
  readonly condition: string;
  readonly message: string;
}

/** Everything the class says about one field, decided before any text is written. */
interface FieldPlan {
  readonly name: string;
  readonly column: string;
  readonly type: string;
  readonly rowType: string;
  readonly initializer: string;
  readonly fromRow: string;
  readonly toRow: string;
  readonly checks: readonly Check[];
}

function scalarType(type: LogicalType): string {
  if (type === 'int' || type === 'float') return 'number';
  if (type === 'bool') return 'boolean';
  if (type === 'bytes') return 'Uint8Array';
  return 'string';
}

function emptyValue(type: LogicalType): string | null {
  if (type === 'bool') return 'false';
  if (type === 'bytes') return 'new Uint8Array(0)';
  if (TEXT_TYPES.has(type)) return "''";
  return null; // a number has no empty value: it stays undefined until validate() reports it
}

function reader(field: FieldNode, helpers: Set<Helper>): string {
  const value = `row[${tsString(field.column)}]`;
  const use = (helper: Helper, call: string): string => {
    helpers.add(helper);
    if (helper === 'toDateText') helpers.add('toText');
    return call;
  };
  switch (field.logicalType) {
    case 'int':
    case 'float':
      return use('toNumber', `toNumber(${value})`);
    case 'bool':
      return use('toBool', `toBool(${value})`);
    case 'bytes':
      return use('toBytes', `toBytes(${value})`);
    case 'decimal': {
      const scale = decimalScale(field);
      return scale === null ? use('toText', `toText(${value})`) : use('toDecimalText', `toDecimalText(${value}, ${scale})`);
    }
    case 'date':
      return use('toDateText', `toDateText(${value}, false)`);
    case 'datetime':
      return fraction(field, use('toDateText', `toDateText(${value}, true)`), helpers);
    case 'time':
      return fraction(field, use('toText', `toText(${value})`), helpers);
    default:
      return use('toText', `toText(${value})`);
  }
}

/** DATETIME(p), TIMESTAMP(p), TIME(p): the text read at the declared precision, the same on both dialects. */
function fraction(field: FieldNode, call: string, helpers: Set<Helper>): string {
  const digits = ['DATETIME', 'TIMESTAMP', 'TIME'].includes(field.sqlType.base) ? (field.sqlType.args[0] ?? 0) : 0;
  if (digits === 0) return call;
  helpers.add('withFraction');
  return `withFraction(${call}, ${digits})`;
}

function checksOf(field: FieldNode, isGeneratedKey: boolean, helpers: Set<Helper>): Check[] {
  if (isGeneratedKey) return [];
  const self = `this.${field.name}`;
  const label = fieldLabel(field);
  const M = VALIDATION_MESSAGES;
  const checks: Check[] = [];
  const add = (helper: Helper, condition: string, message: string): void => {
    helpers.add(helper);
    if (helper === 'notInteger' || helper === 'notNumber' || helper === 'notDecimal') helpers.add('isMissing');
    if (helper === 'belowMin' || helper === 'aboveMax') helpers.add('compareNumber');
    checks.push({ condition, message });
  };
  if (!field.nullable) add('isMissing', `isMissing(${self})`, M.required(label));
  if (field.logicalType === 'int') {
    add('notInteger', `notInteger(${self})`, M.integer(label));
    if (field.sqlType.unsigned) add('isNegative', `isNegative(${self})`, M.unsigned(label));
  }
  if (field.logicalType === 'float') {
    add('notNumber', `notNumber(${self})`, M.number(label));
    if (field.sqlType.unsigned) add('isNegative', `isNegative(${self})`, M.unsigned(label));
  }
  const scale = decimalScale(field);
  if (scale !== null) {
    add('notDecimal', `notDecimal(${self})`, M.decimal(label));
    add('tooManyDecimals', `tooManyDecimals(${self}, ${scale})`, M.decimalPlaces(label, scale));
    if (field.sqlType.unsigned) add('isNegative', `isNegative(${self})`, M.unsigned(label));
  }
  if (field.notEmpty && TEXT_TYPES.has(field.logicalType)) add('isBlank', `isBlank(${self})`, M.notEmpty(label));
  if (field.maxLength !== null && field.logicalType === 'str') add('tooLong', `tooLong(${self}, ${field.maxLength})`, M.maxLength(label, field.maxLength));
  constraintChecks(field, self, label, add);
  return checks;
}

/** The field's `constraints` (docs/entities.md "Constraints"), with the form's messages: API and JSON writes meet the same rules. */
function constraintChecks(field: FieldNode, self: string, label: string, add: (helper: Helper, condition: string, message: string) => void): void {
  const c = field.constraints;
  if (!c) return;
  const M = VALIDATION_MESSAGES;
  if (c.minLength !== undefined) add('tooShort', `tooShort(${self}, ${c.minLength})`, M.minLength(label, c.minLength));
  if (c.pattern !== undefined) {
    // Anchored as the form's regex is (emitters/crud/field-declaration.ts).
    add('noMatch', `noMatch(${self}, new RegExp(${tsString(`^(?:${c.pattern})$`)}, 'u'))`, c.patternMessage ?? M.pattern(label));
  }
  if (c.min !== undefined) add('belowMin', `belowMin(${self}, ${tsString(c.min)})`, M.min(label, c.min));
  if (c.max !== undefined) add('aboveMax', `aboveMax(${self}, ${tsString(c.max)})`, M.max(label, c.max));
}

/**
 * What the constructor sets when `data` lacks the field: the field's `default` (as the column's DEFAULT and the
 * create form do, so that a JSON write without it is saved with it), else null, the type's empty value, or undefined
 * for a number (validate() reports it).
 */
function initializer(field: FieldNode, data: string, nullable: boolean, empty: string | null, scalar: string): string {
  const value = field.constraints?.default;
  if (value !== undefined && !(field.primaryKey && field.autoIncrement)) {
    const literal = typeof value === 'string' ? tsString(value) : String(value);
    // A nullable field keeps an explicit null: only an absent value takes the default.
    return nullable ? `${data} === undefined ? ${literal} : ${data}` : `${data} ?? ${literal}`;
  }
  return nullable ? `${data} ?? null` : empty !== null ? `${data} ?? ${empty}` : `${data} as ${scalar}`;
}

function planField(entity: EntityNode, field: FieldNode, helpers: Set<Helper>): FieldPlan {
  // The compiler refuses these names with a diagnostic; this guards models built by hand.
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(field.name) || classMemberConflict(field.name) !== undefined) {
    throw new EmitError(`entité « ${entity.name} » : le champ « ${field.name} » ne peut pas devenir une propriété de la classe ${entity.name}Base.`);
  }
  const isGeneratedKey = field.primaryKey && field.autoIncrement;
  const nullable = field.nullable || isGeneratedKey;
  const scalar = scalarType(field.logicalType);
  const type = nullable ? `${scalar} | null` : scalar;
  const rowScalar = field.logicalType === 'bool' ? 'number' : scalar;
  const data = `data.${field.name}`;
  const empty = emptyValue(field.logicalType);
  const self = `this.${field.name}`;
  let toRow = self;
  if (field.logicalType === 'bool') toRow = nullable ? `${self} === null ? null : ${self} ? 1 : 0` : `${self} ? 1 : 0`;
  const scale = decimalScale(field);
  if (scale !== null) {
    // The declared scale on both dialects: SQLite keeps the text as written (a TEXT column).
    helpers.add('toDecimalText');
    toRow = nullable ? `toDecimalText(${self}, ${scale}) ?? null` : `toDecimalText(${self}, ${scale}) ?? ${self}`;
  }
  return {
    name: field.name,
    column: field.column,
    type,
    rowType: nullable ? `${rowScalar} | null` : rowScalar,
    initializer: initializer(field, data, nullable, empty, scalar),
    // A NULL read for a NOT NULL field (or an absent column) falls back to the constructor's default.
    fromRow: nullable ? reader(field, helpers) : `${reader(field, helpers)} ?? undefined`,
    toRow,
    checks: checksOf(field, isGeneratedKey, helpers),
  };
}

function jsdoc(text: string): string[] {
  return text.trim() === '' ? [] : [`/** ${commentText(text).replace(/\*\//g, '*\\/')} */`];
}

function validationLines(plan: FieldPlan): string[] {
  return plan.checks.map((check, i) => `    ${i === 0 ? 'if' : 'else if'} (${check.condition}) errors[${tsString(plan.name)}] = ${tsString(check.message)};`);
}

/** The text of `<snake>_base.ts` for one entity. */
export function emitBaseClass(_model: ModelNode, entity: EntityNode): string {
  const helpers = new Set<Helper>();
  const plans = entity.fields.map((field) => planField(entity, field, helpers));
  const base = `${entity.name}Base`;
  const dataType = `${entity.name}Data`;
  const rowType = `${entity.name}Row`;
  return fileText([
    tsMarkerLine(syncEntityCommand(entity.name)),
    `// Entity ${commentText(entity.name)} (${commentText(entity.file)}), table ${commentText(entity.table)}.`,
    `// Business code goes in ${entity.snake}.ts (class ${entity.name} extends ${base}), which is never overwritten.`,
    '',
    `/** Field values of ${entity.name}, by field name. */`,
    `export interface ${dataType} {`,
    ...plans.map((p) => `  ${p.name}: ${p.type};`),
    '}',
    '',
    `/** A row of table ${commentText(entity.table)}, by SQL column (booleans as 0 / 1). */`,
    `export interface ${rowType} {`,
    ...plans.map((p) => `  ${p.column}: ${p.rowType};`),
    '}',
    '',
    ...jsdoc(entity.description),
    `export class ${base} {`,
    `  static readonly entity = ${tsString(entity.name)};`,
    `  static readonly table = ${tsString(entity.table)};`,
    `  static readonly primaryKey = ${tsString(entity.primaryKey.name)};`,
    '  /** Field name -> SQL column. */',
    '  static readonly columns = {',
    ...plans.map((p) => `    ${p.name}: ${tsString(p.column)},`),
    '  } as const;',
    '',
    ...plans.map((p) => `  ${p.name}: ${p.type};`),
    '',
    "  /** A missing value is null (nullable fields), false, '' or an empty byte array; a missing number stays undefined until validate() reports it. */",
    `  constructor(data: Partial<${dataType}> = {}) {`,
    ...plans.map((p) => `    this.${p.name} = ${p.initializer};`),
    '  }',
    '',
    '  /** An instance of the class it is called on (`Contact.fromRow(row)` is a `Contact`) from a database row. */',
    `  static fromRow<T extends ${base}>(this: new (data?: Partial<${dataType}>) => T, row: Record<string, unknown>): T {`,
    `    const data: { [K in keyof ${dataType}]?: ${dataType}[K] | undefined } = {`,
    ...plans.map((p) => `      ${p.name}: ${p.fromRow},`),
    '    };',
    '    // The constructor reads undefined as absent (the cast only matters under exactOptionalPropertyTypes).',
    `    return new this(data as Partial<${dataType}>);`,
    '  }',
    '',
    '  /** The values by SQL column, ready to bind. */',
    `  toRow(): ${rowType} {`,
    '    return {',
    ...plans.map((p) => `      ${p.column}: ${p.toRow},`),
    '    };',
    '  }',
    '',
    '  /** French messages by field name, one per invalid field; empty when the values can be saved. */',
    '  validate(): Record<string, string> {',
    '    const errors: Record<string, string> = {};',
    ...plans.flatMap(validationLines),
    '    return errors;',
    '  }',
    '',
    '  isValid(): boolean {',
    '    return Object.keys(this.validate()).length === 0;',
    '  }',
    '}',
    ...HELPER_ORDER.filter((h) => helpers.has(h)).flatMap((h) => ['', ...HELPER_SOURCE[h]]),
  ]);
}
