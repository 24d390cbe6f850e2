/**
 * SQLite made to search and sort text like MariaDB's `utf8mb4_unicode_ci` (DECISIONS §7, docs/crud.md "Search and
 * sort on SQLite"). better-sqlite3 has no collation API, so two deterministic SQL functions are registered on every
 * connection:
 * - `fw_fold(text)`: one character for one character, each replaced by the representative of its class (case and
 *   accents dropped: `Écrou` → `ecrou`), so that `fw_fold(col) LIKE fw_fold(pattern)` matches what MariaDB's LIKE
 *   matches (`œ` stays `œ`, as MariaDB's LIKE does not match it with `oe`);
 * - `fw_sort_key(text)`: a string whose binary order is MariaDB's order (UCA 4.0.0 primary weights, `œ` = `oe`,
 *   `ß` = `ss`, digits before letters, punctuation before digits).
 * The weights of the Latin, Greek and Cyrillic blocks come from a MariaDB server (unicode-ci-data.ts); other
 * characters sort after them by code point.
 */
import { FOLD_EXCEPTIONS, PRIMARY_WEIGHTS } from './unicode-ci-data.js';

/** The SQL name of the fold function (search). */
export const SQLITE_FOLD_FUNCTION = 'fw_fold';
/** The SQL name of the sort-key function (ORDER BY). */
export const SQLITE_SORT_KEY_FUNCTION = 'fw_sort_key';

const EXCEPTIONS = new Map(FOLD_EXCEPTIONS.map((pair) => [...pair] as [string, string]));

/** Canonical character → its weights, each weight one UTF-16 unit (all below U+2000, hence no surrogate). */
const WEIGHTS = new Map(
  PRIMARY_WEIGHTS.map((entry) => {
    const [char = '', ...rest] = [...entry];
    const hex = rest.join('');
    let key = '';
    for (let i = 0; i < hex.length; i += 4) key += String.fromCharCode(parseInt(hex.slice(i, i + 4), 16));
    return [char, key] as const;
  }),
);

/** Characters without a known weight sort after every known one (the largest known weight is below U+2000), by code point. */
const UNKNOWN_PREFIX = '\u{2fff}';

const MARK = /\p{M}/u;
const ASCII = /^[\x00-\x7f]*$/;

/** The class representative of one character (a code point): '' for a combining mark. */
function foldChar(c: string): string {
  const mapped = EXCEPTIONS.get(c);
  if (mapped !== undefined) return mapped;
  if (MARK.test(c)) return '';
  const lower = c.toLowerCase();
  if ([...lower].length !== 1) return c;
  const base = lower.normalize('NFD').replace(/\p{M}/gu, '');
  return [...base].length === 1 ? base : lower;
}

/** `text` with each character replaced by its class's representative: `Écrou` → `ecrou`, `Straße` → `straße`. */
export function unicodeFold(text: string): string {
  if (ASCII.test(text)) return text.toLowerCase();
  let folded = '';
  for (const c of text.normalize('NFC')) folded += foldChar(c);
  return folded;
}

/** A key whose binary (code point) order is the order of `utf8mb4_unicode_ci`; equal keys for equal texts there. */
export function unicodeSortKey(text: string): string {
  let key = '';
  for (const c of unicodeFold(text)) key += WEIGHTS.get(c) ?? UNKNOWN_PREFIX + c;
  return key;
}

/** What `registerUnicodeFunctions` needs of a better-sqlite3 handle. */
export interface FunctionRegistry {
  function(name: string, options: { deterministic: boolean }, fn: (value: unknown) => unknown): unknown;
}

/** Registers `fw_fold` and `fw_sort_key` on one better-sqlite3 connection; a non-text value passes unchanged. */
export function registerUnicodeFunctions(db: FunctionRegistry): void {
  db.function(SQLITE_FOLD_FUNCTION, { deterministic: true }, (value) => (typeof value === 'string' ? unicodeFold(value) : value));
  db.function(SQLITE_SORT_KEY_FUNCTION, { deterministic: true }, (value) => (typeof value === 'string' ? unicodeSortKey(value) : value));
}
