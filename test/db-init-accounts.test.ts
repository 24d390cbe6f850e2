// `fw db:init` on MariaDB: which hosts the application account is created for (local by default, DB_APP_ACCOUNT_HOSTS
// or --app-hosts otherwise, never '%' unless asked), which privileges it gets (DB_APP_PRIVILEGES, refused when a
// name is unknown), and what those privileges allow: the default four let the application work but not migrate,
// the documented schema list lets `fw migration:apply` run with the application account alone. Every account
// and database made here is dropped afterwards.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fw as runFw } from './helpers/cli.js';
import { openDatabase, type Database } from '../runtime/db/index.js';

const MARIADB = { host: '127.0.0.1', port: 3306, user: 'root', password: '' };

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function fw(cwd: string, args: string[], extra: Record<string, string> = {}): Run {
  return runFw(cwd, args, { env: extra });
}

async function withServer<T>(fn: (server: Database) => Promise<T>): Promise<T> {
  const server = openDatabase({ driver: 'mariadb', ...MARIADB });
  try {
    return await fn(server);
  } finally {
    await server.close();
  }
}

/** A project on its own database and application login; `cleanup` drops both, on every host. */
function setup(extraEnv = '', appHost = '127.0.0.1') {
  const suffix = randomBytes(4).toString('hex');
  const database = `fw_test_${suffix}`;
  const login = `fw_app_${suffix}`;
  const password = `pw_${suffix}`;
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fw-init-acc-')));
  fs.mkdirSync(path.join(root, 'mvc', 'migrations'), { recursive: true });
  fs.mkdirSync(path.join(root, 'env'));
  fs.writeFileSync(
    path.join(root, 'env', 'dev'),
    `DB_DRIVER=mariadb\nDB_NAME=${database}\nDB_APP_HOST=${appHost}\nDB_APP_PORT=3306\nDB_APP_LOGIN=${login}\nDB_APP_PWD=${password}\n` +
      `DB_ADMIN_HOST=127.0.0.1\nDB_ADMIN_PORT=3306\nDB_ADMIN_LOGIN=root\nDB_ADMIN_PWD=\n${extraEnv}`,
  );
  return {
    root,
    database,
    login,
    password,
    hosts: () =>
      withServer(async (server) =>
        (await server.fetchAll<{ host: string }>('SELECT Host AS host FROM mysql.user WHERE User = ? ORDER BY Host', [login])).map((r) => r.host),
      ),
    grants: (host: string) =>
      withServer(async (server) => (await server.fetchAll('SHOW GRANTS FOR ?@?', [login, host])).map((row) => String(Object.values(row)[0]))),
    databaseExists: () =>
      withServer(async (server) => (await server.fetchOne('SELECT 1 AS found FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?', [database])) !== null),
    async cleanup() {
      await withServer(async (server) => {
        await server.execute(`DROP DATABASE IF EXISTS \`${database}\``);
        const accounts = await server.fetchAll<{ host: string }>('SELECT Host AS host FROM mysql.user WHERE User = ?', [login]);
        for (const { host } of accounts) await server.execute('DROP USER IF EXISTS ?@?', [login, host]);
      });
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

/** A migration that does what the schema commands do: a table with an index and a foreign key, an ALTER, a DROP. */
const MIGRATION =
  'CREATE TABLE proprietaire (id INT AUTO_INCREMENT PRIMARY KEY, nom VARCHAR(80) NOT NULL);\n' +
  'CREATE TABLE animal (id INT AUTO_INCREMENT PRIMARY KEY, proprietaire_id INT NOT NULL,\n' +
  '  CONSTRAINT fk_animal_proprietaire FOREIGN KEY (proprietaire_id) REFERENCES proprietaire (id));\n' +
  'CREATE INDEX ix_proprietaire_nom ON proprietaire (nom);\n' +
  'ALTER TABLE animal ADD COLUMN nom VARCHAR(80) NULL;\n' +
  'CREATE TABLE brouillon (id INT PRIMARY KEY);\n' +
  'DROP TABLE brouillon;\n';

test('an unknown privilege in DB_APP_PRIVILEGES is refused by name, before anything is created', async () => {
  const project = setup('DB_APP_PRIVILEGES=SELECT, insrt,ALL PRIVILEGES\n');
  try {
    const run = fw(project.root, ['db:init']);
    assert.is(run.status, 1, run.stdout);
    assert.match(run.stderr, /^Erreur : DB_APP_PRIVILEGES : « INSRT », « ALL PRIVILEGES » n'est pas un privilège que db:init accorde sur une base\.\n/);
    assert.match(run.stderr, /\nConseil : corrigez DB_APP_PRIVILEGES dans env\/dev .*parmi : SELECT, INSERT, UPDATE, DELETE, CREATE/);
    assert.is(await project.databaseExists(), false);
    assert.equal(await project.hosts(), []);
  } finally {
    await project.cleanup();
  }
});

test('a remote DB_APP_HOST needs the hosts spelled out; --app-hosts creates the account there only', async () => {
  const project = setup('', 'db.invalid');
  try {
    const refused = fw(project.root, ['db:init']);
    assert.is(refused.status, 1, refused.stdout);
    assert.match(refused.stderr, /^Erreur : DB_APP_HOST vaut « db\.invalid » : le serveur MariaDB n'est pas sur cette machine/);
    assert.match(refused.stderr, /\nConseil : .*DB_APP_ACCOUNT_HOSTS=10\.0\.0\.5 dans env\/dev, ou « fw db:init --app-hosts 10\.0\.0\.5 »/);
    assert.is(await project.databaseExists(), false);

    const badHost = fw(project.root, ['db:init', '--app-hosts', "10.0.0.5,x'y"]);
    assert.is(badHost.status, 1);
    assert.match(badHost.stderr, /^Erreur : --app-hosts : « x'y » n'est pas un hôte de compte MariaDB\./);
    assert.equal(await project.hosts(), []);

    const run = fw(project.root, ['db:init', '--app-hosts', '10.11.12.%']);
    assert.is(run.status, 0, run.stderr);
    assert.match(run.stdout, new RegExp(`créé +compte '${project.login}'@'10\\.11\\.12\\.%'`));
    assert.equal(await project.hosts(), ['10.11.12.%']);
    const grants = await project.grants('10.11.12.%');
    assert.match(grants[1]!, /^GRANT SELECT, INSERT, UPDATE, DELETE ON /);

    // The same from the environment key; a host dropped from the list is reported with its DROP USER, kept.
    const moved = fw(project.root, ['db:init'], { DB_APP_ACCOUNT_HOSTS: '10.11.13.4' });
    assert.is(moved.status, 0, moved.stderr);
    assert.match(moved.stdout, new RegExp(`créé +compte '${project.login}'@'10\\.11\\.13\\.4'`));
    assert.match(moved.stdout, new RegExp(`en trop +compte '${project.login}'@'10\\.11\\.12\\.%' — .*DROP USER '${project.login}'@'10\\.11\\.12\\.%';`));
    assert.equal(await project.hosts(), ['10.11.12.%', '10.11.13.4']);
  } finally {
    await project.cleanup();
  }
});

test("an account left on '%' by an earlier db:init is reported with its DROP USER, never dropped", async () => {
  const project = setup();
  try {
    await withServer((server) => server.execute("CREATE USER ?@'%' IDENTIFIED BY 'x'", [project.login]));
    const run = fw(project.root, ['db:init']);
    assert.is(run.status, 0, run.stderr);
    assert.match(run.stdout, new RegExp(`en trop +compte '${project.login}'@'%' — db:init crée ce compte pour localhost, 127\\.0\\.0\\.1 seulement`));
    assert.ok(run.stdout.includes(`DROP USER '${project.login}'@'%';`), run.stdout);
    assert.match(run.stderr, /^Attention : le compte applicatif a des droits ou des hôtes en plus/);
    assert.equal(await project.hosts(), ['%', '127.0.0.1', 'localhost']);
  } finally {
    await project.cleanup();
  }
});

test('the default four privileges run the application but no migration; the schema list runs migration:apply alone', async () => {
  const dml = setup();
  try {
    assert.is(fw(dml.root, ['db:init']).status, 0);
    fs.writeFileSync(path.join(dml.root, 'mvc', 'migrations', '20260101000000_schema.sql'), MIGRATION);
    // Without DB_ADMIN_LOGIN, migration:apply takes the application account: the four privileges do not allow DDL.
    const run = fw(dml.root, ['migration:apply'], { DB_ADMIN_LOGIN: '' });
    assert.is(run.status, 1, run.stdout);
    assert.match(run.stderr, /CREATE command denied/);
  } finally {
    await dml.cleanup();
  }

  const schema = setup('DB_APP_PRIVILEGES=select, insert, update, delete, create, alter, index, references, drop\n');
  try {
    const init = fw(schema.root, ['db:init']);
    assert.is(init.status, 0, init.stderr);
    const escaped = schema.database.replace(/_/g, '\\\\_');
    for (const host of ['localhost', '127.0.0.1']) {
      const grants = await schema.grants(host);
      assert.is(grants.length, 2, grants.join('\n'));
      assert.match(grants[1]!, new RegExp(`^GRANT SELECT, INSERT, UPDATE, DELETE, CREATE, DROP, REFERENCES, INDEX, ALTER ON \`${escaped}\`\\.\\* TO `));
    }
    assert.is(fw(schema.root, ['db:init']).stderr, '', 'a second run finds the grants in place, nothing extra');
    fs.writeFileSync(path.join(schema.root, 'mvc', 'migrations', '20260101000000_schema.sql'), MIGRATION);
    const run = fw(schema.root, ['migration:apply'], { DB_ADMIN_LOGIN: '' });
    assert.is(run.status, 0, run.stderr);
    const app = openDatabase({ driver: 'mariadb', host: '127.0.0.1', port: 3306, user: schema.login, password: schema.password, database: schema.database });
    try {
      const id = await app.insert('INSERT INTO proprietaire (nom) VALUES (?)', ['Michel']);
      await app.execute('INSERT INTO animal (proprietaire_id, nom) VALUES (?, ?)', [id, 'Chat']);
      assert.equal(await app.fetchAll('SELECT version FROM fw_migrations'), [{ version: '20260101000000' }]);
    } finally {
      await app.close();
    }
  } finally {
    await schema.cleanup();
  }
});

test.run();
