/**
 * Roles and permissions (docs/decisions.md#roles-and-permissions; docs/auth.md "The session user, roles and permissions"): roles are granted to users
 * (`user_roles`), permissions to roles (`role_permissions`). `loadUserAccess` gives what the session user carries
 * from login on. Role names and permission codes are lower-case ASCII (`admin`, `contact.delete`) so that they
 * compare the same way on both dialects, whatever the column's collation. Every function takes an optional last
 * `db`; without it, the application's default database.
 */
import type { Queryable } from '../db/database.js';
import { DuplicateError } from '../db/errors.js';
import { authDb, dateTimeText, utcNow } from './repository.js';

/** The longest role name the `roles.name` column holds. */
export const ROLE_NAME_MAX = 100;
const PERMISSION_CODE_MAX = 150;

const ROLE_NAME = /^[a-z][a-z0-9_.-]*$/;
const PERMISSION_CODE = /^[a-z0-9][a-z0-9_.:-]*$/;

/** No role has that name: roles are created explicitly (`fw auth:role:create`), never on the fly. */
export class UnknownRoleError extends Error {
  override readonly name = 'UnknownRoleError';
  constructor(readonly role: string) {
    super(`Rôle inconnu : « ${role} ».`);
  }
}

/** No user has that id. */
export class UnknownUserError extends Error {
  override readonly name = 'UnknownUserError';
  constructor(readonly userId: number) {
    super(`Utilisateur inconnu : #${userId}.`);
  }
}

export interface RoleRow {
  id: number;
  name: string;
  createdAt: string;
}

export interface RoleSummary extends RoleRow {
  /** Users holding the role. */
  userCount: number;
}

/** What a signed-in user carries in its session (docs/decisions.md#one-user-model). */
export interface UserAccess {
  roles: string[];
  permissions: string[];
}

/** `admin`, `editeur`, `support-n2`: a lower-case letter, then lower-case letters, digits, `_`, `.` or `-`; at most 100. */
export function isValidRoleName(name: string): boolean {
  return name.length <= ROLE_NAME_MAX && ROLE_NAME.test(name);
}

/** `contact.delete`, `reports:view`: lower-case letters, digits, `_`, `.`, `:` or `-`; at most 150. */
export function isValidPermissionCode(code: string): boolean {
  return code.length <= PERMISSION_CODE_MAX && PERMISSION_CODE.test(code);
}

/** Sorted by code point (the same order on both dialects, whatever their collations), without repeats. */
function sortedUnique(values: readonly string[]): string[] {
  return [...new Set(values)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function dateTime(value: unknown): string {
  return dateTimeText(value) ?? '';
}

/** Inserts unless present; a concurrent insert of the same row counts as present. Resolves to true when inserted. */
async function insertUnlessPresent(db: Queryable, exists: string, insert: string, params: readonly unknown[]): Promise<boolean> {
  if (await db.fetchOne(exists, params)) return false;
  try {
    await db.execute(insert, params);
    return true;
  } catch (error) {
    if (error instanceof DuplicateError) return false;
    throw error;
  }
}

/** Creates a role and returns its id; a name already taken throws the database's `DuplicateError`. */
export async function createRole(name: string, db?: Queryable): Promise<number> {
  if (!isValidRoleName(name)) throw new TypeError(`Nom de rôle invalide : « ${name} » (lettres minuscules, chiffres, « _ », « . » ou « - »).`);
  return authDb(db).insert('INSERT INTO roles (name, created_at) VALUES (?, ?)', [name, utcNow()]);
}

/** The role of that name, or null. */
export async function findRole(name: string, db?: Queryable): Promise<RoleRow | null> {
  if (!isValidRoleName(name)) return null;
  const row = await authDb(db).fetchOne<{ id: number | string; name: string; created_at: unknown }>('SELECT id, name, created_at FROM roles WHERE name = ?', [
    name,
  ]);
  return row ? { id: Number(row.id), name: row.name, createdAt: dateTime(row.created_at) } : null;
}

async function roleOrFail(name: string, db: Queryable): Promise<RoleRow> {
  const role = await findRole(name, db);
  if (!role) throw new UnknownRoleError(name);
  return role;
}

/** Every role with the number of users holding it, by name. */
export async function listRoles(db?: Queryable): Promise<RoleSummary[]> {
  const rows = await authDb(db).fetchAll<{ id: number | string; name: string; created_at: unknown; users: number | string }>(
    `SELECT r.id, r.name, r.created_at, (SELECT COUNT(*) FROM user_roles ur WHERE ur.role_id = r.id) AS users
       FROM roles r`,
  );
  return rows
    .map((row) => ({ id: Number(row.id), name: row.name, createdAt: dateTime(row.created_at), userCount: Number(row.users) }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The names of the user's roles, sorted. */
export async function userRoles(userId: number, db?: Queryable): Promise<string[]> {
  const rows = await authDb(db).fetchAll<{ name: string }>('SELECT r.name FROM user_roles ur JOIN roles r ON r.id = ur.role_id WHERE ur.user_id = ?', [userId]);
  return sortedUnique(rows.map((row) => row.name));
}

/**
 * Gives the user a role; resolves to false when the user already had it. An unknown role throws
 * `UnknownRoleError`, an unknown user `UnknownUserError`.
 */
export async function addUserRole(userId: number, roleName: string, db?: Queryable): Promise<boolean> {
  const database = authDb(db);
  const role = await roleOrFail(roleName, database);
  if (!(await database.fetchOne('SELECT id FROM users WHERE id = ?', [userId]))) throw new UnknownUserError(userId);
  return insertUnlessPresent(
    database,
    'SELECT user_id FROM user_roles WHERE user_id = ? AND role_id = ?',
    'INSERT INTO user_roles (user_id, role_id) VALUES (?, ?)',
    [userId, role.id],
  );
}

/** Takes a role from the user; resolves to false when the user did not have it. An unknown role throws `UnknownRoleError`. */
export async function removeUserRole(userId: number, roleName: string, db?: Queryable): Promise<boolean> {
  const database = authDb(db);
  const role = await roleOrFail(roleName, database);
  return (await database.execute('DELETE FROM user_roles WHERE user_id = ? AND role_id = ?', [userId, role.id])) > 0;
}

/** Creates a permission and returns its id; a code already taken throws the database's `DuplicateError`. */
export async function createPermission(code: string, label?: string, db?: Queryable): Promise<number> {
  if (!isValidPermissionCode(code)) {
    throw new TypeError(`Code de permission invalide : « ${code} » (lettres minuscules, chiffres, « _ », « . », « : » ou « - »).`);
  }
  return authDb(db).insert('INSERT INTO permissions (code, label) VALUES (?, ?)', [code, label ?? null]);
}

/**
 * Grants a permission to a role, creating the permission when it does not exist yet; resolves to false when the
 * role already had it. An unknown role throws `UnknownRoleError`.
 */
export async function grantPermission(roleName: string, code: string, db?: Queryable): Promise<boolean> {
  const database = authDb(db);
  const role = await roleOrFail(roleName, database);
  const existing = await database.fetchOne<{ id: number | string }>('SELECT id FROM permissions WHERE code = ?', [code]);
  let permissionId: number;
  if (existing) {
    permissionId = Number(existing.id);
  } else {
    try {
      permissionId = await createPermission(code, undefined, database);
    } catch (error) {
      if (!(error instanceof DuplicateError)) throw error;
      const raced = await database.fetchOne<{ id: number | string }>('SELECT id FROM permissions WHERE code = ?', [code]);
      if (!raced) throw error;
      permissionId = Number(raced.id);
    }
  }
  return insertUnlessPresent(
    database,
    'SELECT role_id FROM role_permissions WHERE role_id = ? AND permission_id = ?',
    'INSERT INTO role_permissions (role_id, permission_id) VALUES (?, ?)',
    [role.id, permissionId],
  );
}

/** The user's role names and, through `user_roles` → `role_permissions` → `permissions`, permission codes; sorted, unique. */
export async function loadUserAccess(userId: number, db?: Queryable): Promise<UserAccess> {
  const database = authDb(db);
  const permissions = await database.fetchAll<{ code: string }>(
    `SELECT p.code FROM user_roles ur
       JOIN role_permissions rp ON rp.role_id = ur.role_id
       JOIN permissions p ON p.id = rp.permission_id
      WHERE ur.user_id = ?`,
    [userId],
  );
  return { roles: await userRoles(userId, database), permissions: sortedUnique(permissions.map((row) => row.code)) };
}
