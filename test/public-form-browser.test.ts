/**
 * A visitor's browser (Debian's Chromium through playwright-core, JavaScript on) on a public form made by
 * `fw make:public-form` (SQLite: what is checked here is the browser's side; public-http.test.ts runs the form on
 * both dialects): the form carries `novalidate`, so an empty required field and a malformed e-mail address reach
 * the server, which answers 422 with its French messages under the fields, the values kept — never the browser's
 * own bubbles. The page `make:public-page a-propos` shows « À propos », and no console error shows on these pages
 * (the 404 of the browser's own `/favicon.ico` request was one). With FW_SHOTS=<folder>, screenshots at 1280 and 390 px.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, ConsoleMessage, Page } from 'playwright-core';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { newProject, type CliProject } from './helpers/cli.js';
import { linkFramework, serveProject } from './helpers/crud-app.js';
import { launchChromium } from './helpers/crud-browser.js';
import { ID, ok, writeEntity } from './helpers/crud-cli-project.js';

const DEMANDE = {
  format_version: 1,
  entity: 'Demande',
  table: 'demandes',
  fields: [
    ID,
    { name: 'nom', sql_type: 'VARCHAR(100)', constraints: { not_empty: true } },
    { name: 'email', sql_type: 'VARCHAR(190)' },
    { name: 'montant', sql_type: 'DECIMAL(8,2)', nullable: true },
    { name: 'message', sql_type: 'TEXT', nullable: true },
  ],
};

let project: CliProject;
let child: ChildProcess | undefined;
let url = '';
let browser: Browser;
let page: Page;
/** Console errors and warnings of the pages (a 404 of /favicon.ico would be one). */
const problems: string[] = [];

test.before(async () => {
  project = newProject('Vitrine');
  project.useDialect('sqlite');
  writeEntity(project, DEMANDE);
  for (const args of [['make:public-form', 'Demande'], ['make:public-page', 'a-propos'], ['db:init'], ['db:apply']]) ok(project, args);
  linkFramework(project);
  const served = await serveProject(project);
  child = served.child;
  url = served.url;
  browser = await launchChromium();
  page = await browser.newPage();
  page.on('console', (message: ConsoleMessage) => {
    // The 422 of the form sent back is the expected answer; anything else is a problem.
    if (/status of 422/.test(message.text())) return;
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.text()} (${message.location().url})`);
  });
});

test.after(async () => {
  await browser?.close();
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  await project?.cleanup();
});

async function shots(name: string): Promise<void> {
  const folder = process.env.FW_SHOTS;
  if (!folder) return;
  fs.mkdirSync(folder, { recursive: true });
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: path.join(folder, `${name}-${width}.png`), fullPage: true });
  }
}

test('the public form has novalidate: an empty name and a bad address reach the server, French messages come back', async () => {
  const form = await page.goto(`${url}/demandes/new`);
  assert.is(form?.status(), 200);
  assert.is(await page.locator('form[method=post]').getAttribute('novalidate'), '', 'novalidate on the form');
  await page.fill('#field-email', 'pas-une-adresse');
  await page.fill('#field-message', 'Bonjour, une question.');
  const [answer] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.click('button[type=submit]')]);
  assert.is(answer.status(), 422, 'the browser sent the form: no bubble stopped it');
  await page.waitForLoadState();
  assert.match((await page.locator('#field-nom-error').innerText()).trim(), /obligatoire/);
  assert.ok(await page.locator('#field-email-error').isVisible(), 'message under the e-mail address');
  assert.is(await page.inputValue('#field-email'), 'pas-une-adresse');
  assert.is(await page.inputValue('#field-message'), 'Bonjour, une question.');
  assert.is(await page.locator('#field-nom').getAttribute('aria-invalid'), 'true');
  await shots('public-form-422');
});

test('make:public-page a-propos: « À propos »', async () => {
  const about = await page.goto(`${url}/a-propos`);
  assert.is(about?.status(), 200);
  assert.is((await page.locator('h1').innerText()).trim(), 'À propos');
  assert.match(await page.title(), /^À propos/);
  await shots('public-page-a-propos');
});

test('no console error on these pages (the browser’s own /favicon.ico request included); the icon is served', async () => {
  assert.equal(problems, []);
  const icon = await page.goto(`${url}/favicon.ico`);
  assert.is(icon?.status(), 200);
  assert.is(icon?.headers()['content-type'], 'image/x-icon');
});

test.run();
