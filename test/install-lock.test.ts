// `npm ci` refuses a package-lock.json that lacks an entry for any dependency of a locked package, optional
// platform packages included (they are skipped at install on other platforms, but must be listed). A registry that
// does not serve some platform packages makes `npm install` leave them out silently; this test catches that before
// `npm ci` does on a fresh clone (docs/install.md).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const REPO = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');

interface LockEntry {
  readonly dependencies?: Record<string, string>;
  readonly optionalDependencies?: Record<string, string>;
  readonly devDependencies?: Record<string, string>;
}

/** Where Node would find `name` from the package at `from` (`''` is the root): the nearest node_modules up the tree. */
function resolves(packages: Record<string, LockEntry>, from: string, name: string): boolean {
  let dir = from;
  for (;;) {
    if (Object.hasOwn(packages, `${dir ? `${dir}/` : ''}node_modules/${name}`)) return true;
    if (dir === '') return false;
    const cut = dir.lastIndexOf('/node_modules/');
    dir = cut === -1 ? '' : dir.slice(0, cut);
  }
}

test('every dependency of every locked package has its own lock entry (npm ci would refuse the lock otherwise)', () => {
  const lock = JSON.parse(fs.readFileSync(path.join(REPO, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const missing: string[] = [];
  for (const [location, entry] of Object.entries(lock.packages)) {
    const names = [
      ...Object.keys(entry.dependencies ?? {}),
      ...Object.keys(entry.optionalDependencies ?? {}),
      ...(location === '' ? Object.keys(entry.devDependencies ?? {}) : []),
    ];
    for (const name of names) if (!resolves(lock.packages, location, name)) missing.push(`${location || '(root)'} → ${name}`);
  }
  assert.equal(missing, []);
});

test.run();
