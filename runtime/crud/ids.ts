/** Ids of bulk actions (cli-and-generators.md "Bulk delete rules"). */

/**
 * The ids of `request.body['ids']` (a scalar or a list): integers above 0 only, duplicates removed, in the
 * order given. `['3', 'x', '-1', '0', '3', '7']` → `[3, 7]`.
 */
export function parseIds(value: unknown): number[] {
  const items = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  const seen = new Set<number>();
  for (const item of items) {
    const text = typeof item === 'number' ? String(item) : typeof item === 'string' ? item.trim() : '';
    if (!/^\d{1,15}$/.test(text)) continue;
    const id = Number(text);
    if (id > 0) seen.add(id);
  }
  return [...seen];
}

/** `?, ?, ?`: one placeholder per value, for `IN (…)`. */
export function placeholders(count: number): string {
  if (!Number.isInteger(count) || count < 1) throw new RangeError(`placeholders(${count}) : au moins une valeur est attendue.`);
  return Array.from({ length: count }, () => '?').join(', ');
}

/** A route parameter that is a positive integer, or null (the page answers 404). */
export function parseId(value: string | undefined): number | null {
  if (value === undefined || !/^\d{1,15}$/.test(value)) return null;
  const id = Number(value);
  return id > 0 ? id : null;
}
