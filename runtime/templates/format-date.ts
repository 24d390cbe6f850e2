/**
 * Dates as users read them (docs/crud.md "Dates"): `2025-03-10` → `10/03/2025`, `2025-03-10 08:40:00` (or with a `T`,
 * or a `Date`) → `10/03/2025 08:40`, in the order the locale's `format.date` / `format.datetime` keys give. The
 * templates' `format_date` filter and the detail pages use it; forms keep the ISO text their inputs need, CSV the raw
 * value. Text only: no time zone is applied (a DATETIME column holds the time as it was entered).
 */
import { trans } from '../i18n.js';

/** `YYYY-MM-DD`, optionally followed by ` HH:MM[:SS[.fraction]]` or `THH:MM…`. */
const DATE_TEXT = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?)?$/;

/** A DATE or DATETIME value shown to users; null, undefined and '' give ''; any other value is returned as text, unchanged. */
export function formatDate(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return '';
    return formatDate(value.toISOString().slice(0, 16));
  }
  const text = String(value);
  const match = DATE_TEXT.exec(text.trim());
  if (!match) return text;
  const [, year, month, day, hour, minute] = match;
  const key = hour === undefined ? 'format.date' : 'format.datetime';
  const shown = trans(key, { year, month, day, hour, minute });
  // A locale without the key: the French order.
  if (shown !== key) return shown;
  return hour === undefined ? `${day}/${month}/${year}` : `${day}/${month}/${year} ${hour}:${minute}`;
}
