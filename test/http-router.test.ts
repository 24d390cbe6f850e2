/** Router decisions over HTTP and the Router API (docs/runtime.md "Routing"; docs/decisions.md#routing-static-segments-first). */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import http from 'node:http';
import { BaseController, RouteError, Router, SAFE_METHODS, UNSAFE_METHODS, type Request } from '../runtime/index.js';
import { assertSecurityHeaders } from './helpers/client.js';
import { startApp, type TestApp } from './helpers/server.js';

const tag = (route: string) => (request: Request) => BaseController.json({ route, params: request.routeParams });

function routes(router: Router): void {
  // The parameter routes come first on purpose: static segments must still win.
  router.add('GET', '/contacts/{id}', tag('show'), { name: 'contact_show', public: true });
  router.add('POST', '/contacts/{id}', tag('update'), { public: true, csrf: false });
  router.add('GET', '/contacts/export.csv', tag('export'), { public: true });
  router.add('POST', '/contacts/bulk-delete', tag('bulk'), { public: true, csrf: false });
  router.add('GET', '/contacts/new', tag('new'), { public: true });
  router.add('GET', '/a/{x}/c', tag('param-first'), { public: true });
  router.add('GET', '/a/b/{y}', tag('static-first'), { public: true });
  router.add('GET', '/dup/{a}', tag('dup-first'), { public: true });
  router.add('GET', '/dup/{b}', tag('dup-second'), { public: true });
  router.add('GET', '/same', tag('same-first'), { public: true });
  router.add('GET', '/same', tag('same-second'), { public: true });
  router.add('GET', '/api/{version}/contacts/{id}', tag('api'), { public: true, name: 'api_contact' });
  router.add('GET', '/links', (r) => BaseController.render('links.html', { request: r }), { public: true });
  router.group('/admin', { public: true, csrf: false, api: true }, (g) => {
    g.add('GET', '/', tag('admin-home'), { name: 'admin_home' });
    g.add('POST', '/items', tag('admin-items'), { name: 'admin_items' });
    g.add('GET', 'private', tag('admin-private'), { public: false });
  });
}

const files = {
  'mvc/views/links.html': `<a id="a">{{ url_for('contact_show', {id: 3}) }}</a><a id="b">{{ url_for('contact_show', id=4, page=2) }}</a>`,
};

let t: TestApp;
const Http = suite('http-router: decisions over HTTP');
Http.before(async () => {
  t = await startApp({ files, routes });
});
Http.after(() => t.close());

const routeOf = async (path: string, init?: RequestInit): Promise<unknown> => {
  const r = await t.fetch(path, init);
  assert.is(r.status, 200, `${init?.method ?? 'GET'} ${path}`);
  return r.json();
};

Http('a static segment beats {param} whatever the declaration order', async () => {
  assert.equal(await routeOf('/contacts/export.csv'), { route: 'export', params: {} });
  assert.equal(await routeOf('/contacts/new'), { route: 'new', params: {} });
  assert.equal(await routeOf('/contacts/bulk-delete', { method: 'POST' }), { route: 'bulk', params: {} });
  assert.equal(await routeOf('/contacts/42'), { route: 'show', params: { id: '42' } });
  assert.equal(await routeOf('/contacts/42', { method: 'POST' }), { route: 'update', params: { id: '42' } });
  assert.equal(await routeOf('/a/b/c'), { route: 'static-first', params: { y: 'c' } });
  assert.equal(await routeOf('/a/z/c'), { route: 'param-first', params: { x: 'z' } });
  // A percent-encoded spelling of a static route is still that route.
  assert.equal(await routeOf('/contacts/export%2Ecsv'), { route: 'export', params: {} });
  assert.equal(await routeOf('/contacts/%6Eew'), { route: 'new', params: {} });
});

Http('among equals the first declared wins', async () => {
  assert.equal(await routeOf('/dup/1'), { route: 'dup-first', params: { a: '1' } });
  assert.equal(await routeOf('/same'), { route: 'same-first', params: {} });
});

Http('parameters are percent-decoded strings; several per pattern', async () => {
  assert.equal(await routeOf('/contacts/a%20b%2Fc'), { route: 'show', params: { id: 'a b/c' } });
  assert.equal(await routeOf('/api/v2/contacts/9?x=1'), { route: 'api', params: { version: 'v2', id: '9' } });
});

Http('empty segments, extra segments and bad percent-encoding are 404, not 500', async () => {
  for (const path of ['/contacts/', '/contacts/7/', '/contacts/7/edit', '/contacts//x', '/contacts/%E0%A4%A', '/contacts/%']) {
    const r = await t.raw(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    assert.is(r.status, 404, path);
  }
});

Http('405 with Allow for a known path, 404 for an unknown one', async () => {
  const r = await t.fetch('/contacts/7', { method: 'PATCH' });
  assert.is(r.status, 405);
  assert.is(r.headers.get('allow'), 'GET, HEAD, OPTIONS, POST');
  assertSecurityHeaders(r.headers, '405');
  const onlyPost = await t.fetch('/admin/items', { method: 'GET' });
  assert.is(onlyPost.status, 405);
  assert.is(onlyPost.headers.get('allow'), 'OPTIONS, POST');
  assert.is((await t.fetch('/nothing/here', { method: 'PATCH' })).status, 404);
});

Http('HEAD is answered by the GET route: same headers and Content-Length, no body', async () => {
  const get = await t.fetch('/contacts/5');
  const length = Buffer.byteLength(get.text);
  const head = await new Promise<http.IncomingMessage & { body: string }>((resolve, reject) => {
    const req = http.request(`${t.base}/contacts/5`, { method: 'HEAD', agent: false }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve(Object.assign(res, { body })));
    });
    req.on('error', reject);
    req.end();
  });
  assert.is(head.statusCode, 200);
  assert.is(head.headers['content-length'], String(length));
  assert.is(head.headers['content-type'], 'application/json; charset=utf-8');
  assert.is(head.body, '');
  assertSecurityHeaders({ get: (n: string) => head.headers[n] as string | undefined }, 'HEAD');
  const raw = await t.raw('HEAD /contacts/5 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
  assert.is(raw.header('content-length'), String(length));
});

Http('group: prefix and defaults; a route may override the group defaults', async () => {
  assert.equal(await routeOf('/admin'), { route: 'admin-home', params: {} });
  assert.equal(await routeOf('/admin/items', { method: 'POST' }), { route: 'admin-items', params: {} }); // csrf: false from the group
  const priv = await t.fetch('/admin/private');
  assert.is(priv.status, 302, 'not public: the auth middleware redirects');
  assert.is(priv.headers.get('location'), '/login?next=%2Fadmin%2Fprivate');
});

Http('url_for in templates, positional object and keyword arguments', async () => {
  const r = await t.fetch('/links');
  assert.is(r.status, 200);
  assert.is(r.text, '<a id="a">/contacts/3</a><a id="b">/contacts/4?page=2</a>');
});

Http.run();

// --- the Router API ---

const Api = suite('http-router: Router API');
const noop = () => BaseController.json(null);

Api('urlFor: params, encoding, extras as query string, errors naming the culprit', () => {
  const router = new Router();
  routes(router);
  assert.is(router.urlFor('contact_show', { id: 42 }), '/contacts/42');
  assert.is(router.urlFor('contact_show', { id: 'a b/c' }), '/contacts/a%20b%2Fc');
  assert.is(router.urlFor('contact_show', { id: 1, page: 2, q: 'x&y' }), '/contacts/1?page=2&q=x%26y');
  assert.is(router.urlFor('api_contact', { version: 'v1', id: 3 }), '/api/v1/contacts/3');
  assert.is(router.urlFor('admin_home'), '/admin');
  assert.is(router.urlFor('admin_items', { tab: 'all' }), '/admin/items?tab=all');
  assert.throws(
    () => router.urlFor('contact_show'),
    (e: Error) => e instanceof RouteError && e.message.includes('« id »'),
  );
  assert.throws(
    () => router.urlFor('nope'),
    (e: Error) => e instanceof RouteError && e.message.includes('« nope »'),
  );
});

Api('add: bad method, bad pattern, duplicate name are RouteErrors', () => {
  const router = new Router();
  router.add('get', '/x', noop, { name: 'x' });
  const isRouteError = (e: Error) => e instanceof RouteError;
  assert.throws(() => router.add('FETCH', '/y', noop), isRouteError);
  assert.throws(() => router.add('GET', 'y', noop), isRouteError);
  assert.throws(() => router.add('GET', '/y/{bad-name}', noop), isRouteError);
  assert.throws(() => router.add('GET', '/y/pre{id}', noop), isRouteError);
  assert.throws(
    () => router.add('GET', '/z', noop, { name: 'x' }),
    (e: Error) => e instanceof RouteError && e.message.includes('« x »'),
  );
  assert.is(router.add('POST', '/x', noop), router, 'add returns the router');
});

Api('match, resolve, HEAD fallback, SAFE/UNSAFE methods', () => {
  const router = new Router();
  routes(router);
  const [entry, params] = router.match('GET', '/contacts/export.csv')!;
  assert.is(entry.pattern, '/contacts/export.csv');
  assert.equal(params, {});
  assert.is(router.match('head', '/contacts/7')![0].method, 'GET');
  assert.is(router.match('DELETE', '/contacts/7'), null);
  const [handler, p] = router.resolve('POST', '/contacts/9')!;
  assert.type(handler, 'function');
  assert.equal(p, { id: '9' });
  assert.is(router.resolve('GET', '/unknown'), null);
  assert.equal([...SAFE_METHODS], ['GET', 'HEAD', 'OPTIONS']);
  assert.equal([...UNSAFE_METHODS], ['POST', 'PUT', 'PATCH', 'DELETE']);
});

Api('isPublic with and without a method', () => {
  const router = new Router();
  router.add('GET', '/open', noop, { public: true });
  router.add('POST', '/open', noop);
  router.add('GET', '/closed/{id}', noop);
  router.group('/pub', { public: true }, (g) => g.add('GET', '/{slug}', noop));
  assert.is(router.isPublic('/open'), true);
  assert.is(router.isPublic('/open', 'GET'), true);
  assert.is(router.isPublic('/open', 'HEAD'), true);
  assert.is(router.isPublic('/open', 'POST'), false);
  assert.is(router.isPublic('/closed/1'), false);
  assert.is(router.isPublic('/pub/x'), true);
  assert.is(router.isPublic('/nowhere'), false);
});

Api('iterRoutes: every route in declaration order, with its flags; a copy', () => {
  const router = new Router();
  router.add('GET', '/b/{id}', noop, { name: 'b' });
  router.group('/g', { public: true, csrf: false, api: true }, (g) => {
    g.add('POST', '/x', noop);
    g.add('DELETE', '/y', noop, { csrf: true, name: 'gy' });
  });
  router.add('GET', '/a', noop, { public: true });
  const rows = router.iterRoutes().map((r) => [r.method, r.pattern, r.name, r.public, r.csrf, r.api]);
  assert.equal(rows, [
    ['GET', '/b/{id}', 'b', false, true, false],
    ['POST', '/g/x', undefined, true, false, true],
    ['DELETE', '/g/y', 'gy', true, true, true],
    ['GET', '/a', undefined, true, true, false],
  ]);
  router.iterRoutes().length = 0;
  assert.is(router.iterRoutes().length, 4);
  assert.ok(Object.isFrozen(router.iterRoutes()[0]), 'entries are immutable');
});

Api.run();
