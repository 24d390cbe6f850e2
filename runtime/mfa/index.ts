/**
 * `fw-mvc/mfa`: the optional second factor (TOTP and recovery codes; docs/auth.md "Second factor"). Only apps that
 * import it load otplib. `registerMfaRoutes(router)` wires it into the login of `fw-mvc/auth`.
 */
export { registerMfaRoutes } from './routes.js';
export {
  startMfaChallenge,
  hasPendingMfaChallenge,
  getMfaChallengeUserId,
  verifyMfaChallenge,
  clearMfaChallenge,
  mfaChallengeState,
  type MfaChallengeState,
  type MfaVerification,
  MFA_USER_KEY,
  MFA_STARTED_AT_KEY,
  MFA_NEXT_KEY,
  MFA_CHALLENGE_TTL_SECONDS,
  MFA_MAX_FAILURES,
  MFA_LIMIT_WINDOW_SECONDS,
} from './challenge.js';
export {
  isMfaEnabled,
  getActiveMfaFactors,
  createTotpFactor,
  getPendingTotpFactor,
  activateTotpFactor,
  consumeTotpStep,
  replaceRecoveryCodes,
  consumeRecoveryCode,
  countUnusedRecoveryCodes,
  deleteMfaForUser,
  type MfaFactor,
  type MfaFactorStatus,
  type MfaDb,
} from './model.js';
export { generateTotpSecret, totpUri, groupSecret, matchTotpStep, totpStep, TOTP_PERIOD, TOTP_DIGITS, TOTP_WINDOW_STEPS } from './totp.js';
export { generateRecoveryCodes, normalizeMfaCode, hashRecoveryCode, RECOVERY_CODE_COUNT, RECOVERY_CODE_ALPHABET } from './recovery-codes.js';
export { showMfaChallenge, submitMfaChallenge, mfaSecondFactor, MFA_CHALLENGE_PATH } from './login-mfa.js';
export { showMfaAccount, setupMfa, confirmMfa, regenerateRecoveryCodes, disableMfa, MFA_ACCOUNT_PATH } from './account.js';
export { qrCodeSvg } from './qr.js';
export { reserveMfaAttempt, settleMfaAttempt, cancelMfaAttempt } from './limit.js';
