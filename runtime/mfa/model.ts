/**
 * The MFA tables (`auth_mfa_factors`, `auth_mfa_recovery_codes`; runtime/auth/schema.ts) on both dialects. Every
 * consumption is one conditional UPDATE whose changed-row count decides, so two requests racing with the same
 * code cannot both win: a TOTP step is accepted once per factor, ever, and a recovery code once.
 * The TOTP secret is stored in clear (docs/auth.md "The secret is stored in clear").
 */
import { getDatabase, type Connection, type Database } from '../db/database.js';
import { generateTotpSecret } from './totp.js';
import { generateRecoveryCodes, hashRecoveryCode } from './recovery-codes.js';

/** A database handle or a transaction. */
export type MfaDb = Database | Connection;

export type MfaFactorStatus = 'pending' | 'active';

export interface MfaFactor {
  readonly id: number;
  readonly userId: number;
  readonly factorType: 'totp';
  readonly totpSecret: string;
  readonly status: MfaFactorStatus;
  readonly label: string | null;
  /** The last TOTP time step accepted for this factor; a code of that step or an earlier one is refused. */
  readonly lastUsedStep: number | null;
  readonly confirmedAt: string | null;
  readonly lastUsedAt: string | null;
  readonly createdAt: string;
}

interface FactorRow {
  id: unknown;
  user_id: unknown;
  factor_type: string;
  totp_secret: string;
  status: string;
  label: string | null;
  last_used_step: unknown;
  confirmed_at: unknown;
  last_used_at: unknown;
  created_at: unknown;
}

const FACTOR_COLUMNS = 'id, user_id, factor_type, totp_secret, status, label, last_used_step, confirmed_at, last_used_at, created_at';

function text(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return value instanceof Date ? value.toISOString().slice(0, 19).replace('T', ' ') : String(value);
}

function toFactor(row: FactorRow): MfaFactor {
  return {
    id: Number(row.id),
    userId: Number(row.user_id),
    factorType: 'totp',
    totpSecret: row.totp_secret,
    status: row.status === 'active' ? 'active' : 'pending',
    label: row.label,
    lastUsedStep: row.last_used_step === null || row.last_used_step === undefined ? null : Number(row.last_used_step),
    confirmedAt: text(row.confirmed_at),
    lastUsedAt: text(row.last_used_at),
    createdAt: text(row.created_at) ?? '',
  };
}

/**
 * The user's active factors (`model.get_active_mfa_factors` in docs/api-mapping.md). A database error is thrown, never
 * read as "no factor": the caller fails closed.
 */
export async function getActiveMfaFactors(userId: number, db: MfaDb = getDatabase()): Promise<MfaFactor[]> {
  const rows = await db.fetchAll<FactorRow>(`SELECT ${FACTOR_COLUMNS} FROM auth_mfa_factors WHERE user_id = ? AND status = 'active' ORDER BY id`, [userId]);
  return rows.map(toFactor);
}

/** True when the user has at least one active factor (`is_mfa_enabled` in docs/api-mapping.md); throws on a database error. */
export async function isMfaEnabled(userId: number, db: MfaDb = getDatabase()): Promise<boolean> {
  return (await getActiveMfaFactors(userId, db)).length > 0;
}

/** The user's factor waiting for its first code (made by `createTotpFactor`), or null. */
export async function getPendingTotpFactor(userId: number, db: MfaDb = getDatabase()): Promise<MfaFactor | null> {
  const row = await db.fetchOne<FactorRow>(
    `SELECT ${FACTOR_COLUMNS} FROM auth_mfa_factors WHERE user_id = ? AND status = 'pending' AND factor_type = 'totp' ORDER BY id DESC`,
    [userId],
  );
  return row ? toFactor(row) : null;
}

/**
 * Provisioning (`create_totp_factor` in docs/api-mapping.md): a new pending TOTP factor with a fresh secret, replacing any
 * earlier pending one of the user. It becomes active once a code proves the app holds the secret
 * (`activateTotpFactor`).
 */
export async function createTotpFactor(
  userId: number,
  options: { label?: string | null; secret?: string } = {},
  db: MfaDb = getDatabase(),
): Promise<MfaFactor> {
  const secret = options.secret ?? generateTotpSecret();
  const now = new Date();
  const id = await db.transaction(async (tx) => {
    await tx.execute("DELETE FROM auth_mfa_factors WHERE user_id = ? AND status = 'pending'", [userId]);
    return tx.insert(
      "INSERT INTO auth_mfa_factors (user_id, factor_type, totp_secret, status, label, created_at, updated_at) VALUES (?, 'totp', ?, 'pending', ?, ?, ?)",
      [userId, secret, options.label ?? null, now, now],
    );
  });
  const row = await db.fetchOne<FactorRow>(`SELECT ${FACTOR_COLUMNS} FROM auth_mfa_factors WHERE id = ?`, [id]);
  if (!row) throw new Error(`Le facteur MFA ${id} vient d'être créé mais reste introuvable.`);
  return toFactor(row);
}

/** Marks a pending factor active; false when it is no longer pending (confirmed meanwhile, or replaced). */
export async function activateTotpFactor(factorId: number, db: MfaDb = getDatabase()): Promise<boolean> {
  const now = new Date();
  const changed = await db.execute("UPDATE auth_mfa_factors SET status = 'active', confirmed_at = ?, updated_at = ? WHERE id = ? AND status = 'pending'", [
    now,
    now,
    factorId,
  ]);
  return changed === 1;
}

/**
 * Records that the factor accepted a code of `step`, only if no code of that step or a later one was accepted
 * before: true when this call won (one row changed), false for a replay.
 */
export async function consumeTotpStep(factorId: number, step: number, db: MfaDb = getDatabase()): Promise<boolean> {
  const now = new Date();
  const changed = await db.execute(
    'UPDATE auth_mfa_factors SET last_used_step = ?, last_used_at = ?, updated_at = ? WHERE id = ? AND (last_used_step IS NULL OR last_used_step < ?)',
    [step, now, now, factorId, step],
  );
  return changed === 1;
}

/** Replaces the user's recovery codes by a new batch; returns the codes in clear (shown once, never stored). */
export async function replaceRecoveryCodes(userId: number, db: MfaDb = getDatabase()): Promise<string[]> {
  const codes = generateRecoveryCodes();
  const now = new Date();
  await db.transaction(async (tx) => {
    await tx.execute('DELETE FROM auth_mfa_recovery_codes WHERE user_id = ?', [userId]);
    for (const code of codes) {
      await tx.execute('INSERT INTO auth_mfa_recovery_codes (user_id, code_hash, created_at) VALUES (?, ?, ?)', [userId, hashRecoveryCode(code), now]);
    }
  });
  return codes;
}

/** Uses one recovery code of the user: true when it existed unused and is now used (one row changed). */
export async function consumeRecoveryCode(userId: number, code: string, db: MfaDb = getDatabase()): Promise<boolean> {
  const changed = await db.execute('UPDATE auth_mfa_recovery_codes SET used_at = ? WHERE user_id = ? AND code_hash = ? AND used_at IS NULL', [
    new Date(),
    userId,
    hashRecoveryCode(code),
  ]);
  return changed === 1;
}

/** How many recovery codes of the user are still unused. */
export async function countUnusedRecoveryCodes(userId: number, db: MfaDb = getDatabase()): Promise<number> {
  const row = await db.fetchOne<{ n: unknown }>('SELECT COUNT(*) AS n FROM auth_mfa_recovery_codes WHERE user_id = ? AND used_at IS NULL', [userId]);
  return Number(row?.n ?? 0);
}

/** Removes every factor and recovery code of the user (disabling the second factor). */
export async function deleteMfaForUser(userId: number, db: MfaDb = getDatabase()): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute('DELETE FROM auth_mfa_recovery_codes WHERE user_id = ?', [userId]);
    await tx.execute('DELETE FROM auth_mfa_factors WHERE user_id = ?', [userId]);
  });
}
