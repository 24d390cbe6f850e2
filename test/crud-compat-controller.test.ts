// A project whose CRUD pages were made by `fw make:crud Contact` before the CRUD moved into the runtime keeps working
// with this framework (docs/upgrading.md "The CRUD in the runtime"): its files, as that version wrote them (245-line
// controller, 91-line model, its own views and `import * as crud` from the crud module), are in
// test/fixtures/crud-before-runtime/ (the snapshot of that time). Laid over a project served for real, with an edit of
// the user's in the controller and one view, they type-check (strict) and their pages list, create, show, edit,
// export and delete over HTTP. Then `fw sync:entity Contact` rewrites contact_crud.ts as the description, with the
// older names still exported (the controller imports them): the user's files are left as they are, the project
// type-checks and serves again. Once no file imports the older names, the description alone is written.
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { REPO, fateLine, lines, newProject, type CliProject } from './helpers/cli.js';
import { HttpClient, linkFramework, serveProject } from './helpers/crud-app.js';
import { ok } from './helpers/crud-cli-project.js';
import { filesUnder } from './helpers/crud-media.js';
import { copyFixtureEntities } from './helpers/fixture-project.js';
import { runTsc } from './helpers/typecheck.js';

const BEFORE = path.join(REPO, 'test', 'fixtures', 'crud-before-runtime', 'mvc');
const CONTROLLER = 'mvc/controllers/contact_controller.ts';
const INDEX = 'mvc/views/contact/index.html';

let project: CliProject;
let served: Awaited<ReturnType<typeof serveProject>> | null = null;

test.before(() => {
  project = newProject('Carnet');
  project.useSqlite();
  copyFixtureEntities(project.root);
  for (const entity of ['Ville', 'Tag', 'Contact']) ok(project, ['make:crud', entity, '--public']);
  for (const args of [['sync:relations'], ['db:init'], ['db:apply']]) ok(project, args);
  // The older version's files of Contact, the user's own edits on top: a comment in the controller, a title in the list.
  for (const file of filesUnder(BEFORE)) fs.cpSync(path.join(BEFORE, file), project.path(`mvc/${file}`));
  project.write(CONTROLLER, project.read(CONTROLLER).replace('export class ContactController', '// Mon contrôleur.\nexport class ContactController'));
  project.write(
    INDEX,
    project
      .read(INDEX)
      .replace('<h1 class="text-2xl font-semibold text-gray-900">{{ title }}</h1>', '<h1 class="text-2xl font-semibold text-gray-900">Mon carnet</h1>'),
  );
  linkFramework(project);
});

test.after(async () => {
  await stop();
  await project?.cleanup();
});

async function stop(): Promise<void> {
  const child = served?.child;
  served = null;
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

function typeCheck(): void {
  const result = runTsc(project.root, ['--noEmit', '-p', 'tsconfig.json']);
  assert.is(result.stdout + result.stderr, '');
  assert.is(result.status, 0);
}

/** The pages of the older files, over HTTP: a city, then a contact created, listed, shown, edited, exported, deleted. */
async function usePages(email: string, postcode: string): Promise<void> {
  served = await serveProject(project);
  try {
    await pages(new HttpClient(served.url), email, postcode);
  } finally {
    await stop();
  }
}

async function pages(client: HttpClient, email: string, postcode: string): Promise<void> {
  assert.is(
    (
      await client.post('/villes', [
        ['nom', `Lyon ${email}`],
        ['code_postal', postcode],
      ])
    ).status,
    302,
  );
  const villes = await client.get('/villes');
  const ville = /href="\/villes\/(\d+)"/.exec(villes.text)![1]!;
  const form: Array<[string, string]> = [
    ['nom', 'Durand'],
    ['prenom', 'Zoé'],
    ['email', email],
    ['nb_visites', '3'],
    ['solde', '12,50'],
    ['ville_id', ville],
  ];
  const created = await client.post('/contacts', form);
  assert.is(created.status, 302, created.text.slice(0, 800));
  const list = await client.get('/contacts');
  assert.is(list.status, 200);
  assert.ok(list.text.includes('Mon carnet'), 'the view the user edited');
  const id = /href="\/contacts\/(\d+)"/.exec(list.text)![1]!;
  assert.ok(list.text.includes(`Lyon ${email}`), 'the label of the many-to-one target');
  const show = await client.get(`/contacts/${id}`);
  assert.is(show.status, 200);
  assert.ok(show.text.includes('12,50'));
  assert.is((await client.get('/contacts/x')).status, 404);
  assert.is((await client.post(`/contacts/${id}`, [...form.filter(([name]) => name !== 'prenom'), ['prenom', 'Léa']])).status, 302);
  const duplicate = await client.post('/contacts', form);
  assert.is(duplicate.status, 422, 'a unique violation comes back on its field');
  const csv = await client.get('/contacts/export.csv');
  assert.is(csv.status, 200);
  assert.match(csv.text, /"Durand";"Léa"/);
  const partial = await client.get('/contacts?q=Durand', { 'hx-request': 'true' });
  assert.not.match(partial.text, /<html/);
  assert.is((await client.post(`/contacts/${id}/delete`, [])).status, 302);
  assert.is((await client.get(`/contacts/${id}`)).status, 404);
}

test('the older files are those of a make:crud before the runtime held the CRUD', () => {
  assert.ok(project.read(CONTROLLER).includes("import * as crud from '../models/contact_crud.js';"));
  assert.ok(project.read(CONTROLLER).includes('static async index(request: Request): Promise<Response> {'));
  assert.ok(project.read('mvc/models/contact_crud.ts').includes('export function csvRow(row: ListRow): unknown[] {'));
});

test('they type-check against this framework, and their pages work', async () => {
  typeCheck();
  await usePages('zoe@exemple.fr', '69001');
});

test('sync:entity writes the description with the older names; the user files stay; it type-checks and serves', async () => {
  const kept = [CONTROLLER, 'mvc/models/contact_model.ts', 'mvc/forms/contact_form.ts', INDEX].map((file) => [file, project.read(file)] as const);
  const out = lines(ok(project, ['sync:entity', 'Contact']));
  assert.ok(out.includes(fateLine('mis à jour', 'mvc/models/contact_crud.ts')), out.join('\n'));
  const description = project.read('mvc/models/contact_crud.ts');
  assert.match(description, 'export const CONTACT_CRUD = defineCrud({');
  assert.match(description, '} = legacyCrudNames(CONTACT_CRUD);');
  for (const [file, text] of kept) assert.is(project.read(file), text, file);
  typeCheck();
  // Nothing more to write: make:crud and build:model agree.
  assert.ok(lines(ok(project, ['make:crud', 'Contact', '--public'])).includes(fateLine('inchangé', 'mvc/models/contact_crud.ts')));
  assert.is(project.run(['build:model', '--check']).status, 0);
  await usePages('lea@exemple.fr', '69002');
});

test('once the user files are the thin ones, the description alone is written, and the pages work', async () => {
  for (const file of ['mvc/controllers/contact_controller.ts', 'mvc/models/contact_model.ts']) fs.rmSync(project.path(file));
  const out = lines(ok(project, ['make:crud', 'Contact', '--public']));
  assert.ok(out.includes(fateLine('créé', CONTROLLER)), out.join('\n'));
  assert.ok(out.includes(fateLine('mis à jour', 'mvc/models/contact_crud.ts')), out.join('\n'));
  assert.not.match(project.read('mvc/models/contact_crud.ts'), 'legacyCrudNames');
  typeCheck();
  await usePages('max@exemple.fr', '69003');
});

test.run();
