/** The routes of `fw-mvc/mfa` (docs/decisions.md#second-factor; docs/auth.md "Second factor"). */
import { setSecondFactor } from '../auth/login.js';
import type { Router } from '../http/router.js';
import { confirmMfa, disableMfa, regenerateRecoveryCodes, setupMfa, showMfaAccount } from './account.js';
import { mfaSecondFactor, showMfaChallenge, submitMfaChallenge } from './login-mfa.js';

/**
 * Installs the second step of logins (`setSecondFactor`) and adds its routes: `GET` and `POST /login/mfa`
 * (public: the user is not signed in yet; CSRF required on the POST), and the enrolment pages under
 * `/account/mfa` (behind login and CSRF). Call it beside `registerAuthRoutes(router)`.
 */
export function registerMfaRoutes(router: Router): void {
  setSecondFactor(mfaSecondFactor);
  router.add('GET', '/login/mfa', showMfaChallenge, { name: 'login.mfa', public: true });
  router.add('POST', '/login/mfa', submitMfaChallenge, { name: 'login.mfa.submit', public: true });
  router.add('GET', '/account/mfa', showMfaAccount, { name: 'account.mfa' });
  router.add('POST', '/account/mfa/setup', setupMfa, { name: 'account.mfa.setup' });
  router.add('POST', '/account/mfa/confirm', confirmMfa, { name: 'account.mfa.confirm' });
  router.add('POST', '/account/mfa/recovery-codes', regenerateRecoveryCodes, { name: 'account.mfa.recovery_codes' });
  router.add('POST', '/account/mfa/disable', disableMfa, { name: 'account.mfa.disable' });
}
