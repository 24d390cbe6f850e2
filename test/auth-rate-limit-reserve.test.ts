/**
 * Attempts counted before their check (docs/auth.md "Login limits"): `reserveAttempt` / `settleAttempt` on the
 * memory store, the database store on each dialect (SQLite, MariaDB), and the Redis store. A burst of concurrent reservations lets exactly
 * `max` through, counting failures or every attempt (hits); refused reservations are withdrawn; a success stops
 * counting and clears the keys asked for.
 * Then the client address as counted: IPv4-mapped IPv6 as IPv4, IPv6 by its /64.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { AUTH_TABLES, authTableSql } from '../runtime/auth/schema.js';
import { loginAttemptKeys } from '../runtime/auth/login-limit.js';
import {
  cancelAttempt,
  clientAddressKey,
  DatabaseRateLimitStore,
  MemoryRateLimitStore,
  RedisRateLimitStore,
  reserveAttempt,
  settleAttempt,
  type RateLimitStore,
} from '../runtime/rate-limit/index.js';
import { RedisConnection } from '../runtime/redis/client.js';
import { DIALECTS, freshDatabase, productOf } from './helpers/dialects.js';
import { dropRedisPrefix, rawRedis, redisTestPrefix } from './helpers/session-backends.js';

const S = 1000;
const T = Date.UTC(2026, 0, 15, 12, 0, 0);
const TABLE = AUTH_TABLES.find((table) => table.name === 'auth_rate_limit_attempts')!;

interface Target {
  name: string;
  open(): Promise<{ store: () => RateLimitStore; close: () => Promise<void> }>;
}

const targets: Target[] = [
  {
    name: 'memory',
    async open() {
      return { store: () => new MemoryRateLimitStore(), close: async () => {} };
    },
  },
  ...DIALECTS.map((dialect): Target => ({
    name: `database (${productOf(dialect)})`,
    async open() {
      const fresh = await freshDatabase(dialect, { prefix: 'fw_reserve' });
      for (const statement of authTableSql(TABLE, dialect).split(/;\s*(?:\n|$)/)) if (statement.trim()) await fresh.database.execute(statement);
      return { store: () => new DatabaseRateLimitStore({ database: fresh.database }), close: () => fresh.close() };
    },
  })),
  {
    name: 'redis',
    async open() {
      const root = redisTestPrefix();
      const connection = new RedisConnection(process.env.REDIS_URL || 'redis://127.0.0.1:6379');
      let count = 0;
      return {
        // A fresh prefix for each test: an empty store.
        store: () => new RedisRateLimitStore({ connection, prefix: `${root}${++count}:` }),
        close: async () => {
          const client = await rawRedis();
          await dropRedisPrefix(client, root).finally(() => client.close());
          await connection.close();
        },
      };
    },
  },
];

for (const target of targets) {
  const test = suite<{ store: RateLimitStore; close: () => Promise<void>; make: () => RateLimitStore }>(`reserved attempts: ${target.name}`);

  test.before(async (context) => {
    const opened = await target.open();
    context.make = opened.store;
    context.close = opened.close;
  });
  test.before.each((context) => {
    context.store = context.make();
  });
  test.after(async ({ close, store }) => {
    if (store instanceof DatabaseRateLimitStore) await store.database.execute('DELETE FROM auth_rate_limit_attempts');
    await close();
  });

  test('30 concurrent reservations on one key: exactly 5 pass, the 25 refused are withdrawn', async ({ store }) => {
    if (store instanceof DatabaseRateLimitStore) await store.database.execute('DELETE FROM auth_rate_limit_attempts');
    const results = await Promise.all(
      Array.from({ length: 30 }, () => reserveAttempt({ action: 'login', keys: ['user:7'], max: 5, windowSeconds: 60, now: T, store })),
    );
    assert.is(results.filter((result) => !result.limited).length, 5);
    for (const result of results) {
      if (result.limited) {
        assert.is(result.ticket, null);
        assert.is(result.retryAfter, 60);
      } else {
        assert.ok(result.ticket);
      }
    }
    assert.equal(await store.failures('login', 'user:7', 60, T), { count: 5, oldestAt: T }, 'only the five checked attempts count');
    assert.is((await store.hits('login', 'user:7', 60, T)).count, 5);
  });

  test('counting hits: 30 concurrent reservations, exactly 10 pass and stay counted as hits, never as failures', async ({ store }) => {
    if (store instanceof DatabaseRateLimitStore) await store.database.execute('DELETE FROM auth_rate_limit_attempts');
    await store.record({ action: 'upload', key: 'ip:192.0.2.8', success: false, at: T - S });
    const results = await Promise.all(
      Array.from({ length: 30 }, () => reserveAttempt({ action: 'upload', keys: ['ip:192.0.2.8'], max: 10, windowSeconds: 60, count: 'hits', now: T, store })),
    );
    assert.is(results.filter((result) => !result.limited).length, 9, 'the failure recorded before counts as a hit too');
    // 59 s until the oldest hit leaves; up to 60 while refused reservations of the same burst are not withdrawn yet.
    for (const result of results) if (result.limited) assert.ok(result.retryAfter === 59 || result.retryAfter === 60, String(result.retryAfter));
    assert.equal(await store.hits('upload', 'ip:192.0.2.8', 60, T), { count: 10, oldestAt: T - S });
    assert.equal(await store.failures('upload', 'ip:192.0.2.8', 60, T), { count: 1, oldestAt: T - S });
  });

  test('a success stops counting and clears the keys asked for; a failure stays; cancel forgets', async ({ store }) => {
    if (store instanceof DatabaseRateLimitStore) await store.database.execute('DELETE FROM auth_rate_limit_attempts');
    const keys = ['ip:192.0.2.1', 'user:7'];
    for (let i = 0; i < 3; i++) {
      const { ticket } = await reserveAttempt({ action: 'login', keys, ip: '192.0.2.1', userId: 7, max: 5, windowSeconds: 60, now: T + i * S, store });
      await settleAttempt(ticket!, false);
    }
    const cancelled = await reserveAttempt({ action: 'login', keys, max: 5, windowSeconds: 60, now: T + 3 * S, store });
    await cancelAttempt(cancelled.ticket!);
    assert.is((await store.failures('login', 'user:7', 60, T + 4 * S)).count, 3, 'the cancelled one is gone');
    const won = await reserveAttempt({ action: 'login', keys, max: 5, windowSeconds: 60, now: T + 4 * S, store });
    await settleAttempt(won.ticket!, true, ['user:7']);
    assert.is((await store.failures('login', 'user:7', 60, T + 5 * S)).count, 0, 'the account starts again');
    assert.equal(await store.failures('login', 'ip:192.0.2.1', 60, T + 5 * S), { count: 3, oldestAt: T }, 'the address keeps its failures');
    assert.is((await store.hits('login', 'ip:192.0.2.1', 60, T + 5 * S)).count, 4, 'the success is a hit, not a failure');
  });

  test('limited on one key withdraws the reservation on every key; Retry-After follows the oldest failure', async ({ store }) => {
    if (store instanceof DatabaseRateLimitStore) await store.database.execute('DELETE FROM auth_rate_limit_attempts');
    for (let i = 0; i < 5; i++) await reserveAttempt({ action: 'mfa', keys: ['user:9'], max: 5, windowSeconds: 300, now: T + i * 10 * S, store });
    const refused = await reserveAttempt({ action: 'mfa', keys: ['ip:198.51.100.1', 'user:9'], max: 5, windowSeconds: 300, now: T + 60 * S, store });
    assert.equal([refused.limited, refused.retryAfter, refused.ticket], [true, 240, null]);
    assert.is((await store.hits('mfa', 'ip:198.51.100.1', 300, T + 60 * S)).count, 0);
    assert.is((await store.failures('mfa', 'user:9', 300, T + 60 * S)).count, 5);
    const later = await reserveAttempt({ action: 'mfa', keys: ['user:9'], max: 5, windowSeconds: 300, now: T + 300 * S, store });
    assert.is(later.limited, false, 'the oldest failure left the window');
  });

  test.run();
}

const addresses = suite('client address as counted');

addresses('IPv4 as is, IPv4-mapped IPv6 as IPv4, IPv6 by its /64, anything else as given', () => {
  assert.is(clientAddressKey('198.51.100.7'), '198.51.100.7');
  assert.is(clientAddressKey('::ffff:198.51.100.7'), '198.51.100.7');
  assert.is(clientAddressKey('::FFFF:198.51.100.7'), '198.51.100.7');
  assert.is(clientAddressKey('2001:db8:1:2::a'), '2001:db8:1:2::/64');
  assert.is(clientAddressKey('2001:0DB8:0001:0002:ffff:ffff:ffff:ffff'), '2001:db8:1:2::/64');
  assert.is(clientAddressKey('2001:db8::1'), '2001:db8:0:0::/64');
  assert.is(clientAddressKey('2001:db8:1:3::a'), '2001:db8:1:3::/64');
  assert.is(clientAddressKey('fe80::1%eth0'), 'fe80:0:0:0::/64');
  assert.is(clientAddressKey('::1'), '0:0:0:0::/64');
  assert.is(clientAddressKey('64:ff9b::192.0.2.33'), '64:ff9b:0:0::/64');
  assert.is(clientAddressKey('unknown'), 'unknown');
  assert.is(clientAddressKey(''), '');
});

addresses('every spelling of an IPv4-mapped IPv6 address counts as its IPv4 address', () => {
  const spellings = [
    '::ffff:192.0.2.88',
    '::FFFF:192.0.2.88',
    '::ffff:c000:258',
    '::FFFF:C000:0258',
    '0:0:0:0:0:ffff:c000:258',
    '0000:0000:0000:0000:0000:ffff:c000:0258',
    '0:0:0:0:0:ffff:192.0.2.88',
    '::0:ffff:c000:258',
    '0::ffff:192.0.2.88',
    '::ffff:c000:258%eth0',
    ' ::ffff:c000:258 ',
  ];
  for (const spelling of spellings) assert.is(clientAddressKey(spelling), '192.0.2.88', spelling);
  assert.is(clientAddressKey('::ffff:0:0'), '0.0.0.0');
  assert.is(clientAddressKey('::ffff:ffff:ffff'), '255.255.255.255');
  // Not mapped: IPv4-compatible, IPv4-translated and NAT64 addresses stay IPv6 (each /64 its own).
  assert.is(clientAddressKey('::c000:258'), '0:0:0:0::/64');
  assert.is(clientAddressKey('::ffff:0:c000:258'), '0:0:0:0::/64');
  assert.is(clientAddressKey('1::ffff:c000:258'), '1:0:0:0::/64');
  assert.is(clientAddressKey('::fffe:c000:258'), '0:0:0:0::/64');
  // Not addresses: given back as typed.
  assert.is(clientAddressKey('1:2::ffff:c000:258:3:4:5'), '1:2::ffff:c000:258:3:4:5');
  assert.is(clientAddressKey('::ffff:300.0.0.1'), '::ffff:300.0.0.1');
});

addresses('login keys: the address, then the account when the login found one, else the typed login', () => {
  assert.equal(loginAttemptKeys('2001:db8:1:2::5', ' Alice@Example.TEST', 12), ['ip:2001:db8:1:2::/64', 'user:12']);
  assert.equal(loginAttemptKeys('::ffff:192.0.2.1', 'Nobody@Example.TEST ', null), ['ip:192.0.2.1', 'login:nobody@example.test']);
  assert.equal(loginAttemptKeys('192.0.2.1', '   ', null), ['ip:192.0.2.1']);
});

addresses.run();
