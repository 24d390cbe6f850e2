#!/usr/bin/env node
// Runs the compiled uvu tests, one process per test file, several files at a time (FW_TEST_JOBS, default: the
// machine's cores). Each file's output is printed whole when it ends, with its time; the slowest files and the
// totals are printed at the end. A file fails when uvu exits non-zero or when fewer tests passed than were
// declared: uvu reports a failing before()/after() hook as "0 passed" with exit code 0, which would let a broken
// suite look green. `node scripts/test.mjs <pattern>` runs the files whose name matches the pattern.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const pattern = new RegExp(process.argv[2] ?? '\\.test\\.js$');
// One more file than cores: a test file waits on servers, MariaDB and child processes for about half its time, so a
// third file keeps both cores of the CI machine busy (docs/testing.md "What a run costs").
const jobs = Math.max(1, Number(process.env.FW_TEST_JOBS) || os.availableParallelism() + 1);
const durationsFile = path.join(root, 'scripts', 'test-durations.json');
const uvu = path.join(root, 'node_modules', 'uvu', 'bin.js');

const files = fs.readdirSync(path.join(root, 'dist', 'test')).filter((name) => name.endsWith('.test.js') && pattern.test(name));
if (files.length === 0) {
  console.error(`Échec : aucun fichier de test ne correspond à ${pattern}.`);
  process.exit(1);
}

// The longest files start first, so that the last ones to finish are short: the times of earlier runs, when
// scripts/test-durations.json has them (a run with FW_TEST_RECORD=1 writes the times of the files it ran into it),
// else the order of the names. A file the list does not know yet (a new one) starts before all the others: a short
// file started early costs nothing, a long one started last makes the whole run wait for it.
let known = {};
try {
  known = JSON.parse(fs.readFileSync(durationsFile, 'utf8'));
} catch {
  known = {};
}
const expected = (name) => known[name] ?? Infinity;
const queue = [...files].sort((a, b) => expected(b) - expected(a) || a.localeCompare(b));

/**
 * The run's type-checker (test/helpers/typecheck-server.ts): the tests' `tsc` runs go to it, which parses the library
 * declaration files once for the run (docs/testing.md "How `tsc` runs in tests"). Its CPU time is counted apart and
 * added to the total. Null when FW_TEST_TSC=process or when it is not built.
 */
async function startTypeChecker() {
  const script = path.join(root, 'dist', 'test', 'helpers', 'typecheck-server.js');
  if (process.env.FW_TEST_TSC === 'process' || !fs.existsSync(script)) return null;
  const socket = path.join(os.tmpdir(), `fw-test-tsc-${process.pid}.sock`);
  const child = spawn(process.execPath, [script, socket], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve, reject) => {
    child.stdout.once('data', resolve);
    child.once('exit', (code) => reject(new Error(`le vérificateur de types des tests s'est arrêté (code ${code})`)));
  });
  const ask = () =>
    new Promise((resolve) => {
      const connection = net.connect(socket, () => connection.write('{"stats":true}\n'));
      let answer = '';
      connection.on('data', (chunk) => (answer += chunk));
      connection.on('end', () => resolve(JSON.parse(answer)));
      connection.on('error', () => resolve(null));
    });
  return {
    socket,
    async stop() {
      const stats = await ask();
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      fs.rmSync(socket, { force: true });
      return stats;
    },
  };
}
const typeChecker = await startTypeChecker();

const plain = (text) => text.replace(/\u001b\[[0-9;]*m/g, '');
const escape = (name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The machine's busy and total CPU time so far, in clock ticks, from /proc/stat (its first line: user, nice, system,
 * idle, iowait, irq, softirq, steal): every process counts, the tests' and any other's. Null where /proc is not there.
 */
function machineCpu() {
  try {
    const ticks = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1, 9).map(Number);
    const idle = ticks[3] + ticks[4];
    const total = ticks.reduce((sum, n) => sum + n, 0);
    return { busy: total - idle, total };
  } catch {
    return null;
  }
}

/**
 * Each file runs in a cgroup of its own where the kernel offers cgroup v1's cpuacct controller to this user (Linux, as
 * root in CI): the kernel then counts the CPU time of the file and of every process it starts, detached servers and
 * the command runner included, which the processes' own rusage misses (docs/testing.md "What a run costs"). Elsewhere
 * the CPU column is left out. Returns the group's folder, or null.
 */
const CPU_GROUPS = '/sys/fs/cgroup/cpuacct';
let groupCount = 0;
function cpuGroup() {
  try {
    const dir = path.join(CPU_GROUPS, `fw-test-${process.pid}-${++groupCount}`);
    fs.mkdirSync(dir);
    return dir;
  } catch {
    return null;
  }
}

/** The group's CPU time in ms and the processes still in it; the group is removed once it is empty. */
async function closeGroup(dir) {
  const read = (name) => fs.readFileSync(path.join(dir, name), 'utf8');
  const live = () => read('cgroup.procs').split('\n').filter(Boolean);
  // A server stopped by an after() hook may take a moment to go; what is still there after a second was left running.
  for (let i = 0; i < 20 && live().length > 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
  const cpuMs = Number(read('cpuacct.usage')) / 1e6;
  const left = live();
  for (const pid of left) {
    try {
      process.kill(Number(pid), 'SIGKILL');
    } catch {
      // already gone
    }
  }
  for (let i = 0; i < 20; i++) {
    try {
      fs.rmdirSync(dir);
      break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return { cpuMs, left: left.length };
}

function runFile(file) {
  return new Promise((resolve) => {
    const start = performance.now();
    const group = cpuGroup();
    const args = [uvu, 'dist/test', `^${escape(file)}$`];
    // The shell puts itself in the group, then becomes the test process: nothing runs before it is counted.
    const [command, commandArgs] = group
      ? ['/bin/sh', ['-c', 'echo $$ > "$0/cgroup.procs" && exec "$@"', group, process.execPath, ...args]]
      : [process.execPath, args];
    const child = spawn(command, commandArgs, {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      // The servers' access lines (one per request) would bury the output; a test that reads them turns them on.
      env: { ACCESS_LOG: 'off', ...process.env, FW_TEST_FILE: file, ...(typeChecker ? { FW_TEST_TYPECHECK: typeChecker.socket } : {}) },
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('exit', async (code, signal) => {
      const ms = performance.now() - start;
      const counted = group ? await closeGroup(group) : null;
      const text = plain(output);
      const total = Number(/Total:\s+(\d+)/.exec(text)?.[1] ?? NaN);
      const passed = Number(/Passed:\s+(\d+)/.exec(text)?.[1] ?? NaN);
      const skipped = Number(/Skipped:\s+(\d+)/.exec(text)?.[1] ?? 0);
      let failure = null;
      if (signal) failure = `arrêté par ${signal}`;
      else if (code !== 0) failure = `code de sortie ${code}`;
      else if (!(passed + skipped === total && total > 0))
        failure = `${passed} test(s) réussi(s) sur ${total} déclaré(s) ; un hook before/after a probablement échoué`;
      if (counted?.left) output += `\n${counted.left} processus laissé(s) en marche par le fichier, arrêté(s) par le lanceur.\n`;
      resolve({ file, ms, cpuMs: counted?.cpuMs ?? null, output, failure, total: total || 0, passed: passed || 0, skipped });
    });
  });
}

const started = performance.now();
const cpuAtStart = machineCpu();
const results = [];
async function worker() {
  for (let file = queue.shift(); file; file = queue.shift()) {
    const result = await runFile(file);
    results.push(result);
    process.stdout.write(result.output.endsWith('\n') ? result.output : result.output + '\n');
    const mark = result.failure ? `ÉCHEC (${result.failure})` : 'ok';
    const cpuText = result.cpuMs === null ? '' : `, CPU ${(result.cpuMs / 1000).toFixed(1)} s`;
    process.stdout.write(`  (${file}: ${(result.ms / 1000).toFixed(1)} s${cpuText}, ${mark}) [${results.length}/${files.length}]\n`);
  }
}
await Promise.all(Array.from({ length: Math.min(jobs, files.length) }, worker));
const wall = performance.now() - started;
const checkerStats = typeChecker ? await typeChecker.stop() : null;

if (process.env.FW_TEST_RECORD === '1') {
  // The files of this run get their new time; the others keep theirs; the files that no longer exist are dropped.
  const all = new Set(fs.readdirSync(path.join(root, 'dist', 'test')).filter((name) => name.endsWith('.test.js')));
  const merged = { ...known, ...Object.fromEntries(results.map((r) => [r.file, Math.round(r.ms)])) };
  const durations = Object.fromEntries(
    Object.keys(merged)
      .filter((name) => all.has(name))
      .sort()
      .map((name) => [name, merged[name]]),
  );
  fs.writeFileSync(durationsFile, JSON.stringify(durations, null, 2) + '\n');
}

const slowest = [...results].sort((a, b) => b.ms - a.ms).slice(0, 10);
const cpu = results.reduce((sum, r) => sum + r.ms, 0);
console.log(`\nSlowest test files (${results.length} files, ${(cpu / 1000).toFixed(1)} s of file time):`);
for (const r of slowest) console.log(`  ${(r.ms / 1000).toFixed(1).padStart(7)} s  ${r.file}`);
const counted = results.filter((r) => r.cpuMs !== null);
if (counted.length === results.length && counted.length > 0) {
  const checkerMs = checkerStats?.cpuMs ?? 0;
  const cpuTotal = counted.reduce((n, r) => n + r.cpuMs, 0) + checkerMs;
  console.log(`\nMost CPU (the file and every process it started; ${(cpuTotal / 1000).toFixed(1)} s in all):`);
  for (const r of [...counted].sort((a, b) => b.cpuMs - a.cpuMs).slice(0, 10)) console.log(`  ${(r.cpuMs / 1000).toFixed(1).padStart(7)} s  ${r.file}`);
  if (checkerStats)
    console.log(`  ${(checkerMs / 1000).toFixed(1).padStart(7)} s  the run's type-checker (${checkerStats.checks} runs of tsc, counted apart from the files)`);
}
const sum = (key) => results.reduce((n, r) => n + r[key], 0);
console.log(
  `\nTotal: ${sum('total')}  Passed: ${sum('passed')}  Skipped: ${sum('skipped')}  ` +
    `files: ${results.length}, ${jobs} at a time, ${(wall / 1000).toFixed(1)} s`,
);
const cpuAtEnd = machineCpu();
if (cpuAtEnd && cpuAtStart) {
  const busy = (cpuAtEnd.busy - cpuAtStart.busy) / (cpuAtEnd.total - cpuAtStart.total);
  console.log(`CPU of the machine during the run (the tests' and any other work's): ${(busy * 100).toFixed(0)} % busy`);
}
const failed = results.filter((r) => r.failure);
if (failed.length > 0) {
  console.error(`\nÉchec : ${failed.length} fichier(s) :`);
  for (const r of failed) console.error(`  ${r.file} (${r.failure})`);
  process.exit(1);
}
