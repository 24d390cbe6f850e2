/**
 * SQLite made to search and sort text like MariaDB's `utf8mb4_unicode_ci` (docs/decisions.md#sqlite-text-like-mariadb, docs/crud.md "Search and
 * sort on SQLite"). better-sqlite3 has no collation API, so deterministic SQL functions are registered on every
 * connection:
 * - `fw_fold(text)`: one character for one character, each replaced by the representative of its class (case and
 *   accents dropped: `Écrou` → `ecrou`), so that `fw_fold(col) LIKE fw_fold(pattern)` matches what MariaDB's LIKE
 *   matches (`œ` stays `œ`: MariaDB's LIKE does not match it with `oe` either);
 * - `fw_contains(needle, col1, col2, …)`: 1 when a folded column holds the folded needle (the list search);
 * - `fw_sort_key(text)`: a string whose binary order is MariaDB's order (UCA 4.0.0 primary weights, `œ` = `oe`,
 *   `ß` = `ss`, punctuation before digits, digits before letters).
 * The weights of the Latin, Greek and Cyrillic blocks come from a MariaDB server (unicode-ci-data.ts); other
 * characters sort after them by code point.
 */
import { FOLD_EXCEPTIONS, PRIMARY_WEIGHTS } from './unicode-ci-data.js';

/** The SQL name of the fold function. */
export const SQLITE_FOLD_FUNCTION = 'fw_fold';
/** The SQL name of the search function: `fw_contains(folded needle, col1, col2, …)` is 1 when a column holds it. */
export const SQLITE_CONTAINS_FUNCTION = 'fw_contains';
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

function sortPiece(folded: string): string {
  return folded === '' ? '' : (WEIGHTS.get(folded) ?? UNKNOWN_PREFIX + folded);
}

// Memos of the two pure functions above for the Basic Multilingual Plane, indexed by UTF-16 code unit (filled on
// first sight: computing one takes microseconds, and a list searched or sorted on SQLite calls them for every row).
// They depend on nothing but the character, so they never need clearing.
// Made on first use (an application on MariaDB never needs them), filled with undefined rather than holes: reading
// a hole is several times slower in V8.
let foldMemo: Array<string | undefined> | null = null;
let keyMemo: Array<string | undefined> | null = null;
const newMemo = (): Array<string | undefined> => Array.from({ length: 0x10000 }, () => undefined);

/** The representative of the character at `text[i]` (a BMP unit, or a surrogate pair read whole). */
function foldAt(text: string, i: number, unit: number): string {
  if (unit >= 0xd800 && unit <= 0xdbff) return foldChar(String.fromCodePoint(text.codePointAt(i) ?? unit));
  const memo = (foldMemo ??= newMemo());
  let folded = memo[unit];
  if (folded === undefined) memo[unit] = folded = foldChar(String.fromCharCode(unit));
  return folded;
}

const ASCII = /^[\x00-\x7f]*$/;

/** `text` with each character replaced by its class's representative: `Écrou` → `ecrou`, `Straße` → `straße`. */
export function unicodeFold(text: string): string {
  if (ASCII.test(text)) return text.toLowerCase();
  let folded = '';
  let marks = false;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    const f = foldAt(text, i, unit);
    if (unit >= 0xd800 && unit <= 0xdbff) i++;
    if (f === '') marks = true;
    folded += f;
  }
  // A decomposed letter (`и` + U+0306) is read composed (`й`, its own letter), as MariaDB compares it.
  if (marks) {
    const composed = text.normalize('NFC');
    if (composed !== text) return unicodeFold(composed);
  }
  return folded;
}

/** A key whose binary (code point) order is the order of `utf8mb4_unicode_ci`; equal keys for equal texts there. */
export function unicodeSortKey(text: string): string {
  const folded = unicodeFold(text);
  const memo = (keyMemo ??= newMemo());
  let key = '';
  for (let i = 0; i < folded.length; i++) {
    const unit = folded.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      key += sortPiece(String.fromCodePoint(folded.codePointAt(i) ?? unit));
      i++;
      continue;
    }
    let piece = memo[unit];
    if (piece === undefined) memo[unit] = piece = sortPiece(String.fromCharCode(unit));
    key += piece;
  }
  return key;
}

/**
 * 1 when one of `values`, folded, holds `needle` (already folded), else 0: `fw_contains(?, a, b)` is MariaDB's
 * `a LIKE '%…%' OR b LIKE '%…%'` (with `%` and `_` escaped) in one call per row instead of one per column.
 */
export function unicodeContains(needle: string, values: readonly unknown[]): 0 | 1 {
  for (const value of values) {
    if (typeof value === 'string' && unicodeFold(value).includes(needle)) return 1;
  }
  return 0;
}

/** What `registerUnicodeFunctions` needs of a better-sqlite3 handle. */
export interface FunctionRegistry {
  function(name: string, options: { deterministic: boolean; varargs?: boolean }, fn: (...values: unknown[]) => unknown): unknown;
}

/** Registers `fw_fold`, `fw_sort_key` and `fw_contains` on one better-sqlite3 connection; a non-text value passes unchanged. */
export function registerUnicodeFunctions(db: FunctionRegistry): void {
  db.function(SQLITE_FOLD_FUNCTION, { deterministic: true }, (value) => (typeof value === 'string' ? unicodeFold(value) : value));
  db.function(SQLITE_SORT_KEY_FUNCTION, { deterministic: true }, (value) => (typeof value === 'string' ? unicodeSortKey(value) : value));
  db.function(SQLITE_CONTAINS_FUNCTION, { deterministic: true, varargs: true }, (needle, ...values) =>
    typeof needle === 'string' ? unicodeContains(needle, values) : null,
  );
}
