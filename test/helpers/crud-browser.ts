// Shared by the browser test (crud-browser.test.ts): Debian's Chromium launched through playwright-core, the console
// messages it may log, the data of the generated Contacts application, and readers of its list page.
import { chromium, type Browser, type ConsoleMessage, type Page } from 'playwright-core';
import * as assert from 'uvu/assert';

/* eslint-disable @typescript-eslint/no-explicit-any -- the functions given to evaluate run in the browser (no DOM types here) */

/** Debian's `chromium` package; `.ci/run` installs it when missing. */
export const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
/** How long a wait for the page (an element, a URL, a swap) may take. */
export const WAIT_MS = 10_000;

/**
 * The console messages that are expected, and why; any other error or warning fails the test (a CSP violation
 * included: htmx 2's inline indicator `<style>` is turned off by layouts/base.html).
 * - The browser's own request for `/favicon.ico` getting a 404 (the runtime serves an icon now, test/http-favicon.test.ts;
 *   still tolerated here so that these scenarios stay about their pages).
 */
function expectedConsole(message: ConsoleMessage): string | null {
  const text = message.text();
  const source = message.location().url;
  if (/Failed to load resource: the server responded with a status of 404/.test(text) && /^http:\/\/127\.0\.0\.1:\d+\/favicon\.ico$/.test(source))
    return '404 /favicon.ico';
  return null;
}

/** Launches the headless browser the tests drive. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/** Collects the console errors and warnings and the uncaught exceptions of a page, but the expected ones (counted in `ignored`). */
export function watchPage(tab: Page, problems: string[], ignored: Map<string, number>): void {
  tab.setDefaultTimeout(WAIT_MS);
  tab.on('console', (message: ConsoleMessage) => {
    if (message.type() !== 'error' && message.type() !== 'warning') return;
    const expected = expectedConsole(message);
    if (expected) ignored.set(expected, (ignored.get(expected) ?? 0) + 1);
    else problems.push(`${message.type()}: ${message.text()} (${message.location().url})`);
  });
  tab.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
}

// ---------------------------------------------------------------------------------------------------------------------
// Data: 2 villes, 45 contacts. Nom-01 … Nom-45 sort as their number; every 9th prénom is "Zoé" (5 of them); a contact
// is inactive when its number is a multiple of 3 (15), lives in Lyon when odd (23), in Nantes when even (22).

export const VILLES = ['Lyon', 'Nantes'] as const;
export const CONTACT_COUNT = 45;
/** Browser contexts creating the contacts at the same time. */
export const CREATE_WORKERS = 3;
/**
 * The contacts created through the form pages (two per context, the quoted prénom and the two-line notes among them);
 * the others are inserted with SQL, which the list pages read the same way, so that the browser's page loads go to
 * what the test is about (docs/testing.md "What a run costs").
 */
export const FORM_CONTACTS = 6;

export interface ContactInput {
  nom: string;
  prenom: string;
  email: string;
  telephone: string;
  actif: boolean;
  notes: string;
  ville: (typeof VILLES)[number];
}

export function contactData(i: number): ContactInput {
  const nn = String(i).padStart(2, '0');
  return {
    nom: `Nom-${nn}`,
    // A comma and double quotes (CSV quoting); the others are plain.
    prenom: i === 1 ? 'Jean "JJ", fils' : i % 9 === 0 ? 'Zoé' : `Prénom${nn}`,
    email: `contact${nn}@exemple.test`,
    // Starts with "+": the CSV export prefixes it with a quote so that a spreadsheet does not read a formula.
    telephone: i % 2 === 1 ? `+33 6 00 00 00 ${nn}` : '',
    actif: i % 3 !== 0,
    notes: i === 2 ? 'Ligne 1\nLigne 2' : '',
    ville: i % 2 === 1 ? 'Lyon' : 'Nantes',
  };
}

export const noms = (from: number, to: number): string[] => {
  const out: string[] = [];
  for (let i = from; from <= to ? i <= to : i >= to; i += from <= to ? 1 : -1) out.push(`Nom-${String(i).padStart(2, '0')}`);
  return out;
};

// ---------------------------------------------------------------------------------------------------------------------
// Page helpers

/** Polls `probe` until it returns a truthy value (returned) or WAIT_MS passes (then fails with `what` and the last value). */
export async function until<T>(what: string, probe: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  let last: T | undefined;
  let lastError: unknown;
  for (;;) {
    try {
      last = await probe();
      if (last) return last;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) {
      throw new Error(`attente dépassée (${WAIT_MS} ms) : ${what} ; dernière valeur : ${JSON.stringify(last)}${lastError ? ` ; ${String(lastError)}` : ''}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The header labels of the results table (sort arrows removed). */
export async function headers(page: Page): Promise<string[]> {
  return page.locator('#crud-results thead th').evaluateAll((ths: any[]) => ths.map((th) => String(th.textContent).replace(/[▲▼]/g, '').trim()));
}

/** The rows of the results table as objects keyed by header label ('' for the checkbox and actions columns). */
export async function rows(page: Page): Promise<Array<Record<string, string>>> {
  const labels = await headers(page);
  const cells: string[][] = await page
    .locator('#crud-results tbody tr')
    .evaluateAll((trs: any[]) => trs.map((tr) => Array.from(tr.querySelectorAll('td') as ArrayLike<any>).map((td) => String(td.textContent).trim())));
  return cells.map((row) => Object.fromEntries(row.map((text, index) => [labels[index] ?? String(index), text])));
}

export async function nomColumn(page: Page): Promise<string[]> {
  return (await rows(page)).map((row) => row['Nom']!);
}

/** Waits until the list shows exactly these noms, in this order. */
export async function expectNoms(page: Page, expected: readonly string[], what: string): Promise<void> {
  const want = JSON.stringify(expected);
  await until(`${what} : ${want}`, async () => JSON.stringify(await nomColumn(page)) === want);
}

/** Waits until the list shows exactly these noms, in the default order (ids descending). */
export async function expectNomSet(page: Page, expected: readonly string[], what: string): Promise<void> {
  const want = JSON.stringify([...expected].sort());
  await until(`${what} : ${want}`, async () => JSON.stringify((await nomColumn(page)).sort()) === want);
  await expectIdsDescending(page, what);
}

/** The default order of the list: newest first. */
export async function expectIdsDescending(page: Page, what: string): Promise<void> {
  const ids = (await rows(page)).map((row) => Number(row['#']));
  assert.ok(
    ids.length > 0 && ids.every((id, index) => Number.isInteger(id) && (index === 0 || id < ids[index - 1]!)),
    `${what} : ids non décroissants ${JSON.stringify(ids)}`,
  );
}

/** The number of the list's total, printed under the rows on one page too (« 45 contacts » → '45'; '' when absent). */
export async function paginationTotal(page: Page): Promise<string> {
  const total = page.locator('#crud-results #crud-total');
  if (!(await total.count())) return '';
  const text = (await total.textContent())!.trim();
  const match = /^(\d+) contacts?$/.exec(text);
  if (!match) throw new Error(`total illisible : « ${text} »`);
  return match[1]!;
}

/** The sort link of a column header (its label, then maybe an arrow). */
export function sortLinkIn(page: Page, label: string) {
  return page.locator('#crud-results thead th a', { hasText: new RegExp(`^\\s*${label}(\\s*[▲▼])?\\s*$`) });
}

export function pathAndQuery(page: Page): string {
  const url = new URL(page.url());
  return url.pathname + url.search;
}

export function queryOf(page: Page): URLSearchParams {
  return new URL(page.url()).searchParams;
}

/**
 * Marks the current document; a full page load loses the mark, a partial update keeps it. Also notes, from now
 * on, every click on a link and every form submission whose default action (a navigation) nobody prevented: the
 * listeners are on `window`, so they run after htmx's own, which prevent the default of what htmx takes.
 */
export async function mark(page: Page): Promise<void> {
  await page.evaluate(() => {
    const g = globalThis as any;
    g.__marker = 1;
    g.__unprevented = [];
    if (g.__watching) return;
    g.__watching = true;
    g.addEventListener('click', (event: any) => {
      const link = event.target?.closest?.('a[href]');
      if (link && !event.defaultPrevented) g.__unprevented.push(`click ${link.getAttribute('href')}`);
    });
    g.addEventListener('submit', (event: any) => {
      if (!event.defaultPrevented) g.__unprevented.push(`submit ${event.target.getAttribute('action')}`);
    });
  });
}

/** The navigations started since `mark` by a click or a submission that nobody prevented. */
export async function unprevented(page: Page): Promise<string[]> {
  return page.evaluate(() => [...((globalThis as any).__unprevented ?? [])]);
}

export async function marked(page: Page): Promise<boolean> {
  return page.evaluate(() => (globalThis as any).__marker === 1);
}

/**
 * Runs `action` on the list and checks how the page changed: with htmx, no document load (the mark survives)
 * and the URL becomes `url`; without, a document load (the mark is gone) that ends on `url`. `loads` counts the
 * full document loads of the main frame.
 */
export async function checkNavigation(
  page: Page,
  htmx: boolean,
  loads: () => number,
  what: string,
  action: () => Promise<unknown>,
  url: (query: URLSearchParams, path: string) => boolean,
): Promise<void> {
  await mark(page);
  const before = loads();
  await action();
  await until(`${what} : URL attendue (actuelle ${page.url()})`, async () => url(queryOf(page), new URL(page.url()).pathname));
  if (htmx) {
    // No stray navigation to wait for: htmx's request is over, and every click and submission was taken by htmx.
    await until(`${what} : fin de la requête htmx`, async () => page.evaluate(() => (globalThis as any).document.querySelector('.htmx-request') === null));
    assert.equal(await unprevented(page), [], `${what} : une navigation que htmx n'a pas prise`);
    assert.ok(await marked(page), `${what} : la page a été rechargée alors que htmx est chargé`);
    assert.is(loads(), before, `${what} : chargement complet de la page alors que htmx est chargé`);
  } else {
    await page.waitForLoadState('load');
    assert.not.ok(await marked(page), `${what} : pas de rechargement de page sans htmx`);
    assert.ok(loads() > before, `${what} : aucun chargement de page`);
  }
}
