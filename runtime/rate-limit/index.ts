/**
 * The attempt limiter and its stores (memory, database), used by the login (runtime/auth/login-limit.ts), MFA codes,
 * the profile's password change and uploads. Exported from `fw-mvc` and `fw-mvc/auth` (docs/auth.md "Login limits").
 */
export * from './limiter.js';
export {
  DEFAULT_RETENTION_SECONDS,
  MemoryRateLimitStore,
  checkAction,
  storageKey,
  type MemoryRateLimitStoreOptions,
  type RateLimitAttempt,
  type RateLimitCount,
  type RateLimitCounting,
  type RateLimitReservation,
  type RateLimitStore,
} from './stores.js';
export { DatabaseRateLimitStore, formatTime, type DatabaseRateLimitStoreOptions } from './database-store.js';
export { RedisRateLimitStore, type RedisRateLimitStoreOptions } from './redis-store.js';
