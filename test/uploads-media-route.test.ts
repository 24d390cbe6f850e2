/**
 * `GET /media/<path>` on a real server (docs/decisions.md#uploads-and-media): images public with Content-Type, ETag, Last-Modified, 304 and
 * HEAD; other categories behind the login (anonymous: the login redirect or the 401 envelope, whether the file exists
 * or not; signed in: the file, not stored by caches); 404 for folders, hidden files and missing files; 405 for other
 * methods; `media_public_categories` widens the public set; a type a browser would run is sent as a download.
 */
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { configure, mediaUrl, serveMediaFile } from '../runtime/index.js';
import { assertSecurityHeaders, sessionCookie } from './helpers/client.js';
import { startApp, type TestApp } from './helpers/server.js';
import { makeJpeg, multipart, uploadRoutes } from './helpers/uploads.js';

let app: TestApp;
let root: string;
let image: { path: string; variants: { medium: string; thumbnail: string } };
let jpegBytes: Buffer;
let docPath: string;
let cookie: string;

test.before(async () => {
  app = await startApp({ routes: uploadRoutes });
  root = path.join(app.project.root, 'storage', 'uploads');
  jpegBytes = await makeJpeg(800, 600);
  const up = multipart([
    { name: 'category', value: 'images' },
    { name: 'variants', value: '1' },
    { name: 'file', filename: 'été photo.jpg', type: 'image/jpeg', data: jpegBytes },
  ]);
  image = (await app.fetch('/api/upload', { method: 'POST', headers: { 'content-type': up.contentType }, body: up.body })).json().data;
  const doc = multipart([{ name: 'file', filename: 'contrat.pdf', type: 'application/pdf', data: '%PDF-1.4 contrat' }]);
  docPath = (await app.fetch('/api/upload', { method: 'POST', headers: { 'content-type': doc.contentType }, body: doc.body })).json().data.path;
  cookie = sessionCookie((await app.fetch('/signin')).cookies)!;
  assert.ok(cookie);
});
test.after(async () => {
  await app?.close();
});

test('a public image: bytes, Content-Type, ETag, Last-Modified, security headers', async () => {
  const response = await fetch(`${app.base}${mediaUrl(image.path)}`);
  assert.is(response.status, 200);
  assert.is(response.headers.get('content-type'), 'image/jpeg');
  assert.is(response.headers.get('content-length'), String(jpegBytes.length));
  assert.ok(Buffer.from(await response.arrayBuffer()).equals(jpegBytes));
  assert.match(response.headers.get('etag') ?? '', /^"[0-9a-f]+-[0-9a-f]+"$/);
  assert.ok(response.headers.get('last-modified'));
  assert.is(response.headers.get('cache-control'), 'no-cache');
  assert.is(response.headers.get('content-disposition'), null);
  assertSecurityHeaders(response.headers, 'media');
  for (const variant of [image.variants.medium, image.variants.thumbnail]) {
    assert.is((await app.fetch(mediaUrl(variant))).status, 200, variant);
  }
});

test('304 on If-None-Match and If-Modified-Since; HEAD without a body', async () => {
  const first = await app.fetch(mediaUrl(image.path));
  const etag = first.headers.get('etag')!;
  const again = await app.fetch(mediaUrl(image.path), { headers: { 'if-none-match': etag } });
  assert.is(again.status, 304);
  assert.is(again.text, '');
  assert.is(again.headers.get('etag'), etag);
  const since = await app.fetch(mediaUrl(image.path), { headers: { 'if-modified-since': first.headers.get('last-modified')! } });
  assert.is(since.status, 304);
  const stale = await app.fetch(mediaUrl(image.path), { headers: { 'if-none-match': 'W/"0-0"' } });
  assert.is(stale.status, 200);
  const head = await app.raw(`HEAD ${mediaUrl(image.path)} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
  assert.is(head.status, 200);
  assert.is(head.header('content-length'), String(jpegBytes.length));
  assert.is(head.body.length, 0);
});

test('a document, anonymous: the login redirect (or 401 for JSON) whether it exists or not; signed in: the file, no-store', async () => {
  const missing = 'documents/absent_00000000000000000000000000000000.pdf';
  for (const target of [docPath, missing]) {
    const anonymous = await app.fetch(mediaUrl(target));
    assert.is(anonymous.status, 302, target);
    assert.is(anonymous.headers.get('location'), `/login?next=${encodeURIComponent(mediaUrl(target))}`);
    assert.not.match(anonymous.text, 'contrat');
    const json = await app.fetch(mediaUrl(target), { headers: { accept: 'application/json' } });
    assert.is(json.status, 401);
    assert.is(json.json().error.code, 'unauthorized');
  }
  const signedIn = await app.fetch(mediaUrl(docPath), { headers: { cookie } });
  assert.is(signedIn.status, 200);
  assert.is(signedIn.text, '%PDF-1.4 contrat');
  assert.is(signedIn.headers.get('content-type'), 'application/pdf');
  assert.is(signedIn.headers.get('cache-control'), 'no-store');
  const etag = signedIn.headers.get('etag')!;
  assert.is((await app.fetch(mediaUrl(docPath), { headers: { cookie, 'if-none-match': etag } })).status, 304);
  assert.is((await app.fetch(mediaUrl(docPath), { headers: { 'if-none-match': etag } })).status, 302, 'a 304 never bypasses the login');
  assert.is((await app.fetch(mediaUrl(missing), { headers: { cookie } })).status, 404);
});

test('never a folder, a hidden file, a file at the root or a bad category; 405 with Allow for other methods', async () => {
  fs.writeFileSync(path.join(root, 'images', '.hidden.jpg'), 'hidden');
  fs.writeFileSync(path.join(root, 'loose.jpg'), 'loose');
  fs.mkdirSync(path.join(root, 'images', 'sub.jpg'));
  for (const url of [
    '/media/',
    '/media/images',
    '/media/images/',
    '/media/images/medium',
    '/media/images/medium/',
    '/media/images/sub.jpg',
    '/media/images/.hidden.jpg',
    '/media/loose.jpg',
    '/media/images/absent.jpg',
    '/media/bad%20category/x.jpg',
    '/media/images/%2ehidden.jpg',
  ]) {
    const response = await app.fetch(url, { headers: { cookie } });
    assert.is(response.status, 404, url);
    assert.not.match(response.text, /hidden|loose/, url);
  }
  const post = await app.fetch(mediaUrl(image.path), { method: 'POST', headers: { cookie } });
  assert.is(post.status, 405);
  assert.is(post.headers.get('allow'), 'GET, HEAD');
  // /media without the slash is an ordinary (here absent) route.
  assert.is((await app.fetch('/media')).status, 404);
});

test('media_public_categories widens the public set; a type a browser would run is a download', async () => {
  configure({ media_public_categories: ['images', 'documents'] });
  try {
    const open = await app.fetch(mediaUrl(docPath));
    assert.is(open.status, 200);
    assert.is(open.headers.get('cache-control'), 'no-cache');
  } finally {
    configure({ media_public_categories: ['images'] });
  }
  fs.writeFileSync(path.join(root, 'images', 'page.html'), '<script>alert(1)</script>');
  fs.writeFileSync(path.join(root, 'images', 'dessin.svg'), '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
  for (const name of ['page.html', 'dessin.svg']) {
    const response = await app.fetch(`/media/images/${name}`);
    assert.is(response.status, 200);
    assert.is(response.headers.get('content-disposition'), 'attachment', name);
    assert.is(response.headers.get('x-content-type-options'), 'nosniff');
  }
});

test('serveMediaFile alone: the file, or a bare 404 for an unsafe or missing path', () => {
  assert.is(serveMediaFile(image.path).status, 200);
  assert.is(serveMediaFile(image.path).filePath, path.join(root, image.path));
  for (const p of ['../secret', '/etc/passwd', 'images/absent.jpg', 'images', 'images/.hidden.jpg']) assert.is(serveMediaFile(p).status, 404, p);
  assert.is(mediaUrl('images/été photo.jpg'), '/media/images/%C3%A9t%C3%A9%20photo.jpg');
});

test('the application can turn the route off (media: false)', async () => {
  const bare = await startApp({ routes: uploadRoutes, options: { media: false } });
  try {
    fs.mkdirSync(path.join(bare.project.root, 'storage', 'uploads', 'images'), { recursive: true });
    fs.writeFileSync(path.join(bare.project.root, 'storage', 'uploads', 'images', 'a.jpg'), 'x');
    assert.is((await bare.fetch('/media/images/a.jpg')).status, 404);
  } finally {
    await bare.close();
  }
});

test.run();
