/** The framework's authentication routes (docs/auth.md "Login and logout"), added by `fw auth:init` to `mvc/routes.ts`. */
import type { Router } from '../http/router.js';
import { logout, showLogin, submitLogin } from './login.js';

/**
 * Adds `GET /login` (`login`), `POST /login` (`login.submit`) and `POST /logout` (`logout`). All three are public
 * (an anonymous visitor reaches them) and the two POSTs require the CSRF token.
 */
export function registerAuthRoutes(router: Router): void {
  router.add('GET', '/login', showLogin, { name: 'login', public: true });
  router.add('POST', '/login', submitLogin, { name: 'login.submit', public: true });
  router.add('POST', '/logout', logout, { name: 'logout', public: true });
}
