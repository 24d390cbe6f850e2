// A project made by `fw new` type-checks under `tsc --noEmit` and serves its home page as a real process.
import { spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnApp, stopApp } from './helpers/app-process.js';
import { runTsc } from './helpers/typecheck.js';

const REPO = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
const FW = path.join(REPO, 'bin', 'fw.js');
const TSX = path.join(REPO, 'node_modules', 'tsx', 'dist', 'cli.mjs');

let work = '';
let project = '';
let server: ChildProcess | undefined;

// Set up in a test, not in before(): uvu reports a failing before() hook as zero tests run, exit code 0.
test('fw new creates the project', () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-project-'));
  const made = spawnSync(process.execPath, [FW, 'new', 'Boutique', '--no-install'], { cwd: work, encoding: 'utf8' });
  assert.is(made.status, 0, made.stderr);
  project = path.join(work, 'Boutique');
  // Stand-in for `npm install`: the framework itself and the Node types, linked from this repository.
  fs.mkdirSync(path.join(project, 'node_modules'), { recursive: true });
  fs.symlinkSync(REPO, path.join(project, 'node_modules', 'fw-mvc'), 'dir');
  fs.symlinkSync(path.join(REPO, 'node_modules', '@types'), path.join(project, 'node_modules', '@types'), 'dir');
});

test.after(() => {
  server?.kill('SIGKILL');
  fs.rmSync(work, { recursive: true, force: true });
});

test('editors map entity files to the JSON Schemas of the installed package', () => {
  const settings = JSON.parse(fs.readFileSync(path.join(project, '.vscode', 'settings.json'), 'utf8'));
  const urls = settings['json.schemas'].map((entry: { url: string }) => entry.url);
  assert.equal(urls, ['./node_modules/fw-mvc/schemas/entity.schema.json', './node_modules/fw-mvc/schemas/relations.schema.json']);
});

test('the new project type-checks with tsc --noEmit (strict)', () => {
  const result = runTsc(project, ['-p', path.join(project, 'tsconfig.json'), '--noEmit']);
  assert.is(result.status, 0, result.stdout + result.stderr);
});

test('a type error in the project is reported by the same check', () => {
  const file = path.join(project, 'mvc', 'broken.ts');
  fs.writeFileSync(file, "import { Router } from 'fw-mvc';\nnew Router().add('GET', '/', 42);\n");
  try {
    const result = runTsc(project, ['-p', path.join(project, 'tsconfig.json'), '--noEmit']);
    assert.is.not(result.status, 0);
    assert.match(result.stdout, /broken\.ts/);
  } finally {
    fs.rmSync(file);
  }
});

test('app.ts under tsx (as npm run dev) serves the home page, the stylesheet and the error pages with the security headers', async () => {
  const app = spawnApp({ cwd: project, tsx: TSX, env: process.env, timeoutMs: 20_000 });
  server = app.child;
  const base = await app.url;
  const home = await fetch(`${base}/`);
  assert.is(home.status, 200);
  assert.is(home.headers.get('content-type'), 'text/html; charset=utf-8');
  assert.is(home.headers.get('x-frame-options'), 'DENY');
  assert.is(home.headers.get('set-cookie'), null, 'the home page needs no session');
  const page = await home.text();
  assert.match(page, /<title>[^<]*<\/title>/);
  assert.match(page, /href="\/static\/tailwind\.css"/);
  assert.match(page, /fw make:crud Contact/);

  const css = await fetch(`${base}/static/tailwind.css`);
  assert.is(css.status, 200);
  assert.is(css.headers.get('content-type'), 'text/css; charset=utf-8');
  assert.ok((await css.text()).length > 1000);

  const js = await fetch(`${base}/static/js/app.js`);
  assert.is(js.status, 200);
  assert.is(js.headers.get('content-type'), 'text/javascript; charset=utf-8');

  const missing = await fetch(`${base}/nulle-part`);
  assert.is(missing.status, 404);
  assert.match(await missing.text(), /<html lang="fr">/);
  assert.is(missing.headers.get('content-security-policy')?.includes("frame-ancestors 'none'"), true);

  assert.is(await stopApp(server), 0);
  server = undefined;
});

test.run();
