// The CRUD pages offer only what the signed-in user's roles allow (docs/crud.md "Permissions"), on SQLite and
// MariaDB, through the real CLI and a served project: the role block is added to contact.json after make:crud and
// brought by `fw sync:entity` (the controller, the user's file, is not touched); the list hides Ajouter, Exporter,
// the bulk delete with its checkboxes, Modifier and Supprimer, the detail page Modifier and Supprimer, each for the
// users who may not, while the server still refuses them.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { ChildProcess } from 'node:child_process';
import { newProject, type CliProject } from './helpers/cli.js';
import { linkFramework, serveProject } from './helpers/crud-app.js';
import { SessionClient } from './helpers/auth-client.js';
import { PASSWORD, fwOk, stopServer } from './helpers/auth-app.js';
import { DIALECTS } from './helpers/dialects.js';

const CONTACT = {
  format_version: 1,
  entity: 'Contact',
  table: 'contacts',
  fields: [
    { name: 'id', sql_type: 'INT', primary_key: true, auto_increment: true },
    { name: 'nom', sql_type: 'VARCHAR(100)', constraints: { not_empty: true } },
    { name: 'email', sql_type: 'VARCHAR(190)', nullable: true },
  ],
};

/** lecteur reads; editeur reads and edits; admin may do everything (and holds every permission). */
const RBAC = {
  permissions: {
    index: ['lecteur', 'editeur', 'admin'],
    show: ['lecteur', 'editeur', 'admin'],
    create: ['admin'],
    update: ['editeur', 'admin'],
    delete: ['admin'],
    export: ['admin'],
  },
};

const ROLES = ['admin', 'editeur', 'lecteur'] as const;
type Role = (typeof ROLES)[number];
const email = (role: Role): string => `${role}@example.test`;

/** What a page offers, read from its HTML. */
function offered(html: string): Record<string, boolean> {
  return {
    create: html.includes('href="/contacts/new"'),
    export: html.includes('id="crud-export"'),
    bulkDelete: html.includes('id="bulk-delete-form"'),
    checkboxes: html.includes('name="ids"'),
    show: html.includes('href="/contacts/1"'),
    edit: html.includes('href="/contacts/1/edit"'),
    delete: html.includes('action="/contacts/1/delete"'),
  };
}

const LIST: Record<Role, Record<string, boolean>> = {
  admin: { create: true, export: true, bulkDelete: true, checkboxes: true, show: true, edit: true, delete: true },
  editeur: { create: false, export: false, bulkDelete: false, checkboxes: false, show: true, edit: true, delete: false },
  lecteur: { create: false, export: false, bulkDelete: false, checkboxes: false, show: true, edit: false, delete: false },
};

for (const dialect of DIALECTS) {
  const test = suite<{ project: CliProject; served: { url: string; child: ChildProcess } }>(`CRUD pages and roles (${dialect})`);

  test.before(async (context) => {
    const project = newProject('Roles');
    context.project = project;
    project.useDialect(dialect);
    project.write('mvc/entities/contact/contact.json', `${JSON.stringify(CONTACT, null, 2)}\n`);
    fwOk(project, ['make:crud', 'Contact']);
    const controller = project.read('mvc/controllers/contact_controller.ts');
    // The role block comes after make:crud: sync:entity brings it, the controller stays as it was.
    project.editJson('mvc/entities/contact/contact.json', (data: Record<string, unknown>) => {
      data['rbac'] = RBAC;
    });
    assert.is(project.run(['make:crud', 'Contact', '--check']).status, 2);
    fwOk(project, ['sync:entity', 'Contact']);
    assert.is(project.read('mvc/controllers/contact_controller.ts'), controller);
    fwOk(project, ['auth:init']);
    fwOk(project, ['db:init']);
    fwOk(project, ['db:apply']);
    for (const role of ROLES) {
      fwOk(project, ['auth:user:create', '--email', email(role), '--password', PASSWORD]);
      fwOk(project, ['auth:role:create', role]);
      fwOk(project, ['auth:user:role:add', '--email', email(role), '--role', role]);
    }
    linkFramework(project);
    context.served = await serveProject(project);
  });

  test.after(async ({ project, served }) => {
    await stopServer(served);
    await project?.cleanup();
  });

  async function signIn(url: string, role: Role): Promise<SessionClient> {
    const client = new SessionClient(url);
    assert.is((await client.login(email(role), PASSWORD)).status, 302);
    return client;
  }

  test('admin creates a record; the list and the detail page offer every action', async ({ served }) => {
    const admin = await signIn(served.url, 'admin');
    const created = await admin.post(
      '/contacts',
      [
        ['nom', 'Durand'],
        ['email', 'durand@example.test'],
      ],
      '/contacts/new',
    );
    assert.is(created.status, 302, created.text.slice(0, 400));
    const list = await admin.get('/contacts');
    assert.is(list.status, 200);
    assert.equal(offered(list.text), LIST.admin);
    const detail = await admin.get('/contacts/1');
    assert.is(detail.status, 200);
    assert.equal({ edit: offered(detail.text).edit, delete: offered(detail.text).delete }, { edit: true, delete: true });
  });

  test('lecteur and editeur see only the actions their roles allow, on the list, its partial and the detail page', async ({ served }) => {
    for (const role of ['editeur', 'lecteur'] as const) {
      const client = await signIn(served.url, role);
      const list = await client.get('/contacts');
      assert.is(list.status, 200);
      assert.match(list.text, 'Durand');
      assert.equal(offered(list.text), LIST[role], `${role}: list`);
      const partial = await client.get('/contacts?q=Dur', { 'HX-Request': 'true' });
      assert.is(partial.status, 200);
      assert.equal(offered(partial.text), { ...LIST[role], create: false, bulkDelete: false }, `${role}: results partial`);
      // The export box stays for the out-of-band swap, empty.
      assert.match(partial.text, '<span id="crud-export-box" hx-swap-oob="true"></span>');
      const detail = offered((await client.get('/contacts/1')).text);
      assert.equal({ edit: detail.edit, delete: detail.delete }, { edit: role === 'editeur', delete: false }, `${role}: detail`);
    }
  });

  test('what the pages hide, the server refuses (403), and nothing is deleted', async ({ served }) => {
    const lecteur = await signIn(served.url, 'lecteur');
    assert.is((await lecteur.get('/contacts/new')).status, 403);
    assert.is((await lecteur.get('/contacts/export.csv')).status, 403);
    assert.is((await lecteur.get('/contacts/1/edit')).status, 403);
    assert.is((await lecteur.post('/contacts/1/delete', [], '/contacts')).status, 403);
    assert.is((await lecteur.post('/contacts/bulk-delete', [['ids', '1']], '/contacts')).status, 403);
    const editeur = await signIn(served.url, 'editeur');
    assert.is((await editeur.get('/contacts/1/edit')).status, 200);
    assert.is((await editeur.post('/contacts/1/delete', [], '/contacts')).status, 403);
    assert.match((await editeur.get('/contacts/1')).text, 'Durand');
  });

  test.run();
}
