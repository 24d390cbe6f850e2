/** Conversion of `?` parameter values into what both drivers accept, so that both dialects store the same thing. */
import { QueryParameterError } from './errors.js';

/** A value that both drivers bind as is. */
export type DriverValue = null | number | bigint | string | Buffer;

/**
 * `null`/`undefined` → NULL; booleans → 1 / 0; a `Date` → `YYYY-MM-DD HH:MM:SS` in UTC (both dialects keep
 * date-times in UTC, see `mariadb.ts`); `Uint8Array` → Buffer; numbers, bigints and strings unchanged.
 * Objects and arrays are refused: mysql2 would expand them into SQL fragments.
 */
export function toDriverValues(params: readonly unknown[]): DriverValue[] {
  return params.map(toDriverValue);
}

function toDriverValue(value: unknown, index: number): DriverValue {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'boolean':
      return value ? 1 : 0;
    case 'number':
      if (!Number.isFinite(value)) throw new QueryParameterError(`Paramètre n° ${index + 1} : nombre non fini (${value}).`);
      return value;
    case 'bigint':
    case 'string':
      return value;
    default:
      break;
  }
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new QueryParameterError(`Paramètre n° ${index + 1} : date invalide.`);
    return formatUtcDateTime(value);
  }
  if (Buffer.isBuffer(value)) return value;
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  const kind = Array.isArray(value) ? 'tableau' : typeof value === 'object' ? 'objet' : typeof value;
  throw new QueryParameterError(
    `Paramètre n° ${index + 1} : type non pris en charge (${kind}) ; passez un nombre, une chaîne, un booléen, une Date, un Buffer ou null, un « ? » par valeur.`,
  );
}

/** `YYYY-MM-DD HH:MM:SS` in UTC, the format DATETIME columns come back in on both dialects. */
export function formatUtcDateTime(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}
