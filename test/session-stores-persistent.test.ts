/**
 * What the file and database session stores add to the contract (docs/runtime.md "Sessions"): a read rewrites a
 * session only past a tenth of the TTL; the file store's modes, temporary files, folder and unreadable files;
 * the database store's columns, its missing-table error and regenerate()'s single transaction.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  DatabaseSessionStore,
  FileSessionStore,
  MariaDbSessionStore,
  configure,
  openDatabase,
  resetConfig,
  sessionKey,
  type SessionStore,
} from '../runtime/index.js';
import { fileBackend, redisBackend, databaseStoreBackend, type Backend } from './helpers/session-backends.js';
import { DIALECTS, productOf } from './helpers/dialects.js';
import { manualClock, rejection } from './helpers/clock.js';

/** The stores key sessions by an HMAC under the application's secret: a configured one (nothing written in the working directory). */
const withSecret = (): void => configure({ app_secret: 'session-stores-persistent-secret'.padEnd(48, 'x') });
withSecret();

const SECOND = 1000;
const TTL = 3600;
const T0 = 1_700_000_000_000;

// --- the 1/10 rule, on every store that keeps data at rest ---

function tenthRule(label: string, open: () => Promise<Backend> | Backend): void {
  const S = suite(`session-stores-persistent: a read rewrites past a tenth of the TTL (${label})`);
  let backend: Backend;
  S.before(async () => {
    backend = await open();
  });
  S.after(() => backend.close());

  S('reads within a tenth of the TTL write nothing; the first read past it pushes the expiry back', async () => {
    const clock = manualClock();
    const store = await backend.make({ now: clock.now, ttlSeconds: TTL });
    const id = await store.create({ n: 1 });
    const written = await backend.atRest!.texts();
    for (let i = 0; i < 6; i++) {
      clock.advance(TTL / 10 / 6); // 60 s each: 360 s in all, exactly a tenth
      assert.equal(await store.get(id), { n: 1 });
      assert.equal(await backend.atRest!.texts(), written, `read ${i + 1}: nothing written`);
    }
    clock.advance(1);
    assert.equal(await store.get(id), { n: 1 });
    assert.not.equal(await backend.atRest!.texts(), written, 'past a tenth: the expiry is pushed back');
    // The session lives a whole TTL after that read, and no longer.
    clock.advance(TTL - 1);
    assert.equal(await store.get(id), { n: 1 });
    clock.advance(TTL);
    assert.is(await store.get(id), null);
  });

  S('at worst a session lives 0.9 × TTL after its last read', async () => {
    const clock = manualClock();
    const store = await backend.make({ now: clock.now, ttlSeconds: TTL });
    const id = await store.create({ n: 1 });
    clock.advance(TTL / 10); // a read that does not push the expiry back
    assert.ok(await store.get(id));
    clock.advance(TTL * 0.9 - 1);
    assert.ok(await store.get(id), '0.9 × TTL after the read, minus a second: alive');
    clock.advance(TTL);
    assert.is(await store.get(id), null);
  });

  S.run();
}

tenthRule('file', fileBackend);
for (const dialect of DIALECTS) tenthRule(`database on ${productOf(dialect)}`, () => databaseStoreBackend(dialect));
tenthRule('redis', redisBackend);

// --- the file store ---

const F = suite('session-stores-persistent: FileSessionStore');
let root: string;
F.before(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fw-file-store-')));
});
F.after(() => {
  resetConfig();
  withSecret();
  fs.rmSync(root, { recursive: true, force: true });
});

/** The permission bits of a path. */
const mode = (file: string): number => fs.statSync(file).mode & 0o777;

F('the folder is created 0700 (with its parents), each file 0600, named by the SHA-256 hex of the id', async () => {
  const dir = path.join(root, 'modes', 'deep', 'sessions');
  const clock = manualClock();
  const store = new FileSessionStore({ dir, now: clock.now });
  assert.not.ok(fs.existsSync(dir), 'nothing is created before the first session');
  const id = await store.create({ user: { id: 3 } });
  assert.is(mode(dir), 0o700);
  assert.is(mode(path.join(root, 'modes', 'deep')), 0o700);
  const file = path.join(dir, `${sessionKey(id)}.json`);
  assert.equal(fs.readdirSync(dir), [`${sessionKey(id)}.json`]);
  assert.is(mode(file), 0o600);
  const stored = JSON.parse(fs.readFileSync(file, 'utf8'));
  assert.equal(stored, {
    data: { user: { id: 3 } },
    user_id: '3',
    created_at: '2023-11-14T22:13:20.000Z',
    expires_at: '2023-11-14T23:13:20.000Z',
  });
  clock.advance(600);
  await store.set(id, { user: { id: 3 }, more: 1 });
  assert.is(mode(file), 0o600, 'a rewrite keeps 0600');
  const rewritten = JSON.parse(fs.readFileSync(file, 'utf8'));
  assert.is(rewritten.created_at, '2023-11-14T22:13:20.000Z', 'created_at is kept');
  assert.is(rewritten.expires_at, '2023-11-14T23:23:20.000Z');
});

F('an existing folder open to others (0755, as a checkout makes it) is brought to 0700; other files in it are left alone', async () => {
  const dir = path.join(root, 'existing');
  fs.mkdirSync(dir, { mode: 0o755 });
  fs.chmodSync(dir, 0o755);
  fs.writeFileSync(path.join(dir, '.gitkeep'), '');
  fs.writeFileSync(path.join(dir, 'README'), 'notes');
  fs.chmodSync(path.join(dir, 'README'), 0o644);
  const clock = manualClock();
  const store = new FileSessionStore({ dir, now: clock.now });
  await store.create();
  clock.advance(2 * TTL);
  assert.is(await store.purge(), 1);
  assert.is(await store.deleteUser(1), 0);
  assert.equal(fs.readdirSync(dir).sort(), ['.gitkeep', 'README']);
  assert.is(mode(dir), 0o700);
  assert.is(mode(path.join(dir, 'README')), 0o644, 'files that are not sessions keep their mode');
});

F('purge removes temporary files left for more than an hour (not counted), keeps recent ones', async () => {
  const dir = path.join(root, 'temps');
  const clock = manualClock();
  const store = new FileSessionStore({ dir, now: clock.now });
  const id = await store.create();
  const key = sessionKey(id);
  const stale = path.join(dir, `.${key}.0123456789abcdef.tmp`);
  const recent = path.join(dir, `.${key}.fedcba9876543210.tmp`);
  fs.writeFileSync(stale, '{"data":');
  fs.writeFileSync(recent, '{"data":');
  const seconds = (ms: number): number => ms / 1000;
  fs.utimesSync(stale, seconds(T0 - 3601 * SECOND), seconds(T0 - 3601 * SECOND));
  fs.utimesSync(recent, seconds(T0 - 60 * SECOND), seconds(T0 - 60 * SECOND));
  assert.is(await store.purge(), 0, 'the live session is kept; temporary files are not sessions');
  assert.equal(fs.readdirSync(dir).sort(), [`.${key}.fedcba9876543210.tmp`, `${key}.json`].sort());
});

F('the default folder is session_dir from project_root; a relative dir is read from project_root too', async () => {
  configure({ project_root: root });
  try {
    assert.is(new FileSessionStore().dir, path.join(root, 'storage', 'sessions'));
    configure({ session_dir: 'var/sessions' });
    assert.is(new FileSessionStore().dir, path.join(root, 'var', 'sessions'));
    assert.is(new FileSessionStore({ dir: 'ailleurs' }).dir, path.join(root, 'ailleurs'));
    configure({ session_ttl: 60 });
    assert.is(new FileSessionStore().ttlSeconds, 60);
    assert.is(new FileSessionStore({ ttlSeconds: 5 }).ttlSeconds, 5);
    configure({ session_ttl: 0 });
    assert.throws(() => new FileSessionStore(), /^session_ttl doit être un nombre de secondes supérieur à 0 \(valeur lue : « 0 »\)\.$/);
    assert.throws(() => new DatabaseSessionStore({ ttlSeconds: -1 }), /^ttlSeconds doit être un nombre de secondes/);
  } finally {
    resetConfig();
    withSecret();
  }
});

F('a folder that cannot be made: the error names it and says what to check', async () => {
  const blocker = path.join(root, 'blocker');
  fs.writeFileSync(blocker, 'a file, not a folder');
  const store = new FileSessionStore({ dir: path.join(blocker, 'sessions') });
  const message = await rejection(store.create());
  assert.match(message, `Écriture impossible dans le dossier des sessions ${path.join(blocker, 'sessions')} (`);
  assert.match(message, 'vérifiez ses droits, ou changez session_dir.');
  assert.is(await store.get('a'.repeat(64)), null, 'reading finds no session');
});

F('the folder removed while running is made again', async () => {
  const dir = path.join(root, 'removed');
  const store = new FileSessionStore({ dir });
  await store.create();
  fs.rmSync(dir, { recursive: true });
  const id = await store.create({ back: true });
  assert.equal(await store.get(id), { back: true });
  assert.is(mode(dir), 0o700);
});

F('a file that is not a session (a folder in its place) is no session', async () => {
  const dir = path.join(root, 'odd');
  const store = new FileSessionStore({ dir });
  const id = await store.create({ a: 1 });
  const file = path.join(dir, `${sessionKey(id)}.json`);
  fs.rmSync(file);
  fs.mkdirSync(file);
  assert.is(await store.get(id), null);
  assert.is(await store.purge(), 0);
});

F.run();

// --- the database store ---

function databaseSpecifics(label: string, open: () => Promise<Backend & { database: ReturnType<typeof openDatabase> }>): void {
  const D = suite(`session-stores-persistent: DatabaseSessionStore (${label})`);
  let backend: Backend & { database: ReturnType<typeof openDatabase> };
  let store: SessionStore;
  let clock: ReturnType<typeof manualClock>;
  D.before(async () => {
    backend = await open();
  });
  D.after(() => backend.close());
  D.before.each(async () => {
    clock = manualClock();
    store = await backend.make({ now: clock.now, ttlSeconds: TTL });
  });

  D('a row: the key, the JSON, the user id as text, UTC date-times to the second', async () => {
    const id = await store.create({ user: { id: 42, login: 'alice' } });
    const rows = await backend.database.fetchAll('SELECT * FROM fw_sessions');
    assert.equal(rows, [
      {
        session_id: sessionKey(id),
        data: '{"user":{"id":42,"login":"alice"}}',
        user_id: '42',
        expires_at: '2023-11-14 23:13:20',
        created_at: '2023-11-14 22:13:20',
        updated_at: '2023-11-14 22:13:20',
      },
    ]);
    clock.advance(1.5);
    await store.set(id, { theme: 'sombre' });
    const [row] = await backend.database.fetchAll('SELECT * FROM fw_sessions');
    assert.equal(
      row,
      {
        session_id: sessionKey(id),
        data: '{"theme":"sombre"}',
        user_id: null,
        expires_at: '2023-11-14 23:13:22',
        created_at: '2023-11-14 22:13:20',
        updated_at: '2023-11-14 22:13:21',
      },
      'created_at kept; the expiry rounded up to the second, never shorter than the TTL',
    );
  });

  D('an expired row is deleted when read; an expired session is not regenerated', async () => {
    const id = await store.create({ a: 1 });
    clock.advance(TTL);
    assert.is(await store.get(id), null);
    assert.equal(await backend.database.fetchAll('SELECT session_id FROM fw_sessions'), []);
    const old = await store.create({ secret: 1 });
    clock.advance(TTL);
    const next = await store.regenerate(old);
    assert.equal(await store.get(next), {});
    assert.equal(
      (await backend.database.fetchAll<{ session_id: string }>('SELECT session_id FROM fw_sessions')).map((r) => r.session_id),
      [sessionKey(next)],
    );
  });

  D('regenerate runs in one transaction: when deleting the old row fails, the new row is rolled back', async () => {
    const old = await store.create({ keep: 1 });
    const mariadb = backend.database.driver === 'mariadb';
    await backend.database.execute(
      mariadb
        ? "CREATE TRIGGER fw_test_no_delete BEFORE DELETE ON fw_sessions FOR EACH ROW SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'suppression refusée'"
        : "CREATE TRIGGER fw_test_no_delete BEFORE DELETE ON fw_sessions BEGIN SELECT RAISE(ABORT, 'suppression refusée'); END",
    );
    try {
      assert.match(await rejection(store.regenerate(old)), /suppression refusée/);
    } finally {
      await backend.database.execute('DROP TRIGGER fw_test_no_delete');
    }
    const keys = (await backend.database.fetchAll<{ session_id: string }>('SELECT session_id FROM fw_sessions')).map((row) => row.session_id);
    assert.equal(keys, [sessionKey(old)], 'only the old row: the copy was rolled back');
    assert.equal(await store.get(old), { keep: 1 });
  });

  D('without the table: an error that says to run fw db:init', async () => {
    const empty = openDatabase({ driver: 'sqlite', file: ':memory:' });
    try {
      const bare = new MariaDbSessionStore({ database: empty });
      assert.ok(bare instanceof DatabaseSessionStore, 'MariaDbSessionStore is the same class');
      const message = await rejection(bare.create());
      assert.match(message, /^La table fw_sessions n'existe pas \(SQLite :memory:\) ; lancez « fw db:init » pour la créer\.$/);
      assert.match(await rejection(bare.get('a'.repeat(64))), /fw db:init/);
    } finally {
      await empty.close();
    }
  });

  D.run();
}

for (const dialect of DIALECTS) databaseSpecifics(productOf(dialect), () => databaseStoreBackend(dialect));
