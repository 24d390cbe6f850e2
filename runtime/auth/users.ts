/**
 * The users repository (one user model, the `users` table: docs/decisions.md#one-user-model): what `fw auth:user:*` writes and what
 * `POST /login` reads. E-mails are stored normalised (trimmed, lower-cased) and compared without case. Dates are
 * UTC `YYYY-MM-DD HH:MM:SS` strings on both dialects. Every function takes an optional last `db` (a Database, a
 * connection or a transaction); without it, the application's default database (runtime/db).
 *
 * Roles and permissions live in `roles.ts` and are re-exported here, so that one import serves both.
 */
import type { Queryable } from '../db/database.js';
import { getSessionStore } from '../session/session.js';
import { burnUserResetTokens } from './password-reset-tokens.js';
import { hashPassword } from './passwords.js';
import { authDb, dateTimeText as dateTime, utcNow } from './repository.js';

export {
  addUserRole,
  createPermission,
  createRole,
  findRole,
  grantPermission,
  isValidPermissionCode,
  isValidRoleName,
  listRoles,
  loadUserAccess,
  removeUserRole,
  userRoles,
  UnknownRoleError,
  UnknownUserError,
  ROLE_NAME_MAX,
  type RoleRow,
  type RoleSummary,
  type UserAccess,
} from './roles.js';

/** A row of `users`, as the application sees it. `passwordHash` is a secret: never print or log it. */
export interface AuthUser {
  id: number;
  email: string;
  passwordHash: string;
  isActive: boolean;
  emailVerifiedAt: string | null;
  lastLoginAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** What `createUser` takes. */
export interface NewUser {
  email: string;
  passwordHash: string;
  /** True by default. */
  isActive?: boolean;
}

/** The longest e-mail the `users.email` column holds. */
export const EMAIL_MAX = 190;

const USER_COLUMNS = 'id, email, password_hash, is_active, email_verified_at, last_login_at, created_at, updated_at';

interface UserRow {
  id: number | string;
  email: string;
  password_hash: string;
  is_active: number | string | boolean;
  email_verified_at: unknown;
  last_login_at: unknown;
  created_at: unknown;
  updated_at: unknown;
}

/** `Alice@Example.COM ` → `alice@example.com`: the form e-mails are stored and looked up in. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * A pragmatic check, not RFC 5322: one `@`, a non-empty local part, a domain with a dot that neither starts nor
 * ends it, no whitespace or control character, at most 190 characters (the column's size).
 */
export function isValidEmail(email: string): boolean {
  if (email.length === 0 || email.length > EMAIL_MAX) return false;
  if (/[\s\u0000-\u001f\u007f]/.test(email)) return false;
  const at = email.indexOf('@');
  if (at <= 0 || at !== email.lastIndexOf('@')) return false;
  const domain = email.slice(at + 1);
  const dot = domain.indexOf('.');
  return dot > 0 && !domain.endsWith('.') && !domain.includes('..');
}

function toUser(row: UserRow): AuthUser {
  return {
    id: Number(row.id),
    email: row.email,
    passwordHash: row.password_hash,
    isActive: Number(row.is_active) === 1 || row.is_active === true,
    emailVerifiedAt: dateTime(row.email_verified_at),
    lastLoginAt: dateTime(row.last_login_at),
    createdAt: dateTime(row.created_at) ?? '',
    updatedAt: dateTime(row.updated_at) ?? '',
  };
}

/** The user with that e-mail (any case, surrounding spaces ignored), or null. */
export async function findUserByEmail(email: string, db?: Queryable): Promise<AuthUser | null> {
  const row = await authDb(db).fetchOne<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE email = ?`, [normalizeEmail(email)]);
  return row ? toUser(row) : null;
}

/** True when some user still has a hash that is not Argon2 (a legacy PBKDF2 one, replaced at its next login). */
export async function hasLegacyPasswordHashes(db?: Queryable): Promise<boolean> {
  const row = await authDb(db).fetchOne("SELECT 1 AS found FROM users WHERE password_hash NOT LIKE '$argon2%' LIMIT 1");
  return row !== null;
}

/** The user with that id, or null. */
export async function findUserById(id: number, db?: Queryable): Promise<AuthUser | null> {
  if (!Number.isSafeInteger(id) || id < 1) return null;
  const row = await authDb(db).fetchOne<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE id = ?`, [id]);
  return row ? toUser(row) : null;
}

/** Every user, by id. */
export async function listUsers(db?: Queryable): Promise<AuthUser[]> {
  const rows = await authDb(db).fetchAll<UserRow>(`SELECT ${USER_COLUMNS} FROM users ORDER BY id`);
  return rows.map(toUser);
}

/**
 * Creates a user and returns its id. The e-mail is normalised first; an address `isValidEmail` refuses throws a
 * TypeError; an e-mail already taken (in any case) throws the database's `DuplicateError`.
 */
export async function createUser(user: NewUser, db?: Queryable): Promise<number> {
  const email = normalizeEmail(user.email);
  if (!isValidEmail(email)) throw new TypeError(`Adresse e-mail invalide : « ${email} ».`);
  if (typeof user.passwordHash !== 'string' || user.passwordHash.length === 0) throw new TypeError('Le hachage du mot de passe est vide.');
  const now = utcNow();
  return authDb(db).insert(
    'INSERT INTO users (email, password_hash, is_active, email_verified_at, last_login_at, created_at, updated_at) VALUES (?, ?, ?, NULL, NULL, ?, ?)',
    [email, user.passwordHash, user.isActive === false ? 0 : 1, now, now],
  );
}

/** Sets `is_active`; false when no user has that id. Ending the user's sessions is the caller's part. */
export async function setUserActive(id: number, active: boolean, db?: Queryable): Promise<boolean> {
  const changed = await authDb(db).execute('UPDATE users SET is_active = ?, updated_at = ? WHERE id = ?', [active ? 1 : 0, utcNow(), id]);
  return changed > 0;
}

/** `update_password_hash(id, hash)` (docs/auth.md "Passwords"): stores a new hash; false when no user has that id. */
export async function updatePasswordHash(id: number, hash: string, db?: Queryable): Promise<boolean> {
  if (typeof hash !== 'string' || hash.length === 0) throw new TypeError('Le hachage du mot de passe est vide.');
  const changed = await authDb(db).execute('UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ?', [hash, utcNow(), id]);
  return changed > 0;
}

/** Stamps `last_login_at` with the current UTC time. */
export async function recordSuccessfulLogin(id: number, db?: Queryable): Promise<void> {
  await authDb(db).execute('UPDATE users SET last_login_at = ? WHERE id = ?', [utcNow(), id]);
}

/**
 * True when the user has a confirmed second factor (`auth_mfa_factors.status = 'active'`): the login then needs the
 * second step. Read without the MFA module, so that a login never skips a factor because the module is not wired.
 */
export async function hasActiveMfaFactor(userId: number, db?: Queryable): Promise<boolean> {
  const row = await authDb(db).fetchOne("SELECT 1 AS found FROM auth_mfa_factors WHERE user_id = ? AND status = 'active' LIMIT 1", [userId]);
  return row !== null;
}

/** Disables the user and ends every session of that user in the application's session store; false when no user has that id. */
export async function disableUser(id: number, db?: Queryable): Promise<boolean> {
  const changed = await setUserActive(id, false, db);
  if (changed) await getSessionStore().deleteUser(id);
  return changed;
}

/**
 * A change of password (docs/auth.md "Passwords"): stores the new hash and ends the user's unused reset tokens in
 * one transaction, so that a link asked for before the change no longer works after it. False when no user has that
 * id. `updatePasswordHash` alone is for a new hash of the same password (a rehash at login).
 */
export async function changePasswordHash(id: number, hash: string, db?: Queryable): Promise<boolean> {
  const work = async (q: Queryable): Promise<boolean> => {
    const changed = await updatePasswordHash(id, hash, q);
    if (changed) await burnUserResetTokens(id, q);
    return changed;
  };
  const target = authDb(db) as Queryable & { transaction?: <T>(fn: (tx: Queryable) => Promise<T>) => Promise<T> };
  return typeof target.transaction === 'function' ? target.transaction(work) : work(target);
}

/** Hashes and stores a new password (the policy applies; reset links end with it), then ends every session of the user; false when no user has that id. */
export async function changeUserPassword(id: number, password: string, db?: Queryable): Promise<boolean> {
  const changed = await changePasswordHash(id, await hashPassword(password), db);
  if (changed) await getSessionStore().deleteUser(id);
  return changed;
}
