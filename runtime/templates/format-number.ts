/**
 * Decimal numbers as users read them (docs/crud.md "Numbers"): the point of a DECIMAL, FLOAT or DOUBLE value becomes
 * the locale's decimal separator, the `format.decimal_separator` key (`0.50` → `0,50` in French). The digits stay as
 * stored (no rounding, no grouping of thousands), so that a form accepts what a page shows; forms keep the point their
 * values hold, CSV the raw value. The templates' `format_number` filter and the detail pages use it.
 */
import { trans } from '../translations.js';

/** A plain decimal number, with an optional exponent: `12`, `-0.50`, `.5`, `1.5e+21`. */
const NUMBER_TEXT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A number shown to users; null and undefined give ''; a value that is not a number is returned as text, unchanged. */
export function formatNumber(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'bigint' ? value.toString() : String(value);
  if (!NUMBER_TEXT.test(text) || !text.includes('.')) return text;
  const separator = trans('format.decimal_separator');
  // A locale without the key keeps the point.
  return separator === 'format.decimal_separator' ? text : text.replace('.', separator);
}
