/**
 * `/media` on a real server, conditional and range requests (RFC 9110): a strong ETag; `If-None-Match` compared
 * weakly (`W/"…"`, lists, `*`, a comma inside a tag); one byte range gives a 206 with `Content-Range`, a range past the
 * end a 416 with `Content-Range: bytes *\/size`, several ranges or a malformed header the whole file; `If-Range` with
 * the ETag (strong only) or the date; HEAD and 304 stay bodiless; the six security headers on every status.
 */
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mediaUrl } from '../runtime/index.js';
import { assertSecurityHeaders, sessionCookie } from './helpers/client.js';
import { startApp, type TestApp } from './helpers/server.js';
import { multipart, uploadRoutes } from './helpers/uploads.js';

let app: TestApp;
let cookie: string;
let doc: string;
/** 1000 bytes, each byte its index modulo 251, so that any slice is recognisable. */
const BYTES = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));
const SIZE = BYTES.length;

test.before(async () => {
  app = await startApp({ routes: uploadRoutes });
  const form = multipart([
    { name: 'file', filename: 'rapport.pdf', type: 'application/pdf', data: Buffer.concat([Buffer.from('%PDF-1.4 '), BYTES.subarray(9)]) },
  ]);
  const saved = await app.fetch('/api/upload', { method: 'POST', headers: { 'content-type': form.contentType }, body: form.body });
  doc = mediaUrl(saved.json().data.path);
  BYTES.write('%PDF-1.4 ', 0, 'latin1');
  cookie = sessionCookie((await app.fetch('/signin')).cookies)!;
});
test.after(async () => {
  await app?.close();
});

async function get(headers: Record<string, string> = {}, method = 'GET'): Promise<{ status: number; headers: Headers; body: Buffer }> {
  const response = await fetch(`${app.base}${doc}`, { method, headers: { cookie, ...headers }, redirect: 'manual' });
  return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
}

test('the whole file: strong ETag, Accept-Ranges: bytes', async () => {
  const whole = await get();
  assert.is(whole.status, 200);
  assert.ok(whole.body.equals(BYTES));
  assert.match(whole.headers.get('etag') ?? '', /^"[0-9a-f]+-[0-9a-f]+"$/);
  assert.is(whole.headers.get('accept-ranges'), 'bytes');
  assert.is(whole.headers.get('content-length'), String(SIZE));
});

test('If-None-Match, weak comparison: the tag, its weak form, lists, * and a comma inside a tag give 304', async () => {
  const etag = (await get()).headers.get('etag')!;
  for (const value of [etag, `W/${etag}`, `"a", W/${etag}`, `W/"b",${etag}`, '*', `"x,y", ${etag}`, ` ${etag} `]) {
    const fresh = await get({ 'if-none-match': value });
    assert.is(fresh.status, 304, value);
    assert.is(fresh.body.length, 0, value);
    assert.is(fresh.headers.get('etag'), etag);
    assertSecurityHeaders(fresh.headers, `304 ${value}`);
  }
  for (const value of ['"other"', 'W/"other"', `"a", "b"`, `"x,${etag.slice(1)}`, 'garbage', '"a", *', `W/"q,${etag}`]) {
    assert.is((await get({ 'if-none-match': value })).status, 200, value);
  }
});

test('one byte range: 206 with Content-Range and exactly those bytes', async () => {
  const cases: Array<[string, number, number]> = [
    ['bytes=0-99', 0, 99],
    ['bytes=100-', 100, SIZE - 1],
    ['bytes=-50', SIZE - 50, SIZE - 1],
    ['bytes=900-5000', 900, SIZE - 1],
    ['bytes=-5000', 0, SIZE - 1],
    ['bytes=999-999', 999, 999],
    ['bytes = 10 - 19', 10, 19],
    ['bytes=0-0,', 0, 0],
  ];
  for (const [range, start, end] of cases) {
    const part = await get({ range });
    assert.is(part.status, 206, range);
    assert.is(part.headers.get('content-range'), `bytes ${start}-${end}/${SIZE}`, range);
    assert.is(part.headers.get('content-length'), String(end - start + 1), range);
    assert.is(part.headers.get('content-type'), 'application/pdf', range);
    assert.is(part.headers.get('accept-ranges'), 'bytes', range);
    assert.ok(part.body.equals(BYTES.subarray(start, end + 1)), range);
    assertSecurityHeaders(part.headers, `206 ${range}`);
  }
});

test('a range past the end: 416 with Content-Range: bytes */size', async () => {
  for (const range of [`bytes=${SIZE}-`, `bytes=${SIZE + 10}-${SIZE + 20}`, 'bytes=-0', `bytes=${SIZE}-,${SIZE + 5}-`]) {
    const refused = await get({ range });
    assert.is(refused.status, 416, range);
    assert.is(refused.headers.get('content-range'), `bytes */${SIZE}`, range);
    assert.not.ok(refused.body.includes(Buffer.from('%PDF')), range);
    assertSecurityHeaders(refused.headers, `416 ${range}`);
  }
});

test('several ranges, a malformed header, another unit, HEAD: the whole file (200)', async () => {
  for (const range of ['bytes=0-1,5-6', 'bytes=abc', 'bytes=5-1', 'items=0-1', 'bytes=', 'bytes=--1']) {
    const whole = await get({ range });
    assert.is(whole.status, 200, range);
    assert.ok(whole.body.equals(BYTES), range);
  }
  const head = await get({ range: 'bytes=0-9' }, 'HEAD');
  assert.is(head.status, 200);
  assert.is(head.headers.get('content-length'), String(SIZE));
  assert.is(head.body.length, 0);
});

test('If-Range: the current strong ETag gives the range; another tag, a weak one or a recent date the whole file', async () => {
  const etag = (await get()).headers.get('etag')!;
  assert.is((await get({ range: 'bytes=0-9', 'if-range': etag })).status, 206);
  for (const ifRange of ['"other"', `W/${etag}`, 'not a date']) {
    const whole = await get({ range: 'bytes=0-9', 'if-range': ifRange });
    assert.is(whole.status, 200, ifRange);
    assert.ok(whole.body.equals(BYTES), ifRange);
  }
  // A date validates only when it is Last-Modified exactly and at least a second old (else it is weak).
  const file = path.join(app.project.root, 'storage', 'uploads', decodeURIComponent(doc.slice('/media/'.length)));
  const old = new Date(Date.now() - 3_600_000);
  fs.utimesSync(file, old, old);
  const lastModified = (await get()).headers.get('last-modified')!;
  assert.is((await get({ range: 'bytes=0-9', 'if-range': lastModified })).status, 206);
  assert.is((await get({ range: 'bytes=0-9', 'if-range': new Date(old.getTime() - 60_000).toUTCString() })).status, 200);
  // If-None-Match is answered first: a fresh copy is a 304, not a 206.
  assert.is((await get({ range: 'bytes=0-9', 'if-none-match': (await get()).headers.get('etag')! })).status, 304);
});

test.run();
