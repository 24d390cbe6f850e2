/**
 * The pending second-factor challenge (docs/decisions.md#second-factor;
 * docs/auth.md "Second factor"). After a correct password the anonymous session holds `_auth_mfa_user_id` and
 * `_auth_mfa_started_at` (Unix seconds), and no user: nothing is granted until a code is verified. A challenge
 * lives 10 minutes. Codes are checked here for the login and for the account pages alike.
 */
import type { Request } from '../http/request.js';
import { SESSION_USER_KEY } from '../auth/login.js';
import { CSRF_SESSION_KEY } from '../security/csrf.js';
import { existingSession, requestSession } from '../session/session.js';
import { SESSION_MFA_USER_KEY } from '../session/store.js';
import { consumeRecoveryCode, consumeTotpStep, getActiveMfaFactors, type MfaDb } from './model.js';
import { looksLikeRecoveryCode, normalizeMfaCode } from './recovery-codes.js';
import { looksLikeTotpCode, matchTotpStep } from './totp.js';

/** The session key of the challenge's user: the stores read it too (deleteUser ends pending challenges). */
export const MFA_USER_KEY = SESSION_MFA_USER_KEY;
export const MFA_STARTED_AT_KEY = '_auth_mfa_started_at';
/** Where the login goes once the code is accepted (a same-site path checked by `safeNext`). */
export const MFA_NEXT_KEY = '_auth_mfa_next';
/** A challenge older than this is refused (10 minutes by default; docs/auth.md "Second factor"). */
export const MFA_CHALLENGE_TTL_SECONDS = 600;
/** Wrong codes allowed per user in `MFA_LIMIT_WINDOW_SECONDS` (docs/decisions.md#second-factor). */
export const MFA_MAX_FAILURES = 5;
export const MFA_LIMIT_WINDOW_SECONDS = 300;

const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/**
 * Stores the challenge of `userId` in the request's session (`start_mfa_challenge` in docs/api-mapping.md). The session's
 * data is kept but its id changes (the old id is deleted when the response is sent, the new cookie sent with
 * it) and its CSRF token is dropped: a session id planted in the victim's browser before the password step is
 * of no use to guess codes on the victim's challenge (docs/auth.md "Second factor"). Any signed-in user it held
 * is dropped, since the password alone grants nothing.
 */
export function startMfaChallenge(request: Request, userId: number, next?: string): void {
  const session = requestSession(request);
  session.rotate();
  session.remove(CSRF_SESSION_KEY);
  session.remove(SESSION_USER_KEY);
  session.set(MFA_USER_KEY, userId);
  session.set(MFA_STARTED_AT_KEY, nowSeconds());
  if (next) session.set(MFA_NEXT_KEY, next);
  else session.remove(MFA_NEXT_KEY);
}

export type MfaChallengeState = { state: 'none' } | { state: 'expired'; userId: number } | { state: 'pending'; userId: number; next: string | undefined };

/** Where the request's session stands: no challenge, an expired one, or one waiting for its code. */
export function mfaChallengeState(request: Request): MfaChallengeState {
  const session = existingSession(request);
  const userId = session?.get<unknown>(MFA_USER_KEY);
  const startedAt = session?.get<unknown>(MFA_STARTED_AT_KEY);
  if (typeof userId !== 'number' || !Number.isSafeInteger(userId) || userId <= 0) return { state: 'none' };
  if (typeof startedAt !== 'number' || !Number.isFinite(startedAt)) return { state: 'expired', userId };
  const age = nowSeconds() - startedAt;
  // A start in the future (a clock moved back, a tampered store) is not trusted either.
  if (age >= MFA_CHALLENGE_TTL_SECONDS || age < -60) return { state: 'expired', userId };
  const next = session!.get<unknown>(MFA_NEXT_KEY);
  return { state: 'pending', userId, next: typeof next === 'string' ? next : undefined };
}

/** True when the session holds a challenge younger than 10 minutes (`has_pending_mfa_challenge` in docs/api-mapping.md). */
export function hasPendingMfaChallenge(request: Request): boolean {
  return mfaChallengeState(request).state === 'pending';
}

/** The user id of the pending challenge, or null when none or expired (`get_mfa_challenge_user_id` in docs/api-mapping.md). */
export function getMfaChallengeUserId(request: Request): number | null {
  const state = mfaChallengeState(request);
  return state.state === 'pending' ? state.userId : null;
}

/** Removes the challenge keys from the session. */
export function clearMfaChallenge(request: Request): void {
  const session = existingSession(request);
  if (!session) return;
  for (const key of [MFA_USER_KEY, MFA_STARTED_AT_KEY, MFA_NEXT_KEY]) session.remove(key);
}

/** What accepted a code. */
export type MfaVerification = { method: 'totp'; factorId: number; step: number } | { method: 'recovery' };

/**
 * Checks a code for the user (`verify_mfa_challenge` in docs/api-mapping.md): six digits are a TOTP code of one of the
 * user's active factors, accepted only at a time step later than the last one used; anything else normalised
 * (spaces and dashes dropped, upper case) may be one of the user's unused recovery codes (unless `totpOnly`).
 * The code is consumed when accepted. Null when refused; a database error is thrown (the caller fails closed).
 */
export async function verifyMfaChallenge(userId: number, code: string, options: { totpOnly?: boolean; db?: MfaDb } = {}): Promise<MfaVerification | null> {
  const normalized = normalizeMfaCode(code);
  // Read first, whatever the code: no active factor means nothing can be accepted, and an unreadable table fails.
  const factors = await getActiveMfaFactors(userId, options.db);
  if (factors.length === 0 || normalized.length === 0) return null;
  if (looksLikeTotpCode(normalized)) {
    for (const factor of factors) {
      const step = await matchTotpStep(factor.totpSecret, normalized, factor.lastUsedStep);
      if (step !== null && (await consumeTotpStep(factor.id, step, options.db))) return { method: 'totp', factorId: factor.id, step };
    }
    return null;
  }
  if (!options.totpOnly && looksLikeRecoveryCode(normalized) && (await consumeRecoveryCode(userId, normalized, options.db))) return { method: 'recovery' };
  return null;
}
