/**
 * The HTTP limits and time-outs of the application: a configuration key, overridden by its environment variable
 * (docs/runtime.md "Limits and time-outs"). The server (runtime/http/server.ts) and the body reader
 * (runtime/http/body.ts) receive them from here.
 */
import { get } from '../config.js';
import type { BodyLimits } from '../http/body.js';
import type { ServerLimits } from '../http/server.js';

type LimitKey = 'max_form_fields' | 'http_headers_timeout' | 'http_request_timeout' | 'http_keep_alive_timeout' | 'max_connections';

/** The environment variable of each key. */
export const LIMIT_ENV: Readonly<Record<LimitKey, string>> = {
  max_form_fields: 'MAX_FORM_FIELDS',
  http_headers_timeout: 'HTTP_HEADERS_TIMEOUT',
  http_request_timeout: 'HTTP_REQUEST_TIMEOUT',
  http_keep_alive_timeout: 'HTTP_KEEP_ALIVE_TIMEOUT',
  max_connections: 'MAX_CONNECTIONS',
};

/** A limit: its environment variable when set and not empty, else the configuration key; a negative or non-numeric value throws. */
export function limit(key: LimitKey): number {
  const env = process.env[LIMIT_ENV[key]];
  const value = env !== undefined && env.trim() !== '' ? Number(env) : get(key);
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    const origin = env !== undefined && env.trim() !== '' ? `${LIMIT_ENV[key]}=${env}` : `${key} = ${String(value)}`;
    throw new Error(`Limite HTTP invalide (${origin}) : attendu un nombre positif ou nul.`);
  }
  return value;
}

/** The server's time-outs in milliseconds, and its connection cap. */
export function serverLimits(): ServerLimits {
  return {
    headersTimeoutMs: Math.round(limit('http_headers_timeout') * 1000),
    requestTimeoutMs: Math.round(limit('http_request_timeout') * 1000),
    keepAliveTimeoutMs: Math.round(limit('http_keep_alive_timeout') * 1000),
    maxConnections: Math.floor(limit('max_connections')),
  };
}

/** Files at `upload_max_size` a multipart body may carry, beside `body_max_size` of fields, before it is refused whole. */
export const MULTIPART_FILES_AT_LIMIT = 4;

/**
 * The body limits, each read from the configuration when the body reader needs it (a configure() applies to the
 * next body). Multipart: `upload_body_max_size` when set, else `body_max_size + 4 × upload_max_size` (21 MiB by
 * default), the hard cap past which the body is refused whole (413); a single file over `upload_max_size` but
 * within it is a 422 under its field (docs/uploads.md "Limits").
 */
export const CONFIGURED_BODY_LIMITS: BodyLimits = {
  get body() {
    return get('body_max_size');
  },
  get multipart() {
    return get('upload_body_max_size') ?? get('body_max_size') + MULTIPART_FILES_AT_LIMIT * get('upload_max_size');
  },
  get file() {
    return get('upload_max_size');
  },
  get fields() {
    return limit('max_form_fields');
  },
};
