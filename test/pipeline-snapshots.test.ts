// Whole-file snapshots of the real pipeline: a project made by `fw new`, the JSON fixture of test/fixtures/project
// copied into it, then the commands a user runs, each as a real process. Every file a step creates or changes is
// compared with snapshots/<step>/<its path in the project>, whatever the commands plan (a new emitter's files show
// up by themselves); a snapshot file that no step produces any more fails too. `UPDATE_SNAPSHOTS=1` rewrites them
// and removes the stale ones (then review `git diff snapshots/` before committing). docs: snapshots/README.md.
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { unifiedDiff } from '../emitters/crud/index.js';
import { newProject, REPO, type CliProject, type Run } from './helpers/cli.js';
import { PRODUIT } from './helpers/crud-media.js';
import { copyFixtureEntities } from './helpers/fixture-project.js';

const SNAPSHOTS = path.join(REPO, 'snapshots');
const UPDATE = process.env.UPDATE_SNAPSHOTS === '1';

interface Step {
  /** The folder under snapshots/, or null for a step whose files are not snapshotted (applying a migration). */
  readonly dir: string | null;
  readonly args: readonly string[];
  /** What the user does by hand before the command. */
  readonly before?: (project: CliProject) => void;
}

/** The fixture's change before `migration:make --from-diff`: a wider column, a new one, a removed one. */
function changeContact(project: CliProject): void {
  project.editJson<{ fields: Array<{ name: string; sql_type: string; nullable?: boolean }> }>('mvc/entities/contact/contact.json', (entity) => {
    const nom = entity.fields.find((f) => f.name === 'nom');
    if (nom) nom.sql_type = 'VARCHAR(250)';
    entity.fields = entity.fields.filter((f) => f.name !== 'telephone');
    entity.fields.push({ name: 'code_client', sql_type: 'VARCHAR(20)', nullable: true });
  });
}

/** An entity with the four kinds of media entry, written by the user before `make:crud Produit --media`. */
function addProduit(project: CliProject): void {
  project.write('mvc/entities/produit/produit.json', `${JSON.stringify(PRODUIT, null, 2)}\n`);
}

/** The media change before `sync:entity Produit`: a label changed, the file list removed, a single image added. */
function changeProduitMedia(project: CliProject): void {
  project.editJson<{ media: Array<{ name: string; label?: string; field?: string }> }>('mvc/entities/produit/produit.json', (entity) => {
    entity.media = entity.media.filter((m) => m.name !== 'pieces_jointes');
    const galerie = entity.media.find((m) => m.name === 'galerie');
    if (galerie) galerie.label = 'Autres vues';
    entity.media.push({ name: 'schema', field: 'image', label: 'Schéma' });
  });
}

const STEPS: readonly Step[] = [
  { dir: '1-build-model', args: ['build:model'] },
  { dir: '2-make-crud-contact', args: ['make:crud', 'Contact'] },
  { dir: '3-make-crud-ville', args: ['make:crud', 'Ville'] },
  { dir: '4-migration-from-entities', args: ['migration:make', 'initial', '--from-entities'] },
  { dir: null, args: ['migration:apply'] },
  { dir: '5-sync-entity-contact', args: ['sync:entity', 'Contact'], before: changeContact },
  { dir: '6-migration-from-diff', args: ['migration:make', 'contact_v2', '--from-diff', 'Contact'] },
  { dir: '7-make-crud-media', args: ['make:crud', 'Produit', '--media'], before: addProduit },
  { dir: '8-sync-entity-media', args: ['sync:entity', 'Produit'], before: changeProduitMedia },
];

/** A migration's file name starts with the time it was made: `<YYYYMMDDHHMMSS>_name.sql` in the snapshots. */
function normalise(file: string): string {
  return file.replace(/^mvc\/migrations\/\d{14}_/, 'mvc/migrations/YYYYMMDDHHMMSS_');
}

/** The database and whatever else a run leaves in storage/ are data, not generated files. */
const isData = (file: string): boolean => file.startsWith('storage/');

interface StepResult {
  readonly step: Step;
  readonly run: Run | null;
  /** Project path (normalised) -> content, for every file the step created or changed. */
  readonly written: Map<string, string>;
  readonly deleted: string[];
}

/** Runs the whole session once, stopping at the first failed command (the later steps report it). */
function runSession(project: CliProject): StepResult[] {
  project.useSqlite();
  copyFixtureEntities(project.root);
  const results: StepResult[] = [];
  let failed = false;
  for (const step of STEPS) {
    if (failed) {
      results.push({ step, run: null, written: new Map(), deleted: [] });
      continue;
    }
    step.before?.(project);
    const before = project.snapshot();
    const run = project.run(step.args);
    const after = project.snapshot();
    const written = new Map<string, string>();
    for (const [file, content] of Object.entries(after)) {
      if (!isData(file) && before[file] !== content) written.set(normalise(file), Buffer.from(content, 'base64').toString('utf8'));
    }
    const deleted = Object.keys(before).filter((file) => !isData(file) && !(file in after));
    results.push({ step, run, written, deleted });
    failed = run.status !== 0;
  }
  return results;
}

function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? listFiles(full) : [full];
  });
}

function removeEmptyDirs(dir: string): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const full = path.join(dir, entry.name);
    removeEmptyDirs(full);
    if (fs.readdirSync(full).length === 0) fs.rmdirSync(full);
  }
}

const project = newProject('Carnet');
const results = runSession(project);
test.after(() => project.cleanup());

for (const { step, run } of results) {
  test(`fw ${step.args.join(' ')} succeeds and deletes nothing`, () => {
    assert.ok(run, 'not run: an earlier step failed');
    assert.is(run.status, 0, `fw ${step.args.join(' ')} exited with ${run.status}\n${run.stdout}${run.stderr}`);
  });
}

for (const { step, deleted } of results) {
  if (deleted.length > 0) test(`fw ${step.args.join(' ')} deletes no file`, () => assert.equal(deleted, []));
}

const expected = new Set<string>();
for (const { step, written } of results) {
  if (step.dir === null) continue;
  for (const [file, content] of written) {
    const target = path.join(SNAPSHOTS, step.dir, ...file.split('/'));
    const shown = path.relative(REPO, target);
    expected.add(target);
    test(`snapshot ${shown}`, () => {
      if (UPDATE) {
        fs.mkdirSync(path.dirname(target), { recursive: true });
        fs.writeFileSync(target, content);
      }
      assert.ok(fs.existsSync(target), `fw ${step.args.join(' ')} writes ${file}, which has no snapshot ${shown} (UPDATE_SNAPSHOTS=1 creates it)`);
      const snapshot = fs.readFileSync(target, 'utf8');
      if (snapshot !== content) {
        assert.unreachable(
          `fw ${step.args.join(' ')} writes ${file} differently from ${shown} (UPDATE_SNAPSHOTS=1 accepts it):\n--- ${shown}\n+++ ${file}\n${unifiedDiff(snapshot, content)}`,
        );
      }
    });
  }
}

test('every step wrote something (an empty step is a broken session)', () => {
  const empty = results.filter((r) => r.step.dir !== null && r.run?.status === 0 && r.written.size === 0).map((r) => r.step.dir);
  assert.equal(empty, []);
});

test('no stale snapshot: every file under snapshots/ is written by a step', () => {
  // Only a complete session knows every file: after a failed step, its failure is the one to read.
  assert.ok(
    results.every((r) => r.run?.status === 0),
    'the session stopped early: see the failed step above',
  );
  const stale = listFiles(SNAPSHOTS).filter((f) => !expected.has(f) && path.relative(SNAPSHOTS, f) !== 'README.md');
  if (UPDATE) {
    for (const f of stale) fs.rmSync(f);
    removeEmptyDirs(SNAPSHOTS);
  }
  assert.equal(UPDATE ? [] : stale.map((f) => path.relative(REPO, f)), []);
});

test.run();
