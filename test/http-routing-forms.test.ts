/**
 * A path belongs to its most specific pattern whatever the method (405 + Allow, before CSRF), routing happens
 * before the body is read, form bodies are capped at max_form_fields and decoded in their declared charset
 * (docs/runtime.md "Routing" and "Limits and time-outs").
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BaseController, Router, type Request, type Response } from '../runtime/index.js';
import { assertSecurityHeaders } from './helpers/client.js';
import { startApp, type TestApp } from './helpers/server.js';

/** The routes make:crud writes for one entity (test/helpers/crud-cli-project.ts, CRUD_ROUTES). */
const CRUD: ReadonlyArray<readonly [string, string, string]> = [
  ['GET', '', 'index'],
  ['GET', '/new', 'create'],
  ['POST', '', 'store'],
  ['GET', '/export.csv', 'export'],
  ['POST', '/bulk-delete', 'bulk_delete'],
  ['POST', '/bulk-delete/confirm', 'bulk_delete_confirm'],
  ['GET', '/{id}', 'show'],
  ['GET', '/{id}/edit', 'edit'],
  ['POST', '/{id}', 'update'],
  ['POST', '/{id}/delete', 'delete'],
];

/** Requests whose body a handler received (a refused request must never get here). */
let handled: string[] = [];

function answer(action: string): (request: Request) => Response {
  return (request) => {
    handled.push(`${request.method} ${request.path}`);
    return BaseController.json({ action, params: request.routeParams, fields: Object.keys(request.body).length, nom: request.field('nom') ?? null });
  };
}

function routes(router: Router): void {
  for (const [method, suffix, action] of CRUD) router.add(method, `/contacts${suffix}`, answer(action), { name: `contacts.${action}`, public: true });
  router.add('POST', '/form', answer('form'), { public: true, csrf: false });
}

const JSON_ACCEPT = { Accept: 'application/json' };
const FORM = { 'Content-Type': 'application/x-www-form-urlencoded', ...JSON_ACCEPT };

function fields(count: number): string {
  return Array.from({ length: count }, (_, i) => `f${i}=${i}`).join('&');
}

let t: TestApp;

const Methods = suite('http-routing-forms: 405 for a path of other methods');
Methods.before(async () => {
  t = await startApp({ routes });
});
Methods.after(() => t.close());
Methods.before.each(() => void (handled = []));

Methods('POST /contacts/export.csv: 405 Allow GET, HEAD, OPTIONS, not the 403 of POST /contacts/{id}', async () => {
  const r = await t.fetch('/contacts/export.csv', { method: 'POST', headers: FORM, body: 'nom=x' });
  assert.is(r.status, 405);
  assert.is(r.headers.get('allow'), 'GET, HEAD, OPTIONS');
  assert.is(r.json().error.code, 'method_not_allowed');
  assertSecurityHeaders(r.headers, '405');
  assert.equal(handled, []);
});

Methods('GET /contacts/bulk-delete: 405 Allow OPTIONS, POST, not the show page of GET /contacts/{id}', async () => {
  const r = await t.fetch('/contacts/bulk-delete', { headers: JSON_ACCEPT });
  assert.is(r.status, 405);
  assert.is(r.headers.get('allow'), 'OPTIONS, POST');
  const head = await t.fetch('/contacts/bulk-delete', { method: 'HEAD' });
  assert.is(head.status, 405);
  const percent = await t.fetch('/contacts/bulk%2Ddelete', { headers: JSON_ACCEPT });
  assert.is(percent.status, 405, 'the percent-encoded spelling of the static path is the static path');
  assert.equal(handled, []);
});

Methods('OPTIONS advertises the same methods as the 405', async () => {
  const csv = await t.fetch('/contacts/export.csv', { method: 'OPTIONS' });
  assert.is(csv.status, 204);
  assert.is(csv.headers.get('allow'), 'GET, HEAD, OPTIONS');
  const bulk = await t.fetch('/contacts/bulk-delete', { method: 'OPTIONS' });
  assert.is(bulk.headers.get('allow'), 'OPTIONS, POST');
  const record = await t.fetch('/contacts/12', { method: 'OPTIONS' });
  assert.is(record.headers.get('allow'), 'GET, HEAD, OPTIONS, POST');
});

Methods('the {id} routes still answer their own paths; CSRF still guards them', async () => {
  const show = await t.fetch('/contacts/12', { headers: JSON_ACCEPT });
  assert.is(show.status, 200);
  assert.equal(show.json().params, { id: '12' });
  const update = await t.fetch('/contacts/12', { method: 'POST', headers: FORM, body: 'nom=x' });
  assert.is(update.status, 403, 'no CSRF token');
  const confirm = await t.fetch('/contacts/bulk-delete/confirm', { headers: JSON_ACCEPT });
  assert.is(confirm.status, 405);
  assert.is(confirm.headers.get('allow'), 'OPTIONS, POST');
});

Methods('Router.match: a static path of one method is never taken by a {param} route of another', () => {
  const router = new Router();
  routes(router);
  assert.is(router.match('POST', '/contacts/export.csv'), null);
  assert.is(router.match('GET', '/contacts/bulk-delete'), null);
  assert.is(router.match('GET', '/contacts/export.csv')?.[0].name, 'contacts.export');
  assert.is(router.match('POST', '/contacts/7')?.[0].name, 'contacts.update');
  assert.equal(router.allowedMethods('/contacts/export.csv').sort(), ['GET', 'HEAD']);
  assert.equal(router.allowedMethods('/contacts/7').sort(), ['GET', 'HEAD', 'POST']);
});

Methods.run();

const Forms = suite('http-routing-forms: routing before the body, max_form_fields, charset');
Forms.before(async () => {
  t = await startApp({ routes, config: { body_max_size: 1_048_576 } });
});
Forms.after(() => t.close());
Forms.before.each(() => void (handled = []));

Forms('an unknown path with an over-limit body: 404, the body neither read nor parsed', async () => {
  // Declared 5 MB, over body_max_size: before routing came first, this was a 413.
  const r = await t.raw(
    'POST /nowhere HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 5000000\r\n\r\na=1&b=2',
  );
  assert.is(r.status, 404);
  assert.is(r.header('connection'), 'close');
  assertSecurityHeaders(r, '404 before the body');
});

Forms('a path of other methods with a body: 405 before the body is read', async () => {
  const r = await t.raw(
    'PUT /contacts/export.csv HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 5000000\r\n\r\na=1',
  );
  assert.is(r.status, 405);
  assert.is(r.header('allow'), 'GET, HEAD, OPTIONS');
});

Forms('60,000 fields: 413 too_many_fields, the handler never runs, the server answers the next request', async () => {
  const body = fields(60_000);
  const r = await t.fetch('/form', { method: 'POST', headers: FORM, body });
  assert.is(r.status, 413);
  assert.is(r.json().error.code, 'too_many_fields');
  assertSecurityHeaders(r.headers, '413 too many fields');
  assert.equal(handled, []);
  const next = await t.fetch('/form', { method: 'POST', headers: FORM, body: 'nom=ok' });
  assert.is(next.status, 200);
  assert.is(next.json().nom, 'ok');
});

Forms('1,000 fields are accepted, 1,001 are refused; empty pieces do not count', async () => {
  const ok = await t.fetch('/form', { method: 'POST', headers: FORM, body: `${fields(1000)}&&&` });
  assert.is(ok.status, 200);
  assert.is(ok.json().fields, 1000);
  const over = await t.fetch('/form', { method: 'POST', headers: FORM, body: fields(1001) });
  assert.is(over.status, 413);
  const page = await t.fetch('/form', { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: fields(1001) });
  assert.is(page.status, 413);
  assert.match(page.headers.get('content-type') ?? '', 'text/html');
});

Forms('multipart: more than 1,000 fields is a 413 too', async () => {
  const form = new FormData();
  for (let i = 0; i < 1001; i++) form.append(`f${i}`, String(i));
  const over = await t.fetch('/form', { method: 'POST', headers: JSON_ACCEPT, body: form });
  assert.is(over.status, 413);
  assert.is(over.json().error.code, 'too_many_fields');
  const small = new FormData();
  small.append('nom', 'Zoé');
  const ok = await t.fetch('/form', { method: 'POST', headers: JSON_ACCEPT, body: small });
  assert.is(ok.json().nom, 'Zoé');
});

Forms('the declared charset is honoured: iso-8859-1 bytes and escapes decode as latin-1', async () => {
  const body = Buffer.concat([Buffer.from('nom=%E9t%E9+'), Buffer.from([0xe0]), Buffer.from('&x=1')]);
  const r = await t.fetch('/form', { method: 'POST', headers: { ...FORM, 'Content-Type': 'application/x-www-form-urlencoded; charset=ISO-8859-1' }, body });
  assert.is(r.status, 200);
  assert.is(r.json().nom, 'été à');
  const utf8 = await t.fetch('/form', {
    method: 'POST',
    headers: { ...FORM, 'Content-Type': 'application/x-www-form-urlencoded; charset=utf-8' },
    body: 'nom=%C3%A9t%C3%A9',
  });
  assert.is(utf8.json().nom, 'été');
});

Forms('an unknown charset: 400 that names it', async () => {
  const r = await t.fetch('/form', {
    method: 'POST',
    headers: { ...FORM, 'Content-Type': 'application/x-www-form-urlencoded; charset=x-martien' },
    body: 'nom=a',
  });
  assert.is(r.status, 400);
  assert.match(r.json().error.message, 'x-martien');
  assert.equal(handled, []);
});

Forms.run();
