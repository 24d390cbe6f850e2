// The hooks of a thin CRUD controller (docs/crud.md "The controller"), overridden by the user in the generated
// mvc/controllers/contact_controller.ts and seen over HTTP on a served project: `scope` hides records from the list,
// the CSV, the detail, the edit form and the deletes; `beforeSave` sends the form back with its own message (422);
// `afterSave` and `afterDelete` run once per write with the ids; `context` changes a page's variables.
import fs from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { CliProject } from './helpers/cli.js';
import { HttpClient, buildCrudApp, serveProject } from './helpers/crud-app.js';

const CONTROLLER = 'mvc/controllers/contact_controller.ts';
const HOOKS_LOG = 'storage/hooks.log';

const HOOKS = `
  static override scope(_request: Request): SqlFragment | null {
    return { sql: 't.Nom <> ?', params: ['Caché'] };
  }

  static override async beforeSave(_request: Request, record: Contact, form: ContactForm): Promise<void> {
    if (record.prenom === 'Refusé') form.addError('prenom', 'Ce prénom est refusé par le contrôleur.');
  }

  static override async afterSave(_request: Request, id: number, created: boolean): Promise<void> {
    fs.appendFileSync('${HOOKS_LOG}', \`save \${id} \${created ? 'created' : 'updated'}\\n\`);
  }

  static override async afterDelete(_request: Request, ids: readonly number[]): Promise<void> {
    fs.appendFileSync('${HOOKS_LOG}', \`delete \${ids.join(',')}\\n\`);
  }

  static override context(_request: Request, page: CrudPageName, context: Context): Context {
    return page === 'index' ? { ...context, title: 'Contacts (vus par le hook)' } : context;
  }
`;

let project: CliProject;
let stopServer: (() => Promise<void>) | null = null;
let client: HttpClient;

test.before(async () => {
  project = buildCrudApp('sqlite');
  const source = project.read(CONTROLLER);
  const withImports = source
    .replace(
      "import { crudController, type Request, type Response, type SqlFragment } from 'fw-mvc/crud';",
      "import fs from 'node:fs';\nimport { crudController, type Context, type CrudPageName, type Request, type Response, type SqlFragment } from 'fw-mvc/crud';",
    )
    .replace(/\{\n(\s*\/\/[^\n]*\n)+\}\n$/, `{${HOOKS}}\n`);
  assert.is.not(withImports, source);
  assert.match(withImports, 'static override scope(');
  project.write(CONTROLLER, withImports);
  fs.mkdirSync(project.path('storage'), { recursive: true });
  const served = await serveProject(project);
  client = new HttpClient(served.url);
  stopServer = async () => {
    if (served.child.exitCode !== null) return;
    const exited = new Promise((resolve) => served.child.once('exit', resolve));
    served.child.kill('SIGTERM');
    await exited;
  };
});

test.after(async () => {
  await stopServer?.();
  await project?.cleanup();
});

async function rows(query: string): Promise<Array<{ id: number }>> {
  const db = project.open();
  try {
    return await db.fetchAll<{ id: number }>(query);
  } finally {
    await db.close();
  }
}

const hooksLog = (): string[] => (fs.existsSync(project.path(HOOKS_LOG)) ? project.read(HOOKS_LOG).trim().split('\n') : []);

function contact(nom: string, prenom: string, email: string): Array<[string, string]> {
  return [
    ['nom', nom],
    ['prenom', prenom],
    ['email', email],
    ['actif', '1'],
  ];
}

async function create(nom: string, prenom: string, email: string): Promise<number> {
  const created = await client.post('/contacts', contact(nom, prenom, email));
  assert.is(created.status, 302, created.text.slice(0, 600));
  const found = await rows(`SELECT Id AS id FROM contacts WHERE Email = '${email}'`);
  assert.is(found.length, 1);
  return found[0]!.id;
}

test('beforeSave refuses a record with the message of the controller, and nothing is written', async () => {
  const refused = await client.post('/contacts', contact('Martin', 'Refusé', 'refuse@exemple.fr'));
  assert.is(refused.status, 422);
  assert.match(refused.text, 'Ce prénom est refusé par le contrôleur.');
  assert.match(refused.text, 'value="refuse@exemple.fr"', 'the values entered come back');
  assert.is((await rows(`SELECT Id AS id FROM contacts WHERE Email = 'refuse@exemple.fr'`)).length, 0);
  assert.equal(hooksLog(), [], 'afterSave did not run');
});

test('afterSave runs once per create and update, with the id', async () => {
  const id = await create('Durand', 'Zoé', 'zoe@exemple.fr');
  const updated = await client.post(`/contacts/${id}`, contact('Durand', 'Léa', 'zoe@exemple.fr'));
  assert.is(updated.status, 302, updated.text.slice(0, 600));
  assert.equal(hooksLog(), [`save ${id} created`, `save ${id} updated`]);
});

test('scope hides a record from the list, the CSV, the detail, the edit form and the delete', async () => {
  const hidden = await create('Caché', 'Max', 'max@exemple.fr');
  const list = await client.get('/contacts');
  assert.is(list.status, 200);
  assert.match(list.text, 'Durand');
  assert.not.match(list.text, 'max@exemple.fr');
  const csv = await client.get('/contacts/export.csv');
  assert.is(csv.status, 200);
  assert.match(csv.text, 'zoe@exemple.fr');
  assert.not.match(csv.text, 'max@exemple.fr');
  assert.is((await client.get(`/contacts/${hidden}`)).status, 404);
  assert.is((await client.get(`/contacts/${hidden}/edit`)).status, 404);
  assert.is((await client.post(`/contacts/${hidden}/delete`, [])).status, 404);
  assert.is((await rows(`SELECT Id AS id FROM contacts WHERE Id = ${hidden}`)).length, 1, 'the hidden record is still there');
});

test('context changes the variables of the list page only', async () => {
  const list = await client.get('/contacts');
  assert.match(list.text, 'Contacts (vus par le hook)');
  const form = await client.get('/contacts/new');
  assert.is(form.status, 200);
  assert.not.match(form.text, 'vus par le hook');
});

test('afterDelete gets the ids of a single delete and of a bulk delete; out-of-scope ids are dropped', async () => {
  const one = await create('Petit', 'Léo', 'leo@exemple.fr');
  const two = await create('Grand', 'Ana', 'ana@exemple.fr');
  const hidden = (await rows(`SELECT Id AS id FROM contacts WHERE Nom = 'Caché'`))[0]!.id;
  const before = hooksLog().length;
  assert.is((await client.post(`/contacts/${one}/delete`, [])).status, 302);
  const confirmed = await client.post('/contacts/bulk-delete/confirm', [
    ['ids', String(two)],
    ['ids', String(hidden)],
  ]);
  assert.is(confirmed.status, 302, confirmed.text.slice(0, 600));
  assert.equal(hooksLog().slice(before), [`delete ${one}`, `delete ${two}`]);
  assert.is((await rows(`SELECT Id AS id FROM contacts WHERE Id IN (${one}, ${two})`)).length, 0);
  assert.is((await rows(`SELECT Id AS id FROM contacts WHERE Id = ${hidden}`)).length, 1, 'scope kept the hidden record');
});

test.run();
