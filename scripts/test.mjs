#!/usr/bin/env node
// Runs the compiled uvu tests and fails when fewer tests passed than were declared: uvu reports a failing
// before()/after() hook as "0 passed" with exit code 0, which would let a broken suite look green.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const pattern = process.argv[2] ?? '\\.test\\.js$';
const child = spawn(process.execPath, [path.join(root, 'node_modules', 'uvu', 'bin.js'), 'dist/test', pattern], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
let output = '';
child.stdout.on('data', (chunk) => {
  output += chunk;
  process.stdout.write(chunk);
});
child.on('exit', (code, signal) => {
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
