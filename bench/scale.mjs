/**
 * The scale section: the signed-in bench page (sessions on Redis) served by WEB_CONCURRENCY=1, then 2 processes
 * (runtime/app/cluster.ts), in alternating rounds; prints req/s and p99 of each and their ratio. The load
 * generator runs on the same machine: on 2 cores it takes CPU from the workers, so the ratio measured here is a
 * floor for what two cores give a server whose clients are elsewhere. Needs Redis on 127.0.0.1:6379 (REDIS_URL).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { login } from './auth.mjs';
import { BENCH_DIR, median, printTable } from './shared.mjs';

const CONNECTIONS = 50;
const COUNTS = [1, 2];

async function start(workers, prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-bench-scale-'));
  const child = spawn(process.execPath, [path.join(BENCH_DIR, 'servers', 'scale.mjs')], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, WEB_CONCURRENCY: String(workers), BENCH_SCALE_DIR: dir, BENCH_REDIS_PREFIX: prefix },
  });
  const port = await new Promise((resolve, reject) => {
    let out = '';
    child.once('exit', (code) => reject(new Error(`scale server (${workers}) exited (${code}) before listening`)));
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const found = /fw-mvc : http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (found) resolve(Number(found[1]));
    });
  });
  const stop = async () => {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    fs.rmSync(dir, { recursive: true, force: true });
  };
  return { base: `http://127.0.0.1:${port}`, stop };
}

async function load(base, cookie, duration) {
  const result = await autocannon({ url: `${base}/private`, connections: CONNECTIONS, duration, headers: { cookie } });
  if (result.errors || result.timeouts || result.non2xx)
    throw new Error(`/private: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx`);
  return { rps: result.requests.total / ((new Date(result.finish) - new Date(result.start)) / 1000), p99: result.latency.p99 };
}

async function dropPrefix(prefix) {
  const { createClient } = await import('redis');
  const client = createClient({ url: process.env.REDIS_URL || 'redis://127.0.0.1:6379' });
  await client.connect();
  for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 })) if (keys.length) await client.del(keys);
  await client.close();
}

export async function runScaleBench({ rounds, duration, warmup }) {
  const prefix = `fwbench:scale:${process.pid}:`;
  const samples = Object.fromEntries(COUNTS.map((n) => [n, []]));
  try {
    for (let round = 0; round < rounds; round++) {
      for (const workers of round % 2 ? [...COUNTS].reverse() : COUNTS) {
        const server = await start(workers, prefix);
        try {
          const { cookie } = await login(server.base);
          await load(server.base, cookie, warmup);
          samples[workers].push(await load(server.base, cookie, duration));
          console.log(`round ${round + 1}/${rounds}  WEB_CONCURRENCY=${workers}  ${samples[workers].at(-1).rps.toFixed(0)} req/s`);
        } finally {
          await server.stop();
        }
      }
    }
  } finally {
    await dropPrefix(prefix);
  }
  const rows = COUNTS.map((n) => ({ workers: n, rps: median(samples[n].map((s) => s.rps)), p99: median(samples[n].map((s) => s.p99)) }));
  const ratio = rows[1].rps / rows[0].rps;
  printTable(
    ['WEB_CONCURRENCY', 'signed-in /private req/s (Redis sessions)', 'p99 ms'],
    rows.map((r) => [String(r.workers), r.rps.toFixed(0), r.p99.toFixed(1)]),
    [0],
  );
  console.log(`\n2 processes / 1: ${ratio.toFixed(2)}× (${os.availableParallelism()} cores, the load generator on the same machine)`);
  return {
    settings: { connections: CONNECTIONS, rounds, duration, warmup },
    rows: rows.map((r) => ({ ...r, rps: Math.round(r.rps), p99: Number(r.p99.toFixed(1)) })),
    ratio: Number(ratio.toFixed(2)),
    targets: [{ target: 'WEB_CONCURRENCY=2 ≥ 1.7× WEB_CONCURRENCY=1 (signed-in page)', value: `${ratio.toFixed(2)}×`, pass: ratio >= 1.7 }],
  };
}
