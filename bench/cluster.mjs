/**
 * The cluster section: CPU per request and memory per process of one process against two (WEB_CONCURRENCY=1, 2),
 * for three servers in one run, in alternating rounds (the order of the six variants reversed every other round,
 * a fresh server each time, a warm-up of `warmup` seconds per serving process (V8 compiles the code of each process
 * apart: two workers, each served half the requests, reach their steady cost later), then the measured load):
 * - `bare`: node:http + better-sqlite3 + nunjucks, node:cluster when 2 (bench/servers/cluster-raw.mjs);
 * - `fw`: the same page through fw-mvc's serve() (bench/servers/cluster-fw.mjs): 12 rows read, a small template,
 *   no session; sessions and limits on Redis (a memory store refuses two processes), so both counts use the same;
 * - `list`: the generated Contacts list page (public, 10,000 contacts on SQLite, the CRUD bench's project compiled
 *   and started as `npm start` starts it); BENCH_CLUSTER_LIST=0 leaves it out.
 * Every server runs with `--max-semi-space-size=8` (a new project's `npm start`) and bench/mem-probe.cjs.
 * CPU: utime+stime from /proc/<pid>/stat of every process of the server (primary and workers), over the
 * measured load, divided by the requests wrk counted; the primary's share apart; the warm-up's own CPU per request
 * beside it (the cost of the compilation each process goes through once). Memory: each process's RSS
 * (anonymous and file-backed) and V8 heap after the warm-up, in the middle of the load and after it, as the probe
 * reports them on SIGUSR2. Needs `npm run build`, wrk (or autocannon), Redis on 127.0.0.1:6379.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describeGenerator, loadGenerator, runLoad } from './loadgen.mjs';
import { processTree } from './meter.mjs';
import { BENCH_DIR, dropRedisPrefix, median, printTable } from './shared.mjs';
import { createRowsDatabase } from './servers/cluster-db.mjs';

const CONNECTIONS = Number(process.env.BENCH_CLUSTER_CONNECTIONS ?? 50);
const LIST_ROWS = Number(process.env.BENCH_CLUSTER_LIST_ROWS ?? 10_000);
const NODE_FLAGS = ['--max-semi-space-size=8', '--require', path.join(BENCH_DIR, 'mem-probe.cjs')];
const TICKS = 100;
const MB = 1024 * 1024;

const importDist = (file) => import(pathToFileURL(path.join(BENCH_DIR, '..', 'dist', 'test', 'helpers', file)).href);

function ticksOf(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

function cpuTicks(pid) {
  return new Map(processTree(pid).map((p) => [p, ticksOf(p)]));
}

/** Ticks used by every process between two readings of cpuTicks (a process missing from `before` counts from 0). */
function sumTicks(after, before) {
  let total = 0;
  for (const [pid, now] of after) total += now - (before.get(pid) ?? 0);
  return total;
}

/** Asks every process of the tree for its figures (bench/mem-probe.cjs) and waits for them. */
async function memory(pid, dir) {
  const pids = processTree(pid);
  for (const p of pids) fs.rmSync(path.join(dir, `${p}.json`), { force: true });
  for (const p of pids) process.kill(p, 'SIGUSR2');
  const out = [];
  for (const p of pids) {
    const file = path.join(dir, `${p}.json`);
    for (let i = 0; i < 100 && !fs.existsSync(file); i++) await new Promise((r) => setTimeout(r, 20));
    if (fs.existsSync(file)) out.push({ ...JSON.parse(fs.readFileSync(file, 'utf8')), primary: p === pid && pids.length > 1 });
  }
  return out;
}

async function startServer(variant, workers, ctx) {
  const env = { ...process.env, HOST: '127.0.0.1', PORT: '0', WEB_CONCURRENCY: String(workers), BENCH_MEM_DIR: ctx.memDir };
  for (const key of Object.keys(env)) if (key.startsWith('DB_') || key === 'APP_ENV') delete env[key];
  let args;
  let cwd = BENCH_DIR;
  if (variant === 'bare') args = [...NODE_FLAGS, path.join(BENCH_DIR, 'servers', 'cluster-raw.mjs')];
  else {
    Object.assign(env, { SESSION_STORE: 'redis', RATE_LIMIT_STORE: 'redis', REDIS_PREFIX: ctx.prefix });
    if (variant === 'fw') args = [...NODE_FLAGS, path.join(BENCH_DIR, 'servers', 'cluster-fw.mjs')];
    else {
      args = [...NODE_FLAGS, 'dist/app.js'];
      cwd = ctx.project.root;
    }
  }
  env.BENCH_CLUSTER_DIR = ctx.dir;
  const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const base = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${variant}: no address in 30 s:\n${output}`)), 30_000);
    const onData = (chunk) => {
      output += chunk;
      const found = /fw-mvc : (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${variant}: exited (${code}):\n${output}`)));
  });
  child.stdout.removeAllListeners('data');
  child.stderr.removeAllListeners('data');
  child.stdout.resume();
  child.stderr.resume();
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  return { base, pid: child.pid, stop };
}

const PATHS = { bare: '/rows', fw: '/rows', list: '/contacts' };

async function sample(generator, variant, workers, ctx, { duration, warmup }) {
  const server = await startServer(variant, workers, ctx);
  try {
    const url = server.base + PATHS[variant];
    const check = await fetch(url);
    const body = await check.text();
    if (check.status !== 200 || !(variant === 'list' ? body.includes('<table') : body.includes('Personne')))
      throw new Error(`${variant} ${url}: ${check.status}`);
    // Each process compiles its own code (V8's tiers) as it serves: the warm-up lasts `warmup` seconds per
    // serving process, so that each of two workers has served about as many requests as one process before the
    // measured load (docs/performance.md "Cluster: CPU per request and memory per process, one process against two").
    const warmStart = cpuTicks(server.pid);
    const warmRun = await runLoad(generator, { url, connections: CONNECTIONS, duration: warmup * workers });
    const warmMs = ((sumTicks(cpuTicks(server.pid), warmStart) / TICKS) * 1000) / warmRun.requests;
    const warm = await memory(server.pid, ctx.memDir);
    const before = cpuTicks(server.pid);
    const load = runLoad(generator, { url, connections: CONNECTIONS, duration });
    await new Promise((r) => setTimeout(r, (duration * 1000) / 2));
    const during = await memory(server.pid, ctx.memDir);
    const run = await load;
    const after = cpuTicks(server.pid);
    let total = 0;
    let primary = 0;
    for (const [pid, now] of after) {
      const used = now - (before.get(pid) ?? 0);
      total += used;
      if (pid === server.pid && after.size > 1) primary += used;
    }
    const ended = await memory(server.pid, ctx.memDir);
    return {
      rps: run.rps,
      warmMsPerRequest: warmMs,
      msPerRequest: ((total / TICKS) * 1000) / run.requests,
      primaryMsPerRequest: ((primary / TICKS) * 1000) / run.requests,
      memory: { warm, during, ended },
    };
  } finally {
    await server.stop();
  }
}

async function buildList() {
  const [helpers, cli] = await Promise.all([importDist('crud-app.js'), importDist('cli.js')]);
  const project = helpers.buildCrudApp('sqlite');
  const seq = (n) => `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ${n})`;
  await project.sql([
    `${seq(50)} INSERT INTO villes (Nom) SELECT 'Ville ' || n FROM seq`,
    `${seq(LIST_ROWS)} INSERT INTO contacts (Nom, Prenom, Email, Telephone, Actif, Notes, VilleId)
     SELECT 'Nom' || (n % 5000), 'Prenom' || n, 'p' || n || '@exemple.fr', NULL, n % 2, NULL, 1 + n % 50 FROM seq`,
    'ANALYZE',
  ]);
  const build = spawnSync(process.execPath, [cli.TSC, '-p', 'tsconfig.build.json'], { cwd: project.root, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`tsc -p tsconfig.build.json:\n${build.stdout}${build.stderr}`);
  return project;
}

const mb = (bytes) => (bytes / MB).toFixed(1);

/** Median figures of the workers (or the single process) and of the primary, at one moment. */
function memoryRow(samples, moment) {
  const serving = samples.flatMap((s) => s.memory[moment].filter((m) => !m.primary));
  const primaries = samples.flatMap((s) => s.memory[moment].filter((m) => m.primary));
  const of = (list, pick) => (list.length ? median(list.map(pick)) : NaN);
  return {
    rss: of(serving, (m) => m.proc.VmRSS ?? m.usage.rss),
    anon: of(serving, (m) => m.proc.RssAnon ?? 0),
    file: of(serving, (m) => m.proc.RssFile ?? 0),
    heapUsed: of(serving, (m) => m.usage.heapUsed),
    heapTotal: of(serving, (m) => m.usage.heapTotal),
    newSpace: of(serving, (m) => m.spaces.new_space?.size ?? 0),
    oldUsed: of(serving, (m) => m.spaces.old_space?.used ?? 0),
    code: of(serving, (m) => (m.spaces.code_space?.size ?? 0) + (m.spaces.code_large_object_space?.size ?? 0)),
    external: of(serving, (m) => m.usage.external),
    peak: of(serving, (m) => m.proc.VmHWM ?? 0),
    primaryRss: of(primaries, (m) => m.proc.VmRSS ?? m.usage.rss),
  };
}

export async function runClusterBench({ rounds, duration, warmup }) {
  const generator = loadGenerator();
  console.log(describeGenerator(generator, CONNECTIONS));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-bench-cluster-'));
  const memDir = path.join(dir, 'mem');
  fs.mkdirSync(memDir);
  createRowsDatabase(dir);
  const ctx = { dir, memDir, prefix: `fwbench:cluster:${process.pid}:`, project: null };
  const variants = ['bare', 'fw'];
  if (process.env.BENCH_CLUSTER_LIST !== '0') {
    console.log(`building the Contacts CRUD project (SQLite, ${LIST_ROWS.toLocaleString('en')} contacts, public list)…`);
    ctx.project = await buildList();
    variants.push('list');
  }
  const plan = variants.flatMap((v) => [1, 2].map((w) => [v, w]));
  const samples = Object.fromEntries(plan.map(([v, w]) => [`${v}:${w}`, []]));
  const loads = [];
  try {
    for (let round = 0; round < rounds; round++) {
      for (const [variant, workers] of round % 2 ? [...plan].reverse() : plan) {
        const load = os.loadavg()[0];
        loads.push(load);
        const s = await sample(generator, variant, workers, ctx, { duration, warmup });
        samples[`${variant}:${workers}`].push(s);
        console.log(
          `round ${round + 1}/${rounds}  ${variant.padEnd(4)} WEB_CONCURRENCY=${workers}  ${s.rps.toFixed(0)} req/s  ` +
            `CPU ${s.msPerRequest.toFixed(3)} ms/req (primary ${s.primaryMsPerRequest.toFixed(3)}; warm-up ${s.warmMsPerRequest.toFixed(3)})  load average ${load.toFixed(2)}`,
        );
      }
    }
  } finally {
    await dropRedisPrefix(ctx.prefix).catch((err) => console.error(`Redis prefix ${ctx.prefix} not deleted: ${err.message}`));
    if (ctx.project) await ctx.project.cleanup();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const rows = plan.map(([variant, workers]) => {
    const list = samples[`${variant}:${workers}`];
    return {
      variant,
      workers,
      rps: median(list.map((s) => s.rps)),
      ms: median(list.map((s) => s.msPerRequest)),
      warmMs: median(list.map((s) => s.warmMsPerRequest)),
      primaryMs: median(list.map((s) => s.primaryMsPerRequest)),
      all: list.map((s) => s.msPerRequest),
      memory: { warm: memoryRow(list, 'warm'), during: memoryRow(list, 'during'), ended: memoryRow(list, 'ended') },
    };
  });
  printTable(
    ['server', 'WEB_CONCURRENCY', 'req/s', 'CPU ms/req (all processes)', 'of which primary', 'rounds', 'warm-up CPU ms/req'],
    rows.map((r) => [
      r.variant,
      String(r.workers),
      r.rps.toFixed(0),
      r.ms.toFixed(3),
      r.primaryMs.toFixed(4),
      r.all.map((x) => x.toFixed(3)).join(' '),
      r.warmMs.toFixed(3),
    ]),
    [0],
  );
  // Two processes against one, per variant: the ratio of the medians, and each round's (its two counts run in the same round).
  const pair = (v) => [rows.find((r) => r.variant === v && r.workers === 1), rows.find((r) => r.variant === v && r.workers === 2)];
  printTable(
    ['server', 'CPU ms/req, 1 process', 'CPU ms/req, 2 processes', 'ratio 2 / 1', 'ratio per round'],
    variants.map((v) => {
      const [one, two] = pair(v);
      const perRound = one.all.map((x, i) => (two.all[i] / x).toFixed(2));
      return [v, one.ms.toFixed(3), two.ms.toFixed(3), `${(two.ms / one.ms).toFixed(2)}×`, perRound.join(' ')];
    }),
    [0],
  );
  printTable(
    ['server', 'N', 'moment', 'RSS/process', 'anon', 'file', 'heap used/total', 'new space', 'old used', 'code', 'external', 'primary RSS'],
    rows.flatMap((r) =>
      ['warm', 'during', 'ended'].map((moment) => {
        const m = r.memory[moment];
        return [
          r.variant,
          String(r.workers),
          moment,
          mb(m.rss),
          mb(m.anon),
          mb(m.file),
          `${mb(m.heapUsed)}/${mb(m.heapTotal)}`,
          mb(m.newSpace),
          mb(m.oldUsed),
          mb(m.code),
          mb(m.external),
          Number.isNaN(m.primaryRss) ? '-' : mb(m.primaryRss),
        ];
      }),
    ),
    [0, 2],
  );
  const loadText = `load average ${Math.min(...loads).toFixed(2)} to ${Math.max(...loads).toFixed(2)}`;
  console.log(
    `\n(median of ${rounds} rounds of ${duration} s after ${warmup} s of warm-up per serving process, ${CONNECTIONS} connections, ${generator}; ${loadText}; MB = MiB)`,
  );
  const find = (v, w) => rows.find((r) => r.variant === v && r.workers === w);
  const targets = variants
    .filter((v) => v !== 'bare')
    .map((v) => {
      const ratio = find(v, 2).ms / find(v, 1).ms;
      return {
        target: `${v}: CPU per request with WEB_CONCURRENCY=2 ≤ 1.05 × one process's`,
        value: `${find(v, 1).ms.toFixed(3)} → ${find(v, 2).ms.toFixed(3)} ms (${ratio.toFixed(2)}×)`,
        pass: ratio <= 1.05,
        note: `bare node:cluster ${find('bare', 1).ms.toFixed(3)} → ${find('bare', 2).ms.toFixed(3)} ms; ${loadText}`,
      };
    });
  const peakWorker = Math.max(...rows.filter((r) => r.variant !== 'bare').map((r) => r.memory.during.rss));
  targets.push({
    target: 'RSS per serving process under load ≤ 110 MB (docs/deploy.md "Memory")',
    value: `${mb(peakWorker)} MB (largest median)`,
    pass: peakWorker <= 110 * MB,
  });
  const round3 = (x) => Number(x.toFixed(3));
  return {
    settings: { generator, connections: CONNECTIONS, rounds, duration, warmup_per_process: warmup, list_rows: LIST_ROWS, node_flags: NODE_FLAGS.slice(0, 1) },
    load_average: { min: Math.min(...loads), max: Math.max(...loads) },
    rows: rows.map((r) => ({
      variant: r.variant,
      workers: r.workers,
      rps: Math.round(r.rps),
      cpu_ms_per_request: round3(r.ms),
      warmup_cpu_ms_per_request: round3(r.warmMs),
      primary_ms_per_request: round3(r.primaryMs),
      memory: r.memory,
    })),
    targets,
  };
}
