/**
 * `fw-mvc/auth`: login, logout, password reset, passwords, login limits, audit, the users repository (docs/auth.md), and the profile
 * pages the starters' `ProfileController` calls (docs/starters.md).
 */
export { registerAuthRoutes } from './routes.js';
export {
  registerPasswordResetRoutes,
  settlePasswordResetRequests,
  resetBaseUrl,
  showPasswordForgot,
  submitPasswordForgot,
  showPasswordReset,
  submitPasswordReset,
  PASSWORD_RESET_ACTION,
  PASSWORD_RESET_MAIL,
  PASSWORD_RESET_MAX_PER_EMAIL,
  PASSWORD_RESET_MAX_PER_IP,
  PASSWORD_RESET_WINDOW_SECONDS,
} from './password-reset.js';
export {
  consumeResetToken,
  createResetToken,
  findResetToken,
  hashResetToken,
  PASSWORD_RESET_PURPOSE,
  PASSWORD_RESET_TTL_SECONDS,
  type ResetTokenRefusal,
  type ResetTokenRow,
} from './password-reset-tokens.js';
export {
  showLogin,
  submitLogin,
  logout,
  openSession,
  safeNext,
  setSecondFactor,
  type SecondFactor,
  DEFAULT_LOGIN_REDIRECT,
  SESSION_USER_KEY,
  type SessionUser,
} from './login.js';
export * from './passwords.js';
export * from '../rate-limit/index.js';
export * from './login-limit.js';
export * from './audit.js';
export * from './users.js';
export {
  ProfilePages,
  PROFILE_PASSWORD_ACTION,
  DEFAULT_PROFILE_MESSAGES,
  type ProfilePagesOptions,
  type ProfileMessages,
  type ProfilePasswordErrors,
} from './profile.js';
export { AUTH_TABLES, AUTH_TABLE_NAMES, authTableSql, type AuthTable } from './schema.js';
