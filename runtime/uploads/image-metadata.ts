/**
 * Metadata removal without re-encoding (docs/uploads.md "Metadata of originals"): the segments or chunks of a JPEG,
 * PNG or WebP file that carry EXIF (GPS position, camera serial, dates), XMP, IPTC, comments or text are cut out; the
 * compressed picture and what decoding needs (tables, ICC colour profile, transparency, animation) are copied as
 * they are, so the pixels stay identical. A JPEG or still PNG whose EXIF orientation is 2 to 8 gets, in place of its
 * EXIF block, a minimal one written here that holds that tag only (browsers and sharp turn the picture when showing
 * or decoding it). Plain byte parsing, no native module: sharp is only loaded to check the result decodes, or to turn
 * the picture upright when the tag cannot be kept (a WebP: Chromium ignores its EXIF orientation), or when the file
 * does not parse (originals.ts).
 *
 * Every reader is strict: a structure it does not fully understand (truncated file, length out of bounds, bad CRC,
 * unknown critical chunk, several EXIF blocks) gives `null`, never a guess, and the caller hands the file to sharp.
 */
import { crc32 } from 'node:zlib';

/** What was found and kept. `orientation` is the EXIF orientation the file declared (1 when it has none). */
export interface StrippedImage {
  format: 'jpeg' | 'png' | 'webp';
  data: Buffer;
  orientation: number;
  /** `data` holds a minimal EXIF block with `orientation` (2 to 8) and nothing else: a JPEG or a still PNG. */
  orientationKept: boolean;
  /** An animated PNG or WebP (its orientation is not applied: only the first frame could be turned). */
  animated: boolean;
  /** A WebP whose picture is lossless (VP8L), so that a re-encoding stays lossless. */
  lossless: boolean;
}

/** Cuts the metadata out of a JPEG, PNG or WebP file; null when the file is none of them or does not parse. */
export function stripImageMetadataLossless(input: Buffer | Uint8Array): StrippedImage | null {
  const data = Buffer.isBuffer(input) ? input : Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return stripJpeg(data);
  if (data.length >= 8 && data.subarray(0, 8).equals(PNG_SIGNATURE)) return stripPng(data);
  if (data.length >= 12 && data.toString('latin1', 0, 4) === 'RIFF' && data.toString('latin1', 8, 12) === 'WEBP') return stripWebp(data);
  return null;
}

/** What is kept: byte ranges of the input, or rewritten bytes. */
type Piece = [number, number] | Buffer;

/** The pieces kept, joined (the input itself when nothing was cut); empty pieces (an unused slot) are skipped. */
function join(data: Buffer, pieces: Piece[]): Buffer {
  const parts: Piece[] = [];
  for (const piece of pieces) {
    if (Array.isArray(piece)) keep(parts, piece[0], piece[1]);
    else if (piece.length > 0) parts.push(piece);
  }
  const only = parts[0];
  if (parts.length === 1 && Array.isArray(only) && only[0] === 0 && only[1] === data.length) return data;
  return Buffer.concat(parts.map((piece) => (Array.isArray(piece) ? data.subarray(piece[0], piece[1]) : piece)));
}

/** The place of the minimal EXIF block among the pieces, filled once the orientation is known (empty when 1). */
const SLOT = Buffer.alloc(0);

/** Adds a range, merging it with the previous one when they touch. */
function keep(pieces: Piece[], start: number, end: number): void {
  const last = pieces[pieces.length - 1];
  if (Array.isArray(last) && last[1] === start) last[1] = end;
  else pieces.push([start, end]);
}

// ---------------------------------------------------------------------------------------------------------------- JPEG

/** APPn segments kept: JFIF (APP0), the ICC profile (APP2, possibly in several parts), Adobe (APP14, colour transform). */
const JPEG_KEPT_APP: ReadonlyArray<[number, string]> = [
  [0xe0, 'JFIF\0'],
  [0xe2, 'ICC_PROFILE\0'],
  [0xee, 'Adobe'],
];
/** The JFIF header up to its thumbnail: identifier, version, units, densities, thumbnail width and height (0 × 0 here). */
const JFIF_HEADER_LENGTH = 14;
const SOF_MARKERS = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

/**
 * Keeps every segment but the APPn ones not listed above (Exif, XMP, extended XMP, IPTC/Photoshop, MPF, vendor blocks)
 * and comments; the entropy-coded data of each scan is copied as is; anything after the end marker (the extra
 * pictures of an MPF file, each with its own EXIF) is dropped. An orientation of 2 to 8 is written back in a minimal
 * Exif APP1 segment right after SOI, or after the JFIF segment when that one comes first.
 */
function stripJpeg(data: Buffer): StrippedImage | null {
  const ranges: Piece[] = [];
  keep(ranges, 0, 2);
  let pos = 2;
  let slot = -1;
  let segments = 0;
  let frame = false;
  let scanned = false;
  let exif: Buffer | undefined;
  let exifCount = 0;
  for (;;) {
    if (pos >= data.length || data[pos] !== 0xff) return null;
    while (pos < data.length && data[pos] === 0xff) pos++;
    if (pos >= data.length) return null;
    const marker = data[pos]!;
    const start = pos - 1;
    pos++;
    if (marker === 0xd9) {
      if (!scanned) return null;
      keep(ranges, start, pos);
      break;
    }
    if (marker === 0x00 || marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) return null;
    if (pos + 2 > data.length) return null;
    const length = data.readUInt16BE(pos);
    const end = pos + length;
    if (length < 2 || end > data.length) return null;
    const payload = data.subarray(pos + 2, end);
    if (slot < 0 && !(segments === 0 && marker === 0xe0 && payload.toString('latin1', 0, 5) === 'JFIF\0')) {
      slot = ranges.length;
      ranges.push(SLOT);
    }
    segments++;
    if (marker >= 0xe0 && marker <= 0xef) {
      if (marker === 0xe1 && payload.toString('latin1', 0, 6) === 'Exif\0\0') {
        exifCount++;
        exif = payload.subarray(6);
      }
      if (marker === 0xe0 && payload.toString('latin1', 0, 5) === 'JFIF\0' && payload.length > JFIF_HEADER_LENGTH) {
        // A JFIF thumbnail may show the picture before it was cropped: the header is kept, the thumbnail is not.
        const header = Buffer.from(data.subarray(start, start + 4 + JFIF_HEADER_LENGTH));
        header.writeUInt16BE(2 + JFIF_HEADER_LENGTH, 2);
        header[4 + 12] = 0;
        header[4 + 13] = 0;
        ranges.push(header);
      } else if (JPEG_KEPT_APP.some(([m, id]) => m === marker && payload.toString('latin1', 0, id.length) === id)) {
        keep(ranges, start, end);
      }
      pos = end;
      continue;
    }
    if (marker === 0xfe) {
      pos = end;
      continue;
    }
    if (SOF_MARKERS.has(marker)) frame = true;
    keep(ranges, start, end);
    pos = end;
    if (marker !== 0xda) continue;
    if (!frame) return null;
    scanned = true;
    const next = scanEnd(data, pos);
    if (next < 0) return null;
    keep(ranges, pos, next);
    pos = next;
  }
  const orientation = exifCount === 0 ? 1 : exifCount === 1 ? exifOrientation(exif!) : null;
  if (orientation === null || slot < 0) return null;
  const orientationKept = orientation !== 1;
  if (orientationKept) ranges[slot] = jpegSegment(0xe1, Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), orientationTiff(orientation)]));
  return { format: 'jpeg', data: join(data, ranges), orientation, orientationKept, animated: false, lossless: false };
}

function jpegSegment(marker: number, payload: Buffer): Buffer {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(2 + payload.length, 2);
  return Buffer.concat([head, payload]);
}

/** The offset of the marker that ends the entropy-coded data starting at `pos` (stuffed 0xFF00 and RSTn skipped); -1 at end of file. */
function scanEnd(data: Buffer, pos: number): number {
  let at = pos;
  for (;;) {
    at = data.indexOf(0xff, at);
    if (at < 0 || at + 1 >= data.length) return -1;
    const next = data[at + 1]!;
    if (next === 0x00 || (next >= 0xd0 && next <= 0xd7) || next === 0xff) {
      at += next === 0xff ? 1 : 2;
      continue;
    }
    return at;
  }
}

// ----------------------------------------------------------------------------------------------------------------- PNG

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/**
 * Chunks kept: the critical ones, transparency, colour (ICC, sRGB, gamma, chromaticities, CICP and HDR levels), bit
 * depth, background, histogram, palettes, pixel size, animation. Dropped: tEXt, zTXt, iTXt (XMP lives there), eXIf,
 * tIME, and any private or unknown ancillary chunk.
 */
const PNG_KEPT = new Set([
  'IHDR',
  'PLTE',
  'IDAT',
  'IEND',
  'tRNS',
  'iCCP',
  'sRGB',
  'gAMA',
  'cHRM',
  'cICP',
  'mDCV',
  'cLLI',
  'sBIT',
  'bKGD',
  'hIST',
  'sPLT',
  'pHYs',
  'acTL',
  'fcTL',
  'fdAT',
]);

/** An orientation of 2 to 8 of a still PNG is written back in a minimal `eXIf` chunk, right before the first IDAT. */
function stripPng(data: Buffer): StrippedImage | null {
  const ranges: Piece[] = [];
  keep(ranges, 0, 8);
  let pos = 8;
  let slot = -1;
  let exif: Buffer | undefined;
  let exifCount = 0;
  let idat = false;
  let animated = false;
  for (let index = 0; ; index++) {
    if (pos + 12 > data.length) return null;
    const length = data.readUInt32BE(pos);
    const type = data.toString('latin1', pos + 4, pos + 8);
    const end = pos + 12 + length;
    if (length > 0x7fffffff || end > data.length || !/^[A-Za-z]{4}$/.test(type)) return null;
    if (crc32(data.subarray(pos + 4, end - 4)) !== data.readUInt32BE(end - 4)) return null;
    if ((index === 0) !== (type === 'IHDR')) return null;
    const critical = type.charCodeAt(0) < 0x61;
    if (critical && !PNG_KEPT.has(type)) return null;
    if (type === 'eXIf') {
      exifCount++;
      exif = data.subarray(pos + 8, end - 4);
    }
    if (type === 'IDAT' && !idat) {
      slot = ranges.length;
      ranges.push(SLOT);
    }
    if (type === 'IDAT') idat = true;
    if (type === 'acTL') animated = true;
    if (PNG_KEPT.has(type)) keep(ranges, pos, end);
    pos = end;
    if (type === 'IEND') break;
  }
  if (!idat) return null;
  const orientation = exifCount === 0 ? 1 : exifCount === 1 ? exifOrientation(exif!) : null;
  if (orientation === null) return null;
  // An animation keeps its frames and loses the tag: variants are made from its first frame as stored.
  const orientationKept = orientation !== 1 && !animated;
  if (orientationKept) ranges[slot] = pngChunk('eXIf', orientationTiff(orientation));
  return { format: 'png', data: join(data, ranges), orientation, orientationKept, animated, lossless: true };
}

function pngChunk(type: string, payload: Buffer): Buffer {
  const chunk = Buffer.alloc(12 + payload.length);
  chunk.writeUInt32BE(payload.length, 0);
  chunk.write(type, 4, 'latin1');
  payload.copy(chunk, 8);
  chunk.writeUInt32BE(crc32(chunk.subarray(4, 8 + payload.length)), 8 + payload.length);
  return chunk;
}

// ---------------------------------------------------------------------------------------------------------------- WebP

/**
 * Chunks kept in an extended WebP: the header, ICC, animation, alpha, the picture. EXIF, XMP and unknown ones go. The
 * orientation is never written back: Chromium ignores a WebP's EXIF orientation, so the caller turns such a picture.
 */
const WEBP_KEPT = new Set(['VP8X', 'ICCP', 'ANIM', 'ANMF', 'ALPH', 'VP8 ', 'VP8L']);
const VP8X_EXIF = 0x08;
const VP8X_XMP = 0x04;
const VP8X_ANIMATION = 0x02;

function stripWebp(data: Buffer): StrippedImage | null {
  const riffEnd = 8 + data.readUInt32LE(4);
  if (riffEnd > data.length || riffEnd < 20) return null;
  const chunks: Buffer[] = [];
  let pos = 12;
  let exif: Buffer | undefined;
  let exifCount = 0;
  let picture = false;
  let lossless = false;
  let flags = -1;
  while (pos < riffEnd) {
    if (pos + 8 > riffEnd) return null;
    const type = data.toString('latin1', pos, pos + 4);
    const size = data.readUInt32LE(pos + 4);
    const payloadEnd = pos + 8 + size;
    if (payloadEnd > riffEnd) return null;
    const end = Math.min(riffEnd, payloadEnd + (size & 1));
    if (pos === 12 && !['VP8 ', 'VP8L', 'VP8X'].includes(type)) return null;
    if (type === 'VP8X') {
      if (pos !== 12 || size < 10) return null;
      flags = data[pos + 8]!;
    }
    if (type === 'EXIF') {
      exifCount++;
      exif = data.subarray(pos + 8, payloadEnd);
    }
    if (type === 'VP8 ' || type === 'VP8L' || type === 'ANMF') picture = true;
    if (type === 'VP8L') lossless = true;
    if (WEBP_KEPT.has(type)) {
      const chunk = type === 'VP8X' ? Buffer.from(data.subarray(pos, payloadEnd)) : data.subarray(pos, payloadEnd);
      if (type === 'VP8X') chunk[8] = flags & ~(VP8X_EXIF | VP8X_XMP);
      chunks.push(chunk);
      if (size & 1) chunks.push(Buffer.alloc(1));
    }
    // A simple WebP (VP8 or VP8L first) has no other chunk: whatever follows is not part of the image.
    if (flags < 0) break;
    pos = end;
  }
  if (!picture) return null;
  const body = Buffer.concat(chunks);
  const header = Buffer.alloc(12);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(4 + body.length, 4);
  header.write('WEBP', 8, 'latin1');
  const orientation = exifCount === 0 ? 1 : exifCount === 1 ? exifOrientation(exif!) : null;
  if (orientation === null) return null;
  const animated = flags >= 0 && (flags & VP8X_ANIMATION) !== 0;
  return { format: 'webp', data: Buffer.concat([header, body]), orientation, orientationKept: false, animated, lossless };
}

// ---------------------------------------------------------------------------------------------------------------- EXIF

/**
 * A minimal TIFF-structured EXIF block (26 bytes): big-endian header, IFD0 with one entry, Orientation (0x0112, SHORT,
 * count 1), and no next IFD. Nothing else: no date, camera, GPS, thumbnail.
 */
export function orientationTiff(orientation: number): Buffer {
  const tiff = Buffer.alloc(26);
  tiff.write('MM', 0, 'latin1');
  tiff.writeUInt16BE(42, 2);
  tiff.writeUInt32BE(8, 4);
  tiff.writeUInt16BE(1, 8);
  tiff.writeUInt16BE(0x0112, 10);
  tiff.writeUInt16BE(3, 12);
  tiff.writeUInt32BE(1, 14);
  tiff.writeUInt16BE(orientation, 18);
  return tiff;
}

/**
 * The Orientation tag (0x0112) of IFD0 in a TIFF-structured EXIF block (an `Exif\0\0` prefix is accepted): 1 to 8,
 * 1 when absent or out of range (viewers ignore such values), null when the block does not parse.
 */
export function exifOrientation(block: Buffer): number | null {
  const tiff = block.toString('latin1', 0, 6) === 'Exif\0\0' ? block.subarray(6) : block;
  if (tiff.length < 8) return null;
  const order = tiff.toString('latin1', 0, 2);
  if (order !== 'II' && order !== 'MM') return null;
  const little = order === 'II';
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  if (u16(2) !== 42) return null;
  const ifd = u32(4);
  if (ifd < 8 || ifd + 2 > tiff.length) return null;
  const count = u16(ifd);
  if (ifd + 2 + count * 12 > tiff.length) return null;
  for (let i = 0; i < count; i++) {
    const entry = ifd + 2 + i * 12;
    if (u16(entry) !== 0x0112) continue;
    if (u16(entry + 2) !== 3 || u32(entry + 4) !== 1) return null;
    const value = u16(entry + 8);
    return value >= 1 && value <= 8 ? value : 1;
  }
  return 1;
}
