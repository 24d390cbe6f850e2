// The SQLite connection's prepared statements kept by SQL text (runtime/db/dialects/sqlite/statement-cache.ts):
// the same text gives the same better-sqlite3 statement, the least recently used one goes past the size, and
// through the database layer a kept statement still answers right after its table changed (ALTER TABLE, DROP
// and CREATE again), within a transaction and after a rollback.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openDatabase, type Database as FwDatabase } from '../runtime/db/index.js';
import { STATEMENT_CACHE_SIZE, withStatementCache } from '../runtime/db/dialects/sqlite/statement-cache.js';

const test = suite('db-sqlite-statement-cache');

let dir = '';
let db: FwDatabase;

test.before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-stmt-cache-'));
  db = openDatabase({ driver: 'sqlite', file: path.join(dir, 'app.sqlite') });
  await db.execute('CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL)');
  await db.execute("INSERT INTO items (name) VALUES ('a'), ('b'), ('c')");
});

test.after(async () => {
  await db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('the same SQL text gives the same statement; another text, another one', () => {
  const raw = new Database(':memory:');
  const cached = withStatementCache(raw);
  const first = cached.prepare('SELECT 1 AS n');
  assert.is(cached.prepare('SELECT 1 AS n'), first);
  assert.is.not(cached.prepare('SELECT 2 AS n'), first);
  assert.equal(first.all([]), [{ n: 1 }]);
  cached.close();
  assert.is(raw.open, false);
});

test('past the size, the least recently used statement is prepared again, the others are kept', () => {
  const raw = new Database(':memory:');
  const cached = withStatementCache(raw, 3);
  const one = cached.prepare('SELECT 1');
  const two = cached.prepare('SELECT 2');
  cached.prepare('SELECT 3');
  // Using "SELECT 1" again makes "SELECT 2" the least recently used.
  assert.is(cached.prepare('SELECT 1'), one);
  cached.prepare('SELECT 4');
  assert.is(cached.prepare('SELECT 1'), one);
  assert.is.not(cached.prepare('SELECT 2'), two);
  cached.close();
  assert.ok(STATEMENT_CACHE_SIZE >= 100);
});

test('a kept statement reads the new column after ALTER TABLE, and the new table after DROP and CREATE', async () => {
  const query = 'SELECT * FROM items WHERE id <= ? ORDER BY id';
  assert.equal(await db.fetchAll(query, [2]), [
    { id: 1, name: 'a' },
    { id: 2, name: 'b' },
  ]);
  await db.execute("ALTER TABLE items ADD COLUMN city TEXT NOT NULL DEFAULT 'Lyon'");
  assert.equal(await db.fetchAll(query, [1]), [{ id: 1, name: 'a', city: 'Lyon' }]);
  await db.execute('DROP TABLE items');
  await db.execute('CREATE TABLE items (id INTEGER PRIMARY KEY, label TEXT)');
  await db.execute("INSERT INTO items (label) VALUES ('x')");
  assert.equal(await db.fetchAll(query, [5]), [{ id: 1, label: 'x' }]);
});

test('the same statements run in a transaction, and a rollback leaves them usable', async () => {
  const count = 'SELECT COUNT(*) AS n FROM items';
  assert.equal(await db.fetchOne(count), { n: 1 });
  await db
    .transaction(async (tx) => {
      await tx.execute("INSERT INTO items (label) VALUES ('y')");
      assert.equal(await tx.fetchOne(count), { n: 2 });
      throw new Error('rollback');
    })
    .catch((error: Error) => assert.is(error.message, 'rollback'));
  assert.equal(await db.fetchOne(count), { n: 1 });
  await db.execute("INSERT INTO items (label) VALUES ('z')");
  assert.equal(await db.fetchOne(count), { n: 2 });
});

test.run();
