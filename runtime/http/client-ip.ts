/**
 * The client address of a request (docs/auth.md "Proxies and the client address"). `request.ip` is the socket's
 * peer; a list of trusted proxies (IPs and CIDRs, IPv4 and IPv6) makes `X-Forwarded-For` count when that peer is
 * one of them. The list itself comes from the application's configuration (runtime/app/client-ip.ts).
 */
import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';

/** Thrown for an entry of TRUSTED_PROXIES that is neither an IP address nor a CIDR block. */
export class TrustedProxiesError extends Error {
  constructor(
    readonly entry: string,
    source: string,
    reason: string,
  ) {
    super(
      `${source} : entrée invalide « ${entry} » (${reason}). Attendu : des adresses IP ou des blocs CIDR séparés par des virgules, ` +
        'par exemple « 127.0.0.1, 10.0.0.0/8, ::1, fd00::/8 ».',
    );
    this.name = 'TrustedProxiesError';
  }
}

/** A parsed list of trusted proxies. */
export class TrustedProxies {
  readonly #list = new BlockList();
  /** The entries as given (trimmed). */
  readonly entries: readonly string[];

  constructor(entries: readonly string[], source = 'trusted_proxies') {
    const kept: string[] = [];
    for (const raw of entries) {
      const entry = String(raw).trim();
      if (entry === '') continue;
      this.#add(entry, source);
      kept.push(entry);
    }
    this.entries = kept;
  }

  #add(entry: string, source: string): void {
    const slash = entry.indexOf('/');
    const address = slash === -1 ? entry : entry.slice(0, slash);
    const family = isIP(address);
    if (family === 0) throw new TrustedProxiesError(entry, source, "ce n'est pas une adresse IP");
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (slash === -1) {
      this.#list.addAddress(address, type);
      return;
    }
    const prefixText = entry.slice(slash + 1);
    const prefix = /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
    const max = family === 4 ? 32 : 128;
    if (!(prefix >= 0 && prefix <= max)) throw new TrustedProxiesError(entry, source, `le préfixe doit aller de 0 à ${max}`);
    this.#list.addSubnet(address, prefix, type);
  }

  /** True when `address` (IPv4, IPv6, IPv4-mapped IPv6, with or without a zone) is trusted; false for anything else. */
  has(address: string): boolean {
    const bare = stripZone(address);
    const family = isIP(bare);
    return family !== 0 && this.#list.check(bare, family === 4 ? 'ipv4' : 'ipv6');
  }
}

function stripZone(address: string): string {
  const percent = address.indexOf('%');
  return percent === -1 ? address : address.slice(0, percent);
}

/**
 * The trusted proxies of a configured value (a comma-separated text or a list) or, when it is null or undefined,
 * of the environment's text (TRUSTED_PROXIES); null when empty. Throws TrustedProxiesError on a bad entry, naming
 * where it came from.
 */
export function parseTrustedProxies(configured: unknown, environment: string | undefined): TrustedProxies | null {
  let proxies: TrustedProxies;
  if (configured !== null && configured !== undefined) {
    const entries = typeof configured === 'string' ? configured.split(',') : Array.isArray(configured) ? configured.map(String) : [String(configured)];
    proxies = new TrustedProxies(entries, 'trusted_proxies');
  } else {
    proxies = new TrustedProxies((environment ?? '').split(','), 'TRUSTED_PROXIES');
  }
  return proxies.entries.length > 0 ? proxies : null;
}

/**
 * The client address: `peer` unless it is a trusted proxy. Then `X-Forwarded-For` is read from the right,
 * trusted addresses skipped: the first untrusted one is the client; when all are trusted, the leftmost. An entry
 * that is not an address stops the walk: the last trusted address before it is taken, never the text sent.
 */
export function resolveClientIp(peer: string, forwardedFor: string | readonly string[] | undefined, proxies: TrustedProxies | null): string {
  if (!proxies || forwardedFor === undefined || !proxies.has(peer)) return peer;
  const hops = (typeof forwardedFor === 'string' ? forwardedFor : forwardedFor.join(',')).split(',');
  let client = peer;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = forwardedAddress(hops[i]!);
    if (hop === null) {
      // An empty element (`a,,b`) says nothing; anything else is not an address.
      if (hops[i]!.trim() === '') continue;
      return client;
    }
    client = hop;
    if (!proxies.has(hop)) return hop;
  }
  return client;
}

/** The address of one X-Forwarded-For element (`1.2.3.4`, `1.2.3.4:5678`, `[::1]:80`, `"[::1]"`), or null. */
function forwardedAddress(element: string): string | null {
  let text = element.trim();
  if (text.length > 2 && text.startsWith('"') && text.endsWith('"')) text = text.slice(1, -1);
  if (text.startsWith('[')) {
    const close = text.indexOf(']');
    if (close === -1) return null;
    const rest = text.slice(close + 1);
    if (rest !== '' && !/^:\d{1,5}$/.test(rest)) return null;
    text = text.slice(1, close);
    return isIP(stripZone(text)) === 6 ? text : null;
  }
  if (isIP(stripZone(text)) !== 0) return text;
  // IPv4 with a port.
  const colon = text.lastIndexOf(':');
  if (colon > 0 && text.indexOf(':') === colon && /^\d{1,5}$/.test(text.slice(colon + 1)) && isIP(text.slice(0, colon)) === 4) return text.slice(0, colon);
  return null;
}

/**
 * The client address of a node request: the socket's peer, or what trusted proxies forwarded (resolveClientIp).
 * Without trusted proxies, X-Forwarded-For is not even looked at.
 */
export function clientIpOf(message: IncomingMessage, proxies: TrustedProxies | null): string {
  const peer = message.socket.remoteAddress ?? '';
  return proxies === null ? peer : resolveClientIp(peer, message.headers['x-forwarded-for'], proxies);
}
