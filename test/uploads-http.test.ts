/**
 * The upload flow of docs/uploads.md over HTTP, on a real server: a JSON endpoint answers 201 with the SavedUpload; a
 * forbidden extension, an oversized file and a missing field answer 422 and create no file; a declared
 * Content-Length over the multipart limit is refused (413) before the body is read; an empty file is accepted.
 * Then the upload limit (10 requests carrying a file per address per 60 s; the 11th is a 429 with Retry-After) with
 * the memory store and the database store on both dialects.
 */
import path from 'node:path';
import sharp from 'sharp';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  DatabaseRateLimitStore,
  configure,
  MemoryRateLimitStore,
  UPLOAD_MAX_PER_WINDOW,
  UPLOAD_RATE_LIMIT_WINDOW,
  isUploadRateLimited,
  recordUploadAttempt,
  setRateLimitStore,
} from '../runtime/index.js';
import { startApp, type TestApp } from './helpers/server.js';
import { listFiles, makeJpeg, multipart, openMediaDatabase, uploadRoutes, type Part } from './helpers/uploads.js';
import { DIALECTS } from './helpers/dialects.js';

const PDF = Buffer.from('%PDF-1.4\n% test\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');

function post(app: TestApp, parts: readonly Part[], headers: Record<string, string> = {}) {
  const { body, contentType } = multipart(parts);
  return app.fetch('/api/upload', { method: 'POST', headers: { 'content-type': contentType, ...headers }, body });
}

const flow = suite('POST /api/upload: 201, 422 without a file written, 413 before parsing');
let app: TestApp;
let root: string;

flow.before(async () => {
  app = await startApp({ routes: uploadRoutes });
  root = path.join(app.project.root, 'storage', 'uploads');
});
flow.after(async () => {
  await app?.close();
  setRateLimitStore(null);
});
flow.before.each(() => setRateLimitStore(new MemoryRateLimitStore()));

flow('a valid document: 201 and the SavedUpload; the bytes are on disk', async () => {
  const response = await post(app, [{ name: 'file', filename: 'Facture mars.pdf', type: 'application/pdf', data: PDF }]);
  assert.is(response.status, 201, response.text);
  const { success, data } = response.json();
  assert.is(success, true);
  assert.equal(Object.keys(data).sort(), ['filename', 'path', 'size']);
  assert.match(data.path, /^documents\/Facture_mars_[0-9a-f]{32}\.pdf$/);
  assert.is(data.filename, data.path.slice('documents/'.length));
  assert.is(data.size, PDF.length);
  assert.equal(listFiles(root), [data.path]);
});

flow('an image with variants: 201, the three paths, the variants on disk at their size', async () => {
  const jpeg = await makeJpeg(2000, 1500);
  const response = await post(app, [
    { name: 'category', value: 'images' },
    { name: 'variants', value: '1' },
    { name: 'file', filename: 'photo.jpg', type: 'image/jpeg', data: jpeg },
  ]);
  assert.is(response.status, 201, response.text);
  const { data } = response.json();
  assert.equal(data.variants, { medium: `images/medium/${data.filename}`, thumbnail: `images/thumbnail/${data.filename}` });
  const thumb = await sharp(path.join(root, data.variants.thumbnail)).metadata();
  assert.equal([thumb.width, thumb.height], [300, 225]);
});

flow('an image stored under the extension of its bytes: JPEG named .png → .jpg (variants too), PNG named .jpg → .png; none allowed: 422', async () => {
  const jpeg = await makeJpeg(400, 300);
  const png = await sharp({ create: { width: 320, height: 200, channels: 3, background: '#2a6' } })
    .png()
    .toBuffer();
  const send = (filename: string, type: string, data: Buffer, variants: boolean) =>
    post(app, [{ name: 'category', value: 'images' }, ...(variants ? [{ name: 'variants', value: '1' }] : []), { name: 'file', filename, type, data }]);
  const named = await send('vacances.png', 'image/png', jpeg, true);
  assert.is(named.status, 201, named.text);
  const saved = named.json().data;
  assert.match(saved.path, /^images\/vacances_[0-9a-f]{32}\.jpg$/);
  assert.equal(saved.variants, { medium: `images/medium/${saved.filename}`, thumbnail: `images/thumbnail/${saved.filename}` });
  for (const stored of [saved.path, saved.variants.medium, saved.variants.thumbnail]) {
    assert.is((await sharp(path.join(root, stored)).metadata()).format, 'jpeg', stored);
  }
  const reverse = await send('scan.final.JPG', 'image/jpeg', png, false);
  assert.is(reverse.status, 201, reverse.text);
  assert.match(reverse.json().data.path, /^images\/scan\.final_[0-9a-f]{32}\.png$/);
  assert.is((await sharp(path.join(root, reverse.json().data.path)).metadata()).format, 'png');
  // A name that already says the format is kept as sent (jpeg stays jpeg).
  const kept = await send('photo.jpeg', 'image/jpeg', jpeg, false);
  assert.match(kept.json().data.path, /\.jpeg$/);
  const before = listFiles(root);
  configure({ upload_allowed_extensions: ['png', 'pdf'] });
  try {
    const refused = await send('vacances.png', 'image/png', jpeg, true);
    assert.is(refused.status, 422, refused.text);
    assert.is(
      refused.json().error.details.file,
      "Le fichier « vacances.png » contient une image JPEG, dont l'extension (jpg, jpeg) n'est pas acceptée : extensions acceptées : png, pdf.",
    );
  } finally {
    configure({ upload_allowed_extensions: ['jpg', 'jpeg', 'png', 'webp', 'pdf'] });
  }
  assert.equal(listFiles(root), before);
});

flow('a forbidden extension, an oversized file, a wrong type, a missing field: 422 naming the field, no file created', async () => {
  const before = listFiles(root);
  const cases: Array<[string, Part[], RegExp]> = [
    ['extension', [{ name: 'file', filename: 'script.jpg.php', type: 'image/jpeg', data: 'x' }], /« script\.jpg\.php ».*« php »/],
    ['oversized', [{ name: 'file', filename: 'gros.pdf', type: 'application/pdf', data: Buffer.alloc(5_242_881, 0x41) }], /5242880 octets/],
    ['mime', [{ name: 'file', filename: 'page.pdf', type: 'text/html', data: '<script>' }], /« text\/html »/],
    ['missing', [{ name: 'other', value: 'x' }], /requis/],
    ['no file chosen', [{ name: 'file', filename: '', type: 'application/octet-stream', data: '' }], /requis/],
    [
      'not an image',
      [
        { name: 'category', value: 'images' },
        { name: 'variants', value: '1' },
        { name: 'file', filename: 'faux.jpg', type: 'image/jpeg', data: 'GIF89a not really' },
      ],
      /pas une image lisible/,
    ],
  ];
  for (const [label, parts, message] of cases) {
    const response = await post(app, parts, { accept: 'application/json' });
    assert.is(response.status, 422, `${label}: ${response.text}`);
    const { error } = response.json();
    assert.is(error.code, 'validation_error', label);
    assert.match(error.message, message, label);
    assert.ok(typeof error.details.file === 'string', label);
    assert.equal(listFiles(root), before, `${label}: no file`);
  }
});

flow('the exact limit passes; an empty file is accepted (size 0)', async () => {
  const exact = await post(app, [{ name: 'file', filename: 'limite.pdf', type: 'application/pdf', data: Buffer.alloc(5_242_880, 0x41) }]);
  assert.is(exact.status, 201, exact.text);
  assert.is(exact.json().data.size, 5_242_880);
  const empty = await post(app, [{ name: 'file', filename: 'vide.pdf', type: 'application/pdf', data: '' }]);
  assert.is(empty.status, 201, empty.text);
  assert.is(empty.json().data.size, 0);
  assert.ok(listFiles(root).includes(empty.json().data.path));
});

flow('a declared Content-Length over the multipart cap (body_max_size + 4 × upload_max_size): 413 before the body is read, nothing written', async () => {
  const before = listFiles(root);
  const limit = 1_048_576 + 4 * 5_242_880;
  const head = `POST /api/upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=x\r\nContent-Length: ${limit + 1}\r\nAccept: application/json\r\n\r\n`;
  // Only the head is sent: the answer comes without waiting for any byte of the body.
  const response = await app.raw(head, { timeoutMs: 5000 });
  assert.is(response.status, 413);
  assert.is(JSON.parse(response.text).error.code, 'payload_too_large');
  assert.match(JSON.parse(response.text).error.message, String(limit));
  assert.equal(listFiles(root), before);
  // Just under: read and parsed, the file over upload_max_size refused under its field (422) with its real size.
  const big = Buffer.alloc(limit - 400, 0x41);
  const under = await post(app, [{ name: 'file', filename: 'x.pdf', type: 'application/pdf', data: big }], { accept: 'application/json' });
  assert.is(under.status, 422, under.text);
  assert.match(under.json().error.details.file, `(${big.length} octets) : la taille maximale est 5 Mo (5242880 octets)`);
  assert.equal(listFiles(root), before);
});

flow('a multiple file input: every part of the field, in order (request.getFiles)', async () => {
  const { body, contentType } = multipart([
    { name: 'photos', filename: 'a.jpg', type: 'image/jpeg', data: 'aa' },
    { name: 'photos', filename: 'b.jpg', type: 'image/jpeg', data: 'bbb' },
    { name: 'other', filename: 'c.jpg', type: 'image/jpeg', data: 'c' },
  ]);
  const response = await app.fetch('/api/files', { method: 'POST', headers: { 'content-type': contentType }, body });
  assert.equal(response.json().data, [
    ['a.jpg', 2],
    ['b.jpg', 3],
  ]);
});

flow.run();

// --- the upload limit, per store ---

async function limitScenario(app: TestApp): Promise<void> {
  for (let i = 0; i < 3; i++) {
    const none = await post(app, [{ name: 'other', value: 'x' }]);
    assert.is(none.status, 422, 'requests without a file are not counted');
  }
  for (let i = 0; i < UPLOAD_MAX_PER_WINDOW; i++) {
    const ok = await post(app, [{ name: 'file', filename: `f${i}.pdf`, type: 'application/pdf', data: PDF }]);
    assert.is(ok.status, 201, `upload ${i + 1}: ${ok.text}`);
  }
  const before = listFiles(path.join(app.project.root, 'storage', 'uploads'));
  const refused = await post(app, [{ name: 'file', filename: 'f11.pdf', type: 'application/pdf', data: PDF }]);
  assert.is(refused.status, 429, refused.text);
  const retryAfter = Number(refused.headers.get('retry-after'));
  assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= UPLOAD_RATE_LIMIT_WINDOW, `Retry-After ${retryAfter}`);
  assert.is(refused.json().error.code, 'rate_limited');
  assert.match(refused.json().error.message, /10 au plus par minute/);
  assert.equal(listFiles(path.join(app.project.root, 'storage', 'uploads')), before, 'the refused upload wrote nothing');
  // Still refused, and still not counted.
  const { body, contentType } = multipart([{ name: 'file', filename: 'f12.pdf', type: 'application/pdf', data: PDF }]);
  const page = await app.fetch('/api/upload', { method: 'POST', headers: { 'content-type': contentType }, body });
  assert.is(page.status, 429);
  assert.ok(page.headers.get('retry-after'));
  assert.is(await isUploadRateLimited('127.0.0.1'), true);
  assert.is(await isUploadRateLimited('127.0.0.2'), false, 'another address is free');
}

const memory = suite('upload limit: memory store');
memory('the 11th upload within 60 s is a 429 with Retry-After; the window slides', async () => {
  const store = new MemoryRateLimitStore();
  setRateLimitStore(store);
  const served = await startApp({ routes: uploadRoutes });
  try {
    await limitScenario(served);
    // Sliding: attempts recorded 61 s ago no longer count.
    const past = Date.now() - 61_000;
    for (let i = 0; i < UPLOAD_MAX_PER_WINDOW; i++) await recordUploadAttempt('10.0.0.9', past);
    assert.is(await isUploadRateLimited('10.0.0.9'), false);
    assert.is(await isUploadRateLimited('10.0.0.9', past + 1000), true);
  } finally {
    await served.close();
    setRateLimitStore(null);
  }
});
memory.run();

for (const dialect of DIALECTS) {
  const t = suite(`upload limit: database store (${dialect})`);
  t('the 11th upload is a 429; the attempts are rows of auth_rate_limit_attempts, action upload', async () => {
    const database = await openMediaDatabase(dialect);
    setRateLimitStore(new DatabaseRateLimitStore({ database: database.db }));
    const served = await startApp({ routes: uploadRoutes, config: database.config });
    try {
      await limitScenario(served);
      const row = await database.db.fetchOne<{ n: unknown }>(
        "SELECT COUNT(*) AS n FROM auth_rate_limit_attempts WHERE action = 'upload' AND rate_key = 'ip:127.0.0.1'",
      );
      assert.is(Number(row?.n), UPLOAD_MAX_PER_WINDOW, 'refused requests are not counted');
    } finally {
      await served.close();
      setRateLimitStore(null);
      await database.close();
    }
  });
  t.run();
}
