/**
 * The HTTP(S) server on node:http, for any handler that turns a Request into a Response: it writes each response
 * after the headers the application fixes, reads nothing but what the application gives it (limits, the client
 * address, its answer to an error), and stops gracefully. The application's server is runtime/app/serve.ts.
 */
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { declaredLengthError, type BodyLimits } from './body.js';
import { clientErrorListener } from './client-error.js';
import { NO_FIXED_HEADERS, type FixedHeaders } from './fixed-headers.js';
import { encodeUrlHeader, isUrlHeader } from './header-values.js';
import { lingerOnClose } from './linger.js';
import { Request, peerAddress, type ClientIpResolver } from './request.js';
import type { Response } from './response.js';
import { isPromise } from './promise.js';

/** What answers requests: synchronously when nothing on the way is asynchronous. */
export interface HttpHandler {
  respond(request: Request): Response | Promise<Response>;
}

/** Where the server reports what went wrong outside any handler (a logger of the application). */
export interface HttpLog {
  error(message: string, fields?: Record<string, unknown>): void;
}

/** The server's time-outs in milliseconds, and its connection cap (0: none). */
export interface ServerLimits {
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly keepAliveTimeoutMs: number;
  readonly maxConnections: number;
}

/** How a response is written: the headers that come first, and where a failed file read is reported. */
export interface WriteOptions {
  readonly headers?: FixedHeaders;
  readonly log?: HttpLog;
}

/**
 * Writes Responses: the fixed headers first, then `X-Request-Id` when the request has an id, then the response's
 * own headers (never replacing those). Returns the size of the body sent (0 without one; a file's size as known).
 */
export type ResponseWriter = (res: http.ServerResponse, request: Request | undefined, response: Response, closeConnection?: boolean) => number;

/** A ResponseWriter with these options. */
export function responseWriter(options: WriteOptions = {}): ResponseWriter {
  const fixed = options.headers ?? NO_FIXED_HEADERS;
  const log = options.log;
  return (res, request, response, closeConnection = false) => write(res, request, response, closeConnection, fixed, log);
}

/** Writes a Response with no fixed header (a test's server; the application's writer is runtime/app/serve.ts). */
export const writeResponse: ResponseWriter = responseWriter();

function write(
  res: http.ServerResponse,
  request: Request | undefined,
  response: Response,
  closeConnection: boolean,
  fixed: FixedHeaders,
  log?: HttpLog,
): number {
  const bodyless = response.status === 304 || response.status === 204;
  const head = bodyless || request?.method === 'HEAD';
  const headers = fixed.forRequest(request);
  const { body } = response;
  // A string body is written as a string: node then sends the head and the body in one write.
  const length = response.filePath !== undefined ? undefined : typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  if (!bodyless) {
    headers.push('Content-Type', response.contentType);
    if (length !== undefined) headers.push('Content-Length', String(length));
  }
  const id = request?.id;
  if (id) headers.push('X-Request-Id', id);
  for (const name in response.headers) {
    const lower = name.toLowerCase();
    if (fixed.names.has(lower) || lower === 'content-type' || (lower === 'content-length' && length !== undefined)) continue;
    if (id && lower === 'x-request-id') continue;
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
    return 0;
  } else if (length !== undefined) {
    res.end(body);
    return length;
  } else if (response.fileSize === 0) {
    res.end();
    return 0;
  } else {
    // With a known size, one read into a buffer of the file's size for a small file, instead of a 64 KiB buffer, a
    // copy and a second read for the end of file: under load, those 64 KiB buffers waiting for the GC made the C
    // heap grow by about 10 MB that it kept afterwards (docs/performance.md "Soak").
    const size = response.fileSize;
    const start = response.fileStart ?? 0;
    const stream = fs.createReadStream(response.filePath!, size === undefined ? (start > 0 ? { start } : undefined) : { start, end: start + size - 1 });
    stream.on('error', (err) => {
      log?.error(`Lecture du fichier statique impossible : ${err.message}`);
      res.destroy(err);
    });
    stream.pipe(res);
    return size ?? 0;
  }
}

/** Servers being stopped: their responses carry `Connection: close`, so a busy keep-alive connection ends after its response. */
const stopping = new WeakSet<object>();

/** What the server needs from the application that creates it. */
export interface HttpServerOptions {
  /**
   * The answer to an error raised outside the handler: an HttpError refusing a body before it is sent (the 413 of
   * `Expect: 100-continue`), with the request's head; anything thrown while answering, without a request (a 500,
   * the head not being sent yet; the server has logged the error to `log`).
   */
  onError(err: unknown, request?: Request): Response;
  /** Written first on every response (default: none). */
  headers?: FixedHeaders;
  /** The server's time-outs and connection cap, read once here. */
  limits: ServerLimits;
  /** The body limits, for the declared length of `Expect: 100-continue` (read at each such request). */
  bodyLimits: BodyLimits;
  /** The client address of a message (default: the socket's peer). */
  clientIp?: ClientIpResolver;
  /** Where an error while answering and a failed read of a static file are reported. */
  log?: HttpLog;
  /** Each request's id, the context of its log lines and its access line (default: none of them). */
  tracing?: RequestTracing;
  /** PEM files: HTTPS when both are given. */
  certFile?: string;
  keyFile?: string;
}

/**
 * What the application does around each request (runtime/app/access-log.ts): it gives the request its id (sent
 * back as `X-Request-Id`), runs the answer in the context that its log lines carry, and hears of the response.
 */
export interface RequestTracing {
  /** The id of a request arriving: one its proxy sent, when it may be believed, else a new one. */
  idOf(message: http.IncomingMessage): string;
  /** Runs `fn` (everything the server does for the request, the answer's promise included) in the request's context. */
  run(request: Request, fn: () => void): void;
  /** The response is written: its status, and the size of its body. */
  written(request: Request, status: number, bytes: number): void;
}

/** The request listener of a handler. */
export function requestListener(handler: HttpHandler, options: HttpServerOptions): (req: http.IncomingMessage, res: http.ServerResponse) => void {
  const writeResponse = responseWriter(options);
  const clientIp = options.clientIp ?? peerAddress;
  // An error while answering: logged, then the handler's 500 (or the connection dropped when the head is already sent).
  // The request's access line too, when the 500 is written (`request`: known once its head is read).
  const failed = (res: http.ServerResponse, err: unknown, request?: Request): void => {
    options.log?.error('Erreur pendant l’envoi de la réponse', { stack: (err as Error)?.stack ?? String(err) });
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const response = options.onError(err);
    const bytes = writeResponse(res, undefined, response, true);
    if (request) options.tracing?.written(request, response.status, bytes);
  };
  const tracing = options.tracing;
  const answer = (server: object, req: http.IncomingMessage, res: http.ServerResponse, request: Request): void => {
    try {
      const response = handler.respond(request);
      const send = (r: Response): void => {
        // A body sent and not read to its end: the connection closes, once what the client still sends is dropped.
        if (request.bodyUnread) lingerOnClose(req, options.bodyLimits.multipart);
        const bytes = writeResponse(res, request, r, stopping.has(server) || request.bodyUnread);
        tracing?.written(request, r.status, bytes);
      };
      if (isPromise(response)) response.then(send).catch((err: unknown) => failed(res, err, request));
      else send(response);
    } catch (err) {
      failed(res, err, request);
    }
  };
  // A plain function: node calls a 'request' listener with `this` set to the server.
  return function (this: unknown, req, res) {
    let request: Request;
    try {
      // The body stays unread until the route is known (the handler reads it); unread or refused, the connection closes.
      request = Request.fromNodeDeferred(req, clientIp);
    } catch (err) {
      failed(res, err);
      return;
    }
    const server = this as object;
    if (tracing === undefined) return answer(server, req, res, request);
    request.receivedAt = performance.now();
    request.id = tracing.idOf(req);
    tracing.run(request, () => answer(server, req, res, request));
  };
}

/**
 * The 'checkContinue' listener (a request with `Expect: 100-continue`). Without it node answers 100 Continue at
 * once, and the client sends a body that is then refused: an over-limit declared Content-Length (same rule as the
 * body reader) gets its 413 instead of the 100, and the body is never sent. Checked whatever the method: a GET
 * does not read its body, but inviting a huge one would still cost the upload.
 */
export function continueListener(handler: HttpHandler, options: HttpServerOptions): (req: http.IncomingMessage, res: http.ServerResponse) => void {
  const onRequest = requestListener(handler, options);
  const writeResponse = responseWriter(options);
  const clientIp = options.clientIp ?? peerAddress;
  return function (this: unknown, req, res) {
    const tooLarge = declaredLengthError(req.headers, options.bodyLimits);
    if (tooLarge) {
      // The body is not read, so the connection closes (after dropping what a client that did not wait still sends).
      const partial = new Request({ method: req.method, path: (req.url ?? '/').split('?')[0], headers: req.headers, ip: clientIp(req) });
      lingerOnClose(req, options.bodyLimits.multipart);
      const tracing = options.tracing;
      if (tracing === undefined) {
        writeResponse(res, partial, options.onError(tooLarge, partial), true);
        return;
      }
      partial.receivedAt = performance.now();
      partial.id = tracing.idOf(req);
      tracing.run(partial, () => {
        const response = options.onError(tooLarge, partial);
        tracing.written(partial, response.status, writeResponse(res, partial, response, true));
      });
      return;
    }
    res.writeContinue();
    onRequest.call(this, req, res);
  };
}

/** An http or https server for the handler (HTTPS when both certificate files are given). */
export function createHttpServer(handler: HttpHandler, options: HttpServerOptions): http.Server {
  const { certFile, keyFile, limits } = options;
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
  const listener = requestListener(handler, options);
  const server =
    certFile && keyFile
      ? https.createServer({ ...timeouts, cert: fs.readFileSync(certFile), key: fs.readFileSync(keyFile) }, listener)
      : http.createServer(timeouts, listener);
  server.on('checkContinue', continueListener(handler, options));
  server.on('clientError', clientErrorListener(options.headers ?? NO_FIXED_HEADERS));
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

/**
 * The stop of a server on SIGTERM (docs/deploy.md "Stopping: SIGTERM"): it stops accepting at once (a new
 * connection is refused, which a proxy retries on another instance); once `listenerClosed` resolves (in a worker:
 * the primary has closed the socket the workers share, so that nothing is queued on it any more), every response
 * closes its connection (`Connection: close`). A connection idle between two requests is left to its client, which
 * closes it (nginx after its keepalive_timeout, 4 s) or sends one more request, answered and closed; the server's
 * keep-alive time-out closes it otherwise: cutting it at once would reset a request already on its way on it.
 * Resolves once every connection has closed; past `graceMs`, those still open are cut.
 */
export function stopAccepting(server: http.Server, options: { graceMs?: number; listenerClosed?: () => Promise<void> } = {}): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => server.closeAllConnections(), options.graceMs ?? 10_000);
    timer.unref();
    // net.Server's close, not http.Server's: the latter also cuts the idle connections at once.
    net.Server.prototype.close.call(server, () => {
      clearTimeout(timer);
      resolve();
    });
    // Until then, responses keep their connection: closing them would have the proxy open new ones, which a
    // socket closing under them would reset.
    void (options.listenerClosed?.() ?? Promise.resolve()).then(() => stopping.add(server));
  });
}

/** Listens on `host`:`port` (0: any free port); resolves once listening, rejects on a listen error. */
export function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
