/**
 * The uploads section: a 5 MiB JPEG (12 megapixels, made here with sharp, just under `upload_max_size`) sent as
 * multipart to a fw-mvc server that stores it with its medium (1280) and thumbnail (300) variants. Prints the time
 * per upload (one client, median and p95 over the runs, request sent to 201 received) and the server's RSS: at rest,
 * peak after the sequential runs, peak after a burst of concurrent uploads (peak = the server's VmHWM). The server
 * runs twice: as is, then with MALLOC_ARENA_MAX=2 (glibc keeps fewer per-thread heaps; sharp then also uses every
 * core instead of one). The same JPEG is then sent with a camera's EXIF block (GPS position, serial number) spliced
 * in, once with orientation 1 and once with orientation 6, to the server as is: in both cases the metadata is cut out
 * of the stored original without re-encoding (with orientation 6 a minimal EXIF block keeps that tag alone).
 * Since images are processed in a child process of the server (runtime/uploads/image-jobs.ts), every RSS figure
 * here is the server's plus its children's, sampled every 20 ms from /proc.
 *
 * Then the memory scenario: a fresh server (pixel limit raised to 100 million), ten uploads at once of a 100-megapixel
 * PNG (10000 × 10000, one colour: a small file, a huge image), its RSS before, at its peak, and after 30 s idle.
 * Targets: peak ≤ 400 MB, and back within 50 MB of the level before after the 30 s.
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { BENCH_DIR, median, printTable } from './shared.mjs';

const TARGET_BYTES = 5 * 1024 * 1024;
const WIDTH = 4000;
const HEIGHT = 3000;
const BURST = 4;

const CONFIGURATIONS = [
  { label: 'default', env: {} },
  { label: 'MALLOC_ARENA_MAX=2', env: { MALLOC_ARENA_MAX: '2' } },
];

function start(env) {
  const child = fork(path.join(BENCH_DIR, 'servers', 'uploads.mjs'), { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], env: { ...process.env, ...env } });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`uploads server exited (${code}) before listening`)));
    child.on('message', (msg) => msg?.type === 'ready' && resolve({ child, base: `http://127.0.0.1:${msg.port}` }));
  });
}

/** The RSS of a process, in bytes (0 when it is gone). */
function rssOf(pid) {
  try {
    return Number(/^VmRSS:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** The pids of the children of a process (the image process of the server). */
function childrenOf(pid) {
  try {
    return fs
      .readdirSync(`/proc/${pid}/task`)
      .flatMap((task) => fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number));
  } catch {
    return [];
  }
}

/** RSS of a server and its children, in bytes. */
export function treeRss(pid) {
  return rssOf(pid) + childrenOf(pid).reduce((sum, child) => sum + rssOf(child), 0);
}

/** Samples treeRss every 20 ms until stop(), which returns the peak seen. */
function sampleTree(pid) {
  let peak = treeRss(pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, treeRss(pid));
  }, 20);
  return () => {
    clearInterval(timer);
    return Math.max(peak, treeRss(pid));
  };
}

function memory(child) {
  return new Promise((resolve) => {
    const listener = (msg) => {
      if (msg?.type !== 'peak') return;
      child.off('message', listener);
      resolve(msg);
    };
    child.on('message', listener);
    child.send({ type: 'peak' });
  });
}

/**
 * A noisy 12-megapixel JPEG whose quality is searched so that it weighs between 95 % and 100 % of 5 MiB, less 1 KiB
 * (room for the EXIF block that withCameraExif adds).
 */
async function makeJpeg() {
  const raw = await sharp({ create: { width: WIDTH, height: HEIGHT, channels: 3, noise: { type: 'gaussian', mean: 128, sigma: 40 } } })
    .raw()
    .toBuffer();
  const encode = (quality) =>
    sharp(raw, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } })
      .blur(0.6)
      .jpeg({ quality })
      .toBuffer();
  let low = 50;
  let high = 100;
  let best = null;
  while (low <= high) {
    const quality = (low + high) >> 1;
    const jpeg = await encode(quality);
    if (jpeg.length <= TARGET_BYTES - 1024) {
      best = jpeg;
      low = quality + 1;
    } else {
      high = quality - 1;
    }
  }
  if (!best || best.length < TARGET_BYTES * 0.95) throw new Error(`no JPEG between 95 % and 100 % of 5 MiB (best ${best?.length ?? 0} bytes)`);
  return best;
}

/** The JPEG with an Exif APP1 segment (camera, serial number, GPS position, `orientation`) after its first segment. */
async function withCameraExif(jpeg, orientation) {
  const donor = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#888' } })
    .jpeg()
    .withMetadata({ orientation })
    .withExif({
      IFD0: { Make: 'BenchCam', Model: 'B-1' },
      IFD2: { BodySerialNumber: 'SN-0000001', DateTimeOriginal: '2026:01:02 03:04:05' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 2400/100', GPSLongitudeRef: 'E', GPSLongitude: '2/1 21/1 300/100' },
    })
    .toBuffer();
  let at = 2;
  while (donor[at + 1] !== 0xe1) at += 2 + donor.readUInt16BE(at + 2);
  const app1 = donor.subarray(at, at + 2 + donor.readUInt16BE(at + 2));
  const afterFirst = 4 + jpeg.readUInt16BE(4);
  return Buffer.concat([jpeg.subarray(0, afterFirst), app1, jpeg.subarray(afterFirst)]);
}

async function upload(base, jpeg) {
  const form = new FormData();
  form.append('file', new Blob([jpeg], { type: 'image/jpeg' }), 'photo.jpg');
  const started = process.hrtime.bigint();
  const response = await fetch(`${base}/upload`, { method: 'POST', body: form });
  const body = await response.json();
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (response.status !== 201 || !body.data?.variants) throw new Error(`upload answered ${response.status}: ${JSON.stringify(body).slice(0, 200)}`);
  return ms;
}

/** One server run: warm-up, `runs` sequential uploads, then a burst; the times and the memory figures. */
async function measure(env, jpeg, runs, warmup) {
  const server = await start(env);
  try {
    const rest = await memory(server.child);
    const stopSampling = sampleTree(server.child.pid);
    for (let i = 0; i < warmup; i++) await upload(server.base, jpeg);
    const times = [];
    for (let i = 0; i < runs; i++) times.push(await upload(server.base, jpeg));
    const sequential = await memory(server.child);
    const burstStarted = process.hrtime.bigint();
    await Promise.all(Array.from({ length: BURST }, () => upload(server.base, jpeg)));
    const burstMs = Number(process.hrtime.bigint() - burstStarted) / 1e6;
    const end = await memory(server.child);
    const peakTree = stopSampling();
    times.sort((a, b) => a - b);
    return {
      median_ms: Number(median(times).toFixed(1)),
      p95_ms: Number(times[Math.min(times.length - 1, Math.ceil(times.length * 0.95) - 1)].toFixed(1)),
      min_ms: Number(times[0].toFixed(1)),
      burst_ms: Number(burstMs.toFixed(1)),
      rss_rest_bytes: rest.rss,
      peak_rss_sequential_bytes: sequential.maxRss,
      peak_rss_burst_bytes: end.maxRss,
      rss_end_bytes: end.rss,
      peak_rss_with_image_process_bytes: peakTree,
    };
  } finally {
    server.child.kill();
  }
}

export async function runUploadsBench({ runs, warmup, idleMs }) {
  const jpeg = await makeJpeg();
  console.log(
    `image: ${WIDTH} × ${HEIGHT} JPEG, ${jpeg.length} bytes (${(jpeg.length / 1048576).toFixed(2)} MiB); ${runs} sequential uploads (one client), then ${BURST} at once`,
  );
  const rows = [];
  const cases = [
    ...CONFIGURATIONS.map((configuration) => ({ label: configuration.label, env: configuration.env, image: jpeg })),
    { label: 'EXIF + GPS, orientation 1', env: {}, image: await withCameraExif(jpeg, 1) },
    { label: 'EXIF + GPS, orientation 6', env: {}, image: await withCameraExif(jpeg, 6) },
  ];
  for (const { label, env, image } of cases) {
    const result = await measure(env, image, runs, warmup);
    console.log(`${label}: median ${result.median_ms.toFixed(0)} ms per upload, peak RSS ${(result.peak_rss_burst_bytes / 1048576).toFixed(1)} MiB`);
    rows.push({ configuration: label, ...result });
  }
  const mb = (bytes) => (bytes / 1048576).toFixed(1);
  printTable(
    [
      'server',
      'median ms',
      'p95 ms',
      'min ms',
      `burst of ${BURST} ms`,
      'RSS at rest MiB',
      'peak RSS sequential MiB',
      'peak RSS after burst MiB',
      'RSS at end MiB',
      'peak with image process MiB',
    ],
    rows.map((r) => [
      r.configuration,
      r.median_ms.toFixed(0),
      r.p95_ms.toFixed(0),
      r.min_ms.toFixed(0),
      r.burst_ms.toFixed(0),
      mb(r.rss_rest_bytes),
      mb(r.peak_rss_sequential_bytes),
      mb(r.peak_rss_burst_bytes),
      mb(r.rss_end_bytes),
      mb(r.peak_rss_with_image_process_bytes),
    ]),
    [0],
  );
  const huge = await hugePngScenario({ idleMs: idleMs ?? 30_000 });
  return {
    settings: { runs, warmup, burst: BURST, image: { width: WIDTH, height: HEIGHT, bytes: jpeg.length } },
    servers: rows,
    huge_png: huge.result,
    targets: huge.targets,
  };
}

const HUGE_SIDE = 10_000;
const HUGE_PARALLEL = 10;
const MB = 1_000_000;

/**
 * Ten uploads at once of a 100-megapixel PNG to a fresh server whose pixel limit is 100 million: the RSS of the server
 * and its image process before, at the peak (sampled every 20 ms), and after `idleMs` without a request.
 */
async function hugePngScenario({ idleMs }) {
  const png = await sharp({ create: { width: HUGE_SIDE, height: HUGE_SIDE, channels: 3, background: '#3366aa' } })
    .png({ compressionLevel: 9 })
    .toBuffer();
  console.log(
    `\n${HUGE_PARALLEL} uploads at once of a ${HUGE_SIDE} × ${HUGE_SIDE} PNG (${((HUGE_SIDE * HUGE_SIDE) / 1e6).toFixed(0)} Mpx, ${png.length} bytes), then ${idleMs / 1000} s idle`,
  );
  const server = await start({ BENCH_UPLOAD_MAX_PIXELS: String(HUGE_SIDE * HUGE_SIDE) });
  try {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const before = treeRss(server.child.pid);
    const stop = sampleTree(server.child.pid);
    const started = process.hrtime.bigint();
    await Promise.all(
      Array.from({ length: HUGE_PARALLEL }, async () => {
        const form = new FormData();
        form.append('file', new Blob([png], { type: 'image/png' }), 'immense.png');
        const response = await fetch(`${server.base}/upload`, { method: 'POST', body: form });
        const body = await response.json();
        if (response.status !== 201 || !body.data?.variants) throw new Error(`upload answered ${response.status}: ${JSON.stringify(body).slice(0, 200)}`);
      }),
    );
    const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
    const peak = stop();
    const done = treeRss(server.child.pid);
    await new Promise((resolve) => setTimeout(resolve, idleMs));
    const after = treeRss(server.child.pid);
    const result = {
      png_bytes: png.length,
      parallel: HUGE_PARALLEL,
      wall_ms: Number(wallMs.toFixed(0)),
      rss_before_bytes: before,
      peak_rss_bytes: peak,
      rss_done_bytes: done,
      rss_after_idle_bytes: after,
      idle_ms: idleMs,
    };
    const mb = (bytes) => (bytes / MB).toFixed(1);
    printTable(
      ['scenario', 'wall ms', 'RSS before MB', 'peak RSS MB', 'RSS when done MB', `RSS after ${idleMs / 1000} s idle MB`],
      [[`${HUGE_PARALLEL} × 100 Mpx PNG`, result.wall_ms.toFixed(0), mb(before), mb(peak), mb(done), mb(after)]],
      [0],
    );
    const targets = [
      {
        target: `peak RSS during ${HUGE_PARALLEL} parallel 100-Mpx uploads <= 400 MB`,
        value: `${mb(peak)} MB`,
        pass: peak <= 400 * MB,
        note: 'server + image process',
      },
      { target: `RSS after ${idleMs / 1000} s idle within 50 MB of before`, value: `${mb(after)} MB vs ${mb(before)} MB`, pass: after - before <= 50 * MB },
    ];
    return { result, targets };
  } finally {
    server.child.kill();
  }
}
