// The framework tarball that `fw new` puts in vendor/: npm pack's file list, a tar that tar reads back byte for
// byte, the same bytes for the same files, and clear refusals.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { installedManifest, packageFiles, packPackage } from '../cli/package-tarball.js';

const REPO = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
const VERSION: string = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')).version;

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

test('the packed files are the ones npm pack takes from the framework', () => {
  const npm = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: REPO, encoding: 'utf8', env: cleanEnv() });
  assert.is(npm.status, 0, npm.stderr);
  const listed = (JSON.parse(npm.stdout) as Array<{ files: Array<{ path: string }> }>)[0]!.files.map((file) => file.path).sort();
  assert.equal(packageFiles(REPO), listed);
  // What a project needs from the package: the compiled runtime and CLI, the schemas, the templates.
  for (const file of [
    'bin/fw.js',
    'dist/runtime/index.js',
    'dist/runtime/index.d.ts',
    'dist/cli/main.js',
    'schemas/entity.schema.json',
    'cli/templates/project/package.json',
  ]) {
    assert.ok(listed.includes(file), `${file} is not packed`);
  }
  assert.not.ok(
    listed.some((file) => file.startsWith('dist/test/')),
    'the compiled tests are packed',
  );
});

test('tar reads the tarball back: same bytes, bin executable, npm pack file name', () => {
  const packed = packPackage(REPO);
  assert.is(packed.fileName, `fw-mvc-${VERSION}.tgz`);
  const dir = workdir();
  fs.writeFileSync(path.join(dir, packed.fileName), packed.content);
  const untar = spawnSync('tar', ['-xzf', packed.fileName], { cwd: dir, encoding: 'utf8' });
  assert.is(untar.status, 0, untar.stderr);
  for (const file of packed.files) {
    const copy = fs.readFileSync(path.join(dir, 'package', file));
    const original = fs.readFileSync(path.join(REPO, file));
    assert.ok(copy.equals(file === 'package.json' ? Buffer.from(installedManifest(original.toString('utf8'))) : original), file);
  }
  assert.is(fs.statSync(path.join(dir, 'package', 'bin', 'fw.js')).mode & 0o777, 0o755);
  assert.is(fs.statSync(path.join(dir, 'package', 'package.json')).mode & 0o777, 0o644);
  assert.is(fs.statSync(path.join(dir, 'package', 'package.json')).mtime.toISOString(), '1985-10-26T08:15:00.000Z');
  assert.ok(packPackage(REPO).content.equals(packed.content), 'two packs of the same files differ');
});

test('the packed package.json has no install-time script: npm 11 installs the tarball without an install-scripts warning', () => {
  const original = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  assert.ok(original.scripts.prepare, 'the repository builds itself on prepare (for clones)');
  const packed = JSON.parse(installedManifest(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8'))) as Record<string, unknown> & {
    scripts: Record<string, string>;
  };
  assert.is(packed.scripts.prepare, undefined);
  assert.equal(packed.scripts, Object.fromEntries(Object.entries(original.scripts).filter(([name]) => name !== 'prepare')));
  assert.equal({ ...packed, scripts: undefined }, { ...original, scripts: undefined }, 'every other field kept');

  // npm itself, offline: an app depending on a tarball made by packPackage from a package with the framework's
  // scripts (and no dependencies, so that nothing is fetched). --dry-run resolves the tree and prints the warnings.
  const source = workdir();
  writeTree(source, {
    'package.json': JSON.stringify({ name: 'fw-mvc', version: '1.0.0', files: ['index.js'], scripts: original.scripts }, null, 2),
    'index.js': 'export {};\n',
  });
  const tarball = packPackage(source);
  const app = workdir();
  writeTree(app, { 'package.json': JSON.stringify({ name: 'app', version: '1.0.0', private: true, dependencies: { 'fw-mvc': `file:${tarball.fileName}` } }) });
  fs.writeFileSync(path.join(app, tarball.fileName), tarball.content);
  const npm = spawnSync('npm', ['install', '--dry-run', '--offline', '--no-audit', '--no-fund'], { cwd: app, encoding: 'utf8', env: cleanEnv() });
  assert.is(npm.status, 0, npm.stdout + npm.stderr);
  assert.not.match(npm.stdout + npm.stderr, /install-scripts|prepare/, npm.stdout + npm.stderr);
  assert.match(npm.stdout, /added 1 package/);
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
