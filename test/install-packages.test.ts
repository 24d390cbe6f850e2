// The framework's two packages (docs/install.md "Two packages"): the npm packages each side's sources import are
// exactly the dependencies its package.json declares, the repository's package.json declares their union, and in
// the packed tarballs every import reaches a file of its own package, a declared dependency, or, for the CLI, a
// module of the runtime package through fw-mvc/internal/.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CLI_CONTENT, frameworkPackages, INTERNAL_SUBPATH, RUNTIME_CONTENT } from '../cli/framework-packages.js';
import { packPackage } from '../cli/package-tarball.js';
import { REPO } from './helpers/cli.js';
import { importsOf, sourceFiles } from './helpers/import-graph.js';

const made: string[] = [];

test.after(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

/** The npm packages (no built-in) the `.ts` files under `folders` import, type-only imports included, sorted. */
function packagesImportedBy(folders: readonly string[]): string[] {
  const found = new Set<string>();
  for (const file of sourceFiles(REPO, folders, ['cli/templates'])) {
    for (const edge of importsOf(REPO, file)) if (edge.pkg && !edge.pkg.startsWith('node:')) found.add(edge.pkg);
  }
  return [...found].sort();
}

interface Unpacked {
  readonly dir: string;
  readonly manifest: { dependencies?: Record<string, string>; peerDependencies?: Record<string, string> };
  readonly files: readonly string[];
}

/** Both packages as `fw new` packs them from this repository, each unpacked in a folder of its own. */
function unpacked(): { runtime: Unpacked; cli: Unpacked } {
  const packages = frameworkPackages(REPO);
  const unpack = (key: 'runtime' | 'cli'): Unpacked => {
    const source = packages[key];
    const packed = packPackage(REPO, { manifest: source.manifest, transform: source.transform });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-packages-'));
    made.push(dir);
    fs.writeFileSync(path.join(dir, packed.fileName), packed.content);
    const untar = spawnSync('tar', ['-xzf', packed.fileName], { cwd: dir, encoding: 'utf8' });
    assert.is(untar.status, 0, untar.stderr);
    return { dir: path.join(dir, 'package'), manifest: JSON.parse(source.manifest), files: packed.files };
  };
  return { runtime: unpack('runtime'), cli: unpack('cli') };
}

test('the runtime package depends on exactly the npm packages runtime/ imports', () => {
  assert.equal([...RUNTIME_CONTENT.dependencies].sort(), packagesImportedBy(['runtime']));
});

test('the CLI package depends on exactly the npm packages cli/, compiler/ and emitters/ import', () => {
  assert.equal([...CLI_CONTENT.dependencies].sort(), packagesImportedBy(['cli', 'compiler', 'emitters']));
});

test("the repository's package.json declares the union of both, so that npm ci installs what either side runs", () => {
  const root = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  assert.equal(Object.keys(root.dependencies).sort(), [...new Set([...RUNTIME_CONTENT.dependencies, ...CLI_CONTENT.dependencies])].sort());
});

test('in the tarballs, every import of a compiled file reaches its own package, a declared dependency, or the runtime through fw-mvc/internal/', () => {
  const { runtime, cli } = unpacked();
  const problems: string[] = [];
  let internal = 0;
  for (const [name, pkg] of [
    ['fw-mvc', runtime],
    ['fw-mvc-cli', cli],
  ] as const) {
    const declared = new Set([...Object.keys(pkg.manifest.dependencies ?? {}), ...Object.keys(pkg.manifest.peerDependencies ?? {})]);
    for (const file of pkg.files.filter((candidate) => candidate.endsWith('.js'))) {
      for (const edge of importsOf(pkg.dir, file)) {
        const where = `${name}: ${file}:${edge.line} « ${edge.specifier} »`;
        if (edge.file !== undefined) {
          if (!fs.existsSync(path.join(pkg.dir, edge.file))) problems.push(`${where}: no such file in the package`);
        } else if (edge.specifier.startsWith(INTERNAL_SUBPATH)) {
          internal++;
          const target = `dist/runtime/${edge.specifier.slice(INTERNAL_SUBPATH.length)}`;
          if (name !== 'fw-mvc-cli') problems.push(`${where}: only the CLI imports the runtime through its package`);
          else if (!runtime.files.includes(target)) problems.push(`${where}: ${target} is not in fw-mvc`);
        } else if (!edge.pkg!.startsWith('node:') && !declared.has(edge.pkg!)) {
          problems.push(`${where}: ${edge.pkg} is not a dependency of ${name}`);
        }
      }
    }
  }
  assert.equal(problems, []);
  assert.ok(internal > 0, 'the CLI imports no runtime module');
});

test.run();
