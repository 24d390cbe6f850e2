// A project made by `fw new` installs from any folder (docs/decisions.md#projects-install-from-any-folder): copied elsewhere, the framework's folder
// out of sight, a real `npm install` takes fw-mvc and fw-mvc-cli from the project's vendor/ tarballs; the project
// runs its own `fw` and `npm run check` (which type-checks it), serves its home page, and the entity `$schema` paths reach the
// installed schemas. Built, then installed with `npm ci --omit=dev`, it holds the runtime alone and serves
// (docs/decisions.md#the-runtime-ships-alone).
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
import { serveWith } from './helpers/crud-app.js';

const REPO = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
const FW = path.join(REPO, 'bin', 'fw.js');
const VERSION: string = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')).version;
const TARBALLS = [`fw-mvc-${VERSION}.tgz`, `fw-mvc-cli-${VERSION}.tgz`];
/** What only development needs: the fw command and its packages, TypeScript, tsx. */
const DEVELOPMENT_ONLY = ['fw-mvc-cli', 'ts-morph', '@ts-morph/common', 'ajv', 'typescript', 'tsx', 'esbuild'];

/** The tree `npm ls --json` prints. */
interface NpmTree {
  readonly dependencies?: Record<string, NpmTree>;
}

/** Every package of the tree, with the chains that lead to it (`fw-mvc > nunjucks > commander`). */
function packagesOf(tree: NpmTree, chain: readonly string[] = [], found = new Map<string, string[]>()): Map<string, string[]> {
  for (const [name, child] of Object.entries(tree.dependencies ?? {})) {
    const here = [...chain, name];
    found.set(name, [...(found.get(name) ?? []), here.join(' > ')]);
    packagesOf(child, here, found);
  }
  return found;
}

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
  assert.is(manifest.dependencies['fw-mvc'], `file:vendor/${TARBALLS[0]}`);
  assert.is(manifest.devDependencies['fw-mvc-cli'], `file:vendor/${TARBALLS[1]}`);
  for (const tarball of TARBALLS) assert.ok(fs.statSync(path.join(project, 'vendor', tarball)).isFile(), tarball);
});

test('npm install takes both packages from vendor/ as real folders; the lockfile keeps the relative paths and marks the CLI side dev', () => {
  const install = run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts']);
  assert.is(install.status, 0, install.out);
  assert.not.match(install.out, /install-scripts|ERESOLVE|peer dep/i, install.out);
  const lock = JSON.parse(fs.readFileSync(path.join(project, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { resolved?: string; dev?: boolean }>;
  };
  for (const [name, tarball] of [
    ['fw-mvc', TARBALLS[0]],
    ['fw-mvc-cli', TARBALLS[1]],
  ] as const) {
    const installed = path.join(project, 'node_modules', name);
    assert.ok(fs.lstatSync(installed).isDirectory(), `node_modules/${name} should be a folder, not a link`);
    assert.is(JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8')).version, VERSION);
    assert.is(lock.packages[`node_modules/${name}`]?.resolved, `file:vendor/${tarball}`);
  }
  assert.is(lock.packages['node_modules/fw-mvc']?.dev, undefined, 'the runtime is a production dependency');
  for (const name of ['fw-mvc-cli', 'ts-morph', 'ajv', 'commander']) assert.is(lock.packages[`node_modules/${name}`]?.dev, true, `${name} is not dev only`);
  assert.is(fs.realpathSync(path.join(project, 'node_modules', '.bin', 'fw')), path.join(project, 'node_modules', 'fw-mvc-cli', 'bin', 'fw.js'));
  assert.not.ok(fs.readFileSync(path.join(project, 'package-lock.json'), 'utf8').includes(REPO));
});

/** Copies the addon built for this repository into the project's better-sqlite3 (installed with --ignore-scripts) and loads it. */
function useRepositoryAddon(): void {
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
}

/** The project's own fw, from its installed fw-mvc-cli. */
function projectFw(args: string[], cwd = project) {
  return run(process.execPath, [path.join(project, 'node_modules', 'fw-mvc-cli', 'bin', 'fw.js'), ...args], cwd);
}

test("the project's better-sqlite3 loads with the addon built for this repository", () => {
  useRepositoryAddon();
});

test('its own fw writes an entity whose $schema, like the editor settings, reaches the installed schemas', () => {
  const made = projectFw(['make:entity', 'Produit', '--no-input']);
  assert.is(made.status, 0, made.out);
  const entityFile = path.join(project, 'mvc', 'entities', 'produit', 'produit.json');
  const schema: string = JSON.parse(fs.readFileSync(entityFile, 'utf8')).$schema;
  assert.not.ok(path.isAbsolute(schema), schema);
  const resolved = path.resolve(path.dirname(entityFile), schema);
  assert.is(resolved, path.join(project, 'node_modules', 'fw-mvc', 'schemas', 'entity.schema.json'));
  assert.is(JSON.parse(fs.readFileSync(resolved, 'utf8')).$id, 'https://fw-mvc.dev/schemas/entity.schema.json');

  const settings = JSON.parse(fs.readFileSync(path.join(project, '.vscode', 'settings.json'), 'utf8'));
  for (const { url } of settings['json.schemas'] as Array<{ url: string }>) assert.ok(fs.existsSync(path.join(project, url)), url);

  const check = projectFw(['check:model']);
  assert.is(check.status, 0, check.out);
});

// Its first step type-checks the project with the TypeScript the project installed (scripts/check.mjs resolves it
// from the project's node_modules): no tsc of its own here.
test("npm run check passes, its tsc the project's own, and fw routes:list runs the project's routes on the runtime the project installed", () => {
  const built = projectFw(['build:model']);
  assert.is(built.status, 0, built.out);
  const check = run('npm', ['run', 'check']);
  assert.is(check.status, 0, check.out);
  assert.match(check.out, /\[OK\] +tsc --noEmit/);
  assert.match(check.out, /\[OK\] +fw project:check/);
  assert.match(check.out, / 0 en échec\.\n/);
  const routes = projectFw(['routes:list']);
  assert.is(routes.status, 0, routes.out);
  assert.match(routes.out, /^GET +\/ +home +oui +oui +non +HomeController\.index$/m);
});

test('the installed fw packs both installed packages into the next project it makes, the same bytes as from the repository', () => {
  const next = path.join(elsewhere, 'suivant');
  fs.mkdirSync(next);
  const made = projectFw(['new', 'Suivant', '--no-install'], next);
  assert.is(made.status, 0, made.out);
  for (const tarball of TARBALLS) {
    const again = fs.readFileSync(path.join(next, 'Suivant', 'vendor', tarball));
    assert.ok(again.equals(fs.readFileSync(path.join(project, 'vendor', tarball))), `${tarball} differs`);
  }
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

test('built, then installed with npm ci --omit=dev: the runtime alone, no fw, compiler or emitters, and node dist/app.js serves', async () => {
  const build = run('npm', ['run', 'build']);
  assert.is(build.status, 0, build.out);
  const install = run('npm', ['ci', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts']);
  assert.is(install.status, 0, install.out);
  // One `npm ls --all`: its first level is the project's own dependencies.
  const all = run('npm', ['ls', '--omit=dev', '--all', '--json']);
  assert.is(all.status, 0, all.out);
  const tree = JSON.parse(all.out) as NpmTree;
  assert.equal(Object.keys(tree.dependencies ?? {}), ['fw-mvc']);
  const installed = packagesOf(tree);
  assert.ok(installed.has('kysely') && installed.has('sharp'), [...installed.keys()].join(' '));
  for (const name of DEVELOPMENT_ONLY) {
    assert.is(installed.get(name), undefined, `npm ls --omit=dev lists ${name}`);
    assert.not.ok(fs.existsSync(path.join(project, 'node_modules', ...name.split('/'))), `node_modules/${name} is installed`);
  }
  // nunjucks's own command (its template precompiler) depends on commander 5: that one stays, under nunjucks; the
  // CLI's, at the top of node_modules in development, is gone.
  assert.equal(installed.get('commander'), ['fw-mvc > nunjucks > commander']);
  assert.not.ok(fs.existsSync(path.join(project, 'node_modules', 'commander')), 'node_modules/commander is installed');
  const runtime = path.join(project, 'node_modules', 'fw-mvc');
  for (const folder of ['bin', 'dist/cli', 'dist/compiler', 'dist/emitters', 'cli']) {
    assert.not.ok(fs.existsSync(path.join(runtime, ...folder.split('/'))), `node_modules/fw-mvc/${folder} is installed`);
  }
  useRepositoryAddon();
  const app = await serveWith(project, ['dist/app.js'], { APP_ENV: 'dev' }, (child) => (server = child));
  const home = await fetch(`${app.url}/`);
  assert.is(home.status, 200);
  assert.match(await home.text(), /fw make:crud Contact/);
  assert.is(await stopApp(app.child), 0);
  server = undefined;
});

test.run();
