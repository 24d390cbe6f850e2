/** The HTTP(S) server on node:http: writes responses with the security headers, stops gracefully on SIGTERM. */
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Application } from '../app.js';
import { errorPage } from '../controller.js';
import { getLogger } from '../logger.js';
import { STATIC_SECURITY_HEADERS, buildCspHeader } from '../security/headers.js';
import { HttpError } from './errors.js';
import { Request } from './request.js';
import { Response } from './response.js';

const log = getLogger('fw.http');
const PLAIN_CSP = buildCspHeader();
const SECURITY_NAMES = new Set([...STATIC_SECURITY_HEADERS.map(([name]) => name.toLowerCase()), 'content-security-policy']);
const STATIC_FLAT: string[] = STATIC_SECURITY_HEADERS.flatMap(([name, value]) => [name, value]);

/** Writes a Response: security headers first, then the response's own headers (never replacing a security header). */
export function writeResponse(res: http.ServerResponse, request: Request | undefined, response: Response, closeConnection = false): void {
  const head = request?.method === 'HEAD' || response.status === 304 || response.status === 204;
  const headers: string[] = STATIC_FLAT.slice();
  headers.push('Content-Security-Policy', request?.nonce ? buildCspHeader(request.nonce) : PLAIN_CSP);
  let length: number | undefined;
  let bytes: Buffer | undefined;
  if (response.filePath === undefined) {
    bytes = response.bytes();
    length = bytes.length;
  }
  if (response.status !== 304 && response.status !== 204) {
    headers.push('Content-Type', response.contentType);
    if (length !== undefined) headers.push('Content-Length', String(length));
  }
  for (const name in response.headers) {
    const lower = name.toLowerCase();
    if (SECURITY_NAMES.has(lower) || lower === 'content-type' || (lower === 'content-length' && length !== undefined)) continue;
    const value = response.headers[name]!;
    if (Array.isArray(value)) for (const v of value) headers.push(name, v);
    else headers.push(name, value);
  }
  if (closeConnection) headers.push('Connection', 'close');
  res.writeHead(response.status, headers);
  if (head || (response.filePath === undefined && length === 0)) {
    res.end();
  } else if (bytes) {
    res.end(bytes);
  } else {
    const stream = fs.createReadStream(response.filePath!);
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
    handleNode(app, req, res, () => stopping.has(this as object)).catch((err: unknown) => {
      log.error('Erreur pendant l’envoi de la réponse', { stack: (err as Error)?.stack ?? String(err) });
      if (!res.headersSent) writeResponse(res, undefined, errorPage(500), true);
      else res.destroy();
    });
  };
}

async function handleNode(app: Application, req: http.IncomingMessage, res: http.ServerResponse, isStopping: () => boolean): Promise<void> {
  let request: Request;
  try {
    request = await Request.fromNode(req);
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    // The rest of the body is not read: close the connection after answering.
    const partial = new Request({ method: req.method, path: (req.url ?? '/').split('?')[0], headers: req.headers, ip: req.socket.remoteAddress ?? '' });
    writeResponse(res, partial, errorPage(err.status, partial, {}, { code: err.code, message: err.message }), true);
    return;
  }
  const response = await app.handle(request);
  writeResponse(res, request, response, isStopping());
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
  const listener = requestListener(app);
  const server = certFile && keyFile
    ? https.createServer({ cert: fs.readFileSync(certFile), key: fs.readFileSync(keyFile) }, listener)
    : http.createServer(listener);
  server.keepAliveTimeout = 5_000;
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
