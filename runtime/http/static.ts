/** Static files under `/static` with Content-Type, ETag / Last-Modified, 304 and containment. */
import fs from 'node:fs';
import path from 'node:path';
import type { Request } from './request.js';
import { Response } from './response.js';

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

/** Serves a file from the first root that holds it, or returns null (the caller answers 404). */
export function serveStatic(request: Request, roots: readonly string[], tail: string, cacheControl?: string): Response | null {
  for (const root of roots) {
    const file = resolveInside(root, tail);
    if (file) return fileResponse(request, file, fs.statSync(file), cacheControl);
  }
  return null;
}

/**
 * The answer for an existing file: 200 streamed from disk with `Content-Length`, or 304 when the client's
 * `If-None-Match` / `If-Modified-Since` says it holds the same version; `ETag` (size and modification time) and
 * `Last-Modified` either way. `cacheControl` defaults to `no-cache` (kept, revalidated at each use).
 */
export function fileResponse(request: Request | undefined, file: string, stat: fs.Stats, cacheControl = 'no-cache', contentType = contentTypeFor(file)): Response {
  const etag = `W/"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
  const lastModified = new Date(Math.floor(stat.mtimeMs / 1000) * 1000).toUTCString();
  const headers = { ETag: etag, 'Last-Modified': lastModified, 'Cache-Control': cacheControl };
  if (request && isFresh(request, etag, stat.mtimeMs)) return new Response(304, '', contentType, headers);
  const response = new Response(200, '', contentType, headers);
  response.filePath = file;
  response.fileSize = stat.size;
  response.headers['Content-Length'] = String(stat.size);
  return response;
}

function isFresh(request: Request, etag: string, mtimeMs: number): boolean {
  const noneMatch = request.header('if-none-match');
  if (noneMatch !== undefined) {
    return noneMatch.split(',').some((tag) => {
      const t = tag.trim();
      return t === '*' || t === etag || `W/${t}` === etag || t.replace(/^W\//, '') === etag.replace(/^W\//, '');
    });
  }
  const since = request.header('if-modified-since');
  if (since === undefined) return false;
  const time = Date.parse(since);
  return !Number.isNaN(time) && Math.floor(mtimeMs / 1000) * 1000 <= time;
}
