/**
 * The `name=value&…` text of a query string or of a UTF-8 form body, parsed into a multi-map. Its own file so that
 * the request (query strings) and the form-body reader (bodies) both import it without importing each other.
 */

/** Field name -> every value sent under it, in order. */
export type MultiMap = Record<string, string[]>;

/** Parses `a=1&b=2&a=3` into a multi-map. */
export function parseUrlEncoded(text: string): MultiMap {
  const out = Object.create(null) as MultiMap;
  if (!text) return out;
  for (const [key, value] of new URLSearchParams(text)) (out[key] ??= []).push(value);
  return out;
}

/** A value of a query string to write: lists give the name once per item; null, undefined and '' are left out. */
export type QueryValue = string | number | boolean | null | undefined | ReadonlyArray<string | number>;

/** Characters that encodeURIComponent leaves as they are and the form encoding escapes. */
const FORM_EXTRA = /[!'()~]/g;
const PLAIN = /^[A-Za-z0-9*\-._]*$/;
/** A surrogate without its pair: encodeURIComponent throws on it, the form encoding writes U+FFFD. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** One name or value as the form encoding writes it (the same text as URLSearchParams, which costs more per call). */
export function formEncode(text: string): string {
  if (PLAIN.test(text)) return text;
  return encodeURIComponent(text.replace(LONE_SURROGATE, '\uFFFD'))
    .replace(FORM_EXTRA, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

/** The `name=value` texts of `params`, by name (the same state gives the same text), empty values left out, `except` skipped. */
export function formPairs(params: Readonly<Record<string, QueryValue>>, except?: string): Array<readonly [name: string, text: string]> {
  const pairs: Array<readonly [string, string]> = [];
  for (const name of Object.keys(params).sort()) {
    if (name === except) continue;
    const value = params[name];
    const items = Array.isArray(value) ? value : [value];
    for (const item of items) {
      if (item === null || item === undefined || item === '') continue;
      pairs.push([name, `${formEncode(name)}=${formEncode(String(item))}`]);
    }
  }
  return pairs;
}

/** `a=1&b=2`: formPairs() joined. */
export function formQuery(params: Readonly<Record<string, QueryValue>>, except?: string): string {
  return joinPairs(formPairs(params, except));
}

/** The query text of pairs sorted by name. */
export function joinPairs(pairs: ReadonlyArray<readonly [string, string]>): string {
  let out = '';
  for (const [, text] of pairs) out += out ? `&${text}` : text;
  return out;
}
