/**
 * The Redis store of attempts (`RATE_LIMIT_STORE=redis`, `REDIS_URL`): shared by every process and machine on that
 * server. Same contract and conformance suite as the memory and database stores (stores.ts,
 * test/auth-rate-limit.test.ts). Each step is one Lua script, atomic on the server.
 *
 * Keys, under the prefix (`redis_prefix`, default `fw:`), for each action and key (`storageKey`):
 * - `rl:<action>:<key>:all`: every attempt, a sorted set scored by its time, members numbered by `rl:seq`;
 * - `rl:<action>:<key>:f`: the failed ones among them (same members and scores);
 * both dropped by Redis once the newest attempt is older than the retention (PEXPIRE on each write);
 * - `rl:buckets`: each pair's last write, for purge() (which walks it: maintenance, never on a request's path).
 */
import { lua, redisPrefix, sharedRedis, type RedisConnection } from '../redis/client.js';
import {
  DEFAULT_RETENTION_SECONDS,
  checkAction,
  checkSeconds,
  checkTime,
  storageKey,
  type RateLimitAttempt,
  type RateLimitCount,
  type RateLimitCounting,
  type RateLimitReservation,
  type RateLimitStore,
} from './stores.js';

export interface RedisRateLimitStoreOptions {
  /** The connection; default: this process's connection to `redis_url` / REDIS_URL. */
  connection?: RedisConnection;
  /** The key prefix; default `redis_prefix` / REDIS_PREFIX, else `fw:`. */
  prefix?: string;
  /** Attempts older than this (seconds) are dropped (default one day). */
  retentionSeconds?: number;
}

/** The reference of a reserved attempt: its pair's key base and its member. */
interface RedisReference {
  readonly base: string;
  readonly member: string;
}

// KEYS: all, failures, seq, buckets. ARGV: at, failed ('1'|'0'), retention ms, base, window start ('' for none),
// counting ('hits'|'failures'). Inserts; returns { member, count in the window from ARGV[5] (0 when none) }.
const INSERT = lua(`
local at, retention = tonumber(ARGV[1]), tonumber(ARGV[3])
local member = tostring(redis.call('INCR', KEYS[3]))
redis.call('ZADD', KEYS[1], at, member)
if ARGV[2] == '1' then redis.call('ZADD', KEYS[2], at, member) end
local cutoff = '(' .. tostring(at - retention)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', cutoff)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', cutoff)
local newest = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
local life = math.max(1, tonumber(newest[2]) + retention - at)
redis.call('PEXPIRE', KEYS[1], math.ceil(life))
if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('PEXPIRE', KEYS[2], math.ceil(life)) end
local last = tonumber(redis.call('ZSCORE', KEYS[4], ARGV[4]) or '-1')
if at > last then redis.call('ZADD', KEYS[4], at, ARGV[4]) end
redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', cutoff)
local count = 0
if ARGV[5] ~= '' then
  count = redis.call('ZCOUNT', ARGV[6] == 'hits' and KEYS[1] or KEYS[2], '(' .. ARGV[5], '+inf')
end
return { member, count }
`);

// KEYS: all, failures, buckets. ARGV: base, outcome. A success leaves the failures; a cancel leaves both.
const SETTLE = lua(`
redis.call('ZREM', KEYS[2], ARGV[2])
if ARGV[1] == 'cancel' then redis.call('ZREM', KEYS[1], ARGV[2]) end
return 1
`);

// KEYS: all, failures. The failed attempts leave both sets; the successes stay (they still count as hits).
const CLEAR_FAILURES = lua(`
local failed = redis.call('ZRANGE', KEYS[2], 0, -1)
for i = 1, #failed, 500 do redis.call('ZREM', KEYS[1], unpack(failed, i, math.min(i + 499, #failed))) end
return redis.call('DEL', KEYS[2])
`);

// KEYS: counted set. ARGV: window start. { count, oldest score or false }.
const COUNT = lua(`
local since = '(' .. ARGV[1]
local count = redis.call('ZCOUNT', KEYS[1], since, '+inf')
if count == 0 then return { 0, false } end
local first = redis.call('ZRANGEBYSCORE', KEYS[1], since, '+inf', 'WITHSCORES', 'LIMIT', 0, 1)
return { count, first[2] }
`);

// KEYS: buckets. ARGV: prefix, cutoff, batch offset, batch. Drops the attempts older than the cutoff in a batch of
// pairs; returns { removed, pairs handled }.
const PURGE = lua(`
local bases = redis.call('ZRANGE', KEYS[1], tonumber(ARGV[3]), tonumber(ARGV[3]) + tonumber(ARGV[4]) - 1)
local removed = 0
local cutoff = '(' .. ARGV[2]
for _, base in ipairs(bases) do
  removed = removed + redis.call('ZREMRANGEBYSCORE', ARGV[1] .. base .. ':all', '-inf', cutoff)
  redis.call('ZREMRANGEBYSCORE', ARGV[1] .. base .. ':f', '-inf', cutoff)
end
return { removed, #bases }
`);

const PURGE_BATCH = 200;

/** Attempts in Redis: every process on that server sees the same counts, so limits hold across processes and machines. */
export class RedisRateLimitStore implements RateLimitStore {
  readonly retentionSeconds: number;
  readonly prefix: string;
  readonly #connection: RedisConnection;

  constructor(options: RedisRateLimitStoreOptions = {}) {
    this.#connection = options.connection ?? sharedRedis();
    this.prefix = options.prefix ?? redisPrefix();
    this.retentionSeconds = options.retentionSeconds ?? DEFAULT_RETENTION_SECONDS;
    checkSeconds('retentionSeconds', this.retentionSeconds);
  }

  async record(attempt: RateLimitAttempt): Promise<void> {
    await this.#insert(attempt, attempt.success !== true, null, 'failures');
  }

  /** Insert and count in one script: of concurrent requests (in any process) each counts those inserted before it, and itself. */
  async reserve(attempt: RateLimitAttempt, windowSeconds: number, counting: RateLimitCounting = 'failures'): Promise<RateLimitReservation> {
    const at = checkTime(attempt.at);
    const since = at - checkSeconds('windowSeconds', windowSeconds);
    const failed = counting === 'hits' ? attempt.success !== true : true;
    const { reference, count } = await this.#insert({ ...attempt, at }, failed, since, counting);
    return { reference, count: Math.max(count, 1) };
  }

  async settle(reference: unknown, outcome: 'success' | 'cancel'): Promise<void> {
    const { base, member } = (reference ?? {}) as Partial<RedisReference>;
    if (typeof base !== 'string' || typeof member !== 'string') return;
    await this.#connection.script(SETTLE, [this.#key(base, 'all'), this.#key(base, 'f')], [outcome, member]);
  }

  async #insert(
    attempt: RateLimitAttempt,
    failed: boolean,
    since: number | null,
    counting: RateLimitCounting,
  ): Promise<{ reference: RedisReference; count: number }> {
    checkAction(attempt.action);
    const at = checkTime(attempt.at);
    const base = pairBase(attempt.action, attempt.key);
    const keys = [this.#key(base, 'all'), this.#key(base, 'f'), `${this.prefix}rl:seq`, this.#buckets];
    const args = [at, failed ? '1' : '0', this.retentionSeconds * 1000, base, since === null ? '' : since, counting];
    const [member, count] = (await this.#connection.script(INSERT, keys, args)) as [string, number];
    return { reference: { base, member: String(member) }, count: Number(count) };
  }

  async failures(action: string, key: string, windowSeconds: number, now?: number): Promise<RateLimitCount> {
    return this.#count(action, key, windowSeconds, 'failures', now);
  }

  async hits(action: string, key: string, windowSeconds: number, now?: number): Promise<RateLimitCount> {
    return this.#count(action, key, windowSeconds, 'hits', now);
  }

  async nthAttemptAt(action: string, key: string, windowSeconds: number, counting: RateLimitCounting, index: number, now?: number): Promise<number | null> {
    checkAction(action);
    const since = checkTime(now) - checkSeconds('windowSeconds', windowSeconds);
    if (!Number.isSafeInteger(index) || index < 0) return null;
    const set = this.#key(pairBase(action, key), counting === 'hits' ? 'all' : 'f');
    const found = (await this.#connection.run((client) =>
      client.eval(`return redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. ARGV[1], '+inf', 'WITHSCORES', 'LIMIT', ARGV[2], 1)`, {
        keys: [set],
        arguments: [String(since), String(index)],
      }),
    )) as string[];
    return found.length === 2 ? Number(found[1]) : null;
  }

  async clearFailures(action: string, key: string): Promise<void> {
    checkAction(action);
    const base = pairBase(action, key);
    await this.#connection.script(CLEAR_FAILURES, [this.#key(base, 'all'), this.#key(base, 'f')], []);
  }

  async purge(olderThanSeconds: number, now?: number): Promise<number> {
    const cutoff = checkTime(now) - checkSeconds('olderThanSeconds', olderThanSeconds);
    let removed = 0;
    for (let offset = 0; ; offset += PURGE_BATCH) {
      const [dropped, handled] = (await this.#connection.script(PURGE, [this.#buckets], [`${this.prefix}rl:`, cutoff, offset, PURGE_BATCH])) as [
        number,
        number,
      ];
      removed += Number(dropped);
      if (Number(handled) < PURGE_BATCH) break;
    }
    // The pairs whose last write is older than the cutoff are empty now.
    await this.#connection.run((client) =>
      client.eval(`return redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[1])`, { keys: [this.#buckets], arguments: [String(cutoff)] }),
    );
    return removed;
  }

  async #count(action: string, key: string, windowSeconds: number, counting: RateLimitCounting, now: number | undefined): Promise<RateLimitCount> {
    checkAction(action);
    const since = checkTime(now) - checkSeconds('windowSeconds', windowSeconds);
    const set = this.#key(pairBase(action, key), counting === 'hits' ? 'all' : 'f');
    const [count, oldest] = (await this.#connection.script(COUNT, [set], [since])) as [number, string | null];
    return { count: Number(count), oldestAt: Number(count) > 0 && oldest !== null ? Number(oldest) : null };
  }

  #key(base: string, which: 'all' | 'f'): string {
    return `${this.prefix}rl:${base}:${which}`;
  }

  get #buckets(): string {
    return `${this.prefix}rl:buckets`;
  }
}

/** `<action>:<storage key>`: the action has no `:` (checkAction), so two pairs never share a base. */
function pairBase(action: string, key: string): string {
  return `${action}:${storageKey(key)}`;
}
