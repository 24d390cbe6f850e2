// The install stays offline-safe without a deprecated npm setting: prebuild-install (better-sqlite3's install
// script) reads `.prebuild-installrc` from the repository and from every generated project, and is told to
// compile from source instead of downloading a binary; npm has nothing to warn about.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const REPO = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
const FW = path.join(REPO, 'bin', 'fw.js');
const RC = path.join(REPO, 'node_modules', 'prebuild-install', 'rc.js');

const made: string[] = [];
function workdir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-install-config-'));
  made.push(dir);
  return dir;
}

/** The environment less npm's own variables, with HOME in an empty folder: only the project's files count. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_|^prebuild-install_/i.test(key)));
  return { ...env, HOME: workdir() };
}

/**
 * prebuild-install's own configuration, resolved as better-sqlite3's install script resolves it: from the folder
 * npm runs the script in, `<project>/node_modules/better-sqlite3`.
 */
function buildFromSource(project: string): unknown {
  const pkg = path.join(project, 'node_modules', 'better-sqlite3');
  fs.mkdirSync(pkg, { recursive: true });
  fs.copyFileSync(path.join(REPO, 'node_modules', 'better-sqlite3', 'package.json'), path.join(pkg, 'package.json'));
  const script = `process.stdout.write(JSON.stringify(require(${JSON.stringify(RC)})(require('./package.json')).buildFromSource))`;
  const result = spawnSync(process.execPath, ['-e', script], { cwd: pkg, encoding: 'utf8', env: cleanEnv() });
  assert.is(result.status, 0, result.stderr);
  return JSON.parse(result.stdout);
}

test.after(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

test("the repository's .prebuild-installrc makes better-sqlite3 compile instead of download", () => {
  const bare = workdir();
  assert.is(buildFromSource(bare), false, 'without the file, prebuild-install would download');
  const repo = workdir();
  fs.copyFileSync(path.join(REPO, '.prebuild-installrc'), path.join(repo, '.prebuild-installrc'));
  assert.is(buildFromSource(repo), true);
});

test('a generated project carries the same setting', () => {
  const cwd = workdir();
  const result = spawnSync(process.execPath, [FW, 'new', 'Compile', '--no-install'], { cwd, encoding: 'utf8' });
  assert.is(result.status, 0, result.stderr);
  assert.is(buildFromSource(path.join(cwd, 'Compile')), true);
});

test('npm reads no unknown setting from the repository', () => {
  assert.not.ok(fs.existsSync(path.join(REPO, '.npmrc')) && /build-from-source/.test(fs.readFileSync(path.join(REPO, '.npmrc'), 'utf8')));
  const result = spawnSync('npm', ['config', 'get', 'fund'], { cwd: REPO, encoding: 'utf8', env: cleanEnv() });
  assert.is(result.status, 0, result.stderr);
  assert.not.match(result.stderr, /Unknown project config/);
});

test.run();
