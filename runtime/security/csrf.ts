/** CSRF tokens kept in the session (runtime spec, "CSRF"; DECISIONS §5). */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request } from '../http/request.js';
import { existingSession, requestSession } from '../session/session.js';

export const CSRF_FIELD = 'csrf_token';
export const CSRF_HEADER = 'X-CSRF-Token';
/** The session key of the token. */
export const CSRF_SESSION_KEY = '_csrf_token';
const SESSION_KEY = CSRF_SESSION_KEY;

/** The request's CSRF token; creates the session and the token when needed. */
export function csrfToken(request: Request): string {
  const session = requestSession(request);
  let token = session.get<string>(SESSION_KEY);
  if (typeof token !== 'string' || token.length === 0) {
    token = randomBytes(32).toString('hex');
    session.set(SESSION_KEY, token);
  }
  return token;
}

/** The token sent by the client: the `csrf_token` field, else the `X-CSRF-Token` header. */
export function sentCsrfToken(request: Request, field = CSRF_FIELD, header = CSRF_HEADER): string | undefined {
  const fromBody = request.body[field]?.[0];
  if (fromBody) return fromBody;
  const fromJson = request.jsonBody[field];
  if (typeof fromJson === 'string' && fromJson) return fromJson;
  return request.header(header) || undefined;
}

/** True when the sent token equals the session's, compared in constant time. Never creates a session. */
export function verifyCsrf(request: Request, field = CSRF_FIELD, header = CSRF_HEADER): boolean {
  const expected = existingSession(request)?.get<string>(SESSION_KEY);
  const sent = sentCsrfToken(request, field, header);
  if (typeof expected !== 'string' || !expected || !sent) return false;
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(sent, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
