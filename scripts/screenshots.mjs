#!/usr/bin/env node
// Screenshots of the generated CRUD pages (list with its filters, form with errors, detail, bulk-delete
// confirmation) at 1280 and 390 px wide, in headless Chromium (/usr/bin/chromium, through playwright-core). Not part
// of `npm test`: a tool to look at the pages after a change of the views or of the stylesheet (docs/styles.md).
//
//   node scripts/screenshots.mjs <out-dir>                          builds and serves the Contacts test app (SQLite,
//                                                                   after `npm run build`), seeds it, shoots, stops
//   node scripts/screenshots.mjs <out-dir> --url http://127.0.0.1:8000 [--path /contacts] [--query 'actif=1']
//                                                                   shoots a running app (rows must exist)
//   node scripts/screenshots.mjs <out-dir> --wide                   the snapshots' Contact list (ten columns), its
//                                                                   delete disclosure open, the detail page's one
//                                                                   (the images of docs/styles.md)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';

/* global document -- the functions given to page.evaluate run in the browser */

const ROOT = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const WIDTHS = [1280, 390];

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { url: { type: 'string' }, path: { type: 'string', default: '/contacts' }, query: { type: 'string' }, wide: { type: 'boolean' } },
});
const outDir = positionals[0];
if (!outDir) {
  console.error(
    'Erreur : dossier de sortie manquant.\nConseil : node scripts/screenshots.mjs <dossier> [--url http://127.0.0.1:8000] [--path /contacts] [--query actif=1]',
  );
  process.exit(1);
}
fs.mkdirSync(outDir, { recursive: true });

/** Serves the Contacts application of the tests (dist/test/helpers/crud-app.js) and gives it villes and contacts. */
async function startDemoApp() {
  const helpers = path.join(ROOT, 'dist', 'test', 'helpers', 'crud-app.js');
  if (!fs.existsSync(helpers)) throw new Error(`${path.relative(ROOT, helpers)} introuvable : lancez npm run build`);
  const { HttpClient, startCrudApp } = await import(pathToFileURL(helpers).href);
  const app = await startCrudApp('sqlite');
  try {
    const client = new HttpClient(app.url);
    const create = async (url, form) => {
      const result = await client.post(url, form);
      if (result.status !== 303 && result.status !== 302) throw new Error(`POST ${url} : ${result.status}\n${result.text.slice(0, 2000)}`);
    };
    for (const nom of ['Lyon', 'Nantes', 'Saint-Rémy-de-Provence']) await create('/villes', [['nom', nom]]);
    const prenoms = ['Élodie', 'Bruno', 'Chloé', 'David', 'Emma', 'Félix', 'Gabriel', 'Hugo'];
    for (let i = 1; i <= 24; i++) {
      await create('/contacts', [
        ['nom', i === 3 ? 'De La Fontaine-Beaumarchais' : `Nom-${String(i).padStart(2, '0')}`],
        ['prenom', prenoms[i % prenoms.length]],
        ['email', i === 5 ? 'une.adresse.vraiment.tres.longue@exemple-de-domaine.fr' : `contact${i}@exemple.fr`],
        ['telephone', i % 4 === 0 ? '' : `04 72 00 00 ${String(i).padStart(2, '0')}`],
        ...(i % 3 === 0 ? [] : [['actif', '1']]),
        ['notes', i === 1 ? 'Une note sur plusieurs lignes.\nDeuxième ligne.' : ''],
        ['ville_id', i % 7 === 0 ? '3' : String((i % 2) + 1)],
      ]);
    }
    return app;
  } catch (err) {
    await app.stop();
    throw err;
  }
}

/** Shoots the four pages at one width; returns the files written. */
async function shoot(browser, base, resource, query, width) {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const written = [];
  const save = async (name) => {
    const file = path.join(outDir, `${name}-${width}.png`);
    await page.screenshot({ path: file, fullPage: true });
    written.push(file);
  };
  try {
    // List with its filters (and a filter applied when --query is given).
    await page.goto(`${base}${resource}${query ? `?${query}` : ''}`);
    await save('list');

    // Detail: the first row's own page.
    const detail = await page.locator('#crud-results tbody tr a').first().getAttribute('href');
    await page.goto(base + detail);
    await save('detail');

    // Bulk-delete confirmation: two rows ticked (not confirmed).
    await page.goto(`${base}${resource}`);
    const boxes = page.locator('input[type=checkbox][form="bulk-delete-form"]');
    await boxes.nth(0).check();
    await boxes.nth(1).check();
    await Promise.all([page.waitForURL((url) => url.pathname === `${resource}/bulk-delete`), page.click('#bulk-delete-form button[type=submit]')]);
    await save('bulk-delete');

    // Form with errors: the browser's own checks off, text fields emptied, e-mail fields invalid.
    await page.goto(`${base}${resource}/new`);
    const form = `form[method="post"][action="${resource}"]`;
    await page.evaluate((selector) => {
      const form = document.querySelector(selector);
      if (!form) throw new Error(`aucun formulaire ${selector}`);
      form.noValidate = true;
      for (const input of form.querySelectorAll('input[type=text], input:not([type]), textarea')) input.value = '';
      for (const input of form.querySelectorAll('input[type=email]')) input.value = 'pas-une-adresse';
    }, form);
    await Promise.all([page.waitForResponse((response) => response.request().method() === 'POST'), page.click(`${form} button[type=submit]`)]);
    await page.waitForSelector('[aria-invalid=true]');
    await save('form-errors');
  } finally {
    await context.close();
  }
  return written;
}

/** Serves the snapshots' Contact list (dist/test/helpers/crud-wide-app.js), filled through its forms. */
async function startWideApp() {
  const helpers = path.join(ROOT, 'dist', 'test', 'helpers', 'crud-wide-app.js');
  if (!fs.existsSync(helpers)) throw new Error(`${path.relative(ROOT, helpers)} introuvable : lancez npm run build`);
  const { startWideApp: start } = await import(pathToFileURL(helpers).href);
  return start('sqlite');
}

/** The wide list at one width, with the delete disclosure of its second row open, and a detail page's; returns the files written. */
async function shootWide(browser, base, resource, width) {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const written = [];
  const save = async (name) => {
    const file = path.join(outDir, `${name}-${width}.png`);
    await page.screenshot({ path: file, fullPage: true });
    written.push(file);
  };
  try {
    await page.goto(`${base}${resource}`);
    await save('list');
    await page.locator('#crud-results tbody tr').nth(1).locator('summary').click();
    await save('list-delete');
    const detail = await page.locator('#crud-results tbody tr a').first().getAttribute('href');
    await page.goto(base + detail);
    await page.locator('#crud-delete summary').click();
    await save('detail-delete');
  } finally {
    await context.close();
  }
  return written;
}

if (values.wide) {
  const app = await startWideApp();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    for (const width of WIDTHS) for (const file of await shootWide(browser, app.url, '/contacts', width)) console.log(file);
  } finally {
    await browser.close();
    await app.stop();
  }
  process.exit(0);
}

const app = values.url ? null : await startDemoApp();
const base = values.url ?? app.url;
const query = values.query ?? (values.url ? '' : 'actif=1&ville_id=1');
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
try {
  for (const width of WIDTHS) {
    for (const file of await shoot(browser, base, values.path, query, width)) console.log(file);
  }
} finally {
  await browser.close();
  await app?.stop();
}
