/**
 * Dates as users read them (docs/crud.md "Titles and dates"): `2025-03-10` → `10/03/2025`, `2025-03-10 08:40:00` (or
 * with a `T`, or a `Date`) → `10/03/2025 08:40`, in the order the locale's `format.date` / `format.datetime` keys give.
 * The templates' `format_date` filter and the detail pages use it; forms keep the ISO text their inputs need, CSV the
 * raw value. Text only: no time zone is applied (a DATETIME column holds the time as it was entered). The framework's
 * own timestamps, kept in UTC, go through `formatInstant` (filter `format_instant`), which shows them in the
 * application's time zone.
 */
import { get } from '../config.js';
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

/** The time zone when neither `timezone` nor APP_TIMEZONE names one: the French UI's. */
export const DEFAULT_TIME_ZONE = 'Europe/Paris';

/**
 * The time zone moments are shown in: the `timezone` key, else the APP_TIMEZONE environment variable (empty means
 * unset), else Europe/Paris. A name Intl does not know throws, naming its source and an example.
 */
export function appTimeZone(): string {
  const configured: unknown = get('timezone');
  if (configured !== null && configured !== undefined) return checkedZone(configured, 'timezone');
  const fromEnv = process.env.APP_TIMEZONE?.trim();
  return fromEnv ? checkedZone(fromEnv, 'APP_TIMEZONE') : DEFAULT_TIME_ZONE;
}

const zoneFormats = new Map<string, Intl.DateTimeFormat>();

function checkedZone(value: unknown, source: string): string {
  const name = typeof value === 'string' ? value.trim() : '';
  try {
    zoneFormat(name);
    return name;
  } catch {
    throw new Error(`${source} vaut « ${String(value)} » : fuseau horaire inconnu ; donnez un nom IANA, par exemple Europe/Paris ou America/Montreal.`);
  }
}

function zoneFormat(timeZone: string): Intl.DateTimeFormat {
  let format = zoneFormats.get(timeZone);
  if (!format) {
    if (timeZone === '') throw new RangeError('empty time zone');
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    zoneFormats.set(timeZone, format);
  }
  return format;
}

/** `YYYY-MM-DD HH:MM[:SS[.fraction]]`, with a space or a `T`, optionally ending in `Z`: a moment in UTC. */
const UTC_TEXT = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)Z?$/;

/**
 * A moment stored in UTC (the framework's own timestamps: last login, second factor's dates, sessions) shown in the
 * application's time zone, in the locale's `format.datetime` order: `2025-03-10 08:40:00` → `10/03/2025 09:40` in
 * Europe/Paris. null, undefined and '' give ''; a text that is not such a moment is returned unchanged.
 */
export function formatInstant(value: unknown, timeZone: string = appTimeZone()): string {
  if (value === null || value === undefined || value === '') return '';
  let moment: Date;
  if (value instanceof Date) moment = value;
  else {
    const match = UTC_TEXT.exec(String(value).trim());
    if (!match) return String(value);
    moment = new Date(`${match[1]}T${match[2]}Z`);
  }
  if (Number.isNaN(moment.getTime())) return value instanceof Date ? '' : String(value);
  const parts = Object.fromEntries(
    zoneFormat(timeZone)
      .formatToParts(moment)
      .map((part) => [part.type, part.value]),
  );
  return formatDate(`${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`);
}
