/**
 * The uploads section: a 5 MiB JPEG (12 megapixels, made here with sharp, just under `upload_max_size`) sent as
 * multipart to a fw-mvc server that stores it with its medium (1280) and thumbnail (300) variants. Prints the time
 * per upload (one client, median and p95 over the runs, request sent to 201 received) and the server's RSS: at rest,
 * peak after the sequential runs, peak after a burst of concurrent uploads (peak = the server's VmHWM). The server
 * runs twice: as is, then with MALLOC_ARENA_MAX=2 (glibc keeps fewer per-thread heaps; sharp then also uses every
 * core instead of one). The same JPEG is then sent with a camera's EXIF block (GPS position, serial number) spliced
 * in, once with orientation 1 and once with orientation 6, to the server as is: in both cases the metadata is cut out
 * of the stored original without re-encoding (with orientation 6 a minimal EXIF block keeps that tag alone).
 */
import { fork } from 'node:child_process';
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
  const raw = await sharp({ create: { width: WIDTH, height: HEIGHT, channels: 3, noise: { type: 'gaussian', mean: 128, sigma: 40 } } }).raw().toBuffer();
  const encode = (quality) => sharp(raw, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } }).blur(0.6).jpeg({ quality }).toBuffer();
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
  const donor = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#888' } }).jpeg().withMetadata({ orientation }).withExif({
    IFD0: { Make: 'BenchCam', Model: 'B-1' },
    IFD2: { BodySerialNumber: 'SN-0000001', DateTimeOriginal: '2026:01:02 03:04:05' },
    IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 2400/100', GPSLongitudeRef: 'E', GPSLongitude: '2/1 21/1 300/100' },
  }).toBuffer();
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
    for (let i = 0; i < warmup; i++) await upload(server.base, jpeg);
    const times = [];
    for (let i = 0; i < runs; i++) times.push(await upload(server.base, jpeg));
    const sequential = await memory(server.child);
    const burstStarted = process.hrtime.bigint();
    await Promise.all(Array.from({ length: BURST }, () => upload(server.base, jpeg)));
    const burstMs = Number(process.hrtime.bigint() - burstStarted) / 1e6;
    const end = await memory(server.child);
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
    };
  } finally {
    server.child.kill();
  }
}

export async function runUploadsBench({ runs, warmup }) {
  const jpeg = await makeJpeg();
  console.log(`image: ${WIDTH} × ${HEIGHT} JPEG, ${jpeg.length} bytes (${(jpeg.length / 1048576).toFixed(2)} MiB); ${runs} sequential uploads (one client), then ${BURST} at once`);
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
    ['server', 'median ms', 'p95 ms', 'min ms', `burst of ${BURST} ms`, 'RSS at rest MiB', 'peak RSS sequential MiB', 'peak RSS after burst MiB', 'RSS at end MiB'],
    rows.map((r) => [r.configuration, r.median_ms.toFixed(0), r.p95_ms.toFixed(0), r.min_ms.toFixed(0), r.burst_ms.toFixed(0), mb(r.rss_rest_bytes),
      mb(r.peak_rss_sequential_bytes), mb(r.peak_rss_burst_bytes), mb(r.rss_end_bytes)]),
    [0],
  );
  return { settings: { runs, warmup, burst: BURST, image: { width: WIDTH, height: HEIGHT, bytes: jpeg.length } }, servers: rows, targets: [] };
}
