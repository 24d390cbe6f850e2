/**
 * A real browser (Debian's Chromium) on a generated project behind the login (SQLite): a protected CRUD page sends
 * to the login form, the user signs in, lands back on the page and creates a record, signs out, and the back
 * button shows nothing private (private pages are `Cache-Control: no-store`, so the browser asks the server again
 * and is sent to the login form). No console error or warning is tolerated but the favicon's 404 and the wrong password's 401.
 */
import type { Browser, Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { CliProject } from './helpers/cli.js';
import { serveProject } from './helpers/crud-app.js';
import { launchChromium, watchPage } from './helpers/crud-browser.js';
import { buildAuthProject, PASSWORD, stopServer, USERS } from './helpers/auth-app.js';

const test = suite<{ project: CliProject; served: { url: string; child: import('node:child_process').ChildProcess }; browser: Browser }>(
  'navigateur : connexion, page protégée, déconnexion',
);
const problems: string[] = [];
const ignored = new Map<string, number>();

test.before(async (context) => {
  context.project = buildAuthProject('sqlite');
  [context.served, context.browser] = await Promise.all([serveProject(context.project), launchChromium()]);
});

test.after(async ({ project, served, browser }) => {
  await browser?.close();
  await stopServer(served);
  await project?.cleanup();
});

function path(page: Page): string {
  const url = new URL(page.url());
  return url.pathname + url.search;
}

test('log in, use the protected CRUD, log out; back shows nothing private', async ({ served, browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  watchPage(page, problems, ignored);

  await page.goto(`${served.url}/contacts`);
  assert.is(path(page), '/login?next=%2Fcontacts');
  await page.fill('input[name="login"]', USERS.admin);
  await page.fill('input[name="password"]', 'pas-le-bon-mot-de-passe');
  await Promise.all([page.waitForLoadState('load'), page.click('button[type="submit"]')]);
  assert.match((await page.textContent('#login-error')) ?? '', 'Identifiant ou mot de passe incorrect.');
  assert.is(await page.inputValue('input[name="login"]'), USERS.admin, 'the login is kept');
  assert.is(await page.inputValue('input[name="password"]'), '', 'the password is not');

  await page.fill('input[name="password"]', PASSWORD);
  await Promise.all([page.waitForURL(`${served.url}/contacts`), page.click('button[type="submit"]')]);
  assert.match((await page.textContent('#current-user')) ?? '', USERS.admin);

  await page.goto(`${served.url}/contacts/new`);
  await page.fill('input[name="nom"]', 'Confidentiel-Durand');
  await Promise.all([page.waitForLoadState('load'), page.click('main form[method="post"] button[type="submit"]')]);
  await page.goto(`${served.url}/contacts`);
  assert.match(await page.content(), 'Confidentiel-Durand');

  const signedIn = (await context.cookies()).find((c) => c.name === 'session_id')?.value;
  assert.ok(signedIn);
  await Promise.all([page.waitForURL(`${served.url}/login`), page.click('form[action="/logout"] button')]);
  assert.not.match(await page.content(), 'Confidentiel-Durand');
  // The login form the logout leads to opens a new anonymous session: the signed-in one is gone.
  const after = (await context.cookies()).filter((c) => c.name === 'session_id').map((c) => c.value);
  assert.not.ok(after.includes(signedIn), 'the signed-in session cookie is gone');

  await page.goBack();
  await page.waitForLoadState('load');
  const content = await page.content();
  assert.not.match(content, 'Confidentiel-Durand', `back showed a private page at ${path(page)}`);
  assert.ok(path(page).startsWith('/login'), `back lands on ${path(page)}`);

  await context.close();
  // The wrong password's 401 is reported by Chromium as a failed resource; nothing else may be.
  const unexpected = problems.filter((p) => !/status of 401 \(Unauthorized\) \(http:\/\/127\.0\.0\.1:\d+\/login\)$/.test(p));
  assert.equal(unexpected, []);
  assert.is(problems.length - unexpected.length, 1, 'one 401, for the wrong password');
});

test.run();
