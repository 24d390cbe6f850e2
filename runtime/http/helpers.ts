/** Response helpers: the JSON envelopes, HTML escaping, `no-store`. A page rendered by templates is `html()` (runtime/app/html.ts). */
import { Response } from './response.js';

export const JSON_TYPE = 'application/json; charset=utf-8';

/** Data that JSON cannot represent (a `ValueError` under the old Python name; docs/api-mapping.md). */
export class SerializationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SerializationError';
  }
}

/** Serialises any JSON value; throws SerializationError otherwise (undefined, functions, BigInt, cycles). */
export function jsonResponse(data: unknown, status = 200): Response {
  let text: string | undefined;
  try {
    text = JSON.stringify(data);
  } catch (err) {
    throw new SerializationError(`Données non sérialisables en JSON : ${(err as Error).message}`);
  }
  if (text === undefined) throw new SerializationError(`Données non sérialisables en JSON : ${typeof data}.`);
  return new Response(status, text, JSON_TYPE);
}

/** `{ success: true, data, meta? }`. */
export function apiSuccess(data: unknown = null, status = 200, meta?: Record<string, unknown>): Response {
  return jsonResponse(meta === undefined ? { success: true, data } : { success: true, data, meta }, status);
}

/** `{ success: false, error: { code, message, details? } }`. */
export function apiError(message: string, status = 400, code = 'error', details?: unknown): Response {
  const error = details === undefined ? { code, message } : { code, message, details };
  return jsonResponse({ success: false, error }, status);
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** HTML-escapes a text. */
export function escapeHtml(text: unknown): string {
  return String(text ?? '').replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** An escaped HTML list of error messages (a map field -> message, a list, or a text). */
export function renderErrorsHtml(errors: unknown): string {
  let messages: string[];
  if (!errors) return '';
  if (typeof errors === 'string') messages = [errors];
  else if (Array.isArray(errors)) messages = errors.map(String);
  else if (typeof errors === 'object')
    messages = Object.values(errors as Record<string, unknown>)
      .flat()
      .map(String);
  else messages = [String(errors)];
  if (messages.length === 0) return '';
  return `<ul class="mb-4 rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800" role="alert">${messages
    .map((m) => `<li>${escapeHtml(m)}</li>`)
    .join('')}</ul>`;
}

/**
 * Marks a response `Cache-Control: no-store` unless its handler chose a policy: pages of a signed-in user and the
 * steps of a login are never kept by the browser or a shared cache (docs/auth.md).
 */
export function noStore(response: Response): Response {
  if (response.headers['Cache-Control'] === undefined) response.headers['Cache-Control'] = 'no-store';
  return response;
}
