/** The HTTP limits and time-outs: a configuration key, overridden by its environment variable (docs/runtime.md, "Limits and time-outs"). */
import { get } from '../config.js';

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
export interface ServerLimits {
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly keepAliveTimeoutMs: number;
  readonly maxConnections: number;
}

export function serverLimits(): ServerLimits {
  return {
    headersTimeoutMs: Math.round(limit('http_headers_timeout') * 1000),
    requestTimeoutMs: Math.round(limit('http_request_timeout') * 1000),
    keepAliveTimeoutMs: Math.round(limit('http_keep_alive_timeout') * 1000),
    maxConnections: Math.floor(limit('max_connections')),
  };
}
