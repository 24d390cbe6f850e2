// Time limits of the database layer (docs/runtime.md "Database time-outs"): a statement past
// db_query_timeout_ms, a pool with no free connection past db_pool_wait_ms and a SQLite file locked past
// db_busy_timeout_ms give DatabaseUnavailableError, and the handle is still usable after. Over a real server,
// a stalled MariaDB (a paused TCP proxy) and a dead one (nothing listening) answer 503 with Retry-After
// rather than hanging or answering 500, and requests succeed again once the server is back.
// Time-outs are asserted only as generous upper bounds (AbortSignal.timeout on each request).
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BaseController, DatabaseSessionStore, Response, fetchOne, fwSessionsDdl, getSessionStore, setSessionStore } from '../runtime/index.js';
import { DatabaseUnavailableError, openDatabase, type Database as Handle } from '../runtime/db/index.js';
import { MARIADB_ADMIN } from './helpers/cli.js';
import { startApp, type TestApp } from './helpers/server.js';
import { startTcpProxy, type TcpProxy } from './helpers/tcp-proxy.js';

const DB_NAME = `fw_t_timeouts_${randomBytes(4).toString('hex')}`;
/** Upper bound for any one request: far above the 1.5 s limits configured, far below a hang. */
const BOUND = { signal: () => AbortSignal.timeout(15_000) };

async function rejection(promise: Promise<unknown>): Promise<DatabaseUnavailableError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof DatabaseUnavailableError, `unexpected ${String((error as Error)?.stack ?? error)}`);
    return error;
  }
  assert.unreachable('should have been rejected');
  throw new Error('unreachable');
}

let admin: Handle;

const Unit = suite('db-timeouts: the database layer');

Unit.before(async () => {
  admin = openDatabase({ driver: 'mariadb', ...MARIADB_ADMIN, poolSize: 1 });
  await admin.execute(`CREATE DATABASE ${DB_NAME}`);
  await admin.execute(`CREATE TABLE ${DB_NAME}.items (id INT PRIMARY KEY, label VARCHAR(20))`);
  await admin.execute(`INSERT INTO ${DB_NAME}.items VALUES (1, 'one'), (2, 'two')`);
  // The database session store's table, in the base the application (the default handle) uses.
  const base = openDatabase({ driver: 'mariadb', ...MARIADB_ADMIN, database: DB_NAME, poolSize: 1 });
  try {
    for (const statement of fwSessionsDdl('mariadb')) await base.execute(statement);
  } finally {
    await base.close();
  }
});

Unit('a statement past the query time-out gives DatabaseUnavailableError, and the pool of one serves the next', async () => {
  const db = openDatabase({ driver: 'mariadb', ...MARIADB_ADMIN, database: DB_NAME, poolSize: 1, queryTimeoutMs: 1000 });
  try {
    const error = await rejection(db.fetchOne('SELECT SLEEP(5) AS slept'));
    assert.is(error.reason, 'query-timeout');
    assert.match(error.message, /127\.0\.0\.1:3306 n'a pas répondu à la requête en 1 s\./);
    assert.match(error.advice, /db_query_timeout_ms/);
    // One connection in the pool: were it given back still busy with SLEEP, this would time out too.
    assert.equal(await db.fetchOne('SELECT COUNT(*) AS n FROM items'), { n: 2 });
    assert.equal(await db.transaction((tx) => tx.fetchOne('SELECT label FROM items WHERE id = ?', [2])), { label: 'two' });
  } finally {
    await db.close();
  }
});

Unit('no free connection within the pool wait gives DatabaseUnavailableError; the pool serves again once it is free', async () => {
  const db = openDatabase({ driver: 'mariadb', ...MARIADB_ADMIN, database: DB_NAME, poolSize: 1, poolWaitMs: 500 });
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let entered!: () => void;
  const inside = new Promise<void>((resolve) => (entered = resolve));
  const held = db.withConnection(async (connection) => {
    await connection.fetchOne('SELECT 1');
    entered();
    await gate;
  });
  try {
    await inside;
    const error = await rejection(db.fetchOne('SELECT 1'));
    assert.is(error.reason, 'pool-timeout');
    assert.match(error.advice, /db_pool_wait_ms/);
  } finally {
    release();
    await held;
  }
  try {
    assert.equal(await db.fetchOne('SELECT label FROM items WHERE id = 1'), { label: 'one' });
  } finally {
    await db.close();
  }
});

Unit('a SQLite file locked by another connection past the busy time-out gives DatabaseUnavailableError', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-locked-'));
  const file = path.join(dir, 'db.sqlite');
  const other = new Database(file);
  other.exec('CREATE TABLE t (id INTEGER PRIMARY KEY)');
  const db = openDatabase({ driver: 'sqlite', file, busyTimeoutMs: 200 });
  try {
    other.exec('BEGIN EXCLUSIVE');
    const error = await rejection(db.execute('INSERT INTO t (id) VALUES (1)'));
    assert.is(error.reason, 'locked');
    assert.match(error.advice, /db_busy_timeout_ms/);
    other.exec('COMMIT');
    assert.is(await db.execute('INSERT INTO t (id) VALUES (1)'), 1);
  } finally {
    await db.close();
    other.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

Unit('a new SQLite file whose creator holds the write lock: the switch to WAL waits for it instead of failing at once', async () => {
  // Two processes creating the same new file (two `fw migration:apply`, two servers starting): the switch from
  // rollback mode to WAL reads then writes page 1, and SQLite answers SQLITE_BUSY to that at once, busy timeout or not.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-new-wal-'));
  const file = path.join(dir, 'db.sqlite');
  // Kysely and the driver loaded beforehand: the handle below opens its file at once, while the lock is held.
  const warm = openDatabase({ driver: 'sqlite', file: ':memory:' });
  await warm.fetchOne('SELECT 1').finally(() => warm.close());
  const creator = new Database(file);
  const db = openDatabase({ driver: 'sqlite', file, busyTimeoutMs: 30_000 });
  try {
    assert.is(creator.pragma('journal_mode', { simple: true }), 'delete');
    creator.exec('BEGIN IMMEDIATE');
    creator.exec('CREATE TABLE t (id INTEGER PRIMARY KEY)');
    const count = db.fetchOne<{ n: number }>('SELECT COUNT(*) AS n FROM t').then(
      (row) => row,
      (error: unknown) => error,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    creator.exec('COMMIT');
    assert.equal(await count, { n: 0 });
    assert.equal(await db.fetchOne('PRAGMA journal_mode'), { journal_mode: 'wal' });
  } finally {
    await db.close();
    creator.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

Unit.run();

const Http = suite('db-timeouts: 503 over a real server');

let proxy: TcpProxy;
let app: TestApp;

Http.before(async () => {
  proxy = await startTcpProxy({ host: MARIADB_ADMIN.host, port: MARIADB_ADMIN.port });
  app = await startApp({
    config: {
      db_driver: 'mariadb',
      db_host: '127.0.0.1',
      db_port: proxy.port,
      db_name: DB_NAME,
      db_user: MARIADB_ADMIN.user,
      db_password: MARIADB_ADMIN.password,
      db_pool_size: 2,
      db_connect_timeout_ms: 1500,
      db_pool_wait_ms: 1500,
      db_query_timeout_ms: 1500,
      db_retry_after: 7,
    },
    routes: (router) => {
      const count = async (): Promise<number> => Number((await fetchOne<{ n: number }>('SELECT COUNT(*) AS n FROM items'))?.n);
      router.add('GET', '/count', async () => BaseController.json({ n: await count() }), { public: true });
      router.add('GET', '/page', async () => new Response(200, `<p>${await count()}</p>`), { public: true });
      router.add('GET', '/api/count', async () => BaseController.json({ n: await count() }), { public: true, api: true });
    },
  });
});

/** The store before the test that puts one on the database: given back, so that later files do not query a dropped table. */
let previousStore: ReturnType<typeof getSessionStore> | undefined;

Http.after(async () => {
  if (previousStore) setSessionStore(previousStore);
  await app?.close();
  await proxy?.close();
  await admin.execute(`DROP DATABASE IF EXISTS ${DB_NAME}`);
  await admin.close();
});

function assert503(result: Awaited<ReturnType<TestApp['fetch']>>, label: string): void {
  assert.is(result.status, 503, `${label}: ${result.text.slice(0, 200)}`);
  assert.is(result.headers.get('retry-after'), '7', label);
}

Http('a stalled database answers 503 with Retry-After (page and JSON), never a hang; requests succeed once it is back', async () => {
  assert.is((await app.fetch('/page', { signal: BOUND.signal() })).status, 200);
  proxy.pause();
  try {
    // More requests than connections: the pooled ones time out on their statement, the others on the pool wait.
    const results = await Promise.all([
      app.fetch('/page', { signal: BOUND.signal() }),
      app.fetch('/page', { signal: BOUND.signal() }),
      app.fetch('/page', { signal: BOUND.signal() }),
      app.fetch('/api/count', { signal: BOUND.signal() }),
    ]);
    for (const [i, result] of results.slice(0, 3).entries()) {
      assert503(result, `page ${i}`);
      assert.match(result.headers.get('content-type') ?? '', /text\/html/);
      assert.ok(result.text.includes('Service momentanément indisponible'), result.text.slice(0, 300));
      assert.ok(result.text.includes('Nouvel essai possible dans 7 s.'));
    }
    assert503(results[3]!, 'api');
    assert.equal(results[3]!.json(), {
      success: false,
      error: { code: 'database_unavailable', message: 'Base de données momentanément indisponible : réessayez dans 7 s.' },
    });
    // A new connection gets no handshake either: the connect time-out, then 503 again.
    assert503(await app.fetch('/count', { signal: BOUND.signal(), headers: { accept: 'application/json' } }), 'json client');
  } finally {
    proxy.resume();
  }
  const log = app.logs.text();
  assert.match(log, /Base de données indisponible sur GET \/page \((query-timeout|pool-timeout|unreachable)\)/);
  assert.not.match(log, /\n\s+at /, 'no stack in the log');
  assert.equal((await app.fetch('/count', { signal: BOUND.signal() })).json(), { n: 2 });
  assert.equal((await app.fetch('/api/count', { signal: BOUND.signal() })).json(), { n: 2 });
});

Http('a session store on the stalled database answers 503 too (the session is loaded before the handler)', async () => {
  previousStore = getSessionStore();
  setSessionStore(new DatabaseSessionStore());
  const cookie = `session_id=${await new DatabaseSessionStore().create({ seen: 1 })}`;
  assert.is((await app.fetch('/page', { signal: BOUND.signal(), headers: { cookie } })).status, 200);
  proxy.pause();
  try {
    assert503(await app.fetch('/page', { signal: BOUND.signal(), headers: { cookie } }), 'page with a session');
  } finally {
    proxy.resume();
  }
  assert.is((await app.fetch('/page', { signal: BOUND.signal(), headers: { cookie } })).status, 200);
});

Http('a dead database (nothing listening) answers 503, not 500; requests succeed once it listens again', async () => {
  assert.is((await app.fetch('/page', { signal: BOUND.signal() })).status, 200);
  await proxy.close();
  try {
    assert503(await app.fetch('/page', { signal: BOUND.signal() }), 'page');
    assert503(await app.fetch('/page', { signal: BOUND.signal() }), 'page again');
    assert503(await app.fetch('/api/count', { signal: BOUND.signal() }), 'api');
    // Every request of an outage fails the same way: the cause is logged once in the interval, not per request.
    for (let batch = 0; batch < 5; batch++) {
      for (const result of await Promise.all(Array.from({ length: 20 }, () => app.fetch('/page', { signal: BOUND.signal() })))) assert503(result, 'flood');
    }
  } finally {
    await proxy.reopen();
  }
  assert.match(app.logs.text(), /\(unreachable\) : Impossible de joindre le serveur MariaDB 127\.0\.0\.1:\d+ \(/);
  const lines = app.logs.records.filter((record) => record.message.includes('(unreachable) : Impossible de joindre le serveur MariaDB'));
  assert.ok(lines.length <= 2, `${lines.length} lignes pour 103 requêtes`);
  assert.equal((await app.fetch('/count', { signal: BOUND.signal() })).json(), { n: 2 });
});

Http.run();
