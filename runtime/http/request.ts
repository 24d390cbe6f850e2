/** The HTTP request value: method, path, query, headers, cookies, and its body once read within the limits (body.ts). */
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { parseCookie } from 'cookie';
import { readNodeBody, type BodyLimits } from './body.js';
import { UploadedFile } from './uploaded-file.js';
import { parseUrlEncoded, type MultiMap } from './url-encoded.js';

export { UploadedFile, parseUrlEncoded, type MultiMap };

/** The client address of a node message; without trusted proxies to believe, the socket's peer (peerAddress). */
export type ClientIpResolver = (message: IncomingMessage) => string;

/** The socket's peer address of a node message. */
export function peerAddress(message: IncomingMessage): string {
  return message.socket.remoteAddress ?? '';
}

const OVERRIDABLE = new Set(['PUT', 'PATCH', 'DELETE']);
const BODYLESS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface RequestInit {
  method?: string;
  path?: string;
  query?: string;
  headers?: IncomingHttpHeaders;
  body?: MultiMap;
  jsonBody?: Record<string, unknown>;
  files?: Record<string, UploadedFile>;
  /** Every file part by field name (several for `<input type="file" multiple>`); default: one list per `files` entry. */
  fileLists?: Record<string, UploadedFile[]>;
  ip?: string;
}

export class Request {
  /** Method as received, before the `_method` override. */
  originalMethod: string;
  /** Effective method. */
  method: string;
  /** Path without the query string, as sent (percent-encoded). */
  path: string;
  headers: IncomingHttpHeaders;
  body: MultiMap;
  jsonBody: Record<string, unknown>;
  /** The file of each field (the last part when the field was sent several times). */
  files: Record<string, UploadedFile>;
  /** Every file part of each field, in the order sent (a gallery input sends several under one name). */
  fileLists: Record<string, UploadedFile[]>;
  ip: string;
  routeParams: Record<string, string> = {};
  /** The pattern of the route that matched (`/produits/{id}`), '' before routing or without one (the metrics' label). */
  routePattern = '';
  /** Raw query string, without `?`. */
  readonly query: string;
  /** The request's id, sent back as X-Request-Id ('' when the server that built it gives none: RequestTracing). */
  id = '';
  /** performance.now() when the server received it (0 when no server built it). */
  receivedAt = 0;
  /** Per-request CSP nonce, when nonce mode is on. */
  nonce: string | undefined;
  /** Framework-private per-request state (session handle, cookies to send). */
  readonly state: Record<string, unknown> = {};
  private parsedParams: MultiMap | undefined;
  private parsedCookies: Record<string, string> | undefined;
  /** The node message whose body is still to read (see fromNodeDeferred), and where its reading stands. */
  private bodySource: IncomingMessage | undefined;
  private bodyState: 'none' | 'pending' | 'read' | 'failed' = 'none';

  constructor(init: RequestInit = {}) {
    this.originalMethod = (init.method ?? 'GET').toUpperCase();
    this.method = this.originalMethod;
    this.path = init.path ?? '/';
    this.query = init.query ?? '';
    this.headers = init.headers ?? {};
    this.body = init.body ?? {};
    this.jsonBody = init.jsonBody ?? {};
    this.files = init.files ?? {};
    this.fileLists = init.fileLists ?? Object.fromEntries(Object.entries(this.files).map(([name, file]) => [name, [file]]));
    this.ip = init.ip ?? '';
    this.applyMethodOverride();
  }

  /** Parsed query string: name -> list of values. */
  get params(): MultiMap {
    return (this.parsedParams ??= parseUrlEncoded(this.query));
  }

  set params(value: MultiMap) {
    this.parsedParams = value;
  }

  /** A header value (first one when repeated), by case-insensitive name. */
  header(name: string): string | undefined {
    const value = this.headers[name.toLowerCase()];
    return Array.isArray(value) ? value[0] : value;
  }

  /** Cookies sent by the client. */
  get cookies(): Record<string, string> {
    return (this.parsedCookies ??= parseCookies(this.header('cookie')));
  }

  /** First value of a query parameter. */
  param(name: string): string | undefined {
    return this.params[name]?.[0];
  }

  /** Every file sent under a field name, in order (empty list when none). */
  getFiles(name: string): UploadedFile[] {
    return this.fileLists[name] ?? [];
  }

  /** First value of a body field. */
  field(name: string): string | undefined {
    return this.body[name]?.[0];
  }

  /** Applies the `_method` form field of a POST (PUT, PATCH, DELETE only). */
  applyMethodOverride(): void {
    if (this.originalMethod !== 'POST') return;
    const override = this.body._method?.[0]?.toUpperCase();
    if (override && OVERRIDABLE.has(override)) this.method = override;
  }

  /** True when the method of a node:http message carries a body to read (not GET, HEAD or OPTIONS). */
  static hasBody(message: IncomingMessage): boolean {
    return !BODYLESS.has((message.method ?? 'GET').toUpperCase());
  }

  /** True while the body of the message is neither read nor refused: the dispatcher reads it once the route is known. */
  get bodyPending(): boolean {
    return this.bodyState === 'pending';
  }

  /** True when a body was sent and not read to its end (unread, or refused): the connection must then close. */
  get bodyUnread(): boolean {
    return this.bodyState === 'pending' || this.bodyState === 'failed';
  }

  /** Reads and parses the pending body within `limits` (once; nothing to do when there is none). */
  async readBody(limits: BodyLimits): Promise<void> {
    const message = this.bodySource;
    if (!message || this.bodyState !== 'pending') return;
    this.bodySource = undefined;
    try {
      Object.assign(this, await readNodeBody(message, limits));
      this.bodyState = 'read';
    } catch (err) {
      this.bodyState = 'failed';
      throw err;
    }
    this.applyMethodOverride();
  }

  /**
   * A Request from the head of a node:http message (method, path, query, headers); the body is not read.
   * `clientIp` gives its address (the server passes the one that believes the application's trusted proxies).
   */
  static fromNodeHead(message: IncomingMessage, clientIp: ClientIpResolver = peerAddress): Request {
    const url = originForm(message.url ?? '/');
    const q = url.indexOf('?');
    return new Request({
      method: message.method,
      path: q === -1 ? url : url.slice(0, q),
      query: q === -1 ? '' : url.slice(q + 1),
      headers: message.headers,
      // Read now, while the connection is open; node caches the peer per connection, so keep-alive requests pay
      // nothing. X-Forwarded-For counts only from trusted proxies (client-ip.ts).
      ip: clientIp(message),
    });
  }

  /** A Request from the head of a node:http message, its body left pending (read by readBody()) when the method carries one. */
  static fromNodeDeferred(message: IncomingMessage, clientIp: ClientIpResolver = peerAddress): Request {
    const request = Request.fromNodeHead(message, clientIp);
    if (!BODYLESS.has(request.originalMethod)) {
      request.bodySource = message;
      request.bodyState = 'pending';
    }
    return request;
  }

  /** Builds a Request from a node:http message, reading and parsing its body within `limits`. */
  static async fromNode(message: IncomingMessage, limits: BodyLimits, clientIp: ClientIpResolver = peerAddress): Promise<Request> {
    const request = Request.fromNodeDeferred(message, clientIp);
    await request.readBody(limits);
    return request;
  }
}

/** The absolute form of a request target (`http://host:port/path?q`) reduced to its path and query; the Host header still rules. */
function originForm(url: string): string {
  if (url.startsWith('/')) return url;
  const absolute = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/.exec(url);
  if (!absolute) return url;
  const rest = url.slice(absolute[0].length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}

/**
 * The cookies of a `Cookie` header, read by the `cookie` package: the first of two of the same name (the browser
 * sends the most specific first), values as sent, neither URL-decoded nor unquoted (docs/decisions.md "Cookies read
 * by the cookie package"). Each value is a copy: a substring of the header would keep the whole header in memory for
 * as long as the value is kept, such as a session id kept as a key by the memory store (then a 16 KiB header costs
 * 16 KiB per session, whatever the store's bound on the number of sessions).
 */
function parseCookies(header: string | undefined): Record<string, string> {
  return parseCookie(header ?? '', { decode: detachedCopy }) as Record<string, string>;
}

/** A string equal to `text` that shares no memory with the string it was cut from (a JSON round trip is exact). */
function detachedCopy(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string;
}
