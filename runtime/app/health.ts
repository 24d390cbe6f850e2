/**
 * The health routes (docs/deploy.md "Health routes"), answered before routing, static files and sessions:
 * - `GET /up`, liveness: 200 `ok` as long as the process answers; it touches no database, no session, no cookie.
 * - `GET /up/ready`, readiness: the database (`SELECT 1`), Redis when a store lives there, and the mail sender's
 *   server (a TCP connection to `mail_host`, or the `mail_dir` folder writable for the file transport), each within
 *   HEALTH_CHECK_MS; 200 when all answer, else 503 with `Retry-After`; a small JSON body names each check.
 * Neither is logged per request; a readiness check that starts failing is logged once per interval (WARNING).
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import tls from 'node:tls';
import { get, getPath } from '../config.js';
import { getDatabase } from '../db/database.js';
import type { Request } from '../http/request.js';
import { Response } from '../http/response.js';
import { RepeatedLog, getLogger } from '../logger.js';
import { sharedRedis } from '../redis/client.js';
import { redisStores } from './stores.js';

export const LIVENESS_PATH = '/up';
export const READINESS_PATH = '/up/ready';
/** Milliseconds each readiness check has before it counts as failed. */
export const HEALTH_CHECK_MS = 1000;

/** How long each readiness check may take: HEALTH_CHECK_MS, or `HEALTH_CHECK_MS` of the environment (milliseconds). */
function checkMs(): number {
  const set = Number(process.env.HEALTH_CHECK_MS);
  return Number.isInteger(set) && set > 0 ? set : HEALTH_CHECK_MS;
}

const log = new RepeatedLog(getLogger('fw.health'));

/** What one check found: `ok`, `unused` (nothing of the application relies on it), or `unavailable`. */
export type CheckState = 'ok' | 'unused' | 'unavailable';

export interface Readiness {
  readonly ready: boolean;
  readonly checks: Readonly<Record<'database' | 'redis' | 'mail', CheckState>>;
}

/** The answer of a health route, or null when `request` is for neither. */
export function healthResponse(request: Request): Response | Promise<Response> | null {
  const path = request.path;
  if (path !== LIVENESS_PATH && path !== READINESS_PATH) return null;
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return plain(405, 'Méthode non autorisée.\n', { Allow: 'GET, HEAD' });
  }
  if (path === LIVENESS_PATH) return plain(200, 'ok\n');
  return readiness().then((result) => {
    const failed = Object.entries(result.checks)
      .filter(([, state]) => state === 'unavailable')
      .map(([name]) => name);
    const body = JSON.stringify({ status: result.ready ? 'ok' : 'unavailable', checks: result.checks, ...(result.ready ? {} : { failed }) });
    const response = new Response(result.ready ? 200 : 503, `${body}\n`, 'application/json; charset=utf-8', { 'Cache-Control': 'no-store' });
    if (!result.ready) response.headers['Retry-After'] = '5';
    return response;
  });
}

function plain(status: number, body: string, headers: Record<string, string> = {}): Response {
  return new Response(status, body, 'text/plain; charset=utf-8', { 'Cache-Control': 'no-store', ...headers });
}

/** The checks under way: requests that come meanwhile share their result, so a burst of them costs one run. */
let running: Promise<Readiness> | null = null;

/** Runs the three checks at once (or joins the run under way); none takes longer than HEALTH_CHECK_MS. */
export function readiness(): Promise<Readiness> {
  running ??= runChecks().finally(() => (running = null));
  return running;
}

async function runChecks(): Promise<Readiness> {
  const [database, redis, mail] = await Promise.all([
    check('database', databaseCheck),
    check('redis', redisStores().length > 0 ? redisCheck : null),
    check('mail', mailCheck()),
  ]);
  return { ready: database !== 'unavailable' && redis !== 'unavailable' && mail !== 'unavailable', checks: { database, redis, mail } };
}

async function check(name: string, run: (() => Promise<unknown>) | null): Promise<CheckState> {
  if (run === null) return 'unused';
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`pas de réponse en ${checkMs()} ms`)), checkMs());
  });
  try {
    await Promise.race([run(), late]);
    return 'ok';
  } catch (error) {
    const message = (error as Error)?.message ?? String(error);
    log.warning(`${name}`, `Prêt : non (${READINESS_PATH}) : ${name} indisponible : ${message}`);
    return 'unavailable';
  } finally {
    clearTimeout(timer);
  }
}

function databaseCheck(): Promise<unknown> {
  return getDatabase().fetchOne('SELECT 1 AS one');
}

function redisCheck(): Promise<unknown> {
  return sharedRedis().run((client) => client.eval('return 1', { keys: [], arguments: [] }));
}

/**
 * The mail sender's way out: the SMTP server accepts a connection (its greeting is not awaited: a TCP or TLS
 * handshake is enough, and costs the server no session); the file transport's folder is writable; the console
 * transport needs nothing. SMTP without `mail_host` is `unused` (the application sends no mail).
 */
function mailCheck(): (() => Promise<unknown>) | null {
  const transport = get('mail_transport');
  if (transport === 'file')
    return () =>
      fs.promises.access(getPath('mail_dir'), fs.constants.W_OK).catch(() => fs.promises.access(path.dirname(getPath('mail_dir')), fs.constants.W_OK));
  if (transport !== 'smtp' || !get('mail_host')) return null;
  const host = String(get('mail_host'));
  const port = Number(get('mail_port'));
  const secure = Boolean(get('mail_use_ssl'));
  return () =>
    new Promise<void>((resolve, reject) => {
      const socket = secure ? tls.connect({ host, port, servername: host }) : net.connect({ host, port });
      const timer = setTimeout(() => fail(new Error(`pas de connexion en ${checkMs()} ms`)), checkMs());
      function fail(error: Error): void {
        clearTimeout(timer);
        socket.destroy();
        reject(new Error(`SMTP ${host}:${port} : ${error.message}`));
      }
      socket.once('error', fail);
      socket.once(secure ? 'secureConnect' : 'connect', () => {
        clearTimeout(timer);
        socket.destroy();
        resolve();
      });
    });
}
