/**
 * Sessions in Redis (`SESSION_STORE=redis`, `REDIS_URL`): shared by every process and machine on that server
 * (docs/deploy.md "Several processes"). Same contract and conformance suite as the memory, file and database
 * stores (test/session-stores.test.ts). Each step is one Lua script, atomic on the server, one round trip.
 *
 * Keys, under the prefix (`redis_prefix`, default `fw:`):
 * - `sess:<key>`: a hash `d` (the data as JSON), `e` (the expiry, epoch ms), `u` (the user id or ''); the key is
 *   `sessionKey(id)`, an HMAC under the application's secret, so that an application sharing the prefix with
 *   another never finds its sessions (docs/decisions.md#session-stores); Redis drops it by itself after the TTL
 *   (PEXPIRE, pushed back on use like the database store's expiry);
 * - `sess-user:<application tag>:<user id>`: the set of that user's session keys, so that deleteUser() reads one
 *   set, never scans (the tag, `applicationTag()`, keeps another application's user 7 out of it);
 * - `sess-exp:<application tag>`: the expiries as a sorted set, for purge() (sessions Redis has already dropped
 *   leave only this entry).
 */
import { get } from '../config.js';
import { getLogger } from '../logger.js';
import { lua, sharedRedis, redisPrefix, type RedisConnection } from '../redis/client.js';
import { applicationTag, checkedTtl, newSessionId, sessionKey, sessionUserId, userIdKey, type SessionData, type SessionStore } from './store.js';

const log = getLogger('fw.session');
const PURGE_INTERVAL_MS = 60_000;
/** Expired entries of `sess-exp` handled per script run of purge(). */
const PURGE_BATCH = 500;
/** Past this many members, adding to a user's set first drops the members whose session is gone. */
const USER_SET_PRUNE_AT = 32;

export interface RedisSessionStoreOptions {
  /** The connection; default: this process's connection to `redis_url` / REDIS_URL. */
  readonly connection?: RedisConnection;
  /** The key prefix; default `redis_prefix` / REDIS_PREFIX, else `fw:`. */
  readonly prefix?: string;
  /** Seconds a session lives without use. Default: `session_ttl` (3600). */
  readonly ttlSeconds?: number;
  /** The clock, in milliseconds (tests). */
  readonly now?: () => number;
}

// KEYS: session, expiries. ARGV: sha, data, expiry, user, ttl ms, user-set prefix, 'set'|'update', now, prune-at.
const WRITE = lua(`
local key, exp = KEYS[1], KEYS[2]
local kind = redis.call('TYPE', key).ok
if ARGV[7] == 'update' then
  if kind ~= 'hash' then return 0 end
  local e = tonumber(redis.call('HGET', key, 'e'))
  if not e or e <= tonumber(ARGV[8]) then
    local u = redis.call('HGET', key, 'u')
    if u and u ~= '' then redis.call('SREM', ARGV[6] .. u, ARGV[1]) end
    redis.call('DEL', key)
    redis.call('ZREM', exp, ARGV[1])
    return 0
  end
elseif kind ~= 'hash' and kind ~= 'none' then
  redis.call('DEL', key)
end
local old = redis.call('HGET', key, 'u')
if old and old ~= '' and old ~= ARGV[4] then redis.call('SREM', ARGV[6] .. old, ARGV[1]) end
redis.call('HSET', key, 'd', ARGV[2], 'e', ARGV[3], 'u', ARGV[4])
redis.call('PEXPIRE', key, ARGV[5])
redis.call('ZADD', exp, ARGV[3], ARGV[1])
if ARGV[4] ~= '' then
  local set = ARGV[6] .. ARGV[4]
  if redis.call('SCARD', set) >= tonumber(ARGV[9]) then
    local base = string.sub(key, 1, #key - #ARGV[1])
    for _, member in ipairs(redis.call('SMEMBERS', set)) do
      if redis.call('EXISTS', base .. member) == 0 then redis.call('SREM', set, member) end
    end
  end
  redis.call('SADD', set, ARGV[1])
  if redis.call('PTTL', set) < tonumber(ARGV[5]) then redis.call('PEXPIRE', set, ARGV[5]) end
end
return 1
`);

// KEYS: session, expiries. ARGV: sha, now, ttl ms, user-set prefix. The data, or false; pushes the expiry back
// when more than a tenth of the TTL has passed since it was last pushed (expiryIsDue in store.ts).
const READ = lua(`
local key, exp = KEYS[1], KEYS[2]
local kind = redis.call('TYPE', key).ok
if kind == 'none' then return false end
if kind ~= 'hash' then
  redis.call('DEL', key)
  redis.call('ZREM', exp, ARGV[1])
  return false
end
local v = redis.call('HMGET', key, 'd', 'e', 'u')
local e, now, ttl = tonumber(v[2]), tonumber(ARGV[2]), tonumber(ARGV[3])
if not v[1] or not e or e <= now then
  if v[3] and v[3] ~= '' then redis.call('SREM', ARGV[4] .. v[3], ARGV[1]) end
  redis.call('DEL', key)
  redis.call('ZREM', exp, ARGV[1])
  return false
end
if now - (e - ttl) > ttl / 10 then
  local nextExpiry = now + ttl
  redis.call('HSET', key, 'e', nextExpiry)
  redis.call('PEXPIRE', key, ttl)
  redis.call('ZADD', exp, nextExpiry, ARGV[1])
  if v[3] and v[3] ~= '' and redis.call('PTTL', ARGV[4] .. v[3]) < ttl then redis.call('PEXPIRE', ARGV[4] .. v[3], ttl) end
end
return v[1]
`);

// KEYS: session, expiries. ARGV: sha, user-set prefix, '1' to compare, data. Deletes the session (when comparing,
// only if its data is still ARGV[4]: a corrupt entry rewritten meanwhile stays).
const REMOVE = lua(`
local key = KEYS[1]
local kind = redis.call('TYPE', key).ok
if kind == 'hash' then
  local v = redis.call('HMGET', key, 'd', 'u')
  if ARGV[3] == '1' and v[1] ~= ARGV[4] then return 0 end
  if v[2] and v[2] ~= '' then redis.call('SREM', ARGV[2] .. v[2], ARGV[1]) end
end
redis.call('ZREM', KEYS[2], ARGV[1])
return redis.call('DEL', key)
`);

// KEYS: old session, new session, expiries. ARGV: old sha, new sha, now, new expiry, ttl ms, user-set prefix.
const REGENERATE = lua(`
local old, new, exp = KEYS[1], KEYS[2], KEYS[3]
local d, u = '{}', ''
if redis.call('TYPE', old).ok == 'hash' then
  local v = redis.call('HMGET', old, 'd', 'e', 'u')
  if v[1] and tonumber(v[2]) and tonumber(v[2]) > tonumber(ARGV[3]) then d, u = v[1], v[3] or '' end
  if v[3] and v[3] ~= '' then redis.call('SREM', ARGV[6] .. v[3], ARGV[1]) end
end
redis.call('DEL', old)
redis.call('ZREM', exp, ARGV[1])
redis.call('HSET', new, 'd', d, 'e', ARGV[4], 'u', u)
redis.call('PEXPIRE', new, ARGV[5])
redis.call('ZADD', exp, ARGV[4], ARGV[2])
if u ~= '' then
  redis.call('SADD', ARGV[6] .. u, ARGV[2])
  if redis.call('PTTL', ARGV[6] .. u) < tonumber(ARGV[5]) then redis.call('PEXPIRE', ARGV[6] .. u, ARGV[5]) end
end
return 1
`);

// KEYS: the user's set, expiries. ARGV: session-key prefix, user id. Deletes the sessions of the set that still
// belong to the user; returns how many.
const DELETE_USER = lua(`
local deleted = 0
for _, member in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local key = ARGV[1] .. member
  if redis.call('TYPE', key).ok == 'hash' and redis.call('HGET', key, 'u') == ARGV[2] then
    deleted = deleted + redis.call('DEL', key)
    redis.call('ZREM', KEYS[2], member)
  end
end
redis.call('DEL', KEYS[1])
return deleted
`);

// KEYS: expiries. ARGV: session-key prefix, user-set prefix, now, batch. Deletes up to a batch of expired
// sessions; returns { deleted, entries handled }.
const PURGE = lua(`
local members = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[3], 'LIMIT', 0, tonumber(ARGV[4]))
local deleted = 0
for _, member in ipairs(members) do
  local key = ARGV[1] .. member
  if redis.call('TYPE', key).ok == 'hash' then
    local v = redis.call('HMGET', key, 'e', 'u')
    if not tonumber(v[1]) or tonumber(v[1]) <= tonumber(ARGV[3]) then
      if v[2] and v[2] ~= '' then redis.call('SREM', ARGV[2] .. v[2], member) end
      deleted = deleted + redis.call('DEL', key)
    end
  end
  redis.call('ZREM', KEYS[1], member)
end
return { deleted, #members }
`);

export class RedisSessionStore implements SessionStore {
  readonly ttlSeconds: number;
  readonly prefix: string;
  private readonly connection: RedisConnection;
  private readonly now: () => number;
  private lastPurge: number;

  constructor(options: RedisSessionStoreOptions = {}) {
    this.connection = options.connection ?? sharedRedis();
    this.prefix = options.prefix ?? redisPrefix();
    this.ttlSeconds = checkedTtl(options.ttlSeconds ?? get('session_ttl'), options.ttlSeconds === undefined ? 'session_ttl' : 'ttlSeconds');
    this.now = options.now ?? Date.now;
    this.lastPurge = this.now();
  }

  /** Creates a session; at most once a minute, first removes the expired entries (a failure there is only logged). */
  async create(data: SessionData = {}): Promise<string> {
    if (this.now() - this.lastPurge > PURGE_INTERVAL_MS) {
      await this.purge().catch((error: unknown) => log.warning(`Purge des sessions expirées impossible : ${(error as Error).message}`));
    }
    const id = newSessionId();
    await this.set(id, data);
    return id;
  }

  async get(id: string): Promise<SessionData | null> {
    const sha = sessionKey(id);
    const now = this.now();
    const text = await this.connection.script(READ, [this.key(sha), this.expiries], [sha, now, this.ttlMs, this.userPrefix]);
    if (typeof text !== 'string') return null;
    const data = parseData(text);
    if (!data) await this.connection.script(REMOVE, [this.key(sha), this.expiries], [sha, this.userPrefix, '1', text]);
    return data;
  }

  async set(id: string, data: SessionData): Promise<void> {
    await this.write(id, data, 'set');
  }

  async update(id: string, data: SessionData): Promise<boolean> {
    return (await this.write(id, data, 'update')) === 1;
  }

  async delete(id: string): Promise<void> {
    const sha = sessionKey(id);
    await this.connection.script(REMOVE, [this.key(sha), this.expiries], [sha, this.userPrefix, '0', '']);
  }

  async regenerate(oldId: string): Promise<string> {
    const next = newSessionId();
    const [oldSha, newSha] = [sessionKey(oldId), sessionKey(next)];
    const now = this.now();
    await this.connection.script(
      REGENERATE,
      [this.key(oldSha), this.key(newSha), this.expiries],
      [oldSha, newSha, now, now + this.ttlMs, this.ttlMs, this.userPrefix],
    );
    return next;
  }

  async deleteUser(userId: string | number): Promise<number> {
    const wanted = userIdKey(userId);
    return Number(await this.connection.script(DELETE_USER, [this.userPrefix + wanted, this.expiries], [this.key(''), wanted]));
  }

  async purge(): Promise<number> {
    const now = this.now();
    this.lastPurge = now;
    let deleted = 0;
    for (;;) {
      const [removed, handled] = (await this.connection.script(PURGE, [this.expiries], [this.key(''), this.userPrefix, now, PURGE_BATCH])) as [number, number];
      deleted += Number(removed);
      if (Number(handled) < PURGE_BATCH) return deleted;
    }
  }

  private async write(id: string, data: SessionData, mode: 'set' | 'update'): Promise<number> {
    const json = JSON.stringify(data);
    const userId = sessionUserId(data) ?? '';
    const sha = sessionKey(id);
    const now = this.now();
    const args = [sha, json, now + this.ttlMs, userId, this.ttlMs, this.userPrefix, mode, now, USER_SET_PRUNE_AT];
    return Number(await this.connection.script(WRITE, [this.key(sha), this.expiries], args));
  }

  private get ttlMs(): number {
    return Math.ceil(this.ttlSeconds * 1000);
  }

  private key(sha: string): string {
    return `${this.prefix}sess:${sha}`;
  }

  private get userPrefix(): string {
    return `${this.prefix}sess-user:${applicationTag()}:`;
  }

  private get expiries(): string {
    return `${this.prefix}sess-exp:${applicationTag()}`;
  }
}

/** Session data from its JSON text, or null when it is not a JSON object. */
function parseData(text: string): SessionData | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as SessionData) : null;
  } catch {
    return null;
  }
}
