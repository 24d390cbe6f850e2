/**
 * The jobs section: (1) jobs per second through fw-mvc/jobs on SQLite and MariaDB beside BullMQ on the machine's
 * Redis, in one run: N jobs are enqueued first (fw-mvc: `enqueue` in one transaction; BullMQ: `addBulk`), then one
 * or two worker processes (bench/servers/jobs-worker.mjs, the same concurrency for both queues: 5, the default, and 25) are told to start,
 * and the clock runs until the store counts N jobs done (polled every 20 ms); each figure with an empty handler and a
 * 5 ms one. fw-mvc's runs are checked afterwards: every job done at its first attempt (none ran twice). (2) The added
 * time of a page that enqueues a job: the bench page with and without one `enqueue` (an INSERT into `fw_jobs`, no
 * transaction), served by fw-mvc on each dialect and loaded by autocannon in alternating rounds; the cost per
 * request is 1/rps(with) − 1/rps(without), and the handler's own time in `enqueue` is reported too (median, p99).
 * Targets: at least 1,000 empty jobs per second on MariaDB with two workers (25 jobs at once each; the default 5 is
 * reported beside it); under 1 ms added to the page.
 * Needs MariaDB on 127.0.0.1:3306 (root, no password; a database `fw_bench_jobs_<pid>` made and dropped) and Redis
 * on REDIS_URL or 127.0.0.1:6379 (a queue `fw-bench-jobs-<pid>-…`, removed afterwards).
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { BENCH_DIR, median, printTable } from './shared.mjs';

const CONNECTIONS = 50;
const POLL_MS = 20;
const MARIADB = { host: '127.0.0.1', port: 3306, user: 'root', password: '' };

function waitMessage(child, type) {
  return new Promise((resolve, reject) => {
    const onExit = (code) => reject(new Error(`a jobs bench process exited (${code}) before « ${type} »`));
    const onMessage = (msg) => {
      if (msg?.type !== type) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(msg);
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

function fork_(file, env) {
  return fork(path.join(BENCH_DIR, 'servers', file), { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], env: { ...process.env, ...env } });
}

function quantile(sorted, q) {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))];
}

/** The two databases of the section: `config` for the worker processes, `database` for this one. */
async function openStores() {
  const { openDatabase } = await import('fw-mvc');
  const { jobsTablesStatements } = await import('fw-mvc/jobs');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-bench-jobs-'));
  const name = `fw_bench_jobs_${process.pid}`;
  const admin = openDatabase({ driver: 'mariadb', ...MARIADB, poolSize: 1 });
  await admin.execute(`DROP DATABASE IF EXISTS \`${name}\``);
  await admin.execute(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  const stores = {
    sqlite: {
      label: 'SQLite',
      config: { db_driver: 'sqlite', db_file: path.join(dir, 'jobs.sqlite') },
      database: openDatabase({ driver: 'sqlite', file: path.join(dir, 'jobs.sqlite') }),
    },
    mariadb: {
      label: 'MariaDB',
      config: { db_driver: 'mariadb', db_host: MARIADB.host, db_port: MARIADB.port, db_user: MARIADB.user, db_password: MARIADB.password, db_name: name },
      database: openDatabase({ driver: 'mariadb', ...MARIADB, database: name, poolSize: 2 }),
    },
  };
  for (const [dialect, store] of Object.entries(stores)) for (const statement of jobsTablesStatements(dialect)) await store.database.execute(statement);
  return {
    stores,
    async close() {
      for (const store of Object.values(stores)) await store.database.close();
      await admin.execute(`DROP DATABASE IF EXISTS \`${name}\``);
      await admin.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Starts `workers` worker processes, waits until each is built, then tells them all to go; returns a stopper. */
async function startWorkers(workers, env) {
  const children = Array.from({ length: workers }, () => fork_('jobs-worker.mjs', env));
  await Promise.all(children.map((child) => waitMessage(child, 'ready')));
  for (const child of children) child.send({ type: 'go' });
  return async () => {
    await Promise.all(
      children.map((child) => {
        const stopped = waitMessage(child, 'stopped');
        child.send({ type: 'stop' });
        return stopped;
      }),
    );
    for (const child of children) child.kill();
  };
}

/** Polls `count()` until it reaches `total`; returns the milliseconds since `started`. */
async function until(total, count, started, what) {
  const deadline = Date.now() + 300_000;
  for (;;) {
    const n = await count();
    if (n >= total) return Number(process.hrtime.bigint() - started) / 1e6;
    if (Date.now() > deadline) throw new Error(`${what}: ${n} of ${total} jobs done after 300 s`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** `total` jobs through fw-mvc/jobs on `store` with `workers` processes; returns jobs per second. */
async function fwThroughput(store, { total, delayMs, workers, concurrency }) {
  const { defineJob } = await import('fw-mvc/jobs');
  const { database } = store;
  await database.execute('DELETE FROM fw_jobs');
  const job = defineJob('bench', () => undefined);
  await database.transaction(async (tx) => {
    for (let i = 0; i < total; i++) await job.enqueue({ n: i }, { tx });
  });
  const env = {
    BENCH_JOBS_KIND: 'fw',
    BENCH_JOBS_DB: JSON.stringify(store.config),
    BENCH_JOBS_DELAY_MS: String(delayMs),
    BENCH_JOBS_CONCURRENCY: String(concurrency),
  };
  const started = process.hrtime.bigint();
  const stop = await startWorkers(workers, env);
  let ms;
  try {
    const done = async () => Number((await database.fetchOne("SELECT COUNT(*) AS n FROM fw_jobs WHERE status = 'done'")).n);
    ms = await until(total, done, started, `fw-mvc on ${store.label}`);
  } finally {
    await stop();
  }
  const twice = Number((await database.fetchOne('SELECT COUNT(*) AS n FROM fw_jobs WHERE attempts <> 1')).n);
  if (twice) throw new Error(`fw-mvc on ${store.label}: ${twice} jobs claimed more than once`);
  return (total / ms) * 1000;
}

/** `total` jobs through BullMQ on the machine's Redis with `workers` processes; returns jobs per second. */
async function bullmqThroughput({ total, delayMs, workers, concurrency }, run) {
  const { Queue } = await import('bullmq');
  const url = new URL(process.env.REDIS_URL || 'redis://127.0.0.1:6379');
  const name = `fw-bench-jobs-${process.pid}-${run}`;
  const queue = new Queue(name, { connection: { host: url.hostname, port: Number(url.port || 6379) } });
  try {
    for (let from = 0; from < total; from += 1000) {
      const batch = Array.from({ length: Math.min(1000, total - from) }, (_, i) => ({ name: 'bench', data: { n: from + i } }));
      await queue.addBulk(batch);
    }
    const env = { BENCH_JOBS_KIND: 'bullmq', BENCH_JOBS_QUEUE: name, BENCH_JOBS_DELAY_MS: String(delayMs), BENCH_JOBS_CONCURRENCY: String(concurrency) };
    const started = process.hrtime.bigint();
    const stop = await startWorkers(workers, env);
    let ms;
    try {
      ms = await until(total, async () => (await queue.getJobCounts('completed')).completed, started, 'BullMQ');
    } finally {
      await stop();
    }
    return (total / ms) * 1000;
  } finally {
    await queue.obliterate({ force: true });
    await queue.close();
  }
}

async function load(port, route, duration) {
  const result = await autocannon({ url: `http://127.0.0.1:${port}${route}`, connections: CONNECTIONS, duration });
  if (result.errors || result.timeouts || result.non2xx)
    throw new Error(`${route}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx`);
  const seconds = (new Date(result.finish) - new Date(result.start)) / 1000;
  return { rps: result.requests.total / seconds, p50: result.latency.p50, p99: result.latency.p99 };
}

/** The bench page with and without one `enqueue`, on `store`, in alternating rounds. */
async function pageCost(store, { rounds, duration, warmup }) {
  const child = fork_('jobs-page.mjs', { BENCH_JOBS_DB: JSON.stringify(store.config) });
  const { port } = await waitMessage(child, 'ready');
  const plain = [];
  const job = [];
  let handler;
  try {
    await load(port, '/page', warmup);
    await load(port, '/page-job', warmup);
    child.send({ type: 'times' });
    await waitMessage(child, 'times');
    for (let round = 0; round < rounds; round++) {
      plain.push(await load(port, '/page', duration));
      job.push(await load(port, '/page-job', duration));
      console.log(`${store.label} round ${round + 1}/${rounds}  /page ${plain.at(-1).rps.toFixed(0)} req/s  /page-job ${job.at(-1).rps.toFixed(0)} req/s`);
    }
    child.send({ type: 'times' });
    handler = (await waitMessage(child, 'times')).times.sort((a, b) => a - b);
  } finally {
    child.kill();
  }
  const plainRps = median(plain.map((r) => r.rps));
  const jobRps = median(job.map((r) => r.rps));
  return {
    plainRps,
    jobRps,
    plainP50: median(plain.map((r) => r.p50)),
    jobP50: median(job.map((r) => r.p50)),
    addedMs: (1 / jobRps - 1 / plainRps) * 1000,
    enqueueMedianMs: quantile(handler, 0.5),
    enqueueP99Ms: quantile(handler, 0.99),
    calls: handler.length,
  };
}

export async function runJobsBench({ rounds, duration, warmup, jobs, slowJobs, concurrency, wideConcurrency }) {
  const { setLogLevel } = await import('fw-mvc');
  setLogLevel('WARNING');
  const { stores, close } = await openStores();
  const lines = [];
  const throughput = [];
  const pages = {};
  try {
    let run = 0;
    const runs = [
      ...[1, 2].map((workers) => ['empty', 0, jobs, workers, concurrency]),
      ...[1, 2].map((workers) => ['empty', 0, jobs, workers, wideConcurrency]),
      ...[1, 2].map((workers) => ['5 ms', 5, slowJobs, workers, concurrency]),
      ['5 ms', 5, slowJobs, 2, wideConcurrency],
    ];
    for (const [handler, delayMs, total, workers, atOnce] of runs) {
      const settings = { total, delayMs, workers, concurrency: atOnce };
      const sqlite = await fwThroughput(stores.sqlite, settings);
      const mariadb = await fwThroughput(stores.mariadb, settings);
      const bullmq = await bullmqThroughput(settings, ++run);
      console.log(
        `${handler} handler, ${workers} worker(s) × ${atOnce}, ${total} jobs: SQLite ${sqlite.toFixed(0)}/s, MariaDB ${mariadb.toFixed(0)}/s, BullMQ ${bullmq.toFixed(0)}/s`,
      );
      throughput.push({
        handler,
        workers,
        concurrency: atOnce,
        jobs: total,
        sqlite: Math.round(sqlite),
        mariadb: Math.round(mariadb),
        bullmq: Math.round(bullmq),
      });
      lines.push([
        handler,
        String(workers),
        String(atOnce),
        String(total),
        sqlite.toFixed(0),
        mariadb.toFixed(0),
        bullmq.toFixed(0),
        (sqlite / bullmq).toFixed(2),
        (mariadb / bullmq).toFixed(2),
      ]);
    }
    printTable(['handler', 'workers', 'at once', 'jobs', 'SQLite/s', 'MariaDB/s', 'BullMQ/s', 'SQLite÷BullMQ', 'MariaDB÷BullMQ'], lines, [0]);
    console.log(`(each worker a process; at once: the jobs each worker runs at once, ${concurrency} being the default of jobs_concurrency)\n`);
    for (const dialect of ['sqlite', 'mariadb']) pages[dialect] = await pageCost(stores[dialect], { rounds, duration, warmup });
  } finally {
    await close();
  }
  printTable(
    ['page', 'req/s', 'p50 ms', 'added ms (1/rps)', 'enqueue median ms', 'enqueue p99 ms'],
    Object.entries(pages).flatMap(([dialect, p]) => [
      [`${stores[dialect].label} /page`, p.plainRps.toFixed(0), p.plainP50.toFixed(1), '', '', ''],
      [
        `${stores[dialect].label} /page-job (one enqueue)`,
        p.jobRps.toFixed(0),
        p.jobP50.toFixed(1),
        p.addedMs.toFixed(3),
        p.enqueueMedianMs.toFixed(3),
        p.enqueueP99Ms.toFixed(3),
      ],
    ]),
    [0],
  );
  const mariadbTwo = throughput.find((t) => t.handler === 'empty' && t.workers === 2 && t.concurrency === wideConcurrency);
  const mariadbTwoDefault = throughput.find((t) => t.handler === 'empty' && t.workers === 2 && t.concurrency === concurrency);
  return {
    settings: { connections: CONNECTIONS, rounds, duration, warmup, jobs, slowJobs, concurrency, wideConcurrency },
    throughput,
    page: Object.fromEntries(
      Object.entries(pages).map(([dialect, p]) => [
        dialect,
        {
          plainRps: Math.round(p.plainRps),
          jobRps: Math.round(p.jobRps),
          addedMs: Number(p.addedMs.toFixed(3)),
          enqueueMedianMs: Number(p.enqueueMedianMs.toFixed(3)),
          enqueueP99Ms: Number(p.enqueueP99Ms.toFixed(3)),
        },
      ]),
    ),
    targets: [
      {
        target: `empty jobs on MariaDB, two workers × ${wideConcurrency}: >= 1000/s`,
        value: `${mariadbTwo.mariadb}/s`,
        pass: mariadbTwo.mariadb >= 1000,
        note: `BullMQ ${mariadbTwo.bullmq}/s; two workers × ${concurrency}: ${mariadbTwoDefault.mariadb}/s, BullMQ ${mariadbTwoDefault.bullmq}/s`,
      },
      ...Object.entries(pages).map(([dialect, p]) => ({
        target: `a page that enqueues a job (${stores[dialect].label}): < 1 ms added`,
        value: `${p.addedMs.toFixed(3)} ms`,
        pass: p.addedMs < 1,
        note: `enqueue median ${p.enqueueMedianMs.toFixed(3)} ms`,
      })),
    ],
  };
}
