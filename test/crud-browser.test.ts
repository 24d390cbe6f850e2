// A generated Contacts CRUD application driven by a real browser (Debian's Chromium through playwright-core): records
// are created through the form pages (the first few; the rest with SQL), then the list is searched, filtered, sorted, paged through, a row is deleted,
// two are bulk-deleted, the CSV export is downloaded and a row is deleted from its detail page. Once with htmx loaded
// (partial updates: no page reload, URL pushed with the state, single delete keeps the URL, deletes confirmed) and once
// without (the same actions through full page loads).
// No console error or warning is tolerated but the one explained in expectedConsole. The data of the scenario
// (contactData) and that list of expected messages are in helpers/crud-browser.ts.
import fs from 'node:fs';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { suite, test } from 'uvu';
import * as assert from 'uvu/assert';
import type { DialectName } from '../runtime/db/index.js';
import { startCrudApp, type CrudApp } from './helpers/crud-app.js';
import { insertContacts } from './helpers/crud-seed.js';
import {
  CHROMIUM,
  CONTACT_COUNT,
  CREATE_WORKERS,
  FORM_CONTACTS,
  VILLES,
  checkNavigation,
  contactData,
  expectIdsDescending,
  expectNomSet,
  expectNoms,
  launchChromium,
  mark,
  marked,
  noms,
  paginationTotal,
  pathAndQuery,
  queryOf,
  rows,
  sortLinkIn,
  until,
  watchPage,
} from './helpers/crud-browser.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- the functions given to evaluate run in the browser (no DOM types here) */

// The scenario, registered once per variant.

interface Variant {
  readonly dialect: DialectName;
  readonly htmx: boolean;
}

function scenario({ dialect, htmx }: Variant): void {
  const it = suite(`navigateur : CRUD Contacts (${dialect}, ${htmx ? 'avec htmx' : 'sans htmx'})`);
  let app: CrudApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  /** Console messages (errors and warnings) and uncaught exceptions of the pages, but the expected ones (expectedConsole). */
  const problems: string[] = [];
  /** Expected messages (see expectedConsole), counted by kind. */
  const ignored = new Map<string, number>();
  /** Full document loads of the main frame. */
  let loads = 0;
  const dialogs: string[] = [];
  const villeIds = new Map<string, string>();

  it.before(async () => {
    const [started, launched] = await Promise.allSettled([startCrudApp(dialect, { htmx }), launchChromium()]);
    if (started.status === 'fulfilled') app = started.value;
    if (launched.status === 'fulfilled') browser = launched.value;
    if (started.status === 'rejected' || launched.status === 'rejected') {
      await browser?.close();
      await app?.stop();
      throw started.status === 'rejected' ? started.reason : (launched as PromiseRejectedResult).reason;
    }
    context = await browser.newContext({ acceptDownloads: true });
    page = await context.newPage();
    watch(page);
    page.on('load', () => loads++);
    page.on('dialog', (dialog) => {
      dialogs.push(`${dialog.type()}: ${dialog.message()}`);
      void dialog.accept();
    });
  });

  it.after(async () => {
    await context?.close().catch(() => undefined);
    await browser?.close().catch(() => undefined);
    await app?.stop();
  });

  /** Collects the console errors and warnings and the uncaught exceptions of a page (helpers/crud-browser.ts). */
  function watch(tab: Page): void {
    watchPage(tab, problems, ignored);
  }

  const sortLink = (label: string) => sortLinkIn(page, label);

  /**
   * Clicks a delete form as a user would: with htmx, its one visible button (htmx asks hx-confirm); without, the
   * disclosure first (nothing sent, no dialog), then the button it shows.
   */
  async function clickDelete(form: Locator): Promise<void> {
    if (!htmx) {
      const loadsBefore = loads;
      await form.locator('summary').click();
      await form.locator('details[open]').waitFor();
      assert.is(loads, loadsBefore, 'ouvrir la demande de confirmation ne charge rien');
    }
    await form.locator('button[type=submit]:visible').click();
  }

  /** Opens a list URL with a full load. */
  async function open(url: string): Promise<void> {
    await page.goto(app.url + url);
  }

  /** Runs `action` on the list and checks how the page changed for this variant (helpers/crud-browser.ts, checkNavigation). */
  async function navigate(what: string, action: () => Promise<unknown>, url: (query: URLSearchParams, path: string) => boolean): Promise<void> {
    await checkNavigation(page, htmx, () => loads, what, action, url);
  }

  it('creates 2 villes and 45 contacts through the form pages', async () => {
    for (const nom of VILLES) {
      await page.goto(`${app.url}/villes/new`);
      await page.fill('#field-nom', nom);
      await Promise.all([page.waitForURL((url) => url.pathname === '/villes'), page.click('form[action="/villes"] button[type=submit]')]);
    }
    await page.goto(`${app.url}/contacts/new`);
    for (const option of await page.locator('#field-ville_id option').all()) {
      // The first option (value '', shown as a dash) chooses no ville.
      const value = (await option.getAttribute('value'))!;
      if (value) villeIds.set((await option.textContent())!.trim(), value);
    }
    assert.equal([...villeIds.keys()].sort(), [...VILLES]);

    // A few browser contexts (each its own session) fill the form at the same time: the ids then come in no
    // particular order, so the checks below read the default order (newest first) from the # column.
    await Promise.all(
      Array.from({ length: CREATE_WORKERS }, async (_, worker) => {
        const workerContext = await browser.newContext();
        try {
          const tab = await workerContext.newPage();
          watch(tab);
          for (let i = worker + 1; i <= FORM_CONTACTS; i += CREATE_WORKERS) {
            const c = contactData(i);
            await tab.goto(`${app.url}/contacts/new`, { waitUntil: 'domcontentloaded' });
            await tab.fill('#field-nom', c.nom);
            await tab.fill('#field-prenom', c.prenom);
            await tab.fill('#field-email', c.email);
            if (c.telephone) await tab.fill('#field-telephone', c.telephone);
            if (c.actif) await tab.check('#field-actif');
            if (c.notes) await tab.fill('#field-notes', c.notes);
            await tab.selectOption('#field-ville_id', villeIds.get(c.ville)!);
            await Promise.all([
              tab.waitForURL((url) => url.pathname === '/contacts', { waitUntil: 'domcontentloaded' }),
              tab.click('form[action="/contacts"] button[type=submit]'),
            ]);
            assert.match((await tab.locator('main').textContent())!, 'Enregistrement créé.', `création de ${c.nom}`);
          }
        } finally {
          await workerContext.close();
        }
      }),
    );
    await insertContacts(
      app,
      Array.from({ length: CONTACT_COUNT - FORM_CONTACTS }, (_, n) => {
        const c = contactData(FORM_CONTACTS + n + 1);
        const ville = Number(villeIds.get(c.ville));
        return {
          nom: c.nom,
          prenom: c.prenom,
          email: c.email,
          telephone: c.telephone || null,
          actif: c.actif ? 1 : 0,
          notes: c.notes || null,
          ville_id: ville,
        };
      }),
    );
    await open('/contacts');
    assert.is(await paginationTotal(page), String(CONTACT_COUNT));
    assert.is(await page.locator('#crud-results tbody tr').count(), 20);
    await expectIdsDescending(page, 'tri par défaut');
    // Every field came through the form: a record shown in the list, then on its detail page.
    await open('/contacts?nom=Nom-03');
    const row = (await rows(page))[0]!;
    assert.equal(
      [row['Nom'], row['Prenom'], row['Email'], row['Telephone'], row['Actif'], row['Ville']],
      ['Nom-03', 'Prénom03', 'contact03@exemple.test', '+33 6 00 00 00 03', 'Non', 'Lyon'],
    );
    await open('/contacts?nom=Nom-02');
    await Promise.all([page.waitForURL(/\/contacts\/\d+$/), page.locator('#crud-results tbody tr a', { hasText: 'Voir' }).click()]);
    const detail = await page.locator('main dl').textContent();
    assert.match(detail!, 'Ligne 1\nLigne 2');
  });

  it('searches', async () => {
    await open('/contacts');
    await page.fill('#crud-q', 'Zoé');
    await navigate(
      'recherche',
      () => page.click('form[role=search] button[type=submit]'),
      (q) => q.get('q') === 'Zoé',
    );
    await expectNomSet(page, ['Nom-09', 'Nom-18', 'Nom-27', 'Nom-36', 'Nom-45'], 'recherche « Zoé »');
    assert.ok((await rows(page)).every((row) => row['Prenom'] === 'Zoé'));
    assert.is(await page.locator('#crud-reset').count(), 1, 'lien « Réinitialiser »');
    assert.is(await paginationTotal(page), '5', 'le total, sur une seule page aussi');
    assert.is(await page.locator('#crud-results nav').count(), 0, 'pas de pages pour une seule page');

    // The search covers every text column: an e-mail address.
    await page.fill('#crud-q', 'contact07@');
    await navigate(
      'recherche par e-mail',
      () => page.press('#crud-q', 'Enter'),
      (q) => q.get('q') === 'contact07@',
    );
    await expectNoms(page, ['Nom-07'], 'recherche « contact07@ »');

    // Nothing found: the empty state of a search.
    await page.fill('#crud-q', 'introuvable');
    await navigate(
      'recherche vide',
      () => page.press('#crud-q', 'Enter'),
      (q) => q.get('q') === 'introuvable',
    );
    await until('message « Aucun résultat pour cette recherche. »', async () => (await page.locator('#crud-results [data-empty=search]').count()) === 1);
    assert.is(await page.locator('#crud-results tbody tr').count(), 0);

    // Reset: a full page load, with or without htmx, so that the search form empties too.
    await mark(page);
    await Promise.all([page.waitForURL((url) => url.pathname === '/contacts' && url.search === ''), page.click('#crud-reset')]);
    await page.waitForLoadState('load');
    assert.not.ok(await marked(page), 'réinitialiser : la page est rechargée');
    assert.is(await page.inputValue('#crud-q'), '', 'réinitialiser : la recherche est vidée');
    await until('liste complète', async () => (await paginationTotal(page)) === '45');
  });

  it('filters by actif and ville', async () => {
    await open('/contacts');
    await page.selectOption('#filter-actif', '1');
    await navigate(
      'filtre actif',
      () => page.click('form[role=search] button[type=submit]'),
      (q) => q.get('actif') === '1',
    );
    await until('30 contacts actifs', async () => (await paginationTotal(page)) === '30');
    assert.ok((await rows(page)).every((row) => row['Actif'] === 'Oui'));

    const lyon = villeIds.get('Lyon')!;
    await page.selectOption('#filter-ville_id', lyon);
    await navigate(
      'filtre actif + ville',
      () => page.click('form[role=search] button[type=submit]'),
      (q) => q.get('actif') === '1' && q.get('ville_id') === lyon,
    );
    // Odd numbers that are not multiples of 3: 15 contacts, one page, newest first.
    const expected = [1, 5, 7, 11, 13, 17, 19, 23, 25, 29, 31, 35, 37, 41, 43].map((i) => `Nom-${String(i).padStart(2, '0')}`);
    await expectNomSet(page, expected, 'actifs de Lyon');
    assert.ok((await rows(page)).every((row) => row['Actif'] === 'Oui' && row['Ville'] === 'Lyon'));
    assert.is(await page.locator('#filter-actif').inputValue(), '1');
    assert.is(await page.locator('#filter-ville_id').inputValue(), lyon);
    // The export link, outside the results, follows the filters (with htmx: an out-of-band swap).
    const exportQuery = new URL((await page.locator('#crud-export').getAttribute('href'))!, app.url).searchParams;
    assert.equal([exportQuery.get('actif'), exportQuery.get('ville_id')], ['1', lyon], 'lien d’export');

    // The text filter on nom is an equality.
    await open('/contacts');
    await page.fill('#filter-nom', 'Nom-12');
    await navigate(
      'filtre nom',
      () => page.click('form[role=search] button[type=submit]'),
      (q) => q.get('nom') === 'Nom-12',
    );
    await expectNoms(page, ['Nom-12'], 'filtre nom = Nom-12');
    assert.equal(
      (await rows(page)).map((row) => [row['Actif'], row['Ville']]),
      [['Non', 'Nantes']],
    );
  });

  it('sorts by a column, both ways', async () => {
    await open('/contacts');
    await navigate(
      'tri par nom',
      () => sortLink('Nom').click(),
      (q) => q.get('sort') === 'nom' && q.get('direction') === 'asc',
    );
    await expectNoms(page, noms(1, 20), 'tri nom croissant');
    assert.is(await page.locator('#crud-results thead th[aria-sort]').getAttribute('aria-sort'), 'ascending');

    await navigate(
      'tri par nom inversé',
      () => sortLink('Nom').click(),
      (q) => q.get('sort') === 'nom' && q.get('direction') === 'desc',
    );
    await expectNoms(page, noms(45, 26), 'tri nom décroissant');
    assert.is(await page.locator('#crud-results thead th[aria-sort]').getAttribute('aria-sort'), 'descending');

    // Back: the previous state (with htmx, restored from its history).
    await page.goBack();
    await until(`retour : tri croissant (URL ${page.url()})`, async () => queryOf(page).get('direction') === 'asc');
    await expectNoms(page, noms(1, 20), 'retour au tri croissant');

    // Another column: e-mail ascending.
    await navigate(
      'tri par e-mail',
      () => sortLink('Email').click(),
      (q) => q.get('sort') === 'email' && q.get('direction') === 'asc',
    );
    await expectNoms(page, noms(1, 20), 'tri e-mail croissant');

    // A search after a sort keeps the sort (the form's hidden sort fields follow the swaps).
    await open('/contacts');
    await navigate(
      'tri par nom',
      () => sortLink('Nom').click(),
      (q) => q.get('sort') === 'nom' && q.get('direction') === 'asc',
    );
    await navigate(
      'tri par nom inversé',
      () => sortLink('Nom').click(),
      (q) => q.get('direction') === 'desc',
    );
    await page.fill('#crud-q', 'Zoé');
    await navigate(
      'recherche après le tri',
      () => page.press('#crud-q', 'Enter'),
      (q) => q.get('q') === 'Zoé' && q.get('sort') === 'nom' && q.get('direction') === 'desc',
    );
    await expectNoms(page, ['Nom-45', 'Nom-36', 'Nom-27', 'Nom-18', 'Nom-09'], 'recherche « Zoé » triée par nom décroissant');
  });

  it('pages through 20 / 20 / 5 rows, keeping the sort and the filters in the links', async () => {
    await open('/contacts?sort=nom&direction=asc');
    await expectNoms(page, noms(1, 20), 'page 1');
    const pager = page.locator('#crud-results nav[aria-label]');
    assert.is((await pager.locator('[aria-current=page]').textContent())!.trim(), '1');
    for (const href of await pager.locator('a').evaluateAll((as: any[]) => as.map((a) => String(a.getAttribute('href'))))) {
      const q = new URL(href, app.url).searchParams;
      assert.ok(q.get('sort') === 'nom' && q.get('direction') === 'asc', `lien de page sans le tri : ${href}`);
    }

    await navigate(
      'page 2',
      () => pager.locator('a', { hasText: /^\s*2\s*$/ }).click(),
      (q) => q.get('page') === '2' && q.get('sort') === 'nom' && q.get('direction') === 'asc',
    );
    await expectNoms(page, noms(21, 40), 'page 2');
    assert.is((await page.locator('#crud-results nav [aria-current=page]').textContent())!.trim(), '2');

    await navigate(
      'page 3 (Suivant)',
      () => page.locator('#crud-results nav a[rel=next]').click(),
      (q) => q.get('page') === '3' && q.get('sort') === 'nom',
    );
    await expectNoms(page, noms(41, 45), 'page 3');
    assert.is(await page.locator('#crud-results nav a[rel=next]').count(), 0, 'pas de page suivante');

    await navigate(
      'retour page 2 (Précédent)',
      () => page.locator('#crud-results nav a[rel=prev]').click(),
      (q) => q.get('page') === '2',
    );
    await expectNoms(page, noms(21, 40), 'page 2 à nouveau');

    // A filter and a sort together: 30 actifs → 20 + 10, the links keep actif=1.
    await open('/contacts?actif=1&sort=nom&direction=desc');
    await until('30 actifs', async () => (await paginationTotal(page)) === '30');
    await navigate(
      'page 2 des actifs',
      () => page.locator('#crud-results nav a', { hasText: /^\s*2\s*$/ }).click(),
      (q) => q.get('page') === '2' && q.get('actif') === '1' && q.get('sort') === 'nom' && q.get('direction') === 'desc',
    );
    // Actifs in descending order: 44 43 41 40 38 37 35 34 32 31 29 28 26 25 23 22 20 19 17 16 | 14 13 11 10 8 7 5 4 2 1
    await expectNoms(
      page,
      [14, 13, 11, 10, 8, 7, 5, 4, 2, 1].map((i) => `Nom-${String(i).padStart(2, '0')}`),
      'page 2 des actifs',
    );
    assert.is(await page.locator('#filter-actif').inputValue(), '1');
  });

  it('deletes one row, back on the same page of the list', async () => {
    await open('/contacts?sort=nom&direction=asc&page=3');
    await expectNoms(page, noms(41, 45), 'page 3 avant suppression');
    const row = page.locator('#crud-results tbody tr', { hasText: 'Nom-43' });
    const before = pathAndQuery(page);
    const dialogCount = dialogs.length;
    await navigate(
      'suppression',
      () => clickDelete(row.locator('form')),
      (q) => q.get('page') === '3' && q.get('sort') === 'nom' && q.get('direction') === 'asc',
    );
    await expectNoms(page, ['Nom-41', 'Nom-42', 'Nom-44', 'Nom-45'], 'page 3 après suppression');
    await until('message « Enregistrement supprimé. »', async () => (await page.locator('main').textContent())!.includes('Enregistrement supprimé.'));
    if (htmx) {
      assert.is(pathAndQuery(page), before, "la suppression partielle garde l'URL");
      assert.equal(dialogs.slice(dialogCount), ['confirm: Supprimer définitivement cet enregistrement ?']);
    } else {
      assert.equal(dialogs.slice(dialogCount), [], 'sans script, pas de boîte de confirmation');
    }
    await open('/contacts');
    assert.is(await paginationTotal(page), '44');
  });

  it('bulk-deletes two rows after a confirmation page', async () => {
    await open('/contacts?sort=nom&direction=asc&page=3');
    await expectNoms(page, ['Nom-41', 'Nom-42', 'Nom-44', 'Nom-45'], 'page 3');
    for (const nom of ['Nom-41', 'Nom-42']) await page.locator('#crud-results tbody tr', { hasText: nom }).locator('input[type=checkbox][name=ids]').check();
    await Promise.all([page.waitForURL((url) => url.pathname === '/contacts/bulk-delete'), page.click('#bulk-delete-form button[type=submit]')]);
    const items = (await page.locator('main li').allTextContents()).map((text) => text.trim().replace(/^#\d+ /, ''));
    assert.equal(items.sort(), ['Nom-41', 'Nom-42']);
    await Promise.all([page.waitForURL((url) => url.pathname === '/contacts'), page.click('form[action="/contacts/bulk-delete/confirm"] button[type=submit]')]);
    assert.match((await page.locator('main').textContent())!, '2 enregistrement(s) supprimé(s).');
    assert.is(await paginationTotal(page), '42');
    await open('/contacts?sort=nom&direction=asc&page=3');
    await expectNoms(page, ['Nom-44', 'Nom-45'], 'page 3 après la suppression groupée');
  });

  it('downloads the CSV export of the filtered, sorted list', async () => {
    // The state is set through the page (filter, then sort): with htmx, the export link follows the swaps.
    const lyon = villeIds.get('Lyon')!;
    await open('/contacts');
    await page.selectOption('#filter-ville_id', lyon);
    await navigate(
      'filtre ville',
      () => page.click('form[role=search] button[type=submit]'),
      (q) => q.get('ville_id') === lyon,
    );
    await navigate(
      'tri par nom',
      () => sortLink('Nom').click(),
      (q) => q.get('sort') === 'nom' && q.get('direction') === 'asc' && q.get('ville_id') === lyon,
    );
    await expectNoms(
      page,
      noms(1, 45)
        .filter((_, index) => index % 2 === 0 && index !== 40 && index !== 42)
        .slice(0, 20),
      'Lyon par nom',
    );
    const exportQuery = new URL((await page.locator('#crud-export').getAttribute('href'))!, app.url).searchParams;
    assert.equal(
      [exportQuery.get('ville_id'), exportQuery.get('sort'), exportQuery.get('direction'), exportQuery.get('page')],
      [lyon, 'nom', 'asc', null],
      'lien d’export',
    );
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#crud-export')]);
    assert.is(download.suggestedFilename(), 'contacts.csv');
    const file = await download.path();
    const bytes = fs.readFileSync(file);
    // The UTF-8 byte-order mark, then cells split by `;` (docs/crud.md "CSV export": a French spreadsheet).
    assert.equal([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'la marque d’ordre des octets');
    const text = bytes.subarray(3).toString('utf8');
    assert.ok(text.endsWith('\r\n'), 'CRLF final');
    const lines = text.slice(0, -2).split('\r\n');
    assert.is(lines[0], '"Nom";"Prenom";"Email";"Telephone";"Actif";"Ville"');
    // Lyon: the 23 odd numbers, minus Nom-41 and Nom-43 (deleted).
    const lyonNoms = noms(1, 45).filter((_, index) => index % 2 === 0 && index !== 40 && index !== 42);
    assert.is(lines.length - 1, 21);
    assert.equal(
      lines.slice(1).map((line) => /^"([^"]*)"/.exec(line)?.[1]),
      lyonNoms,
    );
    // Doubled quotes inside a quoted cell, booleans as 1 / 0, "+…" prefixed against formulas.
    assert.is(lines[1], '"Nom-01";"Jean ""JJ"", fils";"contact01@exemple.test";"\'+33 6 00 00 00 01";"1";"Lyon"');
    assert.is(lines[2], '"Nom-03";"Prénom03";"contact03@exemple.test";"\'+33 6 00 00 00 03";"0";"Lyon"');
  });

  it('deletes from the detail page: htmx asks for confirmation when loaded; then the list and its message', async () => {
    await open('/contacts?sort=nom&direction=asc&page=3');
    await expectNoms(page, ['Nom-44', 'Nom-45'], 'page 3');
    const row = page.locator('#crud-results tbody tr', { hasText: 'Nom-44' });
    await Promise.all([page.waitForURL((url) => /^\/contacts\/\d+$/.test(url.pathname)), row.locator('a', { hasText: 'Voir' }).click()]);
    const dialogCount = dialogs.length;
    await Promise.all([page.waitForURL((url) => url.pathname === '/contacts'), clickDelete(page.locator('#crud-delete'))]);
    await until('message « Enregistrement supprimé. »', async () => (await page.locator('main').textContent())!.includes('Enregistrement supprimé.'));
    assert.equal(
      dialogs.slice(dialogCount),
      htmx ? ['confirm: Supprimer définitivement cet enregistrement ?'] : [],
      'une confirmation avec htmx, aucune sans script',
    );
    assert.is(await paginationTotal(page), '41');
  });

  it('logs no console error', async () => {
    assert.equal(problems, [], `messages de la console :\n${problems.join('\n')}`);
    if (process.env['FW_TEST_VERBOSE']) console.log(`\n  messages attendus ignorés : ${JSON.stringify(Object.fromEntries(ignored))}`);
  });

  it.run();
}

// A missing browser is a failure, never a silent skip: CI (.ci/run) installs Debian's chromium.
test('Chromium is installed', () => {
  assert.ok(
    fs.existsSync(CHROMIUM),
    `${CHROMIUM} est introuvable : installez-le (apt-get install -y --no-install-recommends chromium), comme le fait .ci/run.`,
  );
});
test.run();

if (fs.existsSync(CHROMIUM)) {
  scenario({ dialect: 'sqlite', htmx: true });
  scenario({ dialect: 'mariadb', htmx: false });
}
