/**
 * The value constraints of a field (docs/entities.md "Constraints"): `constraints.min` / `max` (numbers),
 * `constraints.min_length` and `constraints.pattern` (texts), and the field's `default`. Each must fit the field's
 * type and the other constraints, so that the form, the SQL CHECK and the DEFAULT never contradict one another:
 * what is refused here names the field and the way out. Called by field-check.ts once the SQL type is known.
 */
import { pointerTo, type DiagnosticList } from './diagnostics.js';
import type { FieldConstraints, LogicalType, SqlTypeNode } from './ir.js';
import { isTextual } from './sql-types.js';

type Json = Record<string, unknown>;

/** What the checks need of the field. */
export interface ConstraintContext {
  readonly name: string;
  /** `champ`, `clé primaire`, `champ pivot`. */
  readonly label: string;
  readonly sqlType: SqlTypeNode;
  readonly logicalType: LogicalType;
  readonly primaryKey: boolean;
  readonly autoIncrement: boolean;
  /** The length the form allows: `constraints.max_length`, else the column's. */
  readonly maxLength: number | null;
}

const DECIMAL_TEXT = /^-?\d+(?:\.\d+)?$/;
const DATE_TEXT = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_TEXT = /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/;

/** `^(?:…)$` with the `u` flag, as the form and an HTML `pattern` read it; null when it does not compile. */
export function anchoredPattern(pattern: string): RegExp | null {
  try {
    return new RegExp(`^(?:${pattern})$`, 'u');
  } catch {
    return null;
  }
}

function validDate(text: string): boolean {
  const m = DATE_TEXT.exec(text);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** The number a bound or a default holds, as exact text (`3.50` stays `3.50`): a JSON number, or a decimal string for DECIMAL. */
function numberText(value: unknown, logicalType: LogicalType): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (logicalType === 'decimal' && typeof value === 'string' && DECIMAL_TEXT.test(value)) return value;
  return null;
}

/** Compares two numbers written as text (bounds and defaults, within the double range the checks allow). */
export function compareNumberText(a: string, b: string): number {
  const x = Number(a);
  const y = Number(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

const NUMERIC: ReadonlySet<LogicalType> = new Set(['int', 'decimal', 'float']);

/** The digits before and after the point a DECIMAL(p,s) holds; null for other types. */
function decimalShape(t: SqlTypeNode): { whole: number; scale: number } | null {
  if (t.base !== 'DECIMAL') return null;
  const precision = t.args[0] ?? 10;
  const scale = t.args[1] ?? 0;
  return { whole: precision - scale, scale };
}

function fitsDecimal(text: string, t: SqlTypeNode): boolean {
  const shape = decimalShape(t);
  if (!shape) return true;
  const [whole = '', fraction = ''] = text.replace(/^-/, '').split('.');
  return whole.replace(/^0+(?=\d)/, '').length <= Math.max(shape.whole, 1) && fraction.replace(/0+$/, '').length <= shape.scale;
}

/** Reads and checks the constraints of one field; the values that passed, for the IR. */
export function checkConstraints(raw: Json, field: ConstraintContext, file: string, pointer: string, diags: DiagnosticList): FieldConstraints {
  const at = (...keys: Array<string | number>): string => pointerTo(pointer, ...keys);
  const { name, label, sqlType, logicalType } = field;
  const who = `${label} « ${name} »`;
  const constraints = (typeof raw.constraints === 'object' && raw.constraints !== null ? raw.constraints : {}) as Json;
  const out: { min?: string; max?: string; minLength?: number; pattern?: string; patternMessage?: string; default?: string | number | boolean } = {};
  const numeric = NUMERIC.has(logicalType) && !(sqlType.base === 'TINYINT' && sqlType.args[0] === 1);

  for (const key of ['min', 'max'] as const) {
    if (constraints[key] === undefined) continue;
    if (!numeric) {
      diags.add(
        file,
        at('constraints', key),
        'constraint',
        `${who} : « ${key} » ne s'applique qu'aux nombres (INT, DECIMAL, FLOAT…), pas à ${sqlType.text} ; retirez-le${isTextual(sqlType) ? ` (pour une longueur, écrivez « ${key === 'min' ? 'min_length' : 'max_length'} »)` : ''}`,
      );
      continue;
    }
    const text = numberText(constraints[key], logicalType);
    if (text === null || (logicalType === 'int' && !Number.isSafeInteger(Number(text)))) {
      diags.add(
        file,
        at('constraints', key),
        'constraint',
        `${who} : « ${key} » doit être un nombre${logicalType === 'int' ? ' entier' : ''} (par exemple 0) ; corrigez la valeur`,
      );
      continue;
    }
    if (sqlType.unsigned && Number(text) < 0) {
      diags.add(
        file,
        at('constraints', key),
        'constraint',
        `${who} : « ${key} » vaut ${text}, mais ${sqlType.text} n'a pas de valeur négative ; mettez 0 ou plus, ou retirez UNSIGNED`,
      );
      continue;
    }
    if (!fitsDecimal(text, sqlType)) {
      diags.add(
        file,
        at('constraints', key),
        'constraint',
        `${who} : « ${key} » vaut ${text}, que ${sqlType.text} ne peut pas contenir ; corrigez la valeur ou agrandissez le type`,
      );
      continue;
    }
    out[key] = text;
  }
  if (out.min !== undefined && out.max !== undefined && compareNumberText(out.min, out.max) > 0) {
    diags.add(
      file,
      at('constraints', 'min'),
      'constraint',
      `${who} : « min » (${out.min}) dépasse « max » (${out.max}) ; aucune valeur ne passerait : échangez-les ou corrigez l'un des deux`,
    );
    delete out.min;
  }

  const minLength = constraints.min_length;
  if (typeof minLength === 'number') {
    if (!isTextual(sqlType)) {
      diags.add(
        file,
        at('constraints', 'min_length'),
        'constraint',
        `${who} : « min_length » ne s'applique qu'aux textes (VARCHAR, CHAR, TEXT), pas à ${sqlType.text} ; retirez-le${numeric ? ' (pour un nombre, écrivez « min »)' : ''}`,
      );
    } else if (field.maxLength !== null && minLength > field.maxLength) {
      diags.add(
        file,
        at('constraints', 'min_length'),
        'constraint',
        `${who} : « min_length » (${minLength}) dépasse la longueur permise (${field.maxLength}) ; mettez au plus ${field.maxLength} ou agrandissez le type`,
      );
    } else out.minLength = minLength;
  }

  const pattern = constraints.pattern;
  if (typeof pattern === 'string') {
    const where = at('constraints', 'pattern');
    if (!isTextual(sqlType) || !['VARCHAR', 'CHAR'].includes(sqlType.base)) {
      diags.add(file, where, 'constraint', `${who} : « pattern » ne s'applique qu'aux champs VARCHAR ou CHAR, pas à ${sqlType.text} ; retirez-le`);
    } else if (anchoredPattern(pattern) === null) {
      let reason = '';
      try {
        new RegExp(pattern, 'u');
      } catch (error) {
        reason = ` (${(error as Error).message.replace(/^Invalid regular expression: /, '')})`;
      }
      diags.add(
        file,
        where,
        'constraint',
        `${who} : « pattern » n'est pas une expression régulière valide${reason} ; corrigez-la (par exemple « [A-Z]{2}[0-9]{3} »)`,
      );
    } else {
      out.pattern = pattern;
      if (typeof constraints.pattern_message === 'string') out.patternMessage = constraints.pattern_message;
    }
  } else if (typeof constraints.pattern_message === 'string') {
    diags.add(
      file,
      at('constraints', 'pattern_message'),
      'constraint',
      `${who} : « pattern_message » sans « pattern » ne sert à rien ; ajoutez « pattern » ou retirez-le`,
    );
  }

  if (raw.default !== undefined) {
    const value = checkDefault(raw.default, field, out, (message) => diags.add(file, at('default'), 'default', `${who} : ${message}`));
    if (value !== undefined) out.default = value;
  }
  return out;
}

/** The field's default when it fits its type and constraints; undefined after reporting why not. */
function checkDefault(
  value: unknown,
  field: ConstraintContext,
  bounds: { min?: string; max?: string; minLength?: number; pattern?: string },
  report: (message: string) => void,
): string | number | boolean | undefined {
  const { sqlType, logicalType } = field;
  if (field.primaryKey || field.autoIncrement) {
    report(`une clé primaire n'a pas de valeur par défaut (la base ou le formulaire la donne) ; retirez « default »`);
    return undefined;
  }
  const shown = JSON.stringify(value);
  switch (logicalType) {
    case 'bool':
      if (typeof value !== 'boolean') {
        report(`« default » vaut ${shown}, mais le champ est un booléen ; écrivez true ou false`);
        return undefined;
      }
      return value;
    case 'int':
    case 'decimal':
    case 'float': {
      if (sqlType.base === 'TINYINT' && sqlType.args[0] === 1) break;
      const text = numberText(value, logicalType);
      if (text === null || (logicalType === 'int' && !Number.isSafeInteger(Number(text)))) {
        report(
          `« default » vaut ${shown}, mais le champ est un nombre${logicalType === 'int' ? ' entier' : ''} (${sqlType.text}) ; écrivez un nombre sans guillemets, par exemple 0`,
        );
        return undefined;
      }
      if ((sqlType.unsigned && Number(text) < 0) || !fitsDecimal(text, sqlType)) {
        report(`« default » vaut ${text}, que ${sqlType.text} ne peut pas contenir ; corrigez la valeur`);
        return undefined;
      }
      if (bounds.min !== undefined && compareNumberText(text, bounds.min) < 0) {
        report(`« default » (${text}) est plus petit que « min » (${bounds.min}) ; le formulaire le refuserait : corrigez l'un des deux`);
        return undefined;
      }
      if (bounds.max !== undefined && compareNumberText(text, bounds.max) > 0) {
        report(`« default » (${text}) est plus grand que « max » (${bounds.max}) ; le formulaire le refuserait : corrigez l'un des deux`);
        return undefined;
      }
      return logicalType === 'decimal' ? text : Number(text);
    }
    case 'date':
    case 'time': {
      const ok = typeof value === 'string' && (logicalType === 'date' ? validDate(value) : TIME_TEXT.test(value));
      if (!ok) {
        report(
          `« default » vaut ${shown}, qui n'est pas ${logicalType === 'date' ? 'une date AAAA-MM-JJ (par exemple "2025-01-31")' : 'une heure HH:MM:SS (par exemple "09:30:00")'} ; corrigez la valeur`,
        );
        return undefined;
      }
      return value;
    }
    case 'str': {
      if (!isTextual(sqlType)) break;
      if (typeof value !== 'string') {
        report(`« default » vaut ${shown}, mais le champ est un texte (${sqlType.text}) ; écrivez la valeur entre guillemets`);
        return undefined;
      }
      if (/[\u0000-\u001f\u007f\\]/.test(value)) {
        report(
          `« default » contient un caractère de contrôle ou une barre oblique inverse (\\), que le SQL des deux bases n'écrit pas de la même façon ; retirez-le`,
        );
        return undefined;
      }
      const length = [...value].length;
      if (field.maxLength !== null && length > field.maxLength) {
        report(`« default » a ${length} caractères, plus que la longueur permise (${field.maxLength}) ; raccourcissez-le`);
        return undefined;
      }
      if (bounds.minLength !== undefined && length < bounds.minLength) {
        report(`« default » a ${length} caractères, moins que « min_length » (${bounds.minLength}) ; le formulaire le refuserait : corrigez l'un des deux`);
        return undefined;
      }
      if (bounds.pattern !== undefined && !anchoredPattern(bounds.pattern)!.test(value)) {
        report(`« default » (${shown}) ne suit pas « pattern » (${bounds.pattern}) ; le formulaire le refuserait : corrigez l'un des deux`);
        return undefined;
      }
      return value;
    }
    default:
      break;
  }
  report(`pas de valeur par défaut pour le type ${sqlType.text} (seulement texte, nombre, booléen, DATE et TIME) ; retirez « default »`);
  return undefined;
}
