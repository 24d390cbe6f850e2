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

function intBounds(field: FieldNode): string[] {
  if (field.sqlType.base === 'YEAR') return YEAR_BOUNDS;
  const bounds = INT_BOUNDS[field.sqlType.base];
  if (field.sqlType.unsigned) return bounds ? ['min: 0', `max: ${(bounds[1] - bounds[0]).toString()}`] : ['min: 0'];
  return bounds ? [`min: ${bounds[0].toString()}`, `max: ${bounds[1].toString()}`] : [];
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
  const maxLength = field.maxLength !== null ? [`maxLength: ${field.maxLength}`] : [];
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
      if (field.sqlType.unsigned) options.push("min: '0'");
      break;
    case 'float':
      // FLOAT, DOUBLE, REAL: a JS number, as the base class holds it.
      className = 'FloatField';
      if (field.sqlType.args.length === 2) options.push(`maxDigits: ${field.sqlType.args[0]}`, `decimalPlaces: ${field.sqlType.args[1]}`);
      if (field.sqlType.unsigned) options.push('min: 0');
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
      className = 'EmailField';
      options.push(...maxLength);
      break;
    case 'url':
      className = 'UrlField';
      options.push(...maxLength);
      break;
    case 'tel':
      className = 'StringField';
      options.push("inputType: 'tel'", ...lengths);
      break;
    default:
      className = 'StringField';
      options.push(...lengths);
  }
  return { className, code: `new ${className}({ ${options.join(', ')} })` };
}
