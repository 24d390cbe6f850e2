/**
 * The application's menu as one request sees it (docs/runtime.md "The menu"): the entries `mvc/routes.ts` declares
 * with `router.menu()`, less those the signed-in user could not open. An entry is shown when its GET route exists,
 * the route lets the user in (public, or a session), the check its handler was marked with passes (the role of
 * `requireRole`, the permission of `requirePermission`, the entity's role block for a CRUD list) and the entry's own
 * `roles` / `permission` pass: the same checks as the route's, never a second copy.
 * See docs/decisions.md "One menu, read from the routes".
 */
import type { Request } from '../http/request.js';
import { accessOf, type MenuEntry, type Router } from '../http/router.js';
import { isAuthenticated, userCan, userHasRole } from '../session/session.js';

/** A link of the menu, as the layouts render it. */
export interface MenuItem {
  readonly href: string;
  readonly label: string;
  /** The page shown is this entry's, or one under it (`/contacts/12` for `/contacts`): `aria-current="page"`. */
  readonly current: boolean;
}

/** Whether the user of `request` may open the entry's page. */
export function mayOpen(router: Router, request: Request, entry: MenuEntry): boolean {
  const match = router.match('GET', entry.path);
  if (!match) return false;
  const [route] = match;
  if (!route.public && !isAuthenticated(request)) return false;
  const access = accessOf(route.handler);
  if (access && !access(request)) return false;
  if (entry.roles && !entry.roles.some((role) => userHasRole(request, role))) return false;
  return !entry.permission || userCan(request, entry.permission);
}

function isCurrent(path: string, entry: string): boolean {
  if (path === entry) return true;
  return entry !== '/' && path.startsWith(entry.endsWith('/') ? entry : `${entry}/`);
}

/** The entries the user of `request` may open, in declaration order (none without a router or a request). */
export function visibleMenu(router: Router | null, request: Request | undefined): MenuItem[] {
  if (!router || !request) return [];
  return router
    .menuEntries()
    .filter((entry) => mayOpen(router, request, entry))
    .map((entry) => ({ href: entry.path, label: entry.label, current: isCurrent(request.path, entry.path) }));
}
