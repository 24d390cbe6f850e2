/** Static files under `/static` with Content-Type, ETag / Last-Modified, 304 and containment. */
import fs from 'node:fs';
import path from 'node:path';
import type { Request } from './request.js';
import { Response } from './response.js';
import { ifRangeHolds, noneMatchHits, parseRange, type RangeAnswer } from './conditional.js';
import { acceptedEncodings } from './assets.js';

const TYPES: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.pdf': 'application/pdf',
  '.xml': 'application/xml; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

/** Content-Type guessed from a file name, `application/octet-stream` when unknown. */
export function contentTypeFor(file: string): string {
  return TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * The file under `root` named by a URL path tail, or null when the tail is unsafe or names nothing.
 * The tail is percent-decoded once: an encoded `%2e%2e` becomes `..` and is refused; a double-encoded
 * `%252e` stays the literal name `%2e`. Backslashes, null bytes, `.` and `..` segments are refused,
 * and the real path (symbolic links resolved) must stay inside the root.
 */
export function resolveInside(root: string, tail: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(tail);
  } catch {
    return null;
  }
  if (!decoded || decoded.includes('\0') || decoded.includes('\\') || decoded.startsWith('/')) return null;
  const segments = decoded.split('/');
  if (segments.some((s) => s === '..' || s === '.' || s === '' || /^[A-Za-z]:/.test(s))) return null;
  const base = path.resolve(root);
  const candidate = path.resolve(base, ...segments);
  if (!candidate.startsWith(base + path.sep)) return null;
  try {
    const real = fs.realpathSync(candidate);
    const realBase = fs.realpathSync(base);
    if (!real.startsWith(realBase + path.sep)) return null;
    return fs.statSync(real).isFile() ? real : null;
  } catch {
    return null;
  }
}

/**
 * Serves a file from the first root that holds it, or returns null (the caller answers 404). `cacheControl` is a
 * value or a function of the tail. With `precompressed`, a `<file>.br` or `<file>.gz` beside the file (written by
 * `fw build:assets`) is sent instead when the client's `Accept-Encoding` takes it, with `Content-Encoding` and
 * `Vary: Accept-Encoding` (docs/runtime.md "Static files").
 */
export function serveStatic(
  request: Request,
  roots: readonly string[],
  tail: string,
  cacheControl?: string | ((tail: string) => string),
  precompressed = false,
): Response | null {
  for (const root of roots) {
    const file = resolveInside(root, tail);
    if (!file) continue;
    const cache = typeof cacheControl === 'function' ? cacheControl(tail) : cacheControl;
    const options: FileResponseOptions = cache === undefined ? {} : { cacheControl: cache };
    if (!precompressed) return fileResponse(request, file, fs.statSync(file), options);
    const variants = (['br', 'gzip'] as const)
      .map((encoding) => ({ encoding, file: resolveInside(root, `${tail}.${encoding === 'br' ? 'br' : 'gz'}`) }))
      .filter((variant) => variant.file !== null);
    if (variants.length === 0) return fileResponse(request, file, fs.statSync(file), options);
    const accepted = acceptedEncodings(request.header('accept-encoding'));
    const chosen = accepted.map((encoding) => variants.find((variant) => variant.encoding === encoding)).find(Boolean);
    const response = chosen
      ? fileResponse(request, chosen.file!, fs.statSync(chosen.file!), { ...options, contentType: contentTypeFor(file) })
      : fileResponse(request, file, fs.statSync(file), options);
    if (chosen && response.status !== 304) response.headers['Content-Encoding'] = chosen.encoding;
    response.headers.Vary = 'Accept-Encoding';
    return response;
  }
  return null;
}

export interface FileResponseOptions {
  /** `Cache-Control`; default `no-cache` (kept, revalidated at each use). */
  cacheControl?: string;
  /** Default: guessed from the file name. */
  contentType?: string;
  /**
   * Honour `Range` and `If-Range` (206, 416, `Accept-Ranges: bytes`) and write a strong ETag (a range may only be
   * resumed against a strong one). For files written once and never changed in place, as the uploads are.
   */
  ranges?: boolean;
}

/**
 * The answer for an existing file: 200 streamed from disk with `Content-Length`, or 304 when the client's
 * `If-None-Match` (weak comparison, lists and `*`) or `If-Modified-Since` says it holds the same version; `ETag`
 * (size and modification time) and `Last-Modified` either way. With `ranges`, one byte range of a GET gives a 206,
 * a range outside the file a 416 (docs/uploads.md "`/media/<path>`").
 */
export function fileResponse(request: Request | undefined, file: string, stat: fs.Stats, options: FileResponseOptions = {}): Response {
  const contentType = options.contentType ?? contentTypeFor(file);
  const tag = `"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
  const etag = options.ranges === true ? tag : `W/${tag}`;
  const lastModified = new Date(Math.floor(stat.mtimeMs / 1000) * 1000).toUTCString();
  const headers: Record<string, string> = { ETag: etag, 'Last-Modified': lastModified, 'Cache-Control': options.cacheControl ?? 'no-cache' };
  if (options.ranges === true) headers['Accept-Ranges'] = 'bytes';
  if (request && isFresh(request, etag, stat.mtimeMs)) return new Response(304, '', contentType, headers);
  const range = request && options.ranges === true ? requestedRange(request, etag, lastModified, stat) : ({ kind: 'whole' } as RangeAnswer);
  if (range.kind === 'unsatisfiable') {
    return new Response(416, `Plage demandée hors du fichier (${stat.size} octets).`, 'text/plain; charset=utf-8', {
      ...headers,
      'Content-Range': `bytes */${stat.size}`,
    });
  }
  const response = new Response(200, '', contentType, headers);
  response.filePath = file;
  response.fileSize = stat.size;
  if (range.kind === 'partial') {
    response.status = 206;
    response.fileStart = range.start;
    response.fileSize = range.end - range.start + 1;
    response.headers['Content-Range'] = `bytes ${range.start}-${range.end}/${stat.size}`;
  }
  response.headers['Content-Length'] = String(response.fileSize);
  return response;
}

/** The range a GET asks for, when its `If-Range` (if any) still holds; HEAD and other methods get the whole file. */
function requestedRange(request: Request, etag: string, lastModified: string, stat: fs.Stats): RangeAnswer {
  const header = request.header('range');
  if (header === undefined || request.method !== 'GET') return { kind: 'whole' };
  const ifRange = request.header('if-range');
  if (ifRange !== undefined && !ifRangeHolds(ifRange, etag, lastModified, stat.mtimeMs)) return { kind: 'whole' };
  return parseRange(header, stat.size);
}

function isFresh(request: Request, etag: string, mtimeMs: number): boolean {
  const noneMatch = request.header('if-none-match');
  if (noneMatch !== undefined) return noneMatchHits(noneMatch, etag);
  const since = request.header('if-modified-since');
  if (since === undefined) return false;
  const time = Date.parse(since);
  return !Number.isNaN(time) && Math.floor(mtimeMs / 1000) * 1000 <= time;
}
