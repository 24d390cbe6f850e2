// Starters 1, 3 and 2 built through the real CLI, each in a fresh `fw new --no-install` project on SQLite
// (`fw starter:build <id> --init-db`), type-checked with `tsc --noEmit`, served, and their main pages used over HTTP:
// the public contacts pages; the carnet behind the login (a city, a contact in it); the dashboard, the profile and
// the change of password that ends the user's other sessions (docs/starters.md).
import type { ChildProcess } from 'node:child_process';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { newProject, type CliProject } from './helpers/cli.js';
import { linkFramework, serveProject } from './helpers/crud-app.js';
import { SessionClient } from './helpers/auth-client.js';
import { fwOk, stopServer } from './helpers/auth-app.js';
import { runTsc } from './helpers/typecheck.js';

const PASSWORD = 'Motdepasse-solide-42';
const EMAIL = 'alice@example.test';

interface Context {
  project: CliProject;
  served: { url: string; child: ChildProcess };
}

/** `fw new`, the starter built with `--init-db`, the packages linked, `tsc --noEmit` clean, then served. */
async function builtAndServed(context: Context, name: string, args: string[], setup: (project: CliProject) => void = () => {}): Promise<void> {
  const project = newProject(name);
  context.project = project;
  project.useSqlite();
  const out = fwOk(project, ['starter:build', ...args, '--init-db']);
  assert.match(out, /Schéma appliqué : \d+ fichier\(s\)\.\n/);
  setup(project);
  linkFramework(project);
  const checked = runTsc(project.root, ['--noEmit', '-p', 'tsconfig.json']);
  assert.is(checked.stdout + checked.stderr, '', 'tsc --noEmit');
  assert.is(checked.status, 0);
  context.served = await serveProject(project);
}

async function teardown({ project, served }: Context): Promise<void> {
  await stopServer(served);
  await project?.cleanup();
}

/** The hrefs of the home page's cards (the menu entries the visitor may open), in order; none when the list is absent. */
function homeCards(html: string): string[] {
  const list = /<ul [^>]*id="home-links"[^>]*>([\s\S]*?)<\/ul>/.exec(html)?.[1] ?? '';
  return [...list.matchAll(/<a href="([^"]+)"/g)].map((match) => match[1]!);
}

function withUser(project: CliProject, roles: string[] = []): void {
  fwOk(project, ['auth:user:create', '--email', EMAIL, '--password', PASSWORD]);
  for (const role of roles) {
    fwOk(project, ['auth:role:create', role]);
    fwOk(project, ['auth:user:role:add', '--email', EMAIL, '--role', role]);
  }
}

// --- 1 contacts --public ---

const contacts = suite<Context>('starter contacts --public: served without login');
contacts.before((context) => builtAndServed(context, 'Contacts', ['contacts', '--public']));
contacts.after(teardown);

contacts('the home links to the list; the list, the form, a creation and a refused form answer', async ({ served }) => {
  const client = new SessionClient(served.url);
  const home = await client.get('/');
  assert.is(home.status, 200);
  assert.equal(homeCards(home.text), ['/contacts'], 'the public list, for a visitor');
  assert.not.match(home.text, 'id="home-login"', 'no login without auth');
  assert.is((await client.get('/contacts')).status, 200);
  const form = await client.get('/contacts/new');
  assert.is(form.status, 200);
  assert.match(form.text, 'Prénom');
  const created = await client.post(
    '/contacts',
    [
      ['nom', 'Durand'],
      ['prenom', 'Alice'],
      ['email', 'alice@example.test'],
      ['telephone', ''],
    ],
    '/contacts/new',
  );
  assert.is(created.status, 302, created.text.slice(0, 400));
  assert.is(created.headers.get('location'), '/contacts');
  const list = await client.get('/contacts');
  assert.match(list.text, 'Durand');
  assert.match(list.text, 'Téléphone');
  const duplicate = await client.post(
    '/contacts',
    [
      ['nom', 'Martin'],
      ['prenom', 'Bob'],
      ['email', 'alice@example.test'],
      ['telephone', ''],
    ],
    '/contacts/new',
  );
  assert.is(duplicate.status, 422);
  const empty = await client.post(
    '/contacts',
    [
      ['nom', ''],
      ['prenom', 'Bob'],
      ['email', 'bob@example.test'],
      ['telephone', ''],
    ],
    '/contacts/new',
  );
  assert.is(empty.status, 422);
});

contacts.run();

// --- 3 carnet (protected) ---

const carnet = suite<Context>('starter carnet: villes and contacts behind the login');
carnet.before((context) => builtAndServed(context, 'Carnet', ['carnet'], (project) => withUser(project)));
carnet.after(teardown);

carnet('anonymous visitors are sent to /login; a signed-in user adds a city and a contact in it', async ({ served }) => {
  const client = new SessionClient(served.url);
  const anonymous = await client.get('/villes');
  assert.is(anonymous.status, 302);
  assert.is(anonymous.headers.get('location'), '/login?next=%2Fvilles');
  // A visitor: the sign-in button, no card and no link to a page the login guards.
  const visitor = (await client.get('/')).text;
  assert.match(visitor, 'id="home-login"');
  assert.not.match(visitor, 'id="home-links"');
  for (const href of ['/contacts', '/villes']) assert.not.match(visitor, `href="${href}"`, href);
  assert.is((await client.login(EMAIL, PASSWORD, '/villes')).headers.get('location'), '/villes');
  const home = await client.get('/');
  assert.match(home.text, `<strong id="home-user">${EMAIL}</strong>`);
  assert.not.match(home.text, 'id="home-login"');
  assert.equal(homeCards(home.text).sort(), ['/contacts', '/villes']);

  assert.is((await client.post('/villes', [['nom', 'Lyon']], '/villes/new')).status, 302);
  const form = await client.get('/contacts/new');
  assert.match(form.text, /<option value="1"[^>]*>Lyon<\/option>/);
  const created = await client.post(
    '/contacts',
    [
      ['nom', 'Durand'],
      ['prenom', 'Alice'],
      ['email', 'alice@example.test'],
      ['telephone', '0102030405'],
      ['ville_id', '1'],
    ],
    '/contacts/new',
  );
  assert.is(created.status, 302, created.text.slice(0, 400));
  const list = await client.get('/contacts');
  assert.is(list.status, 200);
  assert.match(list.text, 'Durand');
  assert.match(list.text, 'Lyon');
  assert.is((await client.get('/villes')).status, 200);
});

carnet.run();

// --- 2 auth ---

const auth = suite<Context>('starter auth: dashboard, profile, change of password');
auth.before((context) => builtAndServed(context, 'Comptes', ['auth'], (project) => withUser(project, ['admin'])));
auth.after(teardown);

auth('the dashboard and the profile show the signed-in user, roles and last login; no MFA card', async ({ served }) => {
  const client = new SessionClient(served.url);
  const anonymous = await client.get('/dashboard');
  assert.is(anonymous.status, 302);
  assert.is(anonymous.headers.get('location'), '/login?next=%2Fdashboard');
  assert.is((await client.get('/profile')).status, 302);
  const visitor = (await client.get('/')).text;
  assert.match(visitor, 'id="home-login"');
  assert.not.match(visitor, 'id="home-links"');
  for (const href of ['/dashboard', '/profile', '/account/mfa']) assert.not.match(visitor, `href="${href}"`, href);

  assert.is((await client.login(EMAIL, PASSWORD)).status, 302);
  const dashboard = await client.get('/dashboard');
  assert.is(dashboard.status, 200);
  assert.match(dashboard.text, `<strong id="dashboard-user">${EMAIL}</strong>`);
  assert.match(dashboard.text, /id="dashboard-roles">\s*<li[^>]*>admin<\/li>/);
  assert.not.match(dashboard.text, 'id="mfa-card"', "the card is the mfa starter's");
  assert.is(dashboard.headers.get('cache-control'), 'no-store');
  const home = (await client.get('/')).text;
  assert.equal(homeCards(home), ['/dashboard', '/profile'], 'the cards of the signed-in user: no second factor');
  assert.match(home, '<span class="mt-1 block text-sm text-gray-600">Votre compte et vos rôles.</span>');
  const profile = await client.get('/profile');
  assert.is(profile.status, 200);
  assert.match(profile.text, `<dd class="mt-1 font-medium text-gray-900" id="profile-email">${EMAIL}</dd>`);
  assert.match(profile.text, 'id="profile-roles">admin</dd>');
  assert.match(
    profile.text,
    /id="profile-last-login">\d\d\/\d\d\/\d{4} \d\d:\d\d<\/dd>/,
    'in the application time zone (docs/runtime.md "Templates and i18n")',
  );
});

auth('a signed-in session survives a restart of the server: env/dev of a new project keeps sessions in storage/sessions', async (context) => {
  assert.match(context.project.read('env/dev'), /^SESSION_STORE=file$/m, 'the file store in env/dev');
  const client = new SessionClient(context.served.url);
  assert.is((await client.login(EMAIL, PASSWORD)).status, 302);
  assert.is((await client.get('/dashboard')).status, 200);
  await stopServer(context.served);
  context.served = await serveProject(context.project);
  const restarted = new SessionClient(context.served.url);
  restarted.cookie = client.cookie;
  const dashboard = await restarted.get('/dashboard');
  assert.is(dashboard.status, 200, 'still signed in after the restart');
  assert.match(dashboard.text, `<strong id="dashboard-user">${EMAIL}</strong>`);
});

auth('the change of password: 422 on a wrong field; success ends the other sessions and keeps this browser signed in', async ({ served }) => {
  const browser = new SessionClient(served.url);
  const other = new SessionClient(served.url);
  assert.is((await browser.login(EMAIL, PASSWORD)).status, 302);
  assert.is((await other.login(EMAIL, PASSWORD)).status, 302);
  assert.is((await other.get('/dashboard')).status, 200);

  const change = (current: string, next: string, confirm = next) =>
    browser.post(
      '/profile/password',
      [
        ['current_password', current],
        ['new_password', next],
        ['new_password_confirm', confirm],
      ],
      '/profile',
    );
  const wrong = await change('pas-le-bon-mot-de-passe', 'Nouveau-mot-de-passe-7');
  assert.is(wrong.status, 422);
  assert.match(wrong.text, 'Mot de passe actuel incorrect.');
  const mismatch = await change(PASSWORD, 'Nouveau-mot-de-passe-7', 'Autre-mot-de-passe-8');
  assert.is(mismatch.status, 422);
  assert.match(mismatch.text, 'Les deux mots de passe ne correspondent pas.');
  const short = await change(PASSWORD, 'court');
  assert.is(short.status, 422);
  assert.match(short.text, 'id="field-new_password-error"');

  const before = browser.sessionId;
  const done = await change(PASSWORD, 'Nouveau-mot-de-passe-7');
  assert.is(done.status, 302, done.text.slice(0, 400));
  assert.is(done.headers.get('location'), '/profile');
  assert.ok(browser.sessionId && browser.sessionId !== before, 'a fresh session for this browser');
  const profile = await browser.get('/profile');
  assert.is(profile.status, 200);
  assert.match(profile.text, 'Mot de passe changé. Vos autres sessions sont fermées.');
  const ended = await other.get('/dashboard');
  assert.is(ended.status, 302, 'the other session is ended');
  assert.is((await new SessionClient(served.url).login(EMAIL, PASSWORD)).status, 401);
  assert.is((await new SessionClient(served.url).login(EMAIL, 'Nouveau-mot-de-passe-7')).status, 302);
});

auth('20 concurrent wrong current passwords: exactly 5 are checked (422), the others and then the right one answer 429', async ({ served }) => {
  const client = new SessionClient(served.url);
  assert.is((await client.login(EMAIL, 'Nouveau-mot-de-passe-7')).status, 302);
  const token = await client.csrf('/profile');
  const attempt = (current: string) =>
    client.request('POST', '/profile/password', [
      ['csrf_token', token],
      ['current_password', current],
      ['new_password', 'Encore-un-autre-9'],
      ['new_password_confirm', 'Encore-un-autre-9'],
    ]);
  const pages = await Promise.all(Array.from({ length: 20 }, (_, i) => attempt(`faux-${i}-mot-de-passe`)));
  const counts: Record<number, number> = {};
  for (const page of pages) counts[page.status] = (counts[page.status] ?? 0) + 1;
  assert.equal(counts, { 422: 5, 429: 15 });
  const limited = await attempt('Nouveau-mot-de-passe-7');
  assert.is(limited.status, 429);
  assert.ok(Number(limited.headers.get('retry-after')) >= 1);
  assert.is((await new SessionClient(served.url).login(EMAIL, 'Encore-un-autre-9')).status, 401, 'the password did not change');
});

auth.run();
