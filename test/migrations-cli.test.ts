// `fw migration:status` and `fw migration:apply` run as real processes in throw-away projects, against SQLite
// and against MariaDB (one shared suite): statuses, CRLF, refusal while CHANGED or MISSING, stop at the first
// failure, two concurrent runs, output formats, unreachable server, outside a project.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fw as runFw } from './helpers/cli.js';
import { openDatabase, type Database, type DialectName } from '../runtime/db/index.js';
import { query } from './helpers/migrations.js';
import { DIALECTS } from './helpers/dialects.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const FW = path.join(REPO, 'bin', 'fw.js');
const MARIADB = { host: '127.0.0.1', port: 3306, user: 'root', password: '' };

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The environment of a child `fw`: none of this process's DB_* or APP_ENV leaks in. */
function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('DB_') && key !== 'APP_ENV' && key !== 'FW_DEBUG') env[key] = value;
  }
  return { ...env, ...extra };
}

function fw(cwd: string, args: string[], extra: Record<string, string> = {}): Run {
  return runFw(cwd, args, { env: extra });
}

function fwAsync(cwd: string, args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [FW, ...args], { cwd, env: childEnv() });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** A throw-away project: `mvc/migrations/` and `env/dev` for the dialect, and a handle to look inside its database. */
interface Project {
  readonly root: string;
  write(name: string, text: string): void;
  remove(name: string): void;
  open(): Database;
  cleanup(): Promise<void>;
}

async function makeProject(dialect: DialectName): Promise<Project> {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fw-mig-')));
  fs.mkdirSync(path.join(root, 'mvc', 'migrations'), { recursive: true });
  fs.mkdirSync(path.join(root, 'env'));
  const dir = path.join(root, 'mvc', 'migrations');
  const name = `fw_test_${randomBytes(5).toString('hex')}`;
  if (dialect === 'sqlite') {
    fs.writeFileSync(path.join(root, 'env', 'dev'), 'DB_DRIVER=sqlite\nDB_FILE=storage/app.sqlite\n');
    fs.mkdirSync(path.join(root, 'storage'));
  } else {
    fs.writeFileSync(
      path.join(root, 'env', 'dev'),
      `DB_DRIVER=mariadb\nDB_NAME=${name}\nDB_APP_HOST=127.0.0.1\nDB_APP_PORT=3306\nDB_APP_LOGIN=root\nDB_APP_PWD=\n` +
        'DB_ADMIN_HOST=127.0.0.1\nDB_ADMIN_PORT=3306\nDB_ADMIN_LOGIN=root\nDB_ADMIN_PWD=\n',
    );
    const server = openDatabase({ driver: 'mariadb', ...MARIADB });
    await server.execute(`CREATE DATABASE \`${name}\``).finally(() => server.close());
  }
  return {
    root,
    write: (file, text) => fs.writeFileSync(path.join(dir, file), text),
    remove: (file) => fs.rmSync(path.join(dir, file)),
    open: () =>
      dialect === 'sqlite'
        ? openDatabase({ driver: 'sqlite', file: path.join(root, 'storage', 'app.sqlite') })
        : openDatabase({ driver: 'mariadb', ...MARIADB, database: name }),
    async cleanup() {
      if (dialect === 'mariadb') {
        const server = openDatabase({ driver: 'mariadb', ...MARIADB });
        await server.execute(`DROP DATABASE IF EXISTS \`${name}\``).finally(() => server.close());
      }
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

/** The status rows printed by `migration:status` (table lines only). */
function statusRows(stdout: string): string[][] {
  return stdout
    .split('\n')
    .filter((line) => /^(APPLIED|PENDING|CHANGED|MISSING) /.test(line))
    .map((line) => line.split(/\s{2,}/));
}

const A = '20240101000000_create_notes.sql';
const B = '20240102000000_add_rows.sql';
const C = '20240103000000_more_rows.sql';

function conformance(dialect: DialectName): void {
  const t = suite(`migrations-cli: ${dialect}`);
  let project: Project;
  const autoId = dialect === 'sqlite' ? 'INTEGER PRIMARY KEY AUTOINCREMENT' : 'INT AUTO_INCREMENT PRIMARY KEY';

  t.before(async () => {
    project = await makeProject(dialect);
  });
  t.after(async () => {
    await project.cleanup();
  });

  t('everything PENDING at first; status reads only (the SQLite file is not created)', () => {
    project.write(A, `-- notes\nCREATE TABLE notes (id ${autoId}, body VARCHAR(50) NOT NULL);\n`);
    project.write(B, "INSERT INTO notes (body) VALUES ('b;1');\nINSERT INTO notes (body) VALUES ('b2');\n");
    project.write(
      C,
      "-- fw:dialect mariadb\nINSERT INTO notes (body) VALUES ('c-mariadb');\n-- fw:dialect sqlite\nINSERT INTO notes (body) VALUES ('c-sqlite');\n",
    );
    const run = fw(project.root, ['migration:status']);
    assert.is(run.status, 0, run.stderr);
    assert.equal(statusRows(run.stdout), [
      ['PENDING', '20240101000000', A],
      ['PENDING', '20240102000000', B],
      ['PENDING', '20240103000000', C],
    ]);
    if (dialect === 'sqlite') assert.not.ok(fs.existsSync(path.join(project.root, 'storage', 'app.sqlite')));
  });

  t('apply runs PENDING in version order, prints each with its time, records them', async () => {
    const run = fw(project.root, ['migration:apply']);
    assert.is(run.status, 0, run.stderr);
    const lines = run.stdout.split('\n').filter((line) => line.includes('appliquée '));
    assert.is(lines.length, 3);
    [A, B, C].forEach((file, index) => assert.match(lines[index]!, new RegExp(`${file.replace('.', '\\.')}\\s+\\(\\d+ ms\\)$`)));
    assert.equal(
      (await query<{ body: string }>(project, 'SELECT body FROM notes ORDER BY id')).map((row) => row.body),
      ['b;1', 'b2', dialect === 'sqlite' ? 'c-sqlite' : 'c-mariadb'],
    );
    const records = await query<{ version: string; name: string; filename: string; checksum: string; applied_at: string; execution_ms: number }>(
      project,
      'SELECT version, name, filename, checksum, applied_at, execution_ms FROM fw_migrations ORDER BY version',
    );
    assert.equal(
      records.map((row) => [row.version, row.name, row.filename]),
      [
        ['20240101000000', 'create_notes', A],
        ['20240102000000', 'add_rows', B],
        ['20240103000000', 'more_rows', C],
      ],
    );
    for (const row of records) {
      assert.match(row.checksum, /^[0-9a-f]{64}$/);
      assert.match(String(row.applied_at), /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      assert.type(Number(row.execution_ms), 'number');
    }
    const again = fw(project.root, ['migration:apply']);
    assert.is(again.status, 0, again.stderr);
    assert.match(again.stdout, /Rien à appliquer/);
  });

  t('migration:status: the STATUT  VERSION  FICHIER table, padded; --json gives an array', () => {
    const run = fw(project.root, ['migration:status']);
    assert.is(run.status, 0, run.stderr);
    const lines = run.stdout.split('\n');
    assert.match(lines[0]!, /^STATUT {2,}VERSION {2,}FICHIER$/);
    const versionAt = lines[0]!.indexOf('VERSION');
    const fileAt = lines[0]!.indexOf('FICHIER');
    for (const line of lines.slice(1, 4)) {
      assert.is(line.indexOf('2024'), versionAt, line);
      assert.is(line.indexOf('2024', versionAt + 14), fileAt, line);
      assert.ok(line.startsWith('APPLIED'), line);
    }
    assert.match(run.stdout, /3 APPLIED, 0 PENDING, 0 CHANGED, 0 MISSING\./);
    const json = fw(project.root, ['migration:status', '--json']);
    assert.is(json.status, 0, json.stderr);
    const parsed = JSON.parse(json.stdout) as Array<{ status: string; version: string; filename: string; appliedAt: string | null }>;
    assert.ok(Array.isArray(parsed));
    assert.equal(
      parsed.map((entry) => [entry.status, entry.filename]),
      [
        ['APPLIED', A],
        ['APPLIED', B],
        ['APPLIED', C],
      ],
    );
    assert.ok(parsed.every((entry) => typeof entry.appliedAt === 'string'));
  });

  t('CRLF line endings do not make a migration CHANGED', () => {
    const file = path.join(project.root, 'mvc', 'migrations', B);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/\n/g, '\r\n'));
    const run = fw(project.root, ['migration:status']);
    assert.equal(
      statusRows(run.stdout).map((row) => row[0]),
      ['APPLIED', 'APPLIED', 'APPLIED'],
    );
  });

  t('CHANGED: apply refuses, names it, applies nothing (a new PENDING file stays PENDING)', async () => {
    const file = path.join(project.root, 'mvc', 'migrations', B);
    const original = fs.readFileSync(file);
    fs.writeFileSync(file, `${original.toString('utf8')}\nINSERT INTO notes (body) VALUES ('edited');\n`);
    project.write('20240104000000_later.sql', "INSERT INTO notes (body) VALUES ('d');\n");
    try {
      assert.equal(
        statusRows(fw(project.root, ['migration:status']).stdout).map((row) => row[0]),
        ['APPLIED', 'CHANGED', 'APPLIED', 'PENDING'],
      );
      const run = fw(project.root, ['migration:apply']);
      assert.is(run.status, 1);
      assert.match(run.stderr, /^Erreur : migration:apply refuse/);
      assert.match(run.stderr, new RegExp(`CHANGED ${B.replace('.', '\\.')}`));
      assert.match(run.stderr, /\nConseil : /);
      assert.is((await query(project, "SELECT * FROM notes WHERE body = 'd'")).length, 0);
    } finally {
      fs.writeFileSync(file, original);
    }
  });

  t('MISSING: a recorded migration without its file; apply refuses and names it', async () => {
    const file = path.join(project.root, 'mvc', 'migrations', C);
    const original = fs.readFileSync(file);
    project.remove(C);
    try {
      const status = fw(project.root, ['migration:status']);
      assert.equal(statusRows(status.stdout), [
        ['APPLIED', '20240101000000', A],
        ['APPLIED', '20240102000000', B],
        ['MISSING', '20240103000000', C],
        ['PENDING', '20240104000000', '20240104000000_later.sql'],
      ]);
      const run = fw(project.root, ['migration:apply']);
      assert.is(run.status, 1);
      assert.match(run.stderr, new RegExp(`MISSING ${C.replace('.', '\\.')}`));
      assert.is((await query(project, "SELECT * FROM notes WHERE body = 'd'")).length, 0);
    } finally {
      fs.writeFileSync(file, original);
    }
    const run = fw(project.root, ['migration:apply']);
    assert.is(run.status, 0, run.stderr);
    assert.match(run.stdout, /20240104000000_later\.sql/);
  });

  t('stops at the first failure without recording it; the next files are not applied', async () => {
    project.write('20240105000000_broken.sql', `CREATE TABLE half (id ${autoId});\nINSERT INTO no_such_table VALUES (1);\n`);
    project.write('20240106000000_after.sql', `CREATE TABLE after_broken (id ${autoId});\n`);
    const run = fw(project.root, ['migration:apply']);
    assert.is(run.status, 1);
    assert.match(run.stderr, /^Erreur : la migration « 20240105000000_broken\.sql » a échoué à l'instruction 2\/2 \(ligne 2\)/);
    assert.match(run.stderr, /INSERT INTO no_such_table VALUES \(1\)/);
    if (dialect === 'mariadb') assert.match(run.stderr, /ont peut-être déjà été validées/);
    else assert.match(run.stderr, /annulée en entier/);
    const versions = (await query<{ version: string }>(project, 'SELECT version FROM fw_migrations ORDER BY version')).map((row) => row.version.trim());
    assert.not.ok(versions.includes('20240105000000'));
    assert.not.ok(versions.includes('20240106000000'));
    const tables = (
      await query<{ name: string }>(
        project,
        dialect === 'sqlite'
          ? "SELECT name FROM sqlite_master WHERE type = 'table'"
          : 'SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE()',
      )
    ).map((row) => row.name);
    assert.not.ok(tables.includes('after_broken'));
    // SQLite ran the file in a transaction; MariaDB committed the CREATE TABLE implicitly.
    assert.is(tables.includes('half'), dialect === 'mariadb');
    assert.equal(
      statusRows(fw(project.root, ['migration:status']).stdout)
        .slice(-2)
        .map((row) => row[0]),
      ['PENDING', 'PENDING'],
    );

    project.write('20240105000000_broken.sql', `CREATE TABLE IF NOT EXISTS half (id ${autoId});\n`);
    const fixed = fw(project.root, ['migration:apply']);
    assert.is(fixed.status, 0, fixed.stderr);
    assert.is(fixed.stdout.split('\n').filter((line) => line.includes('appliquée ')).length, 2);
  });

  t('a misnamed .sql file is listed as an error, and apply refuses', () => {
    project.write('notes.sql', 'SELECT 1;');
    project.write('README.md', 'not SQL, ignored');
    try {
      const status = fw(project.root, ['migration:status']);
      assert.is(status.status, 1);
      assert.match(status.stderr, /^Erreur : mvc\/migrations\/notes\.sql : nom invalide/);
      assert.match(status.stderr, /\nConseil : renommez ces fichiers/);
      assert.not.match(status.stderr, /README/);
      // No table nor count over a folder it refuses (« 0 APPLIED… » before the error was misleading).
      assert.is(status.stdout, '');
      const json = fw(project.root, ['migration:status', '--json']);
      assert.is(json.status, 1);
      assert.is(json.stdout, '');
      const apply = fw(project.root, ['migration:apply']);
      assert.is(apply.status, 1);
      assert.match(apply.stderr, /notes\.sql/);
    } finally {
      project.remove('notes.sql');
      project.remove('README.md');
    }
  });

  t.run();
}

for (const dialect of DIALECTS) conformance(dialect);

const Concurrent = suite('migrations-cli: two migration:apply processes at once');

for (const dialect of DIALECTS) {
  Concurrent(`${dialect}: each migration is applied exactly once`, async () => {
    const project = await makeProject(dialect);
    try {
      const autoId = dialect === 'sqlite' ? 'INTEGER PRIMARY KEY AUTOINCREMENT' : 'INT AUTO_INCREMENT PRIMARY KEY';
      project.write('20240101000000_counter.sql', `CREATE TABLE counter (id ${autoId}, migration VARCHAR(40) NOT NULL);\n`);
      // Each file is slow enough for the runs to overlap (a sleep on MariaDB, a long recursive count on SQLite).
      const slow =
        '-- fw:dialect mariadb\nDO SLEEP(0.15);\n' +
        '-- fw:dialect sqlite\nWITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 200000) SELECT COUNT(*) FROM c;\n' +
        '-- fw:dialect all\n';
      const files = ['20240102000000_one', '20240103000000_two', '20240104000000_three', '20240105000000_four'];
      for (const file of files) project.write(`${file}.sql`, `${slow}INSERT INTO counter (migration) VALUES ('${file}');\n`);
      const [first, second] = await Promise.all([fwAsync(project.root, ['migration:apply']), fwAsync(project.root, ['migration:apply'])]);
      assert.is(first.status, 0, first.stderr);
      assert.is(second.status, 0, second.stderr);
      const appliedLines = `${first.stdout}${second.stdout}`.split('\n').filter((line) => line.includes('appliquée '));
      assert.is(appliedLines.length, 5, `${first.stdout}\n---\n${second.stdout}`);
      const rows = await query<{ migration: string }>(project, 'SELECT migration FROM counter ORDER BY id');
      assert.equal(
        rows.map((row) => row.migration),
        files,
      );
      assert.is((await query(project, 'SELECT version FROM fw_migrations')).length, 5);
    } finally {
      await project.cleanup();
    }
  });
}

Concurrent.run();

const Errors = suite('migrations-cli: unreachable server, outside a project');

Errors('an unreachable server: exit 1 with host:port and the variables, no hang', async () => {
  const project = await makeProject('sqlite');
  try {
    fs.writeFileSync(
      path.join(project.root, 'env', 'dev'),
      'DB_DRIVER=mariadb\nDB_NAME=fw_nowhere\nDB_APP_LOGIN=app\nDB_ADMIN_HOST=127.0.0.1\nDB_ADMIN_PORT=1\nDB_ADMIN_LOGIN=root\n',
    );
    const run = fw(project.root, ['migration:status']);
    assert.is(run.status, 1);
    assert.match(run.stderr, /^Erreur : impossible de joindre le serveur MariaDB 127\.0\.0\.1:1 /);
    assert.match(run.stderr, /\nConseil : .*DB_ADMIN_HOST et DB_ADMIN_PORT/);
    // Without DB_ADMIN_LOGIN the application account is used, and named.
    const app = fw(project.root, ['migration:status'], { DB_ADMIN_LOGIN: '', DB_APP_PORT: '1' });
    assert.is(app.status, 1);
    assert.match(app.stderr, /DB_APP_HOST et DB_APP_PORT/);
  } finally {
    await project.cleanup();
  }
});

Errors('every pending file is checked before the first runs: BEGIN/COMMIT in a SQLite migration stops the run', async () => {
  const project = await makeProject('sqlite');
  try {
    project.write('20240101000000_fine.sql', 'CREATE TABLE fine (id INTEGER);\n');
    project.write('20240102000000_own_tx.sql', 'BEGIN;\nCREATE TABLE mine (id INTEGER);\nCOMMIT;\n');
    const run = fw(project.root, ['migration:apply']);
    assert.is(run.status, 1);
    assert.match(run.stderr, /^Erreur : 20240102000000_own_tx\.sql, ligne 1 : « BEGIN »/);
    assert.match(run.stderr, /aucune migration n'a été appliquée/);
    assert.is((await query(project, "SELECT name FROM sqlite_master WHERE name = 'fine'")).length, 0);
  } finally {
    await project.cleanup();
  }
});

Errors("outside a project: Erreur … n'est pas un projet fw, exit 1", () => {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fw-noproject-')));
  try {
    for (const command of ['migration:status', 'migration:apply', 'db:init']) {
      const run = fw(dir, [command]);
      assert.is(run.status, 1, command);
      assert.match(run.stderr, /^Erreur : le dossier « .* » n'est pas un projet fw/);
      assert.match(run.stderr, /\nConseil : /);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

Errors.run();
