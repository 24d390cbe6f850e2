/**
 * Attempt limits (docs/auth.md "Login limits"): one conformance suite run against the memory store, the database
 * store on each dialect (SQLite, MariaDB; table `auth_rate_limit_attempts` from AUTH_TABLES) and the Redis store, on an
 * injected clock: the sliding window, 5 failures → limited, Retry-After values, a login's success clearing the account's
 * counter and not the per-address one, hits, purge, keys kept apart, and two store instances sharing counts.
 * Then the choice of store by configuration.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { AUTH_TABLES, authTableSql } from '../runtime/auth/schema.js';
import { LOGIN_ACTION, LOGIN_MAX_FAILURES, LOGIN_WINDOW_SECONDS, isLoginLimited, loginAttemptKeys, recordLoginAttempt } from '../runtime/auth/login-limit.js';
import {
  DatabaseRateLimitStore,
  MemoryRateLimitStore,
  RedisRateLimitStore,
  cancelAttempt,
  checkLimit,
  getRateLimitStore,
  rateLimitStoreFromConfig,
  reserveAttempt,
  setRateLimitStore,
  settleAttempt,
  type LimitStatus,
  type RateLimitStore,
} from '../runtime/rate-limit/index.js';
import { configure, resetConfig } from '../runtime/config.js';
import type { Database, DialectName } from '../runtime/db/index.js';
import { RedisConnection } from '../runtime/redis/client.js';
import { DIALECTS, freshDatabase, productOf, type FreshDatabase } from './helpers/dialects.js';
import { dropRedisPrefix, rawRedis, redisTestPrefix } from './helpers/session-backends.js';

const S = 1000;
const T = Date.UTC(2026, 0, 15, 12, 0, 0);
const TABLE = AUTH_TABLES.find((table) => table.name === 'auth_rate_limit_attempts')!;

/** A store kind under test: how to make a store, and (databases) the handle to look at the rows. */
interface Target {
  readonly name: string;
  setup(): Promise<void>;
  teardown(): Promise<void>;
  /** Empties the table (or gives a fresh memory store) before each test. */
  reset(): Promise<void>;
  store(): RateLimitStore;
  /** A second, independent store instance on the same data (databases only). */
  another?(): RateLimitStore;
  database?(): Database;
}

async function createTable(db: Database, dialect: DialectName): Promise<void> {
  for (const statement of authTableSql(TABLE, dialect).split(/;\s*(?:\n|$)/)) if (statement.trim()) await db.execute(statement);
}

function memoryTarget(): Target {
  let store = new MemoryRateLimitStore();
  return {
    name: 'memory',
    setup: async () => {},
    teardown: async () => {},
    reset: async () => void (store = new MemoryRateLimitStore()),
    store: () => store,
  };
}

/** The database store on a fresh database of `dialect`; `another` is a second handle, as a second process would have. */
function databaseTarget(dialect: DialectName): Target {
  let fresh: FreshDatabase;
  let store: DatabaseRateLimitStore;
  const others: Database[] = [];
  return {
    name: `database (${productOf(dialect)})`,
    setup: async () => {
      fresh = await freshDatabase(dialect, { prefix: 'fw_test_rate', poolSize: 2 });
      await createTable(fresh.database, dialect);
      store = new DatabaseRateLimitStore({ database: fresh.database });
    },
    teardown: async () => {
      await Promise.all(others.map((handle) => handle.close()));
      await fresh.close();
    },
    reset: async () => {
      await fresh.database.execute('DELETE FROM auth_rate_limit_attempts');
      store = new DatabaseRateLimitStore({ database: fresh.database });
    },
    store: () => store,
    another: () => {
      const handle = fresh.another();
      others.push(handle);
      return new DatabaseRateLimitStore({ database: handle });
    },
    database: () => fresh.database,
  };
}

/** Redis: each test on a fresh key prefix; `another` is a second connection, as a second process would have. */
function redisTarget(): Target {
  const root = redisTestPrefix();
  const url = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
  const connections: RedisConnection[] = [];
  let prefix = '';
  let count = 0;
  let store: RedisRateLimitStore;
  const connect = (): RedisConnection => {
    const connection = new RedisConnection(url);
    connections.push(connection);
    return connection;
  };
  return {
    name: 'redis',
    setup: async () => {},
    teardown: async () => {
      const client = await rawRedis();
      await dropRedisPrefix(client, root).finally(() => client.close());
      await Promise.all(connections.map((connection) => connection.close()));
    },
    reset: async () => {
      prefix = `${root}${++count}:`;
      store = new RedisRateLimitStore({ connection: connections[0] ?? connect(), prefix });
    },
    store: () => store,
    another: () => new RedisRateLimitStore({ connection: connect(), prefix }),
  };
}

/** Records `n` failures of `action` for `key`, the i-th at `times[i]`. */
async function fail(store: RateLimitStore, key: string, times: number[], action = 'login'): Promise<void> {
  for (const at of times) await store.record({ action, key, ip: '192.0.2.1', success: false, at });
}

/** A failed login as the login page counts it: reserved on the address and the account (or typed login), kept as a failure. */
async function failLogin(ip: string, login: string, userId: number | null, at: number): Promise<void> {
  const { ticket } = await reserveAttempt({
    action: LOGIN_ACTION,
    keys: loginAttemptKeys(ip, login, userId),
    ip,
    userId,
    max: LOGIN_MAX_FAILURES,
    windowSeconds: LOGIN_WINDOW_SECONDS,
    now: at,
  });
  if (ticket) await settleAttempt(ticket, false);
}

/** Whether the login page would refuse that attempt now; the probe's reservation is withdrawn. */
async function loginStatus(ip: string, login: string, userId: number | null, at: number): Promise<LimitStatus> {
  const { limited, retryAfter, ticket } = await reserveAttempt({
    action: LOGIN_ACTION,
    keys: loginAttemptKeys(ip, login, userId),
    max: LOGIN_MAX_FAILURES,
    windowSeconds: LOGIN_WINDOW_SECONDS,
    now: at,
  });
  if (ticket) await cancelAttempt(ticket);
  return { limited, retryAfter };
}

for (const target of [memoryTarget(), ...DIALECTS.map(databaseTarget), redisTarget()]) {
  const test = suite(`rate limits: ${target.name}`);
  test.before(() => target.setup());
  test.after(async () => {
    setRateLimitStore(null);
    await target.teardown();
  });
  test.before.each(async () => {
    await target.reset();
    setRateLimitStore(target.store());
  });

  test('the window slides: an attempt counts while now - window < at', async () => {
    const store = target.store();
    await fail(store, 'ip:192.0.2.1', [T, T + 10 * S, T + 20 * S]);
    assert.equal(await store.failures('login', 'ip:192.0.2.1', 60, T + 30 * S), { count: 3, oldestAt: T });
    assert.equal(await store.failures('login', 'ip:192.0.2.1', 60, T + 60 * S - 1), { count: 3, oldestAt: T });
    assert.equal(await store.failures('login', 'ip:192.0.2.1', 60, T + 60 * S), { count: 2, oldestAt: T + 10 * S });
    assert.equal(await store.failures('login', 'ip:192.0.2.1', 60, T + 80 * S), { count: 0, oldestAt: null });
    assert.equal(await store.failures('login', 'ip:192.0.2.1', 3600, T + 80 * S), { count: 3, oldestAt: T });
    // Other actions and keys are counted apart.
    assert.equal(await store.failures('mfa', 'ip:192.0.2.1', 60, T + 30 * S), { count: 0, oldestAt: null });
    assert.equal(await store.failures('login', 'ip:192.0.2.2', 60, T + 30 * S), { count: 0, oldestAt: null });
    // Milliseconds are kept: 1 ms before the edge the attempt is still in.
    await fail(store, 'k', [T + 123]);
    assert.is((await store.failures('login', 'k', 1, T + 1122)).count, 1);
    assert.is((await store.failures('login', 'k', 1, T + 1123)).count, 0);
    assert.is((await store.failures('login', 'k', 1, T + 1000)).oldestAt, T + 123);
  });

  test('checkLimit: limited at max failures; retryAfter in whole seconds until enough leave the window', async () => {
    const store = target.store();
    const check = (now: number, extra: Partial<Parameters<typeof checkLimit>[0]> = {}) =>
      checkLimit({ action: 'login', key: 'ip:a', max: 5, windowSeconds: 60, now, store, ...extra });
    await fail(store, 'ip:a', [T, T + 1500, T + 2 * S, T + 3 * S]);
    assert.equal(await check(T + 4 * S), { limited: false, retryAfter: 0 });
    await fail(store, 'ip:a', [T + 4 * S]);
    assert.equal(await check(T + 4 * S), { limited: true, retryAfter: 56 });
    assert.equal(await check(T + 4500), { limited: true, retryAfter: 56 }, 'ceil: 55.5 s is 56');
    assert.equal(await check(T + 59 * S + 500), { limited: true, retryAfter: 1 }, 'never less than 1');
    assert.equal(await check(T + 60 * S), { limited: false, retryAfter: 0 }, 'the oldest left: 4 remain');
    // Seven failures: below five again once the third oldest (T + 2 s) has left.
    await fail(store, 'ip:a', [T + 5 * S, T + 6 * S]);
    assert.equal(await check(T + 10 * S), { limited: true, retryAfter: 52 });
    assert.equal(await check(T + 61 * S), { limited: true, retryAfter: 1 }, 'T + 2 s still in until T + 62 s');
    assert.equal(await check(T + 62 * S), { limited: false, retryAfter: 0 });
    try {
      await check(T, { max: 0 });
      assert.unreachable('max 0 accepted');
    } catch (err) {
      assert.match((err as Error).message, /max doit être un entier positif/);
    }
  });

  test('hits count every attempt, failures only the failed ones; clearFailures keeps the successes', async () => {
    const store = target.store();
    for (let i = 0; i < 10; i++) await store.record({ action: 'upload', key: 'ip:u', ip: '192.0.2.9', success: i % 2 === 0, at: T + i * S });
    assert.equal(await store.hits('upload', 'ip:u', 60, T + 10 * S), { count: 10, oldestAt: T });
    assert.equal(await store.failures('upload', 'ip:u', 60, T + 10 * S), { count: 5, oldestAt: T + S });
    assert.equal(await checkLimit({ action: 'upload', key: 'ip:u', max: 10, windowSeconds: 60, count: 'hits', now: T + 10 * S, store }), {
      limited: true,
      retryAfter: 50,
    });
    assert.is((await checkLimit({ action: 'upload', key: 'ip:u', max: 10, windowSeconds: 60, now: T + 10 * S, store })).limited, false);
    await store.clearFailures('upload', 'ip:u');
    assert.equal(await store.failures('upload', 'ip:u', 60, T + 10 * S), { count: 0, oldestAt: null });
    assert.equal(await store.hits('upload', 'ip:u', 60, T + 10 * S), { count: 5, oldestAt: T });
    assert.is(await store.nthAttemptAt('upload', 'ip:u', 60, 'hits', 2, T + 10 * S), T + 4 * S);
    assert.is(await store.nthAttemptAt('upload', 'ip:u', 60, 'hits', 5, T + 10 * S), null);
  });

  test('login policy: 5 failures per 60 s per address and per account or typed login (trimmed, lower-cased), the longest wait wins', async () => {
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) await failLogin('192.0.2.1', '  Alice@Example.TEST ', 7, T + i * S);
    const now = T + 4 * S;
    assert.equal(await loginStatus('192.0.2.1', 'alice@example.test', 7, now), { limited: true, retryAfter: 56 });
    assert.equal(await loginStatus('198.51.100.7', 'ALICE@example.test', 7, now), { limited: true, retryAfter: 56 }, 'the account, from elsewhere');
    assert.equal(await loginStatus('192.0.2.1', 'bob@example.test', null, now), { limited: true, retryAfter: 56 }, 'the address, another login');
    assert.equal(await loginStatus('198.51.100.7', 'bob@example.test', null, now), { limited: false, retryAfter: 0 });
    assert.equal(await loginStatus('192.0.2.1', 'alice@example.test', 7, T + LOGIN_WINDOW_SECONDS * S), { limited: false, retryAfter: 0 });
    // Five failures on "zed" from five addresses 30 s later: for 192.0.2.1 + zed both limits hold; the longest wins.
    for (let i = 0; i < 5; i++) await failLogin(`203.0.113.${i}`, 'Zed@example.test ', null, T + 30 * S);
    assert.equal(await loginStatus('192.0.2.1', 'zed@example.test', null, T + 31 * S), { limited: true, retryAfter: 59 });
    // An empty login is counted on the address only.
    for (let i = 0; i < 5; i++) await failLogin(`198.18.0.${i}`, '   ', null, T);
    assert.equal(await loginStatus('198.18.0.9', '', null, T + S), { limited: false, retryAfter: 0 });
  });

  test('a success clears the failures of the account, not those of the address', async () => {
    for (let i = 0; i < 4; i++) await failLogin('192.0.2.1', 'alice@example.test', 7, T + i * S);
    const keys = loginAttemptKeys('192.0.2.1', 'Alice@example.test', 7);
    const won = await reserveAttempt({ action: LOGIN_ACTION, keys, max: LOGIN_MAX_FAILURES, windowSeconds: LOGIN_WINDOW_SECONDS, now: T + 5 * S });
    await settleAttempt(won.ticket!, true, keys.slice(1));
    const store = target.store();
    assert.is((await store.failures('login', 'user:7', 60, T + 6 * S)).count, 0);
    assert.is((await store.failures('login', 'ip:192.0.2.1', 60, T + 6 * S)).count, 4);
    assert.is((await store.hits('login', 'ip:192.0.2.1', 60, T + 6 * S)).count, 5);
    // One more failure from that address, for anyone, reaches five: the address is limited, alice elsewhere is not.
    await failLogin('192.0.2.1', 'carol@example.test', null, T + 6 * S);
    assert.is((await loginStatus('192.0.2.1', 'alice@example.test', 7, T + 7 * S)).limited, true);
    assert.is((await loginStatus('198.51.100.7', 'alice@example.test', 7, T + 7 * S)).limited, false);
  });

  test('the original names (docs/api-mapping.md): recordLoginAttempt(ip) counts, isLoginLimited(ip) is true from the fifth in 60 s', async () => {
    for (let i = 0; i < 4; i++) await recordLoginAttempt('192.0.2.50', T + i * S);
    assert.is(await isLoginLimited('192.0.2.50', T + 4 * S), false);
    await recordLoginAttempt('192.0.2.50', T + 4 * S);
    assert.is(await isLoginLimited('192.0.2.50', T + 4 * S), true);
    assert.is(await isLoginLimited('192.0.2.51', T + 4 * S), false);
    assert.is(await isLoginLimited('192.0.2.50', T + 60 * S), false);
  });

  test('purge deletes attempts older than the given age and says how many', async () => {
    const store = target.store();
    await fail(store, 'a', [T - 7200 * S, T - 3601 * S, T - 1800 * S]);
    await fail(store, 'b', [T - 5000 * S, T]);
    assert.is(await store.purge(3600, T), 3);
    assert.is((await store.failures('login', 'a', 86_400, T)).count, 1);
    assert.is((await store.failures('login', 'b', 86_400, T)).count, 1);
    assert.is(await store.purge(3600, T), 0);
    assert.is(await store.purge(1, T + 10 * S), 2);
  });

  test('keys: case, accents, trailing spaces and long keys are never folded together', async () => {
    const store = target.store();
    const keys = [
      'login:élodie@x.test',
      'login:elodie@x.test',
      'login:Elodie@x.test',
      'login:elodie@x.test ',
      `login:${'x'.repeat(400)}`,
      `login:${'x'.repeat(401)}`,
      'ip:::ffff:192.0.2.1',
    ];
    for (const [i, key] of keys.entries())
      await fail(
        store,
        key,
        Array.from({ length: i + 1 }, (_, j) => T + j),
      );
    for (const [i, key] of keys.entries()) assert.is((await store.failures('login', key, 60, T + S)).count, i + 1, JSON.stringify(key.slice(0, 30)));
  });

  test('bad arguments are refused with a message naming them', async () => {
    const store = target.store();
    const messages: string[] = [];
    for (const run of [
      () => store.record({ action: 'Login!', key: 'k', success: false }),
      () => store.record({ action: 'x'.repeat(33), key: 'k', success: false }),
      () => store.failures('login', 'k', 0),
      () => store.hits('login', 'k', Number.NaN),
      () => store.record({ action: 'login', key: 'k', success: false, at: Number.POSITIVE_INFINITY }),
    ]) {
      try {
        await run();
        assert.unreachable('accepted');
      } catch (err) {
        messages.push((err as Error).message);
      }
    }
    assert.match(messages[0]!, /Action de limitation invalide : « Login! »/);
    assert.match(messages[1]!, /Action de limitation invalide/);
    assert.match(messages[2]!, /windowSeconds doit être un nombre de secondes positif \(valeur : 0\)/);
    assert.match(messages[3]!, /windowSeconds/);
    assert.match(messages[4]!, /Date de tentative invalide : Infinity/);
  });

  if (target.another) {
    test('two store instances on the same database see the same counts (limits shared between processes)', async () => {
      const first = target.store();
      const second = target.another!();
      await fail(first, 'ip:shared', [T, T + S]);
      await fail(second, 'ip:shared', [T + 2 * S, T + 3 * S, T + 4 * S]);
      assert.equal(await first.failures('login', 'ip:shared', 60, T + 5 * S), { count: 5, oldestAt: T });
      assert.equal(await second.failures('login', 'ip:shared', 60, T + 5 * S), { count: 5, oldestAt: T });
      assert.equal(await checkLimit({ action: 'login', key: 'ip:shared', max: 5, windowSeconds: 60, now: T + 5 * S, store: second }), {
        limited: true,
        retryAfter: 55,
      });
      await second.clearFailures('login', 'ip:shared');
      assert.is((await first.failures('login', 'ip:shared', 60, T + 5 * S)).count, 0);
    });
  }

  if (target.database) {
    test('a missing table: an error that names it, the database and the commands that create it', async () => {
      const db = target.database!();
      await db.execute('ALTER TABLE auth_rate_limit_attempts RENAME TO auth_rate_limit_attempts_away');
      try {
        for (const run of [() => target.store().record({ action: 'login', key: 'k', success: false }), () => target.store().failures('login', 'k', 60)]) {
          try {
            await run();
            assert.unreachable('no error');
          } catch (err) {
            const message = (err as Error).message;
            assert.ok(message.startsWith(`La table auth_rate_limit_attempts n'existe pas (${db.describe()})`), message);
            assert.match(message, '« fw auth:init » puis « fw db:apply », ou choisissez RATE_LIMIT_STORE=memory');
          }
        }
      } finally {
        await db.execute('ALTER TABLE auth_rate_limit_attempts_away RENAME TO auth_rate_limit_attempts');
      }
    });

    test('rows: UTC text with milliseconds, the address and user; old rows cleaned up by record now and then', async () => {
      const db = target.database!();
      const store = new DatabaseRateLimitStore({ database: db, retentionSeconds: 3600, purgeEverySeconds: 600 });
      await store.record({ action: 'login', key: 'ip:x', ip: '2001:db8::1', userId: 42, success: true, at: T - 7200 * S + 45 });
      const row = await db.fetchOne<Record<string, unknown>>('SELECT action, rate_key, ip_address, user_id, success, created_at FROM auth_rate_limit_attempts');
      assert.equal(
        { ...row, success: Number(row!.success), user_id: Number(row!.user_id) },
        {
          action: 'login',
          rate_key: 'ip:x',
          ip_address: '2001:db8::1',
          user_id: 42,
          success: 1,
          created_at: '2026-01-15 10:00:00.045',
        },
      );
      // Ten minutes later by the attempts' clock, the next record deletes what is older than the retention.
      await store.record({ action: 'login', key: 'ip:x', success: false, at: T });
      const rows = await db.fetchAll<{ created_at: string }>('SELECT created_at FROM auth_rate_limit_attempts');
      assert.equal(
        rows.map((r) => r.created_at),
        ['2026-01-15 12:00:00.000'],
      );
    });
  }
  if (target.name === 'memory') {
    test('bounded: at most maxKeys keys (least recently written dropped) and maxEntriesPerKey attempts per key', async () => {
      const store = new MemoryRateLimitStore({ maxKeys: 3, maxEntriesPerKey: 4 });
      for (const key of ['a', 'b', 'c']) await fail(store, key, [T]);
      await fail(store, 'a', [T + 1]);
      await fail(store, 'd', [T + 2]);
      assert.is(store.size, 3);
      assert.is((await store.failures('login', 'b', 60, T + S)).count, 0, 'b, the least recently written, was dropped');
      assert.is((await store.failures('login', 'a', 60, T + S)).count, 2);
      await fail(
        store,
        'e',
        Array.from({ length: 10 }, (_, i) => T + i),
      );
      assert.equal(await store.failures('login', 'e', 60, T + S), { count: 4, oldestAt: T + 6 });
      // Old attempts are dropped as new ones come (retention), so a quiet key does not grow.
      const short = new MemoryRateLimitStore({ retentionSeconds: 60 });
      await fail(short, 'k', [T, T + 30 * S, T + 120 * S]);
      assert.is((await short.hits('login', 'k', 3600, T + 120 * S)).count, 1);
    });
  }

  test.run();
}

const config = suite('rate limits: the store chosen by configuration');
const savedEnv = process.env.RATE_LIMIT_STORE;
config.after.each(() => {
  if (savedEnv === undefined) delete process.env.RATE_LIMIT_STORE;
  else process.env.RATE_LIMIT_STORE = savedEnv;
  resetConfig();
  setRateLimitStore(null);
});

config('memory by default; RATE_LIMIT_STORE, then rate_limit_store, choose; getRateLimitStore follows configure()', () => {
  delete process.env.RATE_LIMIT_STORE;
  resetConfig();
  setRateLimitStore(null);
  assert.instance(rateLimitStoreFromConfig(), MemoryRateLimitStore);
  const first = getRateLimitStore();
  assert.instance(first, MemoryRateLimitStore);
  assert.is(getRateLimitStore(), first, 'made once');
  process.env.RATE_LIMIT_STORE = ' Database ';
  assert.instance(rateLimitStoreFromConfig(), DatabaseRateLimitStore);
  configure({ rate_limit_store: 'memory' });
  assert.instance(rateLimitStoreFromConfig(), MemoryRateLimitStore, 'the key wins over the environment');
  configure({ rate_limit_store: 'database' });
  assert.instance(getRateLimitStore(), DatabaseRateLimitStore, 'a change of the key makes a new store');
  // A store set by hand stays through configuration changes, until setRateLimitStore(null).
  const mine = new MemoryRateLimitStore();
  setRateLimitStore(mine);
  configure({ rate_limit_store: 'memory' });
  assert.is(getRateLimitStore(), mine);
  setRateLimitStore(null);
  assert.is.not(getRateLimitStore(), mine);
});

config('a bad value: an error naming it, where it came from and the accepted values', () => {
  process.env.RATE_LIMIT_STORE = 'memcached';
  resetConfig();
  assert.throws(
    () => rateLimitStoreFromConfig(),
    /RATE_LIMIT_STORE : stockage des limites de tentatives inconnu « memcached »\. Valeurs acceptées : memory, database, redis/,
  );
  configure({ rate_limit_store: 'file' as 'memory' });
  assert.throws(() => getRateLimitStore(), /rate_limit_store : stockage des limites de tentatives inconnu « file »/);
});

config.run();
