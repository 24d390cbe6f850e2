/** `application/x-www-form-urlencoded` bodies: the field cap, counted before anything is decoded, and the declared charset. */
import { TextDecoder } from 'node:util';
import { BadRequestError, TooManyFieldsError } from './errors.js';
import { parseUrlEncoded, type MultiMap } from './url-encoded.js';

const AMPERSAND = 0x26;
const LATIN1 = new Set(['iso-8859-1', 'iso8859-1', 'latin1', 'latin-1', 'l1', 'us-ascii', 'ascii']);

/** The `charset` parameter of a Content-Type, lower-cased, or undefined. */
export function declaredCharset(contentType: string): string | undefined {
  return /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType)?.[1]?.toLowerCase();
}

/**
 * Throws TooManyFieldsError as soon as the body holds more than `max` non-empty fields: only `&` bytes are
 * looked for, so a hostile body of 60,000 fields costs a scan, not 60,000 decodings.
 */
export function checkFieldCount(raw: Buffer, max: number): void {
  let fields = 0;
  let start = 0;
  for (;;) {
    const at = raw.indexOf(AMPERSAND, start);
    const end = at === -1 ? raw.length : at;
    if (end > start && ++fields > max) throw new TooManyFieldsError(max);
    if (at === -1) return;
    start = at + 1;
  }
}

/** Parses a form body in its declared charset (UTF-8 when none); an unknown charset is a 400 that names it. */
export function parseFormBody(raw: Buffer, charset: string | undefined, maxFields: number): MultiMap {
  checkFieldCount(raw, maxFields);
  if (charset === undefined || charset === 'utf-8' || charset === 'utf8') return parseUrlEncoded(raw.toString('utf8'));
  let decode: (bytes: Buffer) => string;
  if (LATIN1.has(charset)) {
    decode = (bytes) => bytes.toString('latin1');
  } else {
    let decoder: TextDecoder;
    try {
      decoder = new TextDecoder(charset);
    } catch {
      throw new BadRequestError(`Jeu de caractères « ${charset} » inconnu pour un formulaire : envoyez utf-8 ou iso-8859-1.`);
    }
    decode = (bytes) => decoder.decode(bytes);
  }
  const out = Object.create(null) as MultiMap;
  let start = 0;
  while (start <= raw.length) {
    const at = raw.indexOf(AMPERSAND, start);
    const end = at === -1 ? raw.length : at;
    if (end > start) {
      const piece = raw.subarray(start, end);
      const eq = piece.indexOf(0x3d);
      const name = percentDecode(eq === -1 ? piece : piece.subarray(0, eq), decode);
      const value = eq === -1 ? '' : percentDecode(piece.subarray(eq + 1), decode);
      (out[name] ??= []).push(value);
    }
    if (at === -1) break;
    start = at + 1;
  }
  return out;
}

function isHex(byte: number | undefined): boolean {
  return byte !== undefined && ((byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66));
}

/** `+` is a space and `%XX` a byte (a `%` not followed by two hex digits is kept), then the bytes are decoded. */
function percentDecode(bytes: Buffer, decode: (bytes: Buffer) => string): string {
  const out = Buffer.allocUnsafe(bytes.length);
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    if (byte === 0x2b) {
      out[n++] = 0x20;
    } else if (byte === 0x25 && isHex(bytes[i + 1]) && isHex(bytes[i + 2])) {
      out[n++] = Number.parseInt(bytes.toString('latin1', i + 1, i + 3), 16);
      i += 2;
    } else {
      out[n++] = byte;
    }
  }
  return decode(out.subarray(0, n));
}
