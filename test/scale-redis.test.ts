/**
 * Redis down (runtime/redis/client.ts): with the Redis session store, a request whose session cannot be read gets
 * 503 with `Retry-After` and the security headers, as with an unavailable database, never a hang; once Redis is
 * back, the same session is served without a restart. Redis is reached through a TCP proxy that the test cuts
 * (nothing listens), stalls (connections accepted, nothing answered) and restores. The Redis limit store fails
 * the same way (a RedisUnavailableError, a DatabaseUnavailableError for the application). During an outage, the
 * log has one line per cause, however many requests fail.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  DatabaseUnavailableError,
  RedisConnection,
  RedisSessionStore,
  RedisUnavailableError,
  Response,
  getSessionStore,
  setSessionStore,
} from '../runtime/index.js';
import { RedisRateLimitStore, reserveAttempt } from '../runtime/rate-limit/index.js';
import { assertSecurityHeaders } from './helpers/client.js';
import { startApp, type TestApp } from './helpers/server.js';
import { dropRedisPrefix, rawRedis, redisTestPrefix } from './helpers/session-backends.js';
import { startTcpProxy, type TcpProxy } from './helpers/tcp-proxy.js';

const BOUND = { signal: () => AbortSignal.timeout(15_000) };
const prefix = redisTestPrefix();

const R = suite('scale: Redis down answers 503, recovers without restart');
let proxy: TcpProxy;
let app: TestApp;
let connection: RedisConnection;
let store: RedisSessionStore;
let cookie = '';

R.before(async () => {
  proxy = await startTcpProxy({ host: '127.0.0.1', port: 6379 });
  connection = new RedisConnection(`redis://127.0.0.1:${proxy.port}`);
  store = new RedisSessionStore({ connection, prefix });
  app = await startApp({
    config: { db_retry_after: 4, redis_timeout_ms: 700 },
    sessionStore: store,
    routes: (router) => {
      router.add('GET', '/page', () => new Response(200, '<p>page</p>'), { public: true });
    },
  });
  cookie = `session_id=${await store.create({ seen: 1 })}`;
});

R.after(async () => {
  await app?.close();
  await connection?.close();
  await proxy?.close();
  const client = await rawRedis();
  await dropRedisPrefix(client, prefix).finally(() => client.close());
});

async function assert503(label: string): Promise<void> {
  const started = Date.now();
  const result = await app.fetch('/page', { signal: BOUND.signal(), headers: { cookie } });
  assert.is(result.status, 503, `${label}: ${result.text.slice(0, 200)}`);
  assert.is(result.headers.get('retry-after'), '4', label);
  // Redis is away, not the database: the page says a service does not answer.
  assert.ok(result.text.includes('Un service dont l’application a besoin ne répond pas'), `${label}: ${result.text.slice(0, 400)}`);
  assert.not.ok(result.text.includes('La base de données ne répond pas'), label);
  assertSecurityHeaders(result.headers, label);
  assert.ok(Date.now() - started < 5000, `${label}: answered in ${Date.now() - started} ms`);
}

R('Redis cut (nothing listens): 503 with Retry-After and the headers; back: the same session, no restart', async () => {
  assert.is((await app.fetch('/page', { signal: BOUND.signal(), headers: { cookie } })).status, 200);
  await proxy.close();
  try {
    await assert503('cut');
    await assert503('cut, again');
  } finally {
    await proxy.reopen();
  }
  // The client reconnects on its own (at most 2 s between tries).
  const until = Date.now() + 10_000;
  let status = 0;
  while (Date.now() < until && status !== 200) {
    status = (await app.fetch('/page', { signal: BOUND.signal(), headers: { cookie } })).status;
    if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.is(status, 200, 'served again once Redis is back');
  assert.equal(await store.get(cookie.slice('session_id='.length)), { seen: 1 }, 'the session survived');
  assert.match(app.logs.text(), /Redis indisponible sur GET \/page \(unreachable\) : Redis injoignable sur 127\.0\.0\.1:\d+/);
  assert.not.match(app.logs.text(), 'Base de données', 'Redis is named Redis');
});

R('Redis stalled (connections accepted, nothing answered): 503 within the time-out, then served again', async () => {
  assert.is((await app.fetch('/page', { signal: BOUND.signal(), headers: { cookie } })).status, 200);
  proxy.pause();
  try {
    await assert503('stalled');
    await assert503('stalled, new connection');
  } finally {
    proxy.resume();
  }
  assert.is((await app.fetch('/page', { signal: BOUND.signal(), headers: { cookie } })).status, 200);
});

R('the Redis limit store: an unreachable Redis is a RedisUnavailableError (a DatabaseUnavailableError: 503)', async () => {
  const limits = new RedisRateLimitStore({ connection, prefix });
  await proxy.close();
  try {
    await reserveAttempt({ action: 'login', keys: ['ip:192.0.2.1'], max: 5, windowSeconds: 60, store: limits });
    assert.unreachable('reserved without Redis');
  } catch (error) {
    assert.instance(error, RedisUnavailableError);
    assert.instance(error, DatabaseUnavailableError);
  } finally {
    await proxy.reopen();
  }
  assert.is(getSessionStore(), store);
  setSessionStore(null);
});

R.run();

const Flood = suite('scale: Redis down under many requests, one log line per cause');

Flood('300 requests while Redis is cut: each cause of failure is logged once, named Redis; 300 answers 503', async () => {
  const cutProxy = await startTcpProxy({ host: '127.0.0.1', port: 6379 });
  const cutConnection = new RedisConnection(`redis://127.0.0.1:${cutProxy.port}`);
  const cutStore = new RedisSessionStore({ connection: cutConnection, prefix });
  const flooded = await startApp({
    config: { db_retry_after: 4, redis_timeout_ms: 700 },
    sessionStore: cutStore,
    routes: (router) => {
      router.add('GET', '/page', () => new Response(200, '<p>page</p>'), { public: true });
    },
  });
  try {
    const session = `session_id=${await cutStore.create({ seen: 1 })}`;
    assert.is((await flooded.fetch('/page', { signal: BOUND.signal(), headers: { cookie: session } })).status, 200);
    await cutProxy.close();
    const statuses: number[] = [];
    for (let batch = 0; batch < 15; batch++) {
      const answers = await Promise.all(Array.from({ length: 20 }, () => flooded.fetch('/page', { signal: BOUND.signal(), headers: { cookie: session } })));
      statuses.push(...answers.map((answer) => answer.status));
    }
    assert.equal(new Set(statuses), new Set([503]));
    const lines = flooded.logs.records
      .filter((record) => record.level === 'ERROR' || record.level === 'WARNING')
      .map((record) => `${record.logger} ${record.message}`);
    const unavailable = lines.filter((line) => line.includes('indisponible sur GET /page'));
    assert.ok(unavailable.length >= 1, lines.join('\n'));
    for (const line of unavailable)
      assert.match(line, /^fw\.redis Redis indisponible sur GET \/page \(unreachable\) : Redis injoignable sur 127\.0\.0\.1:\d+ /);
    // A cause is what failed and why, whatever the request: each at most once in an interval.
    const causes = lines.map((line) => line.replace(/ sur GET \/page /, ' '));
    assert.is(new Set(causes).size, causes.length, lines.join('\n'));
    assert.ok(lines.length <= 5, `${lines.length} lignes pour 300 requêtes :\n${lines.join('\n')}`);
  } finally {
    await flooded.close();
    await cutConnection.close();
    await cutProxy.close();
  }
});

Flood.run();
