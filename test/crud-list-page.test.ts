// One page of a generated list (runtime/crud/list-page.ts; docs/crud.md "What a list page costs") on real SQLite
// and MariaDB: exact totals whichever query gives them, the count kept for the same query and forgotten on every
// write made through the framework's Database API (any handle, a transaction's end) and on forgetListCounts(), kept
// across writes the process does not make that way (another process: here the drivers themselves), rows that
// contradict a kept count, pages past the end, searches whose short page gives the total.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Sqlite from 'better-sqlite3';
import mysql from 'mysql2/promise';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { LIST_COUNT_TTL_MS, forgetListCounts, listPage, type ListSpec } from '../runtime/crud/index.js';
import { setListCountClock } from '../runtime/crud/list-page.js';
import { configure, resetConfig } from '../runtime/config.js';
import { closeDatabase, execute, fetchAll, fetchOne, getDatabase, insert, openDatabase, transaction } from '../runtime/db/database.js';
import { onlyBookkeeping, onlyReads, writeGeneration } from '../runtime/db/writes.js';
import type { DialectName } from '../runtime/db/dialect.js';
import '../runtime/mail/outbox.js';
import '../runtime/rate-limit/database-store.js';
import { DatabaseSessionStore } from '../runtime/session/database-store.js';
import { fwSessionsDdl } from '../runtime/session/sessions-table.js';
import { MARIADB_ADMIN } from './helpers/cli.js';
import { manualClockMs } from './helpers/clock.js';
import { DIALECTS } from './helpers/dialects.js';

const SPEC: ListSpec = {
  sortable: { id: 't.Id', nom: 't.Nom', actif: 't.Actif' },
  defaultSort: 'id',
  searchable: ['t.Nom'],
  filters: { actif: { column: 't.Actif', kind: 'bool' }, nom: { column: 't.Nom', kind: 'text' } },
};
const SQL = { select: 'SELECT t.Id, t.Nom, t.Actif FROM items t', count: 'SELECT COUNT(*) AS total FROM items t', perPage: 20 };

/** `?a=1` as the request's params. */
function request(params: Record<string, string> = {}): { params: Record<string, string[]> } {
  return { params: Object.fromEntries(Object.entries(params).map(([name, value]) => [name, [value]])) };
}

async function page(params: Record<string, string> = {}): Promise<{ total: number; page: number; ids: number[] }> {
  const result = await listPage<{ Id: number }>(request(params), SPEC, SQL);
  return { total: result.pagination.total, page: result.pagination.page, ids: result.rows.map((r) => Number(r.Id)) };
}

/** SQL run as another process would: through the driver itself, not through a fw Database. */
interface Outside {
  execute(sql: string, params?: readonly unknown[]): Promise<void>;
}

interface Target {
  readonly other: Outside;
  /** The database's name as `configure()` was given it: a second fw handle on the same database opens with it. */
  readonly open: () => ReturnType<typeof openDatabase>;
  readonly cleanup: () => Promise<void>;
}

async function makeTarget(dialect: DialectName): Promise<Target> {
  const create = 'CREATE TABLE items (Id INTEGER PRIMARY KEY, Nom VARCHAR(50) NOT NULL, Actif INTEGER NOT NULL)';
  if (dialect === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-listpage-'));
    const file = path.join(dir, 'list.sqlite');
    const raw = new Sqlite(file);
    raw.pragma('journal_mode = WAL');
    raw.exec(create);
    configure({ db_driver: 'sqlite', db_file: file });
    return {
      other: {
        execute: async (sql, params = []) => {
          raw.prepare(sql).run(...params);
        },
      },
      open: () => openDatabase({ driver: 'sqlite', file }),
      cleanup: async () => {
        raw.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const name = `fw_listpage_${randomBytes(5).toString('hex')}`;
  const { host, port, user, password } = MARIADB_ADMIN;
  const raw = await mysql.createConnection({ host, port, user, password });
  await raw.query(`CREATE DATABASE \`${name}\` COLLATE utf8mb4_unicode_ci`);
  await raw.query(`USE \`${name}\``);
  await raw.query(create);
  configure({ db_driver: 'mariadb', db_host: host, db_port: port, db_user: user, db_password: password, db_name: name });
  return {
    other: {
      execute: async (sql, params = []) => {
        await raw.query(sql, [...params] as Array<string | number | null>);
      },
    },
    open: () => openDatabase({ driver: 'mariadb', ...MARIADB_ADMIN, database: name, poolSize: 1 }),
    cleanup: async () => {
      await raw.query(`DROP DATABASE IF EXISTS \`${name}\``).finally(() => raw.end());
    },
  };
}

/** Rows `from`..`to`: `Nom` is `item<n>`, every third one `special<n>`; `Actif` is n % 2. */
async function insertRows(db: Outside, from: number, to: number): Promise<void> {
  const values: string[] = [];
  const params: unknown[] = [];
  for (let n = from; n <= to; n++) {
    values.push('(?, ?, ?)');
    params.push(n, n % 3 === 0 ? `special${n}` : `item${n}`, n % 2);
  }
  await db.execute(`INSERT INTO items (Id, Nom, Actif) VALUES ${values.join(', ')}`, params);
}

for (const dialect of DIALECTS) {
  const t = suite(`crud list page: rows, count and its cache (${dialect})`);
  let target: Target;

  t.before(async () => {
    target = await makeTarget(dialect);
    await insertRows(target.other, 1, 45);
  });
  t.after(async () => {
    await closeDatabase();
    await target.cleanup();
    resetConfig();
  });
  t.before.each(() => forgetListCounts());

  t('exact totals: the list, a filter, a search with a short page, a search with full pages, nothing found', async () => {
    assert.equal(await page(), { total: 45, page: 1, ids: Array.from({ length: 20 }, (_, i) => 45 - i) });
    assert.equal((await page({ page: '3' })).ids, [5, 4, 3, 2, 1]);
    assert.is((await page({ actif: '1' })).total, 23);
    // 15 rows are `special…`: one short page, its total read from the rows.
    assert.equal(await page({ q: 'special' }), { total: 15, page: 1, ids: [45, 42, 39, 36, 33, 30, 27, 24, 21, 18, 15, 12, 9, 6, 3] });
    // `item` matches 30 rows: a full page, then counted.
    assert.equal(await page({ q: 'item' }).then((p) => [p.total, p.ids.length]), [30, 20]);
    assert.equal(await page({ q: 'item', page: '2' }).then((p) => [p.total, p.page, p.ids.length]), [30, 2, 10]);
    assert.equal(await page({ q: 'nothing' }), { total: 0, page: 1, ids: [] });
    assert.equal(await page({ actif: '1', q: 'nothing' }), { total: 0, page: 1, ids: [] });
  });

  t('a page past the end gives the last page, with or without a search, counted or kept', async () => {
    assert.equal(await page({ page: '99' }).then((p) => [p.total, p.page, p.ids]), [45, 3, [5, 4, 3, 2, 1]]);
    assert.equal(await page({ page: '99' }).then((p) => [p.total, p.page, p.ids]), [45, 3, [5, 4, 3, 2, 1]]);
    assert.equal(await page({ q: 'item', page: '7' }).then((p) => [p.total, p.page, p.ids.length]), [30, 2, 10]);
    assert.equal(await page({ q: 'special', page: '2' }).then((p) => [p.total, p.page, p.ids.length]), [15, 1, 15]);
    // A page number past any integer: the offset asked stays an integer the servers take.
    assert.equal(await page({ q: 'item', page: '99999999999999999999' }).then((p) => [p.total, p.page, p.ids.length]), [30, 2, 10]);
    assert.equal(await page({ page: '99999999999999999999' }).then((p) => [p.total, p.page, p.ids.length]), [45, 3, 5]);
  });

  t('the count is kept for the same query across writes of another process, rows read fresh; forgetListCounts() drops it', async () => {
    assert.is((await page()).total, 45);
    await insertRows(target.other, 46, 46); // another process writes
    const kept = await page();
    assert.is(kept.total, 45, 'the count of the window');
    assert.is(kept.ids[0], 46, 'the rows are always read');
    assert.is((await page({ actif: '0' })).total, 23, 'another query is counted');
    forgetListCounts();
    assert.is((await page()).total, 46);
    assert.is((await page({ actif: '0' })).total, 23);
    await target.other.execute('DELETE FROM items WHERE Id = 46');
    forgetListCounts();
    assert.is((await page()).total, 45);
  });

  t('rows that contradict a kept count make it counted again: the last page stays reachable', async () => {
    assert.is((await page({ page: '3' })).total, 45);
    await target.other.execute('DELETE FROM items WHERE Id <= 10'); // another process deletes a page's worth
    const after = await page({ page: '3' });
    assert.equal([after.total, after.page, after.ids], [35, 2, Array.from({ length: 15 }, (_, i) => 25 - i)]);
    await insertRows(target.other, 1, 10);
    assert.is((await page()).total, 35, 'a full first page agrees with the kept count');
    const last = await page({ page: '3' });
    assert.equal([last.total, last.page, last.ids], [45, 3, [5, 4, 3, 2, 1]], 'the last page, longer than the kept count allows, is counted again');
  });

  t('a kept 0 is counted again: rows written since by another process show at once', async () => {
    assert.equal(await page({ q: 'later' }), { total: 0, page: 1, ids: [] });
    assert.equal(await page({ actif: '1', nom: 'later' }), { total: 0, page: 1, ids: [] });
    await target.other.execute('INSERT INTO items (Id, Nom, Actif) VALUES (?, ?, ?)', [46, 'later', 1]);
    assert.equal(await page({ q: 'later' }), { total: 1, page: 1, ids: [46] });
    assert.equal(await page({ actif: '1', nom: 'later' }), { total: 1, page: 1, ids: [46] });
    await target.other.execute('DELETE FROM items WHERE Id = 46');
  });

  t('a write through the Database API forgets the kept counts at once: execute, insert, another handle, a transaction', async () => {
    assert.is((await page()).total, 45);
    assert.is((await page({ actif: '1' })).total, 23);
    await insert('INSERT INTO items (Id, Nom, Actif) VALUES (?, ?, ?)', [46, 'hand46', 1]);
    assert.is((await page()).total, 46, 'insert()');
    assert.is((await page({ actif: '1' })).total, 24, 'every query, not only the one written to');
    await execute('UPDATE items SET Actif = 0 WHERE Id = ?', [46]);
    assert.is((await page({ actif: '1' })).total, 23, 'execute()');
    await getDatabase().execute('DELETE FROM items WHERE Id = ?', [46]);
    assert.is((await page()).total, 45, 'getDatabase().execute()');
    // Another fw handle of this process (the CLI's kind) on the same database.
    const second = target.open();
    try {
      await second.execute('INSERT INTO items (Id, Nom, Actif) VALUES (?, ?, ?)', [46, 'hand46', 1]);
      assert.is((await page()).total, 46, 'another handle');
      await second.execute('DELETE FROM items WHERE Id = 46');
      assert.is((await page()).total, 45);
    } finally {
      await second.close();
    }
    await transaction(async (tx) => {
      await tx.execute('INSERT INTO items (Id, Nom, Actif) VALUES (?, ?, ?)', [46, 'tx46', 1]);
      await tx.execute('INSERT INTO items (Id, Nom, Actif) VALUES (?, ?, ?)', [47, 'tx47', 1]);
    });
    assert.is((await page()).total, 47, 'a committed transaction');
    const rolledBack = await transaction(async (tx) => {
      await tx.execute('DELETE FROM items WHERE Id >= 46');
      assert.is((await page()).total, 45, 'inside the transaction, its own rows');
      throw new Error('rollback');
    }).catch((error: Error) => error.message);
    assert.is(rolledBack, 'rollback');
    assert.is((await page()).total, 47, 'a rolled back transaction: the count read inside it is not kept');
    await execute('DELETE FROM items WHERE Id >= 46');
    assert.is((await page()).total, 45);
  });

  t('fetchOne / fetchAll of a read leave the write generation; of INSERT … RETURNING, they count as a write', async () => {
    const before = writeGeneration();
    await fetchOne('SELECT COUNT(*) AS n FROM items');
    await fetchAll('\n  select Nom FROM items WHERE Id = ?', [1]);
    await fetchOne('WITH x AS (SELECT Id FROM items) SELECT COUNT(*) AS n FROM x');
    assert.is(writeGeneration(), before, 'reads');
    assert.is((await page()).total, 45);
    const row = await fetchOne<{ Id: unknown }>('INSERT INTO items (Id, Nom, Actif) VALUES (?, ?, ?) RETURNING Id', [46, 'returning', 1]);
    assert.is(Number(row?.Id), 46);
    assert.ok(writeGeneration() > before);
    assert.is((await page()).total, 46, 'INSERT … RETURNING through fetchOne');
    await execute('DELETE FROM items WHERE Id = 46');
  });

  t('the database session store writes its table and the kept count stays; a write to a listed table forgets it', async () => {
    for (const statement of fwSessionsDdl(dialect)) await execute(statement);
    assert.is((await page()).total, 45);
    const before = writeGeneration();
    const store = new DatabaseSessionStore();
    const id = await store.create({ user_id: 7 });
    await store.set(id, { user_id: 7, flash: 'x' });
    assert.ok(await store.update(id, { user_id: 7 }));
    assert.is(writeGeneration(), before, 'create, set, update: no write counted');
    // regenerate() (at sign-in) runs in a transaction, whose BEGIN and COMMIT count like any transaction's.
    const renewed = await store.regenerate(id);
    const kept = writeGeneration();
    await store.delete(renewed);
    assert.is(writeGeneration(), kept, 'delete: no write counted');
    const rows = await fetchAll('SELECT session_id FROM fw_sessions');
    assert.is(rows.length, 0, 'the store did write its table');
    await store.create({});
    assert.is(writeGeneration(), kept, 'a session saved: no write counted');
    await execute('DELETE FROM fw_sessions');
    assert.is(writeGeneration(), kept);
    await execute('UPDATE items SET Nom = Nom WHERE Id = 1');
    assert.ok(writeGeneration() > kept, 'a write to a listed table is counted');
    await execute('DROP TABLE fw_sessions');
  });

  if (dialect === 'sqlite') {
    t('a kept count expires after LIST_COUNT_TTL_MS', async () => {
      const clock = manualClockMs(Date.now());
      setListCountClock(clock.now);
      try {
        assert.is((await page()).total, 45);
        await insertRows(target.other, 46, 46);
        clock.advance(LIST_COUNT_TTL_MS - 1);
        assert.is((await page()).total, 45, 'kept until the window ends');
        clock.advance(1);
        assert.is((await page()).total, 46, 'read again once it ended');
      } finally {
        setListCountClock(null);
        await target.other.execute('DELETE FROM items WHERE Id = 46');
      }
    });
  }

  t.run();
}

const w = suite('db writes: which statements fetchOne / fetchAll count as writes');

w('plain reads are reads; anything else, a comment first included, is a write', () => {
  for (const sql of [
    'SELECT 1',
    '  select * from t',
    '(SELECT 1) UNION (SELECT 2)',
    'SHOW TABLES',
    'EXPLAIN SELECT 1',
    'DESCRIBE t',
    'VALUES (1)',
    'WITH x AS (SELECT 1) SELECT * FROM x',
  ]) {
    assert.ok(onlyReads(sql), sql);
  }
  for (const sql of [
    'INSERT INTO t VALUES (1) RETURNING id',
    'UPDATE t SET a = 1 RETURNING a',
    'DELETE FROM t RETURNING id',
    'REPLACE INTO t VALUES (1)',
    'WITH x AS (SELECT 1) DELETE FROM t RETURNING id',
    '/* why */ SELECT 1',
    'PRAGMA user_version = 2',
    'selected',
  ]) {
    assert.not.ok(onlyReads(sql), sql);
  }
});

w('writes to the bookkeeping tables their modules declare (sessions, counted attempts, the outbox) keep the counts; any other table does not', () => {
  for (const sql of [
    'UPDATE fw_sessions SET expires_at = ?, updated_at = ? WHERE session_id = ?',
    'INSERT INTO fw_sessions (session_id) VALUES (?) ON DUPLICATE KEY UPDATE data = VALUES(data)',
    'DELETE FROM fw_sessions WHERE expires_at <= ?',
    'insert into auth_rate_limit_attempts (k) values (?)',
    'UPDATE `mail_log` SET status = ?',
  ]) {
    assert.ok(onlyBookkeeping(sql), sql);
  }
  for (const sql of [
    'UPDATE fw_sessions_copy SET a = 1',
    'INSERT INTO contacts SELECT * FROM fw_sessions',
    'DELETE FROM users',
    'COMMIT',
    'WITH x AS (SELECT 1) UPDATE fw_sessions SET a = 1',
  ]) {
    assert.not.ok(onlyBookkeeping(sql), sql);
  }
});

w.run();
