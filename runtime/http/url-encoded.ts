/**
 * The `name=value&…` text of a query string or of a UTF-8 form body, parsed into a multi-map. Its own file so that
 * the request (query strings) and the form-body reader (bodies) both import it without importing each other.
 */

/** Field name -> every value sent under it, in order. */
export type MultiMap = Record<string, string[]>;

/** Parses `a=1&b=2&a=3` into a multi-map. */
export function parseUrlEncoded(text: string): MultiMap {
  const out: MultiMap = Object.create(null);
  if (!text) return out;
  for (const [key, value] of new URLSearchParams(text)) (out[key] ??= []).push(value);
  return out;
}
