/** Middlewares run for non-public routes (step 5 of the dispatch) and the CSRF check (step 4; docs/runtime.md "Request flow"). */
import type { Request } from './http/request.js';
import { Response } from './http/response.js';
import { errorPage, wantsJson } from './controller.js';
import { apiError } from './http/helpers.js';
import { CSRF_FIELD, CSRF_HEADER, verifyCsrf } from './security/csrf.js';
import { isAuthenticated, userHasRole } from './session/session.js';
import { markAccess, type Handler } from './http/router.js';

export interface Middleware {
  /** A Response stops the request; null or undefined lets it continue. */
  check(request: Request): Response | null | undefined | Promise<Response | null | undefined>;
}

/** Redirects to the login URL (with `next`) when the session holds no user; JSON clients get a 401 envelope. */
export class AuthMiddleware implements Middleware {
  constructor(readonly loginUrl = '/login') {}
  check(request: Request): Response | null {
    if (isAuthenticated(request)) return null;
    if (wantsJson(request)) return apiError('Authentification requise.', 401, 'unauthorized');
    const next = request.path + (request.query ? `?${request.query}` : '');
    return new Response(302, '', 'text/html; charset=utf-8', { Location: `${this.loginUrl}?next=${encodeURIComponent(next)}` });
  }
}

/** Refuses an unsafe request whose token is missing or wrong: 403 page, or the `csrf_failed` envelope. */
export class CsrfMiddleware implements Middleware {
  constructor(
    readonly fieldName = CSRF_FIELD,
    readonly headerName = CSRF_HEADER,
  ) {}
  check(request: Request, api = false): Response | null {
    if (verifyCsrf(request, this.fieldName, this.headerName)) return null;
    return errorPage(
      403,
      request,
      { csrf: true },
      {
        api,
        code: 'csrf_failed',
        message: 'Jeton CSRF manquant ou invalide : rechargez la page et renvoyez le formulaire.',
      },
    );
  }
}

/** Wraps a handler: login required. */
export function requireAuth(handler: Handler, loginUrl = '/login'): Handler {
  const auth = new AuthMiddleware(loginUrl);
  return markAccess((request) => auth.check(request) ?? handler(request), isAuthenticated);
}

/** Wraps a handler: CSRF token required (for routes declared with `csrf: false` that still want it on some path). */
export function requireCsrf(handler: Handler): Handler {
  const csrf = new CsrfMiddleware();
  return (request) => csrf.check(request) ?? handler(request);
}

/** Wraps a handler: the session user must hold the role, otherwise 403. */
export function requireRole(role: string, handler: Handler): Handler {
  const may = (request: Request): boolean => isAuthenticated(request) && userHasRole(request, role);
  return markAccess((request) => {
    if (!isAuthenticated(request)) return new AuthMiddleware().check(request)!;
    return may(request) ? handler(request) : errorPage(403, request);
  }, may);
}
