/**
 * fw-mvc with one upload route, for the uploads section: `POST /upload` stores the `file` part under category images
 * with its medium and thumbnail variants (saveUpload, sharp) and answers 201 with the SavedUpload; the files go to a
 * temporary folder removed at exit. No upload limit here: the bench measures the chain, not the 429. Answers the
 * parent's `peak` question with its peak (VmHWM) and current RSS.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Application, Router, apiSuccess, configure, saveUpload, serve, setLogLevel } from 'fw-mvc';
import { announce } from '../shared.mjs';

setLogLevel('WARNING');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-bench-uploads-'));
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
// The bench stops the server with SIGTERM: exit through the handler above so that the folder goes too.
process.on('SIGTERM', () => process.exit(0));
// BENCH_UPLOAD_MAX_PIXELS: the pixel limit (the 100-megapixel scenario raises it above the default 50 million).
configure({ project_root: dir, ...(process.env.BENCH_UPLOAD_MAX_PIXELS ? { upload_max_pixels: Number(process.env.BENCH_UPLOAD_MAX_PIXELS) } : {}) });

const router = new Router();
router.add(
  'POST',
  '/upload',
  async (request) => {
    const file = request.files.file;
    if (!file) return apiSuccess({ missing: true }, 422);
    return apiSuccess(await saveUpload(file, { category: 'images', variants: true }), 201);
  },
  { public: true, csrf: false, api: true },
);

const app = new Application(router, { apiRoutesModule: null });
const server = await serve(app, { host: '127.0.0.1', port: 0, announce: false, handleSignals: false, workers: 1 });
/**
 * The peak RSS of this process, in bytes: VmHWM of /proc/self/status on Linux. Not getrusage's maxRSS: Linux keeps
 * it across fork and exec, so a server forked by a bench process that holds 300 MB would report those 300 MB.
 */
function peakRss() {
  try {
    const kib = /^VmHWM:\s+(\d+) kB$/m.exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1];
    if (kib) return Number(kib) * 1024;
  } catch {
    // not Linux
  }
  return process.resourceUsage().maxRSS * 1024;
}

process.on('message', (msg) => {
  if (msg?.type === 'peak') process.send({ type: 'peak', maxRss: peakRss(), rss: process.memoryUsage().rss });
});
announce('fw-uploads', server);
