/**
 * Dates and times as users read them (docs/decisions.md "Dates and times on pages", docs/crud.md "Titles and dates").
 * One rule for every page: a DATE (`2025-03-10`) has no time zone and is shown as stored, `10/03/2025`; a DATETIME
 * (`2025-03-10 08:40:00`, with a space or a `T`, or a `Date`) is a moment stored in UTC and is shown in the
 * application's time zone (`appTimeZone()`), `10/03/2025 09:40` in Europe/Paris; both in the order the locale's
 * `format.date` / `format.datetime` keys give. The templates' `format_date` filter (and `format_instant`, the same
 * function under its older name), the CRUD detail pages and the public pages use it; forms show and read DATETIME
 * inputs in the same zone (runtime/forms/fields-date.ts); CSV keeps the stored UTC text.
 */
import { trans } from '../translations.js';
import { appTimeZone, wallClockIn } from './time-zone.js';

export { appTimeZone, DEFAULT_TIME_ZONE } from './time-zone.js';

/** `YYYY-MM-DD`, optionally followed by ` HH:MM[:SS[.fraction]]` or `THH:MM…`, and an optional `Z`. */
const DATE_TEXT = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?Z?)?$/;

/** The locale's order for a date, or a date and a time. */
function shown(year: string, month: string, day: string, hour?: string, minute?: string): string {
  const key = hour === undefined ? 'format.date' : 'format.datetime';
  const text = trans(key, { year, month, day, hour, minute });
  // A locale without the key: the French order.
  if (text !== key) return text;
  return hour === undefined ? `${day}/${month}/${year}` : `${day}/${month}/${year} ${hour}:${minute}`;
}

function shownMoment(moment: Date, timeZone: string): string {
  const w = wallClockIn(moment, timeZone);
  return shown(w.year, w.month, w.day, w.hour, w.minute);
}

/**
 * A DATE or DATETIME value shown to users: a DATE as stored, a DATETIME (a UTC moment) in `timeZone`, the
 * application's by default. null, undefined and '' give ''; any other value is returned as text, unchanged.
 */
export function formatDate(value: unknown, timeZone?: string): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : shownMoment(value, timeZone ?? appTimeZone());
  const text = String(value);
  const match = DATE_TEXT.exec(text.trim());
  if (!match) return text;
  const [, year, month, day, hour, minute, second] = match;
  if (hour === undefined) return shown(year!, month!, day!);
  const moment = new Date(`${year}-${month}-${day}T${hour}:${minute}:${second ?? '00'}Z`);
  if (Number.isNaN(moment.getTime())) return text;
  return shownMoment(moment, timeZone ?? appTimeZone());
}

/**
 * A moment stored in UTC shown in the application's time zone: `formatDate` for moments, kept under this name (the
 * `format_instant` filter) for templates written before `format_date` applied the zone. A date alone is not a
 * moment: it is returned unchanged.
 */
export function formatInstant(value: unknown, timeZone: string = appTimeZone()): string {
  if (value === null || value === undefined || value === '') return '';
  if (!(value instanceof Date) && !/[T ]\d{2}:\d{2}/.test(String(value))) return String(value);
  return formatDate(value, timeZone);
}
