// The headers of the layouts a project gets (layouts/app.html written by make:crud and the starters, and the
// framework's public.html and admin.html that `fw new` copies) with five entity links in their `nav` block, seen by a
// real browser (Debian's Chromium through playwright-core) at 390 and 1280 px: the page never scrolls sideways, no
// script needed (the browser runs with JavaScript off). With FW_SHOTS=<folder>, screenshots of each page are saved there.
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { emitAppLayout } from '../emitters/crud/views-record.js';
import { BaseController, requestSession, type Router } from '../runtime/index.js';
import { PACKAGE_ROOT } from '../runtime/paths.js';
import { launchChromium } from './helpers/crud-browser.js';
import { startApp, type TestApp } from './helpers/server.js';

const ENTITIES = ['Propriétaires', 'Animaux', 'Rendez-vous', 'Vaccinations', 'Vétérinaires'];
const slug = (label: string): string =>
  label
    .normalize('NFD')
    .replace(/[^A-Za-z-]/g, '')
    .toLowerCase();

/** The links as a user adds them: `<a>` in app.html's nav block, `<li>` in public.html's and admin.html's lists. */
const APP_NAV = ENTITIES.map((label) => `<a href="/${slug(label)}" class="text-gray-700 hover:text-gray-900">${label}</a>`).join('\n');
const LIST_NAV = ENTITIES.map((label) => `<li><a href="/${slug(label)}" class="text-gray-600 hover:text-gray-900">${label}</a></li>`).join('\n');

const CONTENT = '{% block content %}<h1 class="text-2xl font-semibold">Une page</h1><p class="mt-2">Du contenu.</p>{% endblock %}';
const page = (layout: string, nav: string): string => `{% extends "layouts/${layout}.html" %}{% block nav %}${nav}{% endblock %}${CONTENT}`;

const files = {
  'static/tailwind.css': fs.readFileSync(path.join(PACKAGE_ROOT, 'runtime', 'static', 'tailwind.css')),
  'mvc/views/layouts/app.html': emitAppLayout(),
  'mvc/views/page-app.html': page('app', APP_NAV),
  'mvc/views/page-public.html': page('public', LIST_NAV),
  'mvc/views/page-admin.html': page('admin', LIST_NAV),
};

function routes(router: Router): void {
  router.add(
    'GET',
    '/page/{layout}',
    (r) => BaseController.render(`page-${r.routeParams.layout}.html`, { request: r, context: { app_name: 'Clinique vétérinaire' } }),
    { public: true },
  );
  router.add(
    'GET',
    '/login-as',
    (r) => {
      requestSession(r).set('user', { login: 'marie.dupont@exemple.fr', roles: ['admin'] });
      return BaseController.redirect('/page/app');
    },
    { public: true },
  );
  router.add('POST', '/logout', () => BaseController.redirect('/'), { public: true });
}

let app: TestApp;
let browser: Browser;
let tab: Page;

test.before(async () => {
  app = await startApp({ files, routes });
  browser = await launchChromium();
  tab = await browser.newPage({ javaScriptEnabled: false });
});

test.after(async () => {
  await browser?.close();
  await app?.close();
});

/** How far the page reaches to the right, and the width of the window, at `width` px. */
async function widths(url: string, width: number): Promise<{ scroll: number; client: number }> {
  await tab.setViewportSize({ width, height: 844 });
  const response = await tab.goto(app.base + url);
  assert.is(response?.status(), 200, url);
  const shots = process.env.FW_SHOTS;
  if (shots) {
    fs.mkdirSync(shots, { recursive: true });
    await tab.screenshot({ path: path.join(shots, `layout-${url.split('/').pop()}-${width}.png`), fullPage: true });
  }
  return tab.evaluate<{ scroll: number; client: number }>('({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth })');
}

async function expectFits(url: string): Promise<void> {
  for (const width of [390, 1280]) {
    const { scroll, client } = await widths(url, width);
    assert.ok(scroll <= width, `${url} à ${width} px : la page fait ${scroll} px de large`);
    assert.is(scroll, client, `${url} à ${width} px : pas de défilement horizontal`);
  }
  // Every link is there, on screen, at 390 px too.
  for (const label of ENTITIES) {
    const link = tab.getByRole('link', { name: label, exact: true });
    assert.ok(await link.isVisible(), `${url} : lien « ${label} » visible`);
    const box = (await link.boundingBox())!;
    assert.ok(box.x >= 0 && box.x + box.width <= 1280, `${url} : « ${label} » dans la fenêtre`);
  }
}

test('layouts/app.html (make:crud, starters), signed in: five entity links and the logout button fit in 390 px', async () => {
  const login = await tab.goto(`${app.base}/login-as`);
  assert.is(login?.status(), 200);
  assert.match((await tab.locator('#current-user').textContent()) ?? '', /marie\.dupont/);
  await expectFits('/page/app');
  await tab.setViewportSize({ width: 390, height: 844 });
  const logout = tab.getByRole('button', { name: 'Se déconnecter' });
  assert.ok(await logout.isVisible());
  const box = (await logout.boundingBox())!;
  assert.ok(box.x + box.width <= 390, 'le bouton de déconnexion est dans la fenêtre');
});

test('layouts/public.html (fw new, make:public-*): five links fit in 390 px', async () => {
  await expectFits('/page/public');
});

test('layouts/admin.html (fw new): five links fit in 390 px', async () => {
  await expectFits('/page/admin');
});

test.run();
