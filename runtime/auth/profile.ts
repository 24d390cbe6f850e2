/**
 * The profile pages of the `auth`, `mfa` and `suivi` starters (docs/starters.md, starter 2), behind login:
 * `GET /profile` (e-mail, roles, last login, creation date) and `POST /profile/password` (the current password, the
 * new one twice). A project's `ProfileController` holds a `ProfilePages` and calls it; what a project changes
 * (template, title, where success leads, the messages) are options, and a subclass may add to the page's context.
 *
 * The change of password: a wrong field answers 422 with the page and its message; wrong current passwords are
 * limited per user (`reserveAttempt`, counted before the check so that concurrent guesses cannot pass the limit
 * together: a stolen session cannot guess the password); success stores the new hash with `changeUserPassword`
 * (which ends every session of the user), logs `user.password_changed`, and opens a fresh session for this browser.
 */
import { BaseController, errorPage } from '../controller.js';
import type { Request } from '../http/request.js';
import type { Response } from '../http/response.js';
import { getUser } from '../session/session.js';
import { logAuthEvent } from './audit.js';
import { openSession, type SessionUser } from './login.js';
import { checkPasswordPolicy, verifyPassword } from './passwords.js';
import { cancelAttempt, reserveAttempt, settleAttempt } from '../rate-limit/index.js';
import { changeUserPassword, findUserById, userRoles, type AuthUser } from './users.js';

/** The limiter's action for wrong current passwords (the name the limit stores count under). */
export const PROFILE_PASSWORD_ACTION = 'profile_password';

/** The fields of the password form that can carry an error. */
export type ProfilePasswordErrors = Partial<Record<'current_password' | 'new_password' | 'new_password_confirm', string>>;

/** The messages of the password form (the policy's own message is `checkPasswordPolicy`'s). */
export interface ProfileMessages {
  /** The current password is wrong. */
  readonly wrongCurrentPassword: string;
  /** The confirmation differs from the new password. */
  readonly confirmationMismatch: string;
  /** The flash after a change of password. */
  readonly passwordChanged: string;
}

export interface ProfilePagesOptions {
  /** The page's template (default `profile/show.html`), rendered with `title`, `account`, `roles` and `errors`. */
  readonly template?: string;
  /** The page's title (default `Mon profil`). */
  readonly title?: string;
  /** Where a changed password leads (default `/profile`), with `messages.passwordChanged` as a success flash. */
  readonly redirectTo?: string;
  readonly messages?: Partial<ProfileMessages>;
  /** Wrong current passwords allowed per user in `windowSeconds` (default 5 in 300 s); then 429 with Retry-After. */
  readonly maxFailures?: number;
  readonly windowSeconds?: number;
}

export const DEFAULT_PROFILE_MESSAGES: ProfileMessages = {
  wrongCurrentPassword: 'Mot de passe actuel incorrect.',
  confirmationMismatch: 'Les deux mots de passe ne correspondent pas.',
  passwordChanged: 'Mot de passe changé. Vos autres sessions sont fermées.',
};

/** The session user (the routes are not public: the login check ran before). */
function sessionUser(request: Request): SessionUser {
  const user = getUser(request) as SessionUser | undefined;
  if (!user || typeof user.id !== 'number') throw new Error('Page du profil atteinte sans utilisateur connecté : la route doit rester non publique.');
  return user;
}

function field(request: Request, name: string): string {
  return request.body[name]?.[0] ?? '';
}

export class ProfilePages {
  readonly template: string;
  readonly title: string;
  readonly redirectTo: string;
  readonly messages: ProfileMessages;
  readonly maxFailures: number;
  readonly windowSeconds: number;

  constructor(options: ProfilePagesOptions = {}) {
    this.template = options.template ?? 'profile/show.html';
    this.title = options.title ?? 'Mon profil';
    this.redirectTo = options.redirectTo ?? '/profile';
    this.messages = { ...DEFAULT_PROFILE_MESSAGES, ...options.messages };
    this.maxFailures = options.maxFailures ?? 5;
    this.windowSeconds = options.windowSeconds ?? 300;
  }

  /** `GET /profile`. */
  show(request: Request): Promise<Response> {
    return this.page(request);
  }

  /**
   * `POST /profile/password` (behind login and CSRF). A wrong current password stays counted; a right one is a
   * success, whatever the other fields say.
   */
  async changePassword(request: Request): Promise<Response> {
    const user = sessionUser(request);
    const key = `user:${user.id}`;
    const { ticket, retryAfter } = await reserveAttempt({
      action: PROFILE_PASSWORD_ACTION,
      keys: [key],
      ip: request.ip,
      userId: user.id,
      max: this.maxFailures,
      windowSeconds: this.windowSeconds,
    });
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
    const errors: ProfilePasswordErrors = {};
    const currentOk = await verifyPassword(field(request, 'current_password'), account.passwordHash);
    if (!currentOk) errors.current_password = this.messages.wrongCurrentPassword;
    const policy = checkPasswordPolicy(next);
    if (policy) errors.new_password = policy;
    else if (next !== field(request, 'new_password_confirm')) errors.new_password_confirm = this.messages.confirmationMismatch;
    await settleAttempt(ticket, currentOk, currentOk && Object.keys(errors).length === 0 ? [key] : []);
    if (Object.keys(errors).length > 0) return this.page(request, 422, errors);

    await changeUserPassword(account.id, next);
    logAuthEvent('user.password_changed', {
      userId: account.id,
      ip: request.ip,
      userAgent: request.header('user-agent') ?? null,
      metadata: { via: 'profile' },
    });
    await openSession(request, account);
    return BaseController.redirect(this.redirectTo, { request, flash: this.messages.passwordChanged, level: 'success' });
  }

  /** The profile page, with the errors of the password form (status 422) when there are some; 404 without the user row. */
  protected async page(request: Request, status = 200, errors: ProfilePasswordErrors = {}): Promise<Response> {
    const account = await findUserById(sessionUser(request).id);
    if (!account) return errorPage(404, request);
    // A page behind the login: the Application sends it with Cache-Control: no-store.
    return BaseController.render(this.template, { status, request, context: await this.context(request, account, errors) });
  }

  /** The template's variables; a subclass adds its own to them. Moments are in UTC (`format_instant` shows them). */
  protected async context(_request: Request, account: AuthUser, errors: ProfilePasswordErrors): Promise<Record<string, unknown>> {
    return {
      title: this.title,
      account: { email: account.email, last_login_at: account.lastLoginAt, created_at: account.createdAt },
      roles: (await userRoles(account.id)).sort(),
      errors,
    };
  }
}
