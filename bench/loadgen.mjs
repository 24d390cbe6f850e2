/**
 * The load generator of the scale section: `wrk` (C, one thread) when /usr/bin/wrk exists (Debian package `wrk`,
 * for the bench only), else autocannon in this process, said in the output. Either way a run gives req/s, p99, the
 * errors and the answers other than 200 (wrk counts them in bench/wrk-non2xx.lua: its own "Non-2xx or 3xx" line
 * leaves out redirects, and an expired session is a redirect to /login), and the CPU time the generator used.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { BENCH_DIR } from './shared.mjs';

export const WRK = '/usr/bin/wrk';
const WRK_SCRIPT = path.join(BENCH_DIR, 'wrk-non2xx.lua');
/** One thread: wrk spends a few percent of a core at these rates, the rest is left to the server. */
const WRK_THREADS = 1;
/** autocannon's default time-out, for both: wrk's own, 2 s, is reached on a loaded machine while answers still come. */
const TIMEOUT_S = 10;

/** BENCH_LOADGEN (`wrk` or `autocannon`) when set, else `wrk` when installed, else `autocannon`. */
export function loadGenerator() {
  const chosen = process.env.BENCH_LOADGEN;
  if (chosen && chosen !== 'wrk' && chosen !== 'autocannon') throw new Error(`BENCH_LOADGEN: wrk or autocannon (got ${chosen})`);
  if (chosen === 'wrk' && !fs.existsSync(WRK)) throw new Error(`BENCH_LOADGEN=wrk: ${WRK} not found (apt-get install wrk)`);
  return chosen ?? (fs.existsSync(WRK) ? 'wrk' : 'autocannon');
}

/** One line for the output: which generator, and why autocannon when it is the fallback. */
export function describeGenerator(name, connections) {
  return name === 'wrk'
    ? `load generator: wrk (${WRK}), ${WRK_THREADS} thread, ${connections} connections`
    : `load generator: autocannon in the bench's process, ${connections} connections (${fs.existsSync(WRK) ? 'BENCH_LOADGEN=autocannon' : `${WRK} not found: apt-get install wrk for a generator that leaves the cores to the server`})`;
}

const UNITS = { us: 1e-3, ms: 1, s: 1000, m: 60_000 };

/** The figures of wrk's output (with --latency and bench/wrk-non2xx.lua). */
export function parseWrk(text) {
  const number = (re) => {
    const found = re.exec(text);
    if (!found) throw new Error(`wrk: "${re.source}" not found in its output:\n${text}`);
    return Number(found[1]);
  };
  const p99 = /^\s*99%\s+([\d.]+)(us|ms|s|m)\s*$/m.exec(text);
  if (!p99) throw new Error(`wrk: no 99% latency in its output (--latency):\n${text}`);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(text);
  return {
    rps: number(/^Requests\/sec:\s+([\d.]+)/m),
    requests: number(/^\s*(\d+) requests in /m),
    p99: Number(p99[1]) * UNITS[p99[2]],
    errors: socket ? Number(socket[1]) + Number(socket[2]) + Number(socket[3]) : 0,
    timeouts: socket ? Number(socket[4]) : 0,
    non2xx: number(/^fw-non2xx (\d+)$/m),
  };
}

/** The user+system seconds of the children of a shell, from the second line of its `times`. */
function childrenCpu(timesText) {
  const lines = timesText.trim().split('\n');
  const found = /(\d+)m([\d.]+)s\s+(\d+)m([\d.]+)s/.exec(lines.at(-1) ?? '');
  if (!found) throw new Error(`times: unexpected output ${JSON.stringify(timesText)}`);
  return Number(found[1]) * 60 + Number(found[2]) + Number(found[3]) * 60 + Number(found[4]);
}

/** wrk run by a shell whose `times` gives wrk's CPU time once it has exited. */
function runWrk(url, headers, connections, duration) {
  const args = [`-t${WRK_THREADS}`, `-c${connections}`, `-d${duration}s`, `--timeout=${TIMEOUT_S}s`, '--latency', '-s', WRK_SCRIPT];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`);
  args.push(url);
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', `"$0" "$@" && echo fw-times && times`, WRK, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`wrk exited with ${code}: ${err}${out}`));
      const [report, times] = out.split('\nfw-times\n');
      resolve({ ...parseWrk(report), generatorCpu: childrenCpu(times ?? '') });
    });
  });
}

async function runAutocannon(url, headers, connections, duration) {
  const before = process.cpuUsage();
  const result = await autocannon({ url, connections, duration, headers, timeout: TIMEOUT_S });
  const used = process.cpuUsage(before);
  const seconds = (new Date(result.finish) - new Date(result.start)) / 1000;
  return {
    rps: result.requests.total / seconds,
    requests: result.requests.total,
    p99: result.latency.p99,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    generatorCpu: (used.user + used.system) / 1e6,
  };
}

/**
 * One run of `duration` seconds on `url` with `generator`; throws on any error, time-out or answer other than 200
 * (autocannon: other than 2xx). Gives `{ rps, requests, p99 (ms), generatorCpu (s) }`.
 */
export async function runLoad(generator, { url, headers = {}, connections, duration }) {
  const result = await (generator === 'wrk' ? runWrk : runAutocannon)(url, headers, connections, duration);
  if (result.errors || result.timeouts || result.non2xx)
    throw new Error(`${url}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} answers other than 200 (${generator})`);
  return result;
}
