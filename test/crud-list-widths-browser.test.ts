// The snapshots' Contact list (ten columns of data, helpers/crud-wide-app.ts) in Debian's Chromium at 1280 and 390 px
// wide: the page never scrolls sideways, every row's actions are inside the viewport and on top (what a click there
// reaches), "Voir" opens the row's record. Then the single delete: without htmx the first click opens the
// disclosure and sends nothing, the button it shows deletes; with htmx one click and htmx's own confirmation, as
// before (docs/crud.md "The list at any width", "Deleting a record").
import fs from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { suite, test } from 'uvu';
import * as assert from 'uvu/assert';
import type { CrudApp } from './helpers/crud-app.js';
import { CHROMIUM, launchChromium, until, watchPage } from './helpers/crud-browser.js';
import { WIDE_CONTACT_COUNT, WIDE_LIST, startWideApp } from './helpers/crud-wide-app.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- the functions given to evaluate run in the browser (no DOM types here) */

const CONFIRM = 'Supprimer définitivement cet enregistrement ?';

/** What a row's actions look like at the page's width: the cell's box, and whether each action is where a click lands. */
interface RowActions {
  readonly id: string;
  readonly left: number;
  readonly right: number;
  readonly show: string | null;
  /** The actions (links, the delete summary or button) that are displayed and are what elementFromPoint finds at their centre. */
  readonly reachable: string[];
}

async function rowActions(page: Page): Promise<RowActions[]> {
  return page.evaluate(() => {
    const doc = (globalThis as any).document;
    return [...doc.querySelectorAll('#crud-results tbody tr')].map((tr: any) => {
      const cell = tr.lastElementChild;
      // The window scrolls down to the row, never the table's box sideways (scrollIntoView would): the actions must be
      // in view as the page shows them.
      const win = (globalThis as any).window;
      win.scrollTo(0, tr.getBoundingClientRect().top + win.scrollY - win.innerHeight / 2);
      const box = cell.getBoundingClientRect();
      const reachable: string[] = [];
      for (const el of cell.querySelectorAll('a, summary, button')) {
        const rect = el.getBoundingClientRect();
        if (rect.width === 0 || rect.height === 0) continue;
        const hit = doc.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
        if (hit && (hit === el || el.contains(hit))) reachable.push(el.textContent.trim());
      }
      return {
        id: tr.querySelector('input[name=ids]').value,
        left: box.left,
        right: box.right,
        show: cell.querySelector('a')?.getAttribute('href') ?? null,
        reachable,
      };
    });
  });
}

function widths(): void {
  const it = suite('navigateur : la liste à 10 colonnes à 1280 et 390 px (sqlite, sans htmx)');
  let app: CrudApp;
  let browser: Browser;
  const problems: string[] = [];
  const ignored = new Map<string, number>();

  it.before(async () => {
    [app, browser] = await Promise.all([startWideApp('sqlite'), launchChromium()]);
  });
  it.after(async () => {
    await browser?.close().catch(() => undefined);
    await app?.stop();
  });

  async function tab(width: number): Promise<{ context: BrowserContext; page: Page; dialogs: string[]; loads: () => number }> {
    const context = await browser.newContext({ viewport: { width, height: 800 } });
    const page = await context.newPage();
    watchPage(page, problems, ignored);
    const dialogs: string[] = [];
    let loads = 0;
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.accept();
    });
    page.on('load', () => loads++);
    return { context, page, dialogs, loads: () => loads };
  }

  for (const width of [1280, 390]) {
    it(`${width} px: no sideways scroll of the page, every row's actions in the viewport and reachable, "Voir" opens the record`, async () => {
      const { context, page } = await tab(width);
      try {
        await page.goto(app.url + WIDE_LIST);
        const columns = await page.locator('#crud-results thead th').count();
        assert.ok(columns >= 12, `10 colonnes de données, la sélection et les actions : ${columns}`);
        const scrollWidth = await page.evaluate(() => (globalThis as any).document.scrollingElement.scrollWidth);
        assert.ok(scrollWidth <= width, `la page défile de côté : ${scrollWidth} px pour ${width}`);
        assert.is(await page.evaluate(() => (globalThis as any).document.querySelector('#crud-results table').parentElement.scrollLeft), 0);
        const actions = await rowActions(page);
        assert.is(actions.length, WIDE_CONTACT_COUNT);
        for (const row of actions) {
          assert.ok(row.left >= 0 && row.right <= width, `actions de #${row.id} hors de la fenêtre : ${row.left}-${row.right}`);
          assert.equal(row.reachable, ['Voir', 'Modifier', 'Supprimer'], `actions de #${row.id} atteignables`);
          assert.is(row.show, `${WIDE_LIST}/${row.id}`);
        }
        const last = actions.at(-1)!;
        await Promise.all([
          page.waitForURL((url) => url.pathname === `${WIDE_LIST}/${last.id}`),
          page.locator('#crud-results tbody tr').last().locator('a', { hasText: 'Voir' }).click(),
        ]);
        assert.ok(await page.locator('#crud-delete').isVisible(), 'la fiche et son formulaire de suppression');
      } finally {
        await context.close();
      }
    });
  }

  it('390 px, without htmx: the first click on "Supprimer" opens the question and sends nothing; its button deletes', async () => {
    const { context, page, dialogs, loads } = await tab(390);
    try {
      await page.goto(app.url + WIDE_LIST);
      const row = page.locator('#crud-results tbody tr').nth(1);
      const id = await row.locator('input[name=ids]').inputValue();
      const form = row.locator(`form[action="${WIDE_LIST}/${id}/delete"]`);
      assert.is(await form.locator('button[type=submit]:visible').count(), 0, 'aucun bouton qui supprime avant la question');
      const before = loads();
      await form.locator('summary').click();
      await form.locator('details[open]').waitFor();
      assert.is(loads(), before, 'le premier clic ne charge rien');
      assert.is(await page.locator(`#crud-results input[name=ids][value="${id}"]`).count(), 1, 'la ligne est encore là');
      const confirm = form.locator('button[type=submit]:visible');
      assert.is(await confirm.textContent(), 'Confirmer');
      assert.is(await confirm.getAttribute('title'), CONFIRM, 'la question, au survol');
      const box = (await confirm.boundingBox())!;
      assert.ok(box.x >= 0 && box.x + box.width <= 390, `bouton dans la fenêtre : ${JSON.stringify(box)}`);
      await Promise.all([page.waitForEvent('load'), confirm.click()]);
      assert.is(new URL(page.url()).pathname, WIDE_LIST, 'retour à la liste');
      await until('message « Enregistrement supprimé. »', async () => (await page.locator('main').textContent())!.includes('Enregistrement supprimé.'));
      assert.is(await page.locator(`#crud-results input[name=ids][value="${id}"]`).count(), 0, 'la ligne a disparu');
      assert.equal(dialogs, [], 'pas de boîte de dialogue sans script : la question est dans la page');
    } finally {
      await context.close();
    }
  });

  it('detail page without htmx: the same disclosure, the question shown, then a plain POST back to the list', async () => {
    const { context, page, dialogs } = await tab(1280);
    try {
      await page.goto(app.url + WIDE_LIST);
      const id = await page.locator('#crud-results tbody tr input[name=ids]').first().inputValue();
      await page.goto(`${app.url}${WIDE_LIST}/${id}`);
      const form = page.locator('#crud-delete');
      assert.is(await form.locator('button[type=submit]:visible').count(), 0);
      await form.locator('summary').click();
      assert.match((await form.locator('details[open]').textContent())!, CONFIRM);
      await Promise.all([page.waitForURL((url) => url.pathname === WIDE_LIST), form.locator('button[type=submit]:visible').click()]);
      assert.is(await page.locator(`#crud-results input[name=ids][value="${id}"]`).count(), 0);
      assert.equal(dialogs, []);
    } finally {
      await context.close();
    }
  });

  it('logs no console error', () => {
    assert.equal(problems, [], `messages de la console :\n${problems.join('\n')}`);
  });

  it.run();
}

function withHtmx(): void {
  const it = suite('navigateur : la suppression avec htmx, comme avant (sqlite, 390 px)');
  let app: CrudApp;
  let browser: Browser;
  const problems: string[] = [];
  const ignored = new Map<string, number>();

  it.before(async () => {
    [app, browser] = await Promise.all([startWideApp('sqlite', { htmx: true }), launchChromium()]);
  });
  it.after(async () => {
    await browser?.close().catch(() => undefined);
    await app?.stop();
  });

  it('one click on "Supprimer": htmx asks its confirmation, the row goes without a page load; no disclosure shown', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 800 } });
    try {
      const page = await context.newPage();
      watchPage(page, problems, ignored);
      const dialogs: string[] = [];
      let loads = 0;
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.accept();
      });
      page.on('load', () => loads++);
      await page.goto(app.url + WIDE_LIST);
      const row = page.locator('#crud-results tbody tr').first();
      const id = await row.locator('input[name=ids]').inputValue();
      const form = row.locator('form');
      assert.is(await form.locator('summary:visible').count(), 0, 'pas de question dépliable avec htmx');
      const button = form.locator('button[type=submit]:visible');
      assert.is(await button.textContent(), 'Supprimer');
      const before = loads;
      await button.click();
      await until('la ligne supprimée', async () => (await page.locator(`#crud-results input[name=ids][value="${id}"]`).count()) === 0);
      assert.equal(dialogs, [CONFIRM]);
      assert.is(loads, before, 'une mise à jour partielle');
      const scrollWidth = await page.evaluate(() => (globalThis as any).document.scrollingElement.scrollWidth);
      assert.ok(scrollWidth <= 390, `la page défile de côté : ${scrollWidth} px`);
    } finally {
      await context.close();
    }
  });

  it('logs no console error', () => {
    assert.equal(problems, [], `messages de la console :\n${problems.join('\n')}`);
  });

  it.run();
}

if (fs.existsSync(CHROMIUM)) {
  widths();
  withHtmx();
}

// A missing browser is a failure, never a silent skip: CI (.ci/run) installs Debian's chromium.
test('Chromium is installed', () => {
  assert.ok(
    fs.existsSync(CHROMIUM),
    `${CHROMIUM} est introuvable : installez-le (apt-get install -y --no-install-recommends chromium), comme le fait .ci/run.`,
  );
});
test.run();
