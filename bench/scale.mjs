/**
 * The scale section: the generated Contacts list page, signed in, served by WEB_CONCURRENCY=1 then 2 processes
 * (runtime/app/cluster.ts) in alternating rounds (1, 2, then 2, 1…), a fresh server each time with its warm-up;
 * prints req/s, p99 and the CPU each side used, and the ratio of the two.
 * - The project is the CRUD bench's (dist/test/helpers/crud-app.js, as bench/crud.mjs builds it) on SQLite, its list
 *   route made private (make:crud --public made it public), `fw auth:init`, `fw db:apply`, one user made with
 *   `fw auth:user:create`, BENCH_SCALE_ROWS (10,000) contacts; compiled with its tsconfig.build.json and started as
 *   `npm start` starts it (`node --max-semi-space-size=8 dist/app.js`: serve() reads WEB_CONCURRENCY), sessions
 *   and login limits on Redis (127.0.0.1:6379 or REDIS_URL) under a prefix of its own, deleted after.
 * - The page: `/contacts`, page 1 sorted by the key, 20 rows read through the primary key, the count kept by the
 *   model between requests: framework-bound (routing, session, the query's plan, nunjucks), not database-bound.
 * - The load: wrk when installed (bench/loadgen.mjs; else autocannon, said in the output), the session cookie as
 *   a header, 50 connections. Before the load, each server is checked: the page without the cookie redirects to
 *   /login, with it answers 200 and the table; during the load every answer other than 200 fails the section.
 * - The CPU, from /proc: the server's process tree, the load generator, and the rest of the machine (Redis, and
 *   other jobs when the machine is shared), in cores, so that a reader sees what the generator took.
 * Needs `npm run build` (dist/test) and Redis.
 */
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { USER, login } from './auth.mjs';
import { describeGenerator, loadGenerator, runLoad } from './loadgen.mjs';
import { startMeter } from './meter.mjs';
import { BENCH_DIR, dropRedisPrefix, median, printTable } from './shared.mjs';

const CONNECTIONS = 50;
const COUNTS = [1, 2];
const ROWS = Number(process.env.BENCH_SCALE_ROWS ?? 10_000);
const PAGE = '/contacts';
/** The flags of a generated project's `npm start`. */
const NODE_FLAGS = ['--max-semi-space-size=8'];

const importDist = (file) => import(pathToFileURL(path.join(BENCH_DIR, '..', 'dist', 'test', 'helpers', file)).href);

function fwOk(project, args) {
  const run = project.run(args);
  if (run.status !== 0) throw new Error(`fw ${args.join(' ')} a échoué (${run.status}) :\n${run.stdout}${run.stderr}`);
}

/** The CRUD bench's project on SQLite, its list behind the login, one user, ROWS contacts, compiled to dist/. */
async function buildProject(helpers, cli) {
  const project = helpers.buildCrudApp('sqlite');
  try {
    const routes = project.read('mvc/routes.ts');
    const signedIn = routes.replace("{ name: 'contacts.index', public: true }", "{ name: 'contacts.index' }");
    if (signedIn === routes) throw new Error('mvc/routes.ts : la route contacts.index est introuvable');
    project.write('mvc/routes.ts', signedIn);
    fwOk(project, ['auth:init']);
    fwOk(project, ['db:apply']);
    fwOk(project, ['auth:user:create', '--email', USER.email, '--password', USER.password]);
    const seq = (n) => `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ${n})`;
    await project.sql([
      `${seq(50)} INSERT INTO villes (Nom) SELECT 'Ville ' || n FROM seq`,
      `${seq(ROWS)} INSERT INTO contacts (Nom, Prenom, Email, Telephone, Actif, Notes, VilleId)
       SELECT 'Nom' || (n % 5000), 'Prenom' || n, 'p' || n || '@exemple.fr', NULL, n % 2, NULL, 1 + n % 50 FROM seq`,
      'ANALYZE',
    ]);
    const build = spawnSync(process.execPath, [cli.TSC, '-p', 'tsconfig.build.json'], { cwd: project.root, encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`tsc -p tsconfig.build.json a échoué :\n${build.stdout}${build.stderr}`);
    return project;
  } catch (err) {
    await project.cleanup();
    throw err;
  }
}

async function start(helpers, project, workers, prefix) {
  const env = { WEB_CONCURRENCY: String(workers), SESSION_STORE: 'redis', RATE_LIMIT_STORE: 'redis', REDIS_PREFIX: prefix };
  const { url, child } = await helpers.serveWith(project.root, [...NODE_FLAGS, 'dist/app.js'], env);
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  return { base: url, pid: child.pid, stop };
}

/** The page is the signed-in list: a redirect to /login without the cookie, 200 and the table with it. */
async function checkPage(base, cookie) {
  const anonymous = await fetch(base + PAGE, { redirect: 'manual' });
  await anonymous.text();
  if (anonymous.status !== 302 || !anonymous.headers.get('location')?.startsWith('/login'))
    throw new Error(`${PAGE} without the session answered ${anonymous.status}, not a redirect to /login`);
  const page = await fetch(base + PAGE, { headers: { cookie } });
  const body = await page.text();
  if (page.status !== 200 || !body.includes('crud-results') || !body.includes('<table'))
    throw new Error(`${PAGE} signed in answered ${page.status}${page.status === 200 ? ' without the list table' : ''}`);
}

/** One measured run: req/s, p99, server CPU per request, and the cores used by the server, the generator and the rest. */
async function sample(generator, server, cookie, duration) {
  const meter = startMeter(server.pid, { tree: true });
  const self = process.cpuUsage();
  const run = await runLoad(generator, { url: server.base + PAGE, headers: { cookie }, connections: CONNECTIONS, duration });
  const selfUsed = process.cpuUsage(self);
  const { serverCpu, machineCpu, seconds } = meter();
  const selfCpu = (selfUsed.user + selfUsed.system) / 1e6;
  // autocannon is this process; wrk is a process of its own.
  const rest = machineCpu - serverCpu - selfCpu - (generator === 'wrk' ? run.generatorCpu : 0);
  return {
    rps: run.rps,
    p99: run.p99,
    serverMsPerRequest: (serverCpu * 1000) / Math.max(1, run.requests),
    serverCores: serverCpu / seconds,
    generatorCores: run.generatorCpu / seconds,
    otherCores: Math.max(0, rest / seconds),
  };
}

const cores = (x) => x.toFixed(2);

export async function runScaleBench({ rounds, duration, warmup }) {
  const generator = loadGenerator();
  console.log(describeGenerator(generator, CONNECTIONS));
  const [helpers, cli] = await Promise.all([importDist('crud-app.js'), importDist('cli.js')]);
  console.log(`building the Contacts CRUD project (SQLite, ${ROWS.toLocaleString('en')} contacts, list behind the login)…`);
  const project = await buildProject(helpers, cli);
  const prefix = `fwbench:scale:${process.pid}:`;
  const samples = Object.fromEntries(COUNTS.map((n) => [n, []]));
  const loadBefore = os.loadavg()[0];
  try {
    for (let round = 0; round < rounds; round++) {
      for (const workers of round % 2 ? [...COUNTS].reverse() : COUNTS) {
        const server = await start(helpers, project, workers, prefix);
        try {
          const { cookie } = await login(server.base);
          await checkPage(server.base, cookie);
          await runLoad(generator, { url: server.base + PAGE, headers: { cookie }, connections: CONNECTIONS, duration: warmup });
          const s = await sample(generator, server, cookie, duration);
          samples[workers].push(s);
          console.log(
            `round ${round + 1}/${rounds}  WEB_CONCURRENCY=${workers}  ${s.rps.toFixed(0)} req/s  p99 ${s.p99.toFixed(1)} ms  ` +
              `CPU: server ${cores(s.serverCores)}, ${generator} ${cores(s.generatorCores)}, rest ${cores(s.otherCores)} cores`,
          );
        } finally {
          await server.stop();
        }
      }
    }
  } finally {
    await dropRedisPrefix(prefix).catch((err) => console.error(`Redis prefix ${prefix} not deleted: ${err.message}`));
    await project.cleanup();
  }
  const loadAfter = os.loadavg()[0];
  const rows = COUNTS.map((n) => {
    const of = (key) => median(samples[n].map((s) => s[key]));
    return {
      workers: n,
      rps: of('rps'),
      p99: of('p99'),
      serverMsPerRequest: of('serverMsPerRequest'),
      serverCores: of('serverCores'),
      generatorCores: of('generatorCores'),
      otherCores: of('otherCores'),
    };
  });
  const ratio = rows[1].rps / rows[0].rps;
  printTable(
    ['WEB_CONCURRENCY', 'signed-in /contacts req/s', 'p99 ms', 'server CPU ms/req', 'server cores', `${generator} cores`, 'rest cores'],
    rows.map((r) => [
      String(r.workers),
      r.rps.toFixed(0),
      r.p99.toFixed(1),
      r.serverMsPerRequest.toFixed(3),
      cores(r.serverCores),
      cores(r.generatorCores),
      cores(r.otherCores),
    ]),
    [0],
  );
  console.log(
    `\n2 processes / 1: ${ratio.toFixed(2)}× (${os.availableParallelism()} cores; ${generator} used ${cores(rows[1].generatorCores)} of a core ` +
      `at WEB_CONCURRENCY=2, Redis and other work ${cores(rows[1].otherCores)}; load average ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after)`,
  );
  console.log(`(median of ${rounds} rounds of ${duration} s; ${ROWS.toLocaleString('en')} contacts on SQLite; cores: CPU seconds per second of load)`);
  const round2 = (x, digits) => Number(x.toFixed(digits));
  return {
    settings: { generator, connections: CONNECTIONS, rounds, duration, warmup, rows: ROWS, page: PAGE, database: 'sqlite', sessions: 'redis' },
    load_average: { before: round2(loadBefore, 2), after: round2(loadAfter, 2) },
    rows: rows.map((r) => ({
      workers: r.workers,
      rps: Math.round(r.rps),
      p99: round2(r.p99, 1),
      server_ms_per_request: round2(r.serverMsPerRequest, 3),
      server_cores: round2(r.serverCores, 2),
      generator_cores: round2(r.generatorCores, 2),
      other_cores: round2(r.otherCores, 2),
    })),
    ratio: round2(ratio, 2),
    targets: [
      {
        target: 'WEB_CONCURRENCY=2 ≥ 1.7× WEB_CONCURRENCY=1 (signed-in generated list page)',
        value: `${ratio.toFixed(2)}×`,
        pass: ratio >= 1.7,
        note: `${generator} ${cores(rows[1].generatorCores)} cores, rest ${cores(rows[1].otherCores)} cores, load average ${loadBefore.toFixed(1)}`,
      },
    ],
  };
}
