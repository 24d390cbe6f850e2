/**
 * Date fields: DateField, DateTimeField and TimeField. Cleaned values are strings, not Date objects: a calendar date has
 * no time zone, and a string is what both database dialects take and give back. A DATETIME is a moment stored in UTC,
 * typed and shown in the application's time zone (docs/decisions.md "Dates and times on pages").
 */
import { appTimeZone, momentOfWallClock, utcDateTimeText, wallClockIn } from '../templates/time-zone.js';
import { FormValidationError } from './errors.js';
import { TextInputField, type FieldOptions, type HtmlAttrs } from './field.js';
import { messages } from './messages.js';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

function isLeap(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

/** True for a real calendar date (years 0001 to 9999). */
export function isCalendarDate(year: number, month: number, day: number): boolean {
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const days = [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
  return day <= days;
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** A Date as `YYYY-MM-DD` and `HH:MM:SS`, in UTC. */
function utcParts(date: Date): [string, string] {
  return [
    `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`,
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`,
  ];
}

/** A moment as the `datetime-local` input's text in the application's time zone: `YYYY-MM-DDTHH:MM:SS`. */
function zoned(moment: Date): string {
  const w = wallClockIn(moment, appTimeZone());
  return `${w.year}-${w.month}-${w.day}T${w.hour}:${w.minute}:${w.second}`;
}

/** A date typed strictly as `YYYY-MM-DD` that exists in the calendar (`2023-02-29` is refused). Cleaned unchanged. */
export class DateField<R extends boolean = true> extends TextInputField<string, R> {
  constructor(options: FieldOptions<R> = {}) {
    super(options, 'date');
  }

  protected convert(text: string, label: string): string {
    const m = DATE.exec(text);
    if (!m || !isCalendarDate(Number(m[1]), Number(m[2]), Number(m[3]))) throw new FormValidationError(messages.date(label));
    return text;
  }

  /** A Date (UTC) or a stored `YYYY-MM-DD[ HH:MM:SS]` string → `YYYY-MM-DD` for `<input type="date">`. */
  override format(value: unknown): string {
    if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : utcParts(value)[0];
    if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}(?:[T ]|$)/.test(value)) return value.slice(0, 10);
    return super.format(value);
  }
}

/**
 * A date and time typed as `YYYY-MM-DDTHH:MM` or `YYYY-MM-DDTHH:MM:SS` (what `<input type="datetime-local">`
 * sends), with a real date, hours 00–23, minutes and seconds 00–59. Cleaned to `YYYY-MM-DD HH:MM:SS`, the
 * DATETIME text of both dialects.
 */
export class DateTimeField<R extends boolean = true> extends TextInputField<string, R> {
  constructor(options: FieldOptions<R> = {}) {
    super(options, 'datetime-local');
  }

  protected convert(text: string, label: string): string {
    const m = DATE_TIME.exec(text);
    if (!m) throw new FormValidationError(messages.dateTime(label));
    const [hours, minutes, seconds] = [Number(m[4]), Number(m[5]), Number(m[6] ?? '0')];
    if (!isCalendarDate(Number(m[1]), Number(m[2]), Number(m[3])) || hours > 23 || minutes > 59 || seconds > 59) {
      throw new FormValidationError(messages.dateTime(label));
    }
    // Typed in the application's time zone, stored in UTC.
    const moment = momentOfWallClock(Number(m[1]), Number(m[2]), Number(m[3]), hours, minutes, seconds, appTimeZone());
    return utcDateTimeText(moment);
  }

  /** A Date or a stored `YYYY-MM-DD HH:MM:SS` string (UTC) → `YYYY-MM-DDTHH:MM:SS` in the application's time zone, for the input. */
  override format(value: unknown): string {
    if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : zoned(value);
    if (typeof value === 'string') {
      const m = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(?::(\d{2}))?/.exec(value);
      if (m) {
        const moment = new Date(`${m[1]}T${m[2]}:${m[3] ?? '00'}Z`);
        if (!Number.isNaN(moment.getTime())) return zoned(moment);
      }
    }
    return super.format(value);
  }
}

const TIME = /^(\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * A time of day typed as `HH:MM` or `HH:MM:SS` (what `<input type="time">` sends), hours 00–23, minutes and
 * seconds 00–59. Cleaned to `HH:MM:SS`, the TIME text MariaDB gives back, so both dialects store the same.
 */
export class TimeField<R extends boolean = true> extends TextInputField<string, R> {
  constructor(options: FieldOptions<R> = {}) {
    super(options, 'time');
  }

  protected convert(text: string, label: string): string {
    const m = TIME.exec(text);
    if (!m || Number(m[1]) > 23 || Number(m[2]) > 59 || Number(m[3] ?? '0') > 59) throw new FormValidationError(messages.time(label));
    return `${m[1]}:${m[2]}:${m[3] ?? '00'}`;
  }

  /** A stored `HH:MM:SS[.fff]` → `HH:MM:SS` for the input. */
  override format(value: unknown): string {
    if (typeof value === 'string') {
      const m = /^(\d{2}:\d{2}(?::\d{2})?)(?:\.\d*)?$/.exec(value);
      if (m) return m[1]!;
    }
    return super.format(value);
  }

  override attrs(): HtmlAttrs {
    return { step: 1 };
  }
}
