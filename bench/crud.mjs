/**
 * The `make:crud` section of `npm run bench` (also runnable alone: `node bench/crud.mjs` after `npm run build`):
 * - `fw make:crud Contact` wall time in a fresh project (median of runs; target < 2 s);
 * - the generated list page served for real over a MariaDB table of 100,000 rows: page 1 sorted by the key,
 *   a filtered page, a search; p50 and p99 of sequential requests (target p50 < 50 ms for page 1 and the filter).
 * - the same three pages under load (autocannon, BENCH_CRUD_CONNECTIONS connections, alternating rounds): req/s and
 *   the server's CPU time per request, for the generated page, for the previous code path of its model (the count
 *   before every page: PREVIOUS_PAGE below, an override of the model's page()) and for a hand-written node:http + mysql2 +
 *   nunjucks page making the same queries (bench/servers/list.mjs); ratios printed (targets: ≥ 1.5× the previous
 *   path on page 1 and the search, ≥ 0.9× the hand-written page). Every server runs with the flags of a project's
 *   `npm start` (`--max-semi-space-size=8`).
 * The project is built by the CLI exactly as the HTTP tests build theirs (dist/test/helpers/crud-app.js), then
 * compiled and served as its `npm start` serves it (`node --max-semi-space-size=8 dist/app.js`).
 * Env: BENCH_CRUD_ROWS (100000), BENCH_CRUD_REQUESTS (200 per URL), BENCH_CRUD_RUNS (5 make:crud runs),
 * BENCH_CRUD_ROUNDS (3 load rounds), BENCH_CRUD_DURATION (5 s per load run), BENCH_CRUD_WARMUP (3 s of load on each page
 * before the first is measured), BENCH_CRUD_CONNECTIONS (4), BENCH_CRUD_INSTRUCTION_WARMUP (4000 uncounted requests) and
 * BENCH_CRUD_INSTRUCTION_REQUESTS (400 counted) for the callgrind count.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { callgrindAvailable, instructionsPerRequest } from './callgrind.mjs';
import { NODE_FLAGS, handWrittenEnv, projectDatabase, projectEnv, serveCompiled, spawnHandWritten } from './crud-servers.mjs';
import { startMeter } from './meter.mjs';

const REPO = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const helpers = await import(pathToFileURL(path.join(REPO, 'dist', 'test', 'helpers', 'crud-app.js')).href);
const cli = await import(pathToFileURL(path.join(REPO, 'dist', 'test', 'helpers', 'cli.js')).href);

const ROWS = Number(process.env.BENCH_CRUD_ROWS ?? 100_000);
const REQUESTS = Number(process.env.BENCH_CRUD_REQUESTS ?? 200);
const RUNS = Number(process.env.BENCH_CRUD_RUNS ?? 5);
const ROUNDS = Number(process.env.BENCH_CRUD_ROUNDS ?? 3);
const DURATION = Number(process.env.BENCH_CRUD_DURATION ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CRUD_CONNECTIONS ?? 4);
/**
 * Seconds of load on every page before any is measured, in each fresh server: V8 optimizes the generated server's
 * code for about 4,000 requests (a compiled list template alone takes about 200 ms), and a page measured while that
 * runs is charged for it (docs/performance.md "Instructions per request").
 */
const WARMUP = Number(process.env.BENCH_CRUD_WARMUP ?? 3);
const INSTRUCTION_REQUESTS = Number(process.env.BENCH_CRUD_INSTRUCTION_REQUESTS ?? 400);
/**
 * Uncounted requests before the count: V8 goes on optimizing the generated server's functions for about 4,000
 * requests (the compiled list templates take 170 to 200 ms each); a shorter warm-up counts that compilation as the
 * page's work (docs/performance.md "Instructions per request").
 */
const INSTRUCTION_WARMUP = Number(process.env.BENCH_CRUD_INSTRUCTION_WARMUP ?? 4000);
export const CRUD_TARGETS = { makeCrudSeconds: 2, listP50Ms: 50, againstPrevious: 1.5, againstHandWritten: 0.9 };

/**
 * The model's page() before the list kept its count (the count, then the rows, on every request): the "previous"
 * server of the load section runs the generated project with this override in its model.
 */
const PREVIOUS_PAGE = `  static override async page(request: Pick<Request, 'params'>): Promise<CrudPage<ContactListRow>> {
    const query = ListQuery.fromRequest(request, CONTACT_CRUD.list);
    const where = query.where();
    const count = await fetchOne<{ total: unknown }>(\`\${CONTACT_CRUD.sql.count} \${where.sql}\`, where.params);
    const pagination = new Pagination(request, Number(count?.total ?? 0), ContactModel.perPage, { params: query.linkParams() });
    const rows = pagination.total === 0 ? [] : await fetchAll(\`\${CONTACT_CRUD.sql.select} \${where.sql} \${query.orderBy()} LIMIT ? OFFSET ?\`, [...where.params, pagination.limit, pagination.offset]);
    return { query, rows: rows.map((row) => CONTACT_CRUD.listRow(row)), pagination };
  }
`;
const PREVIOUS_IMPORTS = "import { ListQuery, Pagination, fetchOne, type Request } from 'fw-mvc';\nimport type { CrudPage } from 'fw-mvc/crud';\n";
const LOAD_CASES = [
  ['page 1', '/contacts'],
  ['filter (actif, ville)', '/contacts?actif=1&ville_id=8'],
  ['search', '/contacts?q=Prenom4242'],
];

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

/** The model with the previous page(), as an override of the framework's (value imports of ListQuery and Pagination, which it builds). */
function previousModel(current) {
  const opening = /^export class ContactModel extends crudModel\(CONTACT_CRUD\) \{\n/m;
  if (!opening.test(current)) throw new Error('contact_model.ts : la classe ContactModel est introuvable');
  return PREVIOUS_IMPORTS + current.replace(opening, (line) => line + PREVIOUS_PAGE);
}

/** One autocannon run: req/s over the measured time and the server's CPU ms per request. */
async function load(url, pid, duration) {
  const meter = startMeter(pid);
  const result = await autocannon({ url, connections: CONNECTIONS, duration });
  const { serverCpu } = meter();
  if (result.errors || result.timeouts || result.non2xx)
    throw new Error(`${url}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx`);
  const seconds = (new Date(result.finish) - new Date(result.start)) / 1000;
  return { rps: result.requests.total / seconds, cpuMs: (serverCpu * 1000) / Math.max(1, result.requests.total) };
}

/**
 * Compiles the project as `npm start` does (its tsconfig.build.json): into dist/, and with the previous page() into
 * dist-previous/ (config.ts takes the project root from the compiled file's parent folder, so both run alike).
 */
function compileProject(project) {
  const model = project.path('mvc/models/contact_model.ts');
  const current = fs.readFileSync(model, 'utf8');
  const tsc = (extra) => {
    const build = spawnSync(process.execPath, [cli.TSC, '-p', 'tsconfig.build.json', ...extra], { cwd: project.root, encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`tsc -p tsconfig.build.json a échoué :\n${build.stdout}${build.stderr}`);
  };
  try {
    fs.writeFileSync(model, previousModel(current));
    tsc(['--outDir', 'dist-previous']);
  } finally {
    fs.writeFileSync(model, current);
  }
  tsc([]);
}

/** The three servers of the load section, started one at a time (one core each would be unfair on 2 cores). */
async function withServer(kind, project, database, run) {
  let served;
  try {
    if (kind === 'hand-written') served = await spawnHandWritten(path.join(REPO, 'bench', 'servers', 'list.mjs'), database);
    else served = await serveCompiled(project, kind === 'previous' ? 'dist-previous' : 'dist');
    return await run(served.url, served.child.pid);
  } finally {
    if (served && served.child.exitCode === null) {
      const exited = new Promise((resolve) => served.child.once('exit', resolve));
      served.child.kill('SIGTERM');
      await exited;
    }
  }
}

/** Req/s and CPU per request of the three servers on LOAD_CASES, rounds alternating between servers. */
async function loadSection(project, log) {
  const kinds = ['generated', 'previous', 'hand-written'];
  const database = projectDatabase(project);
  const samples = Object.fromEntries(kinds.map((k) => [k, Object.fromEntries(LOAD_CASES.map(([label]) => [label, []]))]));
  // The size of each server's page 1: the hand-written page is a fair peer only while it sends the same markup.
  const bytes = {};
  for (let round = 0; round < ROUNDS; round++) {
    for (const kind of kinds) {
      await withServer(kind, project, database, async (base, pid) => {
        if (round === 0) bytes[kind] = (await (await fetch(base + LOAD_CASES[0][1])).arrayBuffer()).byteLength;
        for (const [, url] of LOAD_CASES) await load(base + url, pid, WARMUP); // warm-up: JIT, pool, the count's window
        for (const [label, url] of LOAD_CASES) samples[kind][label].push(await load(base + url, pid, DURATION));
      });
      log(
        `  round ${round + 1}/${ROUNDS}  ${kind.padEnd(12)} ${LOAD_CASES.map(([label]) => `${label} ${samples[kind][label].at(-1).rps.toFixed(0)}`).join(', ')} req/s`,
      );
    }
  }
  const med = (values) => median(values);
  const table = LOAD_CASES.map(([label, url]) => {
    const of = (kind) => ({ rps: med(samples[kind][label].map((s) => s.rps)), cpuMs: med(samples[kind][label].map((s) => s.cpuMs)) });
    const generated = of('generated');
    const previous = of('previous');
    const hand = of('hand-written');
    return { label, url, generated, previous, handWritten: hand, vsPrevious: generated.rps / previous.rps, vsHandWritten: generated.rps / hand.rps };
  });
  log(`\n  ${'page'.padEnd(22)} ${'generated'.padStart(16)} ${'previous'.padStart(16)} ${'hand-written'.padStart(16)}  vs previous  vs hand-written`);
  const cell = (x) => `${x.rps.toFixed(0)} r/s ${x.cpuMs.toFixed(2)} ms`.padStart(16);
  for (const r of table) {
    log(
      `  ${r.label.padEnd(22)} ${cell(r.generated)} ${cell(r.previous)} ${cell(r.handWritten)}  ${r.vsPrevious.toFixed(2).padStart(10)}×  ${r.vsHandWritten.toFixed(2).padStart(13)}×`,
    );
  }
  log('  (req/s: median of rounds; ms: server CPU time per request)');
  log(`  page 1 sizes: ${kinds.map((kind) => `${kind} ${bytes[kind].toLocaleString('en')} bytes`).join(', ')}`);
  return table;
}

/**
 * Instructions per request of the generated page and of the hand-written one (callgrind: the same count on a quiet
 * or a loaded machine), for page 1 and the filtered page; the ratio is hand-written over generated, as req/s.
 */
async function instructionsSection(project, log) {
  const cases = LOAD_CASES.filter(([label]) => label !== 'search'); // the search is MariaDB's full scan, not the server's work
  const database = projectDatabase(project);
  // A server of its own for each page: the first page counted in a server gives the same figure run after run,
  // a second one does not (the first page's garbage is collected while the second is counted).
  const count = async (options, url) =>
    (await instructionsPerRequest({ ...options, paths: [url], warmup: INSTRUCTION_WARMUP, requests: INSTRUCTION_REQUESTS }))[0];
  const generatedServer = {
    nodeArgs: [...NODE_FLAGS, 'dist/app.js'],
    cwd: project.root,
    env: projectEnv(),
    ready: /fw-mvc : (http:\/\/127\.0\.0\.1:\d+)/,
  };
  const handWrittenServer = {
    nodeArgs: [...NODE_FLAGS, path.join(REPO, 'bench', 'servers', 'list.mjs')],
    cwd: REPO,
    env: handWrittenEnv(database),
    ready: /listening on (http:\/\/127\.0\.0\.1:\d+)/,
  };
  const generated = [];
  const hand = [];
  for (const [, url] of cases) {
    // The two servers side by side: callgrind's counts do not depend on what else the cores run.
    const [g, h] = await Promise.all([count(generatedServer, url), count(handWrittenServer, url)]);
    generated.push(g);
    hand.push(h);
  }
  const table = cases.map(([label], i) => ({
    label,
    generated: generated[i].perRequest,
    handWritten: hand[i].perRequest,
    ratio: hand[i].perRequest / generated[i].perRequest,
  }));
  log(`\n  ${'page'.padEnd(22)} ${'generated'.padStart(14)} ${'hand-written'.padStart(14)}  hand-written / generated`);
  for (const r of table) {
    log(
      `  ${r.label.padEnd(22)} ${`${(r.generated / 1e6).toFixed(2)} M`.padStart(14)} ${`${(r.handWritten / 1e6).toFixed(2)} M`.padStart(14)}  ${r.ratio.toFixed(2).padStart(10)}×`,
    );
  }
  log(
    `  (instructions per request, ${INSTRUCTION_REQUESTS} requests 4 at a time after ${INSTRUCTION_WARMUP} uncounted, each page in a server of its own, every thread of the server)`,
  );
  return table;
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
    compileProject(project);
    const served = await serveCompiled(project);
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
    log(`\nThe same pages under load, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION} s: generated, previous code path, hand-written`);
    const loaded = await loadSection(project, log);
    let instructions = null;
    if (process.env.BENCH_CRUD_CALLGRIND === '0') log('\nInstructions per request: skipped (BENCH_CRUD_CALLGRIND=0)');
    else if (!callgrindAvailable()) log('\nInstructions per request: skipped (valgrind is not installed)');
    else {
      log('\nInstructions per request (valgrind --tool=callgrind): generated, hand-written');
      instructions = await instructionsSection(project, log);
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
      ...loaded.flatMap((r) => [
        ...(r.label === 'page 1' || r.label === 'search'
          ? [
              {
                target: `list req/s ≥ ${CRUD_TARGETS.againstPrevious}× the previous code path: ${r.label}`,
                value: Number(r.vsPrevious.toFixed(2)),
                pass: r.vsPrevious >= CRUD_TARGETS.againstPrevious,
              },
            ]
          : []),
        {
          target: `list req/s ≥ ${CRUD_TARGETS.againstHandWritten}× a hand-written node:http + mysql2 + nunjucks page: ${r.label}`,
          value: Number(r.vsHandWritten.toFixed(2)),
          pass: r.vsHandWritten >= CRUD_TARGETS.againstHandWritten,
          note: `CPU ${r.generated.cpuMs.toFixed(2)} ms against ${r.handWritten.cpuMs.toFixed(2)} ms per request`,
        },
      ]),
      ...(instructions ?? []).map((r) => ({
        target: `list instructions per request ≤ hand-written / ${CRUD_TARGETS.againstHandWritten}: ${r.label}`,
        value: Number(r.ratio.toFixed(2)),
        pass: r.ratio >= CRUD_TARGETS.againstHandWritten,
        note: `${(r.generated / 1e6).toFixed(2)} M against ${(r.handWritten / 1e6).toFixed(2)} M instructions (callgrind)`,
      })),
    ];
    return { makeCrudSeconds: makeCrud, rows: ROWS, list: results, load: loaded, instructions, targets };
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
