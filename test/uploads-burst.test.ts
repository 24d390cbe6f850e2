/**
 * A burst of parallel uploads from one address against the upload limit (docs/uploads.md "Rate limit"): 30
 * multipart requests at once on a real server, with the memory store and the database store on SQLite and on
 * MariaDB, and with a memory store that answers on a later turn of the event loop. Each request is counted
 * before it is checked, so 10 are stored (201) and 20 refused (429 with Retry-After), with no file written and no
 * attempt left counted for a refused one.
 */
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  DatabaseRateLimitStore,
  MemoryRateLimitStore,
  UPLOAD_ACTION,
  UPLOAD_MAX_PER_WINDOW,
  UPLOAD_RATE_LIMIT_WINDOW,
  setRateLimitStore,
  type RateLimitStore,
} from '../runtime/index.js';
import type { CallResult } from './helpers/client.js';
import { startApp, type TestApp } from './helpers/server.js';
import { listFiles, multipart, openMediaDatabase, uploadRoutes } from './helpers/uploads.js';
import { DIALECTS } from './helpers/dialects.js';

const BURST = 30;
const PDF = Buffer.from('%PDF-1.4\n% burst\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');

/**
 * The store, each of its calls answered after a turn of the event loop before and after it: requests then
 * interleave between any two calls, as they do over a database connection, so a check-then-record gap shows.
 */
function answeringLater(store: RateLimitStore): RateLimitStore {
  const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
  return new Proxy(store, {
    get(target, name) {
      const value: unknown = Reflect.get(target, name, target);
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        await turn();
        const result: unknown = await value.apply(target, args);
        await turn();
        return result;
      };
    },
  });
}

let app: TestApp;
let root: string;

/** Sends BURST uploads at once, the i-th from `from(i)` (X-Forwarded-For) or from 127.0.0.1; the answers in the order sent. */
function burst(from?: (i: number) => string): Promise<CallResult[]> {
  return Promise.all(
    Array.from({ length: BURST }, (_, i) => {
      const { body, contentType } = multipart([{ name: 'file', filename: `rafale-${i}.pdf`, type: 'application/pdf', data: PDF }]);
      const forwarded: Record<string, string> = from ? { 'x-forwarded-for': from(i) } : {};
      return app.fetch('/api/upload', { method: 'POST', headers: { 'content-type': contentType, accept: 'application/json', ...forwarded }, body });
    }),
  );
}

/** The burst on `store`: 10 × 201 with their files, 20 × 429 with Retry-After and no file; 10 uploads counted. */
async function burstScenario(store: RateLimitStore): Promise<void> {
  setRateLimitStore(store);
  const before = listFiles(root);
  const responses = await burst();
  const accepted = responses.filter((response) => response.status === 201);
  const refused = responses.filter((response) => response.status === 429);
  assert.equal(
    [accepted.length, refused.length],
    [UPLOAD_MAX_PER_WINDOW, BURST - UPLOAD_MAX_PER_WINDOW],
    `statuses: ${responses.map((response) => response.status).join(' ')}`,
  );
  for (const response of refused) {
    const retryAfter = Number(response.headers.get('retry-after'));
    assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= UPLOAD_RATE_LIMIT_WINDOW, `Retry-After ${retryAfter}`);
    assert.is(response.json().error.code, 'rate_limited');
  }
  const stored = accepted.map((response) => response.json().data.path as string);
  assert.equal(listFiles(root), [...before, ...stored].sort(), 'a file for each 201, none for a 429');
  const counted = await store.hits(UPLOAD_ACTION, 'ip:127.0.0.1', UPLOAD_RATE_LIMIT_WINDOW);
  assert.is(counted.count, UPLOAD_MAX_PER_WINDOW, 'the refused requests are not counted');
}

const test = suite('upload burst: 30 parallel uploads from one address');
test.before(async () => {
  // 127.0.0.1 is a trusted proxy: a request without X-Forwarded-For comes from 127.0.0.1, one with it from the
  // address it names (so the tests can send from several addresses over real HTTP).
  app = await startApp({ routes: uploadRoutes, env: { TRUSTED_PROXIES: '127.0.0.1' } });
  root = path.join(app.project.root, 'storage', 'uploads');
});
test.after(async () => {
  setRateLimitStore(null);
  await app?.close();
});

test('memory store: 10 × 201, 20 × 429, no file for a refused one', async () => {
  await burstScenario(new MemoryRateLimitStore());
});

test('memory store answering on a later turn of the event loop (as a store over the network would): the same', async () => {
  await burstScenario(answeringLater(new MemoryRateLimitStore()));
});

for (const dialect of DIALECTS) {
  test(`database store (${dialect}): 10 × 201, 20 × 429, 10 rows of auth_rate_limit_attempts`, async () => {
    const database = await openMediaDatabase(dialect);
    try {
      await burstScenario(new DatabaseRateLimitStore({ database: database.db }));
      const row = await database.db.fetchOne<{ n: unknown }>("SELECT COUNT(*) AS n FROM auth_rate_limit_attempts WHERE action = 'upload'");
      assert.is(Number(row?.n), UPLOAD_MAX_PER_WINDOW);
    } finally {
      setRateLimitStore(null);
      await database.close();
    }
  });
}

// One subscriber holds a whole IPv6 /64, and an IPv4 client may reach a dual-stack socket as `::ffff:a.b.c.d`:
// both are one address for the limit, as for the login limit (clientAddressKey).
const spreads: Array<[string, (i: number) => string, string]> = [
  ['30 addresses of one IPv6 /64', (i) => `2001:db8:5:6:${(i + 1).toString(16)}::${i + 7}`, 'ip:2001:db8:5:6::/64'],
  ['203.0.113.5 and ::ffff:203.0.113.5 in turn', (i) => (i % 2 === 0 ? '203.0.113.5' : '::ffff:203.0.113.5'), 'ip:203.0.113.5'],
];
for (const [name, from, key] of spreads) {
  test(`${name}: counted as one address, 10 × 201 and 20 × 429`, async () => {
    const store = new MemoryRateLimitStore();
    setRateLimitStore(store);
    const responses = await burst(from);
    const statuses = responses.map((response) => response.status);
    assert.is(statuses.filter((status) => status === 201).length, UPLOAD_MAX_PER_WINDOW, `statuses: ${statuses.join(' ')}`);
    assert.is(statuses.filter((status) => status === 429).length, BURST - UPLOAD_MAX_PER_WINDOW, `statuses: ${statuses.join(' ')}`);
    assert.is((await store.hits(UPLOAD_ACTION, key, UPLOAD_RATE_LIMIT_WINDOW)).count, UPLOAD_MAX_PER_WINDOW);
  });
}

test.run();
