/**
 * Conditional and range requests on stored files (RFC 9110 §13 and §14; docs/uploads.md "`/media/<path>`"): the
 * entity-tag lists of `If-None-Match` and `If-Range`, the single byte range of `Range`.
 */

/** One entity-tag of a list: its opaque tag (quotes included) and whether it was marked weak (`W/`). */
export interface EntityTag {
  readonly weak: boolean;
  readonly opaque: string;
}

/**
 * The entity-tags of a header value (`"a", W/"b"`), or `'*'`, or null when the value is not a valid list. A tag is
 * read up to its closing quote, so a comma inside one does not split it.
 */
export function parseEntityTags(value: string): EntityTag[] | '*' | null {
  const text = value.trim();
  if (text === '*') return '*';
  const tags: EntityTag[] = [];
  let i = 0;
  while (i < text.length) {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === ',')) i++;
    if (i >= text.length) break;
    let weak = false;
    if (text.startsWith('W/', i)) {
      weak = true;
      i += 2;
    }
    if (text[i] !== '"') return null;
    const end = text.indexOf('"', i + 1);
    if (end < 0) return null;
    tags.push({ weak, opaque: text.slice(i, end + 1) });
    i = end + 1;
    while (i < text.length && (text[i] === ' ' || text[i] === '\t')) i++;
    if (i < text.length && text[i] !== ',') return null;
  }
  return tags;
}

/** `"x"` or `W/"x"` as an EntityTag (the ETag this server wrote). */
function ownTag(etag: string): EntityTag {
  return etag.startsWith('W/') ? { weak: true, opaque: etag.slice(2) } : { weak: false, opaque: etag };
}

/**
 * `If-None-Match` against the current ETag, by weak comparison (RFC 9110 §13.1.2): true when `*` or any listed tag
 * has the same opaque tag, `W/` or not. An unreadable value matches nothing.
 */
export function noneMatchHits(header: string, etag: string): boolean {
  const tags = parseEntityTags(header);
  if (tags === '*') return true;
  const current = ownTag(etag).opaque;
  return tags !== null && tags.some((tag) => tag.opaque === current);
}

/**
 * `If-Range` (RFC 9110 §13.1.5): true when the range may be sent. An entity-tag must match strongly (neither tag
 * weak); a date must equal `Last-Modified` exactly and that time be at least one second old (else it is a weak
 * validator: the file may have changed twice within that second).
 */
export function ifRangeHolds(header: string, etag: string, lastModified: string, mtimeMs: number, now = Date.now()): boolean {
  const value = header.trim();
  if (value.startsWith('"') || value.startsWith('W/')) {
    const tags = parseEntityTags(value);
    const current = ownTag(etag);
    if (tags === null || tags === '*' || tags.length !== 1) return false;
    return !tags[0]!.weak && !current.weak && tags[0]!.opaque === current.opaque;
  }
  const time = Date.parse(value);
  return !Number.isNaN(time) && value === lastModified && mtimeMs <= now - 1000;
}

/** What a `Range` header asks of a file of `size` bytes. */
export type RangeAnswer =
  /** No range to honour (absent, not `bytes`, malformed, or several ranges): the whole file, 200. */
  | { kind: 'whole' }
  /** One satisfiable range, inclusive bounds: 206. */
  | { kind: 'partial'; start: number; end: number }
  /** No range of the set overlaps the file: 416 with `Content-Range: bytes *\/size`. */
  | { kind: 'unsatisfiable' };

const RANGE_SPEC = /^\s*(\d*)\s*-\s*(\d*)\s*$/;

/**
 * A `Range` header for a file of `size` bytes (RFC 9110 §14.1.2): `bytes=0-99`, `bytes=100-`, `bytes=-100`. One
 * range gives `partial` (its end cut to the file's last byte) or `unsatisfiable`; a list of several is answered with
 * the whole file (allowed by the RFC, and a client asking for several copes with it), unless none can be satisfied;
 * anything malformed is ignored (the whole file).
 */
export function parseRange(header: string, size: number): RangeAnswer {
  const match = /^\s*bytes\s*=(.*)$/i.exec(header);
  if (!match) return { kind: 'whole' };
  const specs = match[1]!.split(',').filter((spec) => spec.trim() !== '');
  if (specs.length === 0) return { kind: 'whole' };
  const ranges: Array<{ start: number; end: number } | null> = [];
  for (const spec of specs) {
    const parts = RANGE_SPEC.exec(spec);
    if (!parts || (parts[1] === '' && parts[2] === '')) return { kind: 'whole' };
    if (parts[1] === '') {
      const suffix = Number(parts[2]);
      if (!Number.isSafeInteger(suffix)) return { kind: 'whole' };
      ranges.push(suffix === 0 || size === 0 ? null : { start: Math.max(0, size - suffix), end: size - 1 });
      continue;
    }
    const start = Number(parts[1]);
    const last = parts[2] === '' ? null : Number(parts[2]);
    // `bytes=5-1` is not a range (the header is ignored); an open end runs to the file's last byte.
    if (!Number.isSafeInteger(start) || (last !== null && (!Number.isSafeInteger(last) || last < start))) return { kind: 'whole' };
    const end = last ?? size - 1;
    ranges.push(start >= size ? null : { start, end: Math.min(end, size - 1) });
  }
  const satisfiable = ranges.filter((range): range is { start: number; end: number } => range !== null);
  if (satisfiable.length === 0) return { kind: 'unsatisfiable' };
  if (ranges.length > 1) return { kind: 'whole' };
  return { kind: 'partial', ...satisfiable[0]! };
}
