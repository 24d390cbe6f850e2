/** The static Bearer token (`requireApiToken`) over HTTP (docs/runtime.md "API token"). */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { apiSuccess, requireApiToken, type Router } from '../runtime/index.js';
import { assertSecurityHeaders, type CallResult } from './helpers/client.js';
import { startApp, type TestApp } from './helpers/server.js';

const TOKEN = 'tok_5f0c1e9b2a7d4c3e8f6a1b0c9d8e7f6a';
const api = { public: true, csrf: false, api: true } as const;

function routes(router: Router): void {
  router.add(
    'GET',
    '/api/items',
    requireApiToken(() => apiSuccess([{ id: 1 }], 200, { count: 1 })),
    api,
  );
  router.add(
    'POST',
    '/api/items',
    requireApiToken((r) => apiSuccess(r.jsonBody, 201)),
    api,
  );
  router.add(
    'GET',
    '/api/boom',
    requireApiToken(() => {
      throw new Error('handler failed');
    }),
    api,
  );
}

let t: TestApp;
const bodies: string[] = [];
const A = suite('http-api-token: requireApiToken');
A.before(async () => {
  t = await startApp({ routes, env: { API_TOKEN: TOKEN } });
});
A.after(() => t.close());

async function items(authorization?: string, init: RequestInit = {}): Promise<CallResult> {
  const headers: Record<string, string> = { ...(init.headers as Record<string, string>) };
  if (authorization !== undefined) headers.Authorization = authorization;
  const r = await t.fetch('/api/items', { ...init, headers });
  bodies.push(r.text, JSON.stringify([...r.headers]));
  return r;
}

function assertError(r: CallResult, code: string, label: string): void {
  assert.is(r.status, 401, label);
  assert.is(r.headers.get('content-type'), 'application/json; charset=utf-8', label);
  const body = r.json();
  assert.equal(Object.keys(body), ['success', 'error'], label);
  assert.is(body.success, false, label);
  assert.equal(Object.keys(body.error), ['code', 'message'], label);
  assert.is(body.error.code, code, label);
  assert.ok(body.error.message.length > 0, label);
  assertSecurityHeaders(r.headers, label);
}

A('no Authorization header: 401 unauthorized', async () => {
  assertError(await items(), 'unauthorized', 'absent');
});

A('not of the form "Bearer <token>": 401 invalid_authorization_header', async () => {
  for (const header of ['Basic dXNlcjpwYXNz', `Token ${TOKEN}`, 'Bearer', `Bearer ${TOKEN} extra`, `Bearer  ${TOKEN}`, TOKEN]) {
    assertError(await items(header), 'invalid_authorization_header', header);
  }
});

A('a wrong token: 401 invalid_token', async () => {
  for (const header of ['Bearer nope', `Bearer ${TOKEN.slice(0, -1)}`, `Bearer ${TOKEN}0`, `Bearer ${TOKEN.toUpperCase()}`]) {
    assertError(await items(header), 'invalid_token', header);
  }
});

A('API_TOKEN unset or empty: every request refused with invalid_token (fail-secure)', async () => {
  const saved = process.env.API_TOKEN;
  try {
    delete process.env.API_TOKEN;
    assertError(await items(`Bearer ${TOKEN}`), 'invalid_token', 'unset');
    assertError(await items('Bearer undefined'), 'invalid_token', 'unset, "undefined"');
    process.env.API_TOKEN = '';
    assertError(await items(`Bearer ${TOKEN}`), 'invalid_token', 'empty');
  } finally {
    process.env.API_TOKEN = saved;
  }
});

A('the right token: 200 success envelope (meta kept), 201 on creation', async () => {
  const r = await items(`Bearer ${TOKEN}`);
  assert.is(r.status, 200);
  assert.is(r.headers.get('content-type'), 'application/json; charset=utf-8');
  assert.equal(r.json(), { success: true, data: [{ id: 1 }], meta: { count: 1 } });
  assertSecurityHeaders(r.headers, '200');
  // The authentication scheme is case-insensitive (RFC 9110); the token is not.
  assert.is((await items(`bearer ${TOKEN}`)).status, 200);
  const created = await items(`Bearer ${TOKEN}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"name":"x"}' });
  assert.is(created.status, 201);
  assert.equal(created.json(), { success: true, data: { name: 'x' } });
});

A('a handler error behind the token: 500 envelope, no detail', async () => {
  const r = await t.fetch('/api/boom', { headers: { Authorization: `Bearer ${TOKEN}` } });
  bodies.push(r.text);
  assert.is(r.status, 500);
  const body = r.json();
  assert.is(body.success, false);
  assert.is(body.error.code, 'server_error');
  assert.not.ok(r.text.includes('handler failed'));
});

A('the token never appears in a response or in the logs', () => {
  assert.ok(bodies.length > 20, 'the earlier tests ran');
  for (const text of bodies) assert.not.ok(text.includes(TOKEN), text);
  assert.ok(t.logs.records.length > 0, 'the 500 was logged');
  assert.not.ok(t.logs.text().includes(TOKEN));
  assert.not.ok(t.logs.text().includes(TOKEN.slice(0, 12)));
});

A.run();
