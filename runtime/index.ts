/** The public runtime API of fw-mvc (what generated apps import). */
export { configure, get, getPath, resetConfig, ConfigKeyError, type ConfigKey, type ConfigValues } from './config.js';
export { EnvSyntaxError, loadEnv, parseEnv } from './env.js';
export {
  getLogger,
  setLogSink,
  setLogLevel,
  runWithLogContext,
  currentLogContext,
  outsideRequest,
  flushLogs,
  jsonLine,
  textLine,
  targetForLog,
  LogFormatError,
  type LogRecord,
  type LogContext,
} from './logger.js';
export { Request, UploadedFile, parseUrlEncoded, type MultiMap } from './http/request.js';
export { Response } from './http/response.js';
export { HttpError, RequestEntityTooLarge, BadRequestError, TooManyIdsError, TooManyFieldsError } from './http/errors.js';
export {
  Router,
  RouteGroup,
  RouteError,
  SAFE_METHODS,
  UNSAFE_METHODS,
  markAccess,
  type AccessCheck,
  type Handler,
  type MenuEntry,
  type MenuOptions,
  type RouteEntry,
  type RouteOptions,
} from './http/router.js';
export { visibleMenu, type MenuItem } from './templates/menu.js';
export { jsonResponse, apiSuccess, apiError, escapeHtml, renderErrorsHtml, noStore, SerializationError, JSON_TYPE } from './http/helpers.js';
export { html } from './app/html.js';
export { createServer, serve, stopGracefully, type ServeOptions } from './app/serve.js';
export { contentTypeFor } from './http/static.js';
export { Application, ApiRoutesImportError, loadApiRoutes, type ApplicationOptions } from './application.js';
export { BaseController, errorPage, registerContextProvider, renderFlashHtml, type Context } from './controller.js';
export { AuthMiddleware, CsrfMiddleware, requireAuth, requireCsrf, requireRole, type Middleware } from './middleware.js';
export { buildCspHeader, generateNonce, getRequestNonce, setRequestNonce, STATIC_SECURITY_HEADERS } from './security/headers.js';
export { csrfToken, verifyCsrf, CSRF_FIELD, CSRF_HEADER } from './security/csrf.js';
export { requireApiToken, getApiTokenFromRequest, isValidApiToken } from './security/api-token.js';
export {
  hashPassword,
  verifyPassword,
  passwordNeedsRehash,
  pbkdf2NeedsRehash,
  isPbkdf2Hash,
  checkPasswordPolicy,
  dummyVerifyPassword,
  preparePasswordHashing,
  PasswordPolicyError,
  ARGON2_PARAMS,
  PASSWORD_MIN_LENGTH,
  PASSWORD_MAX_LENGTH,
} from './auth/passwords.js';
export { recordLoginAttempt, isLoginLimited, LOGIN_MAX_FAILURES, LOGIN_WINDOW_SECONDS } from './auth/login-limit.js';
export {
  checkLimit,
  reserveAttempt,
  settleAttempt,
  cancelAttempt,
  clientAddressKey,
  type AttemptTicket,
  type ReserveAttemptOptions,
  getRateLimitStore,
  setRateLimitStore,
  rateLimitStoreFromConfig,
  MemoryRateLimitStore,
  DatabaseRateLimitStore,
  type RateLimitStore,
  type RateLimitAttempt,
  type RateLimitCount,
  type RateLimitReservation,
  type LimitStatus,
  type CheckLimitOptions,
} from './rate-limit/index.js';
export { logAuthEvent, sanitizeAuthAuditMetadata, AUTH_AUDIT_LOGGER, type AuthEventDetails } from './auth/audit.js';
export { resolveClientIp, TrustedProxies, TrustedProxiesError } from './http/client-ip.js';
export { getTrustedProxies } from './app/client-ip.js';
export { MemorySessionStore, newSessionId, sessionKey, type SessionStore, type SessionData } from './session/store.js';
export { FileSessionStore, type FileSessionStoreOptions } from './session/file-store.js';
export { DatabaseSessionStore, MariaDbSessionStore, type DatabaseSessionStoreOptions } from './session/database-store.js';
export { RedisSessionStore, type RedisSessionStoreOptions } from './session/redis-store.js';
export { RedisConnection, RedisUnavailableError, closeSharedRedis, sharedRedis } from './redis/client.js';
export { fwSessionsDdl, SESSIONS_TABLE } from './session/sessions-table.js';
export { sessionStoreFromConfig, sessionStoreName, SESSION_STORE_NAMES, type SessionStoreName } from './session/select.js';
export {
  setSessionStore,
  getSessionStore,
  createSession,
  getSession,
  deleteSession,
  regenerateSession,
  authenticateSession,
  setFlash,
  getFlash,
  getSessionId,
  isAuthenticated,
  getUser,
  userHasRole,
  requestSession,
  RequestSession,
  SESSION_COOKIE,
  type Flash,
  type FlashLevel,
} from './session/session.js';
export { templateManager, TemplateManager, TemplateError, type TemplateRenderer } from './templates/manager.js';
export { NunjucksRenderer, userCan } from './templates/nunjucks.js';
export { appTimeZone, formatDate, formatInstant } from './templates/format-date.js';
export { formatNumber } from './templates/format-number.js';
export { trans, clearTranslations } from './translations.js';
export * from './db/index.js';

// --- Forms, validator, pagination (docs/api-mapping.md "Forms, validator, pagination (`core.forms`, Validator,
// Pagination)") ---
export * from './forms/index.js';
export { Validator } from './validator.js';
export { Pagination, type PaginationOptions, type PaginationDict, type PaginationContext, type PageLink, type PageLinkParam } from './pagination.js';
export * from './crud/blocks.js';

// --- Uploads (docs/uploads.md) ---
export * from './uploads/index.js';
