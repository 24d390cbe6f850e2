/**
 * Number fields: IntegerField and FloatField (cleaned to a number), DecimalField (cleaned to an exact decimal
 * string).
 */
import { FormDefinitionError, FormValidationError } from './errors.js';
import { checkCount, checkOrder, TextInputField, type FieldOptions, type HtmlAttrs } from './field.js';
import { messages } from './messages.js';

export interface IntegerFieldOptions<R extends boolean = boolean> extends FieldOptions<R> {
  min?: number;
  max?: number;
}

const INTEGER = /^[+-]?\d+$/;

/**
 * An integer written in decimal digits (an optional sign, nothing else): `1.5`, `1e3`, `0x10`, `1 000` are
 * refused; a value beyond ±(2^53 − 1) is refused rather than rounded. Cleaned to a number.
 */
export class IntegerField<R extends boolean = true> extends TextInputField<number, R> {
  readonly min: number | undefined;
  readonly max: number | undefined;

  constructor(options: IntegerFieldOptions<R> = {}) {
    super(options, 'number');
    for (const [name, value] of [
      ['min', options.min],
      ['max', options.max],
    ] as const) {
      if (value !== undefined && !Number.isSafeInteger(value)) throw new FormDefinitionError(`Option ${name} invalide : ${String(value)} (entier attendu).`);
    }
    checkOrder('min/max', options.min, options.max);
    this.min = options.min;
    this.max = options.max;
  }

  protected convert(text: string, label: string): number {
    if (!INTEGER.test(text)) throw new FormValidationError(messages.integer(label));
    const value = Number(text) + 0; // `+ 0` turns -0 into 0
    if (!Number.isSafeInteger(value)) throw new FormValidationError(messages.tooLarge(label));
    if (this.min !== undefined && value < this.min) throw new FormValidationError(messages.min(label, this.min));
    if (this.max !== undefined && value > this.max) throw new FormValidationError(messages.max(label, this.max));
    return value;
  }

  override attrs(): HtmlAttrs {
    const attrs: HtmlAttrs = { step: 1 };
    if (this.min !== undefined) attrs.min = this.min;
    if (this.max !== undefined) attrs.max = this.max;
    return attrs;
  }
}

export interface DecimalFieldOptions<R extends boolean = boolean> extends FieldOptions<R> {
  /** Total number of digits, as in DECIMAL(M, D): M. */
  maxDigits?: number;
  /** Digits after the point, as in DECIMAL(M, D): D. The cleaned value is padded to this many. */
  decimalPlaces?: number;
  /** Bounds, preferably as strings (`'0.01'`) so that they are exact. */
  min?: string | number;
  max?: string | number;
}

/** A parsed decimal: sign, whole digits without leading zeros (`'0'` at least), fraction digits as written. */
interface Decimal {
  readonly negative: boolean;
  readonly whole: string;
  readonly fraction: string;
}

const DECIMAL = /^([+-]?)(?:(\d+)(?:[.,](\d*))?|[.,](\d+))$/;

/** Parses `12.50`, `-3`, `0,5`, `.5`, `5.` (point or comma); exponents, spaces and hex are refused. */
export function parseDecimal(text: string): Decimal | null {
  const m = DECIMAL.exec(text);
  if (!m) return null;
  const whole = (m[2] ?? '0').replace(/^0+(?=\d)/, '');
  const fraction = m[3] ?? m[4] ?? '';
  const isZero = whole === '0' && /^0*$/.test(fraction);
  return { negative: m[1] === '-' && !isZero, whole, fraction };
}

/** Compares two decimals exactly (BigInt on a common scale): −1, 0 or 1. */
export function compareDecimal(a: Decimal, b: Decimal): number {
  const scale = Math.max(a.fraction.length, b.fraction.length);
  const scaled = (d: Decimal): bigint => BigInt(d.whole + d.fraction.padEnd(scale, '0')) * (d.negative ? -1n : 1n);
  const x = scaled(a);
  const y = scaled(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The options M and D of DECIMAL(M, D) or DOUBLE(M, D): counts (M positive), D not above M. */
function checkPrecisionOptions(maxDigits: number | undefined, decimalPlaces: number | undefined): void {
  checkCount('maxDigits', maxDigits, true);
  checkCount('decimalPlaces', decimalPlaces);
  if (maxDigits !== undefined && decimalPlaces !== undefined && decimalPlaces > maxDigits) {
    throw new FormDefinitionError(`Options incohérentes : decimalPlaces (${decimalPlaces}) dépasse maxDigits (${maxDigits}).`);
  }
}

/**
 * The DECIMAL(M, D) rules on an exact value: at most D significant decimals, at most M − D digits before the
 * point and M significant digits in all. Returns the significant decimals (trailing zeros dropped).
 */
function checkPrecision(value: Decimal, label: string, maxDigits: number | undefined, places: number | undefined): string {
  const significant = value.fraction.replace(/0+$/, '');
  if (places !== undefined && significant.length > places) throw new FormValidationError(messages.decimalPlaces(label, places));
  if (maxDigits === undefined) return significant;
  const wholeDigits = value.whole === '0' ? 0 : value.whole.length;
  if (places !== undefined && wholeDigits > maxDigits - places) throw new FormValidationError(messages.wholeDigits(label, maxDigits - places));
  if (wholeDigits + significant.length > maxDigits) throw new FormValidationError(messages.maxDigits(label, maxDigits));
  return significant;
}

/** `-1.5e3` → the decimal -1500 (digits shifted as text, never through a float). */
function expandExponent(text: string): Decimal | null {
  const m = /^([+-]?[\d.,]*)(?:[eE]([+-]?\d+))?$/.exec(text);
  const parsed = m ? parseDecimal(m[1]!) : null;
  if (!m || !parsed) return null;
  const shift = Number(m[2] ?? '0');
  const digits = parsed.whole + parsed.fraction;
  const point = parsed.whole.length + shift;
  const padded = point < 0 ? '0'.repeat(-point) + digits : digits.padEnd(point, '0');
  const at = Math.max(point, 0);
  return { negative: parsed.negative, whole: padded.slice(0, at).replace(/^0+(?=\d)/, '') || '0', fraction: padded.slice(at) };
}

function formatDecimal(d: Decimal): string {
  return `${d.negative ? '-' : ''}${d.whole}${d.fraction ? `.${d.fraction}` : ''}`;
}

function boundOption(name: string, value: string | number | undefined): Decimal | undefined {
  if (value === undefined) return undefined;
  const parsed = typeof value === 'number' && !Number.isFinite(value) ? null : parseDecimal(String(value));
  if (!parsed) throw new FormDefinitionError(`Option ${name} invalide : ${String(value)} (nombre décimal attendu, par exemple '0.01').`);
  return parsed;
}

/**
 * A decimal number kept exact: never converted to a float. Accepts a point or a comma; cleaned to a string
 * with a point, no leading zeros, and exactly `decimalPlaces` decimals when set (`12,5` → `'12.50'`).
 * Trailing zeros beyond `decimalPlaces` are accepted (`1.500` is 1.50); other extra decimals are refused.
 */
export class DecimalField<R extends boolean = true> extends TextInputField<string, R> {
  readonly maxDigits: number | undefined;
  readonly decimalPlaces: number | undefined;
  readonly min: string | undefined;
  readonly max: string | undefined;
  private readonly minValue: Decimal | undefined;
  private readonly maxValue: Decimal | undefined;

  constructor(options: DecimalFieldOptions<R> = {}) {
    super(options, 'text');
    checkPrecisionOptions(options.maxDigits, options.decimalPlaces);
    this.maxDigits = options.maxDigits;
    this.decimalPlaces = options.decimalPlaces;
    this.minValue = boundOption('min', options.min);
    this.maxValue = boundOption('max', options.max);
    if (this.minValue && this.maxValue && compareDecimal(this.minValue, this.maxValue) > 0) {
      throw new FormDefinitionError(`Options min/max incohérentes : le minimum (${options.min}) dépasse le maximum (${options.max}).`);
    }
    this.min = this.minValue && formatDecimal(this.minValue);
    this.max = this.maxValue && formatDecimal(this.maxValue);
  }

  protected convert(text: string, label: string): string {
    const parsed = parseDecimal(text);
    if (!parsed) throw new FormValidationError(messages.decimal(label));
    const places = this.decimalPlaces;
    const significant = checkPrecision(parsed, label, this.maxDigits, places);
    const value: Decimal = { ...parsed, fraction: places === undefined ? parsed.fraction : significant.padEnd(places, '0') };
    if (this.minValue && compareDecimal(value, this.minValue) < 0) throw new FormValidationError(messages.min(label, this.min!));
    if (this.maxValue && compareDecimal(value, this.maxValue) > 0) throw new FormValidationError(messages.max(label, this.max!));
    return formatDecimal(value);
  }

  override attrs(): HtmlAttrs {
    return { inputmode: 'decimal' };
  }
}

export interface FloatFieldOptions<R extends boolean = boolean> extends FieldOptions<R> {
  min?: number;
  max?: number;
  /** DOUBLE(M, D) / FLOAT(M, D): M, the total number of digits. */
  maxDigits?: number;
  /** DOUBLE(M, D) / FLOAT(M, D): D. More significant decimals are refused (the server would round them). */
  decimalPlaces?: number;
}

const FLOAT = /^[+-]?(?:\d+(?:[.,]\d*)?|[.,]\d+)(?:[eE][+-]?\d+)?$/;

/**
 * A floating-point number (FLOAT, DOUBLE, REAL columns): digits with a point or a comma, an optional exponent
 * (`0.25`, `-1e3`, `0,5`, `.5`). `NaN`, `Infinity`, hex, spaces and values beyond the double range are refused.
 * Cleaned to a finite JS number (`-0` → 0).
 */
export class FloatField<R extends boolean = true> extends TextInputField<number, R> {
  readonly min: number | undefined;
  readonly max: number | undefined;
  readonly maxDigits: number | undefined;
  readonly decimalPlaces: number | undefined;

  constructor(options: FloatFieldOptions<R> = {}) {
    super(options, 'text');
    checkPrecisionOptions(options.maxDigits, options.decimalPlaces);
    this.maxDigits = options.maxDigits;
    this.decimalPlaces = options.decimalPlaces;
    for (const [name, value] of [
      ['min', options.min],
      ['max', options.max],
    ] as const) {
      if (value !== undefined && !Number.isFinite(value)) throw new FormDefinitionError(`Option ${name} invalide : ${String(value)} (nombre fini attendu).`);
    }
    checkOrder('min/max', options.min, options.max);
    this.min = options.min;
    this.max = options.max;
  }

  protected convert(text: string, label: string): number {
    if (!FLOAT.test(text)) throw new FormValidationError(messages.number(label));
    const value = Number(text.replace(',', '.')) + 0; // `+ 0` turns -0 into 0
    if (!Number.isFinite(value)) throw new FormValidationError(messages.tooLarge(label));
    // Digits are counted on the expanded text only for a finite, non-zero value: its exponent is then within a few
    // hundred of its digits, so `1e-400000000` (zero as a double) never expands into a string of that length.
    if (this.maxDigits !== undefined || this.decimalPlaces !== undefined) {
      if (value !== 0) checkPrecision(expandExponent(text)!, label, this.maxDigits, this.decimalPlaces);
      // A non-zero mantissa that underflows to zero (`1e-400`) has more decimals than any declared scale.
      else if (/[1-9]/.test(text.split(/[eE]/)[0]!)) {
        throw new FormValidationError(
          this.decimalPlaces !== undefined ? messages.decimalPlaces(label, this.decimalPlaces) : messages.maxDigits(label, this.maxDigits!),
        );
      }
    }
    if (this.min !== undefined && value < this.min) throw new FormValidationError(messages.min(label, this.min));
    if (this.max !== undefined && value > this.max) throw new FormValidationError(messages.max(label, this.max));
    return value;
  }

  override attrs(): HtmlAttrs {
    return { inputmode: 'decimal' };
  }
}
