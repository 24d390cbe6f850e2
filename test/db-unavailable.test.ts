// A database that cannot be reached gives DatabaseUnavailableError at every entry point of the runtime layer
// (queries, transaction(), withConnection()), and the commands that hold one connection (migration:apply) or
// run many statements (db:apply) report it as an unreachable server: `Erreur : … host:port`, a `Conseil :` on
// the DB_* settings, exit 1, never as the failure of a statement. Port 1 of 127.0.0.1 is closed.
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DatabaseUnavailableError, openDatabase, type Database } from '../runtime/db/index.js';
import { lines, MARIADB_ADMIN, newProject } from './helpers/cli.js';

const CLOSED = { host: '127.0.0.1', port: 1, user: 'root', password: '', database: 'fw_nowhere' } as const;

/** The rejection of `run(db)`, which must be a DatabaseUnavailableError; `fn` must never have been entered. */
async function unavailable(db: Database, run: (db: Database, entered: () => void) => Promise<unknown>): Promise<DatabaseUnavailableError> {
  let entered = false;
  try {
    await run(db, () => (entered = true));
  } catch (error) {
    assert.ok(error instanceof DatabaseUnavailableError, `unexpected ${String(error)}`);
    assert.not.ok(entered, 'the callback ran without a connection');
    return error;
  }
  assert.unreachable('should have been rejected');
  throw new Error('unreachable');
}

const Runtime = suite('db-unavailable: runtime entry points');

Runtime('MariaDB on a closed port: fetchOne, transaction() and withConnection() all give DatabaseUnavailableError', async () => {
  const db = openDatabase({ driver: 'mariadb', ...CLOSED, envPrefix: 'DB_ADMIN' });
  try {
    const entries: Array<[string, (db: Database, entered: () => void) => Promise<unknown>]> = [
      ['fetchOne', (d) => d.fetchOne('SELECT 1')],
      ['transaction', (d, entered) => d.transaction(async (tx) => (entered(), tx.fetchOne('SELECT 1')))],
      ['withConnection', (d, entered) => d.withConnection(async (c) => (entered(), c.fetchOne('SELECT 1')))],
    ];
    for (const [name, run] of entries) {
      const error = await unavailable(db, run);
      assert.is(error.reason, 'unreachable', name);
      assert.match(error.message, /^Impossible de joindre le serveur MariaDB 127\.0\.0\.1:1 \(ECONNREFUSED\)\. /, name);
      assert.match(error.advice, /DB_ADMIN_HOST et DB_ADMIN_PORT/, name);
    }
  } finally {
    await db.close();
  }
});

Runtime('SQLite in a missing folder: transaction() and withConnection() give DatabaseUnavailableError naming DB_FILE', async () => {
  const file = path.join(os.tmpdir(), `fw-absent-${randomBytes(4).toString('hex')}`, 'db.sqlite');
  const db = openDatabase({ driver: 'sqlite', file });
  try {
    for (const run of [
      (d: Database, entered: () => void) => d.transaction(async () => entered()),
      (d: Database, entered: () => void) => d.withConnection(async () => entered()),
    ]) {
      const error = await unavailable(db, run);
      assert.is(error.reason, 'cannot-open');
      assert.ok(error.message.includes(file));
      assert.match(error.advice, /DB_FILE/);
    }
  } finally {
    await db.close();
  }
});

Runtime('an error thrown inside the callback passes unchanged (only the connection is translated)', async () => {
  // Each error carries the code its driver's translation would turn into DatabaseUnavailableError had the connection
  // failed: ECONNREFUSED for MariaDB (a real server), SQLITE_CANTOPEN for SQLite.
  const handles: Array<[string, Database, string]> = [
    ['mariadb', openDatabase({ driver: 'mariadb', ...MARIADB_ADMIN, poolSize: 1 }), 'ECONNREFUSED'],
    ['sqlite', openDatabase({ driver: 'sqlite', file: ':memory:' }), 'SQLITE_CANTOPEN'],
  ];
  try {
    for (const [driver, db, code] of handles) {
      const runs: Array<[string, (mine: Error, entered: () => void) => Promise<unknown>]> = [
        ['transaction', (mine, entered) => db.transaction(async (tx) => (await tx.fetchOne('SELECT 1'), entered(), Promise.reject(mine)))],
        ['withConnection', (mine, entered) => db.withConnection(async (c) => (await c.fetchOne('SELECT 1'), entered(), Promise.reject(mine)))],
        ['transaction (sync throw)', (mine, entered) => db.transaction(async () => (entered(), thrower(mine)))],
        ['withConnection (sync throw)', (mine, entered) => db.withConnection(async () => (entered(), thrower(mine)))],
      ];
      for (const [name, run] of runs) {
        const label = `${driver} ${name}`;
        const mine = Object.assign(new Error(`mine: ${label}`), { code });
        let entered = false;
        let caught: unknown = 'not rejected';
        await run(mine, () => (entered = true)).catch((error: unknown) => (caught = error));
        assert.ok(entered, `${label}: the callback ran`);
        assert.not.ok(caught instanceof DatabaseUnavailableError, `${label}: translated into ${String(caught)}`);
        assert.ok(caught === mine, `${label}: caught ${String(caught)}`);
        assert.is((caught as { code?: unknown }).code, code, label);
      }
      // The handle still works after the callbacks' failures.
      assert.equal(await db.fetchOne<{ one: number }>('SELECT 1 AS one'), { one: 1 }, driver);
    }
  } finally {
    for (const [, db] of handles) await db.close();
  }
});

function thrower(error: Error): never {
  throw error;
}

Runtime.run();

const Cli = suite('db-unavailable: commands against a closed port');
const ENV_CLOSED =
  'DB_DRIVER=mariadb\nDB_NAME=fw_nowhere\nDB_APP_HOST=127.0.0.1\nDB_APP_PORT=1\nDB_APP_LOGIN=app\nDB_APP_PWD=\n' +
  'DB_ADMIN_HOST=127.0.0.1\nDB_ADMIN_PORT=1\nDB_ADMIN_LOGIN=root\nDB_ADMIN_PWD=\n';
const UNREACHABLE = [
  'Erreur : impossible de joindre le serveur MariaDB 127.0.0.1:1 (ECONNREFUSED).',
  "Conseil : vérifiez que le serveur est démarré et les variables DB_ADMIN_HOST et DB_ADMIN_PORT (env/dev ou l'environnement du processus).",
];

Cli('migration:apply, db:apply and migration:status: the unreachable server, its settings, exit 1, nothing else', async () => {
  const project = newProject('Injoignable');
  try {
    for (const args of [['make:entity', 'Contact', '--no-input'], ['build:model']]) {
      const run = project.run(args);
      assert.is(run.status, 0, run.stderr);
    }
    project.write('mvc/migrations/20240101000000_notes.sql', 'CREATE TABLE notes (id INT);\n');
    const kept = project
      .read('env/dev')
      .split('\n')
      .filter((line) => !line.startsWith('DB_'));
    project.write('env/dev', `${kept.join('\n').trimEnd()}\n${ENV_CLOSED}`);
    for (const command of ['migration:apply', 'db:apply', 'migration:status']) {
      const run = project.run([command]);
      assert.is(run.status, 1, `${command}: ${run.stdout}${run.stderr}`);
      assert.equal(lines(run.stderr), UNREACHABLE, command);
      // Not a statement's failure: no ÉCHEC line, no "instruction 1", no "may already be committed".
      assert.not.match(run.stdout, /ÉCHEC|instruction|appliqu/, command);
    }
  } finally {
    await project.cleanup();
  }
});

Cli.run();
