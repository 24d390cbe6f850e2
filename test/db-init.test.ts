// `fw db:init` as a real process: on MariaDB it creates the database, an application account for local hosts
// only whose grants are exactly SELECT, INSERT, UPDATE, DELETE on that database, fw_migrations and fw_sessions
// (hosts and privileges set by hand: db-init-accounts.test.ts); on SQLite the folder,
// the file, fw_migrations and fw_sessions. A second run finds everything present.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fw } from './helpers/cli.js';
import { openDatabase, type Database } from '../runtime/db/index.js';
import { readColumns, readIndexes } from '../cli/db/schema.js';

const MARIADB = { host: '127.0.0.1', port: 3306, user: 'root', password: '' };

function project(env: string): string {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fw-init-')));
  fs.mkdirSync(path.join(root, 'mvc', 'migrations'), { recursive: true });
  fs.mkdirSync(path.join(root, 'env'));
  fs.writeFileSync(path.join(root, 'env', 'dev'), env);
  return root;
}

/** The step lines of db:init (two spaces, a fate, two spaces, the subject). */
function steps(stdout: string): string[] {
  return stdout.split('\n').filter((line) => line.startsWith('  '));
}

/** fw_sessions as db:init makes it (docs/decisions.md#framework-tables): its columns (name, type, nullable, key) and its two indexes. */
async function assertSessionsTable(db: Database): Promise<void> {
  const mariadb = db.driver === 'mariadb';
  const columns = (await readColumns(db, 'fw_sessions'))?.map((c) => [c.name, c.type.toLowerCase(), c.nullable, c.key]);
  const datetime = mariadb ? 'datetime' : 'text';
  assert.equal(columns, [
    ['session_id', 'char(64)', false, 'PRI'],
    ['data', mariadb ? 'mediumtext' : 'text', false, ''],
    ['user_id', 'varchar(255)', true, 'MUL'],
    ['expires_at', datetime, false, 'MUL'],
    ['created_at', datetime, false, ''],
    ['updated_at', datetime, false, ''],
  ]);
  const indexes = (await readIndexes(db, 'fw_sessions')).map((index) => [index.name, index.unique, index.columns]);
  assert.equal(indexes.sort(), [
    ['ix_fw_sessions_expires_at', false, ['expires_at']],
    ['ix_fw_sessions_user_id', false, ['user_id']],
  ]);
}

async function withServer<T>(fn: (server: Database) => Promise<T>): Promise<T> {
  const server = openDatabase({ driver: 'mariadb', ...MARIADB });
  try {
    return await fn(server);
  } finally {
    await server.close();
  }
}

const Maria = suite('db-init: MariaDB');
const suffix = randomBytes(4).toString('hex');
const database = `fw_test_${suffix}`;
const login = `fw_app_${suffix}`;
const password = `p'w"\\${suffix}`;
let root = '';

Maria.before(() => {
  root = project(
    `DB_DRIVER=mariadb\nDB_NAME=${database}\nDB_APP_HOST=127.0.0.1\nDB_APP_PORT=3306\nDB_APP_LOGIN=${login}\nDB_APP_PWD=${password}\n` +
      'DB_ADMIN_HOST=127.0.0.1\nDB_ADMIN_PORT=3306\nDB_ADMIN_LOGIN=root\nDB_ADMIN_PWD=\n',
  );
});

Maria.after(async () => {
  await withServer(async (server) => {
    await server.execute(`DROP DATABASE IF EXISTS \`${database}\``);
    const accounts = await server.fetchAll<{ host: string }>('SELECT Host AS host FROM mysql.user WHERE User = ?', [login]);
    for (const { host } of accounts) await server.execute('DROP USER IF EXISTS ?@?', [login, host]);
  });
  fs.rmSync(root, { recursive: true, force: true });
});

Maria('creates the database, the account on localhost and 127.0.0.1 (never %), the grants, fw_migrations, fw_sessions', async () => {
  const run = fw(root, ['db:init']);
  assert.is(run.status, 0, run.stderr);
  const lines = steps(run.stdout);
  assert.is(lines.length, 7, run.stdout);
  assert.match(lines[0]!, new RegExp(`^  créé +base ${database} — utf8mb4$`));
  assert.match(run.stdout, new RegExp(`créé +compte '${login}'@'localhost'`));
  assert.match(run.stdout, new RegExp(`créé +compte '${login}'@'127\\.0\\.0\\.1'`));
  assert.match(run.stdout, /accordé +SELECT, INSERT, UPDATE, DELETE sur/);
  assert.match(lines[5]!, /^ {2}créé +table fw_migrations$/);
  assert.match(lines[6]!, /^ {2}créé +table fw_sessions$/);

  await withServer(async (server) => {
    const schema = await server.fetchOne<{ charset: string }>(
      'SELECT DEFAULT_CHARACTER_SET_NAME AS charset FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?',
      [database],
    );
    assert.is(schema?.charset, 'utf8mb4');
    const hosts = await server.fetchAll<{ host: string }>('SELECT Host AS host FROM mysql.user WHERE User = ? ORDER BY Host', [login]);
    assert.equal(
      hosts.map((row) => row.host),
      ['127.0.0.1', 'localhost'],
    );
    for (const host of ['localhost', '127.0.0.1']) {
      const grants = (await server.fetchAll(`SHOW GRANTS FOR ?@?`, [login, host])).map((row) => String(Object.values(row)[0]));
      assert.is(grants.length, 2, grants.join('\n'));
      assert.match(grants[0]!, new RegExp(`^GRANT USAGE ON \\*\\.\\* TO \`${login}\`@\`${host}\``));
      const escaped = database.replace(/_/g, '\\\\_');
      assert.match(grants[1]!, new RegExp(`^GRANT SELECT, INSERT, UPDATE, DELETE ON \`${escaped}\`\\.\\* TO \`${login}\`@\`${host}\`$`));
    }
    const table = await server.fetchOne("SELECT 1 AS found FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = 'fw_migrations'", [database]);
    assert.ok(table);
  });
  const base = openDatabase({ driver: 'mariadb', ...MARIADB, database });
  try {
    await assertSessionsTable(base);
  } finally {
    await base.close();
  }

  // The application account connects with DB_APP_PWD, reads and writes rows, and cannot change the schema.
  const app = openDatabase({ driver: 'mariadb', host: '127.0.0.1', port: 3306, user: login, password, database });
  try {
    assert.equal(await app.fetchAll('SELECT version FROM fw_migrations'), []);
    assert.equal(await app.fetchAll('SELECT session_id FROM fw_sessions'), [], 'the application account reads the session table');
    let denied: unknown;
    await app.execute('CREATE TABLE sneaky (id INT)').catch((error: unknown) => (denied = error));
    assert.is((denied as { errno?: number } | undefined)?.errno, 1142, String(denied));
  } finally {
    await app.close();
  }
});

Maria('a second run is idempotent: everything already present', () => {
  const run = fw(root, ['db:init']);
  assert.is(run.status, 0, run.stderr);
  const lines = steps(run.stdout);
  assert.is(lines.length, 7, run.stdout);
  for (const line of lines) assert.match(line, /^ {2}déjà (présent|accordé) /);
  assert.match(run.stdout, /Rien à faire/);
});

Maria('extra privileges of the application account are reported with their REVOKE, never revoked', async () => {
  const escaped = database.replace(/_/g, '\\_');
  await withServer(async (server) => {
    await server.execute(`GRANT CREATE, DROP, ALTER ON \`${escaped}\`.* TO ?@'127.0.0.1'`, [login]);
    await server.execute("GRANT RELOAD ON *.* TO ?@'localhost'", [login]);
  });
  const run = fw(root, ['db:init']);
  assert.is(run.status, 0, run.stderr);
  const extra = steps(run.stdout).filter((line) => line.startsWith('  en trop'));
  assert.equal(
    extra.map((line) => line.replace(/^ {2}en trop +/, '')),
    [
      `RELOAD sur toutes les bases (*.*) à '${login}'@'localhost' — le compte applicatif ne devrait avoir que SELECT, INSERT, UPDATE, DELETE ; ` +
        `pour les retirer : REVOKE RELOAD ON *.* FROM '${login}'@'localhost';`,
      `CREATE, DROP, ALTER sur ${database}.* à '${login}'@'127.0.0.1' — le compte applicatif ne devrait avoir que SELECT, INSERT, UPDATE, DELETE ; ` +
        `pour les retirer : REVOKE CREATE, DROP, ALTER ON \`${escaped}\`.* FROM '${login}'@'127.0.0.1';`,
    ],
  );
  // The four privileges are still reported as granted, not granted twice.
  assert.is(steps(run.stdout).filter((line) => /^ {2}déjà accordé +SELECT, INSERT, UPDATE, DELETE/.test(line)).length, 2, run.stdout);
  assert.match(run.stderr, /^Attention : le compte applicatif a des droits ou des hôtes en plus de ceux que db:init accorde/);
  assert.match(run.stderr, /\nConseil : lancez les REVOKE ou DROP USER indiqués/);

  await withServer(async (server) => {
    // Nothing was revoked by db:init; the printed statements take the extra rights away.
    const grants = (await server.fetchAll("SHOW GRANTS FOR ?@'127.0.0.1'", [login])).map((row) => String(Object.values(row)[0]));
    assert.ok(
      grants.some((line) => /\bCREATE, DROP, ALTER ON /.test(line)),
      grants.join('\n'),
    );
    for (const line of extra) await server.execute(/(REVOKE .*);$/.exec(line)![1]!);
  });
  const clean = fw(root, ['db:init']);
  assert.is(clean.status, 0, clean.stderr);
  assert.is(clean.stderr, '');
  assert.not.match(clean.stdout, /en trop/);
  assert.match(clean.stdout, /Rien à faire/);
});

Maria('ALL PRIVILEGES on the database: reported, with the advice to run db:init again after the REVOKE', async () => {
  const escaped = database.replace(/_/g, '\\_');
  await withServer((server) => server.execute(`GRANT ALL PRIVILEGES ON \`${escaped}\`.* TO ?@'127.0.0.1'`, [login]));
  const run = fw(root, ['db:init']);
  assert.is(run.status, 0, run.stderr);
  const extra = steps(run.stdout).filter((line) => line.startsWith('  en trop'));
  assert.is(extra.length, 1, run.stdout);
  assert.ok(
    extra[0]!.endsWith(
      `REVOKE ALL PRIVILEGES ON \`${escaped}\`.* FROM '${login}'@'127.0.0.1'; puis relancez « fw db:init » (REVOKE ALL retire aussi les droits voulus)`,
    ),
    extra[0],
  );
  await withServer((server) => server.execute(`REVOKE ALL PRIVILEGES ON \`${escaped}\`.* FROM ?@'127.0.0.1'`, [login]));
  const again = fw(root, ['db:init']);
  assert.is(again.status, 0, again.stderr);
  assert.match(again.stdout, new RegExp(`  accordé +SELECT, INSERT, UPDATE, DELETE sur ${database}\\.\\* à '${login}'@'127\\.0\\.0\\.1'`));
  assert.is(again.stderr, '');
});

Maria('when the application login is the admin login, no account is created', async () => {
  const name = `fw_test_${randomBytes(4).toString('hex')}`;
  const dir = project(`DB_DRIVER=mariadb\nDB_NAME=${name}\nDB_APP_LOGIN=root\nDB_ADMIN_LOGIN=root\n`);
  try {
    const run = fw(dir, ['db:init']);
    assert.is(run.status, 0, run.stderr);
    assert.match(run.stdout, /ignoré +compte applicatif root — DB_APP_LOGIN est aussi le compte administrateur/);
    assert.not.ok(
      steps(run.stdout).some((line) => /accordé|compte '/.test(line)),
      run.stdout,
    );
  } finally {
    await withServer((server) => server.execute(`DROP DATABASE IF EXISTS \`${name}\``));
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

Maria('identifiers are validated before any DDL', () => {
  const dir = project('DB_DRIVER=mariadb\nDB_NAME=bad-name`; DROP DATABASE x\nDB_APP_LOGIN=app\nDB_ADMIN_LOGIN=root\n');
  try {
    const run = fw(dir, ['db:init']);
    assert.is(run.status, 1);
    assert.match(run.stderr, /^Erreur : DB_NAME « bad-name`; DROP DATABASE x » n'est pas un nom de base accepté\./);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const badLogin = project(`DB_DRIVER=mariadb\nDB_NAME=fw_x\nDB_APP_LOGIN=app'@'%\nDB_ADMIN_LOGIN=root\n`);
  try {
    const run = fw(badLogin, ['db:init']);
    assert.is(run.status, 1);
    assert.match(run.stderr, /DB_APP_LOGIN « app'@'% » n'est pas un nom de compte accepté/);
  } finally {
    fs.rmSync(badLogin, { recursive: true, force: true });
  }
});

Maria.run();

const Lite = suite('db-init: SQLite');

Lite('creates the folder, the file, fw_migrations and fw_sessions; a second run finds them', async () => {
  const dir = project('DB_DRIVER=sqlite\nDB_FILE=storage/data/app.sqlite\n');
  try {
    const run = fw(dir, ['db:init']);
    assert.is(run.status, 0, run.stderr);
    assert.equal(
      steps(run.stdout).map((line) => line.trim().replace(/\s+/g, ' ')),
      ['créé dossier storage/data', 'créé fichier SQLite storage/data/app.sqlite', 'créé table fw_migrations', 'créé table fw_sessions'],
    );
    const db = openDatabase({ driver: 'sqlite', file: path.join(dir, 'storage', 'data', 'app.sqlite') });
    try {
      assert.equal(await db.fetchAll('SELECT version FROM fw_migrations'), []);
      await assertSessionsTable(db);
    } finally {
      await db.close();
    }
    const again = fw(dir, ['db:init']);
    assert.is(again.status, 0, again.stderr);
    assert.equal(
      steps(again.stdout).map((line) => line.trim().replace(/\s+/g, ' ')),
      ['déjà présent fichier SQLite storage/data/app.sqlite', 'déjà présent table fw_migrations', 'déjà présent table fw_sessions'],
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

Lite.run();
