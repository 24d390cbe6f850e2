/** The single static API token (docs/runtime.md "API token"). The token is never logged or echoed. */
import { timingSafeEqual, createHash } from 'node:crypto';
import type { Request } from '../http/request.js';
import type { Handler } from '../http/router.js';
import { apiError } from '../http/helpers.js';

// The scheme is case-insensitive (RFC 9110 §11.1); the token is one run of non-space characters.
const BEARER = /^Bearer ([^\s]+)$/i;

/** The token of `Authorization: Bearer <token>`, or null when the header is absent or badly formed. */
export function getApiTokenFromRequest(request: Request): string | null {
  const header = request.header('authorization');
  if (!header) return null;
  const match = BEARER.exec(header.trim());
  return match ? match[1]! : null;
}

/** True when the request carries the configured token; false when `API_TOKEN` is unset or empty (fail-secure). */
export function isValidApiToken(request: Request): boolean {
  const expected = process.env.API_TOKEN ?? '';
  const sent = getApiTokenFromRequest(request);
  if (!expected || !sent) return false;
  // Hash both sides so the comparison takes the same time whatever the lengths.
  const a = createHash('sha256').update(expected).digest();
  const b = createHash('sha256').update(sent).digest();
  return timingSafeEqual(a, b);
}

/** Wraps a handler so that it runs only with a valid Bearer token; otherwise a 401 error envelope. */
export function requireApiToken(handler: Handler): Handler {
  return (request) => {
    const header = request.header('authorization');
    if (!header) return apiError('Authentification requise : envoyez « Authorization: Bearer <jeton> ».', 401, 'unauthorized');
    if (getApiTokenFromRequest(request) === null) {
      return apiError('En-tête Authorization invalide : la forme attendue est « Bearer <jeton> ».', 401, 'invalid_authorization_header');
    }
    if (!isValidApiToken(request)) return apiError('Jeton API invalide.', 401, 'invalid_token');
    return handler(request);
  };
}
