/** Partial-page requests (cli-and-generators.md "Partial-page behaviour"). */
import type { Request } from '../http/request.js';

/**
 * True when the request comes from the partial-update script (`HX-Request: true`) and wants a fragment. A history
 * restore (`HX-History-Restore-Request: true`, the back button after a pushed URL) wants the whole page.
 */
export function isHtmx(request: Pick<Request, 'headers'>): boolean {
  const headers = request.headers as Record<string, string | string[] | undefined>;
  const value = (name: string): string => String(headers[name] ?? '').toLowerCase();
  return value('hx-request') === 'true' && value('hx-history-restore-request') !== 'true';
}
