/**
 * The `make:crud` section of `npm run bench` (also runnable alone: `node bench/crud.mjs` after `npm run build`):
 * - `fw make:crud Contact` wall time in a fresh project (median of runs; target < 2 s);
 * - the generated list page served for real over a MariaDB table of 100,000 rows: page 1 sorted by the key,
 *   a filtered page, a search; p50 and p99 of sequential requests (target p50 < 50 ms for page 1 and the filter).
 * The project is built by the CLI exactly as the HTTP tests build theirs (dist/test/helpers/crud-app.js).
 * Env: BENCH_CRUD_ROWS (100000), BENCH_CRUD_REQUESTS (200 per URL), BENCH_CRUD_RUNS (5 make:crud runs).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REPO = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const helpers = await import(pathToFileURL(path.join(REPO, 'dist', 'test', 'helpers', 'crud-app.js')).href);
const cli = await import(pathToFileURL(path.join(REPO, 'dist', 'test', 'helpers', 'cli.js')).href);

const ROWS = Number(process.env.BENCH_CRUD_ROWS ?? 100_000);
const REQUESTS = Number(process.env.BENCH_CRUD_REQUESTS ?? 200);
const RUNS = Number(process.env.BENCH_CRUD_RUNS ?? 5);
export const CRUD_TARGETS = { makeCrudSeconds: 2, listP50Ms: 50 };

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const median = (values) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

/** `fw make:crud Contact` in a fresh project, generated files removed between runs. */
function timeMakeCrud() {
  const project = cli.newProject('BenchCrud');
  try {
    project.write('mvc/entities/ville/ville.json', JSON.stringify(helpers.VILLE_JSON));
    project.write('mvc/entities/contact/contact.json', JSON.stringify(helpers.CONTACT_JSON));
    const relation = project.run([
      'make:relation',
      '--name',
      'contact_ville',
      '--type',
      'many_to_one',
      '--from',
      'Contact.ville_id',
      '--to',
      'Ville.id',
      '--no-input',
    ]);
    if (relation.status !== 0) throw new Error(relation.stderr);
    const routes = project.read('mvc/routes.ts');
    const times = [];
    for (let i = 0; i < RUNS; i++) {
      for (const dir of [
        'mvc/controllers/contact_controller.ts',
        'mvc/models',
        'mvc/forms/contact_form.ts',
        'mvc/views/contact',
        'mvc/views/layouts/app.html',
      ]) {
        fs.rmSync(project.path(dir), { recursive: true, force: true });
      }
      project.write('mvc/routes.ts', routes);
      const start = process.hrtime.bigint();
      const run = spawnSync(process.execPath, [cli.FW, 'make:crud', 'Contact'], { cwd: project.root, encoding: 'utf8' });
      times.push(Number(process.hrtime.bigint() - start) / 1e9);
      if (run.status !== 0) throw new Error(`fw make:crud a échoué : ${run.stderr}`);
    }
    return median(times);
  } finally {
    void project.cleanup();
  }
}

async function latencies(url, count) {
  const times = [];
  for (let i = 0; i < count + 10; i++) {
    const start = process.hrtime.bigint();
    const response = await fetch(url);
    const body = await response.text();
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (response.status !== 200 || !body.includes('crud-results')) throw new Error(`${url} : ${response.status}`);
    if (i >= 10) times.push(ms); // 10 warm-up requests
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

export async function runCrudBench(log = console.log) {
  log(`\nfw make:crud (median of ${RUNS} runs)`);
  const makeCrud = timeMakeCrud();
  log(
    `  make:crud Contact  ${makeCrud.toFixed(2)} s  (target < ${CRUD_TARGETS.makeCrudSeconds} s: ${makeCrud < CRUD_TARGETS.makeCrudSeconds ? 'PASS' : 'MISS'})`,
  );

  log(`\nGenerated list page, MariaDB, ${ROWS.toLocaleString('en')} rows (${REQUESTS} sequential requests per URL)`);
  const project = helpers.buildCrudApp('mariadb');
  let child;
  try {
    await project.sql([
      "INSERT INTO villes (Nom) SELECT CONCAT('Ville ', seq) FROM seq_1_to_50",
      `INSERT INTO contacts (Nom, Prenom, Email, Telephone, Actif, Notes, VilleId)
       SELECT CONCAT('Nom', seq % 5000), CONCAT('Prenom', seq), CONCAT('p', seq, '@exemple.fr'), NULL, seq % 2, NULL, 1 + seq % 50
       FROM seq_1_to_${ROWS}`,
      'ANALYZE TABLE contacts',
    ]);
    const served = await helpers.serveProject(project);
    child = served.child;
    const cases = [
      ['page 1, sorted by the key', '/contacts', true],
      ['filtered page (actif, ville)', '/contacts?actif=1&ville_id=8', true],
      ['filter matching nothing', '/contacts?actif=1&ville_id=7', true],
      ['search (q over text columns)', '/contacts?q=Prenom4242', false],
    ];
    const results = [];
    for (const [label, url, targeted] of cases) {
      const { p50, p99 } = await latencies(served.url + url, REQUESTS);
      const verdict = targeted ? (p50 < CRUD_TARGETS.listP50Ms ? 'PASS' : 'MISS') : 'no target';
      results.push({ label, url, p50, p99, verdict });
      log(
        `  ${label.padEnd(30)} p50 ${p50.toFixed(1).padStart(6)} ms  p99 ${p99.toFixed(1).padStart(6)} ms  ${targeted ? `(target p50 < ${CRUD_TARGETS.listP50Ms} ms: ${verdict})` : '(no target)'}`,
      );
    }
    const targets = [
      { target: `fw make:crud Contact < ${CRUD_TARGETS.makeCrudSeconds} s`, value: Number(makeCrud.toFixed(3)), pass: makeCrud < CRUD_TARGETS.makeCrudSeconds },
      ...results
        .filter((r) => r.verdict !== 'no target')
        .map((r) => ({
          target: `list p50 < ${CRUD_TARGETS.listP50Ms} ms: ${r.label} (${ROWS} rows)`,
          value: Number(r.p50.toFixed(1)),
          pass: r.verdict === 'PASS',
          note: `p99 ${r.p99.toFixed(1)} ms`,
        })),
    ];
    return { makeCrudSeconds: makeCrud, rows: ROWS, list: results, targets };
  } finally {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await project.cleanup();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const result = await runCrudBench();
  fs.mkdirSync(path.join(REPO, 'bench', 'results'), { recursive: true });
  fs.writeFileSync(path.join(REPO, 'bench', 'results', 'crud.json'), JSON.stringify(result, null, 2) + '\n');
}
