/**
 * Header values as they go on the wire (docs/runtime.md "Redirects and the Location header"). A header holds
 * visible ASCII only: node refuses a character above U+00FF (`ERR_INVALID_CHAR`, thrown after the handler has
 * run) and sends U+0080-U+00FF as raw Latin-1 bytes, which browsers read differently. The headers that carry a URL
 * (`Location`, `Content-Location`, htmx's `HX-Redirect`) are therefore percent-encoded as UTF-8 when written,
 * keeping the escapes already there; `unwritableHeader` finds, before anything is committed, a header that would
 * still be refused.
 */
import { validateHeaderName, validateHeaderValue } from 'node:http';
import type { HeaderValue } from './response.js';

/** Header names (lower case) whose value is a URL, encoded by `encodeUrlHeader`. */
const URL_HEADERS: ReadonlySet<string> = new Set(['location', 'content-location', 'hx-redirect']);

/** True when the header (any case) holds a URL that `wireHeaderValue` encodes. */
export function isUrlHeader(name: string): boolean {
  return URL_HEADERS.has(name.toLowerCase());
}

const HEX = /^[0-9A-Fa-f]{2}$/;

/**
 * A URL with every character outside visible ASCII percent-encoded as UTF-8 (controls, space, DEL, anything above
 * U+007E; a lone surrogate as U+FFFD), and every `%` that does not start a valid escape written `%25`. Visible
 * ASCII is kept as is, so a URL already encoded comes out unchanged.
 */
export function encodeUrlHeader(url: string): string {
  let out = '';
  let plainFrom = 0;
  for (let i = 0; i < url.length; i++) {
    const code = url.charCodeAt(i);
    if (code > 0x20 && code < 0x7f && (code !== 0x25 || HEX.test(url.slice(i + 1, i + 3)))) continue;
    out += url.slice(plainFrom, i);
    if (code === 0x25) {
      out += '%25';
    } else {
      const point = url.codePointAt(i)!;
      const char = point >= 0xd800 && point <= 0xdfff ? '\ufffd' : String.fromCodePoint(point);
      if (point > 0xffff) i++;
      for (const byte of Buffer.from(char, 'utf8')) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    }
    plainFrom = i + 1;
  }
  return plainFrom === 0 ? url : out + url.slice(plainFrom);
}

/** The value written for a header: URL headers encoded, any other as given. */
export function wireHeaderValue(name: string, value: string): string {
  return isUrlHeader(name) ? encodeUrlHeader(value) : value;
}

/**
 * The first header node would refuse to write (a name that is no token, a value with a control or a character
 * above U+00FF once URL headers are encoded), described for the log; null when all can be written.
 */
export function unwritableHeader(headers: Readonly<Record<string, HeaderValue>>): string | null {
  for (const name in headers) {
    try {
      validateHeaderName(name);
      const value = headers[name]!;
      for (const one of Array.isArray(value) ? value : [value]) validateHeaderValue(name, wireHeaderValue(name, String(one)));
    } catch (err) {
      return `${name} : ${(err as Error).message}`;
    }
  }
  return null;
}
