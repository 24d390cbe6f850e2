/**
 * The per-user limit on second-factor codes, counted before the code is checked (docs/decisions.md#login-limits;
 * docs/auth.md "Second factor"): five wrong codes in five minutes per user, for the login's second step and the
 * account pages alike (action `mfa`, key `user:<id>`).
 */
import type { Request } from '../http/request.js';
import { cancelAttempt, reserveAttempt, settleAttempt, type AttemptTicket } from '../rate-limit/index.js';
import { MFA_LIMIT_WINDOW_SECONDS, MFA_MAX_FAILURES } from './challenge.js';

/** The action of the MFA counter (the one challenge.ts counts in). */
const MFA_LIMIT_ACTION = 'mfa';

/**
 * Reserves one code attempt of the user: `{ limited, retryAfter }` when five wrong codes are already counted (the
 * code must then not be checked), else the ticket to settle with settleMfaAttempt once the code is checked.
 */
export async function reserveMfaAttempt(request: Request, userId: number): Promise<{ ticket: AttemptTicket | null; retryAfter: number }> {
  const { ticket, retryAfter } = await reserveAttempt({
    action: MFA_LIMIT_ACTION,
    keys: [`user:${userId}`],
    ip: request.ip,
    userId,
    max: MFA_MAX_FAILURES,
    windowSeconds: MFA_LIMIT_WINDOW_SECONDS,
  });
  return { ticket, retryAfter };
}

/** A wrong code stays counted; a right one is a success and clears the user's failures. */
export function settleMfaAttempt(ticket: AttemptTicket, success: boolean): Promise<void> {
  return settleAttempt(ticket, success, success ? ticket.reservations.map((reservation) => reservation.key) : []);
}

/** Withdraws a reservation whose code was never checked (the user is gone, the factor moved). */
export function cancelMfaAttempt(ticket: AttemptTicket): Promise<void> {
  return cancelAttempt(ticket);
}
