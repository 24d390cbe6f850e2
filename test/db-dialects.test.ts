// One conformance suite for the database layer, run against each dialect (SQLite, MariaDB) (docs/architecture.md "Conformance suites"):
// helpers, `?` parameters, conversions, DuplicateError, transactions, the default handle from the registry,
// introspection and idempotent SQL files. Then unreachable and unopenable databases, and lazy driver loading.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { applySqlFiles } from '../cli/db/apply.js';
import { listTables, readColumns, tableExists } from '../cli/db/schema.js';
import { configure, resetConfig } from '../runtime/config.js';
import {
  closeDatabase,
  DatabaseUnavailableError,
  DuplicateError,
  execute,
  fetchAll,
  fetchOne,
  insert,
  openDatabase,
  QueryParameterError,
  transaction,
  type Database,
  type DialectName,
} from '../runtime/db/index.js';

import { DIALECTS, freshDatabase, type FreshDatabase } from './helpers/dialects.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const MARIADB = { host: '127.0.0.1', port: 3306, user: 'root', password: '' };

/** How a dialect differs in the suite: its DDL, and how to make and drop a throw-away database. */
interface Target {
  readonly name: DialectName;
  /** Creates an empty database; returns a handle on it. */
  setup(): Promise<Database>;
  teardown(): Promise<void>;
  /** Registry keys that point the default handle at the same database. */
  config(): Parameters<typeof configure>[0];
  readonly autoId: string;
  readonly bool: string;
}

/** The DDL of the suite's table in each dialect: an auto-increment key and a boolean. */
const DDL: Readonly<Record<DialectName, Pick<Target, 'autoId' | 'bool'>>> = {
  mariadb: { autoId: 'INT AUTO_INCREMENT PRIMARY KEY', bool: 'TINYINT(1)' },
  sqlite: { autoId: 'INTEGER PRIMARY KEY AUTOINCREMENT', bool: 'BOOLEAN' },
};

/** A dialect's target: a fresh database of helpers/dialects.ts. */
function target(dialect: DialectName): Target {
  let fresh: FreshDatabase | undefined;
  return {
    name: dialect,
    ...DDL[dialect],
    async setup() {
      fresh = await freshDatabase(dialect, { prefix: 'fw_test_db' });
      return fresh.database;
    },
    async teardown() {
      await fresh?.remove();
    },
    config: () => fresh!.config,
  };
}

async function rejects(promise: Promise<unknown>, check: (error: unknown) => boolean, label: string): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    assert.ok(check(error), `${label}: unexpected ${String(error)}`);
    return error;
  }
  assert.unreachable(`${label}: should have been rejected`);
  return undefined;
}

function conformance(target: Target): void {
  const t = suite(`db-dialects: ${target.name}`);
  let db: Database;

  t.before(async () => {
    db = await target.setup();
    await db.execute(`CREATE TABLE items (
      id ${target.autoId},
      name VARCHAR(100) NOT NULL UNIQUE,
      qty INT NOT NULL DEFAULT 0,
      active ${target.bool} NULL,
      created_at DATETIME NULL,
      note TEXT NULL
    )`);
  });

  t.after(async () => {
    await db.close();
    await closeDatabase();
    resetConfig();
    await target.teardown();
  });

  t.before.each(async () => {
    await db.execute('DELETE FROM items');
  });

  t('insert returns the new id; fetchOne a row or null; fetchAll all rows', async () => {
    const a = await db.insert('INSERT INTO items (name, qty) VALUES (?, ?)', ['a', 1]);
    const b = await db.insert('INSERT INTO items (name, qty) VALUES (?, ?)', ['b', 2]);
    assert.type(a, 'number');
    assert.is(b, a + 1);
    const row = await db.fetchOne<{ id: number; name: string; qty: number }>('SELECT id, name, qty FROM items WHERE id = ?', [b]);
    assert.equal(row, { id: b, name: 'b', qty: 2 });
    assert.is(await db.fetchOne('SELECT * FROM items WHERE id = ?', [-1]), null);
    const rows = await db.fetchAll<{ name: string }>('SELECT name FROM items ORDER BY name DESC');
    assert.equal(rows, [{ name: 'b' }, { name: 'a' }]);
    assert.equal(await db.fetchAll('SELECT name FROM items WHERE qty > ?', [9]), []);
    const count = await db.fetchOne<{ n: unknown }>('SELECT COUNT(*) AS n FROM items');
    assert.is(count?.n, 2, 'COUNT(*) is a number on both dialects');
  });

  t('execute returns the affected rows (matched rows for an UPDATE)', async () => {
    await db.insert("INSERT INTO items (name, qty) VALUES ('a', 1), ('b', 1), ('c', 5)");
    assert.is(await db.execute('UPDATE items SET qty = ? WHERE qty = ?', [2, 1]), 2);
    assert.is(await db.execute('UPDATE items SET qty = 5 WHERE name = ?', ['c']), 1, 'unchanged but matched');
    assert.is(await db.execute('DELETE FROM items WHERE name IN (?, ?)', ['a', 'zzz']), 1);
    assert.is(await db.execute('DELETE FROM items WHERE 1 = 0'), 0);
  });

  t('? parameters: quotes, backslashes, ? inside literals and comments, null and undefined', async () => {
    const tricky = 'O\'Brien \\ "x" ; -- ? /*';
    const id = await db.insert('INSERT INTO items (name, note) VALUES (?, ?)', [tricky, undefined]);
    const row = await db.fetchOne<{ name: string; note: unknown }>('SELECT name, note FROM items WHERE id = ?', [id]);
    assert.equal(row, { name: tricky, note: null });
    const literal = await db.fetchOne<{ q: string; v: unknown }>("SELECT '?' AS q, ? AS v -- why?\n", [7]);
    assert.equal(literal, { q: '?', v: 7 });
    const like = await db.fetchAll('SELECT name FROM items WHERE name LIKE ?', ['O%']);
    assert.is(like.length, 1);
  });

  t('booleans become 1/0 and Dates UTC YYYY-MM-DD HH:MM:SS, read back the same on both dialects', async () => {
    const when = new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 678));
    await db.insert('INSERT INTO items (name, active, created_at) VALUES (?, ?, ?)', ['yes', true, when]);
    await db.insert('INSERT INTO items (name, active) VALUES (?, ?)', ['no', false]);
    const rows = await db.fetchAll('SELECT name, active, created_at FROM items ORDER BY name');
    assert.equal(rows, [
      { name: 'no', active: 0, created_at: null },
      { name: 'yes', active: 1, created_at: '2024-01-02 03:04:05' },
    ]);
    const found = await db.fetchOne('SELECT name FROM items WHERE created_at < ?', [new Date(Date.UTC(2024, 0, 3))]);
    assert.equal(found, { name: 'yes' });
  });

  t('unsupported parameters and a wrong count are refused', async () => {
    await rejects(db.fetchOne('SELECT ? AS v', [{ a: 1 }]), (error) => error instanceof QueryParameterError, 'object');
    await rejects(db.fetchOne('SELECT ? AS v', [[1, 2]]), (error) => error instanceof QueryParameterError, 'array');
    await rejects(db.fetchOne('SELECT ? AS v, ? AS w', [1]), (error) => error instanceof Error, 'count');
  });

  t('a unique or primary-key violation is a DuplicateError naming the column', async () => {
    const id = await db.insert('INSERT INTO items (name) VALUES (?)', ['dup']);
    const error = await rejects(db.insert('INSERT INTO items (name) VALUES (?)', ['dup']), (e) => e instanceof DuplicateError, 'unique');
    assert.ok((error as DuplicateError).columns.includes('name'), String((error as DuplicateError).constraint));
    assert.match((error as Error).message, /Doublon/);
    await rejects(db.insert('INSERT INTO items (id, name) VALUES (?, ?)', [id, 'other']), (e) => e instanceof DuplicateError, 'primary key');
    // Other errors are not DuplicateError.
    await rejects(db.execute('INSERT INTO items (name) VALUES (NULL)'), (e) => e instanceof Error && !(e instanceof DuplicateError), 'not null');
  });

  t('transaction commits and returns the value', async () => {
    const result = await db.transaction(async (tx) => {
      await tx.insert('INSERT INTO items (name) VALUES (?)', ['t1']);
      await db.insert('INSERT INTO items (name) VALUES (?)', ['t2'], tx);
      return 'done';
    });
    assert.is(result, 'done');
    assert.equal(await db.fetchAll('SELECT name FROM items ORDER BY name'), [{ name: 't1' }, { name: 't2' }]);
  });

  t('transaction rolls back and rethrows the same error', async () => {
    const failure = new Error('boom');
    const error = await rejects(
      db.transaction(async (tx) => {
        await tx.insert('INSERT INTO items (name) VALUES (?)', ['r1']);
        throw failure;
      }),
      (e) => e === failure,
      'rollback',
    );
    assert.is(error, failure);
    assert.equal(await db.fetchAll('SELECT name FROM items'), []);
    // A SQL error inside rolls back too.
    await rejects(
      db.transaction(async (tx) => {
        await tx.insert('INSERT INTO items (name) VALUES (?)', ['r2']);
        await tx.insert('INSERT INTO items (name) VALUES (?)', ['r2']);
      }),
      (e) => e instanceof DuplicateError,
      'duplicate inside',
    );
    assert.equal(await db.fetchAll('SELECT name FROM items'), []);
  });

  t('helpers called without tx inside a transaction join it (no second connection, no deadlock)', async () => {
    await db.transaction(async () => {
      await db.insert('INSERT INTO items (name) VALUES (?)', ['inside']);
      assert.equal(await db.fetchOne('SELECT name FROM items'), { name: 'inside' });
    });
    assert.equal(await db.fetchOne('SELECT name FROM items'), { name: 'inside' });
  });

  t('a nested transaction is a savepoint: its failure does not undo the outer work', async () => {
    await db.transaction(async (tx) => {
      await tx.insert('INSERT INTO items (name) VALUES (?)', ['outer']);
      await rejects(
        tx.transaction(async (inner) => {
          await inner.insert('INSERT INTO items (name) VALUES (?)', ['inner']);
          throw new Error('inner');
        }),
        (e) => e instanceof Error && e.message === 'inner',
        'inner',
      );
      await db.transaction(async (inner) => inner.insert('INSERT INTO items (name) VALUES (?)', ['inner ok']));
    });
    assert.equal(await db.fetchAll('SELECT name FROM items ORDER BY name'), [{ name: 'inner ok' }, { name: 'outer' }]);
  });

  t('a transaction cannot be used after its block', async () => {
    let kept: Parameters<Parameters<Database['transaction']>[0]>[0] | undefined;
    await db.transaction(async (tx) => {
      kept = tx;
    });
    await rejects(kept!.fetchOne('SELECT 1 AS x'), (e) => e instanceof Error && /terminée/.test(e.message), 'ended');
  });

  t('module-level helpers use the default handle built from the registry', async () => {
    configure(target.config());
    try {
      const id = await insert('INSERT INTO items (name) VALUES (?)', ['global']);
      assert.equal(await fetchOne('SELECT name FROM items WHERE id = ?', [id]), { name: 'global' });
      assert.is(await execute('UPDATE items SET qty = ? WHERE id = ?', [3, id]), 1);
      await rejects(
        transaction(async (tx) => {
          await insert('INSERT INTO items (name) VALUES (?)', ['rolled back'], tx);
          throw new Error('no');
        }),
        (e) => e instanceof Error && e.message === 'no',
        'global rollback',
      );
      assert.equal(await fetchAll('SELECT name, qty FROM items'), [{ name: 'global', qty: 3 }]);
    } finally {
      await closeDatabase();
      resetConfig();
    }
  });

  t('introspection: readColumns, tableExists, listTables', async () => {
    const columns = await readColumns(db, 'items');
    assert.equal(
      columns?.map((column) => column.name),
      ['id', 'name', 'qty', 'active', 'created_at', 'note'],
    );
    const byName = new Map(columns!.map((column) => [column.name, column]));
    assert.is(byName.get('id')?.key, 'PRI');
    assert.is(byName.get('name')?.key, 'UNI');
    assert.is(byName.get('name')?.nullable, false);
    assert.is(byName.get('note')?.nullable, true);
    assert.match(byName.get('name')!.type, /^varchar\(100\)$/i);
    assert.is(await readColumns(db, 'absent_table'), null);
    assert.ok(await tableExists(db, 'items'));
    assert.not.ok(await tableExists(db, 'absent_table'));
    assert.ok((await listTables(db)).includes('items'));
  });

  t('applySqlFiles is idempotent and stops at the first failure', async () => {
    const fk = target.name === 'mariadb' ? 'ALTER TABLE child ADD CONSTRAINT fk_child_parent FOREIGN KEY (parent_id) REFERENCES parent (id);' : '';
    const files = [
      { path: 'parent.sql', text: `CREATE TABLE IF NOT EXISTS parent (id ${target.autoId}, label VARCHAR(20));` },
      {
        path: 'child.sql',
        text: `CREATE TABLE IF NOT EXISTS child (id ${target.autoId}, parent_id INT NOT NULL);\n${fk}\nCREATE INDEX idx_child_parent ON child (parent_id);`,
      },
    ];
    const first = await applySqlFiles(db, files);
    assert.ok(first.ok);
    assert.equal(
      first.files.map((file) => file.fate),
      ['applied', 'applied'],
    );
    const second = await applySqlFiles(db, files);
    assert.equal(
      second.files.map((file) => [file.fate, file.executed]),
      [
        ['unchanged', 0],
        ['unchanged', 0],
      ],
    );
    assert.is(second.files[1]!.skipped, target.name === 'mariadb' ? 3 : 2);

    const failing = await applySqlFiles(db, [
      { path: 'bad.sql', text: 'CREATE TABLE IF NOT EXISTS ok_table (id INT);\nINSERT INTO no_such_table VALUES (1);' },
      { path: 'after.sql', text: 'CREATE TABLE after_table (id INT);' },
    ]);
    assert.not.ok(failing.ok);
    assert.is(failing.files[0]!.fate, 'failed');
    assert.is(failing.files[0]!.failure?.statement, 2);
    assert.is(failing.files[0]!.failure?.line, 2);
    assert.match(failing.files[0]!.failure!.sql, /no_such_table/);
    assert.is(failing.files[1]!.fate, 'not-run');
    assert.not.ok(await tableExists(db, 'after_table'));
    for (const table of ['child', 'parent', 'ok_table']) await db.execute(`DROP TABLE IF EXISTS ${table}`);
  });

  t.run();
}

for (const dialect of DIALECTS) conformance(target(dialect));

const Unavailable = suite('db-dialects: unavailable databases');

/** Rejects when `promise` has not settled after 15 s: the guard against a hang, not a timing assertion. */
function guarded<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const guard = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('no answer after 15 s: the layer hangs')), 15_000);
  });
  return Promise.race([promise, guard]).finally(() => clearTimeout(timer));
}

Unavailable('a closed port gives DatabaseUnavailableError naming host:port and the variables, without hanging', async () => {
  const db = openDatabase({ driver: 'mariadb', host: '127.0.0.1', port: 1, user: 'root', password: '', database: 'x' });
  try {
    const error = await rejects(guarded(db.fetchOne('SELECT 1')), (e) => e instanceof DatabaseUnavailableError, 'port 1');
    const unavailable = error as DatabaseUnavailableError;
    assert.is(unavailable.reason, 'unreachable');
    assert.match(unavailable.message, /127\.0\.0\.1:1\b/);
    assert.match(unavailable.message, /DB_APP_HOST/);
    assert.match(unavailable.message, /DB_APP_PORT/);
    // The handle stays usable for a second try, and closes.
    await rejects(guarded(db.fetchOne('SELECT 1')), (e) => e instanceof DatabaseUnavailableError, 'again');
  } finally {
    await db.close();
  }
});

Unavailable('an unknown database and a refused account say what to check', async () => {
  const missing = openDatabase({ driver: 'mariadb', ...MARIADB, database: `fw_absent_${randomBytes(4).toString('hex')}`, envPrefix: 'DB_ADMIN' });
  try {
    const error = (await rejects(missing.fetchOne('SELECT 1'), (e) => e instanceof DatabaseUnavailableError, 'unknown db')) as DatabaseUnavailableError;
    assert.is(error.reason, 'unknown-database');
    assert.match(error.advice, /db:init/);
  } finally {
    await missing.close();
  }
  const denied = openDatabase({ driver: 'mariadb', ...MARIADB, user: `fw_nobody_${randomBytes(4).toString('hex')}`, password: 'x' });
  try {
    const error = (await rejects(denied.fetchOne('SELECT 1'), (e) => e instanceof DatabaseUnavailableError, 'denied')) as DatabaseUnavailableError;
    assert.is(error.reason, 'access-denied');
    assert.match(error.advice, /DB_APP_LOGIN/);
  } finally {
    await denied.close();
  }
});

Unavailable('a SQLite file in a missing folder gives DatabaseUnavailableError naming DB_FILE', async () => {
  const file = path.join(os.tmpdir(), `fw-absent-${randomBytes(4).toString('hex')}`, 'db.sqlite');
  const db = openDatabase({ driver: 'sqlite', file });
  try {
    const error = (await rejects(db.fetchOne('SELECT 1'), (e) => e instanceof DatabaseUnavailableError, 'sqlite')) as DatabaseUnavailableError;
    assert.is(error.reason, 'cannot-open');
    assert.ok(error.message.includes(file));
    assert.match(error.message, /DB_FILE/);
  } finally {
    await db.close();
  }
});

Unavailable.run();

const Lazy = suite('db-dialects: an app on one dialect never loads the other driver');

/** Runs a script in a fresh Node process; returns the driver packages that ended up loaded. */
function loadedDrivers(body: string): string[] {
  const script = `
    import { createRequire } from 'node:module';
    const runtime = await import(${JSON.stringify(path.join(REPO, 'dist', 'runtime', 'index.js'))});
    ${body}
    const loaded = Object.keys(createRequire(import.meta.url).cache);
    console.log(JSON.stringify(['mysql2', 'better-sqlite3'].filter((name) => loaded.some((file) => file.includes('/node_modules/' + name + '/')))));
  `;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: REPO, encoding: 'utf8' });
  assert.is(run.status, 0, run.stderr);
  return JSON.parse(run.stdout.trim().split('\n').pop()!);
}

Lazy('importing the runtime loads no driver; SQLite loads only better-sqlite3; MariaDB only mysql2', () => {
  assert.equal(loadedDrivers(''), []);
  assert.equal(loadedDrivers(`const db = runtime.openDatabase({ driver: 'sqlite', file: ':memory:' }); await db.fetchOne('SELECT 1'); await db.close();`), [
    'better-sqlite3',
  ]);
  assert.equal(
    loadedDrivers(
      `const db = runtime.openDatabase({ driver: 'mariadb', host: '127.0.0.1', port: 3306, user: 'root', password: '' }); await db.fetchOne('SELECT 1'); await db.close();`,
    ),
    ['mysql2'],
  );
});

Lazy.run();
