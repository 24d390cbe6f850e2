// The migration checks (FW-MIGR-*) over a corpus of broken projects: the Ville / Contact project of the migration
// tests (its `init` migration applied), copied and given one defect each, checked in a separate process that must
// report exactly the expected id and status and exit code, the tree untouched; against SQLite and the real MariaDB.
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { MIGR_DEFINITIONS } from '../cli/checks/migr.js';
import type { CliProject } from './helpers/cli.js';
import { assertProblems, byId, Copies, diagnoseInert, edit, write } from './helpers/diagnostics-families.js';
import { newVilleContactProject } from './helpers/migrations.js';

const DIR = 'mvc/migrations';
const test = suite<{ sqlite: CliProject; init: string; copies: Copies }>('diagnostics: the migration checks on broken projects');

test.before(async (context) => {
  const made = await newVilleContactProject('sqlite');
  context.sqlite = made.project;
  context.init = made.init;
  context.copies = new Copies(made.project.root);
});

test.after(async ({ sqlite, copies }) => {
  copies?.cleanup();
  await sqlite?.cleanup();
});

test('applied migrations: every migration check OK, in id order, exit 0', ({ copies }) => {
  const diagnosis = diagnoseInert(copies.make(), ['migr']);
  assertProblems(diagnosis, []);
  assert.equal(
    diagnosis.checks.map((c) => `${c.id} ${c.status}`),
    MIGR_DEFINITIONS.map((d) => `${d.id} OK`),
  );
  assert.is(byId(diagnosis, 'FW-MIGR-004')[0]!.detail, 'aucune (SQLite storage/database.sqlite)');
});

test('FW-MIGR-001 FAIL: a misnamed file, an impossible timestamp, a link in place of a file, a looping folder', ({ copies }) => {
  const cases: Array<[(root: string) => void, string, string]> = [
    [
      (r) => write(r, `${DIR}/2026_carte.sql`, 'SELECT 1;\n'),
      `${DIR}/2026_carte.sql`,
      'nom invalide, attendu YYYYMMDDHHMMSS_<nom>.sql (lettres, chiffres, « _ », « - »)',
    ],
    [
      (r) => write(r, `${DIR}/20261399000000_carte.sql`, 'SELECT 1;\n'),
      `${DIR}/20261399000000_carte.sql`,
      'horodatage invalide « 20261399000000 » (AAAAMMJJHHMMSS)',
    ],
    [
      (r) => fs.symlinkSync('20990101000000_boucle.sql', path.join(r, DIR, '20990101000000_boucle.sql')),
      `${DIR}/20990101000000_boucle.sql`,
      "ce n'est pas un fichier",
    ],
  ];
  for (const [defect, file, reason] of cases) {
    const diagnosis = diagnoseInert(copies.make(defect), ['migr']);
    assertProblems(diagnosis, ['FW-MIGR-001 FAIL']);
    const [fail] = byId(diagnosis, 'FW-MIGR-001');
    assert.equal([fail!.file, fail!.detail], [file, `${file} : ${reason}`]);
  }
  const loop = copies.make((r) => (fs.rmSync(path.join(r, DIR), { recursive: true }), fs.symlinkSync('migrations', path.join(r, DIR))));
  const diagnosis = diagnoseInert(loop, ['migr']);
  assertProblems(diagnosis, ['FW-MIGR-001 FAIL']);
  assert.is(byId(diagnosis, 'FW-MIGR-001')[0]!.detail, `${DIR} ne se lit pas (boucle de liens symboliques)`);
  assert.ok(diagnosis.checks.filter((c) => c.id !== 'FW-MIGR-001').every((c) => c.status === 'SKIP'));
});

test('FW-MIGR-002 FAIL: an empty (blank) migration file', ({ copies }) => {
  const diagnosis = diagnoseInert(
    copies.make((r) => write(r, `${DIR}/20990101000000_vide.sql`, '  \n\n')),
    ['migr'],
  );
  assertProblems(diagnosis, ['FW-MIGR-002 FAIL']);
  assert.is(byId(diagnosis, 'FW-MIGR-002')[0]!.file, `${DIR}/20990101000000_vide.sql`);
});

test('FW-MIGR-003 FAIL: two files with one version (migration:status and migration:apply refuse the folder)', ({ copies, init }) => {
  const version = init.slice(0, 14);
  const diagnosis = diagnoseInert(
    copies.make((r) => write(r, `${DIR}/${version}_autre.sql`, 'SELECT 1;\n')),
    ['migr'],
  );
  assertProblems(diagnosis, ['FW-MIGR-003 FAIL']);
  const [fail] = byId(diagnosis, 'FW-MIGR-003');
  assert.is(fail!.detail, `${DIR}/${init} : même version que « ${version}_autre.sql »`);
});

test('FW-MIGR-004 WARN: a migration not applied yet, and every one when the SQLite file does not exist (never created)', ({ copies, init }) => {
  const pending = diagnoseInert(
    copies.make((r) => write(r, `${DIR}/20990101000000_carte.sql`, 'CREATE TABLE carte (id INTEGER PRIMARY KEY);\n')),
    ['migr'],
  );
  assertProblems(pending, ['FW-MIGR-004 WARN']);
  assert.is(byId(pending, 'FW-MIGR-004')[0]!.detail, '1 non appliquée(s) à SQLite storage/database.sqlite : 20990101000000_carte.sql');
  const root = copies.make((r) => fs.rmSync(path.join(r, 'storage/database.sqlite')));
  const noFile = diagnoseInert(root, ['migr', 'db'], 'doctor');
  assertProblems(noFile, ['FW-DB-001 WARN', 'FW-MIGR-004 WARN']);
  assert.is(byId(noFile, 'FW-MIGR-004')[0]!.detail, `1 non appliquée(s) à SQLite storage/database.sqlite, pas encore créé : ${init}`);
  assert.not.ok(fs.existsSync(path.join(root, 'storage/database.sqlite')));
});

test('FW-MIGR-005 FAIL: an applied migration whose file changed since', ({ copies, init }) => {
  const diagnosis = diagnoseInert(
    copies.make((r) => edit(r, `${DIR}/${init}`, (text) => `${text}-- modifié après coup\n`)),
    ['migr'],
  );
  assertProblems(diagnosis, ['FW-MIGR-005 FAIL']);
  assert.is(byId(diagnosis, 'FW-MIGR-005')[0]!.file, `${DIR}/${init}`);
});

test('FW-MIGR-006 FAIL: an applied migration whose file is gone', ({ copies, init }) => {
  const diagnosis = diagnoseInert(
    copies.make((r) => fs.rmSync(path.join(r, DIR, init))),
    ['migr'],
  );
  assertProblems(diagnosis, ['FW-MIGR-006 FAIL']);
  assert.is(byId(diagnosis, 'FW-MIGR-006')[0]!.detail, `${init} est appliquée à SQLite storage/database.sqlite mais absente de ${DIR}`);
});

test('MariaDB: PENDING, CHANGED and MISSING read from the real server; an unreachable server makes them SKIP', async () => {
  const { project, init } = await newVilleContactProject('mariadb');
  const copies = new Copies(project.root);
  try {
    const target = `MariaDB 127.0.0.1:3306/${(project.read('env/dev').match(/^DB_NAME=(.*)$/m) ?? [])[1]}`;
    assertProblems(diagnoseInert(copies.make(), ['migr']), []);
    const pending = diagnoseInert(
      copies.make((r) => write(r, `${DIR}/20990101000000_carte.sql`, 'SELECT 1;\n')),
      ['migr'],
    );
    assertProblems(pending, ['FW-MIGR-004 WARN']);
    assert.is(byId(pending, 'FW-MIGR-004')[0]!.detail, `1 non appliquée(s) à ${target} : 20990101000000_carte.sql`);
    assertProblems(
      diagnoseInert(
        copies.make((r) => edit(r, `${DIR}/${init}`, (text) => `${text}\n-- x\n`)),
        ['migr'],
      ),
      ['FW-MIGR-005 FAIL'],
    );
    assertProblems(
      diagnoseInert(
        copies.make((r) => fs.rmSync(path.join(r, DIR, init))),
        ['migr'],
      ),
      ['FW-MIGR-006 FAIL'],
    );
    const closed = diagnoseInert(copies.make(), ['migr'], 'doctor', { DB_APP_PORT: '1' });
    assertProblems(closed, []);
    assert.equal(
      closed.checks.filter((c) => c.status === 'SKIP').map((c) => c.id),
      ['FW-MIGR-004', 'FW-MIGR-005', 'FW-MIGR-006'],
    );
    assert.match(byId(closed, 'FW-MIGR-004')[0]!.detail!, /^base injoignable : impossible de joindre le serveur MariaDB 127\.0\.0\.1:1 \(ECONNREFUSED\)$/);
  } finally {
    copies.cleanup();
    await project.cleanup();
  }
});

test.run();
