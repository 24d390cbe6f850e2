/**
 * The application's time zone and the two conversions every DATETIME goes through (docs/decisions.md "Dates and
 * times on pages"): a moment stored in UTC → its wall-clock parts in the zone (pages, form inputs), and a wall-clock
 * time typed in the zone → the UTC text stored.
 */
import { get } from '../config.js';

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
      second: '2-digit',
    });
    zoneFormats.set(timeZone, format);
  }
  return format;
}

/** Wall-clock parts, as text: a four-digit year, two-digit month, day, hour, minute and second. */
export interface WallClock {
  readonly year: string;
  readonly month: string;
  readonly day: string;
  readonly hour: string;
  readonly minute: string;
  readonly second: string;
}

/** The wall clock of `moment` in `timeZone`. */
export function wallClockIn(moment: Date, timeZone: string): WallClock {
  const parts: Record<string, string> = {};
  for (const part of zoneFormat(timeZone).formatToParts(moment)) parts[part.type] = part.value;
  return {
    year: parts.year!.padStart(4, '0'),
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour!,
    minute: parts.minute!,
    second: parts.second!,
  };
}

/** The moment whose UTC wall clock is these numbers (years 1 to 99 included, which Date.UTC would shift to 19xx). */
function utcMoment(year: number, month: number, day: number, hour: number, minute: number, second: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  return date.getTime();
}

/** The zone's offset from UTC at `time`, in milliseconds (Europe/Paris in winter: 3,600,000). */
function offsetAt(time: number, timeZone: string): number {
  const w = wallClockIn(new Date(time), timeZone);
  const asUtc = utcMoment(Number(w.year), Number(w.month), Number(w.day), Number(w.hour), Number(w.minute), Number(w.second));
  return asUtc - Math.floor(time / 1000) * 1000;
}

/**
 * The moment a wall-clock time of `timeZone` names, as a Date. A time the zone skips (the hour lost when clocks go
 * forward) is read with the offset before the change, so it lands after the gap; a time that occurs twice (the hour
 * repeated when clocks go back) is the first of the two.
 */
export function momentOfWallClock(year: number, month: number, day: number, hour: number, minute: number, second: number, timeZone: string): Date {
  const asUtc = utcMoment(year, month, day, hour, minute, second);
  // The offset an hour or so on each side: the earlier one is the offset before any change near this time.
  const before = offsetAt(asUtc - 3 * 3_600_000, timeZone);
  const after = offsetAt(asUtc + 3 * 3_600_000, timeZone);
  if (before === after) return new Date(asUtc - before);
  // Near a change: the first candidate whose wall clock is the one asked; none (a skipped time) → the offset before.
  for (const offset of [before, after]) {
    const candidate = asUtc - offset;
    if (offsetAt(candidate, timeZone) === offset) return new Date(candidate);
  }
  return new Date(asUtc - before);
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** A Date as the DATETIME text both dialects store, in UTC: `YYYY-MM-DD HH:MM:SS`. */
export function utcDateTimeText(moment: Date): string {
  return `${pad(moment.getUTCFullYear(), 4)}-${pad(moment.getUTCMonth() + 1)}-${pad(moment.getUTCDate())} ${pad(moment.getUTCHours())}:${pad(moment.getUTCMinutes())}:${pad(moment.getUTCSeconds())}`;
}
