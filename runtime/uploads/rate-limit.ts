/**
 * The upload limit (docs/decisions.md#uploads-and-media; docs/uploads.md "Rate limit"): 10 requests carrying at
 * least one file per client address (IPv6 per /64, as the login limit counts it) in a sliding window of 60 s, counted in the attempt store of the login limit
 * (memory, or the `auth_rate_limit_attempts` table with RATE_LIMIT_STORE=database), action `upload`, every
 * request counted (`hits`).
 */
import { errorPage } from '../controller.js';
import type { Request } from '../http/request.js';
import type { Response } from '../http/response.js';
import { checkLimit, clientAddressKey, getRateLimitStore, reserveAttempt, type LimitStatus } from '../rate-limit/index.js';

/** Action name of uploads in the attempt stores. */
export const UPLOAD_ACTION = 'upload';
/** Original name `UPLOAD_MAX_PAR_FENETRE`: upload requests allowed per address in the window. */
export const UPLOAD_MAX_PER_WINDOW = 10;
/** Original name `UPLOAD_RATE_LIMIT_WINDOW`: the sliding window, in seconds. */
export const UPLOAD_RATE_LIMIT_WINDOW = 60;

/** The address as the login limit counts it: an IPv6 address per /64, `::ffff:a.b.c.d` as the IPv4 address. */
function uploadKey(ip: string): string {
  return `ip:${clientAddressKey(ip)}`;
}

/** `{ limited, retryAfter }` for the address: limited once it has 10 upload requests in the last 60 s. */
export function uploadLimitStatus(ip: string, now?: number): Promise<LimitStatus> {
  return checkLimit({ action: UPLOAD_ACTION, key: uploadKey(ip), max: UPLOAD_MAX_PER_WINDOW, windowSeconds: UPLOAD_RATE_LIMIT_WINDOW, count: 'hits', now });
}

/** `is_upload_rate_limited(ip)`: true once the address has 10 upload requests in the last 60 s. */
export async function isUploadRateLimited(ip: string, now?: number): Promise<boolean> {
  return (await uploadLimitStatus(ip, now)).limited;
}

/** `record_upload_attempt(ip)`: counts one upload request for the address. */
export async function recordUploadAttempt(ip: string, now?: number): Promise<void> {
  await getRateLimitStore().record({ action: UPLOAD_ACTION, key: uploadKey(ip), ip, success: true, at: now ?? Date.now() });
}

/**
 * True when the request carries at least one non-empty file part: a part with a file name or with bytes (a file
 * input left empty sends a part with neither, and does not count).
 */
export function hasUploadedFile(request: Request): boolean {
  return Object.values(request.files).some((file) => file.filename !== '' || file.size > 0);
}

/**
 * For upload handlers, before anything is stored: null when the request may go on (it is then counted), or the
 * 429 answer with `Retry-After` (the `rate_limited` envelope for API routes and JSON clients, else the
 * `errors/429.html` page). A request without a file is neither counted nor refused; a refused one is not counted.
 * The request is counted before it is checked (reserveAttempt), so a burst of parallel uploads from one address
 * gets 10 through, not all of those that read the count before any was recorded.
 */
export async function guardUpload(request: Request, options: { api?: boolean } = {}): Promise<Response | null> {
  if (!hasUploadedFile(request)) return null;
  const { ticket, retryAfter } = await reserveAttempt({
    action: UPLOAD_ACTION,
    keys: [uploadKey(request.ip)],
    ip: request.ip,
    max: UPLOAD_MAX_PER_WINDOW,
    windowSeconds: UPLOAD_RATE_LIMIT_WINDOW,
    count: 'hits',
  });
  // Accepted, the reservation is the counted upload: nothing to settle.
  if (ticket) return null;
  const message = `Trop de dépôts de fichiers : ${UPLOAD_MAX_PER_WINDOW} au plus par minute. Réessayez dans ${retryAfter} s.`;
  const response = errorPage(429, request, { retry_after: retryAfter }, { api: options.api, code: 'rate_limited', message });
  response.headers['Retry-After'] = String(retryAfter);
  return response;
}
