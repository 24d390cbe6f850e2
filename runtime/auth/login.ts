/**
 * The login pages (docs/decisions.md#login-and-csrf-answers, #one-user-model; docs/auth.md):
 * `GET /login`, `POST /login`, `POST /logout`. One chain: the user found by `POST /login` is the one
 * `fw auth:user:create` wrote in `users`, and the session user it stores (`{ id, login, roles, permissions }`)
 * is what `AuthMiddleware`, `requireRole`, `requirePermission` and the template `can()` read.
 */
import { appLayout, BaseController, errorPage } from '../controller.js';
import { noStore } from '../http/helpers.js';
import type { Request } from '../http/request.js';
import type { Response } from '../http/response.js';
import { trans } from '../translations.js';
import { getLogger } from '../logger.js';
import { existingSession, requestSession } from '../session/session.js';
import { logAuthEvent } from './audit.js';
import { passwordForgotUrl } from './password-reset.js';
import { hashPassword, isPbkdf2Hash, passwordNeedsRehash, verifyPasswordEvenly } from './passwords.js';
import { reserveAttempt, settleAttempt } from '../rate-limit/index.js';
import { LOGIN_ACTION, LOGIN_MAX_FAILURES, LOGIN_WINDOW_SECONDS, loginAttemptKeys } from './login-limit.js';
import {
  findUserByEmail,
  hasActiveMfaFactor,
  hasLegacyPasswordHashes,
  loadUserAccess,
  normalizeEmail,
  recordSuccessfulLogin,
  updatePasswordHash,
  type AuthUser,
} from './users.js';

const log = getLogger('fw.auth');

/** Where a successful login goes when no `next` is given. */
export const DEFAULT_LOGIN_REDIRECT = '/';
export const LOGIN_TEMPLATE = 'auth/login.html';

/** The session key of the signed-in user (docs/decisions.md#one-user-model). */
export const SESSION_USER_KEY = 'user';
/** The CSRF token's session key: dropped at login so the signed-in session gets a token of its own. */
const CSRF_SESSION_KEY = '_csrf_token';
/** The keys of a pending second-factor challenge (docs/auth.md "Second factor"), set by fw-mvc/mfa. */
const MFA_CHALLENGE_KEYS = ['_auth_mfa_user_id', '_auth_mfa_started_at', '_auth_mfa_next'] as const;

/** What the session holds for a signed-in user; role and permission checks read it, never the database. */
export interface SessionUser {
  id: number;
  login: string;
  roles: string[];
  permissions: string[];
}

/**
 * `next` when it is a same-site relative path, else undefined: it must start with one `/`, and hold no
 * backslash, no control character and no scheme-relative start (`//evil`, `/\evil`, `https://evil` are refused).
 */
export function safeNext(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2048) return undefined;
  if (!value.startsWith('/') || value.startsWith('//')) return undefined;
  // A backslash is read as a slash by browsers (`/\evil.example` is `//evil.example`); controls and spaces are stripped by them.
  if (/[\\\u0000-\u0020\u007f]/.test(value)) return undefined;
  return value;
}

/** The `next` a request carries: the form field on a POST, the query parameter on a GET. */
function requestedNext(request: Request): string | undefined {
  return safeNext(request.body.next?.[0] ?? request.params.next?.[0]);
}

function auditDetails(request: Request, userId: number | null, metadata?: Record<string, unknown>) {
  return { userId, ip: request.ip, userAgent: request.header('user-agent') ?? null, metadata };
}

/**
 * The login form, with the 401 message when `error` is set; the password is never sent back. `forgot_url` is the
 * "forgotten password" page when registerPasswordResetRoutes added it, else empty.
 */
function loginPage(request: Request, status: number, login = '', error = ''): Response {
  // csrf_token() in the template creates the session (and its cookie) on this response.
  const context = { login, error, next: requestedNext(request) ?? '', forgot_url: passwordForgotUrl() ?? '' };
  const response = BaseController.render(LOGIN_TEMPLATE, { status, request, context, base: appLayout() });
  return noStore(response);
}

/** `GET /login`: the form; a signed-in user goes straight to `next` (or `/`). */
export function showLogin(request: Request): Response {
  if (existingSession(request)?.get(SESSION_USER_KEY)) return BaseController.redirect(requestedNext(request) ?? DEFAULT_LOGIN_REDIRECT);
  return loginPage(request, 200);
}

/**
 * `POST /login`. Unknown e-mail, wrong password and disabled account answer the same 401 page after the same
 * work (see verifyLoginPassword); only their audit events differ. The attempt is counted before the password is
 * checked (reserveAttempt): past five failures in 60 s for the client's address or for the account (the typed
 * login when it matches none) it answers 429 with `Retry-After` and checks nothing, even under concurrent
 * requests. A success clears the account's counter, not the address's.
 */
export async function submitLogin(request: Request): Promise<Response> {
  const rawLogin = (request.body.login?.[0] ?? '').trim();
  const password = request.body.password?.[0] ?? '';
  const login = normalizeEmail(rawLogin);

  const user = login ? await findUserByEmail(login) : null;
  const keys = loginAttemptKeys(request.ip, login, user?.id ?? null);
  const limit = await reserveAttempt({
    action: LOGIN_ACTION,
    keys,
    ip: request.ip,
    userId: user?.id ?? null,
    max: LOGIN_MAX_FAILURES,
    windowSeconds: LOGIN_WINDOW_SECONDS,
  });
  if (!limit.ticket) {
    logAuthEvent('login.rate_limited', auditDetails(request, null, { login, retry_after: limit.retryAfter }));
    const response = errorPage(429, request, { retry_after: limit.retryAfter });
    response.headers['Retry-After'] = String(limit.retryAfter);
    return response;
  }

  const passwordOk = await verifyLoginPassword(password, user?.passwordHash ?? null);
  if (!user || !passwordOk || !user.isActive) {
    // The reservation stays: it is the failure.
    await settleAttempt(limit.ticket, false);
    const event = user && !user.isActive ? 'user.disabled' : 'login.failed';
    logAuthEvent(event, auditDetails(request, user?.id ?? null, { login, reason: !user ? 'unknown_login' : !passwordOk ? 'wrong_password' : 'disabled' }));
    return loginPage(request, 401, rawLogin, trans('auth.login.failed'));
  }

  // The address keeps its earlier failures; the account's counter starts again.
  const succeeded = (): Promise<void> => settleAttempt(limit.ticket!, true, keys.slice(1));
  await rehashIfNeeded(user, password);
  // Fail closed: a user with an active second factor never gets a session from the password alone.
  if (await hasActiveMfaFactor(user.id)) {
    await succeeded();
    if (!secondFactor) {
      log.error(
        `L'utilisateur ${user.id} a un second facteur actif mais le module MFA n'est pas branché : appelez registerMfaRoutes(router) de fw-mvc/mfa. Connexion refusée.`,
      );
      return errorPage(503, request, { detail: trans('auth.mfa.unavailable') });
    }
    logAuthEvent('mfa.challenge.required', auditDetails(request, user.id));
    return secondFactor.start(request, user, requestedNext(request));
  }
  await openSession(request, user);
  await succeeded();
  await recordSuccessfulLogin(user.id);
  logAuthEvent('login.success', auditDetails(request, user.id));
  return BaseController.redirect(requestedNext(request) ?? DEFAULT_LOGIN_REDIRECT);
}

/** How long the answer of hasLegacyPasswordHashes is reused (ms). */
const LEGACY_CHECK_MS = 300_000;
let legacyHashes: { value: boolean; at: number } | null = null;

/**
 * The password check of a login, the same work for an unknown e-mail, an Argon2 hash and a legacy PBKDF2 hash:
 * one Argon2 verification always, and one PBKDF2 verification while some user still has a PBKDF2 hash (a
 * global fact, read every five minutes, that says nothing about the account tried).
 */
async function verifyLoginPassword(password: string, stored: string | null): Promise<boolean> {
  const now = Date.now();
  if (!legacyHashes || now - legacyHashes.at >= LEGACY_CHECK_MS) legacyHashes = { value: await hasLegacyPasswordHashes(), at: now };
  // A legacy hash met here is one the last reading missed: every login does the PBKDF2 work from now on.
  if (stored !== null && isPbkdf2Hash(stored)) legacyHashes.value = true;
  return verifyPasswordEvenly(password, stored, legacyHashes.value);
}

/**
 * The second step of a login, installed by `registerMfaRoutes(router)` of `fw-mvc/mfa` (docs/auth.md "Second
 * factor"): `start` keeps the anonymous session, stores the challenge and answers the redirect to `/login/mfa`.
 */
export interface SecondFactor {
  start(request: Request, user: AuthUser, next: string | undefined): Response | Promise<Response>;
}

let secondFactor: SecondFactor | null = null;

/** Installs (or, with null, removes) the second step of logins. */
export function setSecondFactor(provider: SecondFactor | null): void {
  secondFactor = provider;
}

/** A legacy PBKDF2 hash, or an Argon2 hash weaker than the minimum, is replaced while the password is at hand. */
async function rehashIfNeeded(user: AuthUser, password: string): Promise<void> {
  if (!passwordNeedsRehash(user.passwordHash)) return;
  try {
    await updatePasswordHash(user.id, await hashPassword(password));
  } catch (err) {
    // The login itself succeeded: a failed upgrade is retried at the next login.
    log.warning(`Mise à niveau du hachage du mot de passe impossible pour l'utilisateur ${user.id} : ${(err as Error)?.message ?? String(err)}`);
  }
}

/**
 * Signs the user in on the request's session: a new session id (the pre-login id is deleted when the response
 * is sent, against fixation), a new CSRF token, and the session user with its roles and permissions.
 */
export async function openSession(request: Request, user: Pick<AuthUser, 'id' | 'email'>): Promise<SessionUser> {
  const sessionUser = await loadSessionUser(user);
  signInSession(request, sessionUser);
  return sessionUser;
}

/** The session user of an account, roles and permissions read from the database (the part of openSession that may fail). */
export async function loadSessionUser(user: Pick<AuthUser, 'id' | 'email'>): Promise<SessionUser> {
  const access = await loadUserAccess(user.id);
  return { id: user.id, login: user.email, roles: access.roles, permissions: access.permissions };
}

/**
 * openSession without reading anything: puts an already loaded session user in the request's session. Nothing
 * here can fail, so that a step that consumes something first (a second-factor code) can read everything it
 * needs before, and sign in after.
 */
export function signInSession(request: Request, sessionUser: SessionUser): void {
  const session = requestSession(request);
  session.rotate();
  session.remove(CSRF_SESSION_KEY);
  // A challenge left by an earlier, unfinished login of this browser ends with this one.
  for (const key of MFA_CHALLENGE_KEYS) session.remove(key);
  session.set(SESSION_USER_KEY, sessionUser);
}

/** `POST /logout`: the session is deleted on the server and its cookie expired; 302 to `/login`. */
export function logout(request: Request): Response {
  const session = existingSession(request);
  const user = session?.get<SessionUser>(SESSION_USER_KEY);
  if (session) session.destroy();
  if (user) logAuthEvent('logout', auditDetails(request, user.id));
  const response = BaseController.redirect('/login');
  return noStore(response);
}
