/**
 * What the access line costs (docs/performance.md "The access line"): the bench's fw-mvc server (bench/servers/fw.mjs)
 * three times, with ACCESS_LOG=off, with the text line and with the JSON line, stderr written to a file as a
 * journal would receive it; /hello and /json loaded in alternating rounds with autocannon (50 connections, 3 s),
 * medians of the server's CPU time per request. Not part of `npm test` or `npm run bench`: `npm run build`, then
 * `node bench/access-log.mjs` (BENCH_ACCESS_ROUNDS=5). Run it pinned to one CPU (`taskset -c 0`) on a busy machine:
 * CPU time per request is what it compares, not req/s.
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { BENCH_DIR } from './shared.mjs';

const VARIANTS = [
  { name: 'ACCESS_LOG=off', env: { ACCESS_LOG: 'off' } },
  { name: 'LOG_FORMAT=text', env: { LOG_FORMAT: 'text' } },
  { name: 'LOG_FORMAT=json', env: { LOG_FORMAT: 'json' } },
];
const ROUTES = ['/hello', '/json'];
const rounds = Number(process.env.BENCH_ACCESS_ROUNDS ?? 5);

/** The CPU time of a process so far, in µs (user + system, from /proc). */
function cpuUs(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100;
}

function load(port, route, duration) {
  return new Promise((resolve, reject) =>
    autocannon({ url: `http://127.0.0.1:${port}${route}`, connections: 50, duration }, (err, result) => (err ? reject(err) : resolve(result))),
  );
}

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-bench-access-'));
const servers = [];
try {
  for (const variant of VARIANTS) {
    const log = fs.openSync(path.join(folder, `${servers.length}.log`), 'w');
    const child = fork(path.join(BENCH_DIR, 'servers', 'fw.mjs'), { stdio: ['ignore', 'ignore', log, 'ipc'], env: { ...process.env, ...variant.env } });
    const port = await new Promise((resolve) => child.on('message', (msg) => msg?.type === 'ready' && resolve(msg.port)));
    servers.push({ ...variant, child, port, samples: {} });
  }
  for (const server of servers) for (const route of ROUTES) await load(server.port, route, 2);
  for (let round = 0; round < rounds; round++) {
    for (const route of ROUTES) {
      for (const server of round % 2 ? [...servers].reverse() : servers) {
        const before = cpuUs(server.child.pid);
        const result = await load(server.port, route, 3);
        (server.samples[route] ??= []).push({ cpu: (cpuUs(server.child.pid) - before) / result.requests.total, rps: result.requests.average });
      }
    }
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  console.log('| route | server | CPU µs/req (median) | req/s (median) |\n|---|---|---:|---:|');
  for (const route of ROUTES) {
    for (const server of servers) {
      const samples = server.samples[route];
      console.log(`| ${route} | ${server.name} | ${median(samples.map((s) => s.cpu)).toFixed(1)} | ${Math.round(median(samples.map((s) => s.rps)))} |`);
    }
  }
} finally {
  for (const server of servers) server.child.kill();
  fs.rmSync(folder, { recursive: true, force: true });
}
