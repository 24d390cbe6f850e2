/**
 * The BaseController statics (docs/api-mapping.md "Helpers and controller") and the helpers they stand on
 * (jsonResponse, the template manager), exercised through a real server where a request is involved.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  BaseController,
  Request,
  Response,
  RouteError,
  SerializationError,
  TemplateError,
  TemplateManager,
  configure,
  escapeHtml,
  jsonResponse,
  requestSession,
  trans,
  type Router,
} from '../runtime/index.js';
import { assertSecurityHeaders, sessionCookie } from './helpers/client.js';
import { startApp, type TestApp } from './helpers/server.js';

const RAW = 'Brut : {{ pas_interprete }} {% if %}';

const files = {
  'mvc/views/item.html': '{% extends layout or "layouts/base.html" %}{% block content %}<p id="item">Élément {{ id }}</p>{% endblock %}',
  'mvc/views/page.html':
    '{% extends layout or "layouts/base.html" %}{% block title %}{{ title }}{% endblock %}{% block content %}<h1>{{ title }}</h1>{% endblock %}',
  'mvc/views/contact_form.html':
    '<form method="post">{{ errors_html | safe }}<input name="nom" value="{{ data.nom }}"><span id="err">{{ errors.nom }}</span>' +
    '<input type="hidden" name="csrf_token" value="{{ csrf_token }}"></form>',
  'mvc/views/raw.html': RAW,
  'secret.txt': 'hors des vues',
};

function routes(router: Router): void {
  router.add('GET', '/items/{id}', (r) => BaseController.render('item.html', { request: r, context: { id: r.routeParams.id } }), {
    name: 'item',
    public: true,
  });
  router.add(
    'GET',
    '/go/{id}',
    (r) => BaseController.redirectToRoute('item', { request: r, params: { id: r.routeParams.id! }, flash: 'Élément ouvert.', level: 'info' }),
    { public: true },
  );
  router.add('GET', '/go-query', () => BaseController.redirectToRoute('item', { params: { id: 3, onglet: 'notes et avis' } }), { public: true });
  router.add('POST', '/echo-body', (r) => BaseController.json(BaseController.body(r)), { public: true, csrf: false });
  router.add('POST', '/echo-json', (r) => BaseController.json(BaseController.jsonBody(r), 201), { public: true, csrf: false });
  router.add('GET', '/form', (r) => BaseController.renderForm('contact_form.html', r, { nom: '<Dupont>' }), { public: true });
  router.add(
    'POST',
    '/form',
    (r) => {
      const data = BaseController.body(r);
      if (!data.nom) return BaseController.renderForm('contact_form.html', r, data, 422, { nom: 'Le nom est obligatoire.' });
      return BaseController.redirectWithFlash(r, '/items/1', `Bonjour ${data.nom}`);
    },
    { public: true },
  );
  router.add('GET', '/invalid', (r) => BaseController.validationError(undefined, { errors: { nom: 'Obligatoire.' } }, { request: r }), { public: true });
  router.add(
    'GET',
    '/invalid-form',
    (r) => BaseController.validationError('contact_form.html', BaseController.formContext(r, { nom: '' }, { nom: 'Vide.' }), { request: r }),
    { public: true },
  );
  router.add('GET', '/bad', (r) => BaseController.badRequest({}, r), { public: true });
  router.add('GET', '/forbidden', (r) => BaseController.forbidden({}, r), { public: true });
  router.add('GET', '/broken', (r) => BaseController.serverError({}, r), { public: true });
  router.add('GET', '/missing', (r) => BaseController.notFound({}, r), { public: true });
  router.add('GET', '/include', () => new Response(200, BaseController.include('components/badge.html', { label: '<b>Nouveau</b>', variant: 'success' })), {
    public: true,
  });
  router.add('GET', '/raw', () => BaseController.render('raw.html', { raw: true }), { public: true });
  router.add('GET', '/raw-positional', () => BaseController.render('raw.html', 202, {}, 'layouts/base.html', { raw: true }), { public: true });
  router.add('GET', '/admin', (r) => BaseController.render('page.html', { base: 'layouts/admin.html', request: r, context: { title: 'Tableau' } }), {
    public: true,
  });
  router.add('GET', '/created', (r) => BaseController.render('page.html', 201, { title: 'Créé' }, 'layouts/public.html', { request: r }), { public: true });
  router.add('GET', '/bigint', () => jsonResponse({ n: 1n }), { public: true });
}

let t: TestApp;
const C = suite('controller-statics: BaseController over HTTP');
C.before(async () => {
  t = await startApp({ files, routes });
});
C.after(() => t.close());
C.before.each(() => t.logs.clear());

C('redirectToRoute: 302 to the named route, with its flash shown by the next page', async () => {
  const r = await t.fetch('/go/7');
  assert.is(r.status, 302);
  assert.is(r.headers.get('location'), '/items/7');
  assertSecurityHeaders(r.headers, '302');
  const cookie = sessionCookie(r.cookies);
  assert.ok(cookie, 'the flash needs a session');
  const page = await t.fetch('/items/7', { headers: { Cookie: cookie! } });
  assert.ok(page.text.includes('<p id="item">Élément 7</p>'));
  assert.ok(page.text.includes('role="status">Élément ouvert.</div>'), 'the info flash');
  const again = await t.fetch('/items/7', { headers: { Cookie: cookie! } });
  assert.not.ok(again.text.includes('Élément ouvert.'), 'consumed');
  const query = await t.fetch('/go-query');
  assert.is(query.headers.get('location'), '/items/3?onglet=notes+et+avis', 'extra params become the query string');
  assert.equal(query.cookies, [], 'no flash, no session');
});

C('redirectToRoute without a router, or with an unknown name: RouteError naming the route', () => {
  configure({ router: null });
  try {
    assert.throws(
      () => BaseController.redirectToRoute('item'),
      (e: Error) => e instanceof RouteError && e.message.includes("redirectToRoute('item')") && e.message.includes('configure({ router })'),
    );
  } finally {
    configure({ router: t.router });
  }
  assert.throws(
    () => BaseController.redirectToRoute('nulle_part'),
    (e: Error) => e instanceof RouteError && e.message.includes('nulle_part'),
  );
});

C('validationError: 422 with errors/422.html by default, or the given template', async () => {
  const r = await t.fetch('/invalid');
  assert.is(r.status, 422);
  assertSecurityHeaders(r.headers, '422');
  assert.ok(r.text.includes(`<title>${escapeHtml(trans('errors.422.title'))}</title>`));
  assert.ok(r.text.includes('<span class="font-semibold">nom</span> : Obligatoire.'));
  const form = await t.fetch('/invalid-form');
  assert.is(form.status, 422);
  assert.ok(form.text.startsWith('<form method="post"><ul '), form.text);
  assert.ok(form.text.includes('<li>Vide.</li>') && form.text.includes('<span id="err">Vide.</span>'));
});

C('body(): the form body flattened to field -> first value; jsonBody(): the parsed JSON object', async () => {
  const form = await t.fetch('/echo-body', {
    method: 'POST',
    body: new URLSearchParams([
      ['a', '1'],
      ['a', '2'],
      ['b', 'é & ü'],
      ['vide', ''],
    ]),
  });
  assert.equal(form.json(), { a: '1', b: 'é & ü', vide: '' });
  const multipart = new FormData();
  multipart.append('nom', 'Dupont');
  multipart.append('nom', 'Durand');
  assert.equal((await t.fetch('/echo-body', { method: 'POST', body: multipart })).json(), { nom: 'Dupont' });
  const json = await t.fetch('/echo-json', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ x: [1, 2], y: { z: true } }),
  });
  assert.is(json.status, 201);
  assert.equal(json.json(), { x: [1, 2], y: { z: true } });
  const notJson = await t.fetch('/echo-json', { method: 'POST', body: new URLSearchParams({ x: '1' }) });
  assert.equal(notJson.json(), {}, 'empty unless the body is JSON');
});

C('renderForm: the data escaped, errors_html and the CSRF token; 422 with the errors on a failed POST', async () => {
  const first = await t.fetch('/form');
  assert.is(first.status, 200);
  assert.ok(first.text.includes('value="&lt;Dupont&gt;"'));
  assert.not.ok(first.text.includes('<ul'), 'no errors, no list');
  const token = /name="csrf_token" value="([0-9a-f]{64})"/.exec(first.text)?.[1];
  const cookie = sessionCookie(first.cookies);
  assert.ok(token && cookie, 'the token is printed, bound to the session id (stored nowhere yet)');
  const failed = await t.fetch('/form', { method: 'POST', headers: { Cookie: cookie! }, body: new URLSearchParams({ nom: '', csrf_token: token! }) });
  assert.is(failed.status, 422);
  assert.ok(failed.text.includes('<li>Le nom est obligatoire.</li>') && failed.text.includes('<span id="err">Le nom est obligatoire.</span>'));
  assert.ok(failed.text.includes(`value="${token}"`), 'the same token again');
  const done = await t.fetch('/form', { method: 'POST', headers: { Cookie: cookie! }, body: new URLSearchParams({ nom: 'Ada', csrf_token: token! }) });
  assert.is(done.status, 302);
  assert.equal(done.cookies, [], 'the flash is stored under the id the browser has');
  const next = await t.fetch('/items/1', { headers: { Cookie: cookie! } });
  assert.ok(next.text.includes('>Bonjour Ada</div>'), 'redirectWithFlash');
});

C('formContext: data, errors, errors_html and a csrf_token usable as {{ csrf_token }} or csrf_token()', () => {
  const request = new Request({ path: '/x' });
  const context = BaseController.formContext(request, { nom: 'A' }, ['Première.', '<b>Seconde</b>']);
  assert.equal(Object.keys(context).sort(), ['csrf_token', 'data', 'errors', 'errors_html']);
  assert.equal(context.data, { nom: 'A' });
  assert.is(
    context.errors_html,
    '<ul class="mb-4 rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800" role="alert"><li>Première.</li><li>&lt;b&gt;Seconde&lt;/b&gt;</li></ul>',
  );
  const token = context.csrf_token as () => string;
  assert.match(token(), /^[0-9a-f]{64}$/);
  assert.is(String(token), token(), 'printable, and stable for the session');
  assert.is(BaseController.csrfToken(request), token());
  assert.is(BaseController.formContext(request, {}).errors_html, '', 'no errors by default');
});

C('badRequest, forbidden, serverError, notFound: their page, or their envelope for a JSON client', async () => {
  const cases: Array<[string, number, string]> = [
    ['/bad', 400, 'bad_request'],
    ['/forbidden', 403, 'forbidden'],
    ['/broken', 500, 'server_error'],
    ['/missing', 404, 'not_found'],
  ];
  for (const [path, status, code] of cases) {
    const page = await t.fetch(path);
    assert.is(page.status, status, path);
    assertSecurityHeaders(page.headers, path);
    assert.ok(page.text.includes(`<title>${escapeHtml(trans(`errors.${status}.title`))}</title>`), path);
    assert.ok(page.text.includes(escapeHtml(trans(`errors.${status}.message`))), path);
    const json = await t.fetch(path, { headers: { Accept: 'application/json' } });
    assert.is(json.status, status);
    assert.is(json.json().error.code, code, path);
  }
  assert.is(t.logs.records.length, 0, 'an explicit serverError() is an answer, not an unhandled error');
});

C('include: a partial rendered to text, escaped', async () => {
  const r = await t.fetch('/include');
  assert.is(
    r.text.trimEnd(),
    '<span class="inline-flex items-center rounded-full bg-green-100 px-2.5 py-0.5 text-xs font-medium text-green-800">&lt;b&gt;Nouveau&lt;/b&gt;</span>',
  );
});

C('render with base: the page in that layout; with a status and the positional form', async () => {
  const admin = await t.fetch('/admin');
  assert.is(admin.status, 200);
  assert.ok(admin.text.includes('<title>Tableau</title>') && admin.text.includes('<h1>Tableau</h1>'));
  assert.ok(admin.text.includes('<aside') && admin.text.includes(trans('admin.title')), 'the admin layout');
  const created = await t.fetch('/created');
  assert.is(created.status, 201);
  assert.ok(created.text.includes('<header') && created.text.includes('<h1>Créé</h1>'), 'the public layout');
});

C('render with raw: the file as is, no template processing; never outside views_dir', async () => {
  for (const [path, status] of [
    ['/raw', 200],
    ['/raw-positional', 202],
  ] as const) {
    const r = await t.fetch(path);
    assert.is(r.status, status);
    assert.is(r.text, RAW);
    assert.is(r.headers.get('content-type'), 'text/html; charset=utf-8');
  }
  assert.throws(() => BaseController.render('../../secret.txt', { raw: true }), /hors du dossier des vues/);
});

C('jsonResponse: data JSON cannot represent is a SerializationError (a ValueError under the old Python name)', async () => {
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  for (const [label, value] of [
    ['BigInt', { n: 1n }],
    ['cycle', cyclic],
    ['undefined', undefined],
    ['function', () => 1],
    ['symbol', Symbol('s')],
  ] as const) {
    assert.throws(
      () => jsonResponse(value),
      (e: Error) => e instanceof SerializationError && e.name === 'SerializationError' && e.message.startsWith('Données non sérialisables en JSON'),
      label,
    );
  }
  assert.throws(
    () => BaseController.json({ n: 1n }),
    (e: Error) => e instanceof SerializationError,
  );
  const r = await t.fetch('/bigint');
  assert.is(r.status, 500, 'an unhandled error of the handler');
  assert.not.ok(r.text.includes('sérialisable'), 'not shown to the client');
  assert.ok(t.logs.text().includes('SerializationError'), 'logged');
});

C('currentUser: the session user, with a DeprecationWarning (once)', async () => {
  const warnings: Error[] = [];
  const listen = (warning: Error): void => void warnings.push(warning);
  process.on('warning', listen);
  try {
    const request = new Request({ path: '/x' });
    assert.is(BaseController.currentUser(request), undefined);
    const user = { Login: 'alice', roles: ['admin'] };
    requestSession(request).set('user', user);
    assert.equal(BaseController.currentUser(request), user);
    await new Promise((resolve) => setImmediate(resolve));
    const ours = warnings.filter((w) => w.message.includes('currentUser'));
    assert.is(ours.length, 1);
    assert.is(ours[0]!.name, 'DeprecationWarning');
    assert.ok(ours[0]!.message.includes('getUser(request)'));
  } finally {
    process.off('warning', listen);
  }
});

C.run();

const T = suite('controller-statics: the template manager');

T('render without a renderer: TemplateError naming the template and the way out', () => {
  const manager = new TemplateManager();
  assert.is(manager.hasRenderer, false);
  assert.throws(
    () => manager.render('home/index.html', {}),
    (e: Error) =>
      e instanceof TemplateError && e.name === 'TemplateError' && e.message.includes('home/index.html') && e.message.includes('templateManager.register'),
  );
  manager.register({ render: (template, context) => `${template}:${JSON.stringify(context)}` });
  assert.is(manager.render('a.html', { x: 1 }), 'a.html:{"x":1}');
});

T.run();
