/**
 * `npm run check`: everything CI verifies, in one command (node_modules/fw-mvc/docs/ci.md).
 *
 *   1. the types: `tsc --noEmit` of the project;
 *   2. `fw project:check`: the structure, the environment, entities, templates, modules;
 *   3. `fw build:model --check`: every generated file of the entities is up to date;
 *   4. `fw make:crud <Entity> --check` for each entity whose CRUD pages exist (`mvc/models/<entity>_crud.ts`);
 *   5. `fw migration:diff --all --check` when a database answers: the tables match the entities. Skipped, with the
 *      reason, when the database is not configured or does not answer (the SQLite file does not exist yet, MariaDB
 *      does not greet within 3 s).
 *
 * Every step runs, side by side; each prints its name and its result in this order, then the output of the first
 * step that failed.
 * Exit code: 0 when every step passed or was skipped, 1 otherwise. Nothing is written.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(root, 'package.json'));
/** The path of a file of an installed package; exits 1 with the advice when the dependencies are not installed. */
function installed(request) {
  try {
    return require.resolve(request);
  } catch {
    console.error(`Erreur : ${request} introuvable : les dépendances du projet ne sont pas installées.\nConseil : lancez « npm install » (ou « npm ci »).`);
    process.exit(1);
  }
}
// fw comes with fw-mvc-cli, a devDependency: npm run check runs where the development tools are installed.
const FW = path.join(path.dirname(installed('fw-mvc-cli/package.json')), 'bin', 'fw.js');
const TSC = installed('typescript/bin/tsc');
const GREETING_TIMEOUT_MS = 3000;

/** `ContactClient` → `contact_client`: the rule fw uses for file names (docs/entities.md "Entity files"). */
function snakeCase(name) {
  return name
    .trim()
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1_$2')
    .replace(/[\s-]+/g, '_')
    .replace(/_+/g, '_')
    .toLowerCase();
}

/** The entity names of `mvc/entities/<folder>/*.json` whose CRUD module exists, sorted. */
function entitiesWithCrud() {
  const dir = path.join(root, 'mvc', 'entities');
  const names = new Set();
  let folders = [];
  try {
    folders = fs.readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isDirectory());
  } catch {
    return [];
  }
  for (const folder of folders) {
    let files = [];
    try {
      files = fs.readdirSync(path.join(dir, folder.name));
    } catch {
      continue; // fw project:check reports the folder.
    }
    for (const file of files) {
      if (!file.endsWith('.json')) continue;
      let name;
      try {
        name = JSON.parse(fs.readFileSync(path.join(dir, folder.name, file), 'utf8')).entity;
      } catch {
        continue; // fw project:check reports the file.
      }
      if (typeof name === 'string' && fs.existsSync(path.join(root, 'mvc', 'models', `${snakeCase(name)}_crud.ts`))) names.add(name);
    }
  }
  return [...names].sort();
}

/** Resolves when a MariaDB server at host:port sends its greeting within the timeout; else the reason. */
function mariadbGreets(host, port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (reason) => {
      socket.destroy();
      resolve(reason);
    };
    socket.setTimeout(GREETING_TIMEOUT_MS, () => done(`MariaDB ne répond pas sur ${host}:${port} en ${GREETING_TIMEOUT_MS / 1000} s`));
    socket.once('data', () => done(null));
    socket.once('error', (error) => done(`MariaDB injoignable sur ${host}:${port} (${error.code ?? error.message})`));
    socket.once('end', () => done(`MariaDB a fermé la connexion sur ${host}:${port}`));
  });
}

/** Null when a database answers, else why the drift step is skipped. Reads env/<APP_ENV|dev> as fw does (the process wins). */
async function databaseAbsence() {
  const envName = process.env.APP_ENV || 'dev';
  try {
    const { loadEnv } = await import('fw-mvc');
    loadEnv(root);
  } catch (error) {
    return `env/${envName} illisible (${error.message})`;
  }
  const env = process.env;
  const driver = (env.DB_DRIVER || 'sqlite').trim();
  if (driver === 'sqlite') {
    const file = env.DB_FILE || 'storage/database.sqlite';
    return fs.existsSync(path.resolve(root, file)) ? null : `base SQLite ${file} absente (fw db:init la crée)`;
  }
  if (driver !== 'mariadb') return `DB_DRIVER « ${driver} » inconnu`;
  if (!env.DB_NAME || !env.DB_APP_LOGIN) return `base MariaDB non configurée (DB_NAME et DB_APP_LOGIN dans env/${envName})`;
  const port = Number(env.DB_APP_PORT || 3306);
  if (!Number.isInteger(port) || port < 1 || port > 65535) return `DB_APP_PORT « ${env.DB_APP_PORT} » n'est pas un port`;
  return mariadbGreets(env.DB_APP_HOST || '127.0.0.1', port);
}

/** Runs `node <script> <args>` in the project; resolves with its result and duration. */
function run(script, args) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => chunks.push(chunk));
    let spawnError = '';
    child.once('error', (error) => (spawnError = `${error.message}\n`));
    child.once('close', (code, signal) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      resolve({ ok: code === 0, status: code ?? signal, seconds, output: Buffer.concat(chunks).toString('utf8') + spawnError });
    });
  });
}

const line = (tag, name, detail) => console.log(`  ${`[${tag}]`.padEnd(7)}${name} — ${detail}`);

const steps = [
  ['tsc --noEmit', TSC, ['--noEmit', '-p', 'tsconfig.json']],
  ['fw project:check', FW, ['project:check']],
  ['fw build:model --check', FW, ['build:model', '--check']],
  ...entitiesWithCrud().map((entity) => [`fw make:crud ${entity} --check`, FW, ['make:crud', entity, '--check']]),
];
const drift = 'fw migration:diff --all --check';
const absence = await databaseAbsence();
if (!absence) steps.push([drift, FW, ['migration:diff', '--all', '--check']]);

// The steps read and write nothing in common: they run side by side, and are reported in their order.
const results = await Promise.all(steps.map(([, script, args]) => run(script, args)));
let failed = null;
let passed = 0;
let skipped = 0;
steps.forEach(([name], index) => {
  const result = results[index];
  if (result.ok) passed++;
  else failed ??= { name, ...result };
  line(result.ok ? 'OK' : 'FAIL', name, result.ok ? `${result.seconds} s` : `code ${result.status} (${result.seconds} s)`);
});
if (absence) {
  skipped++;
  line('SKIP', drift, `${absence} : l'écart entre les entités et les tables n'est pas vérifié`);
}

if (failed) {
  console.log(`\nSortie de « ${failed.name} » :\n`);
  process.stdout.write(failed.output.endsWith('\n') || !failed.output ? failed.output : `${failed.output}\n`);
}
const failures = steps.length + (absence ? 1 : 0) - passed - skipped;
console.log(`\n${passed} étape(s) réussie(s), ${skipped} ignorée(s), ${failures} en échec.`);
process.exitCode = failures === 0 ? 0 : 1;
