/**
 * The tokens of password reset (docs/auth.md "Password reset"), rows of `auth_tokens` with `purpose =
 * 'password_reset'`: 32 random bytes shown once, in base64url, in the link of the message; only their SHA-256
 * (hex) is stored. A token is valid 30 minutes and once: `consumeResetToken` burns it with one conditional UPDATE,
 * so that of two requests racing with the same token exactly one changes the row.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '../db/database.js';
import { formatUtcDateTime } from '../db/params.js';
import { authDb, dateTimeText, utcNow } from './repository.js';

/** `auth_tokens.purpose` of reset tokens. */
export const PASSWORD_RESET_PURPOSE = 'password_reset';
/** How long a link stays valid. */
export const PASSWORD_RESET_TTL_SECONDS = 30 * 60;
/** Random bytes of a token (43 base64url characters). */
export const PASSWORD_RESET_TOKEN_BYTES = 32;

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** The SHA-256 of a token, in hex: what `auth_tokens.token_hash` holds. */
export function hashResetToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** True when `token` has the shape of a token this module makes (anything else is refused before any query). */
export function isWellFormedResetToken(token: unknown): token is string {
  return typeof token === 'string' && TOKEN_PATTERN.test(token);
}

/** Why a token cannot be used. */
export type ResetTokenRefusal = 'malformed' | 'unknown' | 'expired' | 'used' | 'disabled';

/** A reset token's row. */
export interface ResetTokenRow {
  readonly id: number;
  readonly userId: number;
  readonly expiresAt: string;
  readonly usedAt: string | null;
}

/**
 * Writes a new token for the user (in `db`, the caller's transaction when the message is queued beside it) and
 * returns it in clear: the only time it exists outside the message.
 */
export async function createResetToken(userId: number, db?: Queryable, now = new Date()): Promise<string> {
  const token = randomBytes(PASSWORD_RESET_TOKEN_BYTES).toString('base64url');
  const expires = formatUtcDateTime(new Date(now.getTime() + PASSWORD_RESET_TTL_SECONDS * 1000));
  await authDb(db).insert('INSERT INTO auth_tokens (user_id, purpose, token_hash, expires_at, used_at, created_at) VALUES (?, ?, ?, ?, NULL, ?)', [
    userId,
    PASSWORD_RESET_PURPOSE,
    hashResetToken(token),
    expires,
    formatUtcDateTime(now),
  ]);
  return token;
}

/** The token's row, or why it cannot be used (without telling apart more than the audit needs). */
export async function findResetToken(token: unknown, db?: Queryable): Promise<ResetTokenRow | { refusal: ResetTokenRefusal }> {
  if (!isWellFormedResetToken(token)) return { refusal: 'malformed' };
  const row = await authDb(db).fetchOne<{ id: unknown; user_id: unknown; expires_at: unknown; used_at: unknown }>(
    'SELECT id, user_id, expires_at, used_at FROM auth_tokens WHERE token_hash = ? AND purpose = ?',
    [hashResetToken(token), PASSWORD_RESET_PURPOSE],
  );
  if (!row) return { refusal: 'unknown' };
  const found: ResetTokenRow = {
    id: Number(row.id),
    userId: Number(row.user_id),
    expiresAt: dateTimeText(row.expires_at) ?? '',
    usedAt: dateTimeText(row.used_at),
  };
  if (found.usedAt !== null) return { refusal: 'used' };
  if (found.expiresAt <= utcNow()) return { refusal: 'expired' };
  return found;
}

/**
 * Burns the token: `used_at` set only while it is still unused and unexpired, in one UPDATE. True for the one
 * request that changed the row; false for every other (already used, expired, or burnt by a concurrent request).
 */
export async function consumeResetToken(id: number, db?: Queryable): Promise<boolean> {
  const now = utcNow();
  const changed = await authDb(db).execute('UPDATE auth_tokens SET used_at = ? WHERE id = ? AND purpose = ? AND used_at IS NULL AND expires_at > ?', [
    now,
    id,
    PASSWORD_RESET_PURPOSE,
    now,
  ]);
  return changed === 1;
}

/** Burns every unused reset token of the user (after a reset: the other links of earlier requests die with it). */
export async function burnUserResetTokens(userId: number, db?: Queryable): Promise<number> {
  return authDb(db).execute('UPDATE auth_tokens SET used_at = ? WHERE user_id = ? AND purpose = ? AND used_at IS NULL', [
    utcNow(),
    userId,
    PASSWORD_RESET_PURPOSE,
  ]);
}

/** Deletes the user's reset tokens that expired more than a day ago (kept a day for the audit of late clicks). */
export async function purgeResetTokens(userId: number, db?: Queryable, now = new Date()): Promise<number> {
  const before = formatUtcDateTime(new Date(now.getTime() - 86_400_000));
  return authDb(db).execute('DELETE FROM auth_tokens WHERE user_id = ? AND purpose = ? AND expires_at < ?', [userId, PASSWORD_RESET_PURPOSE, before]);
}
