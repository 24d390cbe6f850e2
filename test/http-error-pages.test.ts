/**
 * The content of the framework's error pages over HTTP (docs/decisions.md#login-and-csrf-answers): not only their
 * status, but the French title and message of each, the two wordings of 403 (expired form for a CSRF refusal,
 * missing rights otherwise), and the layout chosen with `base`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BaseController, Response, errorPage, escapeHtml, trans, type Router } from '../runtime/index.js';
import { assertSecurityHeaders, type CallResult } from './helpers/client.js';
import { startApp, type TestApp } from './helpers/server.js';

function routes(router: Router): void {
  router.add('GET', '/only-get', () => new Response(200, 'ok'), { public: true });
  router.add('POST', '/upload', () => new Response(200, 'reçu'), { public: true, csrf: false });
  router.add('POST', '/submit', () => new Response(200, 'submitted'), { public: true });
  router.add(
    'GET',
    '/invalid',
    (r) =>
      BaseController.validationError('errors/422.html', { errors: { nom: 'Le champ « Nom » est obligatoire.', email: '<b>mal formé</b>' } }, { request: r }),
    { public: true },
  );
  router.add('GET', '/invalid-list', (r) => BaseController.validationError(undefined, { errors: ['Première erreur.', 'Seconde erreur.'] }, { request: r }), {
    public: true,
  });
  router.add(
    'GET',
    '/limited',
    (r) => {
      const response = errorPage(429, r, { retry_after: 42 });
      response.headers['Retry-After'] = '42';
      return response;
    },
    { public: true },
  );
  router.add('GET', '/forbidden', (r) => BaseController.forbidden({}, r), { public: true });
  router.add('GET', '/failed', (r) => BaseController.serverError({ detail: 'SELECT secret FROM internals' }, r), { public: true });
  router.add('GET', '/bad', (r) => BaseController.badRequest({ detail: 'Paramètre « page » invalide.' }, r), { public: true });
  router.add('GET', '/admin-404', (r) => BaseController.render('errors/404.html', { status: 404, base: 'layouts/admin.html', request: r }), { public: true });
  router.add('GET', '/public-404', (r) => BaseController.render('errors/404.html', 404, {}, 'layouts/public.html', { request: r }), { public: true });
}

/** The text of the page, with the escaping the templates apply. */
const shown = (key: string): string => escapeHtml(trans(key));

/** Title (in <title> and <h1>) and message of `errors/<status>.html`, and the link back home. */
function assertErrorPage(r: CallResult, status: number, keys: { title: string; message: string }): void {
  assert.is(r.status, status);
  assert.is(r.headers.get('content-type'), 'text/html; charset=utf-8');
  assertSecurityHeaders(r.headers, String(status));
  assert.match(r.text, /^<!DOCTYPE html>/i);
  assert.ok(r.text.includes(`<title>${shown(keys.title)}</title>`), `${status}: <title>`);
  assert.ok(r.text.includes(`>${shown(keys.title)}</h1>`), `${status}: <h1>`);
  assert.ok(r.text.includes(shown(keys.message)), `${status}: message`);
  assert.ok(r.text.includes(`href="/"`) && r.text.includes(shown('errors.back_home')), `${status}: link home`);
}

let t: TestApp;
const P = suite('http-error-pages: content of the error pages');
P.before(async () => {
  t = await startApp({ routes, config: { body_max_size: 1024 } });
});
P.after(() => t.close());

P("the French texts are the catalogue's, not keys", () => {
  assert.is(trans('errors.405.title'), 'Méthode non autorisée');
  assert.is(trans('errors.413.title'), 'Contenu trop volumineux');
  assert.is(trans('errors.422.title'), 'Données invalides');
  assert.is(trans('errors.429.title'), 'Trop de tentatives');
  assert.is(trans('errors.403.title'), 'Accès refusé');
  assert.is(trans('errors.403.csrf_title'), 'Formulaire expiré');
});

P('405: "Méthode non autorisée" with its message, and Allow', async () => {
  const r = await t.fetch('/only-get', { method: 'DELETE' });
  assertErrorPage(r, 405, { title: 'errors.405.title', message: 'errors.405.message' });
  assert.is(r.headers.get('allow'), 'GET, HEAD, OPTIONS');
});

P('413: "Contenu trop volumineux" with its message; the connection is closed', async () => {
  const r = await t.fetch('/upload', { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: `a=${'x'.repeat(2000)}` });
  assertErrorPage(r, 413, { title: 'errors.413.title', message: 'errors.413.message' });
  assert.is(r.headers.get('connection'), 'close');
});

P('422: "Données invalides", each field and its message listed, escaped', async () => {
  const r = await t.fetch('/invalid');
  assertErrorPage(r, 422, { title: 'errors.422.title', message: 'errors.422.message' });
  assert.ok(r.text.includes('<span class="font-semibold">nom</span> : Le champ « Nom » est obligatoire.'), r.text);
  assert.ok(r.text.includes('&lt;b&gt;mal formé&lt;/b&gt;'), 'messages are escaped');
  assert.not.ok(r.text.includes('<b>mal formé</b>'));
  const list = await t.fetch('/invalid-list');
  assertErrorPage(list, 422, { title: 'errors.422.title', message: 'errors.422.message' });
  assert.ok(list.text.includes('<li>Première erreur.</li>') && list.text.includes('<li>Seconde erreur.</li>'));
});

P('429: "Trop de tentatives", with the wait when retry_after is given', async () => {
  const r = await t.fetch('/limited');
  assertErrorPage(r, 429, { title: 'errors.429.title', message: 'errors.429.message' });
  assert.ok(r.text.includes(`${shown('errors.429.retry_after')} 42 s.`));
  assert.is(r.headers.get('retry-after'), '42');
});

P('403 of a CSRF refusal: the form has expired, reload; not the missing-rights wording', async () => {
  const r = await t.fetch('/submit', { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'a=1' });
  assertErrorPage(r, 403, { title: 'errors.403.csrf_title', message: 'errors.403.csrf_message' });
  assert.match(trans('errors.403.csrf_message'), /expiré.*[Rr]echargez/);
  assert.not.ok(r.text.includes(shown('errors.403.message')));
});

P('403 of forbidden(): the user lacks the rights; nothing about an expired form', async () => {
  const r = await t.fetch('/forbidden');
  assertErrorPage(r, 403, { title: 'errors.403.title', message: 'errors.403.message' });
  assert.match(trans('errors.403.message'), /droits/);
  assert.not.ok(/expiré|[Rr]echargez/.test(r.text), 'no CSRF wording');
});

P("render('errors/404.html', { base: 'layouts/admin.html' }): the page in the admin layout", async () => {
  const admin = await t.fetch('/admin-404');
  assertErrorPage(admin, 404, { title: 'errors.404.title', message: 'errors.404.message' });
  assert.ok(admin.text.includes('<aside'), 'the admin sidebar');
  assert.ok(admin.text.includes(shown('admin.title')));
  const pub = await t.fetch('/public-404');
  assertErrorPage(pub, 404, { title: 'errors.404.title', message: 'errors.404.message' });
  assert.ok(pub.text.includes('<header') && pub.text.includes('<footer'), 'the public header and footer');
  assert.not.ok(pub.text.includes('<aside'));
  const plain = await t.fetch('/no/such/page');
  assertErrorPage(plain, 404, { title: 'errors.404.title', message: 'errors.404.message' });
  assert.ok(plain.text.includes('<header') && !plain.text.includes('<aside'), 'the public layout by default: the application header');
});

P('a layout that does not exist: the error names it', () => {
  assert.throws(() => BaseController.render('errors/404.html', { base: 'layouts/nope.html' }), /layouts\/nope\.html/);
  assert.throws(() => BaseController.render('errors/404.html', { base: '' }), /« base »/);
});

P('400 shows the detail it is given; 500 never does (an unexpected error may name internals)', async () => {
  const bad = await t.fetch('/bad');
  assertErrorPage(bad, 400, { title: 'errors.400.title', message: 'errors.400.message' });
  assert.ok(bad.text.includes('id="error-detail">Paramètre « page » invalide.</p>'));
  const failed = await t.fetch('/failed');
  assertErrorPage(failed, 500, { title: 'errors.500.title', message: 'errors.500.message' });
  assert.not.ok(failed.text.includes('secret') || failed.text.includes('error-detail'));
});

P.run();

// --- One frame for the ten pages ---

const ERRORS_DIR = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..', 'runtime', 'views', 'errors');
const F = suite('http-error-pages: the pages share errors/_page.html');

F('each page of runtime/views/errors extends the frame and keeps only its own words', () => {
  const pages = fs.readdirSync(ERRORS_DIR).filter((name) => /^\d{3}\.html$/.test(name));
  assert.equal(pages.sort(), ['400.html', '403.html', '404.html', '405.html', '413.html', '422.html', '429.html', '500.html', '503.html', '507.html']);
  for (const page of pages) {
    const text = fs.readFileSync(path.join(ERRORS_DIR, page), 'utf8');
    assert.ok(text.startsWith('{% extends "errors/_page.html" %}'), page);
    assert.not.ok(text.includes('<section') || text.includes('errors.back_home'), `${page}: the frame is not repeated`);
  }
});

F('a frame that fails to render: the built-in minimal page, with its status and the security headers', async () => {
  const broken = await startApp({ files: { 'mvc/views/errors/_page.html': '{% extends "layouts/nope.html" %}' } });
  try {
    const r = await broken.fetch('/nowhere');
    assert.is(r.status, 404);
    assertSecurityHeaders(r.headers, '404');
    assert.is(
      r.text,
      '<!doctype html><html lang="fr"><head><meta charset="utf-8"><title>404</title></head><body><h1>404</h1><p>Page introuvable.</p></body></html>',
    );
  } finally {
    await broken.close();
  }
});

F.run();
