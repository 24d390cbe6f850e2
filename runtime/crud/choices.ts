/**
 * The choices of a many-to-one select (docs/crud.md "The list page", "Forms"):
 * the model lists a bounded number of target rows, and adds the few keys a page must offer whatever their rank.
 * RelationField itself runs no query and refuses any value outside its choices, so a key missing from them would
 * be refused when posted, and shown as "nothing selected" on an edit page, which a save would then write as NULL.
 */

/** How many target rows a select lists, by label; the keys a page must offer are added past them. */
export const CHOICES_MAX = 1000;

/** How the target's key is written: an integer (most keys) or a text. */
export type ChoiceKeyKind = 'int' | 'text';

/** An integer as the choices write it (`String(12)`): anything else can never match a choice. */
const CANONICAL_INTEGER = /^(?:0|-?[1-9]\d{0,14})$/;

/**
 * The keys among `keep` that `rows` (the listed choices, `{ id }`) lacks, to be looked up by key with one query:
 * the record's current value, the value posted, the active filter. An item may be a request's list of values, of
 * which the form reads the first, as it does. Empty, null and repeated values are dropped, and so, for an integer
 * key, is anything that is not an integer written as the choices write it (it could never be chosen, and MariaDB
 * would read `'12abc'` as 12). A key that no row has is not found by the query and stays out: still refused.
 */
export function missingChoiceKeys(
  rows: ReadonlyArray<{ readonly id: unknown }>,
  keep: readonly unknown[],
  kind: ChoiceKeyKind = 'int',
): Array<string | number> {
  const listed = new Set(rows.map((row) => String(row.id)));
  const missing = new Map<string, string | number>();
  for (const item of keep) {
    const value: unknown = Array.isArray(item) ? item[0] : item;
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'bigint') continue;
    const text = String(value).trim();
    if (text === '' || listed.has(text) || missing.has(text)) continue;
    if (kind === 'int') {
      if (CANONICAL_INTEGER.test(text)) missing.set(text, Number(text));
    } else {
      missing.set(text, text);
    }
  }
  return [...missing.values()];
}
