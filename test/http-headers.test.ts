/** Security headers on every kind of response, and the CSP nonce (docs/runtime.md "Security headers"). */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BaseController, HttpError, Response, requireApiToken, type Router } from '../runtime/index.js';
import { CSP_PLAIN, assertSecurityHeaders } from './helpers/client.js';
import { startApp, type TestApp } from './helpers/server.js';

const NONCE_PAGE =
  '<!doctype html><html><head><script nonce="{{ csp_nonce() }}" src="/static/app.js"></script></head>' +
  '<body><script nonce="{{ csp_nonce() }}">document.body.dataset.ok = "1";</script></body></html>';

function routes(router: Router): void {
  router.add('GET', '/ok', () => new Response(200, '<p>ok</p>'), { public: true });
  router.add('GET', '/go', () => BaseController.redirect('/ok'), { public: true });
  router.add('POST', '/json', (r) => BaseController.json({ got: r.jsonBody }), { public: true, csrf: false });
  router.add('POST', '/form', () => new Response(200, 'posted'), { public: true });
  router.add(
    'GET',
    '/api/secure',
    requireApiToken(() => BaseController.json({ ok: true })),
    { public: true, api: true },
  );
  router.add(
    'GET',
    '/boom',
    () => {
      throw new Error('kaboom-secret-detail');
    },
    { public: true },
  );
  router.add(
    'GET',
    '/teapot',
    () => {
      throw new HttpError(409, 'conflit');
    },
    { public: true },
  );
  router.add(
    'GET',
    '/tamper',
    () =>
      new Response(200, 'x', 'text/plain; charset=utf-8', {
        'X-Frame-Options': 'SAMEORIGIN',
        'content-security-policy': "default-src * 'unsafe-inline' 'unsafe-eval'",
        'Referrer-Policy': 'unsafe-url',
        'X-Custom': 'kept',
      }),
    { public: true },
  );
  router.add('GET', '/nonce', (r) => BaseController.render('nonce.html', { request: r }), { public: true });
  router.add('GET', '/layout', (r) => BaseController.render('layout-page.html', { request: r }), { public: true });
}

const files = {
  'static/app.css': 'body { color: red; }\n',
  'static/app.js': 'console.log(1);\n',
  'mvc/views/nonce.html': NONCE_PAGE,
  'mvc/views/layout-page.html': '{% extends "layouts/base.html" %}{% block content %}<p>page</p>{% endblock %}',
};

// --- every status ---

const All = suite('http-headers: the six headers on every status');
let t: TestApp;
All.before(async () => {
  t = await startApp({ files, routes, env: { API_TOKEN: 'header-suite-token', APP_CSP_NONCE_ENABLED: undefined } });
});
All.after(() => t.close());

All('200 page', async () => {
  const r = await t.fetch('/ok');
  assert.is(r.status, 200);
  assertSecurityHeaders(r.headers, '200');
});

All('302 redirect', async () => {
  const r = await t.fetch('/go');
  assert.is(r.status, 302);
  assert.is(r.headers.get('location'), '/ok');
  assertSecurityHeaders(r.headers, '302');
});

All('200 and 304 static file (If-None-Match)', async () => {
  const first = await t.fetch('/static/app.css');
  assert.is(first.status, 200);
  assertSecurityHeaders(first.headers, 'static 200');
  const etag = first.headers.get('etag');
  assert.ok(etag);
  const second = await t.fetch('/static/app.css', { headers: { 'If-None-Match': etag! } });
  assert.is(second.status, 304);
  assert.is(second.text, '');
  assertSecurityHeaders(second.headers, 'static 304');
});

All('400 malformed JSON', async () => {
  const r = await t.fetch('/json', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"a":' });
  assert.is(r.status, 400);
  assertSecurityHeaders(r.headers, '400');
});

All('401 API token', async () => {
  const r = await t.fetch('/api/secure');
  assert.is(r.status, 401);
  assertSecurityHeaders(r.headers, '401');
});

All('403 CSRF', async () => {
  const r = await t.fetch('/form', { method: 'POST', body: new URLSearchParams({ a: '1' }) });
  assert.is(r.status, 403);
  assertSecurityHeaders(r.headers, '403');
});

All('404 unknown path', async () => {
  const r = await t.fetch('/nowhere');
  assert.is(r.status, 404);
  assertSecurityHeaders(r.headers, '404');
});

All('405 with Allow listing the methods', async () => {
  const r = await t.fetch('/ok', { method: 'DELETE' });
  assert.is(r.status, 405);
  assert.is(r.headers.get('allow'), 'GET, HEAD, OPTIONS');
  assertSecurityHeaders(r.headers, '405');
  const post = await t.fetch('/json', { method: 'PUT' });
  assert.is(post.status, 405);
  assert.is(post.headers.get('allow'), 'OPTIONS, POST');
});

All('409 from an HttpError thrown by a handler', async () => {
  const r = await t.fetch('/teapot');
  assert.is(r.status, 409);
  assertSecurityHeaders(r.headers, '409');
});

All('413 body over the limit (raw request, nothing sent after the head)', async () => {
  const r = await t.raw('POST /json HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2000000\r\nConnection: close\r\n\r\n');
  assert.is(r.status, 413);
  assertSecurityHeaders(r, '413');
});

All('500: headers, and neither the message nor a stack in the body', async () => {
  const r = await t.fetch('/boom');
  assert.is(r.status, 500);
  assertSecurityHeaders(r.headers, '500');
  assert.is(r.headers.get('content-type'), 'text/html; charset=utf-8');
  assert.not.ok(r.text.includes('kaboom-secret-detail'), 'message absent');
  assert.not.ok(/\bat .*\.js:\d+/.test(r.text), 'no stack frame');
  assert.not.ok(r.text.includes('Error:'), 'no error name');
});

All('OPTIONS 204 with Allow', async () => {
  const r = await t.fetch('/ok', { method: 'OPTIONS' });
  assert.is(r.status, 204);
  assert.is(r.headers.get('allow'), 'GET, HEAD, OPTIONS');
  assertSecurityHeaders(r.headers, '204');
});

All('a handler cannot replace or weaken a security header', async () => {
  const r = await t.raw('GET /tamper HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
  assert.is(r.status, 200);
  assertSecurityHeaders(r, 'tamper');
  assert.equal(r.headers['x-frame-options'], ['DENY']);
  assert.equal(r.headers['content-security-policy'], [CSP_PLAIN]);
  assert.is(r.header('x-custom'), 'kept');
});

All('nonce off by default: plain CSP, csp_nonce() is empty', async () => {
  const r = await t.fetch('/nonce');
  assert.is(r.status, 200);
  assertSecurityHeaders(r.headers, 'nonce off');
  assert.is(r.text.match(/nonce="[^"]*"/g)?.join('|'), 'nonce=""|nonce=""');
});

All.run();

// --- CSP nonce ---

const Nonce = suite('http-headers: CSP nonce with APP_CSP_NONCE_ENABLED=true');
let n: TestApp;
Nonce.before(async () => {
  n = await startApp({ files, routes, env: { APP_CSP_NONCE_ENABLED: 'true' } });
});
Nonce.after(() => n.close());

Nonce('script-src gains the nonce printed in the page script tags', async () => {
  const r = await n.fetch('/nonce');
  assert.is(r.status, 200);
  const nonce = assertSecurityHeaders(r.headers, 'nonce', { nonce: true })!;
  assert.is(Buffer.from(nonce, 'base64url').length, 16, '128 bits');
  const attributes = [...r.text.matchAll(/nonce="([^"]*)"/g)].map((m) => m[1]);
  assert.equal(attributes, [nonce, nonce]);
});

Nonce('every nonce attribute of a page in the base layout equals the header nonce', async () => {
  const r = await n.fetch('/layout');
  assert.is(r.status, 200);
  const nonce = assertSecurityHeaders(r.headers, 'layout', { nonce: true });
  for (const [, value] of r.text.matchAll(/nonce="([^"]*)"/g)) assert.is(value, nonce);
});

Nonce('a distinct nonce per request, also on static files, 404 and 500', async () => {
  const seen = new Set<string>();
  for (let i = 0; i < 20; i++) {
    const r = await n.fetch('/nonce');
    seen.add(assertSecurityHeaders(r.headers, `req ${i}`, { nonce: true })!);
  }
  for (const path of ['/static/app.css', '/nowhere', '/boom']) {
    const r = await n.fetch(path);
    seen.add(assertSecurityHeaders(r.headers, path, { nonce: true })!);
  }
  assert.is(seen.size, 23);
});

Nonce.run();
