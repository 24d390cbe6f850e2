/**
 * Password reset (docs/auth.md "Password reset"), opt-in with `registerPasswordResetRoutes(router)`:
 * `GET/POST /password/forgot` asks for a link, `GET/POST /password/reset/{token}` sets a new password.
 *
 * - The answer to `POST /password/forgot` is decided before anything is read about the address: a known, an
 *   unknown and a disabled address get the same page at the same time, because the work that depends on it (the
 *   user looked up, the token written and the message queued with `sendMail` in one transaction) runs after the
 *   answer is composed, beside the request (`settlePasswordResetRequests` waits for it; `serve()` does on SIGTERM).
 * - Requests are limited per client address and per typed address with the login's limit store. A database that
 *   cannot be reached when the request comes answers 503 with Retry-After, as every page (runtime/app/).
 * - The message is queued with the token's expiry (`expiresAt`): the outbox never sends a dead link.
 * - A reset burns the token (one conditional UPDATE: of two concurrent uses one wins), stores the new hash in the
 *   same transaction, then ends every session of the user. Nobody is signed in by a reset: the user signs in with
 *   the new password, and a second factor, when the user has one, is asked as at every login.
 */
import { get } from '../config.js';
import { appLayout, BaseController, errorPage } from '../controller.js';
import { onServe } from '../app/background.js';
import { getDatabase } from '../db/database.js';
import { noStore } from '../http/helpers.js';
import type { Request } from '../http/request.js';
import type { Response } from '../http/response.js';
import type { Router } from '../http/router.js';
import { trans } from '../translations.js';
import { getLogger } from '../logger.js';
import { cancelAttempt, clientAddressKey, reserveAttempt } from '../rate-limit/index.js';
import { getSessionStore } from '../session/session.js';
import { logAuthEvent } from './audit.js';
import { checkPasswordPolicy, hashPassword } from './passwords.js';
import {
  burnUserResetTokens,
  consumeResetToken,
  createResetToken,
  findResetToken,
  purgeResetTokens,
  PASSWORD_RESET_TTL_SECONDS,
  type ResetTokenRefusal,
  type ResetTokenRow,
} from './password-reset-tokens.js';
import { findUserByEmail, findUserById, isValidEmail, normalizeEmail, updatePasswordHash, type AuthUser } from './users.js';

const log = getLogger('fw.auth');

export const PASSWORD_FORGOT_PATH = '/password/forgot';
export const PASSWORD_RESET_PATH = '/password/reset';
export const PASSWORD_FORGOT_TEMPLATE = 'auth/password_forgot.html';
export const PASSWORD_RESET_TEMPLATE = 'auth/password_reset.html';
/** The message's templates: `mail/password_reset_subject.txt`, `_text.txt`, `_html.html`. */
export const PASSWORD_RESET_MAIL = 'password_reset';
/** The limiter's action for link requests. */
export const PASSWORD_RESET_ACTION = 'password_reset';
/** Link requests allowed per window: per client address, and per typed e-mail address. */
export const PASSWORD_RESET_MAX_PER_IP = 10;
export const PASSWORD_RESET_MAX_PER_EMAIL = 3;
export const PASSWORD_RESET_WINDOW_SECONDS = 900;

/** The work of link requests still running (the answers were sent). */
const pending = new Set<Promise<void>>();

/** Resolves once every link request received so far has finished its work (tests; `serve()` on SIGTERM). */
export async function settlePasswordResetRequests(): Promise<void> {
  while (pending.size > 0) await Promise.all([...pending]);
}

function audit(request: Request, event: string, userId: number | null, metadata?: Record<string, unknown>): void {
  logAuthEvent(event, { userId, ip: request.ip, userAgent: request.header('user-agent') ?? null, metadata });
}

/**
 * The pages are never cached. A page whose address holds a token tells no other site about it: the framework's
 * `Referrer-Policy: strict-origin-when-cross-origin` sends other sites the origin only, never the path.
 */
function privatePage(response: Response): Response {
  return noStore(response);
}

function field(request: Request, name: string): string {
  return request.body[name]?.[0] ?? '';
}

function forgotPage(request: Request, status: number, context: Record<string, unknown>): Response {
  return privatePage(
    BaseController.render(PASSWORD_FORGOT_TEMPLATE, { status, request, context: { email: '', error: '', sent: false, ...context }, base: appLayout() }),
  );
}

/** `GET /password/forgot`: the form. */
export function showPasswordForgot(request: Request): Response {
  return forgotPage(request, 200, {});
}

/** The 429 of a limited request, with `Retry-After`. */
function limited(request: Request, retryAfter: number, email: string): Response {
  audit(request, 'password_reset.rate_limited', null, { email, retry_after: retryAfter });
  const response = errorPage(429, request, { retry_after: retryAfter });
  response.headers['Retry-After'] = String(retryAfter);
  return response;
}

/**
 * `POST /password/forgot`, field `email`. An address that is not one answers 422 and the form (that says nothing
 * about accounts); a limited client or address 429; anything else the same confirmation page, at once.
 */
export async function submitPasswordForgot(request: Request): Promise<Response> {
  const typed = field(request, 'email').trim();
  const email = normalizeEmail(typed);
  if (!isValidEmail(email)) return forgotPage(request, 422, { email: typed, error: trans('auth.password_reset.invalid_email') });
  // A database that cannot be reached answers the 503 of every page (with Retry-After), not a confirmation for a
  // request that would be dropped: the same query whatever the address, so the answer still says nothing of it.
  await getDatabase().fetchOne('SELECT 1 AS up');

  const byIp = await reserveAttempt({
    action: PASSWORD_RESET_ACTION,
    keys: [`ip:${clientAddressKey(request.ip)}`],
    ip: request.ip,
    max: PASSWORD_RESET_MAX_PER_IP,
    windowSeconds: PASSWORD_RESET_WINDOW_SECONDS,
    count: 'hits',
  });
  if (!byIp.ticket) return limited(request, byIp.retryAfter, email);
  const byEmail = await reserveAttempt({
    action: PASSWORD_RESET_ACTION,
    keys: [`email:${email}`],
    ip: request.ip,
    max: PASSWORD_RESET_MAX_PER_EMAIL,
    windowSeconds: PASSWORD_RESET_WINDOW_SECONDS,
    count: 'hits',
  });
  if (!byEmail.ticket) {
    await cancelAttempt(byIp.ticket);
    return limited(request, byEmail.retryAfter, email);
  }

  // The answer does not wait for, nor depend on, what follows.
  const origin = requestOrigin(request);
  const details = { ip: request.ip, userAgent: request.header('user-agent') ?? null };
  const work = issueResetLink(email, origin, details).catch((error: unknown) => {
    log.error(`Demande de réinitialisation du mot de passe en échec : ${(error as Error)?.message ?? String(error)}`);
  });
  pending.add(work);
  void work.finally(() => pending.delete(work));
  return forgotPage(request, 200, { sent: true, email: typed, ttl_minutes: PASSWORD_RESET_TTL_SECONDS / 60 });
}

/** `http://<Host>` when the configuration has no `app_url` (development only, see resetBaseUrl). */
function requestOrigin(request: Request): string | null {
  const host = request.header('host');
  return host && /^[A-Za-z0-9.:[\]-]{1,255}$/.test(host) ? `http://${host}` : null;
}

/**
 * The base of the links: `app_url` (`APP_URL`), else, with `app_env = dev` only, the address the request came
 * to. Never the Host header elsewhere: a client chooses it, and a link to its own site would carry the token there.
 */
export function resetBaseUrl(origin: string | null): string | null {
  const configured = String(get('app_url') ?? process.env.APP_URL ?? '').trim();
  if (configured) return configured.replace(/\/+$/, '');
  return get('app_env') === 'dev' ? origin : null;
}

/** The work behind a link request: nothing for an unknown or disabled address; else a token and its message, in one transaction. */
async function issueResetLink(email: string, origin: string | null, details: { ip: string; userAgent: string | null }): Promise<void> {
  const event = (userId: number | null, metadata: Record<string, unknown>) => logAuthEvent('password_reset.requested', { userId, ...details, metadata });
  const user = await findUserByEmail(email);
  if (!user?.isActive) {
    event(user?.id ?? null, { email, queued: false, reason: user ? 'disabled' : 'unknown_email' });
    return;
  }
  const base = resetBaseUrl(origin);
  if (base === null) {
    log.error('Réinitialisation du mot de passe : aucun lien envoyé, app_url (APP_URL) n’est pas configuré (obligatoire hors de app_env=dev).');
    event(user.id, { queued: false, reason: 'no_app_url' });
    return;
  }
  const { sendMail } = await import('../mail/outbox.js');
  const queued = await getDatabase().transaction(async (tx) => {
    const now = new Date();
    await purgeResetTokens(user.id, tx, now);
    const token = await createResetToken(user.id, tx, now);
    return sendMail(
      {
        template: PASSWORD_RESET_MAIL,
        to: user.email,
        context: {
          app_name: get('app_name'),
          email: user.email,
          reset_url: `${base}${PASSWORD_RESET_PATH}/${token}`,
          ttl_minutes: PASSWORD_RESET_TTL_SECONDS / 60,
        },
        related: { entity: 'users', id: user.id },
        // A link that dies in 30 minutes is never mailed after that (docs/mail.md "Messages that expire").
        expiresAt: new Date(now.getTime() + PASSWORD_RESET_TTL_SECONDS * 1000),
      },
      { tx },
    );
  });
  // Queued, not sent: the sender delivers it later, or records why it could not (mail_log, `fw mail:logs`).
  event(user.id, { queued: queued.status === 'queued', status: queued.status, mail_id: queued.id });
}

const REFUSAL_MESSAGES: Record<ResetTokenRefusal, string> = {
  malformed: 'auth.password_reset.invalid_link',
  unknown: 'auth.password_reset.invalid_link',
  used: 'auth.password_reset.invalid_link',
  disabled: 'auth.password_reset.invalid_link',
  expired: 'auth.password_reset.expired_link',
};

/** The page of a link that cannot be used (410), and its audit record. */
function refused(request: Request, reason: ResetTokenRefusal, userId: number | null, step: 'show' | 'submit'): Response {
  audit(request, 'password_reset.refused', userId, { reason, step });
  return privatePage(
    BaseController.render(PASSWORD_RESET_TEMPLATE, {
      status: 410,
      request,
      context: { invalid: true, error: trans(REFUSAL_MESSAGES[reason]), errors: {} },
      base: appLayout(),
    }),
  );
}

/** The token's row and its active user, or why the link is refused. */
type Usable = { refusal: ResetTokenRefusal; userId: number | null } | { token: ResetTokenRow; user: AuthUser };

async function usableToken(request: Request): Promise<Usable> {
  const found = await findResetToken(request.routeParams.token);
  if ('refusal' in found) return { refusal: found.refusal, userId: null };
  const user = await findUserById(found.userId);
  if (!user?.isActive) return { refusal: 'disabled' as const, userId: found.userId };
  return { token: found, user };
}

function resetForm(request: Request, status: number, errors: Record<string, string>): Response {
  return privatePage(
    BaseController.render(PASSWORD_RESET_TEMPLATE, {
      status,
      request,
      context: { invalid: false, error: '', errors, action: request.path, ttl_minutes: PASSWORD_RESET_TTL_SECONDS / 60 },
      base: appLayout(),
    }),
  );
}

/** `GET /password/reset/{token}`: the form, or 410 when the link is unknown, used, expired or its account disabled. */
export async function showPasswordReset(request: Request): Promise<Response> {
  const usable = await usableToken(request);
  if ('refusal' in usable) return refused(request, usable.refusal, usable.userId, 'show');
  return resetForm(request, 200, {});
}

/**
 * `POST /password/reset/{token}`, fields `password` and `password_confirm`. A password outside the policy or a
 * confirmation that differs answers 422 and keeps the token; a good one burns it and stores the hash in one
 * transaction (a concurrent use that lost the race gets 410), ends the user's sessions and goes to `/login`.
 */
export async function submitPasswordReset(request: Request): Promise<Response> {
  const usable = await usableToken(request);
  if ('refusal' in usable) return refused(request, usable.refusal, usable.userId, 'submit');
  const password = field(request, 'password');
  const errors: Record<string, string> = {};
  const policy = checkPasswordPolicy(password);
  if (policy) errors.password = policy;
  else if (password !== field(request, 'password_confirm')) errors.password_confirm = trans('auth.password_reset.mismatch');
  if (Object.keys(errors).length > 0) return resetForm(request, 422, errors);

  const hash = await hashPassword(password);
  const { token, user } = usable;
  const done = await getDatabase().transaction(async (tx) => {
    if (!(await consumeResetToken(token.id, tx))) return false;
    await updatePasswordHash(user.id, hash, tx);
    await burnUserResetTokens(user.id, tx);
    return true;
  });
  if (!done) return refused(request, 'used', user.id, 'submit');
  await getSessionStore().deleteUser(user.id);
  audit(request, 'password_reset.completed', user.id);
  const response = BaseController.redirect('/login', { request, flash: trans('auth.password_reset.done'), level: 'success' });
  return privatePage(response);
}

/** The URL of the "forgotten password" page when the router has it, else null (the login page's link). */
export function passwordForgotUrl(): string | null {
  const router = get('router') as Router | null;
  if (!router) return null;
  try {
    return router.urlFor('password.forgot');
  } catch {
    return null;
  }
}

/**
 * Adds `GET /password/forgot` (`password.forgot`), `POST /password/forgot` (`password.forgot.submit`),
 * `GET /password/reset/{token}` (`password.reset`) and `POST /password/reset/{token}` (`password.reset.submit`),
 * all public, the POSTs behind CSRF. Loads `fw-mvc/mail`, whose sender `serve()` then runs, and has `serve()`
 * wait on SIGTERM for the link requests still at work.
 */
export function registerPasswordResetRoutes(router: Router): void {
  router.add('GET', PASSWORD_FORGOT_PATH, showPasswordForgot, { name: 'password.forgot', public: true });
  router.add('POST', PASSWORD_FORGOT_PATH, submitPasswordForgot, { name: 'password.forgot.submit', public: true });
  router.add('GET', `${PASSWORD_RESET_PATH}/{token}`, showPasswordReset, { name: 'password.reset', public: true });
  router.add('POST', `${PASSWORD_RESET_PATH}/{token}`, submitPasswordReset, { name: 'password.reset.submit', public: true });
  import('../mail/index.js').catch((error: unknown) => log.error(`fw-mvc/mail ne se charge pas : ${(error as Error)?.message ?? String(error)}`));
  onServe('fw-mvc/auth/password-reset', () => settlePasswordResetRequests);
}
