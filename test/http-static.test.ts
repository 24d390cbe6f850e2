/** Static files: types, validators, 304, HEAD, and containment (path traversal never escapes `static/`). */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { serveStatic } from '../runtime/http/static.js';
import { assertSecurityHeaders } from './helpers/client.js';
import { startApp, type TestApp } from './helpers/server.js';

const SECRET = 'TOP-SECRET-4b1d9e-never-served';
// A 1x1 transparent PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
const CSS = 'body { color: #123456; }\n';
const JS = 'export const answer = 42;\n';
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>';
/** Over three 64 KiB read buffers, with a tail. */
const BIG = randomBytes(200_000);
const GROWN = 'the file as it was when the response was made\n';

const files = {
  'secret.txt': SECRET,
  'static/secret.txt.bak': 'not the secret',
  'static/app.css': CSS,
  'static/app.js': JS,
  'static/logo.png': PNG,
  'static/icon.svg': SVG,
  'static/a.css': 'a{}',
  'static/sub/deep.txt': 'deep',
  'static2/only-in-second.txt': 'second root',
  'static2/app.css': 'shadowed',
  'static/empty.txt': '',
  'static/big.bin': BIG,
  'static/grow.txt': GROWN,
};

let t: TestApp;
const S = suite('http-static: serving');
S.before(async () => {
  t = await startApp({
    files,
    prepare: (project) => {
      fs.symlinkSync(path.join(project.root, 'secret.txt'), path.join(project.staticDir, 'link.txt'));
      fs.symlinkSync(project.root, path.join(project.staticDir, 'up'));
      fs.symlinkSync(path.join(project.staticDir, 'app.css'), path.join(project.staticDir, 'alias.css'));
    },
    options: (project) => ({ staticDirs: [project.staticDir, path.join(project.root, 'static2')] }),
    routes: (router) => {
      // The response is made (the file stat'ed), then the file grows before the response is written.
      router.add(
        'GET',
        '/grown',
        (request) => {
          const response = serveStatic(request, [t.project.staticDir], 'grow.txt');
          fs.appendFileSync(path.join(t.project.staticDir, 'grow.txt'), 'EXTRA BYTES');
          return response!;
        },
        { public: true },
      );
    },
  });
});
S.after(() => t.close());

S('Content-Type, Content-Length and body for .css, .js, .png, .svg', async () => {
  const cases: Array<[string, string, Buffer]> = [
    ['/static/app.css', 'text/css; charset=utf-8', Buffer.from(CSS)],
    ['/static/app.js', 'text/javascript; charset=utf-8', Buffer.from(JS)],
    ['/static/logo.png', 'image/png', PNG],
    ['/static/icon.svg', 'image/svg+xml', Buffer.from(SVG)],
  ];
  for (const [url, type, bytes] of cases) {
    const response = await fetch(t.base + url);
    assert.is(response.status, 200, url);
    assert.is(response.headers.get('content-type'), type, url);
    assert.is(response.headers.get('content-length'), String(bytes.length), url);
    assert.ok(Buffer.from(await response.arrayBuffer()).equals(bytes), url);
    assertSecurityHeaders(response.headers, url);
  }
});

S('ETag and Last-Modified; 304 on If-None-Match and If-Modified-Since', async () => {
  const first = await t.fetch('/static/app.css');
  const etag = first.headers.get('etag')!;
  const lastModified = first.headers.get('last-modified')!;
  assert.match(etag, /^W\/"[0-9a-f]+-[0-9a-f]+"$/);
  const mtime = fs.statSync(path.join(t.project.staticDir, 'app.css')).mtime;
  assert.is(lastModified, new Date(Math.floor(mtime.getTime() / 1000) * 1000).toUTCString());

  // Weak comparison (RFC 9110): the weak tag, its strong form, lists with either, `*`, a comma inside another tag.
  for (const value of [etag, etag.slice(2), `"other", ${etag}`, '*', `W/"a",${etag.slice(2)}`, `"x,y", W/"z", ${etag}`]) {
    const r = await t.fetch('/static/app.css', { headers: { 'If-None-Match': value } });
    assert.is(r.status, 304, value);
    assert.is(r.text, '');
    assert.is(r.headers.get('etag'), etag);
    assertSecurityHeaders(r.headers, `304 ${value}`);
  }
  // Not a valid list: `*` only stands alone, and a tag ends at its closing quote (these were a 304 before).
  for (const value of ['"nope"', 'W/"nope"', `"x,${etag.slice(3)}`, 'garbage', '"a", *', `W/"q,${etag.slice(2)}`]) {
    assert.is((await t.fetch('/static/app.css', { headers: { 'If-None-Match': value } })).status, 200, value);
  }
  assert.is(first.headers.get('accept-ranges'), null, 'no ranges on /static');

  const since = await t.fetch('/static/app.css', { headers: { 'If-Modified-Since': lastModified } });
  assert.is(since.status, 304);
  assertSecurityHeaders(since.headers, '304 since');
  const older = new Date(mtime.getTime() - 3_600_000).toUTCString();
  assert.is((await t.fetch('/static/app.css', { headers: { 'If-Modified-Since': older } })).status, 200);
  assert.is((await t.fetch('/static/app.css', { headers: { 'If-Modified-Since': 'not a date' } })).status, 200);
  // If-None-Match wins over If-Modified-Since
  assert.is((await t.fetch('/static/app.css', { headers: { 'If-None-Match': '"nope"', 'If-Modified-Since': lastModified } })).status, 200);
});

S('HEAD: headers and Content-Length, no body', async () => {
  const r = await t.raw('HEAD /static/logo.png HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
  assert.is(r.status, 200);
  assert.is(r.header('content-type'), 'image/png');
  assert.is(r.header('content-length'), String(PNG.length));
  assert.ok(r.header('etag'));
  assert.is(r.body.length, 0);
  assertSecurityHeaders(r, 'HEAD static');
});

S('other methods: 405 Allow: GET, HEAD; missing file and folder: 404 page', async () => {
  const post = await t.fetch('/static/app.css', { method: 'POST' });
  assert.is(post.status, 405);
  assert.is(post.headers.get('allow'), 'GET, HEAD');
  for (const url of ['/static/missing.css', '/static/sub', '/static/sub/', '/static/']) {
    const r = await t.fetch(url);
    assert.is(r.status, 404, url);
    assert.is(r.headers.get('content-type'), 'text/html; charset=utf-8');
    assertSecurityHeaders(r.headers, url);
  }
});

S('several roots: the first that holds the file wins, then the next', async () => {
  assert.is((await t.fetch('/static/app.css')).text, CSS);
  assert.is((await t.fetch('/static/only-in-second.txt')).text, 'second root');
  assert.is((await t.fetch('/static/sub/deep.txt')).text, 'deep');
  assert.is((await t.fetch('/static/alias.css')).text, CSS, 'a link that stays inside is fine');
  assert.is((await t.fetch('/static/app.css?v=123')).text, CSS, 'a cache-busting query string is ignored');
});

S('path traversal never serves a file outside static/: always the 404 page, never 500', async () => {
  const attempts = [
    '/static/../secret.txt',
    '/static/%2e%2e/secret.txt',
    '/static/%2E%2E%2Fsecret.txt',
    '/static/..%2fsecret.txt',
    '/static/..%5csecret.txt',
    '/static/%252e%252e/secret.txt',
    '/static/%252e%252e%252fsecret.txt',
    '/static/a%00.css',
    '/static/a.css%00',
    '/static/..\\secret.txt',
    '/static/sub/../../secret.txt',
    '/static/sub/..%2f..%2fsecret.txt',
    '/static/.%2e/secret.txt',
    '/static//etc/passwd',
    '/static/%2fetc%2fpasswd',
    '/static/C:%5cwindows%5cwin.ini',
    '/static/link.txt',
    '/static/up/secret.txt',
    '/static/%E0%A4%A',
    '/static/%',
  ];
  for (const url of attempts) {
    for (const method of ['GET', 'HEAD']) {
      const r = await t.raw(`${method} ${url} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
      assert.is(r.status, 404, `${method} ${url}`);
      assertSecurityHeaders(r, `${method} ${url}`);
      assert.not.ok(r.text.includes(SECRET), `${method} ${url} leaked the secret`);
    }
  }
  for (const url of attempts.filter((u) => !u.includes('\\') && !u.includes('/../'))) {
    const r = await t.fetch(url);
    assert.is(r.status, 404, `fetch ${url}`);
    assert.not.ok(r.text.includes(SECRET), `fetch ${url} leaked the secret`);
  }
  assert.not.ok(
    t.logs.records.some((r) => r.level === 'ERROR'),
    'no error logged',
  );
});

S('an empty file and a file over several read buffers: exactly their bytes', async () => {
  const empty = await t.fetch('/static/empty.txt');
  assert.is(empty.status, 200);
  assert.is(empty.headers.get('content-length'), '0');
  assert.is(empty.text, '');
  const big = await fetch(t.base + '/static/big.bin');
  assert.is(big.status, 200);
  assert.is(big.headers.get('content-length'), String(BIG.length));
  assert.ok(Buffer.from(await big.arrayBuffer()).equals(BIG), 'same bytes');
});

/** Everything the server sends on one connection for these pipelined requests, until it closes. */
function rawExchange(port: number, payload: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(payload));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks)));
  });
}

S('a file grown after its stat: the body stops at the announced Content-Length; the next response follows it', async () => {
  const data = await rawExchange(
    t.port,
    'GET /grown HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /static/a.css HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n',
  );
  const headEnd = data.indexOf('\r\n\r\n');
  const head = data.subarray(0, headEnd).toString('latin1');
  assert.match(head, /^HTTP\/1\.1 200 /);
  assert.match(head, new RegExp(`\r\ncontent-length: ${Buffer.byteLength(GROWN)}\r\n`, 'i'));
  const bodyEnd = headEnd + 4 + Buffer.byteLength(GROWN);
  assert.is(data.subarray(headEnd + 4, bodyEnd).toString('utf8'), GROWN);
  const rest = data.subarray(bodyEnd).toString('latin1');
  assert.ok(rest.startsWith('HTTP/1.1 200 '), `the second response must follow the announced body at once: ${JSON.stringify(rest.slice(0, 40))}`);
  assert.ok(rest.endsWith('\r\n\r\na{}'), 'the second response is whole');
});

S.run();
