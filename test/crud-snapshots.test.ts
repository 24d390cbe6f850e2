// Whole-file snapshots of `fw make:crud`'s emitters for the fixture model (Contact with its many-to-one to Ville,
// and Ville itself) against snapshots/crud/<entity>/…, laid out as in a project; `UPDATE_SNAPSHOTS=1` rewrites
// them (then review the diff before committing). The generated code itself is type-checked and run elsewhere
// (crud-cli.test.ts); these snapshots show every change of the emitted text in review.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { crudFiles, planCrud } from '../emitters/crud/index.js';
import { modelNode } from '../compiler/ir.js';
import { entity, field, fixtureModel, idField, manyToOne, villeEntity } from './emitters-fixture.js';

const REPO = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
const SNAPSHOTS = path.join(REPO, 'snapshots', 'crud');
const UPDATE = process.env.UPDATE_SNAPSHOTS === '1';

function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? listFiles(full) : [full];
  });
}

const model = fixtureModel();
/** `[snake, project path, content]` for every file make:crud creates, per entity. */
const files = ['Contact', 'Ville'].flatMap((entity) => {
  const plan = planCrud(model, entity);
  return crudFiles(plan).map((file) => ({ snake: plan.entity.snake, path: file.path, content: file.content, kind: file.kind }));
});

/** `contact` + `mvc/views/contact/index.html` -> `snapshots/crud/contact/mvc/views/contact/index.html`. */
function snapshotPath(snake: string, file: string): string {
  return path.join(SNAPSHOTS, snake, ...file.split('/'));
}

test('make:crud emits the 11 files of the spec for each entity, all manual (created once, never overwritten)', () => {
  const views = (snake: string) => ['index', 'show', 'form', '_table', '_pagination', '_results', 'bulk_delete'].map((v) => `mvc/views/${snake}/${v}.html`);
  const expected = (snake: string) => [
    `mvc/controllers/${snake}_controller.ts`,
    `mvc/models/${snake}_model.ts`,
    `mvc/forms/${snake}_form.ts`,
    'mvc/views/layouts/app.html',
    ...views(snake),
  ];
  assert.equal(
    files.filter((f) => f.snake === 'contact').map((f) => f.path),
    expected('contact'),
  );
  assert.equal(
    files.filter((f) => f.snake === 'ville').map((f) => f.path),
    expected('ville'),
  );
  assert.ok(files.every((f) => f.kind === 'manual'));
  // The layout is shared: the same bytes whichever entity creates it first.
  const layouts = files.filter((f) => f.path === 'mvc/views/layouts/app.html').map((f) => f.content);
  assert.is(layouts[0], layouts[1]);
});

test('the emitters are pure: the same model gives the same bytes', () => {
  const again = ['Contact', 'Ville'].flatMap((entity) => crudFiles(planCrud(fixtureModel(), entity)).map((f) => f.content));
  assert.equal(again, files.map((f) => f.content));
});

for (const file of files) {
  test(`snapshot ${file.snake}: ${file.path}`, () => {
    const target = snapshotPath(file.snake, file.path);
    if (UPDATE) {
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, file.content);
    }
    assert.ok(fs.existsSync(target), `missing snapshot ${path.relative(REPO, target)} (run with UPDATE_SNAPSHOTS=1)`);
    // assert.fixture: a failure shows the line diff.
    assert.fixture(file.content, fs.readFileSync(target, 'utf8'));
  });
}

test("the model's choice methods: the field in camelCase, the snake name kept for two fields that would share one", () => {
  const fields = ['ville_id', 'ville_2', 'ville2', 'lieu_de_naissance'];
  const contact = entity('Contact', [idField(), ...fields.map((f) => field(f, 'INT UNSIGNED', { nullable: true }))]);
  const relations = fields.map((f) => manyToOne(`contact_${f}`, `Contact.${f}`, 'Ville.id', { foreignKeyName: `fk_contact_${f}` }));
  const plan = planCrud(modelNode({ entities: [contact, villeEntity()], relations }), 'Contact');
  assert.equal(
    plan.relations.map((r) => [r.field.name, r.choicesMethod]),
    [
      ['ville_id', 'villeIdChoices'],
      ['ville_2', 'ville_2Choices'],
      ['ville2', 'ville2Choices'],
      ['lieu_de_naissance', 'lieuDeNaissanceChoices'],
    ],
  );
});

test('no stale snapshot: every file under snapshots/crud is produced by the emitters', () => {
  const expected = new Set(files.map((f) => snapshotPath(f.snake, f.path)));
  const stale = listFiles(SNAPSHOTS).filter((f) => !expected.has(f));
  if (UPDATE) for (const f of stale) fs.rmSync(f);
  assert.equal(UPDATE ? [] : stale.map((f) => path.relative(REPO, f)), []);
});

test.run();
