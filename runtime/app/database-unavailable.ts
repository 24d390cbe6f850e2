/**
 * A database that cannot be used right now (DatabaseUnavailableError: unreachable, stalled past a time-out,
 * locked), or Redis (RedisUnavailableError, one of them), is answered 503 with `Retry-After`, the `errors/503.html`
 * page or the JSON error envelope (`database_unavailable`), rather than 500 (docs/runtime.md "Database time-outs").
 */
import { get } from '../config.js';
import { errorPage } from '../controller.js';
import { DatabaseUnavailableError } from '../db/errors.js';
import { RepeatedLog, getLogger, pathForLog } from '../logger.js';
import type { Request } from '../http/request.js';
import type { Response } from '../http/response.js';
import { RedisUnavailableError } from '../redis/client.js';

/** One line per cause and per interval, with the count: during an outage every request fails the same way. */
const databaseLog = new RepeatedLog(getLogger('fw.db'));
const redisLog = new RepeatedLog(getLogger('fw.redis'));

/** The 503 for `err` when it is a DatabaseUnavailableError, else null (the caller answers as before). */
export function databaseUnavailableResponse(err: unknown, request: Request, api?: boolean): Response | null {
  if (!(err instanceof DatabaseUnavailableError)) return null;
  const retryAfter = Math.max(1, Math.round(Number(get('db_retry_after')) || 1));
  // The message names the target (host:port or file) and the settings to check, never a password; no stack.
  const redis = err instanceof RedisUnavailableError;
  (redis ? redisLog : databaseLog).error(
    `${err.reason} ${err.message}`,
    `${redis ? 'Redis' : 'Base de données'} indisponible sur ${request.method} ${pathForLog(request.path)} (${err.reason}) : ${err.message}`,
  );
  const response = errorPage(
    503,
    request,
    // The page names what is away in words for a visitor: the database, or a service (Redis).
    { retry_after: retryAfter, unavailable: redis ? 'service' : 'database' },
    {
      api,
      code: 'database_unavailable',
      message: `${redis ? 'Service' : 'Base de données'} momentanément indisponible : réessayez dans ${retryAfter} s.`,
    },
  );
  response.headers['Retry-After'] = String(retryAfter);
  return response;
}
