/**
 * Image work bounded (docs/uploads.md "Image processing and memory"), on a real server: an image over
 * `upload_max_pixels` (50 million by default) answers 422 with a French message naming its size and the limit, before
 * any decoding and with no file written; sharp runs in one child process of the server, which stops once idle (its
 * memory goes back to the system) and starts again for the next image; killed during a job, that upload is a 500 with
 * no file written.
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { IMAGE_PROCESS_IDLE_MS, MemoryRateLimitStore, UploadTooManyPixelsError, configure, get, setRateLimitStore } from '../runtime/index.js';
import { startApp, type TestApp } from './helpers/server.js';
import { listFiles, multipart, uploadRoutes } from './helpers/uploads.js';

/** The image processes started by this process (children running image-worker.js). */
function imageProcesses(): number[] {
  const pids = fs
    .readdirSync(`/proc/${process.pid}/task`)
    .flatMap((task) => fs.readFileSync(`/proc/${process.pid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number));
  return pids.filter((pid) => {
    try {
      return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('image-worker.js');
    } catch {
      return false;
    }
  });
}

/** Waits until `check` holds, looking every 50 ms (at most `limitMs`, a bound for a loaded machine, not a measure). */
async function eventually(check: () => boolean, limitMs: number): Promise<boolean> {
  const end = Date.now() + limitMs;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

const t = suite('image processing: pixel limit, one image process that stops when idle');
let app: TestApp;
let root: string;

t.before(async () => {
  app = await startApp({ routes: uploadRoutes });
  root = path.join(app.project.root, 'storage', 'uploads');
});
// A fresh upload limit for each test (10 requests with a file per minute).
t.before.each(() => setRateLimitStore(new MemoryRateLimitStore()));
t.after(async () => {
  await app?.close();
  setRateLimitStore(null);
  configure({ upload_max_pixels: 50_000_000 });
});

const send = (filename: string, data: Buffer, variants = true) => {
  const { body, contentType } = multipart([
    { name: 'category', value: 'images' },
    ...(variants ? [{ name: 'variants', value: '1' }] : []),
    { name: 'file', filename, type: 'image/png', data },
  ]);
  return app.fetch('/api/upload', { method: 'POST', headers: { 'content-type': contentType, accept: 'application/json' }, body });
};

t('the default pixel limit suits web photos: 50 million (a 48-megapixel phone photo passes)', () => {
  assert.is(get('upload_max_pixels'), 50_000_000);
});

t('an image over upload_max_pixels: 422 with a French message naming its size and the limit; nothing written', async () => {
  configure({ upload_max_pixels: 1_000_000 });
  try {
    const png = await sharp({ create: { width: 1250, height: 1000, channels: 3, background: '#48c' } })
      .png()
      .toBuffer();
    const before = listFiles(root);
    for (const variants of [true, false]) {
      const response = await send('affiche.png', png, variants);
      assert.is(response.status, 422, response.text);
      assert.is(
        response.json().error.details.file,
        "L'image « affiche.png » mesure 1250 × 1000 pixels (1,3 million) : 1 million de pixels au plus. Réduisez-la puis envoyez-la de nouveau.",
      );
    }
    assert.equal(listFiles(root), before);
    const small = await sharp({ create: { width: 1000, height: 1000, channels: 3, background: '#48c' } })
      .png()
      .toBuffer();
    assert.is((await send('carre.png', small)).status, 201);
  } finally {
    configure({ upload_max_pixels: 50_000_000 });
  }
  assert.ok(new UploadTooManyPixelsError('a.png', 8000, 6000, 50_000_000).message.includes('(48 millions) : 50 millions de pixels au plus'));
});

t('sharp runs in one child process, shared by parallel uploads; it stops once idle and the next image starts it again', async () => {
  const png = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#c84' } })
    .png()
    .toBuffer();
  let done = false;
  const all = Promise.all(Array.from({ length: 6 }, (_, i) => send(`lot-${i}.png`, png))).finally(() => {
    done = true;
  });
  // Watched while the uploads run: never more than one image process, the same one for all six.
  const seen = new Set<number>();
  let most = 0;
  while (!done) {
    const now = imageProcesses();
    most = Math.max(most, now.length);
    for (const pid of now) seen.add(pid);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const responses = await all;
  assert.equal(
    responses.map((r) => r.status),
    [201, 201, 201, 201, 201, 201],
  );
  assert.is(most, 1, `image processes seen: ${[...seen].join(', ')}`);
  assert.is(seen.size, 1);
  assert.ok(await eventually(() => imageProcesses().length === 0, IMAGE_PROCESS_IDLE_MS + 20_000), 'the idle image process stopped');
  const again = await send('encore.png', png);
  assert.is(again.status, 201, again.text);
  const later = imageProcesses();
  assert.is(later.length <= 1 && !seen.has(later[0] ?? -1), true, `a new process, not ${[...seen].join(', ')}`);
});

t('an image process killed during a job: that upload is a 500 with nothing written, and the next image gets a new process', async () => {
  assert.ok(await eventually(() => imageProcesses().length === 0, IMAGE_PROCESS_IDLE_MS + 20_000), 'no image process left from the test before');
  const big = await sharp({ create: { width: 8000, height: 6000, channels: 3, background: '#36a' } })
    .png()
    .toBuffer();
  const before = listFiles(root);
  const pending = send('lourde.png', big);
  assert.ok(await eventually(() => imageProcesses().length === 1, 20_000), 'the image process started');
  const [pid] = imageProcesses();
  process.kill(pid!, 'SIGKILL');
  const response = await pending;
  assert.is(response.status, 500, response.text);
  assert.equal(listFiles(root), before);
  const png = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#c84' } })
    .png()
    .toBuffer();
  assert.is((await send('apres.png', png)).status, 201);
});

t.run();
