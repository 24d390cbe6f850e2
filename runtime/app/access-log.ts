/**
 * The application's RequestTracing (runtime/http/server.ts): each request's id, believed from a trusted proxy's
 * `X-Request-Id` or made here, the log context that puts it in every line of the request (runtime/logger.ts), and
 * one access line per request on `fw.access` at INFO, the health routes excepted (docs/deploy.md "Logs").
 */
import cluster from 'node:cluster';
import { randomFillSync } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Request } from '../http/request.js';
import type { RequestTracing } from '../http/server.js';
import { getLogger, runWithLogContext, targetForLog } from '../logger.js';
import { getUser } from '../session/session.js';
import { getTrustedProxies } from './client-ip.js';
import { LIVENESS_PATH, READINESS_PATH } from './health.js';

const accessLog = getLogger('fw.access');

/** ACCESS_LOG: `on` (default, also when empty) or `off` (also 1/0, true/false, yes/no); throws on anything else. */
export function accessLogSetting(text: string | undefined): boolean {
  const value = text?.trim().toLowerCase() ?? '';
  if (['', 'on', '1', 'true', 'yes'].includes(value)) return true;
  if (['off', '0', 'false', 'no'].includes(value)) return false;
  throw new Error(`ACCESS_LOG : valeur inconnue « ${text} ». Attendu : on (une ligne par requête, par défaut) ou off.`);
}

/** Read by configureAccessLog() when a server is created; on until then. */
let accessLogOn = true;

/** Reads ACCESS_LOG (createServer calls it: a bad value stops the start). */
export function configureAccessLog(): void {
  accessLogOn = accessLogSetting(process.env.ACCESS_LOG);
}

/** An id a proxy may give: up to 128 characters of letters, digits, `.`, `_` and `-` (nginx's `$request_id` is 32 hex digits). */
const SAFE_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** Random bytes drawn 4 KiB at a time: one system call per 256 ids rather than one per id. */
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

/** A new request id: 16 random bytes in hex (32 characters, the shape of nginx's `$request_id`). */
export function newRequestId(): string {
  if (poolOffset === pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const id = pool.toString('hex', poolOffset, poolOffset + 16);
  poolOffset += 16;
  return id;
}

/**
 * The id of a request: its `X-Request-Id` when the peer is a trusted proxy (TRUSTED_PROXIES) and the value is a
 * short safe token, else a new one. A client that is not a proxy cannot choose the id its lines are logged under.
 */
export function requestIdOf(message: IncomingMessage): string {
  const sent = message.headers['x-request-id'];
  if (typeof sent !== 'string' || !SAFE_ID.test(sent)) return newRequestId();
  const proxies = getTrustedProxies();
  return proxies !== null && proxies.has(message.socket.remoteAddress ?? '') ? sent : newRequestId();
}

/** The signed-in user's id, when the request has a session holding one. */
function userIdOf(request: Request): string | number | undefined {
  const id = getUser(request)?.id;
  return typeof id === 'number' || typeof id === 'string' ? id : undefined;
}

/** The worker's number under WEB_CONCURRENCY > 1 (node:cluster's id), else undefined. */
const workerId: number | undefined = cluster.isWorker ? cluster.worker?.id : undefined;

/**
 * Writes the access line of a request: `GET /contacts?page=2 200 3.1 ms 5120 B` (and `user 7` when signed in) as
 * text; as JSON the message and the fields method, path, status, duration_ms, bytes, user_id, worker.
 */
export function logAccess(request: Request, status: number, bytes: number): void {
  const path = request.path;
  if (!accessLogOn || path === LIVENESS_PATH || path === READINESS_PATH || !accessLog.enabled('INFO')) return;
  const durationMs = request.receivedAt > 0 ? Math.round((performance.now() - request.receivedAt) * 100) / 100 : 0;
  const target = targetForLog(path, request.query);
  const userId = userIdOf(request);
  const method = request.originalMethod;
  accessLog.summary('INFO', `${method} ${target} ${status} ${durationMs} ms ${bytes} B${userId === undefined ? '' : ` user ${userId}`}`, {
    method,
    path: target,
    status,
    duration_ms: durationMs,
    bytes,
    user_id: userId,
    worker: workerId,
  });
}

/** The server's tracing of the application (runtime/app/serve.ts). */
export const ACCESS_TRACING: RequestTracing = {
  idOf: requestIdOf,
  run: (request, fn) => runWithLogContext({ requestId: request.id }, fn),
  written: logAccess,
};
