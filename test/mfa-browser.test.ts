/**
 * A real browser (Debian's Chromium) on the MFA pages, SQLite: the user signs in, turns the second factor on (the
 * QR code is drawn, as inline SVG, under the app's CSP), reads the secret from the page as someone typing it into
 * an authenticator app would, confirms with the code otplib computes from it, notes the recovery codes, signs out,
 * and signs in again with the password and a fresh code. No console error or warning is tolerated but the
 * favicon's 404 and the statuses of the two forms shown again after a wrong code. With MFA_SHOTS=<folder>, each page is also saved as a screenshot at 1280 and 390 px.
 */
import fs from 'node:fs';
import path from 'node:path';
import { generate } from 'otplib';
import type { Browser, Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { hashPassword } from '../runtime/auth/passwords.js';
import { createUser } from '../runtime/auth/users.js';
import { closeDatabase } from '../runtime/db/index.js';
import { openAuthDatabase, type AuthDatabase } from './helpers/auth-client.js';
import { REPO } from './helpers/cli.js';
import { launchChromium, watchPage } from './helpers/crud-browser.js';
import { currentStep, EMAIL, PASSWORD, startMfaApp, stepMargin } from './helpers/mfa.js';
import type { TestApp } from './helpers/server.js';

const test = suite<{ app: TestApp; data: AuthDatabase; browser: Browser }>('navigateur : activation du second facteur et connexion avec un code');
const problems: string[] = [];
const ignored = new Map<string, number>();
const SHOTS = process.env.MFA_SHOTS;

test.before(async (context) => {
  context.data = await openAuthDatabase('sqlite');
  const appJs = fs.readFileSync(path.join(REPO, 'cli', 'templates', 'project', 'static', 'js', 'app.js'));
  [context.app, context.browser] = await Promise.all([startMfaApp(context.data, { 'static/js/app.js': appJs }), launchChromium()]);
  await createUser({ email: EMAIL, passwordHash: await hashPassword(PASSWORD) }, context.data.db);
});

test.after(async ({ app, data, browser }) => {
  await browser?.close();
  await closeDatabase();
  await app?.close();
  await data?.close();
});

function where(page: Page): string {
  const url = new URL(page.url());
  return url.pathname + url.search;
}

/** Saves the page at both widths when MFA_SHOTS names a folder. */
async function shoot(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** A code for a step later than `usedStep` (an app shows the next code once the current one is used). */
function codeAfter(secret: string, usedStep: number): Promise<string> {
  const step = Math.max(currentStep(), usedStep + 1);
  return generate({ secret, epoch: step * 30 });
}

/** Clicks and waits for the new document (the URL may stay the same: a form shown again with its error). */
async function submit(page: Page, url: string, button = 'main button[type="submit"]'): Promise<void> {
  await Promise.all([page.waitForEvent('load'), page.click(button)]);
  assert.is(page.url(), url);
}

test('turn the second factor on from the page, sign out, sign in with the password and a fresh code', async ({ app, browser }) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  watchPage(page, problems, ignored);

  await page.goto(`${app.base}/account/mfa`);
  assert.is(where(page), '/login?next=%2Faccount%2Fmfa');
  await page.fill('input[name="login"]', EMAIL);
  await page.fill('input[name="password"]', PASSWORD);
  await submit(page, `${app.base}/account/mfa`);
  assert.is(await page.textContent('#mfa-state'), 'Désactivée');
  await shoot(page, 'account-off');

  await submit(page, `${app.base}/account/mfa/setup`);
  const qr = page.locator('#mfa-qr svg');
  const box = await qr.boundingBox();
  assert.ok(box && box.width >= 150 && box.height >= 150, `the QR code is drawn (${JSON.stringify(box)})`);
  // The QR code's own paths are painted: its dark modules are black on white.
  assert.is(await qr.locator('path[stroke="#000000"]').count(), 1);
  const secret = (await page.textContent('#mfa-secret'))!.replace(/\s+/g, '');
  assert.match(secret, /^[A-Z2-7]{32}$/);
  assert.match((await page.locator('#mfa-uri').textContent()) ?? '', `secret=${secret}&issuer=`);
  await shoot(page, 'setup');

  await page.fill('#field-code', '000000');
  await submit(page, `${app.base}/account/mfa/confirm`);
  assert.match((await page.textContent('#mfa-error')) ?? '', 'Code incorrect');
  await shoot(page, 'setup-error');

  await stepMargin();
  const confirmStep = currentStep();
  await page.fill('#field-code', await generate({ secret }));
  await submit(page, `${app.base}/account/mfa/confirm`);
  const codes = await page.locator('#recovery-codes li').allTextContents();
  assert.is(codes.length, 10);
  await shoot(page, 'recovery-codes');

  await submit(page, `${app.base}/account/mfa`, 'main a[href="/account/mfa"]');
  assert.is(await page.textContent('#mfa-state'), 'Activée');
  await shoot(page, 'account-on');

  await page.goto(`${app.base}/`);
  await submit(page, `${app.base}/login`, '#logout');
  await page.goto(`${app.base}/account/mfa`);
  await page.fill('input[name="login"]', EMAIL);
  await page.fill('input[name="password"]', PASSWORD);
  await submit(page, `${app.base}/login/mfa`);
  await shoot(page, 'challenge');

  await page.fill('#field-code', '111111');
  await submit(page, `${app.base}/login/mfa`);
  assert.match((await page.textContent('#mfa-error')) ?? '', 'Code incorrect ou déjà utilisé.');
  await shoot(page, 'challenge-error');

  await page.fill('#field-code', await codeAfter(secret, confirmStep));
  await submit(page, `${app.base}/account/mfa`);
  assert.is(await page.textContent('#mfa-state'), 'Activée');

  await context.close();
  // Chromium reports the status of a document shown with its error: the wrong codes above, by design (422 and 401).
  const expected = [
    /^error: Failed to load resource: the server responded with a status of 422 \(Unprocessable Entity\) \(http:\/\/127\.0\.0\.1:\d+\/account\/mfa\/confirm\)$/,
    /^error: Failed to load resource: the server responded with a status of 401 \(Unauthorized\) \(http:\/\/127\.0\.0\.1:\d+\/login\/mfa\)$/,
  ];
  for (const pattern of expected) {
    const index = problems.findIndex((problem) => pattern.test(problem));
    assert.ok(index >= 0, `expected console line ${pattern}`);
    problems.splice(index, 1);
  }
  assert.equal(problems, []);
});

test.run();
