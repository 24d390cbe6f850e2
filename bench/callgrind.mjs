/**
 * Instructions per request of a server, counted by valgrind's callgrind: the same figure on a quiet machine and on
 * a loaded one (callgrind counts instructions, not seconds), so two servers compared this way are compared on their
 * own work, whatever else the 2 cores run (docs/performance.md "Instructions per request").
 *
 * The server runs under `valgrind --tool=callgrind --instr-atstart=no`: it starts and takes its warm-up requests
 * uncounted (the JIT settles, pools and caches fill), then `callgrind_control -i on` counts exactly `requests`
 * requests sent `concurrency` at a time, and `-i off` stops. Every thread of the process counts (V8's compiler and
 * garbage collector threads included). valgrind runs the server about 50 times slower, so the counts are of a few
 * hundred requests.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A GET and its body. A keep-alive connection left idle while callgrind_control talks to the server (seconds under
 * valgrind) may be closed by the server as the next request goes out: that request is sent once more.
 */
async function get(url) {
  for (let attempt = 1; ; attempt++) {
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      return response;
    } catch (err) {
      if (attempt === 3 || err?.cause?.code !== 'ECONNRESET') throw err;
    }
  }
}

/** Whether valgrind and callgrind_control are installed (Debian's valgrind package has both). */
export function callgrindAvailable() {
  return ['valgrind', 'callgrind_control'].every((tool) => spawnSync(tool, ['--version'], { stdio: 'ignore' }).status === 0);
}

/**
 * V8 run predictably: no concurrent compiler or collector threads, and a collection schedule that does not depend
 * on time. Without it, counts of the same page differed by 30 % from run to run: under valgrind's slowness, V8's
 * time-based heuristics (the memory reducer, idle-time collections) collect at other moments.
 */
const V8_FLAGS = ['--predictable'];

/**
 * valgrind's debugger link (vgdb, which callgrind_control speaks through) names its files after USER and HOST:
 * the server and callgrind_control must see the same two values.
 */
const VGDB_ENV = { USER: 'fw-bench', LOGNAME: 'fw-bench', HOST: '127.0.0.1' };

/**
 * For each of `paths` in turn, counts the instructions of `requests` GET requests (after `warmup` uncounted ones)
 * in the server that `node <nodeArgs>` starts in `cwd` with `env`; `ready` finds the server's URL in its standard
 * output (a RegExp whose first group is the base URL). Returns `[{ path, perRequest, total, requests }]`.
 */
export async function instructionsPerRequest({ nodeArgs, cwd, env, ready, paths, warmup = 200, requests = 100, concurrency = 4 }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-callgrind-'));
  const out = path.join(dir, 'callgrind.out');
  const valgrind = ['--tool=callgrind', '--instr-atstart=no', '--smc-check=all-non-file', `--callgrind-out-file=${out}`];
  const child = spawn('valgrind', [...valgrind, process.execPath, ...V8_FLAGS, ...nodeArgs], {
    cwd,
    env: { ...env, ...VGDB_ENV },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr.on('data', (chunk) => (output = (output + chunk).slice(-4000)));
  try {
    const base = await new Promise((resolve, reject) => {
      let stdout = '';
      const timer = setTimeout(() => reject(new Error(`le serveur n'a pas démarré sous valgrind en 180 s :\n${output}`)), 180_000);
      child.stdout.on('data', (chunk) => {
        stdout += chunk;
        const match = ready.exec(stdout);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`le serveur s'est arrêté sous valgrind (${code}) :\n${output}`));
      });
    });
    const send = async (urlPath, count) => {
      let sent = 0;
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (sent++ < count) {
            const response = await get(base + urlPath);
            if (response.status !== 200) throw new Error(`${urlPath} : ${response.status}`);
          }
        }),
      );
    };
    const control = (...args) => execFileSync('callgrind_control', [...args, String(child.pid)], { env: { ...process.env, ...VGDB_ENV }, stdio: 'ignore' });
    const counted = new Set();
    /** The totals of the dump files written since the last call. */
    const newTotal = () => {
      let total = 0;
      for (const name of fs.readdirSync(dir)) {
        if (counted.has(name)) continue;
        counted.add(name);
        const match = /^totals: (\d+)/m.exec(fs.readFileSync(path.join(dir, name), 'utf8'));
        if (match) total += Number(match[1]);
      }
      return total;
    };
    const results = [];
    for (const urlPath of paths) {
      await send(urlPath, warmup);
      control('--zero');
      control('-i', 'on');
      await send(urlPath, requests);
      control('-i', 'off');
      control('--dump'); // the counts of this path, in a file of their own
      const total = newTotal();
      if (total === 0) throw new Error(`callgrind n'a rien compté pour ${urlPath} :\n${output}`);
      results.push({ path: urlPath, perRequest: total / requests, total, requests });
    }
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    return results;
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
