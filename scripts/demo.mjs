#!/usr/bin/env node
// The README's demo: creates (once) a project from the template in demo/Demo on the embedded SQLite
// default, installs it, and serves it on http://127.0.0.1:8000 (HOST and PORT override).
import { spawnSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const demoDir = path.join(root, 'demo');
const project = path.join(demoDir, 'Demo');
const fw = path.join(root, 'bin', 'fw.js');

function run(cmd, args, cwd) {
  const result = spawnSync(cmd, args, { cwd, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`Erreur : « ${cmd} ${args.join(' ')} » a échoué (code ${result.status}).`);
    process.exit(result.status ?? 1);
  }
}

fs.mkdirSync(demoDir, { recursive: true });
if (!fs.existsSync(path.join(project, 'package.json'))) {
  run(process.execPath, [fw, 'new', 'Demo'], demoDir);
} else if (!fs.existsSync(path.join(project, 'node_modules'))) {
  run('npm', ['install', '--no-audit', '--no-fund'], project);
}
const child = spawn('npm', ['start'], { cwd: project, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
