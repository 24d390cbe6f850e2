/**
 * The login's attempt policy (docs/auth.md "Login limits"): 5 failed credential checks per 60 s per client address
 * and per login, counted by the limiter of runtime/rate-limit/ under the action `login`.
 */
import { checkLimit, clientAddressKey, getRateLimitStore } from '../rate-limit/limiter.js';

/** Action name of login attempts in the stores. */
export const LOGIN_ACTION = 'login';
/** Failed credential checks allowed per window, per client address and per login. */
export const LOGIN_MAX_FAILURES = 5;
export const LOGIN_WINDOW_SECONDS = 60;

/** The login as counted: trimmed and lower-cased (logins are e-mails, case-insensitive). */
export function normalizeLoginKey(login: string): string {
  return String(login ?? '')
    .trim()
    .toLowerCase();
}

/** The store keys of a login attempt: the client address always, the login when there is one. */
function loginKeys(ip: string, login: string): { ipKey: string; loginKey: string | null } {
  const normalized = normalizeLoginKey(login);
  return { ipKey: `ip:${clientAddressKey(ip)}`, loginKey: normalized === '' ? null : `login:${normalized}` };
}

/**
 * The store keys of a login attempt on the identity it reaches: the account (`user:<id>`) when the typed login
 * found one, so that every spelling the database matches to that account shares one counter; else the typed
 * login, normalised.
 */
export function loginAttemptKeys(ip: string, login: string, userId: number | null): string[] {
  const { ipKey, loginKey } = loginKeys(ip, login);
  if (userId !== null && Number.isSafeInteger(userId)) return [ipKey, `user:${userId}`];
  return loginKey ? [ipKey, loginKey] : [ipKey];
}

/** Records one failed login attempt for the address (`enregistrer_tentative(ip)`, docs/api-mapping.md). */
export async function recordLoginAttempt(ip: string, now?: number): Promise<void> {
  await getRateLimitStore().record({ action: LOGIN_ACTION, key: loginKeys(ip, '').ipKey, ip, success: false, at: now ?? Date.now() });
}

/** True once the address has 5 failed login attempts in the last 60 s (`est_limite(ip)`, docs/api-mapping.md). */
export async function isLoginLimited(ip: string, now?: number): Promise<boolean> {
  const key = loginKeys(ip, '').ipKey;
  return (await checkLimit({ action: LOGIN_ACTION, key, max: LOGIN_MAX_FAILURES, windowSeconds: LOGIN_WINDOW_SECONDS, count: 'failures', now })).limited;
}
