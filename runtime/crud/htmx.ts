/** Partial-page requests (docs/crud.md "Partial updates (htmx, optional)"). */
import type { Request } from '../http/request.js';
import { Response } from '../http/response.js';

function header(request: Pick<Request, 'headers'>, name: string): string {
  const value = (request.headers as Record<string, string | string[] | undefined>)[name];
  return String(Array.isArray(value) ? value[0] : (value ?? ''));
}

/**
 * True when the request comes from the partial-update script (`HX-Request: true`) and wants a fragment. A history
 * restore (`HX-History-Restore-Request: true`, the back button after a pushed URL) wants the whole page.
 */
export function isHtmx(request: Pick<Request, 'headers'>): boolean {
  return header(request, 'hx-request').toLowerCase() === 'true' && header(request, 'hx-history-restore-request').toLowerCase() !== 'true';
}

/** The id of the element an htmx request will update (`HX-Target`), or null. */
export function htmxTarget(request: Pick<Request, 'headers'>): string | null {
  const target = header(request, 'hx-target');
  return target === '' ? null : target;
}

/**
 * The answer that sends an htmx request's page to `url` with a full load (`HX-Redirect`), where a redirect would be
 * followed inside the request and its page swapped into the element that made it.
 */
export function htmxRedirect(url: string): Response {
  return new Response(200, '', 'text/html; charset=utf-8', { 'HX-Redirect': url });
}
