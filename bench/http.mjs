/**
 * The HTTP section: raw node:http, fastify and fw-mvc (with its metrics off, and on: servers/fw-metrics.mjs) in their own
 * child processes, checked to answer alike, then loaded in turn with autocannon (from the parent process) in alternating rounds;
 * medians and targets.
 */
import { fork, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { STATIC_SECURITY_HEADERS, buildCspHeader } from 'fw-mvc';
import { startMeter } from './meter.mjs';
import { BENCH_DIR, HELLO, HTML_TYPE, JSON_TYPE, ROUTES, SECURITY_HEADERS, TEXT_TYPE, median, printTable } from './shared.mjs';

const SERVERS = { raw: 'node:http', fastify: 'fastify', fw: 'fw-mvc', 'fw-metrics': 'fw-mvc+metrics' };
const NAMES = Object.keys(SERVERS);
const RETRIES = 3;
const CONNECTIONS = 50;
const PIPELINING = 1;
const MIN_RATIO = { '/hello': 0.85, '/json': 0.85, '/page': 0.95 };
const MAX_RSS_MB = 100;
const EXPECTED = {
  '/hello': { type: TEXT_TYPE, body: HELLO },
  '/json': { type: JSON_TYPE, body: JSON.stringify({ message: HELLO }) },
  '/page': { type: HTML_TYPE, contains: '<td>&lt;b&gt;Row 3 &amp; &quot;quotes&quot;&lt;/b&gt;</td>' },
};
/**
 * Headers node:http adds by itself, and fw-mvc's X-Request-Id (the id of its access line, which the others do not
 * write: docs/performance.md "The access line"); every other header must be the same set on every server.
 */
const TRANSPORT_HEADERS = new Set(['date', 'connection', 'keep-alive', 'x-request-id']);

/** The CPUs of an affinity list such as `0-3,6`. */
function cpuList(text) {
  return text.split(',').flatMap((part) => {
    const [from, to = from] = part.split('-').map(Number);
    return Array.from({ length: to - from + 1 }, (_, i) => from + i);
  });
}

/**
 * With taskset and two allowed CPUs or more (BENCH_PIN=0 turns it off): the load generator (this process) on one
 * CPU, every server on another, so that the scheduler cannot put a server and autocannon on the same CPU for a
 * while (servers are loaded one at a time, so they never compete). Returns { server, restore } or null.
 */
function pinning() {
  if (process.env.BENCH_PIN === '0') return null;
  const probe = spawnSync('taskset', ['-cp', String(process.pid)], { encoding: 'utf8' });
  const list = probe.status === 0 ? /:\s*(\S+)\s*$/.exec(probe.stdout)?.[1] : undefined;
  const cpus = list ? cpuList(list) : [];
  if (cpus.length < 2) return null;
  const pin = (pid, cpu) => spawnSync('taskset', ['-cp', String(cpu), String(pid)]).status === 0;
  if (!pin(process.pid, cpus[0])) return null;
  return { server: (pid) => pin(pid, cpus[1]), cpus: [cpus[0], cpus[1]], restore: () => pin(process.pid, list) };
}

/** The copy in shared.mjs must be what the framework sends. */
function checkHeaderCopy() {
  const framework = [...STATIC_SECURITY_HEADERS.map(([n, v]) => [n, v]), ['Content-Security-Policy', buildCspHeader()]];
  if (JSON.stringify(framework) !== JSON.stringify(SECURITY_HEADERS)) {
    throw new Error(`bench/shared.mjs SECURITY_HEADERS differ from runtime/security/headers.ts:\n${JSON.stringify(framework, null, 2)}`);
  }
}

/**
 * Forks a server; resolves with { child, port } once it listens. Its stderr goes to a file, as a journal would
 * receive it (fw-mvc writes an access line per request), quoted if it stops before listening.
 */
function start(name) {
  const logFile = path.join(os.tmpdir(), `fw-bench-${name}-${process.pid}.log`);
  const log = fs.openSync(logFile, 'w');
  const child = fork(path.join(BENCH_DIR, 'servers', `${name}.mjs`), { stdio: ['ignore', 'ignore', log, 'ipc'] });
  fs.closeSync(log);
  const started = new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`server ${name} exited (${code}) before listening: ${fs.readFileSync(logFile, 'utf8').slice(-2000)}`)));
    child.on('message', (msg) => msg?.type === 'ready' && resolve({ child, port: msg.port }));
  });
  // After the listener above, which quotes the file.
  child.once('exit', () => fs.rmSync(logFile, { force: true }));
  return started;
}

function rssOf({ child }) {
  return new Promise((resolve) => {
    const onMessage = (msg) => {
      if (msg?.type !== 'rss') return;
      child.off('message', onMessage);
      resolve(msg.rss);
    };
    child.on('message', onMessage);
    child.send({ type: 'rss' });
  });
}

function fetchOnce(port, route) {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: route, agent: false }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      })
      .on('error', reject);
  });
}

/** Every server answers every route with 200, the six headers, the expected type, the same header set and the same body. */
async function verify(servers) {
  const problems = [];
  for (const route of ROUTES) {
    const bodies = {};
    const headerSets = {};
    for (const name of NAMES) {
      const { status, headers, body } = await fetchOnce(servers[name].port, route);
      const where = `${SERVERS[name]} ${route}`;
      if (status !== 200) problems.push(`${where}: status ${status}`);
      for (const [header, value] of SECURITY_HEADERS) {
        if (headers[header.toLowerCase()] !== value) problems.push(`${where}: ${header} = ${JSON.stringify(headers[header.toLowerCase()])}`);
      }
      const expected = EXPECTED[route];
      if (headers['content-type'] !== expected.type) problems.push(`${where}: Content-Type = ${headers['content-type']}`);
      if (headers['content-length'] !== String(Buffer.byteLength(body))) problems.push(`${where}: Content-Length = ${headers['content-length']}`);
      if (expected.body !== undefined && body !== expected.body) problems.push(`${where}: body ${JSON.stringify(body.slice(0, 80))}`);
      if (expected.contains !== undefined && !body.includes(expected.contains)) problems.push(`${where}: body lacks ${expected.contains}`);
      bodies[name] = body;
      headerSets[name] = Object.keys(headers)
        .filter((h) => !TRANSPORT_HEADERS.has(h))
        .sort()
        .join(', ');
    }
    for (const name of NAMES) {
      if (bodies[name] !== bodies.raw) problems.push(`${SERVERS[name]} ${route}: body differs from node:http's`);
      if (headerSets[name] !== headerSets.raw)
        problems.push(`${SERVERS[name]} ${route}: headers [${headerSets[name]}] differ from node:http's [${headerSets.raw}]`);
    }
  }
  if (problems.length) throw new Error(`The servers do not answer alike:\n  ${problems.join('\n  ')}`);
}

/** One autocannon run; its req/s (all requests over the measured time), p99, and the server's CPU time per request. */
async function load(server, route, duration) {
  const meter = startMeter(server.child.pid);
  const result = await autocannon({ url: `http://127.0.0.1:${server.port}${route}`, connections: CONNECTIONS, pipelining: PIPELINING, duration });
  const { serverCpu, noise } = meter();
  if (result.errors || result.timeouts || result.non2xx) {
    throw new Error(`load on ${route} (port ${server.port}): ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx`);
  }
  const seconds = (new Date(result.finish) - new Date(result.start)) / 1000;
  return { rps: result.requests.total / seconds, p99: result.latency.p99, cpuUs: (serverCpu * 1e6) / result.requests.total, noise };
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A measure; when other work ran meanwhile, waits for a quiet second (at most 10 s) and measures again, keeping the quietest. */
async function sample(server, route, { duration, maxNoise }) {
  let best;
  for (let attempt = 0; attempt <= RETRIES; attempt++) {
    const result = await load(server, route, duration);
    if (!best || result.noise < best.noise) best = result;
    if (result.noise <= maxNoise) break;
    for (let waited = 0; waited < 10; waited++) {
      const idle = startMeter(server.child.pid);
      await sleep(1000);
      if (idle().noise <= maxNoise) break;
    }
  }
  return best;
}

/**
 * Runs the section. `settings`: { rounds, duration, warmup (s), maxNoise (cores) }.
 * The ratio of a server is its median req/s over the rounds divided by node:http's. A median per server rather
 * than a median of per-round ratios: on a shared virtual machine the slowdowns come in bursts of a few seconds
 * that hit one sample, and a per-round ratio would be spoiled by a burst on either of its two samples. The
 * best-round ratio (fastest round of each) is printed too: such bursts only ever slow a server down.
 */
export async function runHttp(settings) {
  checkHeaderCopy();
  const servers = {};
  const pinned = pinning();
  try {
    for (const name of NAMES) {
      servers[name] = await start(name);
      if (pinned && !pinned.server(servers[name].child.pid)) throw new Error(`taskset could not pin the ${name} server`);
    }
    await verify(servers);
    console.log(`checked: ${NAMES.length} servers × ${ROUTES.length} routes answer 200 with the six headers, the same header set and the same bodies`);
    console.log(pinned ? `CPUs: autocannon on CPU ${pinned.cpus[0]}, the servers on CPU ${pinned.cpus[1]} (BENCH_PIN=0: no pinning)` : 'CPUs: not pinned');
    console.log(
      `load: autocannon, ${CONNECTIONS} connections, pipelining ${PIPELINING}, warm-up ${settings.warmup} s per server and route, ${settings.rounds} rounds × ${settings.duration} s`,
    );

    for (const route of ROUTES) for (const name of NAMES) await load(servers[name], route, settings.warmup);

    const samples = {};
    for (let round = 0; round < settings.rounds; round++) {
      for (const route of ROUTES) {
        for (let i = 0; i < NAMES.length; i++) {
          const name = NAMES[(i + round) % NAMES.length]; // rotate who goes first
          const s = await sample(servers[name], route, settings);
          (samples[`${route} ${name}`] ??= []).push(s);
          console.log(
            `round ${round + 1}/${settings.rounds}  ${route.padEnd(6)} ${SERVERS[name].padEnd(14)} ${s.rps.toFixed(0).padStart(7)} req/s  p99 ${String(s.p99).padStart(3)} ms  ${s.cpuUs.toFixed(1).padStart(5)} CPU µs/req  other work ${s.noise.toFixed(2)} cores`,
          );
        }
      }
    }

    const rss = {};
    for (const name of NAMES) rss[name] = await rssOf(servers[name]);

    // Each server's median over its rounds; samples taken while other work ran (after the retries) are left out,
    // unless every sample of that server was noisy (flagged below).
    const rows = [];
    for (const route of ROUTES) {
      const stats = (name) => {
        const all = samples[`${route} ${name}`];
        const quiet = all.filter((x) => x.noise <= settings.maxNoise);
        const used = quiet.length > 0 ? quiet : all;
        return {
          rps: median(used.map((x) => x.rps)),
          best: Math.max(...used.map((x) => x.rps)),
          p99: median(used.map((x) => x.p99)),
          cpuUs: median(used.map((x) => x.cpuUs)),
          quietRounds: quiet.length,
          rounds: all,
        };
      };
      const raw = stats('raw');
      for (const name of NAMES) {
        const own = stats(name);
        rows.push({ route, server: name, ...own, ratio: own.rps / raw.rps, bestRatio: own.best / raw.best, cpuRatio: raw.cpuUs / own.cpuUs });
      }
    }
    printTable(
      ['route', 'server', 'req/s', 'p99 ms', 'ratio', 'best-round ratio', 'CPU µs/req', 'CPU ratio', 'quiet rounds', 'req/s per round (other work, cores)'],
      rows.map((r) => [
        r.route,
        SERVERS[r.server],
        r.rps.toFixed(0),
        r.p99.toFixed(1),
        r.ratio.toFixed(3),
        r.bestRatio.toFixed(3),
        r.cpuUs.toFixed(1),
        r.cpuRatio.toFixed(3),
        `${r.quietRounds}/${r.rounds.length}`,
        r.rounds.map((x) => `${x.rps.toFixed(0)} (${x.noise.toFixed(2)})`).join(' '),
      ]),
      [0, 1, 9],
    );

    const rssMb = Object.fromEntries(NAMES.map((n) => [n, Number((rss[n] / 2 ** 20).toFixed(1))]));
    console.log(`\nRSS after the load: ${NAMES.map((n) => `${SERVERS[n]} ${rssMb[n]} MB`).join(', ')}`);

    const targets = ROUTES.map((route) => {
      const { ratio, bestRatio, cpuRatio, quietRounds } = rows.find((r) => r.route === route && r.server === 'fw');
      const noisy = quietRounds === 0 ? '; UNRELIABLE: other work ran during every fw-mvc sample' : '';
      return {
        target: `fw/raw req/s on ${route} >= ${MIN_RATIO[route]}`,
        value: Number(ratio.toFixed(3)),
        pass: ratio >= MIN_RATIO[route],
        note: `best rounds: ${bestRatio.toFixed(3)}; CPU time per request: ${cpuRatio.toFixed(3)} of node:http's speed${noisy}`,
      };
    });
    targets.push({ target: `fw RSS after the load <= ${MAX_RSS_MB} MB`, value: rssMb.fw, pass: rssMb.fw <= MAX_RSS_MB });

    const results = rows.map(({ rounds, ...r }) => ({
      ...r,
      rounds: rounds.map((s) => ({ rps: Math.round(s.rps), p99: s.p99, cpuUs: Number(s.cpuUs.toFixed(1)), noise: Number(s.noise.toFixed(2)) })),
    }));
    return { settings: { connections: CONNECTIONS, pipelining: PIPELINING, pinned_cpus: pinned?.cpus ?? null, ...settings }, results, rss_mb: rssMb, targets };
  } finally {
    for (const { child } of Object.values(servers)) child.kill();
    pinned?.restore();
  }
}
