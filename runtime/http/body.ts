/**
 * Reading a request body within its limits: the declared length checked first, then the bytes counted as they
 * stream; a urlencoded form decoded in its charset, a JSON object parsed, a multipart form read with busboy. The
 * limits come from the caller (the application reads them from its configuration, docs/runtime.md "Limits and
 * time-outs").
 */
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import type busboy from 'busboy';
import { BadRequestError, RequestEntityTooLarge, TooManyFieldsError } from './errors.js';
import { declaredCharset, parseFormBody } from './form-body.js';
import { UploadedFile } from './uploaded-file.js';
import type { MultiMap } from './url-encoded.js';

/**
 * The limits a body is read within. Each is read when it is needed (the application may give getters, so that a
 * change of its configuration applies to the next body): `fields` only for a form.
 */
export interface BodyLimits {
  /** Bytes of a body that is not multipart (`body_max_size`). */
  readonly body: number;
  /**
   * Bytes of a multipart body in all, past which it is refused whole (413). A single file over `file` but within
   * it is kept as truncated, for a 422 under its field (docs/uploads.md "Limits").
   */
  readonly multipart: number;
  /** Bytes of one uploaded file kept in memory (`upload_max_size`). */
  readonly file: number;
  /** Fields (and multipart parts) a form may carry (`max_form_fields`). */
  readonly fields: number;
}

/** What a body held: form fields, a JSON object, files (the parts that were sent). */
export interface ParsedBody {
  body?: MultiMap;
  jsonBody?: Record<string, unknown>;
  files?: Record<string, UploadedFile>;
  fileLists?: Record<string, UploadedFile[]>;
}

/** The byte limit that applies to a content type (lower-cased): `multipart` for a multipart form, else `body`. */
export function bodyLimit(contentType: string, limits: BodyLimits): number {
  return contentType.startsWith('multipart/form-data') ? limits.multipart : limits.body;
}

/** The 413 error when the declared Content-Length is over the limit of the request's content type; undefined otherwise. */
export function declaredLengthError(headers: IncomingHttpHeaders, limits: BodyLimits): RequestEntityTooLarge | undefined {
  return lengthError(headers, bodyLimit((headers['content-type'] ?? '').toLowerCase(), limits));
}

function lengthError(headers: IncomingHttpHeaders, limit: number): RequestEntityTooLarge | undefined {
  const declared = headers['content-length'];
  return declared !== undefined && Number(declared) > limit ? new RequestEntityTooLarge(limit) : undefined;
}

/** Reads and parses the body of a node message within `limits`; throws an HttpError (400, 413) when it is refused. */
export async function readNodeBody(message: IncomingMessage, limits: BodyLimits): Promise<ParsedBody> {
  const contentType = (message.headers['content-type'] ?? '').toLowerCase();
  const limit = bodyLimit(contentType, limits);
  const tooLarge = lengthError(message.headers, limit);
  if (tooLarge) throw tooLarge;
  if (contentType.startsWith('multipart/form-data')) {
    return readMultipart(message, { body: limit, file: limits.file, fields: limits.fields });
  }
  const raw = await readRaw(message, limit);
  if (contentType.startsWith('application/x-www-form-urlencoded')) {
    return { body: parseFormBody(raw, declaredCharset(contentType), limits.fields) };
  }
  if (contentType.startsWith('application/json') && raw.length > 0) return { jsonBody: parseJsonObject(raw) };
  return {};
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
function readMultipart(message: IncomingMessage, limits: { body: number; file: number; fields: number }): Promise<ParsedBody> {
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
    const body = Object.create(null) as MultiMap;
    const files = Object.create(null) as Record<string, UploadedFile>;
    const fileLists = Object.create(null) as Record<string, UploadedFile[]>;
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
      resolve({ body, files, fileLists });
    });
    message.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) fail(new RequestEntityTooLarge(limit));
    });
    message.on('error', (err) => fail(new BadRequestError(`Lecture du corps interrompue : ${err.message}`)));
    message.pipe(parser);
  });
}
