/**
 * A record's private files follow its page's read rule, over HTTP on a generated project (SQLite and MariaDB):
 * `fw make:crud Dossier --media` behind the login with a role block (`show`: juriste, admin), `fw auth:init`,
 * `fw upload:init`, `fw media:init`, users made with `fw auth:*`. A document stored through the form is read by whoever
 * may open `/dossiers/<id>`; a user the page refuses (403) gets the same 403 on the file, with or without
 * `If-None-Match` (never a 304) or `Range` (never a 206); anonymous visitors are sent to the login. No user code.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { ChildProcess } from 'node:child_process';
import { openDatabase, type Database, type DialectName } from '../runtime/db/index.js';
import { newProject, type CliProject } from './helpers/cli.js';
import { linkFramework, serveProject } from './helpers/crud-app.js';
import { SessionClient } from './helpers/auth-client.js';
import { PASSWORD, fwOk as fw, stopServer } from './helpers/auth-app.js';
import { assertSecurityHeaders } from './helpers/client.js';
import { PDF, jpeg } from './helpers/crud-media.js';
import { ID } from './helpers/crud-cli-project.js';
import { DIALECTS } from './helpers/dialects.js';

const DOSSIER = {
  format_version: 1,
  entity: 'Dossier',
  table: 'dossiers',
  fields: [ID, { name: 'titre', sql_type: 'VARCHAR(100)', constraints: { not_empty: true } }],
  media: [
    { name: 'piece', field: 'file', label: 'Pièce' },
    { name: 'photo', field: 'image', role: 'cover', label: 'Photo', variants: true },
  ],
  rbac: { permissions: { index: ['juriste', 'admin'], show: ['juriste', 'admin'], create: ['admin'], update: ['admin'], delete: ['admin'] } },
};

const USERS = { admin: 'admin@example.test', juriste: 'juriste@example.test', stagiaire: 'stagiaire@example.test' } as const;

function buildProject(dialect: DialectName): CliProject {
  const project = newProject('Cabinet');
  try {
    project.useDialect(dialect);
    project.write('mvc/entities/dossier/dossier.json', `${JSON.stringify(DOSSIER, null, 2)}\n`);
    for (const args of [['make:crud', 'Dossier', '--media'], ['auth:init'], ['upload:init'], ['media:init'], ['db:init'], ['db:apply']]) fw(project, args);
    for (const email of Object.values(USERS)) fw(project, ['auth:user:create', '--email', email, '--password', PASSWORD]);
    for (const role of ['admin', 'juriste']) fw(project, ['auth:role:create', role]);
    fw(project, ['auth:user:role:add', '--email', USERS.admin, '--role', 'admin']);
    fw(project, ['auth:user:role:add', '--email', USERS.juriste, '--role', 'juriste']);
    linkFramework(project);
    return project;
  } catch (err) {
    void project.cleanup();
    throw err;
  }
}

/** A signed-in client. */
async function signIn(base: string, email: string): Promise<SessionClient> {
  const client = new SessionClient(base);
  const login = await client.login(email, PASSWORD);
  assert.is(login.status, 302, `login ${email}: ${login.text.slice(0, 300)}`);
  return client;
}

/** The create form posted as a browser does (multipart, with the page's CSRF token). */
async function createDossier(client: SessionClient, titre: string, files: Array<[string, string, Buffer, string]>): Promise<void> {
  const token = await client.csrf('/dossiers/new');
  const data = new FormData();
  data.append('csrf_token', token);
  data.append('titre', titre);
  for (const [name, filename, bytes, type] of files) data.append(name, new Blob([bytes], { type }), filename);
  const response = await fetch(`${client.base}/dossiers`, { method: 'POST', headers: { cookie: client.cookie }, body: data, redirect: 'manual' });
  assert.is(response.status, 302, await response.text());
}

for (const dialect of DIALECTS) {
  const test = suite<{ project: CliProject; served: { url: string; child: ChildProcess }; db: Database; doc: string; image: string; id: string }>(
    `a record's private files follow its page's read rule (${dialect})`,
  );

  test.before(async (context) => {
    context.project = buildProject(dialect);
    context.served = await serveProject(context.project);
    context.db = dialect === 'sqlite' ? openDatabase({ driver: 'sqlite', file: context.project.path('storage/database.sqlite') }) : context.project.open();
    const admin = await signIn(context.served.url, USERS.admin);
    await createDossier(admin, 'Premier', []);
    await createDossier(admin, 'Succession Martin', [
      ['piece', 'acte.pdf', PDF, 'application/pdf'],
      ['photo', 'plan.jpg', await jpeg(400, 300, { r: 20, g: 90, b: 160 }), 'image/jpeg'],
    ]);
    const rows = await context.db.fetchAll<{ entity_id: unknown; path: string; role: string }>(
      "SELECT entity_id, path, role FROM media WHERE entity_name = 'Dossier' ORDER BY id",
    );
    assert.is(rows.length, 2);
    context.doc = rows.find((row) => row.role === 'piece')!.path;
    context.image = rows.find((row) => row.role === 'cover')!.path;
    context.id = String(rows[0]!.entity_id);
    assert.match(context.doc, /^documents\//);
  });

  test.after(async ({ project, served, db }) => {
    await db?.close();
    await stopServer(served);
    await project?.cleanup();
  });

  test("the generated media module declares the read rule of the detail page: the description's own check of the role block", ({ project }) => {
    const module = project.read('mvc/models/dossier_media.ts');
    assert.match(module, "mayShow: (request) => DOSSIER_CRUD.allowed(request, 'show'),");
    assert.not.match(module, 'juriste');
    assert.match(project.read('mvc/models/dossier_crud.ts'), "show: ['juriste', 'admin']");
  });

  test('who may open the record reads its document: 200, then 304 on its ETag, 206 on a range', async ({ served, doc, id }) => {
    for (const email of [USERS.admin, USERS.juriste]) {
      const client = await signIn(served.url, email);
      assert.is((await client.get(`/dossiers/${id}`)).status, 200, email);
      const file = await client.get(`/media/${doc}`);
      assert.is(file.status, 200, email);
      assert.is(file.text, PDF.toString('latin1'));
      assert.is(file.headers.get('content-type'), 'application/pdf');
      assert.is(file.headers.get('cache-control'), 'no-store');
      assert.is(file.headers.get('accept-ranges'), 'bytes');
      const etag = file.headers.get('etag')!;
      assert.is((await client.get(`/media/${doc}`, { 'if-none-match': etag })).status, 304, email);
      const part = await client.get(`/media/${doc}`, { range: 'bytes=0-7' });
      assert.is(part.status, 206, email);
      assert.is(part.text, '%PDF-1.4');
    }
  });

  test('a user the record page refuses gets the same 403 on its file: plain, with If-None-Match, with Range, HEAD', async ({ served, doc, id }) => {
    const juriste = await signIn(served.url, USERS.juriste);
    const etag = (await juriste.get(`/media/${doc}`)).headers.get('etag')!;
    const stagiaire = await signIn(served.url, USERS.stagiaire);
    assert.is((await stagiaire.get(`/dossiers/${id}`)).status, 403);
    const variants: Array<Record<string, string>> = [
      {},
      { 'if-none-match': etag },
      { 'if-none-match': `W/${etag}` },
      { 'if-none-match': '*' },
      { range: 'bytes=0-7' },
      { 'if-modified-since': new Date().toUTCString() },
    ];
    for (const headers of variants) {
      const refused = await stagiaire.get(`/media/${doc}`, headers);
      assert.is(refused.status, 403, JSON.stringify(headers));
      assert.not.match(refused.text, '%PDF');
      assert.is(refused.headers.get('etag'), null);
      assert.is(refused.headers.get('cache-control'), 'no-store');
      assertSecurityHeaders(refused.headers, `403 ${JSON.stringify(headers)}`);
    }
    const head = await stagiaire.request('HEAD', `/media/${doc}`);
    assert.is(head.status, 403);
  });

  test('anonymous visitors are sent to the login, with or without If-None-Match', async ({ served, doc }) => {
    const anonymous = new SessionClient(served.url);
    for (const headers of [{}, { 'if-none-match': '*' }] as Array<Record<string, string>>) {
      const refused = await anonymous.get(`/media/${doc}`, headers);
      assert.is(refused.status, 302);
      assert.match(refused.headers.get('location') ?? '', /^\/login\?next=/);
    }
  });

  test('images stay public by configuration (media_public_categories), their record notwithstanding', async ({ served, image }) => {
    assert.is((await new SessionClient(served.url).get(`/media/${image}`)).status, 200);
  });

  test('a change of rule needs no user code: the role block regenerated (sync:entity) refuses the juriste on restart', async (context) => {
    const { project, doc } = context;
    const changed = { ...DOSSIER, rbac: { permissions: { ...DOSSIER.rbac.permissions, show: ['admin'] } } };
    project.write('mvc/entities/dossier/dossier.json', `${JSON.stringify(changed, null, 2)}\n`);
    fw(project, ['sync:entity', 'Dossier']);
    assert.match(project.read('mvc/models/dossier_crud.ts'), "show: ['admin']");
    await stopServer(context.served);
    context.served = await serveProject(project);
    const juriste = await signIn(context.served.url, USERS.juriste);
    assert.is((await juriste.get(`/media/${doc}`)).status, 403);
    const admin = await signIn(context.served.url, USERS.admin);
    assert.is((await admin.get(`/media/${doc}`)).status, 200);
  });

  test.run();
}
