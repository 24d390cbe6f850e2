/**
 * What the server refuses of its stores before it starts (serve(), runtime/app/serve.ts), rather than failing
 * request after request: state kept in one process with several processes, and a Redis store whose address the
 * client cannot read. `fw doctor` and `fw project:check` report the same through these functions (FW-ENV-005,
 * FW-ENV-006; docs/diagnostics.md).
 */
import { rateLimitStoreName } from '../rate-limit/limiter.js';
import { checkedRedisUrl } from '../redis/client.js';
import { sessionStoreName } from '../session/select.js';

/** Refuses N > 1 with a store that lives in one process: each worker would have its own sessions or counts. */
export function refuseSplitState(workers: number): void {
  const problems: string[] = [];
  if (sessionStoreName() === 'memory') problems.push('les sessions (SESSION_STORE=memory : choisissez redis, database, ou file sur une seule machine)');
  if (rateLimitStoreName() === 'memory') problems.push('les limites de tentatives (RATE_LIMIT_STORE=memory : choisissez redis ou database)');
  if (problems.length === 0) return;
  throw new Error(
    `WEB_CONCURRENCY=${workers} : ${workers} processus se partageraient ${problems.join(' et ')} ; chacun aurait les siens. ` +
      'Configurez un stockage partagé, ou WEB_CONCURRENCY=1.',
  );
}

/**
 * The stores that live on Redis (sessions, attempt limits), in that order; none when neither does. An unknown store
 * name throws (its own message).
 */
export function redisStores(): Array<'SESSION_STORE' | 'RATE_LIMIT_STORE'> {
  const stores: Array<'SESSION_STORE' | 'RATE_LIMIT_STORE'> = [];
  if (sessionStoreName() === 'redis') stores.push('SESSION_STORE');
  if (rateLimitStoreName() === 'redis') stores.push('RATE_LIMIT_STORE');
  return stores;
}

/** With a Redis store, refuses a `redis_url` / REDIS_URL the client cannot read (unset is redis://127.0.0.1:6379). */
export function refuseUnusableRedis(): void {
  if (redisStores().length > 0) checkedRedisUrl();
}
