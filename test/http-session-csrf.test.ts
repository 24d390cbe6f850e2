/** Session cookie, CSRF and flash messages over HTTP (docs/runtime.md "Sessions", "CSRF"; docs/decisions.md#session-cookie, #login-and-csrf-answers). */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BaseController, MemorySessionStore, Response, configure, escapeHtml, getSessionStore, requestSession, trans, type Router } from '../runtime/index.js';
import { assertSecurityHeaders, sessionCookie, type CallResult } from './helpers/client.js';
import { startApp, type TestApp } from './helpers/server.js';

const COOKIE = /^session_id=([0-9a-f]{64}); HttpOnly; SameSite=Strict; Secure; Path=\/$/;

function routes(router: Router): void {
  router.add('GET', '/form', (r) => BaseController.render('form.html', { request: r }), { public: true });
  router.add('GET', '/public', (r) => BaseController.render('public.html', { request: r }), { public: true });
  router.add('GET', '/plain', () => new Response(200, 'plain'), { public: true });
  router.add('POST', '/submit', () => new Response(200, 'submitted'), { public: true });
  router.add('DELETE', '/submit', () => new Response(200, 'deleted'), { public: true });
  router.add('POST', '/open', () => new Response(200, 'open'), { public: true, csrf: false });
  router.add('POST', '/hook', () => BaseController.json({ ok: true }), { public: true, api: true });
  router.add('POST', '/api/things', () => BaseController.json({ ok: true }), { public: true });
  router.add(
    'GET',
    '/flash/{level}',
    (r) => BaseController.redirect('/show', { request: r, flash: `Message ${r.routeParams.level}`, level: r.routeParams.level }),
    { public: true },
  );
  router.add('GET', '/show', (r) => BaseController.render('show.html', { request: r }), { public: true });
  router.add(
    'GET',
    '/end-then-form',
    (r) => {
      requestSession(r).destroy();
      return BaseController.render('form.html', { request: r });
    },
    { public: true },
  );
  router.add(
    'GET',
    '/sign-in',
    (r) => {
      requestSession(r).set('user', { id: 1, login: 'a@example.test', roles: [], permissions: [] });
      return new Response(200, 'ok');
    },
    { public: true },
  );
}

const files = {
  'static/site.css': 'p{}',
  'mvc/views/form.html': '<form method="post" action="/submit"><input type="hidden" name="csrf_token" value="{{ csrf_token() }}"></form>',
  'mvc/views/public.html': '{% extends "layouts/base.html" %}{% block content %}<p>Bienvenue</p>{% endblock %}',
  'mvc/views/show.html': '{% extends "layouts/base.html" %}{% block content %}<p>page</p>{% endblock %}',
};

/** The sessions the application's memory store holds. */
const stored = (): number => (getSessionStore() as MemorySessionStore).size;

/** GET /form, anonymous: the session cookie to send back (nothing stored under it) and the token printed in the page. */
async function openForm(t: TestApp): Promise<{ cookie: string; token: string; response: CallResult }> {
  const before = stored();
  const response = await t.fetch('/form');
  assert.is(response.status, 200);
  const token = /name="csrf_token" value="([0-9a-f]{64})"/.exec(response.text)?.[1];
  assert.ok(token, 'token printed in the form');
  assert.is(stored(), before, 'no session stored for a token');
  return { cookie: sessionCookie(response.cookies)!, token: token!, response };
}

const post = (t: TestApp, path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  t.fetch(path, { method: 'POST', headers, body: new URLSearchParams(fields) });

let t: TestApp;
const S = suite('http-session-csrf: session cookie and CSRF');
S.before(async () => {
  t = await startApp({ files, routes });
});
S.after(() => t.close());

S('an anonymous page calling csrf_token() sets exactly session_id=<64 hex>; HttpOnly; SameSite=Strict; Secure; Path=/, stored nowhere', async () => {
  assert.instance(getSessionStore(), MemorySessionStore);
  const { response } = await openForm(t);
  assert.is(response.cookies.length, 1);
  const cookie = response.cookies[0]!;
  assert.ok(COOKIE.test(cookie), cookie);
  assert.not.ok(
    response.cookies.some((c) => c.startsWith('csrf_id=')),
    'no separate CSRF cookie',
  );
  const attributes = cookie.split('; ').slice(1).sort();
  assert.equal(attributes, ['HttpOnly', 'Path=/', 'SameSite=Strict', 'Secure']);
  assertSecurityHeaders(response.headers, 'form');
});

S('Secure is present whatever app_env', async () => {
  configure({ app_env: 'prod' });
  try {
    const { response } = await openForm(t);
    assert.ok(COOKIE.test(response.cookies[0]!));
  } finally {
    configure({ app_env: 'dev' });
  }
});

S('pages that do not need a session set no cookie', async () => {
  for (const path of ['/public', '/plain', '/nowhere', '/static/site.css']) {
    const r = await t.fetch(path);
    assert.equal(r.cookies, [], path);
  }
  const r = await t.fetch('/open', { method: 'POST' });
  assert.is(r.status, 200);
  assert.equal(r.cookies, []);
});

S('the session cookie is reused without being sent again; the token is stable; nothing is stored', async () => {
  const first = await openForm(t);
  const again = await t.fetch('/form', { headers: { Cookie: first.cookie } });
  assert.equal(again.cookies, []);
  assert.ok(again.text.includes(`value="${first.token}"`));
});

S('100 anonymous GETs of the form and their POSTs store no session', async () => {
  const before = stored();
  const forms = [];
  for (let i = 0; i < 100; i++) forms.push(await openForm(t));
  assert.is(new Set(forms.map((f) => f.cookie)).size, 100, 'a new id each');
  for (const form of forms.slice(0, 10)) assert.is((await post(t, '/submit', { csrf_token: form.token }, { Cookie: form.cookie })).status, 200);
  assert.is(stored(), before);
});

S('a malformed session id is ignored: a new one; a well-formed one the store does not hold is kept, still unstored', async () => {
  const forged = 'a'.repeat(64);
  for (const cookie of ['session_id=abc', 'session_id=../../x', `session_id=${forged.toUpperCase()}`, 'csrf_id=' + forged]) {
    const r = await t.fetch('/form', { headers: { Cookie: cookie } });
    assert.is(r.cookies.length, 1, cookie);
    const id = COOKIE.exec(r.cookies[0]!)?.[1];
    assert.ok(id && id !== forged, cookie);
  }
  const before = stored();
  const kept = await t.fetch('/form', { headers: { Cookie: `session_id=${forged}` } });
  assert.equal(kept.cookies, [], 'the id the browser has is not sent again');
  assert.is(stored(), before);
});

S("a token forged without the secret is refused: the HMAC of the id under another key, the id itself, another id's token", async () => {
  const { cookie, token } = await openForm(t);
  const id = cookie.slice('session_id='.length);
  const { createHmac } = await import('node:crypto');
  const forgeries = [
    id,
    createHmac('sha256', 'not-the-secret-of-this-application!').update(`csrf:${id}`).digest('hex'),
    createHmac('sha256', '').update(`csrf:${id}`).digest('hex'),
    (await openForm(t)).token,
  ];
  for (const forged of forgeries) assert.is((await post(t, '/submit', { csrf_token: forged }, { Cookie: cookie })).status, 403, forged);
  assert.is((await post(t, '/submit', { csrf_token: token }, { Cookie: 'session_id=' + 'b'.repeat(64) })).status, 403, 'the token of another id');
  assert.is((await post(t, '/submit', { csrf_token: token }, { Cookie: cookie })).status, 200, 'the right pair passes');
});

S('a signed-in session refuses the anonymous token of its id: it has a token of its own', async () => {
  const { cookie, token } = await openForm(t);
  const signedIn = await t.fetch('/sign-in', { headers: { Cookie: cookie } });
  assert.equal(signedIn.cookies, [], 'the user is stored under the id the browser has (this route does not rotate, a login does)');
  assert.is((await post(t, '/submit', { csrf_token: token }, { Cookie: cookie })).status, 403);
  const own = /value="([0-9a-f]{64})"/.exec((await t.fetch('/form', { headers: { Cookie: cookie } })).text)![1]!;
  assert.is.not(own, token);
  assert.is((await post(t, '/submit', { csrf_token: own }, { Cookie: cookie })).status, 200);
});

S('a flash stored for an anonymous visitor goes under its id: the token of its open form still posts once the flash is read', async () => {
  const { cookie, token } = await openForm(t);
  const before = stored();
  const redirect = await t.fetch('/flash/info', { headers: { Cookie: cookie } });
  assert.equal(redirect.cookies, [], 'no new id');
  assert.is(stored(), before + 1, 'the flash is stored');
  const shown = await t.fetch('/show', { headers: { Cookie: cookie } });
  assert.ok(shown.text.includes('Message info'));
  assert.is(stored(), before, 'read, the empty session is deleted');
  // A browser drops an expired cookie: the open form's token would then no longer verify.
  assert.equal(shown.cookies, [], 'the cookie is kept, not expired');
  assert.is((await post(t, '/submit', { csrf_token: token }, { Cookie: cookie })).status, 200);
});

S('a session ended by the page that prints a form: the form is bound to a new id that replaces the ended one', async () => {
  const redirect = await t.fetch('/flash/success');
  const old = sessionCookie(redirect.cookies)!;
  const before = stored();
  const page = await t.fetch('/end-then-form', { headers: { Cookie: old } });
  assert.is(page.cookies.length, 1, page.cookies.join(' | '));
  const fresh = sessionCookie(page.cookies)!;
  assert.ok(COOKIE.test(page.cookies[0]!) && fresh !== old, 'a new session_id, not an expiry');
  assert.is(stored(), before - 1, 'the ended session is deleted, the new one not stored');
  const token = /value="([0-9a-f]{64})"/.exec(page.text)![1]!;
  assert.is((await post(t, '/submit', { csrf_token: token }, { Cookie: fresh })).status, 200);
  assert.is((await post(t, '/submit', { csrf_token: token }, { Cookie: old })).status, 403);
});

S('POST without token: 403, the French "form expired, reload" page, no session created', async () => {
  const message = trans('errors.403.csrf_message');
  assert.match(message, /expiré/);
  assert.match(message, /[Rr]echargez/);
  const anonymous = await post(t, '/submit', { a: '1' });
  assert.is(anonymous.status, 403);
  assert.is(anonymous.headers.get('content-type'), 'text/html; charset=utf-8');
  assert.ok(anonymous.text.includes(escapeHtml(message)), 'the errors/403.html page');
  assert.not.ok(anonymous.text.includes(escapeHtml(trans('errors.403.message'))), 'not the "no rights" wording of forbidden()');
  assert.equal(anonymous.cookies, []);
  const { cookie } = await openForm(t);
  const withSession = await post(t, '/submit', { a: '1' }, { Cookie: cookie });
  assert.is(withSession.status, 403);
  assert.ok(withSession.text.includes(escapeHtml(message)));
});

S("a wrong token, or another session's token: 403", async () => {
  const a = await openForm(t);
  const b = await openForm(t);
  const wrong = a.token.slice(0, -1) + (a.token.endsWith('0') ? '1' : '0');
  for (const token of [wrong, b.token, a.token.slice(0, 10), `${a.token}x`]) {
    const r = await post(t, '/submit', { csrf_token: token }, { Cookie: a.cookie });
    assert.is(r.status, 403, token);
  }
  const noCookie = await post(t, '/submit', { csrf_token: a.token });
  assert.is(noCookie.status, 403, 'the token alone is not enough');
});

S('the token in field csrf_token or in header X-CSRF-Token: accepted', async () => {
  const { cookie, token } = await openForm(t);
  const field = await post(t, '/submit', { csrf_token: token }, { Cookie: cookie });
  assert.is(field.status, 200);
  assert.is(field.text, 'submitted');
  const header = await post(t, '/submit', {}, { Cookie: cookie, 'X-CSRF-Token': token });
  assert.is(header.status, 200);
  const overridden = await post(t, '/submit', { _method: 'DELETE', csrf_token: token }, { Cookie: cookie });
  assert.is(overridden.text, 'deleted');
});

S('csrf: false route: accepted without token', async () => {
  const r = await t.fetch('/open', { method: 'POST', body: 'x=1', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
  assert.is(r.status, 200);
  assert.is(r.text, 'open');
});

S('JSON clients and api routes get the csrf_failed envelope', async () => {
  const cases: Array<[string, Record<string, string>]> = [
    ['/submit', { Accept: 'application/json' }],
    ['/hook', {}],
    ['/hook', { Accept: 'text/html' }],
    ['/api/things', {}],
  ];
  for (const [path, headers] of cases) {
    const r = await t.fetch(path, { method: 'POST', headers });
    assert.is(r.status, 403, path);
    assert.is(r.headers.get('content-type'), 'application/json; charset=utf-8');
    const body = r.json();
    assert.equal(Object.keys(body), ['success', 'error']);
    assert.is(body.success, false);
    assert.equal(Object.keys(body.error), ['code', 'message']);
    assert.is(body.error.code, 'csrf_failed');
    assert.type(body.error.message, 'string');
    assertSecurityHeaders(r.headers, path);
  }
});

S('flash: shown once after the redirect, then gone', async () => {
  const redirect = await t.fetch('/flash/success');
  assert.is(redirect.status, 302);
  assert.is(redirect.headers.get('location'), '/show');
  assert.is(redirect.cookies.length, 1);
  assert.ok(COOKIE.test(redirect.cookies[0]!));
  const cookie = sessionCookie(redirect.cookies)!;
  const first = await t.fetch('/show', { headers: { Cookie: cookie } });
  assert.is(first.text.split('Message success').length - 1, 1);
  const second = await t.fetch('/show', { headers: { Cookie: cookie } });
  assert.is(second.status, 200);
  assert.not.ok(second.text.includes('Message success'));
});

S.run();

// --- flash levels, with the application's own alert component ---

const L = suite('http-session-csrf: flash levels');
let l: TestApp;
L.before(async () => {
  l = await startApp({
    routes,
    files: {
      'mvc/views/components/alert.html': '<p class="flash flash-{{ type }}">{{ message }}</p>',
      'mvc/views/show.html': '{{ flash_html | safe }}',
    },
  });
});
L.after(() => l.close());

L('success, error, warning, info; danger is error', async () => {
  const expected: Record<string, string> = { success: 'success', error: 'error', warning: 'warning', info: 'info', danger: 'error' };
  for (const [level, shown] of Object.entries(expected)) {
    const redirect = await l.fetch(`/flash/${level}`);
    const cookie = sessionCookie(redirect.cookies)!;
    const page = await l.fetch('/show', { headers: { Cookie: cookie } });
    assert.is(page.text, `<p class="flash flash-${shown}">Message ${level}</p>`, level);
    assert.is((await l.fetch('/show', { headers: { Cookie: cookie } })).text, '', `${level} consumed`);
  }
});

L('the flash message is HTML-escaped', async () => {
  const redirect = await l.fetch(`/flash/${encodeURIComponent('<b>x</b>')}`);
  const page = await l.fetch('/show', { headers: { Cookie: sessionCookie(redirect.cookies)! } });
  assert.is(page.text, '<p class="flash flash-info">Message &lt;b&gt;x&lt;/b&gt;</p>');
});

L.run();
