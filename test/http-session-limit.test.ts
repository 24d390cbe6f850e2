/**
 * The memory session store stays bounded under anonymous traffic (docs/runtime.md "Sessions"): each GET of a
 * page with a form creates a session; past `session_memory_max` the least recently used are evicted.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BaseController, MemorySessionStore, Response, getSessionStore, type Router } from '../runtime/index.js';
import { sessionCookie } from './helpers/client.js';
import { startApp, type TestApp } from './helpers/server.js';

const MAX = 20;

function routes(router: Router): void {
  router.add('GET', '/form', (r) => BaseController.render('form.html', { request: r }), { public: true });
  router.add('POST', '/submit', () => new Response(200, 'submitted'), { public: true });
}

const files = {
  'mvc/views/form.html': '<form method="post" action="/submit"><input type="hidden" name="csrf_token" value="{{ csrf_token() }}"></form>',
};

/** An anonymous GET of the form: its session cookie and token. */
async function openForm(t: TestApp): Promise<{ cookie: string; token: string }> {
  const response = await t.fetch('/form');
  assert.is(response.status, 200);
  const token = /name="csrf_token" value="([0-9a-f]{64})"/.exec(response.text)?.[1];
  const cookie = sessionCookie(response.cookies);
  assert.ok(token && cookie, 'a new session and its token');
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

S(`${MAX} + 80 anonymous GETs keep the store at ${MAX}; the oldest sessions are gone, the recent and the used kept`, async () => {
  const store = getSessionStore();
  assert.instance(store, MemorySessionStore);
  const forms: Array<{ cookie: string; token: string }> = [];
  for (let i = 0; i < MAX + 80; i++) {
    forms.push(await openForm(t));
    // The first visitor keeps using its session: it is never the least recently used, so it stays.
    if (i % 5 === 4) assert.is((await submit(t, forms[0]!)).status, 200, `the first visitor's post after GET ${i + 1}`);
  }
  assert.is((store as MemorySessionStore).size, MAX, 'bounded by session_memory_max');
  assert.is((await submit(t, forms[1]!)).status, 403, 'an evicted session: its form has expired');
  assert.is((await submit(t, forms[forms.length - 1]!)).status, 200, 'the latest session is alive');
  assert.is((await submit(t, forms[0]!)).status, 200, 'the session in use is alive');
  assert.is((store as MemorySessionStore).size, MAX);
});

S.run();
