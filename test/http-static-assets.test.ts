/**
 * `fw build:assets` and what the runtime serves of it: fingerprinted copies kept a year (`immutable`), plain names
 * an hour outside development, the `.br` / `.gz` files on `Accept-Encoding`, and `asset_url()` in the layout.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { buildAssets } from '../cli/frontend/assets.js';
import { html } from '../runtime/app/html.js';
import { resetAssetManifest } from '../runtime/templates/asset-url.js';
import { startApp, type TestApp } from './helpers/server.js';

const CSS = `${'.card { color: #123456; margin: 0 auto; padding: 1rem; }\n'.repeat(60)}`;
const JS = `${'export const answer = () => 42;\n'.repeat(30)}`;

function get(base: string, url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(base + url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

let t: TestApp;
let manifest: Record<string, string>;
const S = suite('http-static-assets: fingerprints and precompressed files');
S.before(async () => {
  t = await startApp({
    files: { 'static/tailwind.css': CSS, 'static/js/app.js': JS, 'static/tiny.txt': 'tiny', 'static/src/input.css': '@import "tailwindcss";' },
    prepare: (project) => {
      const built = buildAssets(project.staticDir);
      assert.is(built.files, 3);
      assert.is(built.compressed, 2);
    },
    config: { app_env: 'prod' },
    options: (project) => ({ staticDirs: [project.staticDir] }),
    routes: (router) => router.add('GET', '/', () => html('layouts/base.html', 200, {}), { public: true }),
  });
  resetAssetManifest();
  manifest = (JSON.parse(fs.readFileSync(path.join(t.project.staticDir, 'assets-manifest.json'), 'utf8')) as { files: Record<string, string> }).files;
});
S.after(() => t.close());

S('the build writes a fingerprinted copy of each file, .gz and .br of the compressible ones, and leaves the sources out', () => {
  assert.match(manifest['tailwind.css']!, /^tailwind\.[0-9a-f]{16}\.css$/);
  assert.match(manifest['js/app.js']!, /^js\/app\.[0-9a-f]{16}\.js$/);
  assert.is(manifest['src/input.css'], undefined);
  const dir = t.project.staticDir;
  for (const name of ['tailwind.css', manifest['tailwind.css']!, 'js/app.js', manifest['js/app.js']!]) {
    assert.equal(zlib.gunzipSync(fs.readFileSync(path.join(dir, `${name}.gz`))).toString(), name.includes('css') ? CSS : JS);
    assert.equal(zlib.brotliDecompressSync(fs.readFileSync(path.join(dir, `${name}.br`))).toString(), name.includes('css') ? CSS : JS);
  }
  assert.not.ok(fs.existsSync(path.join(dir, 'tiny.txt.gz')), 'a 4-byte file is not compressed');
});

S('the layout links the fingerprinted names through asset_url()', async () => {
  const page = await get(t.base, '/');
  const text = page.body.toString();
  assert.ok(text.includes(`href="/static/${manifest['tailwind.css']}"`), text);
  assert.ok(text.includes(`src="/static/${manifest['js/app.js']}"`), text);
});

S('a fingerprinted name is kept a year (immutable), a plain name an hour', async () => {
  const fingerprinted = await get(t.base, `/static/${manifest['tailwind.css']}`);
  assert.is(fingerprinted.status, 200);
  assert.is(fingerprinted.headers['cache-control'], 'public, max-age=31536000, immutable');
  const plain = await get(t.base, '/static/tailwind.css');
  assert.is(plain.status, 200);
  assert.is(plain.headers['cache-control'], 'public, max-age=3600, must-revalidate');
  assert.is(plain.body.toString(), CSS);
});

S('Accept-Encoding: br gets the brotli file, gzip the gzip one, none the original; all Vary on it', async () => {
  const url = `/static/${manifest['tailwind.css']}`;
  const br = await get(t.base, url, { 'accept-encoding': 'gzip, deflate, br' });
  assert.is(br.headers['content-encoding'], 'br');
  assert.is(br.headers['content-type'], 'text/css; charset=utf-8');
  assert.is(br.headers.vary, 'Accept-Encoding');
  assert.is(Number(br.headers['content-length']), br.body.length);
  assert.ok(br.body.length < CSS.length / 4);
  assert.is(zlib.brotliDecompressSync(br.body).toString(), CSS);
  const gzip = await get(t.base, url, { 'accept-encoding': 'gzip' });
  assert.is(gzip.headers['content-encoding'], 'gzip');
  assert.is(zlib.gunzipSync(gzip.body).toString(), CSS);
  const refused = await get(t.base, url, { 'accept-encoding': 'br;q=0, gzip;q=0' });
  assert.is(refused.headers['content-encoding'], undefined);
  assert.is(refused.body.toString(), CSS);
  const none = await get(t.base, '/static/js/app.js');
  assert.is(none.headers['content-encoding'], undefined);
  assert.is(none.headers.vary, 'Accept-Encoding');
  assert.is(none.body.toString(), JS);
  const etagBr = br.headers.etag!;
  const again = await get(t.base, url, { 'accept-encoding': 'br', 'if-none-match': etagBr });
  assert.is(again.status, 304);
});

S('a second build after a change keeps the previous copy and drops older ones', () => {
  const dir = t.project.staticDir;
  const first = manifest['tailwind.css']!;
  fs.writeFileSync(path.join(dir, 'tailwind.css'), `${CSS}/* 2 */\n`);
  buildAssets(dir);
  const second = (JSON.parse(fs.readFileSync(path.join(dir, 'assets-manifest.json'), 'utf8')) as { files: Record<string, string> }).files['tailwind.css']!;
  assert.is.not(second, first);
  assert.ok(fs.existsSync(path.join(dir, first)) && fs.existsSync(path.join(dir, second)));
  fs.writeFileSync(path.join(dir, 'tailwind.css'), `${CSS}/* 3 */\n`);
  buildAssets(dir);
  assert.not.ok(fs.existsSync(path.join(dir, first)), 'two builds ago: removed');
  assert.not.ok(fs.existsSync(path.join(dir, `${first}.br`)));
  assert.ok(fs.existsSync(path.join(dir, second)));
});

S.run();
