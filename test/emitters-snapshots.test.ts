// Whole-file snapshots: the emitters' output for the fixture model (Contact, Ville, Tag) against
// snapshots/entities/…; `UPDATE_SNAPSHOTS=1` rewrites them (then review the diff before committing).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { modelFiles } from '../emitters/index.js';
import { fixtureModel } from './emitters-fixture.js';

const REPO = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
const SNAPSHOTS = path.join(REPO, 'snapshots');
const UPDATE = process.env.UPDATE_SNAPSHOTS === '1';

/** `mvc/entities/contact/contact.sql` -> `snapshots/entities/contact/contact.sql`. */
function snapshotPath(file: string): string {
  return path.join(SNAPSHOTS, ...file.replace(/^mvc\//, '').split('/'));
}

function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? listFiles(full) : [full];
  });
}

const files = modelFiles(fixtureModel());

for (const file of files) {
  test(`snapshot ${file.path}`, () => {
    const target = snapshotPath(file.path);
    if (UPDATE) {
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, file.content);
    }
    assert.ok(fs.existsSync(target), `missing snapshot ${path.relative(REPO, target)} (run with UPDATE_SNAPSHOTS=1)`);
    // assert.fixture: a failure shows the line diff.
    assert.fixture(file.content, fs.readFileSync(target, 'utf8'));
  });
}

test('no stale snapshot: every file under snapshots/entities is produced by the emitters', () => {
  const expected = new Set(files.map((f) => snapshotPath(f.path)));
  const stale = listFiles(path.join(SNAPSHOTS, 'entities')).filter((f) => !expected.has(f));
  if (UPDATE) for (const f of stale) fs.rmSync(f);
  assert.equal(UPDATE ? [] : stale.map((f) => path.relative(REPO, f)), []);
});

test.run();
