/**
 * The declaration of one form field (`new StringField({ … })`) from the entity's field: shared by the CRUD form
 * (form.ts), the pivot inputs of a many-to-many link (pivot.ts) and the public form (emitters/public/).
 */
import type { FieldNode } from '../../compiler/ir.js';
import { tsString } from '../text.js';
import type { CrudField } from './plan.js';

/** Bounds of the integer types (signed, unsigned); BIGINT is bounded by the form's safe-integer check. */
const INT_BOUNDS: Readonly<Record<string, readonly [bigint, bigint]>> = {
  TINYINT: [-128n, 127n],
  SMALLINT: [-32768n, 32767n],
  MEDIUMINT: [-8388608n, 8388607n],
  INT: [-2147483648n, 2147483647n],
  INTEGER: [-2147483648n, 2147483647n],
};

/** The bytes a TEXT column holds on MariaDB (its UTF-8 bytes, not characters); SQLite has no bound but the same rule applies. */
const TEXT_BYTES: Readonly<Record<string, number>> = { TINYTEXT: 255, TEXT: 65_535, MEDIUMTEXT: 16_777_215 };

/** YEAR holds 1901 to 2155 (and 0000), signed or not. */
const YEAR_BOUNDS = ['min: 1901', 'max: 2155'];

function typeBounds(field: FieldNode): string[] {
  if (field.sqlType.base === 'YEAR') return YEAR_BOUNDS;
  const bounds = INT_BOUNDS[field.sqlType.base];
  if (field.sqlType.unsigned) return bounds ? ['min: 0', `max: ${(bounds[1] - bounds[0]).toString()}`] : ['min: 0'];
  return bounds ? [`min: ${bounds[0].toString()}`, `max: ${bounds[1].toString()}`] : [];
}

/** The type's bounds, narrowed by the field's `min` / `max` (docs/entities.md "Constraints"). */
function intBounds(field: FieldNode): string[] {
  const c = field.constraints;
  const type = typeBounds(field);
  const min = c?.min !== undefined ? `min: ${c.min}` : type.find((b) => b.startsWith('min:'));
  const max = c?.max !== undefined ? `max: ${c.max}` : type.find((b) => b.startsWith('max:'));
  return [min, max].filter((b): b is string => b !== undefined);
}

/** A number field's `min` / `max` from the constraints, as the field class takes them (a DecimalField's as text); `unsignedMin` when UNSIGNED says 0. */
function numberBounds(field: FieldNode, quoted: boolean, unsignedMin: string): string[] {
  const c = field.constraints;
  const text = (value: string): string => (quoted ? `'${value}'` : value);
  const min = c?.min !== undefined ? [`min: ${text(c.min)}`] : field.sqlType.unsigned ? [unsignedMin] : [];
  return [...min, ...(c?.max !== undefined ? [`max: ${text(c.max)}`] : [])];
}

/** `minLength`, `regex` and its message from the constraints of a text field. */
function textConstraints(field: FieldNode): string[] {
  const c = field.constraints;
  if (!c) return [];
  return [
    ...(c.minLength !== undefined ? [`minLength: ${c.minLength}`] : []),
    // Anchored as an HTML `pattern` is: the whole value matches (compiler/constraint-check.ts checked it compiles).
    ...(c.pattern !== undefined ? [`regex: new RegExp(${tsString(`^(?:${c.pattern})$`)}, 'u')`] : []),
    ...(c.patternMessage !== undefined ? [`regexMessage: ${tsString(c.patternMessage)}`] : []),
  ];
}

/** The create form's initial value: the field's `default`. */
function initialOption(field: FieldNode): string[] {
  const value = field.constraints?.default;
  if (value === undefined) return [];
  return [`initial: ${typeof value === 'string' ? tsString(value) : String(value)}`];
}

/**
 * The field's declaration: `new StringField({ label: 'Nom', maxLength: 100 })`; `extra` options go after the label
 * (the public form's `inputType: 'number'`, docs/generators.md).
 */
export function declaration(f: CrudField, extra: readonly string[] = []): { className: string; code: string } {
  const field = f.field;
  const options = [`label: ${tsString(f.label)}`, ...extra];
  // A checkbox is never required: unchecked means false.
  if (field.nullable && f.input !== 'bool') options.push('required: false');
  options.push(...initialOption(field));
  const maxLength = [
    ...textConstraints(field).filter((o) => o.startsWith('minLength')),
    ...(field.maxLength !== null ? [`maxLength: ${field.maxLength}`] : []),
  ];
  const regex = textConstraints(field).filter((o) => !o.startsWith('minLength'));
  // Text and textarea fields also get the column's byte bound (e-mail and URL fields are far shorter by themselves).
  const bytes = TEXT_BYTES[field.sqlType.base];
  const lengths = [...maxLength, ...(bytes !== undefined ? [`maxBytes: ${bytes}`] : [])];
  let className: string;
  switch (f.input) {
    case 'relation':
      className = 'RelationField';
      // An integer key cleans to a number, as the base class holds it.
      if (f.relation?.targetKey.logicalType === 'int') options.push('integer: true');
      break;
    case 'bool':
      className = 'BooleanField';
      break;
    case 'int':
      className = 'IntegerField';
      options.push(...intBounds(field));
      break;
    case 'decimal':
      className = 'DecimalField';
      if (field.sqlType.base === 'DECIMAL' && field.sqlType.args.length > 0) {
        options.push(`maxDigits: ${field.sqlType.args[0]}`, `decimalPlaces: ${field.sqlType.args[1] ?? 0}`);
      }
      options.push(...numberBounds(field, true, "min: '0'"));
      break;
    case 'float':
      // FLOAT, DOUBLE, REAL: a JS number, as the base class holds it.
      className = 'FloatField';
      if (field.sqlType.args.length === 2) options.push(`maxDigits: ${field.sqlType.args[0]}`, `decimalPlaces: ${field.sqlType.args[1]}`);
      options.push(...numberBounds(field, false, 'min: 0'));
      break;
    case 'date':
      className = 'DateField';
      break;
    case 'datetime':
      className = 'DateTimeField';
      break;
    case 'time':
      className = 'TimeField';
      break;
    case 'textarea':
      className = 'TextAreaField';
      options.push(...lengths);
      break;
    case 'email':
    case 'url':
      // A pattern replaces the e-mail or URL check: the field is then a text of that input type.
      if (regex.length) {
        className = 'StringField';
        options.push(`inputType: '${f.input}'`, ...lengths, ...regex);
      } else {
        className = f.input === 'email' ? 'EmailField' : 'UrlField';
        options.push(...maxLength);
      }
      break;
    case 'tel':
      className = 'StringField';
      options.push("inputType: 'tel'", ...lengths, ...regex);
      break;
    default:
      className = 'StringField';
      options.push(...lengths, ...regex);
  }
  return { className, code: `new ${className}({ ${options.join(', ')} })` };
}
