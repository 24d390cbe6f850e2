/**
 * Enrolment pages (docs/decisions.md#second-factor; docs/auth.md "Second factor"), behind login and CSRF: `GET /account/mfa` (state),
 * `POST /account/mfa/setup` (a pending factor: QR code, secret, URI), `POST /account/mfa/confirm` (a code activates
 * it and shows the 10 recovery codes once), `POST /account/mfa/recovery-codes` (a new batch, with a current code),
 * `POST /account/mfa/disable` (the password and a code). Wrong codes count toward the same per-user limit as the
 * login's second step, so a stolen session cannot guess its way to disabling the factor.
 */
import { appLayout, BaseController, errorPage } from '../controller.js';
import { get } from '../config.js';
import type { Request } from '../http/request.js';
import type { Router } from '../http/router.js';
import type { Response } from '../http/response.js';
import { trans } from '../translations.js';
import { logAuthEvent } from '../auth/audit.js';
import { SESSION_USER_KEY, type SessionUser } from '../auth/login.js';
import { verifyPassword } from '../auth/passwords.js';
import { findUserById } from '../auth/users.js';
import { existingSession } from '../session/session.js';
import { verifyMfaChallenge } from './challenge.js';
import { cancelMfaAttempt, reserveMfaAttempt, settleMfaAttempt } from './limit.js';
import { auditDetails, tooManyCodes } from './login-mfa.js';
import {
  activateTotpFactor,
  consumeTotpStep,
  countUnusedRecoveryCodes,
  createTotpFactor,
  deleteMfaForUser,
  getActiveMfaFactors,
  getPendingTotpFactor,
  replaceRecoveryCodes,
  type MfaFactor,
} from './model.js';
import { qrCodeSvg } from './qr.js';
import { normalizeMfaCode } from './recovery-codes.js';
import { groupSecret, matchTotpStep, totpUri } from './totp.js';

export const MFA_ACCOUNT_PATH = '/account/mfa';

/** The signed-in user (these routes are not public: the AuthMiddleware ran before). */
function sessionUser(request: Request): SessionUser {
  const user = existingSession(request)?.get<SessionUser>(SESSION_USER_KEY);
  if (!user || typeof user.id !== 'number') throw new Error('Page du second facteur atteinte sans utilisateur connecté : la route doit rester non publique.');
  return user;
}

function code(request: Request): string {
  return request.body.code?.[0] ?? '';
}

/**
 * The way back from the second factor's page: the route named `profile` (the auth starter's), else `dashboard`, else
 * the home page.
 */
function backLink(): { url: string; label: string } {
  const router = get('router') as Router | null;
  for (const name of ['profile', 'dashboard']) {
    try {
      if (router) return { url: router.urlFor(name), label: trans(`mfa.account.back_${name}`) };
    } catch {
      // No route of that name: the next one.
    }
  }
  return { url: '/', label: trans('mfa.account.back_home') };
}

/** `GET /account/mfa`, or that page again with an error on one of its forms. */
async function accountPage(request: Request, status = 200, errors: { regenerate?: string; disable?: string } = {}): Promise<Response> {
  const user = sessionUser(request);
  const factors = await getActiveMfaFactors(user.id);
  const factor = factors[0];
  const context = {
    enabled: Boolean(factor),
    factor: factor ? { label: factor.label, confirmed_at: factor.confirmedAt, last_used_at: factor.lastUsedAt } : null,
    recovery_left: factor ? await countUnusedRecoveryCodes(user.id) : 0,
    regenerate_error: errors.regenerate ?? '',
    disable_error: errors.disable ?? '',
    back: backLink(),
  };
  return BaseController.render('mfa/account.html', { status, request, context, base: appLayout() });
}

export function showMfaAccount(request: Request): Promise<Response> {
  return accountPage(request);
}

/** The setup page of a pending factor: QR code, secret in groups of four, URI, and the confirmation form. */
async function setupPage(request: Request, factor: MfaFactor, status = 200, error = ''): Promise<Response> {
  const user = sessionUser(request);
  const uri = totpUri(String(get('app_name')), user.login, factor.totpSecret);
  const context = {
    qr_svg: await qrCodeSvg(uri, trans('mfa.setup.qr_label')),
    secret_groups: groupSecret(factor.totpSecret),
    otpauth_uri: uri,
    error,
  };
  return BaseController.render('mfa/setup.html', { status, request, context, base: appLayout() });
}

function recoveryCodesPage(request: Request, codes: string[], enabledNow: boolean): Response {
  return BaseController.render('mfa/recovery_codes.html', { request, context: { codes, enabled_now: enabledNow }, base: appLayout() });
}

function backToAccount(request: Request, message: string, level: string): Response {
  return BaseController.redirect(MFA_ACCOUNT_PATH, { request, flash: message, level });
}

/** `POST /account/mfa/setup`: a new pending factor (a fresh secret each time), unless one is already active. */
export async function setupMfa(request: Request): Promise<Response> {
  const user = sessionUser(request);
  if ((await getActiveMfaFactors(user.id)).length > 0) return backToAccount(request, trans('mfa.account.already_enabled'), 'info');
  const factor = await createTotpFactor(user.id, { label: trans('mfa.factor.default_label') });
  logAuthEvent('mfa.setup.started', auditDetails(request, user.id, { factor_id: factor.id }));
  return setupPage(request, factor);
}

/** `POST /account/mfa/confirm`: a right code activates the pending factor and shows the recovery codes once. */
export async function confirmMfa(request: Request): Promise<Response> {
  const user = sessionUser(request);
  if ((await getActiveMfaFactors(user.id)).length > 0) return backToAccount(request, trans('mfa.account.already_enabled'), 'info');
  const pending = await getPendingTotpFactor(user.id);
  if (!pending) return backToAccount(request, trans('mfa.setup.none_pending'), 'warning');

  const { ticket, retryAfter } = await reserveMfaAttempt(request, user.id);
  if (!ticket) return tooManyCodes(request, user.id, retryAfter);

  const step = await matchTotpStep(pending.totpSecret, normalizeMfaCode(code(request)), pending.lastUsedStep);
  if (step === null || !(await consumeTotpStep(pending.id, step))) {
    await settleMfaAttempt(ticket, false);
    logAuthEvent('mfa.setup.failed', auditDetails(request, user.id, { factor_id: pending.id }));
    return setupPage(request, pending, 422, trans('mfa.setup.wrong_code'));
  }
  // The code was right either way: a factor activated meanwhile by another request is not a wrong code.
  await settleMfaAttempt(ticket, true);
  if (!(await activateTotpFactor(pending.id))) return backToAccount(request, trans('mfa.setup.none_pending'), 'warning');
  const codes = await replaceRecoveryCodes(user.id);
  logAuthEvent('mfa.enabled', auditDetails(request, user.id, { factor_id: pending.id }));
  return recoveryCodesPage(request, codes, true);
}

/** `POST /account/mfa/recovery-codes`: a current TOTP code replaces the batch by a new one, shown once. */
export async function regenerateRecoveryCodes(request: Request): Promise<Response> {
  const user = sessionUser(request);
  if ((await getActiveMfaFactors(user.id)).length === 0) return backToAccount(request, trans('mfa.account.not_enabled'), 'warning');
  const { ticket, retryAfter } = await reserveMfaAttempt(request, user.id);
  if (!ticket) return tooManyCodes(request, user.id, retryAfter);

  const accepted = await verifyMfaChallenge(user.id, code(request), { totpOnly: true });
  if (!accepted) {
    await settleMfaAttempt(ticket, false);
    logAuthEvent('mfa.revalidation.failed', auditDetails(request, user.id, { action: 'recovery_codes' }));
    return accountPage(request, 422, { regenerate: trans('mfa.account.wrong_code') });
  }
  await settleMfaAttempt(ticket, true);
  logAuthEvent('mfa.revalidation.success', auditDetails(request, user.id, { action: 'recovery_codes' }));
  const codes = await replaceRecoveryCodes(user.id);
  logAuthEvent('mfa.recovery_codes.regenerated', auditDetails(request, user.id));
  return recoveryCodesPage(request, codes, false);
}

/** `POST /account/mfa/disable`: the password and a code (TOTP or recovery) remove the factor and the codes. */
export async function disableMfa(request: Request): Promise<Response> {
  const user = sessionUser(request);
  if ((await getActiveMfaFactors(user.id)).length === 0) return backToAccount(request, trans('mfa.account.not_enabled'), 'warning');
  const { ticket, retryAfter } = await reserveMfaAttempt(request, user.id);
  if (!ticket) return tooManyCodes(request, user.id, retryAfter);

  const account = await findUserById(user.id);
  if (!account) {
    await cancelMfaAttempt(ticket);
    return errorPage(403, request);
  }
  // The code is only tried (and consumed) once the password is right.
  const passwordOk = await verifyPassword(request.body.password?.[0] ?? '', account.passwordHash);
  const accepted = passwordOk ? await verifyMfaChallenge(user.id, code(request)) : null;
  if (!accepted) {
    await settleMfaAttempt(ticket, false);
    logAuthEvent('mfa.revalidation.failed', auditDetails(request, user.id, { action: 'disable', reason: passwordOk ? 'wrong_code' : 'wrong_password' }));
    return accountPage(request, 422, { disable: trans('mfa.account.disable_failed') });
  }
  await settleMfaAttempt(ticket, true);
  logAuthEvent('mfa.revalidation.success', auditDetails(request, user.id, { action: 'disable', method: accepted.method }));
  await deleteMfaForUser(user.id);
  logAuthEvent('mfa.disabled', auditDetails(request, user.id));
  return backToAccount(request, trans('mfa.account.disabled'), 'success');
}
