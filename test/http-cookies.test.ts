/**
 * What `request.cookies` gives for a `Cookie` header (runtime/http/request.ts, read by the `cookie` package:
 * docs/decisions.md "Cookies read by the cookie package"): the first of two cookies of the same name, values as sent
 * (no URL decoding, quotes kept, `=` inside kept), parts without a name skipped, no name reaching the prototype; over
 * a real server, several `Cookie` lines are one list, and a session id is found beside an 8 KiB cookie.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Request, Response } from '../runtime/index.js';
import { startApp, type TestApp } from './helpers/server.js';

const test = suite('http: cookies of a request');

function cookiesOf(header: string | undefined): Record<string, string> {
  return new Request({ headers: header === undefined ? {} : { cookie: header } }).cookies;
}

test('names and values, spaces and tabs around them trimmed', () => {
  assert.equal({ ...cookiesOf('a=1; b=2;c=3 ;\td = 4\t') }, { a: '1', b: '2', c: '3', d: '4' });
  assert.equal({ ...cookiesOf('') }, {});
  assert.equal({ ...cookiesOf(undefined) }, {});
  assert.equal({ ...cookiesOf('empty=; a=1') }, { empty: '', a: '1' });
});

test('of two cookies of the same name, the first (the browser sends the most specific path first)', () => {
  assert.equal({ ...cookiesOf('session_id=path; other=x; session_id=root') }, { session_id: 'path', other: 'x' });
});

test('values as sent: percent sequences, broken ones, quotes and = are kept', () => {
  assert.equal(
    { ...cookiesOf('enc=a%20b%3Bc; broken=%E0%A4%A; quoted="v 1"; b64=YWJj==; json={"k":1}') },
    { enc: 'a%20b%3Bc', broken: '%E0%A4%A', quoted: '"v 1"', b64: 'YWJj==', json: '{"k":1}' },
  );
});

test('a part without = is skipped and the next ones are read', () => {
  assert.equal({ ...cookiesOf('flag; a=1; other flag ; b=2') }, { a: '1', b: '2' });
});

test('names like __proto__ or constructor are plain entries, and an object inherits no name', () => {
  const cookies = cookiesOf('__proto__=x; constructor=y; toString=z');
  assert.equal(Object.keys(cookies), ['__proto__', 'constructor', 'toString']);
  assert.is(cookies['__proto__'], 'x');
  assert.is(cookies['toString'], 'z');
  const plain = cookiesOf('a=1');
  for (const name of ['toString', 'constructor', 'hasOwnProperty', '__proto__']) assert.not.ok(name in plain, `${name} is not a cookie`);
});

let app: TestApp;
test.before(async () => {
  app = await startApp({
    routes: (router) =>
      router.add('GET', '/cookies', (request) => new Response(200, JSON.stringify({ ...request.cookies }), 'application/json'), { public: true }),
  });
});
test.after(async () => {
  await app.close();
});

test('over a real server: several Cookie lines are one list, and a session id is found beside an 8 KiB cookie', async () => {
  const raw = await app.raw(`GET /cookies HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: a=1; b=2\r\nCookie: c=3; a=4\r\nConnection: close\r\n\r\n`);
  assert.is(raw.status, 200, raw.text);
  assert.equal(JSON.parse(raw.text), { a: '1', b: '2', c: '3' });
  const id = 'f'.repeat(64);
  const big = await app.fetch('/cookies', { headers: { cookie: `prefs=${'x'.repeat(8192)}; session_id=${id}` } });
  assert.is(big.status, 200, big.text);
  const cookies = JSON.parse(big.text) as Record<string, string>;
  assert.is(cookies.session_id, id);
  assert.is(cookies.prefs?.length, 8192);
});

test.run();
