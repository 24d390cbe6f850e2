/**
 * The second step of a login: `GET /login/mfa` and `POST /login/mfa` (docs/decisions.md#second-factor;
 * docs/auth.md "Second factor"). One field `code` takes a TOTP code or a recovery
 * code. A valid code signs the user in on a new session id; a wrong one answers 401 and the form; five wrong
 * codes in five minutes answer 429 (counted before the check); a challenge older than ten minutes sends back to `/login` with a warning.
 */
import { appLayout, BaseController, errorPage } from '../controller.js';
import { noStore } from '../http/helpers.js';
import type { Request } from '../http/request.js';
import type { Response } from '../http/response.js';
import { trans } from '../translations.js';
import { getLogger } from '../logger.js';
import { logAuthEvent } from '../auth/audit.js';
import { DEFAULT_LOGIN_REDIRECT, loadSessionUser, safeNext, signInSession, type SecondFactor } from '../auth/login.js';
import { findUserById, recordSuccessfulLogin } from '../auth/users.js';
import { setRequestFlash } from '../session/session.js';
import { clearMfaChallenge, mfaChallengeState, startMfaChallenge, verifyMfaChallenge } from './challenge.js';
import { cancelMfaAttempt, reserveMfaAttempt, settleMfaAttempt } from './limit.js';
import { countUnusedRecoveryCodes } from './model.js';

const log = getLogger('fw.auth');

export const MFA_CHALLENGE_PATH = '/login/mfa';
export const MFA_CHALLENGE_TEMPLATE = 'mfa/challenge.html';

export function auditDetails(request: Request, userId: number | null, metadata?: Record<string, unknown>) {
  return { userId, ip: request.ip, userAgent: request.header('user-agent') ?? null, metadata };
}

/** The provider `registerMfaRoutes` installs in the login: the challenge stored, then 302 to `/login/mfa`. */
export const mfaSecondFactor: SecondFactor = {
  start(request, user, next) {
    startMfaChallenge(request, user.id, safeNext(next));
    return noStore(BaseController.redirect(MFA_CHALLENGE_PATH));
  },
};

function challengePage(request: Request, status: number, error = ''): Response {
  return noStore(BaseController.render(MFA_CHALLENGE_TEMPLATE, { status, request, context: { error }, base: appLayout() }));
}

/**
 * The answer when there is no usable challenge: none → 302 `/login`; expired → its keys removed, 302 `/login`
 * with a warning flash. Null when a challenge is pending.
 */
function withoutChallenge(request: Request): Response | null {
  const state = mfaChallengeState(request);
  if (state.state === 'pending') return null;
  if (state.state === 'none') return noStore(BaseController.redirect('/login'));
  clearMfaChallenge(request);
  logAuthEvent('mfa.challenge.expired', auditDetails(request, state.userId));
  return noStore(BaseController.redirect('/login', { request, flash: trans('mfa.challenge.expired'), level: 'warning' }));
}

/** `GET /login/mfa`: the code form while a challenge is pending. */
export function showMfaChallenge(request: Request): Response {
  return withoutChallenge(request) ?? challengePage(request, 200);
}

/** `POST /login/mfa`: checks the code; a database error is thrown (error page), never read as success. */
export async function submitMfaChallenge(request: Request): Promise<Response> {
  const refused = withoutChallenge(request);
  if (refused) return refused;
  const state = mfaChallengeState(request);
  if (state.state !== 'pending') return noStore(BaseController.redirect('/login'));
  const { userId } = state;

  // Counted before the code is checked: concurrent guesses cannot pass the limit together.
  const { ticket, retryAfter } = await reserveMfaAttempt(request, userId);
  if (!ticket) return tooManyCodes(request, userId, retryAfter);

  const user = await findUserById(userId);
  if (!user?.isActive) {
    // Disabled or deleted since the password step: the challenge ends there, no code was checked.
    await cancelMfaAttempt(ticket);
    clearMfaChallenge(request);
    logAuthEvent(user ? 'user.disabled' : 'login.failed', auditDetails(request, userId, { reason: user ? 'disabled' : 'unknown_user', step: 'mfa' }));
    return noStore(BaseController.redirect('/login', { request, flash: trans('auth.login.failed'), level: 'error' }));
  }

  // Everything that can fail is read before the code is checked: once accepted, the code is spent, and what
  // follows only changes the session (a response that could not be written is refused before it is committed).
  const sessionUser = await loadSessionUser(user);
  const target = safeNext(state.next) ?? DEFAULT_LOGIN_REDIRECT;
  const accepted = await verifyMfaChallenge(userId, request.body.code?.[0] ?? '');
  if (!accepted) {
    await settleMfaAttempt(ticket, false);
    logAuthEvent('mfa.challenge.failed', auditDetails(request, userId));
    return challengePage(request, 401, trans('mfa.challenge.failed'));
  }

  clearMfaChallenge(request);
  signInSession(request, sessionUser);
  logAuthEvent('mfa.challenge.success', auditDetails(request, userId, { method: accepted.method }));
  await afterCodeAccepted(request, userId, accepted.method === 'recovery', () => settleMfaAttempt(ticket, true));
  return noStore(BaseController.redirect(target));
}

/**
 * The bookkeeping of an accepted code (the user's failures cleared, the last login time, the recovery codes left
 * in a flash): the user is signed in already and the code spent, so a failure here is logged, never turned into
 * an error page that would lose the new session.
 */
async function afterCodeAccepted(request: Request, userId: number, recovery: boolean, settle: () => Promise<void>): Promise<void> {
  const steps: Array<[string, () => Promise<void>]> = [
    ['compteur des codes', settle],
    ['date de dernière connexion', () => recordSuccessfulLogin(userId)],
  ];
  if (recovery) {
    steps.push([
      'codes de secours restants',
      async () => {
        const left = await countUnusedRecoveryCodes(userId);
        setRequestFlash(request, trans('mfa.challenge.recovery_used', { count: left }), left <= 2 ? 'warning' : 'info');
      },
    ]);
  }
  for (const [what, step] of steps) {
    try {
      await step();
    } catch (err) {
      log.error(`Connexion de l'utilisateur ${userId} acceptée, mais mise à jour impossible (${what}) : ${(err as Error)?.message ?? String(err)}`);
    }
  }
}

/** 429 with `Retry-After`, and the `mfa.rate_limited` event. */
export function tooManyCodes(request: Request, userId: number, retryAfter: number): Response {
  logAuthEvent('mfa.rate_limited', auditDetails(request, userId, { retry_after: retryAfter }));
  const response = errorPage(429, request, { retry_after: retryAfter });
  response.headers['Retry-After'] = String(retryAfter);
  return noStore(response);
}
