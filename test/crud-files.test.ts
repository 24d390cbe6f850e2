// The files and plan of `fw make:crud` for the compiled fixture project (test/fixtures/project): which files, of which
// kind, deterministic; their text is compared whole by pipeline-snapshots.test.ts, and the generated code is
// type-checked and run by crud-cli.test.ts.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { crudFiles, planCrud } from '../emitters/crud/index.js';
import { compileSources } from '../compiler/index.js';
import { modelNode } from '../compiler/ir.js';
import { emitCrudDescription } from '../emitters/crud/description.js';
import { readCrudStubs } from '../cli/stubs.js';
import { entity, field, idField, manyToOne } from './emitters-fixture.js';
import { fixtureEntity, fixtureModel } from './helpers/fixture-project.js';

const model = fixtureModel();
const STUBS = readCrudStubs();
const files = ['Contact', 'Ville'].flatMap((entity) => {
  const plan = planCrud(model, entity);
  return crudFiles(plan, STUBS).map((file) => ({ snake: plan.entity.snake, path: file.path, content: file.content, kind: file.kind }));
});

test('make:crud emits the 10 manual files of docs/crud.md for each entity, then the regenerable ones', () => {
  const views = (snake: string) => ['index', 'show', 'form', '_table', '_pagination', '_results'].map((v) => `mvc/views/${snake}/${v}.html`);
  const manual = (snake: string) => [
    `mvc/controllers/${snake}_controller.ts`,
    `mvc/models/${snake}_model.ts`,
    `mvc/forms/${snake}_form.ts`,
    'mvc/views/layouts/app.html',
    ...views(snake),
  ];
  const regenerable = (snake: string) => [
    `mvc/models/${snake}_crud.ts`,
    `mvc/forms/${snake}_fields.ts`,
    ...['_fields', '_filters', '_list_head', '_list_cells'].map((v) => `mvc/views/${snake}/${v}.html`),
  ];
  const expected = (snake: string) => [...manual(snake), ...regenerable(snake)];
  assert.equal(
    files.filter((f) => f.snake === 'contact').map((f) => f.path),
    expected('contact'),
  );
  assert.equal(
    files.filter((f) => f.snake === 'ville').map((f) => f.path),
    expected('ville'),
  );
  for (const f of files) assert.is(f.kind, regenerable(f.snake).includes(f.path) ? 'regenerable' : 'manual', f.path);
  // A regenerable file starts with the marker line (in its own comment syntax), which the writer looks for.
  for (const f of files.filter((file) => file.kind === 'regenerable'))
    assert.match(f.content.split('\n')[0]!, /fw-mvc: generated file, do not edit \(regenerate with: fw sync:entity \w+\)/);
  // The layout is shared: the same bytes whichever entity creates it first.
  const layouts = files.filter((f) => f.path === 'mvc/views/layouts/app.html').map((f) => f.content);
  assert.is(layouts[0], layouts[1]);
});

test('the emitters are pure: the same model gives the same bytes', () => {
  const again = ['Contact', 'Ville'].flatMap((entity) => crudFiles(planCrud(fixtureModel(), entity), STUBS).map((f) => f.content));
  assert.equal(
    again,
    files.map((f) => f.content),
  );
});

test("the model's choice methods: the field in camelCase, the snake name kept for two fields that would share one", () => {
  const fields = ['ville_id', 'ville_2', 'ville2', 'lieu_de_naissance'];
  const contact = entity('Contact', [idField(), ...fields.map((f) => field(f, 'INT UNSIGNED', { nullable: true }))]);
  const relations = fields.map((f) => manyToOne(`contact_${f}`, `Contact.${f}`, 'Ville.id', { foreignKeyName: `fk_contact_${f}` }));
  const plan = planCrud(modelNode({ entities: [contact, fixtureEntity('Ville')], relations }), 'Contact');
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

test('input kinds: email, url and tel come from whole words of the snake name, never from a piece of a word', () => {
  const cases: Array<[string, string]> = [
    ['telephone', 'tel'],
    ['tel_fixe', 'tel'],
    ['phone', 'tel'],
    ['num_tel', 'tel'],
    ['mobile', 'tel'],
    ['hotel', 'text'],
    ['motel', 'text'],
    ['castel', 'text'],
    ['intitule', 'text'],
    ['email', 'email'],
    ['email_pro', 'email'],
    ['courriel', 'email'],
    ['site_web', 'url'],
    ['url', 'url'],
    ['parasite', 'text'],
    ['curl_option', 'text'],
  ];
  const fiche = entity('Fiche', [idField(), ...cases.map(([name]) => field(name, 'VARCHAR(100)'))]);
  const plan = planCrud(modelNode({ entities: [fiche], relations: [] }), 'Fiche');
  assert.equal(
    plan.fields.map((f) => [f.field.name, f.input]),
    cases,
  );
});

test("titles: the entity's label_plural for the records and its label for one record, else its plural in PascalCase and its name", () => {
  const text = JSON.stringify({
    format_version: 1,
    entity: 'Eleve',
    table: 'eleves',
    label: 'Élève',
    label_plural: 'Élèves',
    fields: [{ name: 'id', sql_type: 'INT', primary_key: true }],
  });
  const eleves = compileSources([{ file: 'mvc/entities/eleve/eleve.json', text }]).model!;
  assert.equal([planCrud(eleves, 'Eleve').title, planCrud(eleves, 'Eleve').label], ['Élèves', 'Élève']);
  assert.equal([planCrud(model, 'Contact').title, planCrud(model, 'Contact').label], ['Contacts', 'Contact']);
  assert.match(emitCrudDescription(planCrud(eleves, 'Eleve')), "  title: 'Élèves',\n  label: 'Élève',\n");
});

test.run();
