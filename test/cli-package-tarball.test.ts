// The framework's two tarballs that `fw new` puts in vendor/ (docs/install.md "Two packages"): npm pack's file
// list, a tar that tar reads back byte for byte, the same bytes for the same files, the CLI's imports of the
// runtime rewritten to fw-mvc/internal/, an install that npm makes offline with the CLI as a development
// dependency, and clear refusals.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { frameworkPackages, runtimeImportsThroughPackage, type PackageSource } from '../cli/framework-packages.js';
import { packageFiles, packPackage } from '../cli/package-tarball.js';

const REPO = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
const VERSION: string = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')).version;
const PACKAGES = frameworkPackages(REPO);
const made: string[] = [];
function workdir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-pack-'));
  made.push(dir);
  return dir;
}

/** The environment less npm's own variables, so that a test run through `npm test` does not configure npm. */
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith('npm_')));
}

function writeTree(root: string, files: Record<string, string>): void {
  for (const [file, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), content);
  }
}

test.after(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

/** A folder holding `source`'s package.json and a copy of the files it names, as a package of its own would be. */
function standalone(source: PackageSource): string {
  const dir = workdir();
  const manifest = JSON.parse(source.manifest) as { files: string[] };
  fs.writeFileSync(path.join(dir, 'package.json'), source.manifest);
  for (const entry of [...manifest.files, 'README.md']) {
    if (fs.existsSync(path.join(REPO, entry))) fs.cpSync(path.join(REPO, entry), path.join(dir, entry), { recursive: true });
  }
  return dir;
}

/** npm's own list of what it would pack from `dir`. */
function npmPackList(dir: string): string[] {
  const npm = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: dir, encoding: 'utf8', env: cleanEnv() });
  assert.is(npm.status, 0, npm.stderr);
  return (JSON.parse(npm.stdout) as Array<{ files: Array<{ path: string }> }>)[0]!.files.map((file) => file.path).sort();
}

test('the files of each package are the ones npm pack takes, and each holds its side of the framework only', () => {
  const lists = { runtime: [] as string[], cli: [] as string[] };
  for (const key of ['runtime', 'cli'] as const) {
    const source = PACKAGES[key];
    const listed = npmPackList(standalone(source));
    assert.equal(packageFiles(REPO, JSON.parse(source.manifest)), listed, source.name);
    lists[key] = listed;
  }
  // What a deployed project needs: the compiled runtime and its types, views, styles, catalogues; the schemas and
  // the docs its files point at.
  for (const file of [
    'dist/runtime/index.js',
    'dist/runtime/index.d.ts',
    'runtime/views/layouts/base.html',
    'runtime/static/tailwind.css',
    'runtime/i18n/fr.json',
    'schemas/entity.schema.json',
    'docs/install.md',
  ]) {
    assert.ok(lists.runtime.includes(file), `${file} is not in fw-mvc`);
  }
  assert.not.ok(
    lists.runtime.some((file) => /^(bin|dist\/(cli|compiler|emitters|test)|cli)\//.test(file)),
    'fw-mvc carries the command, the compiler, the emitters or the tests',
  );
  // What the development tools need: fw, the compiler with its schemas, the emitters, the templates.
  for (const file of [
    'bin/fw.js',
    'dist/cli/main.js',
    'dist/compiler/index.js',
    'dist/emitters/index.js',
    'schemas/entity.schema.json',
    'cli/templates/project/package.json',
  ]) {
    assert.ok(lists.cli.includes(file), `${file} is not in fw-mvc-cli`);
  }
  assert.not.ok(
    lists.cli.some((file) => /^(dist\/(runtime|test)|runtime|docs)\//.test(file)),
    'fw-mvc-cli carries a copy of the runtime, the docs or the tests',
  );
});

test("tar reads both tarballs back: the given package.json, the same bytes (the CLI's rewritten), bin executable, npm pack file names", () => {
  const expected = { runtime: `fw-mvc-${VERSION}.tgz`, cli: `fw-mvc-cli-${VERSION}.tgz` };
  for (const key of ['runtime', 'cli'] as const) {
    const source = PACKAGES[key];
    const packed = packPackage(REPO, { manifest: source.manifest, transform: source.transform });
    assert.is(packed.fileName, expected[key]);
    const dir = workdir();
    fs.writeFileSync(path.join(dir, packed.fileName), packed.content);
    const untar = spawnSync('tar', ['-xzf', packed.fileName], { cwd: dir, encoding: 'utf8' });
    assert.is(untar.status, 0, untar.stderr);
    let rewritten = 0;
    for (const file of packed.files) {
      const copy = fs.readFileSync(path.join(dir, 'package', file));
      const original = fs.readFileSync(path.join(REPO, file));
      const want = file === 'package.json' ? Buffer.from(source.manifest) : (source.transform?.(file, original) ?? original);
      assert.ok(copy.equals(want), `${source.name}: ${file}`);
      if (!want.equals(original) && file !== 'package.json') rewritten++;
    }
    assert.is(fs.statSync(path.join(dir, 'package', 'package.json')).mode & 0o777, 0o644);
    assert.is(fs.statSync(path.join(dir, 'package', 'package.json')).mtime.toISOString(), '1985-10-26T08:15:00.000Z');
    assert.ok(
      packPackage(REPO, { manifest: source.manifest, transform: source.transform }).content.equals(packed.content),
      'two packs of the same files differ',
    );
    if (key === 'cli') {
      assert.is(fs.statSync(path.join(dir, 'package', 'bin', 'fw.js')).mode & 0o777, 0o755);
      assert.ok(rewritten > 20, `only ${rewritten} files of the CLI import the runtime`);
    } else {
      assert.is(rewritten, 0);
    }
  }
});

test("the packed package.json files: no script, no development field; the runtime of the same version as the CLI's peer", () => {
  const runtime = JSON.parse(PACKAGES.runtime.manifest) as Record<string, unknown>;
  const cli = JSON.parse(PACKAGES.cli.manifest) as Record<string, unknown>;
  for (const manifest of [runtime, cli]) {
    for (const field of ['scripts', 'devDependencies', 'overrides', 'private']) assert.is(manifest[field], undefined, `${String(manifest.name)} has ${field}`);
    assert.is(manifest.version, VERSION);
  }
  assert.is(runtime.bin, undefined);
  assert.equal(cli.bin, { fw: 'bin/fw.js' });
  assert.equal(cli.peerDependencies, { 'fw-mvc': VERSION });
  assert.is((runtime.exports as Record<string, unknown>)['./internal/*'], './dist/runtime/*');
});

test("the CLI's relative imports of the runtime become fw-mvc/internal/ imports; nothing else changes", () => {
  const cases: Array<[file: string, before: string, after: string]> = [
    ['dist/cli/current-project.js', "import { loadEnv } from '../runtime/env.js';", "import { loadEnv } from 'fw-mvc/internal/env.js';"],
    ['dist/cli/commands/project/routes-list.js', "import('../../../runtime/http/router.js')", "import('fw-mvc/internal/http/router.js')"],
    ['dist/emitters/auth/sql.js', "export { AUTH } from '../../runtime/auth/schema.js';", "export { AUTH } from 'fw-mvc/internal/auth/schema.js';"],
    ['dist/cli/db/connect.d.ts', 'x: import("../../runtime/db/index.js").Database;', 'x: import("fw-mvc/internal/db/index.js").Database;'],
    ['dist/cli/a.js', "import '../runtime/side-effect.js';", "import 'fw-mvc/internal/side-effect.js';"],
  ];
  for (const [file, before, after] of cases) {
    assert.is(runtimeImportsThroughPackage(file, Buffer.from(before)).toString(), after, file);
    assert.is(runtimeImportsThroughPackage(file, Buffer.from(after)).toString(), after, `${file} twice`);
  }
  const untouched: Array<[file: string, text: string]> = [
    ['dist/cli/main.js', "import { help } from './help.js'; import { compileProject } from '../compiler/index.js';"],
    ['dist/emitters/public/pages.js', "const code = `import { BaseController } from 'fw-mvc';\nimport x from '${from}';`;"],
    ['dist/cli/templates.json', '{ "from": "../runtime/x.js" }'],
    ['cli/templates/project/app.ts', "import { serve } from '../runtime/application.js';"],
  ];
  for (const [file, text] of untouched) assert.is(runtimeImportsThroughPackage(file, Buffer.from(text)).toString(), text, file);
});

test('npm installs the pair offline: the runtime as a dependency, the CLI (its peer satisfied by the vendored runtime) as a development one', () => {
  const runtime = workdir();
  writeTree(runtime, { 'package.json': JSON.stringify({ name: 'fw-mvc', version: '1.0.0', files: ['index.js'] }), 'index.js': 'export {};\n' });
  const cli = workdir();
  writeTree(cli, {
    'package.json': JSON.stringify({
      name: 'fw-mvc-cli',
      version: '1.0.0',
      bin: { fw: 'bin/fw.js' },
      peerDependencies: { 'fw-mvc': '1.0.0' },
      files: ['bin/'],
    }),
    'bin/fw.js': '#!/usr/bin/env node\n',
  });
  fs.chmodSync(path.join(cli, 'bin', 'fw.js'), 0o755);
  const app = workdir();
  const tarballs = [packPackage(runtime), packPackage(cli)];
  for (const tarball of tarballs) fs.writeFileSync(path.join(app, tarball.fileName), tarball.content);
  const manifest = {
    name: 'app',
    version: '1.0.0',
    private: true,
    dependencies: { 'fw-mvc': `file:${tarballs[0]!.fileName}` },
    devDependencies: { 'fw-mvc-cli': `file:${tarballs[1]!.fileName}` },
  };
  writeTree(app, { 'package.json': JSON.stringify(manifest) });
  const npm = (args: string[]) => spawnSync('npm', args, { cwd: app, encoding: 'utf8', env: cleanEnv() });
  const install = npm(['install', '--offline', '--no-audit', '--no-fund']);
  assert.is(install.status, 0, install.stdout + install.stderr);
  assert.not.match(install.stdout + install.stderr, /warn|ERESOLVE|install-scripts/, install.stdout + install.stderr);
  assert.match(install.stdout, /added 2 packages/);
  assert.ok(fs.existsSync(path.join(app, 'node_modules', '.bin', 'fw')), 'the fw bin is linked');
  const prod = npm(['ls', '--omit=dev', '--all', '--parseable']);
  assert.is(prod.status, 0, prod.stdout + prod.stderr);
  assert.equal(
    prod.stdout
      .trim()
      .split('\n')
      .slice(1)
      .map((dir) => path.basename(dir)),
    ['fw-mvc'],
  );
  const lock = JSON.parse(fs.readFileSync(path.join(app, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean }> };
  assert.is(lock.packages['node_modules/fw-mvc-cli']?.dev, true);
  assert.is(lock.packages['node_modules/fw-mvc']?.dev, undefined);
});

test('from an installed fw-mvc-cli, each package is packed again as installed; a fw-mvc of another version, or none, is refused', () => {
  const project = workdir();
  const cliRoot = path.join(project, 'node_modules', 'fw-mvc-cli');
  const runtimeRoot = path.join(project, 'node_modules', 'fw-mvc');
  const cliManifest = `${JSON.stringify({ name: 'fw-mvc-cli', version: '2.0.0', peerDependencies: { 'fw-mvc': '2.0.0' } })}\n`;
  const runtimeManifest = (version: string): string => `${JSON.stringify({ name: 'fw-mvc', version, exports: { './package.json': './package.json' } })}\n`;
  writeTree(cliRoot, { 'package.json': cliManifest });
  assert.throws(
    () => frameworkPackages(cliRoot),
    (error: Error) =>
      error.message === `fw-mvc est introuvable à côté de fw-mvc-cli (${cliRoot}).` && /npm install/.test((error as Error & { advice: string }).advice),
  );
  writeTree(runtimeRoot, { 'package.json': runtimeManifest('2.0.0') });
  const installed = frameworkPackages(cliRoot);
  assert.is(installed.version, '2.0.0');
  assert.equal(
    { runtime: [installed.runtime.root, installed.runtime.manifest], cli: [installed.cli.root, installed.cli.manifest] },
    { runtime: [runtimeRoot, runtimeManifest('2.0.0')], cli: [cliRoot, cliManifest] },
  );
  assert.is(installed.cli.transform, undefined, 'an installed CLI is already rewritten');
  writeTree(runtimeRoot, { 'package.json': runtimeManifest('1.9.0') });
  assert.throws(() => frameworkPackages(cliRoot), /^fw-mvc-cli 2\.0\.0 et fw-mvc 1\.9\.0 n'ont pas la même version\.$/);
});

test("a repository whose package.json lacks the version of a package's dependency is refused, naming them", () => {
  const repository = workdir();
  const dependencies = Object.fromEntries(
    Object.entries(JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')).dependencies as Record<string, string>).filter(
      ([name]) => name !== 'kysely' && name !== 'tsx',
    ),
  );
  writeTree(repository, { 'package.json': JSON.stringify({ name: 'fw-mvc', version: '1.0.0', dependencies }) });
  assert.throws(
    () => frameworkPackages(repository),
    (error: Error) =>
      error.message === 'package.json du dépôt de fw-mvc : « dependencies » ne donne pas la version de kysely.' &&
      /cli\/framework-packages\.ts/.test((error as Error & { advice: string }).advice),
  );
});

test('long and accented paths, readme and licence files, and what npm always leaves out', () => {
  const root = workdir();
  const deep = `lib/${'dossier-très-long/'.repeat(8)}fichier-à-la-fin.js`;
  writeTree(root, {
    'package.json': JSON.stringify({ name: '@scope/outil', version: '1.2.3', files: ['lib/'], bin: { outil: 'cli.js' } }),
    'README.md': '# outil',
    LICENSE: 'MIT',
    'cli.js': '#!/usr/bin/env node',
    'notes.txt': 'not in files',
    'package-lock.json': '{}',
    [deep]: 'export {};',
    'lib/.DS_Store': 'x',
    'lib/.npmrc': 'x',
    'lib/old.js.orig': 'x',
    'lib/.gitignore': 'x',
  });
  fs.mkdirSync(path.join(root, 'lib', 'node_modules', 'dep'), { recursive: true });
  fs.writeFileSync(path.join(root, 'lib', 'node_modules', 'dep', 'index.js'), '');
  fs.symlinkSync(path.join(root, 'notes.txt'), path.join(root, 'lib', 'lien.txt'));
  assert.ok(Buffer.byteLength(`package/${deep}`) > 155, 'the path should need the ustar prefix field');

  const packed = packPackage(root);
  assert.is(packed.fileName, 'scope-outil-1.2.3.tgz');
  assert.equal(packed.files, ['LICENSE', 'README.md', 'cli.js', deep, 'package.json']);
  const dir = workdir();
  fs.writeFileSync(path.join(dir, 'p.tgz'), packed.content);
  assert.is(spawnSync('tar', ['-xzf', 'p.tgz'], { cwd: dir }).status, 0);
  assert.is(fs.readFileSync(path.join(dir, 'package', deep), 'utf8'), 'export {};');
});

test('a package whose exports name a file that is not built, or whose files use a pattern, is refused', () => {
  const unbuilt = workdir();
  writeTree(unbuilt, {
    'package.json': JSON.stringify({
      name: 'fw-mvc',
      version: '1.0.0',
      files: ['dist/'],
      exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' }, './*': './dist/*.js' },
    }),
    'dist/index.d.ts': 'export {};',
  });
  assert.throws(() => packPackage(unbuilt), /^fichiers annoncés par « exports » absents \(paquet non compilé \?\) : dist\/index\.js$/);

  const pattern = workdir();
  writeTree(pattern, { 'package.json': JSON.stringify({ name: 'x', version: '1.0.0', files: ['dist/**/*.js'] }) });
  assert.throws(() => packPackage(pattern), /motif non pris en charge dans « files » : dist\/\*\*\/\*\.js/);
});

test.run();
