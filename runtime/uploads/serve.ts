/**
 * `GET /media/<relative_path>` (docs/uploads.md "`/media/<path>`"): the bytes of a stored file with a Content-Type
 * guessed from its name, a strong ETag / Last-Modified / 304, one byte range (206, 416), never a folder, never a hidden
 * file, 404 for every unsafe or missing path. Who may read which file is the Application's part (runtime/application.ts):
 * `media_public_categories` are public; the others need a signed-in session, and a file that a media row links to a
 * record follows that record's read rule (runtime/media/access.ts).
 */
import fs from 'node:fs';
import { get } from '../config.js';
import { errorPage } from '../controller.js';
import type { Request } from '../http/request.js';
import { Response } from '../http/response.js';
import { contentTypeFor, fileResponse } from '../http/static.js';
import { UploadError } from './errors.js';
import { mediaPathToStoragePath, normalizeMediaPath, safeCategory } from './paths.js';

/** URL prefix of the media route. */
export const MEDIA_PREFIX = '/media/';

/** Types a browser may show in the page; any other is sent as a download (an uploaded HTML or SVG never runs here). */
const INLINE_TYPES: ReadonlySet<string> = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/x-icon',
  'application/pdf',
  'text/plain; charset=utf-8',
]);

/** True when the category is listed in `media_public_categories` (default: images). */
export function isPublicMediaCategory(category: string): boolean {
  return get('media_public_categories').includes(category);
}

/**
 * The media path of a URL tail (after `/media/`), or null when it must be a 404: percent-decoded once (a malformed
 * or overlong sequence is refused; `%252e` stays the literal `%2e`), then normalizeMediaPath, then a valid
 * category and a file name, with no segment starting with a dot.
 */
export function mediaPathFromUrl(tail: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(tail);
  } catch {
    return null;
  }
  try {
    const normalized = normalizeMediaPath(decoded);
    const segments = normalized.split('/');
    if (segments.length < 2 || segments.some((segment) => segment.startsWith('.'))) return null;
    safeCategory(segments[0]!);
    return normalized;
  } catch (err) {
    if (err instanceof UploadError) return null;
    throw err;
  }
}

/** The URL of a media path: `/media/` and its segments, each percent-encoded. */
export function mediaUrl(mediaPath: string): string {
  return MEDIA_PREFIX + normalizeMediaPath(mediaPath).split('/').map(encodeURIComponent).join('/');
}

export interface ServeMediaOptions {
  /** `Cache-Control` of the answer; default `no-cache` (revalidated with ETag at each use). */
  cacheControl?: string;
  /** Another upload root (default: the configured one). */
  root?: string;
}

/**
 * `serve_media_file(path)`: the file at a media path (already decoded), or the 404 page (a bare 404 without a
 * request) for any unsafe, hidden, missing or non-file path. Checks no permission: see the Application's route.
 */
export function serveMediaFile(mediaPath: string, request?: Request, options: ServeMediaOptions = {}): Response {
  const notFound = (): Response => (request ? errorPage(404, request) : new Response(404, 'Page introuvable.', 'text/plain; charset=utf-8'));
  let file: string;
  try {
    const normalized = normalizeMediaPath(mediaPath);
    if (normalized.split('/').some((segment) => segment.startsWith('.'))) return notFound();
    file = mediaPathToStoragePath(normalized, { root: options.root });
  } catch (err) {
    if (err instanceof UploadError) return notFound();
    throw err;
  }
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    return notFound();
  }
  if (!stat.isFile()) return notFound();
  const type = contentTypeFor(file);
  // Uploads are written once under a unique name, never changed in place: a strong ETag, and byte ranges (PDF viewers).
  const response = fileResponse(request, file, stat, { cacheControl: options.cacheControl ?? 'no-cache', contentType: type, ranges: true });
  if (!INLINE_TYPES.has(type)) response.headers['Content-Disposition'] = 'attachment';
  return response;
}
