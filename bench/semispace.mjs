/**
 * The semispace section: the cost and the saving of `--max-semi-space-size` (the young generation's cap, in MB per
 * semi-space) on two framework-bound pages, with the flag at 8, 16, 32 and without it (Node's default), in
 * alternating rounds (the order of the variants reversed every other round), same warm-up and duration for each:
 *   - `/page` of bench/servers/fw.mjs (public, nunjucks, 20 escaped rows), one process;
 *   - the signed-in `/private` of bench/servers/scale.mjs (sessions on Redis), WEB_CONCURRENCY=1 and 2 (the
 *     workers of runtime/app/cluster.ts inherit the flag through cluster's execArgv);
 *   - the generated CRUD list page `/contacts` over BENCH_CRUD_ROWS (100,000) MariaDB rows, the project built by the
 *     CLI as bench/crud.mjs builds it and served as that section serves it (tsx), 4 connections (a page bound by
 *     its queries as much as by the framework). Needs MariaDB on 127.0.0.1:3306 and `npm run build` (dist/test).
 * BENCH_SEMISPACE_PAGES picks among `page,private1,private2,crud` (default all).
 * Memory: the RSS of the server's whole process tree (primary and workers) read from /proc right after the load,
 * and its RSS per process. Needs Redis on 127.0.0.1:6379 (REDIS_URL) for the signed-in page.
 * Run: `node bench/run.mjs --only=semispace` (BENCH_ROUNDS 4, BENCH_DURATION 5 s, BENCH_WARMUP 3 s).
 */
import { fork, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { login } from './auth.mjs';
import { processTree } from './meter.mjs';
import { BENCH_DIR, dropRedisPrefix, median, printTable } from './shared.mjs';

const CONNECTIONS = 50;
const CRUD_CONNECTIONS = 4;
const CRUD_ROWS = Number(process.env.BENCH_CRUD_ROWS ?? 100_000);
const VARIANTS = [
  { name: 'default', flags: [] },
  { name: '8', flags: ['--max-semi-space-size=8'] },
  { name: '16', flags: ['--max-semi-space-size=16'] },
  { name: '32', flags: ['--max-semi-space-size=32'] },
];
const ALL_PAGES = [
  { id: 'page', name: '/page, 1 process', kind: 'page' },
  { id: 'private1', name: 'signed-in /private, WEB_CONCURRENCY=1', kind: 'private', workers: 1 },
  { id: 'private2', name: 'signed-in /private, WEB_CONCURRENCY=2', kind: 'private', workers: 2 },
  { id: 'crud', name: 'CRUD list /contacts, 1 process', kind: 'crud' },
];

function chosenPages() {
  const text = process.env.BENCH_SEMISPACE_PAGES;
  if (!text) return ALL_PAGES;
  const ids = text.split(/[,\s]+/).filter(Boolean);
  const unknown = ids.filter((id) => !ALL_PAGES.some((p) => p.id === id));
  if (unknown.length) throw new Error(`BENCH_SEMISPACE_PAGES: unknown ${unknown.join(', ')} (choose among ${ALL_PAGES.map((p) => p.id).join(', ')})`);
  return ALL_PAGES.filter((p) => ids.includes(p.id));
}

/** The generated CRUD project of bench/crud.mjs, seeded with CRUD_ROWS contacts. */
async function crudProject() {
  const helpers = await import(pathToFileURL(path.join(BENCH_DIR, '..', 'dist', 'test', 'helpers', 'crud-app.js')).href);
  const project = helpers.buildCrudApp('mariadb');
  await project.sql([
    "INSERT INTO villes (Nom) SELECT CONCAT('Ville ', seq) FROM seq_1_to_50",
    `INSERT INTO contacts (Nom, Prenom, Email, Telephone, Actif, Notes, VilleId)
     SELECT CONCAT('Nom', seq % 5000), CONCAT('Prenom', seq), CONCAT('p', seq, '@exemple.fr'), NULL, seq % 2, NULL, 1 + seq % 50
     FROM seq_1_to_${CRUD_ROWS}`,
    'ANALYZE TABLE contacts',
  ]);
  return { helpers, project };
}

/** RSS in bytes of each process of the tree. */
function rssOfTree(pid) {
  return processTree(pid).map((p) => {
    try {
      const kb = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${p}/status`, 'utf8'))?.[1];
      return Number(kb ?? 0) * 1024;
    } catch {
      return 0;
    }
  });
}

function waitForPort(child, pattern, label) {
  return new Promise((resolve, reject) => {
    let out = '';
    child.once('exit', (code) => reject(new Error(`${label} exited (${code}) before listening`)));
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const found = pattern.exec(out);
      if (found) resolve(Number(found[1]));
    });
  });
}

async function stopChild(child, cleanup) {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
  cleanup?.();
}

/** Starts the server of a page with the flags of a variant; resolves with { pid, base, cookie, stop }. */
async function start(page, variant, prefix, crud) {
  if (page.kind === 'crud') {
    const served = await crud.helpers.serveWith(crud.project.root, [...variant.flags, '--import', 'tsx', 'app.ts']);
    const child = served.child;
    return { pid: child.pid, url: `${served.url}/contacts`, headers: {}, connections: CRUD_CONNECTIONS, stop: () => stopChild(child) };
  }
  if (page.kind === 'page') {
    const child = fork(path.join(BENCH_DIR, 'servers', 'fw.mjs'), {
      execArgv: variant.flags,
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    });
    const port = await waitForPort(child, /listening on http:\/\/127\.0\.0\.1:(\d+)/, 'fw server');
    return { pid: child.pid, url: `http://127.0.0.1:${port}/page`, headers: {}, stop: () => stopChild(child) };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-bench-semispace-'));
  const child = spawn(process.execPath, [...variant.flags, path.join(BENCH_DIR, 'servers', 'scale.mjs')], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, WEB_CONCURRENCY: String(page.workers), BENCH_SCALE_DIR: dir, BENCH_REDIS_PREFIX: prefix },
  });
  const port = await waitForPort(child, /fw-mvc : http:\/\/127\.0\.0\.1:(\d+)/, 'scale server');
  const base = `http://127.0.0.1:${port}`;
  const { cookie } = await login(base);
  const stop = () => stopChild(child, () => fs.rmSync(dir, { recursive: true, force: true }));
  return { pid: child.pid, url: `${base}/private`, headers: { cookie }, stop };
}

async function load(server, duration) {
  const connections = server.connections ?? CONNECTIONS;
  const result = await autocannon({ url: server.url, connections, duration, headers: server.headers });
  if (result.errors || result.timeouts || result.non2xx)
    throw new Error(`${server.url}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx`);
  return { rps: result.requests.total / ((new Date(result.finish) - new Date(result.start)) / 1000), p99: result.latency.p99 };
}

const mb = (bytes) => bytes / 2 ** 20;

export async function runSemispaceBench({ rounds, duration, warmup }) {
  const prefix = `fwbench:semispace:${process.pid}:`;
  const PAGES = chosenPages();
  const crud = PAGES.some((p) => p.kind === 'crud') ? await crudProject() : null;
  const samples = new Map(PAGES.flatMap((p) => VARIANTS.map((v) => [`${p.name}|${v.name}`, []])));
  try {
    for (let round = 0; round < rounds; round++) {
      for (const page of PAGES) {
        for (const variant of round % 2 ? [...VARIANTS].reverse() : VARIANTS) {
          const server = await start(page, variant, prefix, crud);
          try {
            await load(server, warmup);
            const sample = await load(server, duration);
            const rss = rssOfTree(server.pid);
            sample.rss = rss.reduce((a, b) => a + b, 0);
            sample.perProcess = Math.max(...rss.slice(page.workers > 1 ? 1 : 0));
            samples.get(`${page.name}|${variant.name}`).push(sample);
            console.log(
              `round ${round + 1}/${rounds}  ${page.name}  flag ${variant.name.padEnd(7)}  ${sample.rps.toFixed(0)} req/s  RSS ${mb(sample.rss).toFixed(1)} MB (${rss.length} processes)`,
            );
          } finally {
            await server.stop();
          }
        }
      }
    }
  } finally {
    await dropRedisPrefix(prefix).catch(() => {});
    await crud?.project.cleanup();
  }
  const rows = [];
  for (const page of PAGES) {
    const base = median(samples.get(`${page.name}|default`).map((s) => s.rps));
    for (const variant of VARIANTS) {
      const list = samples.get(`${page.name}|${variant.name}`);
      const rps = median(list.map((s) => s.rps));
      rows.push({
        page: page.name,
        flag: variant.name,
        rps: Math.round(rps),
        vs_default: Number((rps / base).toFixed(3)),
        p99: median(list.map((s) => s.p99)),
        rss_mb: Number(mb(median(list.map((s) => s.rss))).toFixed(1)),
        worker_rss_mb: Number(mb(median(list.map((s) => s.perProcess))).toFixed(1)),
      });
    }
  }
  printTable(
    ['page', '--max-semi-space-size', 'req/s', 'vs default', 'p99 ms', 'RSS after load', 'largest process'],
    rows.map((r) => [r.page, r.flag, String(r.rps), `${(r.vs_default * 100).toFixed(1)} %`, String(r.p99), `${r.rss_mb} MB`, `${r.worker_rss_mb} MB`]),
    [0, 1],
  );
  return { settings: { connections: CONNECTIONS, rounds, duration, warmup, node: process.version }, rows, targets: [] };
}
