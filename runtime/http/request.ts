/** HTTP request value and body parsing (docs/runtime.md "Bodies", "Limits and time-outs"). */
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import type busboy from 'busboy';
import { get } from '../config.js';
import { clientIpOf } from './client-ip.js';
import { BadRequestError, RequestEntityTooLarge, TooManyFieldsError } from './errors.js';
import { declaredCharset, parseFormBody } from './form-body.js';
import { limit as httpLimit } from './limits.js';

export type MultiMap = Record<string, string[]>;

/**
 * A file received in a multipart body; it stays in memory and nothing is written to disk. A file over
 * `upload_max_size` is `truncated`: its bytes were dropped as soon as it passed the limit (`data` is empty) and
 * `size` is the byte count it was sent with, so that the form refuses it (422) with the rest of the form kept.
 */
export class UploadedFile {
  /** The bytes received for this part (the length of `data`, unless the file was truncated). */
  readonly size: number;
  /** True when the file passed `upload_max_size` and its bytes were dropped: it can only be refused. */
  readonly truncated: boolean;

  constructor(
    readonly filename: string,
    readonly contentType: string,
    readonly data: Buffer,
    readonly fieldName: string = '',
    received?: { size: number; truncated: true },
  ) {
    this.size = received?.size ?? data.length;
    this.truncated = received?.truncated ?? false;
  }
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
  /** Raw query string, without `?`. */
  readonly query: string;
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

  /** Reads and parses the pending body within the limits (once; nothing to do when there is none). */
  async readBody(): Promise<void> {
    const message = this.bodySource;
    if (!message || this.bodyState !== 'pending') return;
    this.bodySource = undefined;
    try {
      await readBody(message, this);
      this.bodyState = 'read';
    } catch (err) {
      this.bodyState = 'failed';
      throw err;
    }
  }

  /** A Request from the head of a node:http message (method, path, query, headers); the body is not read. */
  static fromNodeHead(message: IncomingMessage): Request {
    const url = originForm(message.url ?? '/');
    const q = url.indexOf('?');
    return new Request({
      method: message.method,
      path: q === -1 ? url : url.slice(0, q),
      query: q === -1 ? '' : url.slice(q + 1),
      headers: message.headers,
      // Read now, while the connection is open; node caches the peer per connection, so keep-alive requests pay
      // nothing. X-Forwarded-For counts only from trusted proxies (client-ip.ts).
      ip: clientIpOf(message),
    });
  }

  /** A Request from the head of a node:http message, its body left pending (read by readBody()) when the method carries one. */
  static fromNodeDeferred(message: IncomingMessage): Request {
    const request = Request.fromNodeHead(message);
    if (!BODYLESS.has(request.originalMethod)) {
      request.bodySource = message;
      request.bodyState = 'pending';
    }
    return request;
  }

  /** Builds a Request from a node:http message, reading and parsing its body within the limits. */
  static async fromNode(message: IncomingMessage): Promise<Request> {
    const request = Request.fromNodeDeferred(message);
    await request.readBody();
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

/** Parses `a=1&b=2&a=3` into a multi-map. */
export function parseUrlEncoded(text: string): MultiMap {
  const out: MultiMap = Object.create(null);
  if (!text) return out;
  for (const [key, value] of new URLSearchParams(text)) (out[key] ??= []).push(value);
  return out;
}

/**
 * The cookies of a `Cookie` header. Each value is a copy: a substring of the header would keep the whole header in
 * memory for as long as the value is kept, such as a session id kept as a key by the memory store (then a 16 KiB
 * header costs 16 KiB per session, whatever the store's bound on the number of sessions).
 */
function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  if (!header) return out;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    if (!(name in out)) out[name] = detachedCopy(part.slice(eq + 1).trim());
  }
  return out;
}

/** A string equal to `text` that shares no memory with the string it was cut from (a JSON round trip is exact). */
function detachedCopy(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string;
}

/** Files at `upload_max_size` a multipart body may carry, beside `body_max_size` of fields, before it is refused whole. */
export const MULTIPART_FILES_AT_LIMIT = 4;

/**
 * The byte limit that applies to a content type. Multipart: `upload_body_max_size` when set, else `body_max_size +
 * 4 × upload_max_size` (21 MiB by default). This is the hard cap past which the body is refused whole (413): a
 * single file over `upload_max_size` but within it is a 422 under its field (docs/uploads.md "Limits").
 */
export function bodyLimit(contentType: string): number {
  const base = get('body_max_size');
  if (!contentType.startsWith('multipart/form-data')) return base;
  const configured = get('upload_body_max_size');
  return configured ?? base + MULTIPART_FILES_AT_LIMIT * get('upload_max_size');
}

/** The 413 error when the declared Content-Length is over `limit` (by default, the limit of the content type); undefined otherwise. */
export function declaredLengthError(
  headers: IncomingHttpHeaders,
  limit = bodyLimit((headers['content-type'] ?? '').toLowerCase()),
): RequestEntityTooLarge | undefined {
  const declared = headers['content-length'];
  return declared !== undefined && Number(declared) > limit ? new RequestEntityTooLarge(limit) : undefined;
}

async function readBody(message: IncomingMessage, request: Request): Promise<void> {
  const contentType = (request.header('content-type') ?? '').toLowerCase();
  const limit = bodyLimit(contentType);
  const tooLarge = declaredLengthError(request.headers, limit);
  if (tooLarge) throw tooLarge;
  if (contentType.startsWith('multipart/form-data')) {
    await readMultipart(message, request, { body: limit, file: get('upload_max_size'), fields: httpLimit('max_form_fields') });
  } else {
    const raw = await readRaw(message, limit);
    if (contentType.startsWith('application/x-www-form-urlencoded')) {
      request.body = parseFormBody(raw, declaredCharset(contentType), httpLimit('max_form_fields'));
    } else if (contentType.startsWith('application/json') && raw.length > 0) {
      request.jsonBody = parseJsonObject(raw);
    }
  }
  request.applyMethodOverride();
}

function parseJsonObject(raw: Buffer): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new BadRequestError('Le corps JSON est mal formé.');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new BadRequestError('Le corps JSON doit être un objet.');
  }
  return value as Record<string, unknown>;
}

/** Reads the whole body, counting bytes as they stream (chunked bodies have no Content-Length). */
function readRaw(message: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    message.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > limit) {
        failed = true;
        chunks.length = 0;
        message.pause();
        reject(new RequestEntityTooLarge(limit));
        return;
      }
      chunks.push(chunk);
    });
    message.on('end', () => {
      if (!failed) resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    });
    message.on('error', (err) => {
      if (!failed) {
        failed = true;
        reject(new BadRequestError(`Lecture du corps interrompue : ${err.message}`));
      }
    });
  });
}

/** busboy, loaded by the first multipart body (a form with a file input): about 0.2 MB of heap the other processes do without. */
function loadBusboy(): typeof busboy {
  return createRequire(import.meta.url)('busboy') as typeof busboy;
}

/**
 * Reads a multipart body with busboy: at most `limits.fields` fields and as many parts (files included), at most
 * `limits.body` bytes in all. A file is kept in memory up to `limits.file` bytes; past that its bytes are dropped
 * and only counted (UploadedFile.truncated), and the fields after it are still read: the handler refuses that file
 * under its field and shows the form again with everything else.
 */
function readMultipart(message: IncomingMessage, request: Request, limits: { body: number; file: number; fields: number }): Promise<void> {
  const { body: limit, file: fileLimit, fields: maxFields } = limits;
  const makeParser = loadBusboy();
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = makeParser({ headers: message.headers, defParamCharset: 'utf8', limits: { fields: maxFields, parts: maxFields } });
    } catch (err) {
      reject(new BadRequestError(`Corps multipart invalide : ${(err as Error).message}`));
      return;
    }
    const body: MultiMap = Object.create(null);
    const files: Record<string, UploadedFile> = Object.create(null);
    const fileLists: Record<string, UploadedFile[]> = Object.create(null);
    let size = 0;
    let settled = false;
    const fail = (err: Error): void => {
      if (settled) return;
      settled = true;
      message.unpipe(parser);
      message.pause();
      reject(err);
    };
    parser.on('field', (name, value) => (body[name] ??= []).push(value));
    // busboy stops emitting at the limit and goes on reading: refuse there rather than accept a truncated form.
    parser.on('fieldsLimit', () => fail(new TooManyFieldsError(maxFields)));
    parser.on('partsLimit', () => fail(new TooManyFieldsError(maxFields)));
    parser.on('file', (name, stream, info) => {
      const chunks: Buffer[] = [];
      let received = 0;
      stream.on('data', (chunk: Buffer) => {
        received += chunk.length;
        // Over the file limit: what was kept is let go and the rest only counted (the body cap still applies).
        if (received > fileLimit) chunks.length = 0;
        else chunks.push(chunk);
      });
      // A form truncated inside a file errors the file stream too; unhandled, that would crash the process.
      stream.on('error', (err: Error) => fail(new BadRequestError(`Corps multipart invalide : ${err.message}`)));
      stream.on('end', () => {
        if (info.filename === undefined) return;
        const file =
          received > fileLimit
            ? new UploadedFile(info.filename, info.mimeType, Buffer.alloc(0), name, { size: received, truncated: true })
            : new UploadedFile(info.filename, info.mimeType, Buffer.concat(chunks, received), name);
        files[name] = file;
        (fileLists[name] ??= []).push(file);
      });
    });
    parser.on('error', (err: Error) => fail(new BadRequestError(`Corps multipart invalide : ${err.message}`)));
    parser.on('close', () => {
      if (settled) return;
      settled = true;
      request.body = body;
      request.files = files;
      request.fileLists = fileLists;
      resolve();
    });
    message.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) fail(new RequestEntityTooLarge(limit));
    });
    message.on('error', (err) => fail(new BadRequestError(`Lecture du corps interrompue : ${err.message}`)));
    message.pipe(parser);
  });
}
