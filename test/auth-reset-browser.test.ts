/**
 * A real browser (Debian's Chromium) on the password-reset pages, SQLite, the message delivered by the outbox's
 * sender to a real SMTP server: from the login page's link, ask for a link (a wrong address first), open the link
 * received, set the new password (a mismatch first), sign in with it; the old link is refused after. No console
 * error or warning is tolerated but the favicon's 404 and the statuses of the pages shown with their error (422,
 * 410). With RESET_SHOTS=<folder>, each page is also saved as a screenshot at 1280 and 390 px.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { hashPassword } from '../runtime/auth/passwords.js';
import { createUser } from '../runtime/auth/users.js';
import { closeDatabase } from '../runtime/db/index.js';
import type { AuthDatabase } from './helpers/auth-client.js';
import { EMAIL, linkOf, NEW_PASSWORD, openResetDatabase, PASSWORD, startResetWorld, type ResetWorld } from './helpers/auth-reset.js';
import { REPO } from './helpers/cli.js';
import { launchChromium, watchPage } from './helpers/crud-browser.js';

const test = suite<{ world: ResetWorld; data: AuthDatabase; browser: Browser; userId: number }>(
  'navigateur : mot de passe oublié, lien reçu, nouveau mot de passe',
);
const problems: string[] = [];
const ignored = new Map<string, number>();
const SHOTS = process.env.RESET_SHOTS;

test.before(async (context) => {
  context.data = await openResetDatabase('sqlite');
  const appJs = fs.readFileSync(path.join(REPO, 'cli', 'templates', 'project', 'static', 'js', 'app.js'));
  [context.world, context.browser] = await Promise.all([startResetWorld(context.data, { 'static/js/app.js': appJs }), launchChromium()]);
  context.userId = await createUser({ email: EMAIL, passwordHash: await hashPassword(PASSWORD) }, context.data.db);
});

test.after(async ({ world, data, browser }) => {
  await browser?.close();
  await world?.close();
  await closeDatabase();
  await data?.close();
});

/** Saves the page at both widths when RESET_SHOTS names a folder. */
async function shoot(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** Clicks and waits for the new document (the URL may stay the same: a form shown again with its error). */
async function submit(page: Page, url: string, button = 'main button[type="submit"]'): Promise<void> {
  await Promise.all([page.waitForEvent('load'), page.click(button)]);
  assert.is(page.url(), url);
}

test('ask from the login page, open the received link, set the password, sign in; the old link is refused', async ({ world, browser, userId }) => {
  const { app, smtp } = world;
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  watchPage(page, problems, ignored);

  await page.goto(`${app.base}/login`);
  await shoot(page, 'login');
  await submit(page, `${app.base}/password/forgot`, '#forgot-link');
  await shoot(page, 'forgot');

  await page.fill('#field-email', 'alice@');
  await submit(page, `${app.base}/password/forgot`);
  assert.is(await page.textContent('#forgot-error'), 'Saisissez une adresse e-mail valide.');
  await shoot(page, 'forgot-error');

  await page.fill('#field-email', 'Alice@Example.test');
  await submit(page, `${app.base}/password/forgot`);
  assert.match((await page.textContent('#reset-sent')) ?? '', 'Si un compte correspond à cette adresse');
  await shoot(page, 'forgot-sent');

  const [message] = await smtp.waitFor(1);
  const link = linkOf(message!);
  await page.goto(link);
  assert.is(await page.locator('#field-password').count(), 1);
  await shoot(page, 'reset');

  await page.fill('#field-password', NEW_PASSWORD);
  await page.fill('#field-password-confirm', 'pas le même mot de passe');
  await submit(page, link);
  assert.is(await page.textContent('#error-password-confirm'), 'Les deux mots de passe ne correspondent pas.');
  await shoot(page, 'reset-error');

  await page.fill('#field-password', NEW_PASSWORD);
  await page.fill('#field-password-confirm', NEW_PASSWORD);
  await submit(page, `${app.base}/login`);
  assert.match((await page.textContent('main')) ?? '', 'Votre mot de passe a été changé.');
  await shoot(page, 'login-after-reset');

  await page.goto(`${app.base}/private`);
  assert.is(page.url(), `${app.base}/login?next=%2Fprivate`);
  await page.fill('input[name="login"]', EMAIL);
  await page.fill('input[name="password"]', NEW_PASSWORD);
  await submit(page, `${app.base}/private`);
  assert.equal(JSON.parse((await page.textContent('body')) ?? 'null').id, userId);

  await page.goto(link);
  assert.match((await page.textContent('#reset-invalid')) ?? '', 'Ce lien n’est pas valable ou a déjà servi.');
  assert.is(await page.locator('#field-password').count(), 0);
  await shoot(page, 'reset-invalid');

  await context.close();
  // Chromium reports the status of a document shown with its error, by design: 422 (the two forms) and 410.
  const expected = [
    /^error: Failed to load resource: the server responded with a status of 422 \(Unprocessable Entity\) \(http:\/\/127\.0\.0\.1:\d+\/password\/forgot\)$/,
    /^error: Failed to load resource: the server responded with a status of 422 \(Unprocessable Entity\) \(http:\/\/127\.0\.0\.1:\d+\/password\/reset\/[A-Za-z0-9_-]{43}\)$/,
    /^error: Failed to load resource: the server responded with a status of 410 \(Gone\) \(http:\/\/127\.0\.0\.1:\d+\/password\/reset\/[A-Za-z0-9_-]{43}\)$/,
  ];
  for (const pattern of expected) {
    const index = problems.findIndex((problem) => pattern.test(problem));
    assert.ok(index >= 0, `expected console line ${pattern} in ${problems.join('\n')}`);
    problems.splice(index, 1);
  }
  assert.equal(problems, []);
});

test.run();
