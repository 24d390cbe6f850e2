// The database checks (FW-DB-*) over a corpus of projects, checked in a separate process that must report exactly the
// expected id, status and exit code, the tree untouched: SQLite (a file that does not exist yet is a WARN and is not
// created; an existing file is read from a copy, never opened in place) and the real MariaDB (answering, refusing the
// connection, a listener that never answers, not configured), and the drift `migration:diff --all` shows.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runChecks } from '../cli/checks/check.js';
import { projectContext, type ProjectContext } from '../cli/checks/context.js';
import { DB_CHECKS, DB_DEFINITIONS } from '../cli/checks/db.js';
import { MIGR_CHECKS } from '../cli/checks/migr.js';
import { ROUTE_CHECKS } from '../cli/checks/route.js';
import { openDatabase } from '../runtime/db/index.js';
import { fw, type CliProject } from './helpers/cli.js';
import { assertProblems, byId, Copies, diagnoseInert } from './helpers/diagnostics-families.js';
import { CONTACT_FILE, newVilleContactProject } from './helpers/migrations.js';

const SQLITE = 'storage/database.sqlite';
const test = suite<{ sqlite: CliProject; mariadb: CliProject; copies: Copies; mariaCopies: Copies }>('diagnostics: the database checks');

test.before(async (context) => {
  context.sqlite = (await newVilleContactProject('sqlite')).project;
  context.copies = new Copies(context.sqlite.root);
  context.mariadb = (await newVilleContactProject('mariadb')).project;
  context.mariaCopies = new Copies(context.mariadb.root);
});

test.after(async ({ sqlite, mariadb, copies, mariaCopies }) => {
  copies?.cleanup();
  mariaCopies?.cleanup();
  await sqlite?.cleanup();
  await mariadb?.cleanup();
});

/** A field added to Contact's entity file: its column is missing from the table. */
const addField = (root: string): void => {
  const file = path.join(root, CONTACT_FILE);
  const data = JSON.parse(fs.readFileSync(file, 'utf8')) as { fields: unknown[] };
  data.fields.push({ name: 'telephone', sql_type: 'VARCHAR(20)', nullable: true });
  fs.writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`);
};

test('SQLite: the file answers and matches the entities; it is read from a copy (no -wal or -shm left beside it)', ({ copies }) => {
  const diagnosis = diagnoseInert(copies.make(), ['db'], 'doctor');
  assertProblems(diagnosis, []);
  assert.equal(
    diagnosis.checks.map((c) => `${c.id} ${c.status}`),
    DB_DEFINITIONS.map((d) => `${d.id} OK`),
  );
  assert.match(byId(diagnosis, 'FW-DB-001')[0]!.detail!, /^SQLite storage\/database\.sqlite répond \(\d+ ms\)$/);
  assert.is(byId(diagnosis, 'FW-DB-002')[0]!.detail, '2 entité(s) conforme(s) à SQLite storage/database.sqlite');
});

test('in process: the db, migr and route checks of one context read the database once and the routes once', async ({ copies }) => {
  const root = copies.make(addField);
  const saved = { ...process.env };
  try {
    const context = projectContext(root, 'doctor');
    const reads = new Map<string, number>();
    const counted: ProjectContext = {
      ...context,
      once: (key, read) => context.once(key, () => (reads.set(key, (reads.get(key) ?? 0) + 1), read())),
    };
    const results = await runChecks([...DB_CHECKS, ...MIGR_CHECKS, ...ROUTE_CHECKS], counted);
    assert.equal(
      results.filter((r) => r.status !== 'OK').map((r) => `${r.id} ${r.status}`),
      ['FW-DB-002 WARN'],
    );
    assert.equal(Object.fromEntries(reads), { 'database.reads': 1, 'model.compiled': 1, 'migr.folder': 1, 'route.analysis': 1 });
  } finally {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
  }
});

test('FW-DB-001 WARN: a SQLite file that does not exist yet, never created by the check', ({ copies }) => {
  const root = copies.make((r) => fs.rmSync(path.join(r, SQLITE)));
  const diagnosis = diagnoseInert(root, ['db'], 'doctor');
  assertProblems(diagnosis, ['FW-DB-001 WARN']);
  assert.is(byId(diagnosis, 'FW-DB-001')[0]!.detail, "le fichier SQLite storage/database.sqlite n'existe pas encore");
  assert.is(byId(diagnosis, 'FW-DB-002')[0]!.status, 'SKIP');
  assert.not.ok(fs.existsSync(path.join(root, SQLITE)));
});

test('FW-DB-001 FAIL: a SQLite file that is not a database, named by its path in the project', ({ copies }) => {
  const diagnosis = diagnoseInert(
    copies.make((r) => fs.writeFileSync(path.join(r, SQLITE), 'pas une base SQLite\n')),
    ['db'],
    'doctor',
  );
  assertProblems(diagnosis, ['FW-DB-001 FAIL']);
  assert.is(byId(diagnosis, 'FW-DB-001')[0]!.detail, "impossible d'ouvrir la base SQLite storage/database.sqlite (file is not a database)");
});

test('FW-DB-002 WARN: an entity whose table differs (SQLite), as migration:diff --all shows it', ({ copies }) => {
  // The field is in the entity file only: the generated code does not read its column yet, so it is a difference.
  const diagnosis = diagnoseInert(copies.make(addField), ['db'], 'doctor');
  assertProblems(diagnosis, ['FW-DB-002 WARN']);
  const [warn] = byId(diagnosis, 'FW-DB-002');
  assert.is(warn!.detail, 'Contact (contact) : 1 écart(s) : COLUMN_MISSING Telephone');
  assert.is(warn!.hint, '« fw migration:diff --entity Contact » les détaille, « fw migration:make <nom> --from-diff Contact » prépare la migration');
});

test('MariaDB: the application account connects, the tables match; a drift is a WARN', ({ mariaCopies }) => {
  const diagnosis = diagnoseInert(mariaCopies.make(), ['db'], 'doctor');
  assertProblems(diagnosis, []);
  assert.match(byId(diagnosis, 'FW-DB-001')[0]!.detail!, /^MariaDB 127\.0\.0\.1:3306\/fw_pipe_\w+ répond \(\d+ ms\)$/);
  assertProblems(diagnoseInert(mariaCopies.make(addField), ['db'], 'doctor'), ['FW-DB-002 WARN']);
});

test('FW-DB-001 FAIL: a closed port, or a wrong password, named with host and port', ({ mariaCopies }) => {
  const root = mariaCopies.make();
  const closed = diagnoseInert(root, ['db'], 'doctor', { DB_APP_PORT: '1' });
  assertProblems(closed, ['FW-DB-001 FAIL']);
  assert.is(byId(closed, 'FW-DB-001')[0]!.detail, 'impossible de joindre le serveur MariaDB 127.0.0.1:1 (ECONNREFUSED)');
  assert.is(byId(closed, 'FW-DB-002')[0]!.detail, 'base non lue (voir FW-DB-001)');
  const refused = diagnoseInert(root, ['db'], 'doctor', { DB_APP_PWD: 'pas-le-bon' });
  assertProblems(refused, ['FW-DB-001 FAIL']);
  assert.match(
    byId(refused, 'FW-DB-001')[0]!.detail!,
    /^le serveur MariaDB 127\.0\.0\.1:3306 refuse le compte « fw_pipe_app_\w+ » sur la base « fw_pipe_\w+ »$/,
  );
});

test('FW-DB-001 FAIL within a few seconds: a server that accepts the connection and never answers', async ({ mariaCopies }) => {
  const sockets: net.Socket[] = [];
  const silent = net.createServer((socket) => void sockets.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const port = (silent.address() as net.AddressInfo).port;
  try {
    const diagnosis = diagnoseInert(mariaCopies.make(), ['db', 'migr'], 'doctor', { DB_APP_PORT: String(port) });
    assertProblems(diagnosis, ['FW-DB-001 FAIL']);
    assert.is(byId(diagnosis, 'FW-DB-001')[0]!.detail, `impossible de joindre le serveur MariaDB 127.0.0.1:${port} (ETIMEDOUT, pas de réponse en 3 s)`);
    assert.ok(diagnosis.ms < 10_000, `${diagnosis.ms} ms`);
  } finally {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  }
});

test('FW-DB-001 SKIP: MariaDB not configured (no application account), with the reason', ({ mariaCopies }) => {
  const diagnosis = diagnoseInert(
    mariaCopies.make((r) =>
      fs.writeFileSync(path.join(r, 'env/dev'), fs.readFileSync(path.join(r, 'env/dev'), 'utf8').replace(/^DB_APP_LOGIN=.*$/m, 'DB_APP_LOGIN=')),
    ),
    ['db'],
    'doctor',
  );
  assertProblems(diagnosis, []);
  assert.equal(
    diagnosis.checks.map((c) => `${c.id} ${c.status} ${c.detail}`),
    [
      'FW-DB-001 SKIP base non configurée : DB_APP_LOGIN est vide dans env/dev',
      'FW-DB-002 SKIP base non lue (voir FW-DB-001)',
      'FW-DB-003 SKIP base non lue (voir FW-DB-001)',
    ],
  );
});

/** The SQLite copy at `root` given `statements` (the application would see the same database). */
async function alter(root: string, statements: readonly string[]): Promise<void> {
  const db = openDatabase({ driver: 'sqlite', file: path.join(root, SQLITE) });
  try {
    for (const statement of statements) await db.execute(statement);
  } finally {
    await db.close();
  }
}

test('FW-DB-003 FAIL: a column the generated code reads, dropped by hand; an extra column stays a WARN (FW-DB-002)', async ({ copies }) => {
  const root = copies.make();
  await alter(root, ['ALTER TABLE contact DROP COLUMN nom', 'ALTER TABLE ville ADD COLUMN note TEXT']);
  const diagnosis = diagnoseInert(root, ['db'], 'doctor');
  assertProblems(diagnosis, ['FW-DB-002 WARN', 'FW-DB-003 FAIL']);
  const [fail] = byId(diagnosis, 'FW-DB-003');
  assert.is(
    fail!.detail,
    'Contact (contact) : colonne Nom absente de SQLite storage/database.sqlite, alors que le code généré la lit : ses pages répondent 500',
  );
  assert.match(fail!.hint!, /« fw migration:make <nom> --from-diff Contact »/);
  assert.is(byId(diagnosis, 'FW-DB-002')[0]!.detail, 'Ville (ville) : 1 écart(s) : COLUMN_EXTRA note');
});

test('FW-DB-003 FAIL: a table dropped by hand; fw doctor and fw project:check exit 1 and count the error', async ({ copies }) => {
  const root = copies.make();
  await alter(root, ['DROP TABLE contact']);
  const diagnosis = diagnoseInert(root, ['db'], 'project:check');
  assertProblems(diagnosis, ['FW-DB-003 FAIL']);
  assert.match(byId(diagnosis, 'FW-DB-003')[0]!.detail!, /^Contact \(contact\) : table contact absente de SQLite storage\/database\.sqlite/);
  for (const command of ['doctor', 'project:check']) {
    const run = fw(root, [command]);
    assert.is(run.status, 1, `${command} : ${run.stdout}${run.stderr}`);
    assert.match(run.stdout, /\[FAIL\]\s+FW-DB-003 /);
    assert.not.match(run.stdout, / 0 erreur\(s\)/);
  }
});

test('project:check: a database that does not answer is a SKIP (the schema is compared only when one answers)', ({ mariaCopies }) => {
  const diagnosis = diagnoseInert(mariaCopies.make(), ['db'], 'project:check', { DB_APP_PORT: '1' });
  assertProblems(diagnosis, []);
  assert.is(byId(diagnosis, 'FW-DB-001')[0]!.status, 'SKIP');
  assert.match(byId(diagnosis, 'FW-DB-001')[0]!.detail!, /^base injoignable : impossible de joindre le serveur MariaDB 127\.0\.0\.1:1/);
});

test.run();
