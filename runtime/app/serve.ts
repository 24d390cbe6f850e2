/**
 * The server of an Application: runtime/http/server.ts given what the application fixes (the security headers and
 * the CSP, the limits and time-outs, the trusted proxies, its error pages, its logger), on HOST/PORT, stopped
 * gracefully on SIGTERM. With WEB_CONCURRENCY (or `workers`) above 1, the process becomes the primary of
 * that many workers on the same port (cluster.ts); each worker serves as below.
 */
import cluster from 'node:cluster';
import type http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Application } from '../application.js';
import { errorPage } from '../controller.js';
import { HttpError } from '../http/errors.js';
import type { FixedHeaders } from '../http/fixed-headers.js';
import type { Request } from '../http/request.js';
import type { Response } from '../http/response.js';
import { createHttpServer, listen, responseWriter, stopAccepting, stopGracefully, type ResponseWriter } from '../http/server.js';
import { checkLogFormat, getLogger } from '../logger.js';
import { appSecret } from '../security/app-secret.js';
import { STATIC_SECURITY_HEADERS, buildCspHeader } from '../security/headers.js';
import { closeDatabase } from '../db/database.js';
import { closeSharedRedis } from '../redis/client.js';
import { ACCESS_TRACING, configureAccessLog } from './access-log.js';
import { startBackground, stopBackground } from './background.js';
import { primaryHandoffsDone, runPrimary, webConcurrency, workerTimeoutMs } from './cluster.js';
import { configuredClientIp, getTrustedProxies } from './client-ip.js';
import { CONFIGURED_BODY_LIMITS, serverLimits } from './limits.js';
import { loadMetrics, metricsSettings, withMetrics } from './metrics.js';
import { startPrimaryMetrics, startProcessMetricsPort, useClusterScrape } from './metrics-cluster.js';
import { refuseSplitState, refuseUnusableRedis } from './stores.js';

const log = getLogger('fw.http');

const STATIC_FLAT: readonly string[] = STATIC_SECURITY_HEADERS.flatMap(([name, value]) => [name, value]);
/** The six headers without a nonce, built once: most responses start from a copy of this. */
const PLAIN_SECURITY_FLAT: readonly string[] = [...STATIC_FLAT, 'Content-Security-Policy', buildCspHeader()];

/** The six security headers, the CSP with the request's nonce when it has one (docs/runtime.md). */
export const SECURITY_HEADERS: FixedHeaders = {
  names: new Set([...STATIC_SECURITY_HEADERS.map(([name]) => name.toLowerCase()), 'content-security-policy']),
  forRequest: (request) => (request?.nonce ? [...STATIC_FLAT, 'Content-Security-Policy', buildCspHeader(request.nonce)] : PLAIN_SECURITY_FLAT.slice()),
};

/** Writes a Response as the application's server does: the security headers first, never replaced by the response's own. */
export const writeResponse: ResponseWriter = responseWriter({ headers: SECURITY_HEADERS, log });

/**
 * The server's error handler: the page of an HttpError refused before the body (with the request's head), else
 * the bare 500 (the server has logged the error).
 */
function onServerError(err: unknown, request?: Request): Response {
  if (err instanceof HttpError && request) return errorPage(err.status, request, {}, { code: err.code, message: err.message });
  return errorPage(500);
}

export interface ServeOptions {
  host?: string;
  port?: number;
  /** PEM files; default from SSL_CERTFILE and SSL_KEYFILE. */
  certFile?: string;
  keyFile?: string;
  /** Install SIGTERM/SIGINT handlers that stop gracefully (default true). */
  handleSignals?: boolean;
  /** Print the listening address (default true). */
  announce?: boolean;
  /**
   * Processes serving the port: a number, or `auto` (one per core); default WEB_CONCURRENCY, else 1. Above 1,
   * this process forks them (node:cluster) and supervises them; its serve() resolves to null once they listen
   * (`workers: 1` always gives a server).
   */
  workers?: number | 'auto';
}

/** An http or https server for the application (HTTPS when both certificate files are given). */
export function createServer(app: Application, options: Pick<ServeOptions, 'certFile' | 'keyFile'> = {}): http.Server {
  const limits = serverLimits();
  // A bad TRUSTED_PROXIES entry, LOG_FORMAT or ACCESS_LOG stops the start here, rather than failing every request.
  getTrustedProxies();
  checkLogFormat();
  configureAccessLog();
  return createHttpServer(app, {
    onError: onServerError,
    headers: SECURITY_HEADERS,
    limits,
    bodyLimits: CONFIGURED_BODY_LIMITS,
    clientIp: configuredClientIp,
    log,
    tracing: withMetrics(ACCESS_TRACING),
    certFile: options.certFile ?? process.env.SSL_CERTFILE,
    keyFile: options.keyFile ?? process.env.SSL_KEYFILE,
  });
}

export { stopGracefully };

/**
 * Loads the API routes, listens on HOST/PORT (default 127.0.0.1:8000), and stops gracefully on SIGTERM: it stops
 * accepting, the requests in flight finish (http/server.ts stopAccepting), the background jobs stop, the database
 * and Redis pools close. Resolves to the
 * listening server; with more than one worker (`workers`, WEB_CONCURRENCY), this process is the primary: it serves
 * no request itself, forks the workers (whose own serve() resolves to their server) and resolves to null once they
 * all listen (cluster.ts). A setting the stores cannot work with throws before anything listens (stores.ts).
 */
export async function serve(app: Application, options: ServeOptions = {}): Promise<http.Server | null> {
  const host = options.host ?? process.env.HOST ?? '127.0.0.1';
  const workers = cluster.isPrimary ? webConcurrency(options.workers) : 1;
  refuseUnusableRedis();
  // Off (neither METRICS_TOKEN nor METRICS_PORT): prom-client is never loaded (docs/deploy.md "Metrics").
  const metrics = metricsSettings();
  if (workers > 1) {
    refuseSplitState(workers);
    if (metrics) await startPrimaryMetrics(metrics);
    // Read (or created) once here, so that every worker reads the same secret file rather than race to create it.
    appSecret();
    const scheme = (options.certFile ?? process.env.SSL_CERTFILE) && (options.keyFile ?? process.env.SSL_KEYFILE) ? 'https' : 'http';
    await runPrimary({
      workers,
      timeoutMs: workerTimeoutMs(),
      announce: options.announce ?? true,
      announceLine: ({ port }) => `fw-mvc : ${scheme}://${host}:${port}, ${workers} processus (Ctrl+C pour arrêter)\n`,
    });
    return null;
  }
  await app.init();
  if (await loadMetrics(metrics)) {
    if (cluster.isWorker) await useClusterScrape();
    else await startProcessMetricsPort(metrics!);
  }
  const port = options.port ?? Number(process.env.PORT ?? 8000);
  const server = createServer(app, options);
  await listen(server, port, host);
  const scheme = server instanceof https.Server ? 'https' : 'http';
  const address = server.address() as AddressInfo;
  startBackground();
  // A worker's address is announced once, by the primary.
  if ((options.announce ?? true) && cluster.isPrimary) process.stdout.write(`fw-mvc : ${scheme}://${host}:${address.port} (Ctrl+C pour arrêter)\n`);
  if (options.handleSignals ?? true) {
    let stopping = false;
    const stop = (signal: NodeJS.Signals): void => {
      if (stopping) return;
      stopping = true;
      log.info(`${signal} reçu : arrêt après les requêtes en cours.`);
      void stopAccepting(server, { listenerClosed: primaryHandoffsDone })
        .then(() => stopBackground())
        .then(() => Promise.allSettled([closeDatabase(), closeSharedRedis()]))
        .then(() => process.exit(0));
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  }
  return server;
}
