/**
 * CSRF tokens (docs/runtime.md "CSRF"). Two kinds, both 64 hex characters:
 *
 * - A session that holds a user or a pending second-factor challenge (or already holds a token) keeps a random
 *   token in the session, renewed at login and at the password step.
 * - An anonymous visitor's token is the HMAC-SHA256, under the application's secret, of its `session_id` (the
 *   one it sent, else a new one sent with the response). That id is not stored while the session holds nothing:
 *   the server recomputes the token on the POST; without that cookie, or with another secret, it does not verify.
 *   A page with a form thus costs no stored session (a flood of anonymous `GET /login` fills no store).
 *
 * Comparisons are in constant time.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request } from '../http/request.js';
import { existingSession, getSessionId, tokenSessionId, type RequestSession } from '../session/session.js';
import { SESSION_MFA_USER_KEY } from '../session/store.js';
import { appSecret } from './app-secret.js';

export const CSRF_FIELD = 'csrf_token';
export const CSRF_HEADER = 'X-CSRF-Token';
/** The session key of the token. */
export const CSRF_SESSION_KEY = '_csrf_token';
const SESSION_KEY = CSRF_SESSION_KEY;
/** request.state key: the anonymous token already signed for this request, with the id it signs. */
const SIGNED_STATE = 'csrfSignedToken';

/**
 * The request's CSRF token. A session with a user or a pending challenge (or with a token already) keeps its token
 * there, created on first use; anyone else gets the signed token of their session id (docs/runtime.md "CSRF"),
 * and nothing is stored for it.
 */
export function csrfToken(request: Request): string {
  const session = existingSession(request);
  const stored = session?.get<string>(SESSION_KEY);
  if (typeof stored === 'string' && stored.length > 0) return stored;
  if (session && !session.deleted && isPrivileged(session)) {
    const token = randomBytes(32).toString('hex');
    session.set(SESSION_KEY, token);
    return token;
  }
  // One HMAC per request: a list page asks for the token once per row (its delete forms).
  const id = tokenSessionId(request);
  const signed = request.state[SIGNED_STATE] as { readonly id: string; readonly token: string } | undefined;
  if (signed?.id === id) return signed.token;
  const token = anonymousToken(id);
  request.state[SIGNED_STATE] = { id, token };
  return token;
}

/** The HMAC of an anonymous visitor's session id under the application's secret, as hex. */
function anonymousToken(id: string): string {
  return createHmac('sha256', appSecret()).update(`csrf:${id}`).digest('hex');
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
 * True when the sent token is the session's, or — for a session without a user or a challenge — the signed token of
 * the visitor's `session_id` cookie; compared in constant time. Never creates a session or a cookie.
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
  const sentId = getSessionId(request);
  return sentId !== undefined && sameText(anonymousToken(sentId), sent);
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
