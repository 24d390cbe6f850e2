/** Body limits, malformed bodies and the `_method` override, over real HTTP (docs/runtime.md "Bodies" and "Limits and time-outs"). */
import type { Socket } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BaseController, type Response, configure, escapeHtml, trans, type Request, type Router } from '../runtime/index.js';
import { assertSecurityHeaders } from './helpers/client.js';
import { startApp, type TestApp } from './helpers/server.js';

const MiB = 1_048_576;

function echo(request: Request): Response {
  const files: Record<string, unknown> = {};
  for (const [name, file] of Object.entries(request.files))
    files[name] = {
      filename: file.filename,
      contentType: file.contentType,
      size: file.size,
      ...(file.truncated ? { kept: file.data.length, truncated: true } : {}),
    };
  const sizes: Record<string, number> = {};
  for (const [name, values] of Object.entries(request.body)) sizes[name] = values.join('').length;
  return BaseController.json({
    method: request.method,
    originalMethod: request.originalMethod,
    sizes,
    body: Object.fromEntries(Object.entries(request.body).map(([k, v]) => [k, v.map((s) => (s.length > 64 ? `<${s.length}>` : s))])),
    jsonBody: request.jsonBody,
    files,
  });
}

function routes(router: Router): void {
  for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) router.add(method, '/echo', echo, { public: true, csrf: false });
  router.add('DELETE', '/guarded', echo, { public: true });
}

const BOUNDARY = 'fw-test-boundary-7f3a';
/** A valid multipart body of exactly `total` bytes: the given text fields, then one file `doc` padded to size, then the `after` fields. */
function multipartOfSize(total: number, fields: Record<string, string> = {}, after: Record<string, string> = {}): Buffer {
  const part = (name: string, value: string) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  let head = '';
  for (const [name, value] of Object.entries(fields)) head += part(name, value);
  head += `--${BOUNDARY}\r\nContent-Disposition: form-data; name="doc"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n`;
  const tail = `\r\n${Object.entries(after)
    .map(([name, value]) => part(name, value))
    .join('')}--${BOUNDARY}--\r\n`;
  const pad = total - Buffer.byteLength(head) - Buffer.byteLength(tail);
  assert.ok(pad >= 0, 'taille demandée trop petite');
  return Buffer.concat([Buffer.from(head), Buffer.alloc(pad, 0x41), Buffer.from(tail)]);
}
const MULTIPART = `multipart/form-data; boundary=${BOUNDARY}`;
/** The file size inside a body made by multipartOfSize. */
const paddingOf = (body: Buffer): number =>
  body.indexOf(`\r\n--${BOUNDARY}`, body.indexOf('Content-Type: application/pdf')) -
  (body.indexOf('Content-Type: application/pdf\r\n\r\n') + 'Content-Type: application/pdf\r\n\r\n'.length);

function head(method: string, path: string, headers: Record<string, string | number>): string {
  return `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}Connection: close\r\n\r\n`;
}

/** Chunked transfer pieces: `count` chunks of `size` bytes, then the last chunk. */
function chunked(count: number, size: number, last = true): Buffer[] {
  const piece = Buffer.concat([Buffer.from(`${size.toString(16)}\r\n`), Buffer.alloc(size, 0x61), Buffer.from('\r\n')]);
  const out = Array.from({ length: count }, () => piece);
  if (last) out.push(Buffer.from('0\r\n\r\n'));
  return out;
}

let t: TestApp;
const setup = async (): Promise<void> => {
  t = await startApp({ routes });
};
const teardown = (): Promise<void> => t.close();

// --- limits ---

const Limits = suite('http-body: body limits');
Limits.before(setup);
Limits.after(teardown);
Limits.after.each(() => configure({ upload_max_size: 5_242_880 }));

Limits('Content-Length one byte over 1 MiB: 413 before the body is read', async () => {
  const r = await t.raw(head('POST', '/echo', { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': MiB + 1 }));
  assert.is(r.status, 413);
  assertSecurityHeaders(r, '413');
  assert.is(r.header('connection'), 'close');
});

Limits('413 for JSON clients is the payload_too_large envelope', async () => {
  const r = await t.raw(head('POST', '/echo', { Accept: 'application/json', 'Content-Type': 'application/json', 'Content-Length': 5 * MiB }));
  assert.is(r.status, 413);
  assert.is(r.header('content-type'), 'application/json; charset=utf-8');
  assert.equal(JSON.parse(r.text), { success: false, error: { code: 'payload_too_large', message: JSON.parse(r.text).error.message } });
});

Limits('a body of exactly 1 MiB is accepted', async () => {
  const r = await t.fetch('/echo', { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: `a=${'x'.repeat(MiB - 2)}` });
  assert.is(r.status, 200);
  assert.is(r.json().sizes.a, MiB - 2);
});

Limits('an over-limit body actually sent: 413', async () => {
  const pieces = [
    head('POST', '/echo', { 'Content-Type': 'application/octet-stream', 'Content-Length': MiB + 1 }),
    ...Array.from({ length: 16 }, () => Buffer.alloc(65_536)),
    Buffer.alloc(1),
  ];
  const r = await t.raw(pieces);
  assert.is(r.status, 413);
  const viaFetch = await t.fetch('/echo', { method: 'POST', headers: { 'Content-Type': 'application/octet-stream' }, body: Buffer.alloc(2 * MiB) });
  assert.is(viaFetch.status, 413);
});

Limits('chunked without Content-Length, over the limit: 413', async () => {
  const r = await t.raw([head('POST', '/echo', { 'Content-Type': 'application/octet-stream', 'Transfer-Encoding': 'chunked' }), ...chunked(17, 65_536)]);
  assert.is(r.status, 413);
  assertSecurityHeaders(r, 'chunked 413');
});

Limits('chunked, exactly at the limit: accepted', async () => {
  const pieces = [
    head('POST', '/echo', { 'Content-Type': 'application/x-www-form-urlencoded', 'Transfer-Encoding': 'chunked' }),
    Buffer.from('2\r\na=\r\n'),
    ...chunked(15, 65_536, false),
    ...chunked(1, 65_534), // 2 + 15 * 65536 + 65534 = 1 MiB
  ];
  const r = await t.raw(pieces);
  assert.is(r.status, 200);
  assert.is(JSON.parse(r.text).sizes.a, MiB - 2);
});

Limits(
  'multipart cap is body_max_size + 4 × upload_max_size; within it a file over upload_max_size arrives truncated and the fields after it are read',
  async () => {
    configure({ upload_max_size: 1000 });
    const limit = MiB + 4 * 1000;
    const over = await t.raw(head('POST', '/echo', { 'Content-Type': MULTIPART, 'Content-Length': limit + 1 }));
    assert.is(over.status, 413);
    const body = multipartOfSize(limit, { before: 'avant' }, { after: 'après' });
    const exact = await t.fetch('/echo', { method: 'POST', headers: { 'Content-Type': MULTIPART }, body });
    assert.is(exact.status, 200);
    // Counted to its end, none of its bytes kept: the handler refuses it (422) with the rest of the form.
    assert.equal(exact.json().files.doc, { filename: 'a.pdf', contentType: 'application/pdf', size: paddingOf(body), kept: 0, truncated: true });
    assert.ok(paddingOf(body) > MiB, 'the file itself is over 1 MiB');
    assert.equal(exact.json().body, { before: ['avant'], after: ['après'] });
    // A file at upload_max_size exactly is kept whole.
    const small = multipartOfSize(1000 + 149);
    const whole = await t.fetch('/echo', { method: 'POST', headers: { 'Content-Type': MULTIPART }, body: small });
    assert.equal(whole.json().files.doc, { filename: 'a.pdf', contentType: 'application/pdf', size: 1000 });
    assert.is(paddingOf(small), 1000);
    // the larger limit is for multipart only
    const form = await t.raw(head('POST', '/echo', { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': MiB + 1 }));
    assert.is(form.status, 413);
  },
);

Limits('upload_body_max_size, when set, is the multipart cap', async () => {
  configure({ upload_max_size: 1000, upload_body_max_size: 2 * MiB });
  try {
    const over = await t.raw(head('POST', '/echo', { 'Content-Type': MULTIPART, 'Content-Length': 2 * MiB + 1 }));
    assert.is(over.status, 413);
    assert.match(
      JSON.parse((await t.raw(head('POST', '/echo', { Accept: 'application/json', 'Content-Type': MULTIPART, 'Content-Length': 2 * MiB + 1 }))).text).error
        .message,
      String(2 * MiB),
    );
    const exact = await t.fetch('/echo', { method: 'POST', headers: { 'Content-Type': MULTIPART }, body: multipartOfSize(2 * MiB) });
    assert.is(exact.status, 200);
    assert.is(exact.json().files.doc.truncated, true);
  } finally {
    configure({ upload_body_max_size: null });
  }
});

Limits.run();

// --- malformed bodies ---

const Malformed = suite('http-body: malformed bodies give 400, never 500');
Malformed.before(setup);
Malformed.after(teardown);

Malformed('invalid JSON: 400 page (HTML) and bad_request envelope (JSON client)', async () => {
  for (const body of ['{', '{"a":1,}', 'nul', "{'a':1}", '{"a":1}}']) {
    const r = await t.fetch('/echo', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
    assert.is(r.status, 400, body);
    assert.is(r.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.ok(r.text.includes(escapeHtml(trans('errors.400.title'))), 'the errors/400.html page');
  }
  const r = await t.fetch('/echo', { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: '{' });
  assert.is(r.status, 400);
  const envelope = r.json();
  assert.is(envelope.success, false);
  assert.is(envelope.error.code, 'bad_request');
  assert.type(envelope.error.message, 'string');
});

Malformed('JSON that is not an object: 400', async () => {
  for (const body of ['[1,2]', '"text"', '42', 'null', 'true']) {
    const r = await t.fetch('/echo', { method: 'POST', headers: { 'Content-Type': 'application/json; charset=utf-8' }, body });
    assert.is(r.status, 400, body);
  }
});

Malformed('an empty JSON body is an empty object; a JSON object is parsed', async () => {
  const empty = await t.fetch('/echo', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '' });
  assert.is(empty.status, 200);
  assert.equal(empty.json().jsonBody, {});
  const ok = await t.fetch('/echo', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"a":[1,{"b":null}]}' });
  assert.equal(ok.json().jsonBody, { a: [1, { b: null }] });
});

Malformed('multipart without boundary, truncated, or without any part: 400', async () => {
  const noBoundary = await t.fetch('/echo', { method: 'POST', headers: { 'Content-Type': 'multipart/form-data' }, body: 'x=1' });
  assert.is(noBoundary.status, 400);
  const full = multipartOfSize(500, { title: 'hello' });
  const truncated = await t.fetch('/echo', { method: 'POST', headers: { 'Content-Type': MULTIPART }, body: full.subarray(0, 300) });
  assert.is(truncated.status, 400);
  const garbage = await t.fetch('/echo', { method: 'POST', headers: { 'Content-Type': MULTIPART }, body: 'no parts here' });
  assert.is(garbage.status, 400);
  const good = await t.fetch('/echo', { method: 'POST', headers: { 'Content-Type': MULTIPART }, body: full });
  assert.is(good.status, 200);
  assert.equal(good.json().body, { title: ['hello'] });
  assert.equal(good.json().files.doc, { filename: 'a.pdf', contentType: 'application/pdf', size: paddingOf(full) });
});

Malformed('GET, HEAD and OPTIONS read no body', async () => {
  const bad = '{bad';
  const get = await t.raw(head('GET', '/echo', { 'Content-Type': 'application/json', 'Content-Length': bad.length }) + bad);
  assert.is(get.status, 200);
  assert.equal(JSON.parse(get.text).jsonBody, {});
  const form = await t.raw(head('GET', '/echo', { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': 14 }) + '_method=DELETE');
  assert.is(JSON.parse(form.text).method, 'GET');
  assert.equal(JSON.parse(form.text).body, {});
  const headReq = await t.raw(head('HEAD', '/echo', { 'Content-Type': 'application/json', 'Content-Length': bad.length }) + bad);
  assert.is(headReq.status, 200);
  const options = await t.raw(head('OPTIONS', '/echo', { 'Content-Type': 'application/json', 'Content-Length': bad.length }) + bad);
  assert.is(options.status, 204);
  // a huge declared length is not a 413 either: nothing is read
  const huge = await t.raw(head('GET', '/echo', { 'Content-Type': 'application/json', 'Content-Length': 50 * MiB }));
  assert.is(huge.status, 200);
});

Malformed('a client that disconnects in the middle of a body does not disturb the server', async () => {
  const net = await import('node:net');
  const partial = [
    head('POST', '/echo', { 'Content-Type': 'application/json', 'Content-Length': 100 }) + '{"a":',
    head('POST', '/echo', { 'Content-Type': MULTIPART, 'Content-Length': 5000 }) + multipartOfSize(5000).subarray(0, 400).toString('latin1'),
    head('POST', '/echo', { 'Content-Type': 'application/octet-stream', 'Transfer-Encoding': 'chunked' }) + 'a\r\n01234',
  ];
  for (const payload of partial) {
    // Cut once the server has the request's head and is reading its body; over once the server's side is closed.
    const atServer = new Promise<Socket>((resolve) => t.server.once('request', (request: { socket: Socket }) => resolve(request.socket)));
    const socket = net.connect(t.port, '127.0.0.1', () => socket.write(payload));
    socket.on('error', () => undefined);
    const serverSide = await atServer;
    const closed = new Promise<void>((resolve) => (serverSide.destroyed ? resolve() : serverSide.once('close', () => resolve())));
    socket.destroy();
    await closed;
  }
  const r = await t.fetch('/echo', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"still":"alive"}' });
  assert.is(r.status, 200);
  assert.equal(r.json().jsonBody, { still: 'alive' });
  assert.not.ok(
    t.logs.records.some((rec) => rec.level === 'ERROR'),
    t.logs.text(),
  );
});

Malformed.run();

// --- _method ---

const Override = suite('http-body: _method override');
Override.before(setup);
Override.after(teardown);

const form = (fields: Record<string, string>): RequestInit => ({ method: 'POST', body: new URLSearchParams(fields) });

Override('POST + _method=DELETE reaches the DELETE route; originalMethod stays POST', async () => {
  const r = await t.fetch('/echo', form({ _method: 'DELETE', name: 'x' }));
  assert.is(r.status, 200);
  const body = r.json();
  assert.is(body.method, 'DELETE');
  assert.is(body.originalMethod, 'POST');
  assert.equal(body.body, { _method: ['DELETE'], name: ['x'] });
});

Override('PUT and PATCH (any case) are accepted', async () => {
  assert.is((await t.fetch('/echo', form({ _method: 'PUT' }))).json().method, 'PUT');
  assert.is((await t.fetch('/echo', form({ _method: 'patch' }))).json().method, 'PATCH');
});

Override('other values are ignored: the method stays POST', async () => {
  for (const value of ['GET', 'HEAD', 'OPTIONS', 'POST', 'TRACE', 'CONNECT', '']) {
    const r = await t.fetch('/echo', form({ _method: value }));
    assert.is(r.json().method, 'POST', value);
  }
});

Override('_method in the query string or in a JSON body does not count (form field only)', async () => {
  assert.is((await t.fetch('/echo?_method=DELETE', { method: 'POST' })).json().method, 'POST');
  const json = await t.fetch('/echo', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"_method":"DELETE"}' });
  assert.is(json.json().method, 'POST');
});

Override('_method on GET is ignored', async () => {
  const r = await t.fetch('/echo?_method=DELETE');
  assert.is(r.json().method, 'GET');
  assert.is(r.json().originalMethod, 'GET');
});

Override('_method in a multipart form', async () => {
  const r = await t.fetch('/echo', { method: 'POST', headers: { 'Content-Type': MULTIPART }, body: multipartOfSize(400, { _method: 'PATCH' }) });
  assert.is(r.json().method, 'PATCH');
  assert.is(r.json().originalMethod, 'POST');
});

Override('the overridden method is CSRF-checked', async () => {
  const r = await t.fetch('/guarded', form({ _method: 'DELETE' }));
  assert.is(r.status, 403);
});

Override.run();
