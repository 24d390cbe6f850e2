/**
 * The diagnostics section (docs/diagnostics.md): wall time of `fw project:check` and `fw doctor` as a user types them
 * (one `node bin/fw.js` process per run), in a project made by `fw new Diag --no-install` with 100 entities (the CLI
 * section's: Contact and 99 entities with a many-to-one relation to it) and every generated file written. `doctor`
 * runs with the database answering: on MariaDB (a throw-away database on 127.0.0.1:3306 made by `fw db:init` and
 * `fw db:apply`, dropped afterwards with its application account) and on SQLite (the same, on the project's file).
 * Goals: project:check ≤ 2 s, doctor ≤ 3 s (median of the timed runs).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BENCH_DIR, printTable } from './shared.mjs';
import { addEntities, entity, ENTITIES, expect, fw, measure, writeJson } from './cli.mjs';

const MAX_SECONDS = { 'project:check': 2, doctor: 3 };
const MARIADB = { host: '127.0.0.1', port: 3306, user: 'root', password: '' };

/** Replaces the DB_* lines of env/dev, keeping its other keys. */
function writeDbEnv(root, lines) {
  const file = path.join(root, 'env', 'dev');
  const kept = fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => !line.startsWith('DB_'));
  fs.writeFileSync(file, `${kept.join('\n').trimEnd()}\n\n${lines.join('\n')}\n`);
}

/** Drops the bench's MariaDB database and application account (both hosts db:init creates for 127.0.0.1). */
async function dropMariaDb(database, appLogin) {
  const { openDatabase } = await import(path.join(BENCH_DIR, '..', 'dist', 'runtime', 'db', 'index.js'));
  const server = openDatabase({ driver: 'mariadb', ...MARIADB, poolSize: 1 });
  try {
    await server.execute(`DROP DATABASE IF EXISTS \`${database}\``);
    for (const host of ['localhost', '127.0.0.1']) await server.execute('DROP USER IF EXISTS ?@?', [appLogin, host]);
  } finally {
    await server.close();
  }
}

/** Runs the section. `settings`: { runs }. */
export async function runDiagBench(settings) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-bench-diag-'));
  const root = path.join(tmp, 'Diag');
  const id = randomBytes(5).toString('hex');
  const database = `fw_bench_diag_${id}`;
  const appLogin = `fw_bench_app_${id}`;
  let mariadbMade = false;
  const rows = [];
  const noFailure = expect(/ 0 erreur\(s\)\.\n$/, 'no FAIL');
  try {
    fw(tmp, ['new', 'Diag', '--no-install']);
    writeJson(path.join(root, 'mvc', 'entities', 'contact', 'contact.json'), entity('Contact', 'contact'));
    addEntities(root);
    fw(root, ['build:model']);
    console.log(`project: fw new Diag --no-install in ${tmp}, ${ENTITIES} entities, build:model; ${settings.runs} timed runs after one untimed run`);

    rows.push(
      measure(
        `project:check (${ENTITIES} entities)`,
        'project:check',
        MAX_SECONDS['project:check'],
        settings.runs,
        root,
        ['project:check'],
        () => {},
        noFailure,
      ),
    );

    writeDbEnv(root, [
      'DB_DRIVER=mariadb',
      `DB_NAME=${database}`,
      `DB_APP_HOST=${MARIADB.host}`,
      `DB_APP_PORT=${MARIADB.port}`,
      `DB_APP_LOGIN=${appLogin}`,
      `DB_APP_PWD=${randomBytes(12).toString('hex')}`,
      `DB_ADMIN_HOST=${MARIADB.host}`,
      `DB_ADMIN_PORT=${MARIADB.port}`,
      `DB_ADMIN_LOGIN=${MARIADB.user}`,
      `DB_ADMIN_PWD=${MARIADB.password}`,
    ]);
    mariadbMade = true;
    fw(root, ['db:init']);
    fw(root, ['db:apply']);
    rows.push(measure(`doctor (${ENTITIES} entities, MariaDB answering)`, 'doctor', MAX_SECONDS.doctor, settings.runs, root, ['doctor'], () => {}, noFailure));

    writeDbEnv(root, ['DB_DRIVER=sqlite', 'DB_FILE=storage/database.sqlite']);
    fw(root, ['db:init']);
    fw(root, ['db:apply']);
    rows.push(measure(`doctor (${ENTITIES} entities, SQLite answering)`, 'doctor', MAX_SECONDS.doctor, settings.runs, root, ['doctor'], () => {}, noFailure));
  } finally {
    if (mariadbMade) await dropMariaDb(database, appLogin);
    fs.rmSync(tmp, { recursive: true, force: true });
  }

  printTable(
    ['command', 'median s', 'min s', 'max s', 'goal'],
    rows.map((r) => [r.command, r.seconds.toFixed(3), r.min.toFixed(3), r.max.toFixed(3), `≤ ${r.max_seconds} s`]),
  );
  const targets = rows.map((r) => ({ target: `fw ${r.command} ≤ ${r.max_seconds} s`, value: Number(r.seconds.toFixed(3)), pass: r.seconds <= r.max_seconds }));
  return { settings: { ...settings, entities: ENTITIES }, results: rows.map(({ target_command: _c, ...r }) => r), targets };
}
