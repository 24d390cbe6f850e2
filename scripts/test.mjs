#!/usr/bin/env node
// Runs the compiled uvu tests and fails when fewer tests passed than were declared: uvu reports a failing
// before()/after() hook as "0 passed" with exit code 0, which would let a broken suite look green.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const pattern = process.argv[2] ?? '\\.test\\.js$';
const child = spawn(process.execPath, [path.join(root, 'node_modules', 'uvu', 'bin.js'), 'dist/test', pattern], {
  cwd: root,
  stdio: ['ignore', 'pipe', 'inherit'],
});
let output = '';
// Each file's time: uvu prints a file's name on a line of its own before its suites; a file ends where the next
// begins (or where the run ends). Each file's time is printed when it ends, and the slowest ten at the end.
const times = [];
let current = null;
let pending = '';
function mark(name) {
  const now = performance.now();
  if (current) {
    const ms = now - current.start;
    times.push({ file: current.file, ms });
    process.stdout.write(`  (${current.file}: ${(ms / 1000).toFixed(1)} s)\n`);
  }
  current = name ? { file: name, start: now } : null;
}
child.stdout.on('data', (chunk) => {
  output += chunk;
  pending += chunk;
  const lines = pending.split('\n');
  pending = lines.pop() ?? '';
  // Whole lines only, so that a file's time is printed on a line of its own just before the next file's name.
  for (const line of lines) {
    const name = /^([\w.-]+\.test\.js)$/.exec(line.replace(/\u001b\[[0-9;]*m/g, '').trim())?.[1];
    if (name) mark(name);
    process.stdout.write(line + '\n');
  }
});
child.on('exit', (code, signal) => {
  if (pending) process.stdout.write(pending + '\n');
  mark(null);
  if (times.length > 0) {
    const slowest = [...times].sort((a, b) => b.ms - a.ms).slice(0, 10);
    const total = times.reduce((sum, t) => sum + t.ms, 0);
    console.log(`\nSlowest test files (${times.length} files, ${(total / 1000).toFixed(1)} s in all):`);
    for (const t of slowest) console.log(`  ${(t.ms / 1000).toFixed(1).padStart(7)} s  ${t.file}`);
  }
  if (signal) process.exit(1);
  const plain = output.replace(/\u001b\[[0-9;]*m/g, '');
  const total = Number(/Total:\s+(\d+)/.exec(plain)?.[1] ?? NaN);
  const passed = Number(/Passed:\s+(\d+)/.exec(plain)?.[1] ?? NaN);
  const skipped = Number(/Skipped:\s+(\d+)/.exec(plain)?.[1] ?? 0);
  if (code === 0 && !(passed + skipped === total && total > 0)) {
    console.error(`\nÉchec : ${passed} test(s) réussi(s) sur ${total} déclaré(s) ; un hook before/after a probablement échoué (voir plus haut).`);
    process.exit(1);
  }
  process.exit(code ?? 1);
});
