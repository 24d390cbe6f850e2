/**
 * The CLI section: wall time of the real `fw` commands (`node bin/fw.js ...`, one process per run, as a user types
 * them) in a temporary project made by `fw new Bench --no-install` on SQLite. One untimed run first (it also warms
 * the file cache), then `runs` timed runs; the median is compared to the target.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BENCH_DIR, median, printTable } from './shared.mjs';

const FW = path.join(BENCH_DIR, '..', 'bin', 'fw.js');
export const ENTITIES = 100;
const MIGRATIONS = 1000;
const MAX_SECONDS = { 'sync:entity': 0.5, 'build:model': 5, 'migration:status': 1 };

/** The environment of the commands: this one without DB_* and APP_* (the project's env/dev decides). */
function childEnv() {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('DB_') && !key.startsWith('APP_')));
}

/** Runs `fw <args>` in `cwd`; its wall time in ms. Throws with the command's output when it fails. */
export function fw(cwd, args) {
  const t0 = performance.now();
  const result = spawnSync(process.execPath, [FW, ...args], { cwd, env: childEnv(), encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
  const ms = performance.now() - t0;
  if (result.status !== 0) {
    throw new Error(`fw ${args.join(' ')} exited with ${result.status ?? result.signal}:\n${result.stdout.slice(-2000)}${result.stderr.slice(-2000)}`);
  }
  return { ms, stdout: result.stdout };
}

export const writeJson = (file, value) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
};

/** An entity with the usual mix of field types; `variant` changes a length, so that the generated files change too. */
export function entity(name, table, variant = 0, extra = []) {
  return {
    $schema: '../../../node_modules/fw-mvc/schemas/entity.schema.json',
    format_version: 1,
    entity: name,
    table,
    description: `Entité de mesure ${name}`,
    primary_key: { name: 'id', sql_type: 'INT', auto_increment: true },
    fields: [
      { name: 'nom', sql_type: `VARCHAR(${100 + variant})`, constraints: { not_empty: true, max_length: 100 }, list: { filter: true } },
      { name: 'email', sql_type: 'VARCHAR(254)', unique: true },
      { name: 'actif', sql_type: 'BOOLEAN', list: { filter: true } },
      { name: 'solde', sql_type: 'NUMERIC(10,2)', python_type: 'Decimal', nullable: true },
      { name: 'ne_le', sql_type: 'DATE', nullable: true },
      { name: 'notes', sql_type: 'TEXT', nullable: true },
      ...extra,
    ],
  };
}

const itemName = (i) => `Item${String(i).padStart(3, '0')}`;
const itemTable = (i) => `item${String(i).padStart(3, '0')}`;

/** 99 entities besides Contact, each with a many-to-one relation to Contact. */
export function addEntities(root) {
  const relations = [];
  for (let i = 1; i < ENTITIES; i++) {
    writeJson(
      path.join(root, 'mvc', 'entities', itemTable(i), `${itemTable(i)}.json`),
      entity(itemName(i), itemTable(i), 0, [{ name: 'contact_id', sql_type: 'INT', nullable: true, list: { filter: true } }]),
    );
    relations.push({
      name: `${itemTable(i)}_contact`,
      type: 'many_to_one',
      from_entity: itemName(i),
      from_field: 'contact_id',
      to_entity: 'Contact',
      to_field: 'id',
      on_delete: 'SET NULL',
    });
  }
  writeJson(path.join(root, 'mvc', 'entities', 'relations.json'), {
    $schema: '../../node_modules/fw-mvc/schemas/relations.schema.json',
    format_version: 1,
    relations,
  });
}

/** Deletes every generated file under mvc/entities/ (the JSON files stay), so that build:model writes them all again. */
function removeGenerated(root) {
  const dir = path.join(root, 'mvc', 'entities');
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && !entry.name.endsWith('.json') && entry.name !== '.gitkeep') fs.rmSync(path.join(entry.parentPath ?? entry.path, entry.name));
  }
}

/** `YYYYMMDDHHMMSS` of 2026-01-01 00:00 UTC plus `i` minutes. */
function version(i) {
  return new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

function writeMigrations(root, from, to) {
  for (let i = from; i < to; i++) {
    const sql =
      i === 0
        ? '-- fw:dialect mariadb\nCREATE TABLE `bench_log` (`Id` INT AUTO_INCREMENT PRIMARY KEY, `Step` INT NOT NULL);\n-- fw:dialect sqlite\nCREATE TABLE "bench_log" ("Id" INTEGER PRIMARY KEY, "Step" INTEGER NOT NULL);\n'
        : `-- Migration ${i}.\n-- fw:dialect mariadb\nINSERT INTO \`bench_log\` (\`Step\`) VALUES (${i});\n-- fw:dialect sqlite\nINSERT INTO "bench_log" ("Step") VALUES (${i});\n`;
    fs.writeFileSync(path.join(root, 'mvc', 'migrations', `${version(i)}_step_${i}.sql`), sql);
  }
}

/** One untimed run, then `runs` timed ones, each after `before()`. */
export function measure(label, command, target, runs, root, args, before = () => {}, check = () => {}) {
  before(-1);
  check(fw(root, args).stdout);
  const times = [];
  for (let run = 0; run < runs; run++) {
    before(run);
    const { ms, stdout } = fw(root, args);
    check(stdout);
    times.push(ms / 1000);
  }
  const seconds = median(times);
  console.log(`${label.padEnd(52)} ${times.map((t) => t.toFixed(3)).join(' ')} s`);
  return { command: label, target_command: command, seconds, min: Math.min(...times), max: Math.max(...times), runs: times, max_seconds: target };
}

export function expect(pattern, what) {
  return (stdout) => {
    if (!pattern.test(stdout)) throw new Error(`${what}: unexpected output\n${stdout.slice(-1500)}`);
  };
}

/** Runs the section. `settings`: { runs }. */
export async function runCli(settings) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-bench-'));
  const root = path.join(tmp, 'Bench');
  const rows = [];
  try {
    fw(tmp, ['new', 'Bench', '--no-install']);
    console.log(`project: fw new Bench --no-install in ${tmp} (SQLite); ${settings.runs} timed runs after one untimed run; wall time of each process`);
    const contact = path.join(root, 'mvc', 'entities', 'contact', 'contact.json');

    // A project with one entity; each run follows an edit of it (VARCHAR length), so its SQL and base class are rewritten.
    const edit = (run) => writeJson(contact, entity('Contact', 'contact', run + 2));
    rows.push(
      measure(
        'sync:entity Contact (1 entity, after an edit)',
        'sync:entity',
        MAX_SECONDS['sync:entity'],
        settings.runs,
        root,
        ['sync:entity', 'Contact'],
        edit,
        expect(/mis à jour|créé/, 'sync:entity'),
      ),
    );

    addEntities(root);
    rows.push(
      measure(
        `sync:entity Contact (${ENTITIES} entities, after an edit)`,
        'sync:entity',
        MAX_SECONDS['sync:entity'],
        settings.runs,
        root,
        ['sync:entity', 'Contact'],
        edit,
        expect(/mis à jour/, 'sync:entity'),
      ),
    );
    rows.push(
      measure(
        `build:model (${ENTITIES} entities, every file written)`,
        'build:model',
        MAX_SECONDS['build:model'],
        settings.runs,
        root,
        ['build:model'],
        () => removeGenerated(root),
        expect(/créés/, 'build:model'),
      ),
    );
    rows.push(
      measure(
        `build:model (${ENTITIES} entities, nothing changed)`,
        'build:model',
        MAX_SECONDS['build:model'],
        settings.runs,
        root,
        ['build:model'],
        () => {},
        expect(/inchangés\.\s*$/, 'build:model'),
      ),
    );

    // Half of the migrations applied, half pending: status reads and checksums every file and the fw_migrations rows.
    fw(root, ['db:init']);
    writeMigrations(root, 0, MIGRATIONS / 2);
    fw(root, ['migration:apply']);
    writeMigrations(root, MIGRATIONS / 2, MIGRATIONS);
    const half = MIGRATIONS / 2;
    rows.push(
      measure(
        `migration:status (SQLite, ${MIGRATIONS} files: ${half} applied)`,
        'migration:status',
        MAX_SECONDS['migration:status'],
        settings.runs,
        root,
        ['migration:status'],
        () => {},
        expect(new RegExp(`${half} APPLIED, ${half} PENDING, 0 CHANGED, 0 MISSING`), 'migration:status'),
      ),
    );
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }

  printTable(
    ['command', 'median s', 'min s', 'max s', 'target'],
    rows.map((r) => [r.command, r.seconds.toFixed(3), r.min.toFixed(3), r.max.toFixed(3), `< ${r.max_seconds} s`]),
  );
  const targets = rows.map((r) => ({ target: `fw ${r.command} < ${r.max_seconds} s`, value: Number(r.seconds.toFixed(3)), pass: r.seconds < r.max_seconds }));
  return { settings: { ...settings, entities: ENTITIES, migrations: MIGRATIONS }, results: rows.map(({ target_command: _c, ...r }) => r), targets };
}
