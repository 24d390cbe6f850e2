// A project made by `fw new` installs from any folder (docs/decisions.md#projects-install-from-any-folder): copied elsewhere, the framework's folder
// out of sight, a real `npm install` takes fw-mvc from the project's vendor/ tarball; the project type-checks,
// serves its home page, runs its own `fw`, and the entity `$schema` paths reach the installed schemas.
//
// The install runs with --ignore-scripts: better-sqlite3's install script compiles SQLite (one to three minutes),
// which says nothing about portability; the addon already built for this repository (same version, same machine)
// is copied into the project instead, and loaded there. test/install-config.test.ts checks that the compile
// would be from source.
import { spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnApp, stopApp } from './helpers/app-process.js';

const REPO = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
const FW = path.join(REPO, 'bin', 'fw.js');
const VERSION: string = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')).version;

let first = '';
let elsewhere = '';
let project = '';
let server: ChildProcess | undefined;

/** The environment less npm's own variables (set when the suite runs through `npm test`). */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith('npm_')));
  delete env.FW_DEBUG;
  return { ...env, ...extra };
}

function run(command: string, args: string[], cwd = project) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: cleanEnv() });
  return { status: result.status, out: `${result.stdout}${result.stderr}` };
}

test.after(() => {
  server?.kill('SIGKILL');
  for (const dir of [first, elsewhere]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

// Set up in tests, not in before(): uvu reports a failing before() hook as zero tests run, exit code 0.
test('a project made in one folder and moved to another names no path outside itself', () => {
  first = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-install-a-'));
  elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-install-b-'));
  const made = spawnSync(process.execPath, [FW, 'new', 'Boutique', '--no-install'], { cwd: first, encoding: 'utf8', env: cleanEnv() });
  assert.is(made.status, 0, made.stderr);
  project = path.join(elsewhere, 'ailleurs', 'Copie');
  fs.cpSync(path.join(first, 'Boutique'), project, { recursive: true });
  fs.rmSync(first, { recursive: true, force: true });

  for (const file of ['package.json', 'fw_modules.json', 'tsconfig.json', '.vscode/settings.json', 'config.ts', 'app.ts']) {
    const text = fs.readFileSync(path.join(project, file), 'utf8');
    assert.not.ok(text.includes(REPO), `${file} names the framework's folder`);
    assert.not.ok(text.includes(first), `${file} names the folder the project was made in`);
  }
  const manifest = JSON.parse(fs.readFileSync(path.join(project, 'package.json'), 'utf8'));
  assert.is(manifest.dependencies['fw-mvc'], `file:vendor/fw-mvc-${VERSION}.tgz`);
  assert.ok(fs.statSync(path.join(project, 'vendor', `fw-mvc-${VERSION}.tgz`)).isFile());
});

test('npm install takes fw-mvc from vendor/ as a real folder, and the lockfile keeps the relative path', () => {
  const install = run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts']);
  assert.is(install.status, 0, install.out);
  const installed = path.join(project, 'node_modules', 'fw-mvc');
  assert.ok(fs.lstatSync(installed).isDirectory(), 'node_modules/fw-mvc should be a folder, not a link');
  assert.is(JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8')).version, VERSION);
  const lock = JSON.parse(fs.readFileSync(path.join(project, 'package-lock.json'), 'utf8'));
  assert.is(lock.packages['node_modules/fw-mvc'].resolved, `file:vendor/fw-mvc-${VERSION}.tgz`);
  assert.not.ok(fs.readFileSync(path.join(project, 'package-lock.json'), 'utf8').includes(REPO));
});

test("the project's better-sqlite3 loads with the addon built for this repository", () => {
  const ours = path.join(project, 'node_modules', 'better-sqlite3');
  const theirs = path.join(REPO, 'node_modules', 'better-sqlite3');
  const version = (dir: string): string => JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).version;
  assert.is(version(ours), version(theirs), 'the project resolved another better-sqlite3 than the repository');
  fs.mkdirSync(path.join(ours, 'build', 'Release'), { recursive: true });
  fs.copyFileSync(path.join(theirs, 'build', 'Release', 'better_sqlite3.node'), path.join(ours, 'build', 'Release', 'better_sqlite3.node'));
  const probe = "const D = require('better-sqlite3'); process.stdout.write(String(new D(':memory:').prepare('SELECT 40 + 2 AS n').get().n))";
  const result = run(process.execPath, ['-e', probe]);
  assert.is(result.status, 0, result.out);
  assert.is(result.out, '42');
});

test('the moved project type-checks with its own TypeScript', () => {
  const result = run(process.execPath, [path.join(project, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '-p', 'tsconfig.json']);
  assert.is(result.status, 0, result.out);
});

test('its own fw writes an entity whose $schema, like the editor settings, reaches the installed schemas', () => {
  const made = run(process.execPath, [path.join(project, 'node_modules', 'fw-mvc', 'bin', 'fw.js'), 'make:entity', 'Produit', '--no-input']);
  assert.is(made.status, 0, made.out);
  const entityFile = path.join(project, 'mvc', 'entities', 'produit', 'produit.json');
  const schema: string = JSON.parse(fs.readFileSync(entityFile, 'utf8')).$schema;
  assert.not.ok(path.isAbsolute(schema), schema);
  const resolved = path.resolve(path.dirname(entityFile), schema);
  assert.is(resolved, path.join(project, 'node_modules', 'fw-mvc', 'schemas', 'entity.schema.json'));
  assert.is(JSON.parse(fs.readFileSync(resolved, 'utf8')).$id, 'https://fw-mvc.dev/schemas/entity.schema.json');

  const settings = JSON.parse(fs.readFileSync(path.join(project, '.vscode', 'settings.json'), 'utf8'));
  for (const { url } of settings['json.schemas'] as Array<{ url: string }>) assert.ok(fs.existsSync(path.join(project, url)), url);

  const check = run(process.execPath, [path.join(project, 'node_modules', 'fw-mvc', 'bin', 'fw.js'), 'check:model']);
  assert.is(check.status, 0, check.out);
});

test('the installed fw packs itself into the next project it makes', () => {
  const next = path.join(elsewhere, 'suivant');
  fs.mkdirSync(next);
  const made = run(process.execPath, [path.join(project, 'node_modules', 'fw-mvc', 'bin', 'fw.js'), 'new', 'Suivant', '--no-install'], next);
  assert.is(made.status, 0, made.out);
  const list = (tarball: string): string[] => {
    const result = spawnSync('tar', ['-tzf', tarball], { encoding: 'utf8' });
    assert.is(result.status, 0, result.stderr);
    return result.stdout.split('\n').filter(Boolean).sort();
  };
  const tarball = `fw-mvc-${VERSION}.tgz`;
  assert.equal(list(path.join(next, 'Suivant', 'vendor', tarball)), list(path.join(project, 'vendor', tarball)));
});

test('app.ts under tsx (as npm run dev) serves the home page from the moved project', async () => {
  const app = spawnApp({ cwd: project, tsx: path.join(project, 'node_modules', 'tsx', 'dist', 'cli.mjs'), env: cleanEnv(), timeoutMs: 30_000 });
  server = app.child;
  const base = await app.url;
  const home = await fetch(`${base}/`);
  assert.is(home.status, 200);
  assert.match(await home.text(), /fw make:crud Contact/);
  const css = await fetch(`${base}/static/tailwind.css`);
  assert.is(css.status, 200);

  assert.is(await stopApp(server), 0);
  server = undefined;
});

test.run();
