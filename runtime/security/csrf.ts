/**
 * CSRF tokens (docs/runtime.md "CSRF"). Two kinds, both 64 hex characters:
 *
 * - A session that holds a user or a pending second-factor challenge (or already holds a token) keeps a random
 *   token in the session, renewed at login and at the password step.
 * - An anonymous visitor gets no session for a token: the token is the HMAC-SHA256, under the application's secret,
 *   of a random id kept in the visitor's `csrf_id` cookie (HttpOnly, SameSite=Strict, Secure). The server stores
 *   nothing and recomputes it on the POST; without that cookie, or with another secret, it does not verify. A page
 *   with a form thus costs no stored session (a flood of anonymous `GET /login` fills no store).
 *
 * Comparisons are in constant time.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request } from '../http/request.js';
import type { Response } from '../http/response.js';
import { existingSession, type RequestSession } from '../session/session.js';
import { SESSION_MFA_USER_KEY } from '../session/store.js';
import { appSecret } from './app-secret.js';

export const CSRF_FIELD = 'csrf_token';
export const CSRF_HEADER = 'X-CSRF-Token';
/** The session key of the token. */
export const CSRF_SESSION_KEY = '_csrf_token';
/** The cookie that binds an anonymous visitor's token to its browser. */
export const CSRF_COOKIE = 'csrf_id';
const COOKIE_ATTRIBUTES = 'HttpOnly; SameSite=Strict; Secure; Path=/';
const SESSION_KEY = CSRF_SESSION_KEY;
const ID_PATTERN = /^[0-9a-f]{64}$/;
/** request.state key: a `csrf_id` made during this request, to send with its response. */
const NEW_COOKIE_STATE = 'csrfNewCookie';
/** request.state key: the anonymous token already signed for this request, with the id it signs. */
const SIGNED_STATE = 'csrfSignedToken';

/**
 * The request's CSRF token. A session with a user or a pending challenge (or with a token already) keeps its token there, created on
 * first use; anyone else gets the signed token of their `csrf_id` cookie, the cookie created when absent (sent
 * by `sendCsrfCookie` with the response), and no session.
 */
export function csrfToken(request: Request): string {
  const session = existingSession(request);
  const stored = session?.get<string>(SESSION_KEY);
  if (typeof stored === 'string' && stored.length > 0) return stored;
  if (session && isPrivileged(session)) {
    const token = randomBytes(32).toString('hex');
    session.set(SESSION_KEY, token);
    return token;
  }
  // One HMAC per request: a list page asks for the token once per row (its delete forms).
  const id = anonymousId(request) ?? newAnonymousId(request);
  const signed = request.state[SIGNED_STATE] as { readonly id: string; readonly token: string } | undefined;
  if (signed?.id === id) return signed.token;
  const token = anonymousToken(id);
  request.state[SIGNED_STATE] = { id, token };
  return token;
}

/** The HMAC of an anonymous visitor's id under the application's secret, as hex. */
function anonymousToken(id: string): string {
  return createHmac('sha256', appSecret()).update(`csrf:${id}`).digest('hex');
}

/** The visitor's `csrf_id` (sent, or made earlier in this request), when well-formed. */
function anonymousId(request: Request): string | undefined {
  const made = request.state[NEW_COOKIE_STATE];
  if (typeof made === 'string') return made;
  const sent = request.cookies[CSRF_COOKIE];
  return typeof sent === 'string' && ID_PATTERN.test(sent) ? sent : undefined;
}

function newAnonymousId(request: Request): string {
  const id = randomBytes(32).toString('hex');
  request.state[NEW_COOKIE_STATE] = id;
  return id;
}

/** Adds the `csrf_id` cookie made during the request, if any, to its response (called by the Application). */
export function sendCsrfCookie(request: Request, response: Response): void {
  const id = request.state[NEW_COOKIE_STATE];
  if (typeof id === 'string') response.addCookie(`${CSRF_COOKIE}=${id}; ${COOKIE_ATTRIBUTES}`);
}

/** The token sent by the client: the `csrf_token` field, else the `X-CSRF-Token` header. */
export function sentCsrfToken(request: Request, field = CSRF_FIELD, header = CSRF_HEADER): string | undefined {
  const fromBody = request.body[field]?.[0];
  if (fromBody) return fromBody;
  const fromJson = request.jsonBody[field];
  if (typeof fromJson === 'string' && fromJson) return fromJson;
  return request.header(header) || undefined;
}

/**
 * True when the sent token is the session's, or — for a session without a user or a challenge — the signed token of the
 * visitor's `csrf_id` cookie; compared in constant time. Never creates a session or a cookie.
 */
export function verifyCsrf(request: Request, field = CSRF_FIELD, header = CSRF_HEADER): boolean {
  const sent = sentCsrfToken(request, field, header);
  if (!sent) return false;
  const session = existingSession(request);
  const stored = session?.get<string>(SESSION_KEY);
  if (typeof stored === 'string' && stored && sameText(stored, sent)) return true;
  // A signed-in session, or one between the password and the code, accepts its own token only: the anonymous one
  // of the same browser died at that step.
  if (session && isPrivileged(session)) return false;
  const sentId = request.cookies[CSRF_COOKIE];
  return typeof sentId === 'string' && ID_PATTERN.test(sentId) && sameText(anonymousToken(sentId), sent);
}

/** A session whose token must be its own: a signed-in user, or a pending second-factor challenge. */
function isPrivileged(session: RequestSession): boolean {
  return Boolean(session.get('user')) || session.get(SESSION_MFA_USER_KEY) !== undefined;
}

function sameText(expected: string, sent: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(sent, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
