/**
 * A real browser (Debian's Chromium) on starter 4 (`fw starter:build suivi --init-db`, SQLite): a teacher made by
 * `fw auth:user:create` opens the dashboard, is sent to the login form and back, adds a pupil and a course through
 * the CRUD forms, follows the dashboard's "Nouvelle observation" button, records an observation with two flags and a
 * remark, and finds it on the dashboard: the counts, the badges, the remark and the pupil's totals. Then on a phone
 * width the same dashboard has no horizontal overflow outside its table. No console error or warning is tolerated
 * but the favicon's 404.
 */
import type { ChildProcess } from 'node:child_process';
import type { Browser, Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { newProject, type CliProject } from './helpers/cli.js';
import { linkFramework, serveProject } from './helpers/crud-app.js';
import { launchChromium, watchPage } from './helpers/crud-browser.js';
import { fwOk, stopServer } from './helpers/auth-app.js';

const EMAIL = 'prof@example.test';
const PASSWORD = 'Motdepasse-solide-42';

interface Context {
  project: CliProject;
  served: { url: string; child: ChildProcess };
  browser: Browser;
}

const test = suite<Context>('navigateur : starter suivi, de la connexion au tableau de bord');
const problems: string[] = [];
const ignored = new Map<string, number>();

test.before(async (context) => {
  const project = newProject('Suivi');
  context.project = project;
  project.useSqlite();
  fwOk(project, ['starter:build', 'suivi', '--init-db']);
  fwOk(project, ['auth:user:create', '--email', EMAIL, '--password', PASSWORD]);
  linkFramework(project);
  [context.served, context.browser] = await Promise.all([serveProject(project), launchChromium()]);
});

test.after(async ({ project, served, browser }) => {
  await browser?.close();
  await stopServer(served);
  await project?.cleanup();
});

/** Submits the page's main form and waits for the page it leads to. */
async function submit(page: Page, url: string): Promise<void> {
  await Promise.all([page.waitForURL(url), page.click('main form[method="post"] button[type="submit"]')]);
}

test('a teacher signs in, adds a pupil and a course, records an observation and sees it on the dashboard', async ({ served, browser }) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  watchPage(page, problems, ignored);

  await page.goto(`${served.url}/dashboard`);
  assert.ok(page.url().endsWith('/login?next=%2Fdashboard'), page.url());
  await page.fill('input[name="login"]', EMAIL);
  await page.fill('input[name="password"]', PASSWORD);
  await Promise.all([page.waitForURL(`${served.url}/dashboard`), page.click('button[type="submit"]')]);
  assert.is(await page.textContent('#count-observations'), '0');

  await page.click('#count-eleves');
  await page.waitForURL(`${served.url}/eleves`);
  await page.goto(`${served.url}/eleves/new`);
  await page.fill('#field-nom', 'Durand');
  await page.fill('#field-prenom', 'Alice');
  await page.fill('#field-classe', '4e B');
  await submit(page, `${served.url}/eleves`);
  assert.match(await page.content(), 'Durand');

  await page.goto(`${served.url}/cours/new`);
  await page.fill('#field-intitule', 'Mathématiques 4e B');
  await page.fill('#field-matiere', 'Mathématiques');
  await page.fill('#field-classe', '4e B');
  await page.fill('#field-date_cours', '2025-03-10');
  await submit(page, `${served.url}/cours`);

  await page.goto(`${served.url}/dashboard`);
  await Promise.all([page.waitForURL(`${served.url}/observations/new`), page.click('#new-observation')]);
  await page.selectOption('#field-eleve_id', { label: 'Durand' });
  await page.selectOption('#field-cours_id', { label: 'Mathématiques 4e B' });
  await page.fill('#field-observe_le', '2025-03-10T08:35');
  await page.check('#field-bavardage');
  await page.check('#field-oubli_materiel');
  await page.fill('#field-remarque', 'Trousse oubliée, bavarde avec son voisin.');
  await submit(page, `${served.url}/observations`);
  assert.match(await page.content(), 'Oubli de matériel');

  await page.goto(`${served.url}/dashboard`);
  for (const [id, count] of [
    ['eleves', '1'],
    ['cours', '1'],
    ['observations', '1'],
  ])
    assert.is(await page.textContent(`#count-${id}`), count, id);
  const latest = page.locator('#latest-observations > li').first();
  assert.match(await latest.innerText(), /Alice Durand \(4e B\)/);
  assert.match(await latest.innerText(), '10/03/2025 08:35');
  assert.equal(await latest.locator('ul[aria-label="Comportements observés"] li').allInnerTexts(), ['Bavardage', 'Oubli de matériel']);
  assert.match(await latest.innerText(), 'Trousse oubliée, bavarde avec son voisin.');
  const row = page.locator('#pupil-totals tr[data-eleve="1"]');
  const cell = async (flag: string) => (await row.locator(`td[data-flag="${flag}"]`).innerText()).trim();
  assert.equal(
    [
      await cell('observations'),
      await cell('participation'),
      await cell('bavardage'),
      await cell('retard'),
      await cell('travail_non_fait'),
      await cell('oubli_materiel'),
    ],
    ['1', '0', '1', '0', '0', '1'],
  );

  // A phone: the dashboard fits the width; only the totals table scrolls, inside its own box.
  await page.setViewportSize({ width: 390, height: 844 });
  const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
  assert.is(overflow, 0, 'no horizontal scroll of the page at 390 px');
  // The header's links stay reachable on a phone: layouts/app.html wraps them under the name (docs/crud.md).
  for (const name of ['Observations', 'Élèves', 'Cours', 'Mon profil']) {
    const link = page.locator('header nav').getByRole('link', { name, exact: true });
    assert.ok(await link.isVisible(), `lien « ${name} » visible à 390 px`);
  }
  if (process.env.FW_SHOTS) {
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 844 });
      await page.screenshot({ path: `${process.env.FW_SHOTS}/suivi-dashboard-${width}.png`, fullPage: true });
    }
  }
  await context.close();
  assert.equal(problems, []);
});

test.run();
