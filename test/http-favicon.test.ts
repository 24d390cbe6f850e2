/**
 * `GET /favicon.ico`, which every browser asks for on its first visit: the framework's icon (a real ICO file) with a
 * week of caching, ETag and 304, no session; the project's `static/favicon.ico` wins when it has one
 * (docs/runtime.md "Static files").
 */
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { FRAMEWORK_STATIC } from '../runtime/paths.js';
import { assertSecurityHeaders } from './helpers/client.js';
import { startApp, type TestApp } from './helpers/server.js';

const FRAMEWORK_ICON = fs.readFileSync(path.join(FRAMEWORK_STATIC, 'favicon.ico'));

let t: TestApp;
const F = suite('http-favicon');
F.before(async () => {
  t = await startApp();
});
F.after(() => t.close());

async function bytes(url: string, init?: RequestInit): Promise<{ response: Response; body: Buffer }> {
  const response = await fetch(t.base + url, { redirect: 'manual', ...init });
  return { response, body: Buffer.from(await response.arrayBuffer()) };
}

F('the framework ships a real icon: an ICO with a 16 and a 32 px image', () => {
  assert.is(FRAMEWORK_ICON.readUInt16LE(0), 0, 'reserved');
  assert.is(FRAMEWORK_ICON.readUInt16LE(2), 1, 'type icon');
  const count = FRAMEWORK_ICON.readUInt16LE(4);
  const sizes = Array.from({ length: count }, (_, i) => FRAMEWORK_ICON[6 + 16 * i]);
  assert.equal(sizes, [16, 32]);
  for (let i = 0; i < count; i++) {
    const size = FRAMEWORK_ICON.readUInt32LE(6 + 16 * i + 8);
    const offset = FRAMEWORK_ICON.readUInt32LE(6 + 16 * i + 12);
    assert.ok(offset + size <= FRAMEWORK_ICON.length);
    assert.equal([...FRAMEWORK_ICON.subarray(offset, offset + 4)], [0x89, 0x50, 0x4e, 0x47], 'a PNG image');
  }
  assert.ok(FRAMEWORK_ICON.length < 2048, `small: ${FRAMEWORK_ICON.length} octets`);
});

F('GET /favicon.ico: 200, the framework icon, a week of caching, no session cookie', async () => {
  const { response, body } = await bytes('/favicon.ico');
  assert.is(response.status, 200);
  assert.is(response.headers.get('content-type'), 'image/x-icon');
  assert.is(response.headers.get('cache-control'), 'public, max-age=604800');
  assert.ok(response.headers.get('etag'));
  assert.is(response.headers.get('set-cookie'), null);
  assertSecurityHeaders(response.headers, 'GET /favicon.ico');
  assert.ok(body.equals(FRAMEWORK_ICON));

  const again = await bytes('/favicon.ico', { headers: { 'if-none-match': response.headers.get('etag')! } });
  assert.is(again.response.status, 304);
  assert.is(again.body.length, 0);
  assert.is(again.response.headers.get('cache-control'), 'public, max-age=604800');

  const head = await bytes('/favicon.ico', { method: 'HEAD' });
  assert.is(head.response.status, 200);
  assert.is(head.response.headers.get('content-length'), String(FRAMEWORK_ICON.length));
  assert.is(head.body.length, 0);
});

F('only GET and HEAD: a POST goes to the router (404, no route)', async () => {
  const { response } = await bytes('/favicon.ico', { method: 'POST', body: 'x', headers: { 'content-type': 'text/plain' } });
  assert.is(response.status, 404);
});

F('the project overrides it with static/favicon.ico', async () => {
  const own = Buffer.from([0, 0, 1, 0, 0, 0, 0x42]);
  t.project.write('static/favicon.ico', own);
  const { response, body } = await bytes('/favicon.ico');
  assert.is(response.status, 200);
  assert.ok(body.equals(own));
  assert.is(response.headers.get('cache-control'), 'public, max-age=604800');
});

F.run();
