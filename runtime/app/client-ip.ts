/**
 * The trusted proxies of this process, from the configuration: `trusted_proxies`, else TRUSTED_PROXIES (docs/auth.md
 * "Proxies and the client address"). The list is parsed once and again after a `configure()` of the key; without
 * it nothing else is read, so the common path costs one comparison. The parsing and the walk of X-Forwarded-For
 * are runtime/http/client-ip.ts.
 */
import type { IncomingMessage } from 'node:http';
import { get, onConfigChange } from '../config.js';
import { clientIpOf, parseTrustedProxies, type TrustedProxies } from '../http/client-ip.js';

/** The list the configuration gives: `trusted_proxies`, else TRUSTED_PROXIES; null when empty. Throws on a bad entry. */
export function trustedProxiesFromConfig(): TrustedProxies | null {
  return parseTrustedProxies(get('trusted_proxies'), process.env.TRUSTED_PROXIES);
}

/** undefined: not parsed yet; null: no trusted proxy. */
let cached: TrustedProxies | null | undefined;

/** The trusted proxies of this process, parsed on first use (and again after a configure() of `trusted_proxies`). */
export function getTrustedProxies(): TrustedProxies | null {
  if (cached === undefined) cached = trustedProxiesFromConfig();
  return cached;
}

onConfigChange((keys) => {
  if (keys.includes('trusted_proxies')) cached = undefined;
});

/** The client address of a node request, the configured trusted proxies believed (the server's ClientIpResolver). */
export function configuredClientIp(message: IncomingMessage): string {
  return clientIpOf(message, cached === undefined ? getTrustedProxies() : cached);
}
