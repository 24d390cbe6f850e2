/**
 * `fw-mvc/rbac`: roles and permissions (docs/decisions.md#roles-and-permissions; docs/auth.md "The session
 * user, roles and permissions"). Roles are granted to users (`user_roles`), permissions to roles (`role_permissions`). At login
 * the session user receives its role names and permission codes; every check below reads them from the
 * session, never from the database, so a change of roles applies at the user's next login.
 */
import { AuthMiddleware } from '../middleware.js';
import { errorPage } from '../controller.js';
import { markAccess, type Handler } from '../http/router.js';
import { isAuthenticated, userHasRole } from '../session/session.js';
import { userCan } from '../templates/nunjucks.js';
import { createPermission, createRole, findRole, grantPermission, listRoles } from '../auth/users.js';
import type { Queryable } from '../db/database.js';

export { userHasRole, userCan };

/** A role (`roles` table). */
export class Role {
  constructor(
    readonly id: number,
    readonly name: string,
  ) {}

  /** The role of that name, or null. */
  static async find(name: string, db?: Queryable): Promise<Role | null> {
    const row = await findRole(name, db);
    return row ? new Role(row.id, row.name) : null;
  }

  /** Creates the role (a `DuplicateError` when the name is taken). */
  static async create(name: string, db?: Queryable): Promise<Role> {
    const id = await createRole(name, db);
    return new Role(id, name);
  }

  /** Every role, by name. */
  static async all(db?: Queryable): Promise<Role[]> {
    return (await listRoles(db)).map((row) => new Role(row.id, row.name));
  }

  /** Grants a permission to this role, creating the permission when it does not exist yet. */
  async grant(code: string, db?: Queryable): Promise<void> {
    await grantPermission(this.name, code, db);
  }
}

/** A permission (`permissions` table), named by its code: `contact.index`, `contact.delete`, `reports.view`… */
export class Permission {
  constructor(
    readonly id: number,
    readonly code: string,
    readonly label: string | null = null,
  ) {}

  static async create(code: string, label?: string, db?: Queryable): Promise<Permission> {
    const id = await createPermission(code, label, db);
    return new Permission(id, code, label ?? null);
  }
}

/**
 * Wraps a handler: the session user must hold the permission (or the `admin` role, which holds them all),
 * otherwise 403; an anonymous visitor is sent to the login page first.
 */
export function requirePermission(code: string, handler: Handler): Handler {
  const may = (request: Parameters<Handler>[0]): boolean => isAuthenticated(request) && userCan(request, code);
  return markAccess((request) => {
    if (!isAuthenticated(request)) return new AuthMiddleware().check(request)!;
    return may(request) ? handler(request) : errorPage(403, request);
  }, may);
}
