/**
 * Attempt limits (docs/auth.md "Login limits"): the store chosen by `rate_limit_store` / `RATE_LIMIT_STORE`,
 * `checkLimit`, and `reserveAttempt` / `settleAttempt` around a check (a password, an MFA code, an upload). The
 * login's own policy (5 failed credential checks per 60 s per client address and per login) is
 * runtime/auth/login-limit.ts; MFA codes, the profile's password change and uploads set their own.
 */
import { isIPv4, isIPv6 } from 'node:net';
import { get, onConfigChange } from '../config.js';
import { DatabaseRateLimitStore } from './database-store.js';
import { RedisRateLimitStore } from './redis-store.js';
import { MemoryRateLimitStore, type RateLimitCounting, type RateLimitStore } from './stores.js';

/** The accepted values of `rate_limit_store` / `RATE_LIMIT_STORE`. */
export const RATE_LIMIT_STORE_NAMES = ['memory', 'database', 'redis'] as const;
export type RateLimitStoreName = (typeof RATE_LIMIT_STORE_NAMES)[number];

/** Whether a limit is reached, and in how many whole seconds (≥ 1) a new attempt may pass (0 when not limited). */
export interface LimitStatus {
  limited: boolean;
  retryAfter: number;
}

/** The store name the configuration asks for: `rate_limit_store`, else `RATE_LIMIT_STORE`, else memory. */
export function rateLimitStoreName(): RateLimitStoreName {
  const configured = get('rate_limit_store') as unknown;
  const [source, raw] = configured !== null && configured !== undefined ? ['rate_limit_store', configured] : ['RATE_LIMIT_STORE', process.env.RATE_LIMIT_STORE];
  const name = String(raw ?? '')
    .trim()
    .toLowerCase();
  if (name === '') return 'memory';
  if ((RATE_LIMIT_STORE_NAMES as readonly string[]).includes(name)) return name as RateLimitStoreName;
  throw new Error(
    `${source} : stockage des limites de tentatives inconnu « ${String(raw)} ». Valeurs acceptées : ${RATE_LIMIT_STORE_NAMES.join(', ')} ` +
      '(database et redis partagent les compteurs entre processus ; la table auth_rate_limit_attempts vient de « fw auth:init » puis « fw db:apply », redis lit REDIS_URL).',
  );
}

/** A new store of the configured kind (the database one on the application's database, the redis one on REDIS_URL). */
export function rateLimitStoreFromConfig(): RateLimitStore {
  const name = rateLimitStoreName();
  if (name === 'database') return new DatabaseRateLimitStore();
  return name === 'redis' ? new RedisRateLimitStore() : new MemoryRateLimitStore();
}

let current: RateLimitStore | null = null;
/** True when the store was given by setRateLimitStore: a configuration change then leaves it in place. */
let explicit = false;

/** The store of this process, made from the configuration on first use. */
export function getRateLimitStore(): RateLimitStore {
  current ??= rateLimitStoreFromConfig();
  return current;
}

/** Sets the store of this process; null goes back to the configured one (made again on next use). */
export function setRateLimitStore(store: RateLimitStore | null): void {
  current = store;
  explicit = store !== null;
}

onConfigChange((keys) => {
  if (!explicit && keys.includes('rate_limit_store')) current = null;
});

export interface CheckLimitOptions {
  action: string;
  key: string;
  /** Attempts allowed in the window; the limit is reached at `max`. */
  max: number;
  windowSeconds: number;
  /** `failures` (default) counts failed attempts; `hits` counts every attempt. */
  count?: RateLimitCounting;
  /** The current time in epoch milliseconds (tests); Date.now() by default. */
  now?: number;
  /** Another store than getRateLimitStore(). */
  store?: RateLimitStore;
}

/**
 * Whether `key` has reached `max` counted attempts of `action` in the last `windowSeconds`; `retryAfter` is the
 * whole number of seconds until enough of them leave the window for an attempt to pass again.
 */
export async function checkLimit(options: CheckLimitOptions): Promise<LimitStatus> {
  const { action, key, max, windowSeconds } = options;
  if (!Number.isSafeInteger(max) || max < 1) throw new Error(`checkLimit : max doit être un entier positif (valeur : ${String(max)}).`);
  const counting = options.count ?? 'failures';
  const store = options.store ?? getRateLimitStore();
  const now = options.now ?? Date.now();
  const counted = counting === 'hits' ? await store.hits(action, key, windowSeconds, now) : await store.failures(action, key, windowSeconds, now);
  if (counted.count < max) return { limited: false, retryAfter: 0 };
  // Below `max` again once the attempt at index count - max has left the window (the oldest when count = max).
  const freeingAt = counted.count === max ? counted.oldestAt : await store.nthAttemptAt(action, key, windowSeconds, counting, counted.count - max, now);
  const remainingMs = (freeingAt ?? now) + windowSeconds * 1000 - now;
  return { limited: true, retryAfter: Math.max(1, Math.ceil(remainingMs / 1000)) };
}

/**
 * The client address as counted: an IPv4 address as is, an IPv4-mapped IPv6 address (`::ffff:192.0.2.1`,
 * `::ffff:c000:201`, `0:0:0:0:0:ffff:c000:201`, any case or zero padding) as the IPv4 address it maps, any other
 * IPv6 address as its /64 prefix (`2001:db8:1:2::/64`: one subscriber usually holds a whole /64), anything else
 * as given. The address is validated by node:net and fully expanded before it is read, so that every spelling
 * of one address gives one key.
 */
export function clientAddressKey(ip: string): string {
  const text = String(ip ?? '').trim();
  if (isIPv4(text)) return text;
  const address = text.replace(/%.*$/, '');
  if (!isIPv6(address)) return text;
  const groups = ipv6Groups(address);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

/**
 * The eight 16-bit groups of an address `isIPv6()` accepted (`::` expanded, a trailing dotted IPv4 turned into
 * two groups).
 */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const v4 = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? (text.split('::') as [string, string]) : [text, undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? [] : Array.from({ length: 8 - left.length - right.length }, () => '0');
  return [...left, ...zeros, ...right].map((group) => parseInt(group, 16));
}

export interface ReserveAttemptOptions {
  action: string;
  /** The counters the attempt counts in (an address, a login, a user…); the limit holds for each. */
  keys: string[];
  ip?: string | null;
  userId?: number | null;
  /** Attempts allowed per key and window. */
  max: number;
  windowSeconds: number;
  /** `failures` (default): the attempt counts until settled as a success; `hits`: it counts whatever its outcome. */
  count?: RateLimitCounting;
  now?: number;
  store?: RateLimitStore;
}

/** A reserved attempt, settled by settleAttempt once the check it stands for has answered. */
export interface AttemptTicket {
  readonly action: string;
  readonly store: RateLimitStore;
  readonly reservations: ReadonlyArray<{ key: string; reference: unknown }>;
}

/**
 * Reserves an attempt before the check it stands for (a password, a code, an upload): it is recorded first in
 * each key's counter (as a failure, or as a hit with `count: 'hits'`), then counted with those before it. Over
 * `max` for any key, the reservations are withdrawn (a refused attempt checks nothing, so it does not count) and
 * `limited` is true with `retryAfter` seconds; else the caller checks, then calls settleAttempt (a hit needs
 * nothing more: it stays counted). Concurrent requests cannot all pass a check-then-record gap: each one is
 * counted before it checks anything.
 */
export async function reserveAttempt(options: ReserveAttemptOptions): Promise<{ limited: boolean; retryAfter: number; ticket: AttemptTicket | null }> {
  const { action, keys, max, windowSeconds } = options;
  if (!Number.isSafeInteger(max) || max < 1) throw new Error(`reserveAttempt : max doit être un entier positif (valeur : ${String(max)}).`);
  const counting = options.count ?? 'failures';
  const store = options.store ?? getRateLimitStore();
  const at = options.now ?? Date.now();
  // A hit counts whatever its outcome; stored as a success, it never adds to a count of failures.
  const attempt = { action, ip: options.ip ?? null, userId: options.userId ?? null, success: counting === 'hits', at };
  const reservations = await Promise.all(keys.map(async (key) => ({ key, ...(await store.reserve({ ...attempt, key }, windowSeconds, counting)) })));
  const over = reservations.filter((reservation) => reservation.count > max);
  if (over.length === 0) return { limited: false, retryAfter: 0, ticket: { action, store, reservations } };
  await cancelAttempt({ action, store, reservations });
  const statuses = await Promise.all(
    over.map((reservation) => checkLimit({ action, key: reservation.key, max, windowSeconds, count: counting, now: at, store })),
  );
  return { limited: true, retryAfter: Math.max(1, ...statuses.map((status) => status.retryAfter)), ticket: null };
}

/** Withdraws a reserved attempt whose check never ran: it counts for nothing. */
export async function cancelAttempt(ticket: AttemptTicket): Promise<void> {
  await Promise.all(ticket.reservations.map((reservation) => ticket.store.settle(reservation.reference, 'cancel')));
}

/**
 * Settles a reserved attempt: a failure stays counted as it is; a success becomes one (it never counts), and
 * the failures of `clearKeys` are forgotten (a login's success clears its per-login counter, not the address's).
 */
export async function settleAttempt(ticket: AttemptTicket, success: boolean, clearKeys: readonly string[] = []): Promise<void> {
  if (!success) return;
  await Promise.all(ticket.reservations.map((reservation) => ticket.store.settle(reservation.reference, 'success')));
  for (const key of clearKeys) await ticket.store.clearFailures(ticket.action, key);
}
