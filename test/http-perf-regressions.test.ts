// The server's fast path (no promise while nothing is asynchronous, string bodies written as strings, prebuilt
// security headers) answers exactly like the asynchronous path: bodies and lengths, HEAD, errors, middlewares,
// sessions created without a cookie, and the CSP nonce.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BaseController, HttpError, Request, Response, type Middleware, type Router } from '../runtime/index.js';
import { assertSecurityHeaders, sessionCookie } from './helpers/client.js';
import { startApp, type TestApp } from './helpers/server.js';

const ACCENTS = 'Prénom : Zoë, façade ✓ 🎉';
// A value given on a later turn of the event loop: the handler is truly asynchronous, without a fixed delay.
const later = <T>(value: T): Promise<T> => new Promise((resolve) => setImmediate(() => resolve(value)));

function routes(router: Router): void {
  router.add('GET', '/sync', () => new Response(200, ACCENTS, 'text/plain; charset=utf-8'), { public: true });
  router.add('GET', '/async', async () => later(new Response(200, ACCENTS, 'text/plain; charset=utf-8')), { public: true });
  router.add('GET', '/bytes', () => new Response(200, Buffer.from(ACCENTS, 'utf8'), 'text/plain; charset=utf-8'), { public: true });
  router.add('GET', '/empty', () => new Response(200, ''), { public: true });
  router.add('GET', '/no-content', () => new Response(204, 'ignored'), { public: true });
  router.add(
    'GET',
    '/throw-sync',
    () => {
      throw new Error('sync-secret');
    },
    { public: true },
  );
  router.add('GET', '/reject', () => Promise.reject(new Error('async-secret')), { public: true });
  router.add(
    'GET',
    '/http-error-async',
    async () => {
      await later(null);
      throw new HttpError(409, 'conflit');
    },
    { public: true },
  );
  router.add('GET', '/private', () => new Response(200, 'private'));
  router.add('GET', '/flash', (r) => BaseController.redirectWithFlash(r, '/sync', 'Enregistré'), { public: true });
  router.add('GET', '/query', (r) => BaseController.json({ q: r.param('q') ?? null, ip: r.ip }), { public: true });
}

// --- bodies, lengths, HEAD ---

const B = suite('http-perf-regressions: bodies and lengths');
let t: TestApp;
B.before(async () => {
  t = await startApp({ routes, env: { APP_CSP_NONCE_ENABLED: undefined } });
});
B.after(() => t.close());

B('sync, async and Buffer bodies: same bytes, Content-Length in bytes', async () => {
  for (const path of ['/sync', '/async', '/bytes']) {
    const r = await t.raw(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    assert.is(r.status, 200, path);
    assert.is(r.body.toString('utf8'), ACCENTS, path);
    assert.is(r.header('content-length'), String(Buffer.byteLength(ACCENTS)), path);
    assert.is(r.header('content-type'), 'text/plain; charset=utf-8', path);
    assertSecurityHeaders(r, path);
  }
});

B('HEAD: the GET length, no body', async () => {
  const r = await t.raw('HEAD /sync HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
  assert.is(r.status, 200);
  assert.is(r.header('content-length'), String(Buffer.byteLength(ACCENTS)));
  assert.is(r.body.length, 0);
  assertSecurityHeaders(r, 'HEAD');
});

B('an empty body: Content-Length 0; 204: neither type nor length', async () => {
  const empty = await t.raw('GET /empty HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
  assert.is(empty.header('content-length'), '0');
  assert.is(empty.body.length, 0);
  const none = await t.raw('GET /no-content HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
  assert.is(none.status, 204);
  assert.is(none.header('content-length'), undefined);
  assert.is(none.header('content-type'), undefined);
  assertSecurityHeaders(none, '204');
});

B('keep-alive: several requests on one connection, query string and client address', async () => {
  const r = await t.raw('GET /query?q=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /query?q=%C3%A9 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
  assert.equal(JSON.parse(r.text), { q: '1', ip: '127.0.0.1' });
  const second = await t.fetch('/query?q=%C3%A9');
  assert.equal(second.json(), { q: 'é', ip: '127.0.0.1' });
});

B('405 with Allow, 404, on the synchronous path', async () => {
  const post = await t.fetch('/sync', { method: 'POST' });
  assert.is(post.status, 405);
  assert.is(post.headers.get('allow'), 'GET, HEAD, OPTIONS');
  assertSecurityHeaders(post.headers, '405');
  const missing = await t.fetch('/nowhere');
  assert.is(missing.status, 404);
  assertSecurityHeaders(missing.headers, '404');
});

B.run();

// --- errors ---

const E = suite('http-perf-regressions: errors on both paths');
E.before(async () => {
  t = await startApp({ routes, env: { APP_CSP_NONCE_ENABLED: undefined } });
});
E.after(() => t.close());

E('a synchronous throw and a rejection: the 500 page, logged once, nothing leaked', async () => {
  for (const [path, secret] of [
    ['/throw-sync', 'sync-secret'],
    ['/reject', 'async-secret'],
  ] as const) {
    t.logs.clear();
    const r = await t.fetch(path);
    assert.is(r.status, 500, path);
    assert.not.ok(r.text.includes(secret), path);
    assertSecurityHeaders(r.headers, path);
    const errors = t.logs.records.filter((rec) => rec.level === 'ERROR');
    assert.is(errors.length, 1, path);
    assert.ok(String(errors[0]!.fields?.stack).includes(secret), path);
  }
});

E('an HttpError after an await: its status', async () => {
  const r = await t.fetch('/http-error-async');
  assert.is(r.status, 409);
  assertSecurityHeaders(r.headers, '409');
});

E('handle() and dispatch() still return promises', async () => {
  const handled = t.app.handle(new Request({ path: '/sync' }));
  assert.instance(handled, Promise);
  assert.is((await handled).status, 200);
  const dispatched = t.app.dispatch(new Request({ path: '/throw-sync' }));
  assert.instance(dispatched, Promise);
  assert.is((await dispatched).status, 500);
});

E.run();

// --- middlewares, sessions ---

const calls: string[] = [];
const asyncPass: Middleware = { check: async () => (calls.push('async-pass'), later(null)) };
const syncPass: Middleware = { check: () => (calls.push('sync-pass'), undefined) };
const asyncStop: Middleware = {
  check: async (r) => (calls.push('async-stop'), r.path === '/private' && r.param('stop') ? new Response(403, 'stopped') : null),
};
const asyncThrow: Middleware = {
  check: async (r) => {
    calls.push('async-throw');
    if (r.param('throw')) throw new Error('middleware-secret');
    return null;
  },
};

const M = suite('http-perf-regressions: middlewares and sessions');
M.before(async () => {
  t = await startApp({ routes, options: { middlewares: [syncPass, asyncPass, asyncStop, asyncThrow] }, env: { APP_CSP_NONCE_ENABLED: undefined } });
});
M.after(() => t.close());

M('sync and async middlewares run in order before a private handler', async () => {
  calls.length = 0;
  const r = await t.fetch('/private');
  assert.is(r.text, 'private');
  assert.equal(calls, ['sync-pass', 'async-pass', 'async-stop', 'async-throw']);
});

M('an async middleware that answers stops the chain; one that throws gives a logged 500', async () => {
  calls.length = 0;
  const stopped = await t.fetch('/private?stop=1');
  assert.is(stopped.status, 403);
  assert.is(stopped.text, 'stopped');
  assert.equal(calls, ['sync-pass', 'async-pass', 'async-stop']);
  t.logs.clear();
  const failed = await t.fetch('/private?throw=1');
  assert.is(failed.status, 500);
  assert.not.ok(failed.text.includes('middleware-secret'));
  assert.is(t.logs.records.filter((rec) => rec.level === 'ERROR').length, 1);
});

M('public routes skip the middlewares', async () => {
  calls.length = 0;
  await t.fetch('/sync');
  assert.equal(calls, []);
});

M('a session created by a synchronous handler without a cookie is persisted and sent', async () => {
  const redirect = await t.fetch('/flash');
  assert.is(redirect.status, 302);
  const cookie = sessionCookie(redirect.cookies);
  assert.ok(cookie, 'Set-Cookie session_id');
  assertSecurityHeaders(redirect.headers, 'flash');
});

M.run();

// --- CSP nonce on the synchronous path ---

const N = suite('http-perf-regressions: CSP nonce on the synchronous path');
N.before(async () => {
  t = await startApp({
    files: { 'mvc/views/n.html': '<script nonce="{{ csp_nonce() }}"></script>' },
    routes: (router) => {
      router.add('GET', '/n', () => BaseController.render('n.html', { raw: false, context: {} }), { public: true });
      router.add('GET', '/t', () => new Response(200, 'plain', 'text/plain; charset=utf-8'), { public: true });
    },
    env: { APP_CSP_NONCE_ENABLED: 'true' },
  });
});
N.after(() => t.close());

N('the nonce of the header is the one the template sees, fresh on every request', async () => {
  const seen = new Set<string>();
  for (let i = 0; i < 3; i++) {
    const r = await t.fetch('/n');
    const nonce = assertSecurityHeaders(r.headers, `n ${i}`, { nonce: true })!;
    assert.is(r.text, `<script nonce="${nonce}"></script>`);
    seen.add(nonce);
    const plain = await t.fetch('/t');
    seen.add(assertSecurityHeaders(plain.headers, `t ${i}`, { nonce: true })!);
  }
  assert.is(seen.size, 6);
});

N.run();
