/**
 * The whole chain through the real CLI and real servers, on SQLite and on MariaDB: `fw make:crud Contact` without
 * `--public` (with a role block), `fw auth:init`, `fw db:init`, `fw db:apply`, `fw auth:user:create`,
 * `fw auth:role:create`, `fw auth:user:role:add`; then two server processes of the project on one database
 * session store: users of different roles sign in on one and use their session on the other, failures on both
 * count toward one limit, and `fw auth:user:disable` / `auth:user:password` end a user's sessions.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { ChildProcess } from 'node:child_process';
import type { CliProject } from './helpers/cli.js';
import { serveProject } from './helpers/crud-app.js';
import { SessionClient } from './helpers/auth-client.js';
import { buildAuthProject, fwOk as fw, PASSWORD, stopServer as stop } from './helpers/auth-app.js';
import { DIALECTS } from './helpers/dialects.js';

interface Served {
  url: string;
  child: ChildProcess;
}

for (const dialect of DIALECTS) {
  const test = suite<{ project: CliProject; one: Served; two: Served }>(`auth chain through the CLI (${dialect})`);

  test.before(async (context) => {
    const project = buildAuthProject(dialect);
    context.project = project;
    context.one = await serveProject(project);
    context.two = await serveProject(project);
  });

  test.after(async ({ project, one, two }) => {
    await stop(one);
    await stop(two);
    await project?.cleanup();
  });

  test('anonymous: the CRUD sends to /login with next; the login page answers', async ({ one }) => {
    const client = new SessionClient(one.url);
    const page = await client.get('/contacts');
    assert.is(page.status, 302);
    assert.is(page.headers.get('location'), '/login?next=%2Fcontacts');
    assert.is((await client.get('/login?next=%2Fcontacts')).status, 200);
  });

  test('roles over HTTP: admin creates, lecteur reads but may not create, a user without role is refused', async ({ one, two }) => {
    const admin = new SessionClient(one.url);
    const login = await admin.login('ADMIN@example.test', PASSWORD, '/contacts');
    assert.is(login.status, 302);
    assert.is(login.headers.get('location'), '/contacts');
    // The session made by the first process is used on the second.
    const onTwo = new SessionClient(two.url);
    onTwo.cookie = admin.cookie;
    const list = await onTwo.get('/contacts');
    assert.is(list.status, 200);
    assert.match(list.text, 'admin@example.test');
    assert.is(list.headers.get('cache-control'), 'no-store');
    const created = await onTwo.post(
      '/contacts',
      [
        ['nom', 'Durand'],
        ['email', 'durand@example.test'],
      ],
      '/contacts/new',
    );
    assert.is(created.status, 302, created.text.slice(0, 500));

    const reader = new SessionClient(two.url);
    assert.is((await reader.login('lecteur@example.test', PASSWORD)).status, 302);
    const readerList = await reader.get('/contacts');
    assert.is(readerList.status, 200);
    assert.match(readerList.text, 'Durand');
    assert.is((await reader.get('/contacts/new')).status, 403);

    const nobody = new SessionClient(one.url);
    assert.is((await nobody.login('sansrole@example.test', PASSWORD)).status, 302);
    assert.is((await nobody.get('/contacts')).status, 403);
  });

  test('failures on both processes count toward one limit', async ({ one, two }) => {
    for (let i = 0; i < 5; i++) {
      const base = i % 2 === 0 ? one.url : two.url;
      assert.is((await new SessionClient(base).login('sansrole@example.test', `faux-${i}-mot-de-passe`)).status, 401);
    }
    const limited = await new SessionClient(one.url).login('sansrole@example.test', PASSWORD);
    assert.is(limited.status, 429);
    assert.ok(Number(limited.headers.get('retry-after')) >= 1);
    assert.is((await new SessionClient(two.url).login('sansrole@example.test', PASSWORD)).status, 429);
  });

  test("auth:user:disable and auth:user:password end the user's sessions; a disabled user cannot sign in", async ({ project, one }) => {
    // The limit of the previous test counts per IP: clear the shared table, as the window passing would.
    await project.sql(['DELETE FROM auth_rate_limit_attempts']);
    const reader = new SessionClient(one.url);
    assert.is((await reader.login('lecteur@example.test', PASSWORD)).status, 302);
    assert.is((await reader.get('/contacts')).status, 200);
    fw(project, ['auth:user:disable', '--email', 'lecteur@example.test']);
    assert.is((await reader.get('/contacts')).status, 302, 'session ended by disable');
    assert.is((await new SessionClient(one.url).login('lecteur@example.test', PASSWORD)).status, 401);
    fw(project, ['auth:user:enable', '--email', 'lecteur@example.test']);

    const admin = new SessionClient(one.url);
    assert.is((await admin.login('admin@example.test', PASSWORD)).status, 302);
    fw(project, ['auth:user:password', '--email', 'admin@example.test', '--password', 'Nouveau-mot-de-passe-7']);
    assert.is((await admin.get('/contacts')).status, 302, 'session ended by the password change');
    assert.is((await new SessionClient(one.url).login('admin@example.test', PASSWORD)).status, 401);
    assert.is((await new SessionClient(one.url).login('admin@example.test', 'Nouveau-mot-de-passe-7')).status, 302);
  });

  test.run();
}
