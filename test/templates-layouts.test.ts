/**
 * The bundled templates (docs/runtime.md "Templates and i18n"): the layouts base, public and
 * admin with their blocks and flash_html, the components, the globals `can()` and `trans()`, and the catalogues.
 * Pages are rendered by the real nunjucks renderer, over HTTP when a session is involved.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import { BaseController, NunjucksRenderer, configure, escapeHtml, requestSession, templateManager, trans, type Router } from '../runtime/index.js';
import { FRAMEWORK_I18N, FRAMEWORK_VIEWS, PACKAGE_ROOT } from '../runtime/paths.js';
import { emitAppLayout } from '../emitters/crud/views-record.js';
import { showLogin } from '../runtime/auth/index.js';
import { sessionCookie } from './helpers/client.js';
import { startApp, type TestApp } from './helpers/server.js';

const USERS: Record<string, Record<string, unknown>> = {
  lecteur: { Login: 'lecteur', roles: ['lecteur'], permissions: ['contacts.index'] },
  admin: { Login: 'admin', roles: ['admin'] },
};

/** A page of each layout overriding its three blocks (docs/runtime.md "Templates and i18n"). */
const page = (layout: string): string =>
  `{% extends "layouts/${layout}.html" %}{% block title %}Titre ${layout}{% endblock %}` +
  `{% block content %}<p id="content">Contenu ${layout}</p>{% endblock %}` +
  `{% block scripts %}<script src="/static/${layout}.js" defer></script>{% endblock %}`;

const files = {
  'mvc/views/page-base.html': page('base'),
  'mvc/views/page-public.html': page('public'),
  'mvc/views/page-admin.html': page('admin'),
  'mvc/views/untitled.html': '{% extends "layouts/base.html" %}{% block content %}x{% endblock %}',
  'mvc/views/can.html': "{{ 'index:oui' if can('contacts.index') else 'index:non' }} {{ 'delete:oui' if can('contacts.delete') else 'delete:non' }}",
  'mvc/views/trans.html': "{{ trans('app.home') }}|{{ trans('cle.absente') }}|{{ trans('errors.404.title') }}",
  'translations/fr.json': JSON.stringify({ 'app.home': 'Maison', demo: { hello: 'Bonjour {nom}, {inconnu}' } }),
};

function routes(router: Router): void {
  router.add('GET', '/page/{layout}', (r) => BaseController.render(`page-${r.routeParams.layout}.html`, { request: r }), { public: true });
  router.add(
    'GET',
    '/flash/{layout}',
    (r) => BaseController.redirect(`/page/${r.routeParams.layout}`, { request: r, flash: 'Enregistré <ok>.', level: 'success' }),
    { public: true },
  );
  router.add('GET', '/untitled', (r) => BaseController.render('untitled.html', { request: r }), { public: true });
  router.add(
    'GET',
    '/login-as/{who}',
    (r) => {
      requestSession(r).set('user', USERS[r.routeParams.who!]);
      return BaseController.redirect('/can');
    },
    { public: true },
  );
  router.add('GET', '/can', (r) => BaseController.render('can.html', { request: r }), { public: true });
  router.add('GET', '/trans', (r) => BaseController.render('trans.html', { request: r }), { public: true });
  // CSRF stays on (the default for POST): the logout form's token must be the session's own.
  router.add('POST', '/logout', () => BaseController.redirect('/'), { public: true });
}

const FLASH =
  '<div class="mb-6"><div class="rounded-md border border-green-200 bg-green-50 px-4 py-3 text-sm text-green-800" role="status">Enregistré &lt;ok&gt;.</div></div>';

let t: TestApp;
const L = suite('templates-layouts: layouts, blocks and flash_html');
L.before(async () => {
  t = await startApp({ files, routes });
});
L.after(() => t.close());

/** The page after a flash was set: the redirect's cookie sent back. */
async function withFlash(layout: string): Promise<string> {
  const redirect = await t.fetch(`/flash/${layout}`);
  assert.is(redirect.status, 302);
  const r = await t.fetch(`/page/${layout}`, { headers: { Cookie: sessionCookie(redirect.cookies)! } });
  assert.is(r.status, 200);
  return r.text;
}

for (const layout of ['base', 'public', 'admin']) {
  L(`layouts/${layout}.html: title, content and scripts blocks, and flash_html above the content`, async () => {
    const text = await withFlash(layout);
    assert.ok(text.includes(`<title>Titre ${layout}</title>`), 'title');
    const main = text.indexOf('<main id="main"');
    const flash = text.indexOf(FLASH);
    const content = text.indexOf(`<p id="content">Contenu ${layout}</p>`);
    const script = text.indexOf(`<script src="/static/${layout}.js" defer></script>`);
    assert.ok(main !== -1 && flash > main && content > flash, 'flash then content, inside <main>');
    assert.ok(script > text.indexOf('</main>') && script < text.indexOf('</body>'), 'scripts at the end of <body>');
    assert.ok(text.includes('<link rel="stylesheet" href="/static/tailwind.css">'));
    const plain = await t.fetch(`/page/${layout}`);
    assert.not.ok(plain.text.includes('class="mb-6"'), 'no flash, no box');
  });
}

L('public layout: header with the app name and navigation, footer; admin layout: sidebar; base: neither', async () => {
  const pub = (await t.fetch('/page/public')).text;
  assert.ok(pub.includes('<header') && pub.includes('<footer'));
  assert.ok(pub.includes(`aria-label="${escapeHtml(trans('app.main_nav'))}"`));
  assert.not.ok(pub.includes('<aside'));
  const admin = (await t.fetch('/page/admin')).text;
  assert.ok(admin.includes('<aside') && admin.includes(trans('admin.title')));
  assert.not.ok(admin.includes('action="/logout"'), 'no logout button without a user');
  const base = (await t.fetch('/page/base')).text;
  assert.not.ok(base.includes('<header') || base.includes('<aside') || base.includes('<footer'));
  assert.ok((await t.fetch('/untitled')).text.includes('<title>fw-mvc</title>'), 'the default title is app_name');
});

L('admin layout with a user: the logout form carries the CSRF token', async () => {
  const login = await t.fetch('/login-as/admin');
  const cookie = sessionCookie(login.cookies)!;
  const text = (await t.fetch('/page/admin', { headers: { Cookie: cookie } })).text;
  const token = /<form method="post" action="\/logout"[^>]*>\s*<input type="hidden" name="csrf_token" value="([0-9a-f]{64})">/.exec(text)?.[1];
  assert.ok(token, text);
  const post = (csrf: string) =>
    t.fetch('/logout', { method: 'POST', headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' }, body: `csrf_token=${csrf}` });
  assert.is((await post('0'.repeat(64))).status, 403, 'another token is refused');
  assert.is((await post(token)).status, 302, "the form's token is the session's");
});

L('can(): false without a user; true for a permission the user lists; true for everything with the admin role', async () => {
  assert.is((await t.fetch('/can')).text, 'index:non delete:non');
  for (const [who, expected] of [
    ['lecteur', 'index:oui delete:non'],
    ['admin', 'index:oui delete:oui'],
  ]) {
    const login = await t.fetch(`/login-as/${who}`);
    const r = await t.fetch('/can', { headers: { Cookie: sessionCookie(login.cookies)! } });
    assert.is(r.text, expected, who);
  }
});

L("trans(): the project catalogue overrides the framework's; a missing key gives the key itself", async () => {
  assert.is((await t.fetch('/trans')).text, `Maison|cle.absente|${escapeHtml(trans('errors.404.title'))}`);
  assert.is(trans('cle.absente'), 'cle.absente');
  assert.is(trans('cle.absente', { n: 1 }), 'cle.absente');
  assert.is(trans('demo.hello', { nom: 'Ada' }), 'Bonjour Ada, {inconnu}', 'nested keys, {name} filled, unknown kept');
});

L('the English catalogue: locale en gives the English texts, pages included', async () => {
  configure({ locale: 'en' });
  try {
    assert.is(trans('errors.404.title'), 'Page not found');
    assert.is(trans('errors.403.csrf_title'), 'Form expired');
    assert.is(trans('pagination.next'), 'Next');
    const r = await t.fetch('/no/such/page');
    assert.ok(r.text.includes('<title>Page not found</title>'));
  } finally {
    configure({ locale: 'fr' });
  }
  assert.is(trans('errors.404.title'), 'Page introuvable');
});

L.run();

// --- the framework's own pages carry the application's header ---

const H = suite("templates-layouts: login and error pages in the application's layout");
let h: TestApp;
function frameworkPages(router: Router): void {
  router.add('GET', '/login', showLogin, { public: true });
  router.add('GET', '/interdit', (r) => BaseController.forbidden({}, r), { public: true });
  router.add('GET', '/dashboard', (r) => BaseController.render('dash.html', { request: r }), { public: true });
  router.add('GET', '/profile', (r) => BaseController.render('dash.html', { request: r }), { public: true });
  router.menu('/dashboard', 'Tableau de bord');
  router.menu('/profile', 'Mon profil');
}

/** The header of a page, or '' when it has none. */
const header = (html: string): string => /<header[\s\S]*?<\/header>/.exec(html)?.[0] ?? '';

H('with layouts/app.html: login, 403 and 404 show its header and menu, as the pages that extend it do', async () => {
  h = await startApp({
    files: { 'mvc/views/layouts/app.html': emitAppLayout(), 'mvc/views/dash.html': '{% extends "layouts/app.html" %}{% block content %}D{% endblock %}' },
    routes: frameworkPages,
    config: { app_name: 'Carnet' },
  });
  try {
    const dashboard = header((await h.fetch('/dashboard')).text);
    assert.match(dashboard, '<a href="/dashboard" class="font-semibold text-gray-900" aria-current="page">Tableau de bord</a>');
    for (const [path, status] of [
      ['/login', 200],
      ['/interdit', 403],
      ['/nulle-part', 404],
    ] as const) {
      const page = await h.fetch(path);
      assert.is(page.status, status, path);
      const top = header(page.text);
      assert.match(top, '>Carnet</a>', `${path}: the application's name`);
      assert.match(top, '<a href="/dashboard" class="text-gray-700 hover:text-gray-900">Tableau de bord</a>', `${path}: the menu`);
      assert.match(top, '<a href="/profile" class="text-gray-700 hover:text-gray-900">Mon profil</a>', `${path}: the menu`);
      assert.is(
        top.replace(/ aria-current="page"| class="[^"]*"/g, ''),
        dashboard.replace(/ aria-current="page"| class="[^"]*"/g, ''),
        `${path}: the same header`,
      );
    }
  } finally {
    await h.close();
  }
});

H('without layouts/app.html: login, 403 and 404 show the public layout header (name and home link)', async () => {
  h = await startApp({ routes: frameworkPages, config: { app_name: 'Carnet' } });
  try {
    for (const path of ['/login', '/interdit', '/nulle-part']) {
      const top = header((await h.fetch(path)).text);
      assert.match(top, '>Carnet</a>', path);
      assert.match(top, `<a href="/" class="text-gray-600 hover:text-gray-900">${escapeHtml(trans('app.home'))}</a>`, path);
    }
  } finally {
    await h.close();
  }
});

H('an application layout that fails to render: the error page falls back to the bare layout', async () => {
  h = await startApp({ files: { 'mvc/views/layouts/app.html': `{% extends "layouts/base.html" %}{% block body %}{{ url_for('absente') }}{% endblock %}` } });
  try {
    const page = await h.fetch('/nulle-part');
    assert.is(page.status, 404);
    assert.match(page.text, escapeHtml(trans('errors.404.title')));
    assert.match(page.text, `>${escapeHtml(trans('errors.back_home'))}</a>`, 'the template, not the built-in fallback');
    assert.not.match(page.text, '<header');
  } finally {
    await h.close();
  }
});

H.run();

// --- catalogues and the project template's home page ---

const K = suite('templates-layouts: catalogues and home page');

K('the French and English catalogues have the same keys, none empty', () => {
  const read = (locale: string): Record<string, string> => JSON.parse(fs.readFileSync(path.join(FRAMEWORK_I18N, `${locale}.json`), 'utf8'));
  const fr = read('fr');
  const en = read('en');
  assert.equal(Object.keys(en).sort(), Object.keys(fr).sort());
  for (const [key, value] of [...Object.entries(fr), ...Object.entries(en)]) assert.ok(value.trim() !== '', key);
});

K('the home page of the project template extends `layout`, falling back to layouts/base.html', () => {
  const renderer = new NunjucksRenderer({ searchPaths: [path.join(PACKAGE_ROOT, 'cli', 'templates', 'project', 'mvc', 'views'), FRAMEWORK_VIEWS] });
  const plain = renderer.render('home/index.html', {});
  assert.ok(plain.includes(`<title>${escapeHtml(trans('home.title'))}</title>`));
  assert.not.ok(plain.includes('<aside'));
  const admin = renderer.render('home/index.html', { layout: 'layouts/admin.html' });
  assert.ok(admin.includes('<aside') && admin.includes(`<h1 class="text-3xl font-bold text-gray-900">${escapeHtml(trans('home.title'))}</h1>`));
});

K.run();

// --- components ---

const C = suite('templates-layouts: components');
C.before(() => templateManager.register(new NunjucksRenderer({ searchPaths: [FRAMEWORK_VIEWS] })));
C.after(() => templateManager.register(new NunjucksRenderer()));

const render = (name: string, context: Record<string, unknown>): string => templateManager.render(`components/${name}.html`, context).trim();

C('button: a <button> (type button by default, submit or reset), a link when href is set; variants', () => {
  assert.match(render('button', { label: 'Envoyer' }), /^<button type="button" class="[^"]*bg-blue-600[^"]*">Envoyer<\/button>$/);
  assert.match(render('button', { label: 'OK', type: 'submit' }), /^<button type="submit"/);
  assert.match(render('button', { label: 'OK', type: 'reset' }), /^<button type="reset"/);
  assert.match(render('button', { label: 'OK', type: 'javascript' }), /^<button type="button"/, 'an unknown type is a plain button');
  assert.match(render('button', { label: 'Nouveau', href: '/contacts/new' }), /^<a href="\/contacts\/new" class="[^"]*bg-blue-600[^"]*">Nouveau<\/a>$/);
  assert.match(render('button', { label: 'Supprimer', variant: 'danger' }), /bg-red-600/);
  assert.match(render('button', { label: 'Annuler', variant: 'secondary', href: '/' }), /^<a href="\/" class="[^"]*border-gray-300 bg-white[^"]*"/);
  assert.ok(render('button', { label: '<i>x</i>', href: '"><script>' }).includes('href="&quot;&gt;&lt;script&gt;"'), 'escaped');
});

C('badge: success, warning, danger and error, info, grey by default', () => {
  const colour = (variant?: string): string => /bg-([a-z]+)-100/.exec(render('badge', { label: 'B', variant }))![1]!;
  assert.equal(
    [colour('success'), colour('warning'), colour('danger'), colour('error'), colour('info'), colour(), colour('autre')],
    ['green', 'amber', 'red', 'red', 'blue', 'gray', 'gray'],
  );
  assert.match(render('badge', { label: '<b>' }), /^<span class="[^"]+">&lt;b&gt;<\/span>$/);
});

C('table: headers and rows escaped; an empty table says so across every column', () => {
  const html = render('table', {
    headers: ['Nom', 'Ville'],
    rows: [
      ['Dupont', 'Lyon'],
      ['<b>Durand</b>', 'Paris'],
    ],
  });
  assert.equal(
    [...html.matchAll(/<th scope="col"[^>]*>([^<]*)<\/th>/g)].map((m) => m[1]),
    ['Nom', 'Ville'],
  );
  assert.equal(
    [...html.matchAll(/<td class="px-4 py-3 text-gray-700">([^<]*)<\/td>/g)].map((m) => m[1]),
    ['Dupont', 'Lyon', '&lt;b&gt;Durand&lt;/b&gt;', 'Paris'],
  );
  const empty = render('table', { headers: ['Nom', 'Ville', 'Pays'], rows: [] });
  assert.ok(empty.includes(`<td colspan="3" class="px-4 py-6 text-center text-gray-500">${escapeHtml(trans('crud.empty'))}</td>`));
  assert.ok(render('table', { headers: ['Nom'], rows: [], empty_message: 'Rien ici.' }).includes('>Rien ici.</td>'));
});

C('alert: info by default, success, warning, error (danger treated as error); nothing without a message', () => {
  const look = (type?: string): string => {
    const m = /^<div class="[^"]*bg-([a-z]+)-50[^"]*" role="([a-z]+)">Message<\/div>$/.exec(render('alert', { message: 'Message', type }));
    assert.ok(m, String(type));
    return `${m![1]}/${m![2]}`;
  };
  assert.equal(
    [look(), look('info'), look('success'), look('warning'), look('error'), look('danger')],
    ['blue/status', 'blue/status', 'green/status', 'amber/alert', 'red/alert', 'red/alert'],
  );
  assert.is(render('alert', { message: '', type: 'error' }), '');
  assert.ok(render('alert', { message: '<script>' }).includes('&lt;script&gt;'));
});

C.run();
