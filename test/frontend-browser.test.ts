// Chromium (playwright-core) on a served project: htmx and Alpine's CSP build, copied by `fw js:init htmx-alpine`
// and loaded in a page's blocks as js:init prints them, work under the framework's default headers (CSP without
// 'unsafe-eval' nor inline styles): an Alpine counter counts, an htmx button swaps a fragment in, and the page logs
// no console error or warning and no CSP violation. The static landing page of `fw sync:landing`, opened from
// disk, gets its stylesheet through the relative URLs.
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { launchChromium, WAIT_MS } from './helpers/crud-browser.js';
import { startFrontendApp, type FrontendApp } from './helpers/frontend-app.js';

let app: FrontendApp;
let browser: Browser;

test.before(async () => {
  const [started, launched] = await Promise.allSettled([startFrontendApp(), launchChromium()]);
  if (started.status === 'fulfilled') app = started.value;
  if (launched.status === 'fulfilled') browser = launched.value;
  if (started.status === 'rejected' || launched.status === 'rejected') {
    await browser?.close();
    await app?.stop();
    throw started.status === 'rejected' ? started.reason : (launched as PromiseRejectedResult).reason;
  }
});

test.after(async () => {
  await browser?.close();
  await app?.stop();
});

/** A new page that records console errors and warnings, uncaught exceptions and CSP violations. */
async function watchedPage(problems: string[]): Promise<Page> {
  const page = await browser.newPage();
  page.setDefaultTimeout(WAIT_MS);
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  // Chromium logs refused resources itself; this also reports what a report-only reading would miss.
  await page.addInitScript(
    `document.addEventListener('securitypolicyviolation', (event) => console.error('CSP violation: ' + event.violatedDirective + ' ' + event.blockedURI));`,
  );
  return page;
}

test('the vendor files are served as JavaScript under the default CSP, which has no unsafe-eval', async () => {
  const page = await fetch(`${app.url}/demo`);
  const csp = page.headers.get('content-security-policy') ?? '';
  assert.match(csp, /script-src 'self'/);
  assert.match(csp, /style-src 'self';/);
  assert.not.match(csp, /unsafe-eval|unsafe-inline/);
  for (const file of ['vendor/htmx/htmx.min.js', 'vendor/alpine/alpine.min.js']) {
    const response = await fetch(`${app.url}/static/${file}`);
    assert.is(response.status, 200, file);
    assert.is(response.headers.get('content-type'), 'text/javascript; charset=utf-8', file);
    assert.is(response.headers.get('x-content-type-options'), 'nosniff');
    assert.ok((await response.text()).length > 10_000, file);
  }
});

test('Alpine counts and htmx swaps, with no console error and no CSP violation', async () => {
  const problems: string[] = [];
  const page = await watchedPage(problems);
  try {
    await page.goto(`${app.url}/demo`);
    await page.waitForFunction(`'Alpine' in window && 'htmx' in window`);
    assert.is(await page.textContent('#count'), '0');
    await page.click('#increment');
    await page.click('#increment');
    await page.waitForFunction(`document.querySelector('#count')?.textContent === '2'`);
    await page.click('#load');
    await page.waitForSelector('#zone #swapped');
    assert.is(await page.textContent('#swapped'), 'Fragment chargé par htmx.');
    assert.is(await page.evaluate(`document.querySelectorAll('style').length`), 0, 'htmx inserted no <style> (includeIndicatorStyles off)');
    // Still live after the swap.
    await page.click('#increment');
    await page.waitForFunction(`document.querySelector('#count')?.textContent === '3'`);
    assert.equal(problems, []);
  } finally {
    await page.close();
  }
});

test('the static landing page, opened from docs/, gets its stylesheet through relative URLs', async () => {
  const problems: string[] = [];
  const page = await watchedPage(problems);
  try {
    await page.goto(pathToFileURL(app.project.path('docs/index.html')).href);
    assert.is(await page.textContent('h1'), 'Front, la vitrine');
    // bg-gray-50 on the body and the h1's size come from docs/static/tailwind.css.
    assert.is(await page.evaluate(`getComputedStyle(document.querySelector('h1')).fontWeight`), '700');
    assert.is(await page.evaluate(`getComputedStyle(document.body).display`), 'flex');
    assert.equal(problems, []);
  } finally {
    await page.close();
  }
});

test.run();
