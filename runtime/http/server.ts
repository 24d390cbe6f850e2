/** The HTTP(S) server on node:http: writes responses with the security headers, stops gracefully on SIGTERM. */
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Application } from '../app.js';
import { errorPage } from '../controller.js';
import { getLogger } from '../logger.js';
import { STATIC_SECURITY_HEADERS, buildCspHeader } from '../security/headers.js';
import { onClientError } from './client-error.js';
import { clientIpOf, getTrustedProxies } from './client-ip.js';
import type { HttpError } from './errors.js';
import { encodeUrlHeader, isUrlHeader } from './header-values.js';
import { serverLimits } from './limits.js';
import { Request, declaredLengthError } from './request.js';
import { Response } from './response.js';
import { isPromise } from './promise.js';

const log = getLogger('fw.http');
const SECURITY_NAMES = new Set([...STATIC_SECURITY_HEADERS.map(([name]) => name.toLowerCase()), 'content-security-policy']);
const STATIC_FLAT: readonly string[] = STATIC_SECURITY_HEADERS.flatMap(([name, value]) => [name, value]);
/** The six headers without a nonce, built once: most responses start from a copy of this. */
const PLAIN_SECURITY_FLAT: readonly string[] = [...STATIC_FLAT, 'Content-Security-Policy', buildCspHeader()];

/** Writes a Response: security headers first, then the response's own headers (never replacing a security header). */
export function writeResponse(res: http.ServerResponse, request: Request | undefined, response: Response, closeConnection = false): void {
  const bodyless = response.status === 304 || response.status === 204;
  const head = bodyless || request?.method === 'HEAD';
  const headers = request?.nonce ? [...STATIC_FLAT, 'Content-Security-Policy', buildCspHeader(request.nonce)] : PLAIN_SECURITY_FLAT.slice();
  const { body } = response;
  // A string body is written as a string: node then sends the head and the body in one write.
  const length = response.filePath !== undefined ? undefined : typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  if (!bodyless) {
    headers.push('Content-Type', response.contentType);
    if (length !== undefined) headers.push('Content-Length', String(length));
  }
  for (const name in response.headers) {
    const lower = name.toLowerCase();
    if (SECURITY_NAMES.has(lower) || lower === 'content-type' || (lower === 'content-length' && length !== undefined)) continue;
    const value = response.headers[name]!;
    // A URL header is percent-encoded here, for every response: a raw character above U+00FF would make node throw.
    const url = isUrlHeader(name);
    if (Array.isArray(value)) for (const v of value) headers.push(name, url ? encodeUrlHeader(v) : v);
    else headers.push(name, url ? encodeUrlHeader(value) : value);
  }
  if (closeConnection) headers.push('Connection', 'close');
  res.writeHead(response.status, headers);
  if (head || length === 0) {
    res.end();
  } else if (length !== undefined) {
    res.end(body);
  } else if (response.fileSize === 0) {
    res.end();
  } else {
    // With a known size, one read into a buffer of the file's size for a small file, instead of a 64 KiB buffer, a
    // copy and a second read for the end of file: under load, those 64 KiB buffers waiting for the GC made the C
    // heap grow by about 10 MB that it kept afterwards (docs/performance.md, "Soak").
    const size = response.fileSize;
    const start = response.fileStart ?? 0;
    const stream = fs.createReadStream(response.filePath!, size === undefined ? (start > 0 ? { start } : undefined) : { start, end: start + size - 1 });
    stream.on('error', (err) => {
      log.error(`Lecture du fichier statique impossible : ${err.message}`);
      res.destroy(err);
    });
    stream.pipe(res);
  }
}

/** Servers being stopped: their responses carry `Connection: close`, so a busy keep-alive connection ends after its response. */
const stopping = new WeakSet<object>();

/** The request listener of an Application. */
export function requestListener(app: Application): (req: http.IncomingMessage, res: http.ServerResponse) => void {
  // A plain function: node calls a 'request' listener with `this` set to the server.
  return function (this: unknown, req, res) {
    try {
      handleNode(app, req, res, this as object)?.catch((err: unknown) => failed(res, err));
    } catch (err) {
      failed(res, err);
    }
  };
}

/**
 * The 'checkContinue' listener (a request with `Expect: 100-continue`). Without it node answers 100 Continue at
 * once, and the client sends a body that is then refused: an over-limit declared Content-Length (same rule as the
 * body reader) gets its 413 instead of the 100, and the body is never sent. Checked whatever the method: a GET
 * does not read its body, but inviting a huge one would still cost the upload.
 */
export function continueListener(app: Application): (req: http.IncomingMessage, res: http.ServerResponse) => void {
  const onRequest = requestListener(app);
  return function (this: unknown, req, res) {
    const tooLarge = declaredLengthError(req.headers);
    if (tooLarge) {
      refuseBody(req, res, tooLarge);
      return;
    }
    res.writeContinue();
    onRequest.call(this, req, res);
  };
}

/** Answers an error raised before or while reading the body; the rest of the body is not read, so the connection closes. */
function refuseBody(req: http.IncomingMessage, res: http.ServerResponse, err: HttpError): void {
  const partial = new Request({ method: req.method, path: (req.url ?? '/').split('?')[0], headers: req.headers, ip: clientIpOf(req) });
  writeResponse(res, partial, errorPage(err.status, partial, {}, { code: err.code, message: err.message }), true);
}

/** An error while answering: logged, then a bare 500 (or the connection dropped when the head is already sent). */
function failed(res: http.ServerResponse, err: unknown): void {
  log.error('Erreur pendant l’envoi de la réponse', { stack: (err as Error)?.stack ?? String(err) });
  if (!res.headersSent) writeResponse(res, undefined, errorPage(500), true);
  else res.destroy();
}

/**
 * Answers one request. Without a body to read and with synchronous handlers, everything happens in this call
 * (no promise); a promise is returned only when something on the way was asynchronous.
 */
function handleNode(app: Application, req: http.IncomingMessage, res: http.ServerResponse, server: object): Promise<void> | undefined {
  // The body stays unread until the route is known (the Application reads it); unread or refused, the connection closes.
  const request = Request.fromNodeDeferred(req);
  const response = app.respond(request);
  if (isPromise(response)) return response.then((r) => writeResponse(res, request, r, stopping.has(server) || request.bodyUnread));
  writeResponse(res, request, response, stopping.has(server) || request.bodyUnread);
  return undefined;
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
}

/** An http or https server for the application (HTTPS when both certificate files are given). */
export function createServer(app: Application, options: Pick<ServeOptions, 'certFile' | 'keyFile'> = {}): http.Server {
  const certFile = options.certFile ?? process.env.SSL_CERTFILE;
  const keyFile = options.keyFile ?? process.env.SSL_KEYFILE;
  const limits = serverLimits();
  // A bad TRUSTED_PROXIES entry stops the start here, rather than failing every request.
  getTrustedProxies();
  if (limits.requestTimeoutMs > 0 && limits.headersTimeoutMs > limits.requestTimeoutMs) {
    throw new Error(
      `http_headers_timeout (${limits.headersTimeoutMs / 1000} s) doit être inférieur ou égal à http_request_timeout (${limits.requestTimeoutMs / 1000} s).`,
    );
  }
  const shortestMs = Math.min(...[limits.headersTimeoutMs, limits.requestTimeoutMs].filter((ms) => ms > 0), 2000);
  const timeouts: http.ServerOptions = {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // node checks the time-outs on this period (30 s by default, which would triple a 10 s time-out).
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.round(shortestMs / 2))),
  };
  const listener = requestListener(app);
  const server =
    certFile && keyFile
      ? https.createServer({ ...timeouts, cert: fs.readFileSync(certFile), key: fs.readFileSync(keyFile) }, listener)
      : http.createServer(timeouts, listener);
  server.on('checkContinue', continueListener(app));
  server.on('clientError', onClientError);
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  if (limits.maxConnections > 0) server.maxConnections = limits.maxConnections;
  return server;
}

/**
 * Stops accepting connections and resolves once the requests in flight have finished; idle keep-alive
 * connections are closed at once, busy ones after their response (or after `graceMs`).
 */
export function stopGracefully(server: http.Server, graceMs = 10_000): Promise<void> {
  stopping.add(server);
  return new Promise((resolve) => {
    const timer = setTimeout(() => server.closeAllConnections(), graceMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
  });
}

/** Loads the API routes, listens on HOST/PORT (default 127.0.0.1:8000), and stops gracefully on SIGTERM. */
export async function serve(app: Application, options: ServeOptions = {}): Promise<http.Server> {
  await app.init();
  const host = options.host ?? process.env.HOST ?? '127.0.0.1';
  const port = options.port ?? Number(process.env.PORT ?? 8000);
  const server = createServer(app, options);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const scheme = server instanceof https.Server ? 'https' : 'http';
  const address = server.address() as AddressInfo;
  if (options.announce ?? true) process.stdout.write(`fw-mvc : ${scheme}://${host}:${address.port} (Ctrl+C pour arrêter)\n`);
  if (options.handleSignals ?? true) {
    const stop = (signal: NodeJS.Signals): void => {
      log.info(`${signal} reçu : arrêt après les requêtes en cours.`);
      void stopGracefully(server).then(() => process.exit(0));
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  }
  return server;
}
