/**
 * A real browser (Debian's Chromium) on the pages of `fw make:crud Produit --media --public`, SQLite, without any
 * script: images chosen in the generated form's file inputs (one, then two at once in the gallery) and a PDF are
 * uploaded, the list shows the photo's thumbnail and the detail page its medium and the gallery's thumbnails, all
 * loaded; the edit page changes an alt text and removes an image; a wrong file comes back with its message. No console
 * error or warning is tolerated but the favicon's 404 and the status of the form sent back (422). With MEDIA_SHOTS=<folder>, each page is also saved as a
 * screenshot at 1280 and 390 px.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { launchChromium, until, watchPage } from './helpers/crud-browser.js';
import { PDF, jpeg, png } from './helpers/crud-media.js';
import { startMediaApp, type MediaApp } from './helpers/crud-media-app.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- the functions given to evaluate run in the browser (no DOM types here) */

const test = suite<{ app: MediaApp; browser: Browser }>('navigateur : CRUD Produits avec médias (SQLite, sans script)');
const problems: string[] = [];
const ignored = new Map<string, number>();
const SHOTS = process.env.MEDIA_SHOTS;

test.before(async (context) => {
  const [app, browser] = await Promise.allSettled([startMediaApp('sqlite'), launchChromium()]);
  if (app.status === 'fulfilled') context.app = app.value;
  if (browser.status === 'fulfilled') context.browser = browser.value;
  if (app.status === 'rejected' || browser.status === 'rejected') {
    await context.browser?.close();
    await context.app?.stop();
    throw app.status === 'rejected' ? app.reason : (browser as PromiseRejectedResult).reason;
  }
});

test.after(async ({ app, browser }) => {
  await browser?.close();
  await app?.stop();
});

/** Saves the page at both widths when MEDIA_SHOTS names a folder. */
async function shoot(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** A file name without a space: it must wrap or be cut, never widen the page. */
const LONG_NAME = 'notice-de-montage-du-fauteuil-club-edition-2024-version-definitive-et-complete.pdf';

/** At 390 px, the page does not scroll sideways. */
async function fitsNarrowScreen(page: Page): Promise<void> {
  await page.setViewportSize({ width: 390, height: 900 });
  const widths: number[] = await page.locator('html').evaluate((html: any) => [html.scrollWidth, html.clientWidth]);
  await page.setViewportSize({ width: 1280, height: 900 });
  assert.ok(widths[0]! <= widths[1]!, `${page.url()} : ${widths[0]} px de large pour ${widths[1]}`);
}

/** Clicks and waits for the new document. */
async function submit(page: Page, button = 'main form button[type="submit"]'): Promise<void> {
  await Promise.all([page.waitForEvent('load'), page.click(button)]);
}

/**
 * The images of the page's main part: source, alt text, and whether the browser decoded them. Thumbnails are
 * `loading="lazy"`: each is scrolled into view first, and given the time to load (a broken one stays not loaded).
 */
async function images(page: Page): Promise<Array<{ src: string; alt: string; loaded: boolean }>> {
  const all = page.locator('main img');
  for (let i = 0; i < (await all.count()); i++) await all.nth(i).scrollIntoViewIfNeeded();
  const read = () =>
    all.evaluateAll((imgs: any[]) =>
      imgs.map((img) => ({
        src: new URL(img.src).pathname,
        alt: String(img.alt),
        loaded: Boolean(img.complete && img.naturalWidth > 0),
        done: Boolean(img.complete),
      })),
    );
  await until('les images ont fini de charger', async () => (await read()).every((img) => img.done));
  return (await read()).map(({ src, alt, loaded }) => ({ src, alt, loaded }));
}

test('upload through the form, see the thumbnail in the list and the images on the detail page; edit an alt text, remove an image', async ({
  app,
  browser,
}) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  watchPage(page, problems, ignored);
  const [bleu, orange, vert] = await Promise.all([
    jpeg(1600, 1000, { r: 40, g: 90, b: 160 }),
    jpeg(900, 1200, { r: 200, g: 120, b: 30 }),
    png(400, 400, { r: 30, g: 140, b: 90 }),
  ]);

  await page.goto(`${app.url}/produits/new`);
  await shoot(page, 'new');
  await page.fill('#field-nom', 'Fauteuil club');
  await page.fill('#field-reference', 'FC-01');
  await page.setInputFiles('#media-photo-file', { name: 'bleu.jpg', mimeType: 'image/jpeg', buffer: bleu });
  await page.fill('#media-photo-alt', 'Fauteuil bleu');
  await page.setInputFiles('#media-galerie-file', [
    { name: 'orange.jpg', mimeType: 'image/jpeg', buffer: orange },
    { name: 'vert.png', mimeType: 'image/png', buffer: vert },
  ]);
  await page.setInputFiles('#media-notice-file', { name: LONG_NAME, mimeType: 'application/pdf', buffer: PDF });
  await submit(page);
  assert.is(new URL(page.url()).pathname, '/produits');
  const listed = await images(page);
  assert.is(listed.length, 1);
  assert.match(listed[0]!.src, /^\/media\/images\/thumbnail\/bleu_[0-9a-f]{32}\.jpg$/);
  assert.equal([listed[0]!.alt, listed[0]!.loaded], ['Fauteuil bleu', true]);
  await shoot(page, 'index');

  await Promise.all([page.waitForEvent('load'), page.click('main table a:text("Voir")')]);
  const shown = await images(page);
  assert.equal(
    shown.map((i) => [
      i.src
        .split('/')
        .slice(2, 4)
        .join('/')
        .replace(/_[0-9a-f]{32}/, ''),
      i.alt,
      i.loaded,
    ]),
    [
      ['images/medium', 'Fauteuil bleu', true],
      ['images/thumbnail', 'Galerie 1', true],
      ['images/thumbnail', 'Galerie 2', true],
    ],
  );
  assert.match(shown[1]!.src, /\/orange_/);
  assert.is(await page.locator('main a[href^="/media/documents/"]').textContent(), LONG_NAME);
  await shoot(page, 'show');
  await fitsNarrowScreen(page);

  await Promise.all([page.waitForEvent('load'), page.click('main a:text("Modifier")')]);
  await shoot(page, 'edit');
  await fitsNarrowScreen(page);
  const altInputs = page.locator('#media-galerie input[name^="galerie.alt."]');
  assert.is(await altInputs.count(), 2);
  await altInputs.nth(1).fill('Coussin vert');
  await page.locator('#media-galerie input[name="galerie.remove"]').first().check();
  await submit(page);
  assert.is(new URL(page.url()).pathname, '/produits');

  await Promise.all([page.waitForEvent('load'), page.click('main table a:text("Voir")')]);
  const after = await images(page);
  assert.equal(
    after.slice(1).map((i) => [i.alt, i.loaded]),
    [['Coussin vert', true]],
  );
  assert.match(after[1]!.src, /\/vert_/);

  // A file the gallery does not accept: the form comes back with its message beside the gallery.
  await page.goto(`${app.url}/produits/new`);
  await page.fill('#field-nom', 'Lampe');
  await page.fill('#field-reference', 'LP-01');
  await page.setInputFiles('#media-galerie-file', { name: 'plan.pdf', mimeType: 'application/pdf', buffer: PDF });
  await submit(page);
  assert.match((await page.locator('#media-galerie-error').textContent()) ?? '', /« plan\.pdf » du champ « Galerie » n’a pas une extension autorisée/);
  assert.is(await page.inputValue('#field-nom'), 'Lampe');
  await shoot(page, 'new-422');

  // A phone photo over upload_max_size (8 MiB): the form comes back with its message under the photo, not a bare 413.
  await page.goto(`${app.url}/produits/new`);
  await page.fill('#field-nom', 'Buffet');
  await page.fill('#field-reference', 'BF-08');
  await page.setInputFiles('#media-photo-file', { name: 'IMG_20261127_101500.jpg', mimeType: 'image/jpeg', buffer: Buffer.alloc(8 * 1024 * 1024, 0xd8) });
  await submit(page);
  assert.match(
    (await page.locator('#media-photo-error').textContent()) ?? '',
    /« IMG_20261127_101500\.jpg » du champ « Photo » dépasse la taille maximale autorisée \(5 Mo\)/,
  );
  assert.is(await page.inputValue('#field-nom'), 'Buffet');
  assert.is(await page.inputValue('#field-reference'), 'BF-08');
  await shoot(page, 'new-422-photo-too-large');

  await context.close();
  // Chromium reports the status of a document shown with its error: the two forms sent back above, by design (422).
  const expected =
    /^error: Failed to load resource: the server responded with a status of 422 \(Unprocessable Entity\) \(http:\/\/127\.0\.0\.1:\d+\/produits\)$/;
  for (let i = 0; i < 2; i++) {
    const index = problems.findIndex((problem) => expected.test(problem));
    assert.ok(index >= 0, `expected console line ${expected} (${i + 1})`);
    problems.splice(index, 1);
  }
  assert.equal(problems, []);
});

test.run();
