// The application's menu (docs/crud.md "The menu") on a served generated project, through the real CLI: make:crud
// adds each list to routes.ts with `router.menu()`, once (a second run changes no byte; a project whose routes were
// there before the menu gets only the menu line); the layout's nav and the home page show a signed-in user the
// entries whose route lets the user in: the entity's role block for a CRUD list, the entry's own `roles` otherwise.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { ChildProcess } from 'node:child_process';
import { newProject, type CliProject } from './helpers/cli.js';
import { linkFramework, serveProject } from './helpers/crud-app.js';
import { SessionClient } from './helpers/auth-client.js';
import { PASSWORD, fwOk, stopServer } from './helpers/auth-app.js';
import { emitAppLayout, previousAppLayout } from '../emitters/crud/app-layout.js';

const entity = (name: string, table: string, rbac?: unknown) => ({
  format_version: 1,
  entity: name,
  table,
  fields: [
    { name: 'id', sql_type: 'INT', primary_key: true, auto_increment: true },
    { name: 'nom', sql_type: 'VARCHAR(100)', constraints: { not_empty: true } },
  ],
  ...(rbac ? { rbac } : {}),
});

/** Contact's list is for `lecteur` and `admin` only; Ville has no role block (any signed-in user). */
const CONTACT = entity('Contact', 'contacts', { permissions: { index: ['lecteur', 'admin'], show: ['lecteur', 'admin'] } });
const VILLE = entity('Ville', 'villes');
const ROUTES = 'mvc/routes.ts';
/** An entry written by hand with its own roles: the form of a new city, in the menu of the admins only. */
const ADMIN_ENTRY = "  router.menu('/villes/new', 'Nouvelle ville', { roles: ['admin'] });";

const USERS = { lecteur: ['lecteur'], visiteur: [], admin: ['admin'] } as const;
type User = keyof typeof USERS;
const email = (user: User): string => `${user}@example.test`;

/** The hrefs of the header's nav, in order. */
function navLinks(html: string): string[] {
  const nav = /<nav aria-label="[^"]*"[^>]*>([\s\S]*?)<\/nav>/.exec(html)?.[1] ?? '';
  return [...nav.matchAll(/<a href="([^"]+)"/g)].map((m) => m[1]!);
}

/** The hrefs of the home page's list of pages (none when the list is absent). */
function homeLinks(html: string): string[] {
  const list = /<ul id="home-menu"[^>]*>([\s\S]*?)<\/ul>/.exec(html)?.[1] ?? '';
  return [...list.matchAll(/<a href="([^"]+)"/g)].map((m) => m[1]!);
}

const test = suite<{ project: CliProject; served: { url: string; child: ChildProcess } }>('the menu of a served project');

test.before(async (context) => {
  const project = newProject('Menu');
  context.project = project;
  project.useDialect('sqlite');
  project.write('mvc/entities/contact/contact.json', `${JSON.stringify(CONTACT, null, 2)}\n`);
  project.write('mvc/entities/ville/ville.json', `${JSON.stringify(VILLE, null, 2)}\n`);
  fwOk(project, ['make:crud', 'Contact']);
  fwOk(project, ['make:crud', 'Ville']);
  project.write(ROUTES, project.read(ROUTES).replace(/\n}\n$/, `\n${ADMIN_ENTRY}\n}\n`));
  fwOk(project, ['auth:init']);
  fwOk(project, ['db:init']);
  fwOk(project, ['db:apply']);
  for (const [user, roles] of Object.entries(USERS) as Array<[User, readonly string[]]>) {
    fwOk(project, ['auth:user:create', '--email', email(user), '--password', PASSWORD]);
    for (const role of roles) {
      fwOk(project, ['auth:role:create', role]);
      fwOk(project, ['auth:user:role:add', '--email', email(user), '--role', role]);
    }
  }
  linkFramework(project);
  context.served = await serveProject(project);
});

test.after(async ({ project, served }) => {
  await stopServer(served);
  await project?.cleanup();
});

async function signIn(url: string, user: User): Promise<SessionClient> {
  const client = new SessionClient(url);
  assert.is((await client.login(email(user), PASSWORD)).status, 302);
  return client;
}

test('make:crud wrote one menu line per list, after its routes', ({ project }) => {
  const routes = project.read(ROUTES);
  assert.is(routes.split("router.menu('/contacts', 'Contacts');").length, 2, routes);
  assert.match(
    routes,
    "  router.add('POST', '/villes/{id}/delete', VilleController.destroy, { name: 'villes.delete' });\n  router.menu('/villes', 'Villes');\n",
  );
});

test('a second make:crud changes no byte of routes.ts; a project without the menu line gets it, alone', ({ project }) => {
  const before = project.read(ROUTES);
  const again = project.run(['make:crud', 'Contact']);
  assert.is(again.status, 0, again.stderr);
  assert.not.match(again.stdout, 'Menu complété');
  assert.is(project.read(ROUTES), before);

  // As a project of an earlier release has it: the routes, no menu line.
  project.write(ROUTES, before.replace("  router.menu('/contacts', 'Contacts');\n", ''));
  const upgraded = project.run(['make:crud', 'Contact']);
  assert.is(upgraded.status, 0, upgraded.stderr);
  assert.match(upgraded.stdout, `Menu complété : Contacts (/contacts) dans ${ROUTES}.`);
  assert.ok(project.read(ROUTES).endsWith("\n  // Contact (fw make:crud Contact)\n  router.menu('/contacts', 'Contacts');\n}\n"), project.read(ROUTES));
  const third = project.run(['make:crud', 'Contact']);
  assert.is(third.status, 0, third.stderr);
  const settled = project.read(ROUTES);
  project.write(ROUTES, before);
  assert.is(settled.split("router.menu('/contacts'").length, 2, 'still one entry');
});

test('a visitor sees no menu: every entry needs a session', async ({ served }) => {
  const home = await fetch(`${served.url}/`);
  assert.is(home.status, 200);
  assert.equal(homeLinks(await home.text()), []);
});

test('the nav and the home page show each signed-in user the pages its roles open, and those pages open', async ({ served }) => {
  const expected: Record<User, string[]> = {
    lecteur: ['/contacts', '/villes'],
    visiteur: ['/villes'],
    admin: ['/contacts', '/villes', '/villes/new'],
  };
  for (const user of Object.keys(USERS) as User[]) {
    const client = await signIn(served.url, user);
    const villes = await client.get('/villes');
    assert.is(villes.status, 200, user);
    assert.equal(navLinks(villes.text), expected[user], `${user}: the nav`);
    assert.match(villes.text, '<a href="/villes" class="font-semibold text-gray-900" aria-current="page">Villes</a>', `${user}: the page shown`);
    assert.equal(homeLinks((await client.get('/')).text), expected[user], `${user}: the home page`);
    // The same check as the route's: what the menu hides, the server refuses.
    assert.is((await client.get('/contacts')).status, expected[user].includes('/contacts') ? 200 : 403, `${user}: /contacts`);
  }
});

test('one nav on a CRUD page', async ({ served }) => {
  const client = await signIn(served.url, 'admin');
  const page = await client.get('/contacts');
  assert.is(page.text.split('<nav').length, 2, 'one nav element');
});

test("a layout as an earlier make:crud wrote it (an empty nav) is replaced by the one that renders the menu; the user's stays", ({ project }) => {
  const layout = 'mvc/views/layouts/app.html';
  project.write(layout, previousAppLayout());
  const run = project.run(['make:crud', 'Ville']);
  assert.is(run.status, 0, run.stderr);
  assert.match(run.stdout, /mis à jour +mvc\/views\/layouts\/app\.html/);
  assert.is(project.read(layout), emitAppLayout());
  const mine = previousAppLayout().replace('{% block nav %}', '{% block nav %}<a href="/aide">Aide</a>');
  project.write(layout, mine);
  assert.is(project.run(['make:crud', 'Ville']).status, 0);
  assert.is(project.read(layout), mine);
  project.write(layout, emitAppLayout());
});

test.run();
