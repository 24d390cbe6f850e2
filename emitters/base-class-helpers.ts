/**
 * The run-time helpers a generated entity class may call (emitters/base-class.ts): only those a class uses are
 * written into it, in this order, so that the class imports nothing.
 */

/** Run-time helpers the class may call. */
export type Helper =
  | 'toNumber'
  | 'toText'
  | 'toDecimalText'
  | 'toDateText'
  | 'withFraction'
  | 'toBool'
  | 'toBytes'
  | 'isMissing'
  | 'isBlank'
  | 'tooLong'
  | 'notInteger'
  | 'isNegative'
  | 'notNumber'
  | 'notDecimal'
  | 'tooManyDecimals'
  | 'tooShort'
  | 'compareNumber'
  | 'belowMin'
  | 'aboveMax'
  | 'noMatch';

export const HELPER_ORDER: readonly Helper[] = [
  'toNumber',
  'toText',
  'toDecimalText',
  'toDateText',
  'withFraction',
  'toBool',
  'toBytes',
  'isMissing',
  'isBlank',
  'tooLong',
  'notInteger',
  'isNegative',
  'notNumber',
  'notDecimal',
  'tooManyDecimals',
  'tooShort',
  'compareNumber',
  'belowMin',
  'aboveMax',
  'noMatch',
];

export const HELPER_SOURCE: Record<Helper, readonly string[]> = {
  toNumber: [
    '/** SQL value -> number (drivers may return BIGINT or DECIMAL as bigint or string); undefined when absent. */',
    'function toNumber(value: unknown): number | null | undefined {',
    '  if (value === undefined || value === null) return value;',
    "  return typeof value === 'number' ? value : Number(value);",
    '}',
  ],
  toText: [
    '/** SQL value -> string; undefined when absent. */',
    'function toText(value: unknown): string | null | undefined {',
    '  if (value === undefined || value === null) return value;',
    "  return typeof value === 'string' ? value : String(value);",
    '}',
  ],
  toDecimalText: [
    '/**',
    ' * DECIMAL value (a string, or a number / bigint from a driver) -> its text with exactly `scale` decimals',
    " * (`3`, `'3.0'` -> `'3.00'`), by string arithmetic only (never a float); extra decimals are rounded half away",
    ' * from zero, as MariaDB does. A value that is not a number is returned as text, for validate() to report.',
    ' */',
    'function toDecimalText(value: unknown, scale: number): string | null | undefined {',
    '  if (value === undefined || value === null) return value;',
    "  const text = typeof value === 'string' ? value.trim() : String(value);",
    '  const m = /^([+-]?)(\\d*)(?:\\.(\\d*))?(?:[eE]([+-]?\\d+))?$/.exec(text);',
    "  if (!m || `${m[2]}${m[3] ?? ''}` === '') return text;",
    "  let digits = `${m[2]}${m[3] ?? ''}`;",
    "  let point = (m[2] ?? '').length + Number(m[4] ?? 0);",
    "  if (point < 0) [digits, point] = ['0'.repeat(-point) + digits, 0];",
    "  digits = digits.padEnd(point + scale, '0');",
    '  let units = BigInt(digits.slice(0, point + scale));',
    "  if ((digits[point + scale] ?? '0') >= '5') units += 1n;",
    "  const abs = units.toString().padStart(scale + 1, '0');",
    "  const sign = m[1] === '-' && units !== 0n ? '-' : '';",
    '  return scale === 0 ? `${sign}${abs}` : `${sign}${abs.slice(0, -scale)}.${abs.slice(-scale)}`;',
    '}',
  ],
  toDateText: [
    "/** DATE / DATETIME value -> `YYYY-MM-DD[ HH:MM:SS]`; a driver's Date is read in local time, as mysql2 builds it. */",
    'function toDateText(value: unknown, withTime: boolean): string | null | undefined {',
    '  if (!(value instanceof Date)) return toText(value);',
    "  const pad = (n: number): string => String(n).padStart(2, '0');",
    '  const day = `${value.getFullYear()}-${pad(value.getMonth() + 1)}-${pad(value.getDate())}`;',
    '  return withTime ? `${day} ${pad(value.getHours())}:${pad(value.getMinutes())}:${pad(value.getSeconds())}` : day;',
    '}',
  ],
  withFraction: [
    '/** DATETIME(p) / TIME(p) text -> exactly `digits` fraction digits, as MariaDB gives it (`08:05:01` -> `08:05:01.000`). */',
    'function withFraction(value: string | null | undefined, digits: number): string | null | undefined {',
    "  const m = typeof value === 'string' ? /^(.*\\d{2}:\\d{2}:\\d{2})(?:\\.(\\d*))?$/.exec(value) : null;",
    "  return m ? `${m[1]}.${(m[2] ?? '').padEnd(digits, '0').slice(0, digits)}` : value;",
    '}',
  ],
  toBool: [
    '/** TINYINT(1) value (0 / 1, as number, bigint or string) -> boolean; undefined when absent. */',
    'function toBool(value: unknown): boolean | null | undefined {',
    '  if (value === undefined || value === null) return value;',
    "  return typeof value === 'boolean' ? value : Number(value) !== 0;",
    '}',
  ],
  toBytes: [
    '/** BLOB value (a Buffer is a Uint8Array) -> bytes; undefined when absent or not bytes. */',
    'function toBytes(value: unknown): Uint8Array | null | undefined {',
    '  if (value === undefined || value === null) return value;',
    '  return value instanceof Uint8Array ? value : undefined;',
    '}',
  ],
  isMissing: ['function isMissing(value: unknown): boolean {', "  return value === undefined || value === null || value === '';", '}'],
  isBlank: ['function isBlank(value: unknown): boolean {', "  return typeof value === 'string' && value.trim() === '';", '}'],
  tooLong: [
    '/** Counted in characters (code points), as VARCHAR(n) counts them. */',
    'function tooLong(value: unknown, max: number): boolean {',
    "  return typeof value === 'string' && [...value].length > max;",
    '}',
  ],
  notInteger: ['function notInteger(value: unknown): boolean {', '  return !isMissing(value) && !Number.isInteger(value);', '}'],
  isNegative: [
    '/** A number below zero, or a decimal string below zero (`-0.00` is zero). */',
    'function isNegative(value: unknown): boolean {',
    "  if (typeof value === 'string') return /^\\s*-[\\d.]*[1-9]/.test(value);",
    "  return typeof value === 'number' && value < 0;",
    '}',
  ],
  notNumber: ['function notNumber(value: unknown): boolean {', "  return !isMissing(value) && !(typeof value === 'number' && Number.isFinite(value));", '}'],
  notDecimal: [
    '/** Not a decimal written with digits and an optional point (`12.50`, `-3`). */',
    'function notDecimal(value: unknown): boolean {',
    "  return !isMissing(value) && !(typeof value === 'string' && /^[+-]?\\d+(?:\\.\\d+)?$/.test(value.trim()));",
    '}',
  ],
  tooManyDecimals: [
    '/** More significant decimals than the column keeps (trailing zeros do not count). */',
    'function tooManyDecimals(value: unknown, scale: number): boolean {',
    "  return typeof value === 'string' && (/\\.(\\d*?)0*$/.exec(value.trim())?.[1] ?? '').length > scale;",
    '}',
  ],
  tooShort: [
    '/** Counted in characters (code points), as CHAR_LENGTH counts them. */',
    'function tooShort(value: unknown, min: number): boolean {',
    "  return typeof value === 'string' && [...value].length < min;",
    '}',
  ],
  compareNumber: [
    '/** The sign of value − bound: a number, or a decimal string compared exactly (digits, never a float); 0 when not a number. */',
    'function compareNumber(value: unknown, bound: string): number {',
    "  if (typeof value === 'number') return Number.isFinite(value) ? Math.sign(value - Number(bound)) : 0;",
    "  const a = typeof value === 'string' ? /^([+-]?)(\\d+)(?:\\.(\\d+))?$/.exec(value.trim()) : null;",
    '  const b = /^([+-]?)(\\d+)(?:\\.(\\d+))?$/.exec(bound);',
    '  if (!a || !b) return 0;',
    "  const scale = Math.max((a[3] ?? '').length, (b[3] ?? '').length);",
    "  const units = (m: RegExpExecArray): bigint => BigInt(`${m[2]}${(m[3] ?? '').padEnd(scale, '0')}`) * (m[1] === '-' ? -1n : 1n);",
    '  const x = units(a);',
    '  const y = units(b);',
    '  return x < y ? -1 : x > y ? 1 : 0;',
    '}',
  ],
  belowMin: ['function belowMin(value: unknown, min: string): boolean {', '  return compareNumber(value, min) < 0;', '}'],
  aboveMax: ['function aboveMax(value: unknown, max: string): boolean {', '  return compareNumber(value, max) > 0;', '}'],
  noMatch: [
    '/** A text that the whole pattern does not match. */',
    'function noMatch(value: unknown, pattern: RegExp): boolean {',
    "  return typeof value === 'string' && !pattern.test(value);",
    '}',
  ],
};
