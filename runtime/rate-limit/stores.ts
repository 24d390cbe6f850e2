/**
 * Where attempts are counted (docs/auth.md "Login limits"): one small contract and two stores, memory (one
 * process, here) and database (table `auth_rate_limit_attempts`, shared by every process on that database:
 * database-store.ts). Both pass the same conformance suite (test/auth-rate-limit.test.ts). Times are
 * epoch milliseconds; an attempt counts in a window of W seconds at time `now` when `now - W s < at`.
 */
import { createHash } from 'node:crypto';

/** One attempt: a login, an MFA code, an upload… `at` defaults to now. */
export interface RateLimitAttempt {
  action: string;
  key: string;
  ip?: string | null;
  userId?: number | null;
  success: boolean;
  at?: number;
}

/** How many attempts fall in a window, and the time of the oldest of them (null when none). */
export interface RateLimitCount {
  count: number;
  oldestAt: number | null;
}

/** What is counted: failed attempts only, or every attempt (uploads count every request). */
export type RateLimitCounting = 'failures' | 'hits';

export interface RateLimitStore {
  record(attempt: RateLimitAttempt): Promise<void>;
  /** Failed attempts of `action` for `key` within the last `windowSeconds`. */
  failures(action: string, key: string, windowSeconds: number, now?: number): Promise<RateLimitCount>;
  /** Every attempt (success or not) of `action` for `key` within the last `windowSeconds`. */
  hits(action: string, key: string, windowSeconds: number, now?: number): Promise<RateLimitCount>;
  /** The time of the counted attempt at `index` (0: the oldest) within the window, or null. */
  nthAttemptAt(action: string, key: string, windowSeconds: number, counting: RateLimitCounting, index: number, now?: number): Promise<number | null>;
  /** Forgets the failed attempts of `action` for `key` (successes stay: they still count as hits). */
  clearFailures(action: string, key: string): Promise<void>;
  /** Deletes attempts older than `olderThanSeconds`; returns how many. */
  purge(olderThanSeconds: number, now?: number): Promise<number>;
  /**
   * Records the attempt now, before the check it stands for, and answers how many counted attempts of the window
   * come up to it, itself included: concurrent requests each see the ones reserved before them, so no burst
   * passes the limit unseen. Counting `failures` (default), the attempt is recorded as a failure; counting
   * `hits`, as given. `reference` names the attempt for `settle`.
   */
  reserve(attempt: RateLimitAttempt, windowSeconds: number, counting?: RateLimitCounting): Promise<RateLimitReservation>;
  /** Turns a reserved failure into a success (`success`) or forgets it (`cancel`: the check did not happen). */
  settle(reference: unknown, outcome: 'success' | 'cancel'): Promise<void>;
}

/** A reserved attempt: its reference in the store, and the counted attempts of its window up to and including it. */
export interface RateLimitReservation {
  reference: unknown;
  count: number;
}

/** Attempts are kept this long (seconds) before the stores drop them on their own: longer than any window. */
export const DEFAULT_RETENTION_SECONDS = 86_400;

const ACTION_PATTERN = /^[a-z][a-z0-9_.-]{0,31}$/;
/** Keys stored as given: short, lower-case ASCII. Anything else is stored as its SHA-256 (see storageKey). */
const PLAIN_KEY_PATTERN = /^[a-z0-9:._@+%[\]-]{1,200}$/;

/** Refuses an action name the table column (VARCHAR(32)) could not hold as given. */
export function checkAction(action: string): void {
  if (typeof action !== 'string' || !ACTION_PATTERN.test(action)) {
    throw new Error(
      `Action de limitation invalide : « ${String(action)} » (attendu : 1 à 32 caractères a-z, 0-9, « _ », « . », « - », commençant par une lettre).`,
    );
  }
}

/**
 * The key as stored: itself when it is short lower-case ASCII, else `sha256:<hex>`. Every store then behaves
 * the same: MariaDB's collation would otherwise fold case, accents and trailing spaces (two logins sharing a
 * counter), a 255-character column would refuse a long key, and a memory store would hold it whole.
 */
export function storageKey(key: string): string {
  const text = String(key);
  return PLAIN_KEY_PATTERN.test(text) ? text : `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;
}

/** `value` seconds in milliseconds; refuses anything but a positive number. */
export function checkSeconds(name: string, value: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new Error(`${name} doit être un nombre de secondes positif (valeur : ${String(value)}).`);
  }
  return value * 1000;
}

/** The attempt time in whole epoch milliseconds (now when undefined); refuses a time the date columns cannot hold. */
export function checkTime(at: number | undefined): number {
  if (at === undefined) return Date.now();
  // Up to 9999-12-31: the range both date columns hold.
  if (typeof at !== 'number' || !(at >= 0 && at <= 253_402_300_799_999))
    throw new Error(`Date de tentative invalide : ${String(at)} (attendu : millisecondes depuis 1970).`);
  return Math.trunc(at);
}

interface Entry {
  readonly at: number;
  success: boolean;
}

/** The reference of a reserved attempt in the memory store: its bucket id and its entry. */
interface MemoryReference {
  readonly id: string;
  readonly entry: Entry;
}

export interface MemoryRateLimitStoreOptions {
  /** Keys held at most; past it the least recently written key is dropped (default 50,000). */
  maxKeys?: number;
  /** Attempts held per key at most, the oldest dropped first (default 1,000: far above any limit). */
  maxEntriesPerKey?: number;
  /** Attempts older than this (seconds) are dropped as new ones arrive (default one day). */
  retentionSeconds?: number;
}

/** Attempts in this process's memory: bounded in keys and in attempts per key. Not shared between processes. */
export class MemoryRateLimitStore implements RateLimitStore {
  readonly maxKeys: number;
  readonly maxEntriesPerKey: number;
  readonly retentionSeconds: number;
  /** `action \n key` → attempts sorted by time; the Map's order is the order of last writes. */
  readonly #buckets = new Map<string, Entry[]>();

  constructor(options: MemoryRateLimitStoreOptions = {}) {
    this.maxKeys = positiveInteger('maxKeys', options.maxKeys ?? 50_000);
    this.maxEntriesPerKey = positiveInteger('maxEntriesPerKey', options.maxEntriesPerKey ?? 1000);
    this.retentionSeconds = options.retentionSeconds ?? DEFAULT_RETENTION_SECONDS;
    checkSeconds('retentionSeconds', this.retentionSeconds);
  }

  /** Keys held now. */
  get size(): number {
    return this.#buckets.size;
  }

  async record(attempt: RateLimitAttempt): Promise<void> {
    this.#insert(attempt);
  }

  /** Insertion and count run without yielding: in one process they are one atomic step. */
  async reserve(attempt: RateLimitAttempt, windowSeconds: number, counting: RateLimitCounting = 'failures'): Promise<RateLimitReservation> {
    const { id, entry } = this.#insert(counting === 'hits' ? attempt : { ...attempt, success: false });
    const since = entry.at - checkSeconds('windowSeconds', windowSeconds);
    const bucket = this.#buckets.get(id) ?? [];
    const upTo = bucket.indexOf(entry);
    const count = bucket.slice(0, upTo + 1).filter((other) => other.at > since && (counting === 'hits' || !other.success)).length;
    return { reference: { id, entry } satisfies MemoryReference, count: Math.max(count, 1) };
  }

  async settle(reference: unknown, outcome: 'success' | 'cancel'): Promise<void> {
    const { id, entry } = (reference ?? {}) as Partial<MemoryReference>;
    if (typeof id !== 'string' || !entry) return;
    if (outcome === 'success') {
      entry.success = true;
      return;
    }
    const bucket = this.#buckets.get(id);
    const index = bucket ? bucket.indexOf(entry) : -1;
    if (index < 0) return;
    bucket!.splice(index, 1);
    if (bucket!.length === 0) this.#buckets.delete(id);
  }

  #insert(attempt: RateLimitAttempt): MemoryReference {
    checkAction(attempt.action);
    const at = checkTime(attempt.at);
    const id = bucketId(attempt.action, attempt.key);
    const bucket = this.#buckets.get(id) ?? [];
    // Re-inserted so that the Map's first key is always the least recently written.
    this.#buckets.delete(id);
    this.#buckets.set(id, bucket);
    let i = bucket.length;
    while (i > 0 && bucket[i - 1]!.at > at) i--;
    const entry: Entry = { at, success: attempt.success === true };
    bucket.splice(i, 0, entry);
    const cutoff = at - this.retentionSeconds * 1000;
    let drop = 0;
    while (drop < bucket.length && bucket[drop]!.at < cutoff) drop++;
    drop = Math.max(drop, bucket.length - this.maxEntriesPerKey);
    if (drop > 0) bucket.splice(0, drop);
    if (bucket.length === 0) this.#buckets.delete(id);
    while (this.#buckets.size > this.maxKeys) this.#buckets.delete(this.#buckets.keys().next().value!);
    return { id, entry };
  }

  async failures(action: string, key: string, windowSeconds: number, now?: number): Promise<RateLimitCount> {
    return this.#count(action, key, windowSeconds, 'failures', now);
  }

  async hits(action: string, key: string, windowSeconds: number, now?: number): Promise<RateLimitCount> {
    return this.#count(action, key, windowSeconds, 'hits', now);
  }

  async nthAttemptAt(action: string, key: string, windowSeconds: number, counting: RateLimitCounting, index: number, now?: number): Promise<number | null> {
    return this.#inWindow(action, key, windowSeconds, counting, now)[index]?.at ?? null;
  }

  async clearFailures(action: string, key: string): Promise<void> {
    checkAction(action);
    const id = bucketId(action, key);
    const bucket = this.#buckets.get(id);
    if (!bucket) return;
    const kept = bucket.filter((entry) => entry.success);
    if (kept.length === 0) this.#buckets.delete(id);
    else this.#buckets.set(id, kept);
  }

  async purge(olderThanSeconds: number, now?: number): Promise<number> {
    const cutoff = checkTime(now) - checkSeconds('olderThanSeconds', olderThanSeconds);
    let removed = 0;
    for (const [id, bucket] of this.#buckets) {
      let drop = 0;
      while (drop < bucket.length && bucket[drop]!.at < cutoff) drop++;
      if (drop === 0) continue;
      removed += drop;
      if (drop === bucket.length) this.#buckets.delete(id);
      else bucket.splice(0, drop);
    }
    return removed;
  }

  #count(action: string, key: string, windowSeconds: number, counting: RateLimitCounting, now: number | undefined): RateLimitCount {
    const entries = this.#inWindow(action, key, windowSeconds, counting, now);
    return { count: entries.length, oldestAt: entries[0]?.at ?? null };
  }

  /** The counted attempts of the window, oldest first. */
  #inWindow(action: string, key: string, windowSeconds: number, counting: RateLimitCounting, now: number | undefined): Entry[] {
    checkAction(action);
    const since = checkTime(now) - checkSeconds('windowSeconds', windowSeconds);
    const bucket = this.#buckets.get(bucketId(action, key));
    if (!bucket) return [];
    let start = bucket.length;
    while (start > 0 && bucket[start - 1]!.at > since) start--;
    const recent = bucket.slice(start);
    return counting === 'hits' ? recent : recent.filter((entry) => !entry.success);
  }
}

function bucketId(action: string, key: string): string {
  return `${action}\n${storageKey(key)}`;
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} doit être un entier positif (valeur : ${String(value)}).`);
  return value;
}
