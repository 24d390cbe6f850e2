/**
 * The controllers of the `auth` and `mfa` starters (docs/starters.md): `DashboardController` (`GET /dashboard`) and
 * `ProfileController` (`GET /profile`, `POST /profile/password`), which calls `ProfilePages` of `fw-mvc/auth` (the
 * library code: limit, checks, audit, session renewal) and keeps what a project changes. Manual files: created once,
 * the user's afterwards.
 */

export const DASHBOARD_CONTROLLER = 'DashboardController';
export const PROFILE_CONTROLLER = 'ProfileController';

export function emitDashboardController(command: string): string {
  return `// The dashboard of the signed-in user. This file is yours: \`${command}\` created it and never overwrites it
// (unless --force).
import { BaseController, getUser, type Request, type Response } from 'fw-mvc';

export class ${DASHBOARD_CONTROLLER} extends BaseController {
  /** GET /dashboard (behind login): who is signed in, with the roles read at login. */
  static index(request: Request): Response {
    const user = getUser(request);
    return BaseController.render('dashboard/index.html', { request, context: { title: 'Tableau de bord', user } });
  }
}
`;
}

export function emitProfileController(command: string): string {
  return `// The profile of the signed-in user: e-mail, roles, last login, and the change of password. This file is yours:
// \`${command}\` created it and never overwrites it (unless --force). The pages are fw-mvc/auth's ProfilePages
// (docs/starters.md): change their options here (messages, limit of wrong passwords…), or extend the class to add
// variables to the page (its \`context\` method).
import { BaseController, type Request, type Response } from 'fw-mvc';
import { ProfilePages } from 'fw-mvc/auth';

const pages = new ProfilePages({ template: 'profile/show.html', title: 'Mon profil', redirectTo: '/profile' });

export class ${PROFILE_CONTROLLER} extends BaseController {
  /** GET /profile (behind login). */
  static show(request: Request): Promise<Response> {
    return pages.show(request);
  }

  /**
   * POST /profile/password (behind login and CSRF): the current password, the new one twice. A wrong field answers
   * 422 with the page and its message; 5 wrong current passwords in 5 minutes answer 429. Success ends every
   * session of the user (other browsers are signed out) and opens a fresh one for this browser.
   */
  static changePassword(request: Request): Promise<Response> {
    return pages.changePassword(request);
  }
}
`;
}
