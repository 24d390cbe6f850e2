/**
 * TOTP as authenticator apps expect it (docs/decisions.md#second-factor, docs/auth.md "Second factor"): RFC 6238 with SHA-1,
 * 6 digits, a 30-second step and one step of tolerance either side, on otplib v13's functional API. Secrets are
 * base32 text of 20 random bytes. A verification returns the time step that matched, so that the caller can
 * refuse a step already used (model.ts `consumeTotpStep`).
 */
import { generateSecret, verify } from 'otplib';

export const TOTP_PERIOD = 30;
export const TOTP_DIGITS = 6;
/** Steps accepted on either side of the current one (clock drift, a code typed as it changes). */
export const TOTP_WINDOW_STEPS = 1;
const SECRET_BYTES = 20;

/** A new base32 secret (20 random bytes: 32 characters, no padding). */
export function generateTotpSecret(): string {
  return generateSecret({ length: SECRET_BYTES });
}

/** The time step of a moment (Unix seconds). */
export function totpStep(epochSeconds: number = Date.now() / 1000): number {
  return Math.floor(epochSeconds / TOTP_PERIOD);
}

/**
 * The provisioning URI an authenticator app reads from the QR code:
 * `otpauth://totp/<issuer>:<email>?secret=…&issuer=…&algorithm=SHA1&digits=6&period=30`.
 */
export function totpUri(issuer: string, email: string, secret: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(email)}`;
  return `otpauth://totp/${label}?secret=${secret}&issuer=${encodeURIComponent(issuer)}&algorithm=SHA1&digits=${TOTP_DIGITS}&period=${TOTP_PERIOD}`;
}

/** The secret in groups of four characters, for typing it by hand. */
export function groupSecret(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}

/** True for what can be a TOTP code once normalised: exactly six digits. */
export function looksLikeTotpCode(code: string): boolean {
  return /^[0-9]{6}$/.test(code);
}

/**
 * The time step at which `code` is valid for `secret` within ±1 step of `epochSeconds`, skipping steps up to
 * `afterStep` (already used); null when none matches. Comparisons are in constant time (otplib).
 */
export async function matchTotpStep(
  secret: string,
  code: string,
  afterStep: number | null = null,
  epochSeconds: number = Math.floor(Date.now() / 1000),
): Promise<number | null> {
  if (!looksLikeTotpCode(code)) return null;
  const lastAllowed = totpStep(epochSeconds) + TOTP_WINDOW_STEPS;
  // A factor whose last step is at or past the end of the window has nothing left to accept (and otplib
  // refuses an afterTimeStep beyond its window).
  if (afterStep !== null && afterStep >= lastAllowed) return null;
  const result = await verify({
    secret,
    token: code,
    algorithm: 'sha1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD,
    epoch: epochSeconds,
    epochTolerance: TOTP_PERIOD * TOTP_WINDOW_STEPS,
    ...(afterStep !== null && afterStep >= 0 ? { afterTimeStep: afterStep } : {}),
  });
  // The functional API types TOTP and HOTP results together; a TOTP match carries its time step.
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}
