/**
 * The memory session store under anonymous traffic (docs/runtime.md "Sessions"): a GET of a page with a form
 * stores no session (the anonymous CSRF token is signed, bound to an unstored `session_id`), so a flood of them cannot evict
 * anyone; anonymous sessions worth keeping (a flash) are bounded by `session_memory_max`, and when the store is
 * full they are evicted before any signed-in session.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BaseController, MemorySessionStore, Response, getSessionStore, getUser, requestSession, type Router } from '../runtime/index.js';
import { sessionCookie } from './helpers/client.js';
import { startApp, type TestApp } from './helpers/server.js';

const MAX = 20;

function routes(router: Router): void {
  router.add('GET', '/form', (r) => BaseController.render('form.html', { request: r }), { public: true });
  router.add('POST', '/submit', () => new Response(200, 'submitted'), { public: true });
  router.add('GET', '/flash', (r) => BaseController.redirect('/form', { request: r, flash: 'Bonjour' }), { public: true });
  router.add(
    'GET',
    '/sign-in',
    (r) => {
      requestSession(r).set('user', { id: 1, login: 'a@example.test', roles: [], permissions: [] });
      return new Response(200, 'ok');
    },
    { public: true },
  );
  router.add('GET', '/me', (r) => new Response(200, String(getUser(r)?.login ?? '')), { public: true });
}

const files = {
  'mvc/views/form.html': '<form method="post" action="/submit"><input type="hidden" name="csrf_token" value="{{ csrf_token() }}"></form>',
};

/** An anonymous GET of the form: its session cookie (stored nowhere) and token. */
async function openForm(t: TestApp): Promise<{ cookie: string; token: string }> {
  const response = await t.fetch('/form');
  assert.is(response.status, 200);
  const token = /name="csrf_token" value="([0-9a-f]{64})"/.exec(response.text)?.[1];
  const cookie = sessionCookie(response.cookies);
  assert.ok(token && cookie, 'a session id and its token');
  return { cookie: cookie!, token: token! };
}

const submit = (t: TestApp, form: { cookie: string; token: string }) =>
  t.fetch('/submit', { method: 'POST', headers: { Cookie: form.cookie }, body: new URLSearchParams({ csrf_token: form.token }) });

let t: TestApp;
const S = suite('http-session-limit: anonymous GETs of a form page');
S.before(async () => {
  t = await startApp({ files, routes, config: { session_memory_max: MAX } });
});
S.after(() => t.close());

S(`${MAX * 10} anonymous GETs of a form store no session and evict no one; every form still posts`, async () => {
  const store = getSessionStore() as MemorySessionStore;
  assert.instance(store, MemorySessionStore);
  const signedIn = sessionCookie((await t.fetch('/sign-in')).cookies)!;
  assert.is(store.size, 1);
  const forms: Array<{ cookie: string; token: string }> = [];
  for (let i = 0; i < MAX * 10; i++) forms.push(await openForm(t));
  assert.is(store.size, 1, 'only the signed-in session is stored');
  assert.is((await t.fetch('/me', { headers: { Cookie: signedIn } })).text, 'a@example.test', 'the signed-in user is still there');
  for (const form of [forms[0]!, forms[MAX]!, forms[forms.length - 1]!]) assert.is((await submit(t, form)).status, 200);
  assert.is(store.size, 1, 'posting an anonymous form stores nothing either');
});

S(`anonymous sessions worth keeping (a flash) are bounded by ${MAX}, and evicted before a signed-in one`, async () => {
  const store = getSessionStore() as MemorySessionStore;
  const signedIn = sessionCookie((await t.fetch('/sign-in')).cookies)!;
  const flashes: string[] = [];
  for (let i = 0; i < MAX * 3; i++) flashes.push(sessionCookie((await t.fetch('/flash')).cookies)!);
  assert.ok(store.size <= MAX, `bounded: ${store.size}`);
  assert.is((await t.fetch('/me', { headers: { Cookie: signedIn } })).text, 'a@example.test', 'the least recently used, yet kept: it is signed in');
  const idOf = (cookie: string) => cookie.slice('session_id='.length);
  assert.equal(await store.get(idOf(flashes[flashes.length - 1]!)), { _flash: { message: 'Bonjour', level: 'success' } }, 'the latest is kept');
  assert.is(await store.get(idOf(flashes[0]!)), null, 'the oldest anonymous session was evicted');
});

S.run();
