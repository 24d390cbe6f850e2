/**
 * The headers a server writes first on every response, which a response's own headers never replace: the
 * application gives them when it creates the server (the security headers and the CSP, with the request's nonce).
 */
import type { Request } from './request.js';

export interface FixedHeaders {
  /** Their names, lower-cased. */
  readonly names: ReadonlySet<string>;
  /** A new flat list (name, value, name, value…) for the response to `request` (undefined: no request could be read). */
  forRequest(request: Request | undefined): string[];
}

/** No fixed header. */
export const NO_FIXED_HEADERS: FixedHeaders = { names: new Set(), forRequest: () => [] };
