/** Ids of bulk actions (docs/crud.md "Bulk delete"). */
import { TooManyIdsError } from '../http/errors.js';

/** How many ids one request may carry to a bulk action (as many as the CSV export's rows). */
export const IDS_MAX = 1000;

/**
 * How many `?` one `IN (…)` list may hold: well under SQLite's 32,766 parameters per statement and MariaDB's
 * 65,535, leaving room for the other parameters of the same statement.
 */
export const PLACEHOLDERS_MAX = 10_000;

/**
 * The ids of `request.body['ids']` (a scalar or a list): integers above 0 only, duplicates removed, in the
 * order given. `['3', 'x', '-1', '0', '3', '7']` → `[3, 7]`. More than IDS_MAX values (valid or not) throw
 * TooManyIdsError: the request answers 413 and nothing is read nor deleted.
 */
export function parseIds(value: unknown): number[] {
  const items = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  if (items.length > IDS_MAX) throw new TooManyIdsError(items.length, IDS_MAX);
  const seen = new Set<number>();
  for (const item of items) {
    const text = typeof item === 'number' ? String(item) : typeof item === 'string' ? item.trim() : '';
    if (!/^\d{1,15}$/.test(text)) continue;
    const id = Number(text);
    if (id > 0) seen.add(id);
  }
  return [...seen];
}

/**
 * `?, ?, ?`: one placeholder per value, for `IN (…)`. Past PLACEHOLDERS_MAX it throws TooManyIdsError (413)
 * rather than build a statement the database would refuse: the values of an `IN (…)` come from the request.
 */
export function placeholders(count: number): string {
  if (!Number.isInteger(count) || count < 1) throw new RangeError(`placeholders(${count}) : au moins une valeur est attendue.`);
  if (count > PLACEHOLDERS_MAX) throw new TooManyIdsError(count, PLACEHOLDERS_MAX);
  return Array.from({ length: count }, () => '?').join(', ');
}

/** A route parameter that is a positive integer, or null (the page answers 404). */
export function parseId(value: string | undefined): number | null {
  if (value === undefined || !/^\d{1,15}$/.test(value)) return null;
  const id = Number(value);
  return id > 0 ? id : null;
}
