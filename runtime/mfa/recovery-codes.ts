/**
 * Recovery codes (docs/decisions.md#second-factor): 10 per batch, `XXXX-XXXX-XXXX-XXXX` from an alphabet without
 * 0, O, 1 and I (no character to mistake for another), drawn from the system's random source without modulo
 * bias. Only the SHA-256 hex of the normalised code is stored; the user sees the codes once.
 */
import { createHash, randomBytes } from 'node:crypto';

export const RECOVERY_CODE_COUNT = 10;
/** 32 characters: A–Z and 2–9 without O and I. */
export const RECOVERY_CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const GROUPS = 4;
const GROUP_LENGTH = 4;
const CODE_LENGTH = GROUPS * GROUP_LENGTH;

/** A code as typed, made comparable: spaces and dashes removed, upper-cased (docs/decisions.md#second-factor). */
export function normalizeMfaCode(code: string): string {
  return code.replace(/[\s-]+/g, '').toUpperCase();
}

/** SHA-256 hex of the normalised code: what `auth_mfa_recovery_codes.code_hash` holds. */
export function hashRecoveryCode(code: string): string {
  return createHash('sha256').update(normalizeMfaCode(code), 'utf8').digest('hex');
}

/** True when the normalised text has the shape of a recovery code (16 characters of the alphabet). */
export function looksLikeRecoveryCode(normalized: string): boolean {
  return normalized.length === CODE_LENGTH && [...normalized].every((c) => RECOVERY_CODE_ALPHABET.includes(c));
}

/**
 * `count` random characters of the alphabet. Its 32 letters divide 256, so `byte % 32` is uniform; the
 * rejection below keeps it unbiased should the alphabet ever change to a length that does not.
 */
function randomCharacters(count: number): string {
  const size = RECOVERY_CODE_ALPHABET.length;
  const limit = 256 - (256 % size);
  let out = '';
  while (out.length < count) {
    for (const byte of randomBytes(count * 2)) {
      if (byte >= limit) continue;
      out += RECOVERY_CODE_ALPHABET[byte % size];
      if (out.length === count) break;
    }
  }
  return out;
}

/** One code, `XXXX-XXXX-XXXX-XXXX`. */
export function generateRecoveryCode(): string {
  const raw = randomCharacters(CODE_LENGTH);
  const groups: string[] = [];
  for (let i = 0; i < CODE_LENGTH; i += GROUP_LENGTH) groups.push(raw.slice(i, i + GROUP_LENGTH));
  return groups.join('-');
}

/** A batch of distinct codes. */
export function generateRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  const codes = new Set<string>();
  while (codes.size < count) codes.add(generateRecoveryCode());
  return [...codes];
}
