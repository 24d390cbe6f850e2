/**
 * The controllers of the `auth` and `mfa` starters (docs/starters.md): `DashboardController` (`GET /dashboard`) and
 * `ProfileController` (`GET /profile`, `POST /profile/password`). Manual files: created once, the user's afterwards.
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
// \`${command}\` created it and never overwrites it (unless --force).
import { BaseController, cancelAttempt, checkPasswordPolicy, errorPage, getUser, logAuthEvent, reserveAttempt, settleAttempt, verifyPassword, type Request, type Response } from 'fw-mvc';
import { changeUserPassword, findUserById, openSession, userRoles, type SessionUser } from 'fw-mvc/auth';

/** Wrong current passwords allowed per user and window, so that a stolen session cannot guess the password. */
const PASSWORD_ACTION = 'profile_password';
const MAX_FAILURES = 5;
const WINDOW_SECONDS = 300;

type Errors = Partial<Record<'current_password' | 'new_password' | 'new_password_confirm', string>>;

/** The session user (the routes are not public: the login check ran before). */
function sessionUser(request: Request): SessionUser {
  const user = getUser(request) as SessionUser | undefined;
  if (!user || typeof user.id !== 'number') throw new Error('Page du profil atteinte sans utilisateur connecté : la route doit rester non publique.');
  return user;
}

function field(request: Request, name: string): string {
  return request.body[name]?.[0] ?? '';
}

/** The profile page, with the errors of the password form (status 422) when there are some. */
async function profilePage(request: Request, status = 200, errors: Errors = {}): Promise<Response> {
  const account = await findUserById(sessionUser(request).id);
  if (!account) return errorPage(404, request);
  const context = {
    title: 'Mon profil',
    account: { email: account.email, last_login_at: account.lastLoginAt, created_at: account.createdAt },
    roles: (await userRoles(account.id)).sort(),
    errors,
  };
  // A page behind the login: the Application sends it with Cache-Control: no-store.
  return BaseController.render('profile/show.html', { status, request, context });
}

export class ${PROFILE_CONTROLLER} extends BaseController {
  /** GET /profile (behind login). */
  static show(request: Request): Promise<Response> {
    return profilePage(request);
  }

  /**
   * POST /profile/password (behind login and CSRF): the current password, the new one twice. A wrong field answers
   * 422 with the page and its message. Success ends every session of the user (other browsers are signed out) and
   * opens a fresh one for this browser.
   */
  static async changePassword(request: Request): Promise<Response> {
    const user = sessionUser(request);
    const key = \`user:\${user.id}\`;
    // Counted before the password is checked, so that concurrent guesses cannot pass the limit together.
    const { ticket, retryAfter } = await reserveAttempt({ action: PASSWORD_ACTION, keys: [key], ip: request.ip, userId: user.id, max: MAX_FAILURES, windowSeconds: WINDOW_SECONDS });
    if (!ticket) {
      const response = errorPage(429, request, { retry_after: retryAfter });
      response.headers['Retry-After'] = String(retryAfter);
      return response;
    }
    const account = await findUserById(user.id);
    if (!account) {
      await cancelAttempt(ticket);
      return errorPage(404, request);
    }
    const next = field(request, 'new_password');
    const errors: Errors = {};
    const currentOk = await verifyPassword(field(request, 'current_password'), account.passwordHash);
    if (!currentOk) errors.current_password = 'Mot de passe actuel incorrect.';
    const policy = checkPasswordPolicy(next);
    if (policy) errors.new_password = policy;
    else if (next !== field(request, 'new_password_confirm')) errors.new_password_confirm = 'Les deux mots de passe ne correspondent pas.';
    // A wrong current password stays counted; a right one is a success, whatever the other fields say.
    await settleAttempt(ticket, currentOk, currentOk && Object.keys(errors).length === 0 ? [key] : []);
    if (Object.keys(errors).length > 0) return profilePage(request, 422, errors);

    await changeUserPassword(account.id, next);
    logAuthEvent('user.password_changed', { userId: account.id, ip: request.ip, userAgent: request.header('user-agent') ?? null, metadata: { via: 'profile' } });
    await openSession(request, account);
    return BaseController.redirect('/profile', { request, flash: 'Mot de passe changé. Vos autres sessions sont fermées.', level: 'success' });
  }
}
`;
}
