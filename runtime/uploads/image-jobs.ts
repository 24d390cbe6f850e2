/**
 * Image work out of the server's process (docs/uploads.md "Image processing and memory"). Decoding a photo costs tens
 * to hundreds of MB in libvips and the C allocator keeps most of it once freed: ten 100-megapixel PNGs took a server
 * from 356 to 734 MB, and it kept 706 MB. So sharp never loads in the server: each image job (remove the metadata,
 * make the variants) goes to one child process (image-worker.ts), at most as many jobs at once as the machine has
 * cores (the others wait here, in order), each with one libvips thread and libvips' cache off. The child stops once
 * no job came for IDLE_MS, which gives all that memory back to the system; the next image starts it again (about
 * 0.1 s). A job refused by the child (an image that cannot be read, too many pixels) throws the same UploadError
 * as in process; a child that dies (killed, out of memory) fails its jobs with UploadStorageError (500).
 */
import { fork, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { get } from '../config.js';
import { UploadError, UploadInvalidImageError, UploadStorageError, UploadTooManyPixelsError } from './errors.js';

/** Milliseconds without a job after which the image process stops (its memory goes back to the system). */
export const IMAGE_PROCESS_IDLE_MS = 2000;

export type ImageFormat = 'jpeg' | 'png' | 'webp';
export interface PreparedImage {
  /** The original without its metadata, and the format its bytes hold. */
  original: { data: Buffer; format: ImageFormat };
  /** The medium and thumbnail, in the original's format, when they were asked for. */
  variants?: { medium: Buffer; thumbnail: Buffer };
}

/** What the parent sends: `prepare` (original, and variants when `variants`), or `variants` of stored bytes. */
export type ImageJob =
  | { op: 'prepare'; data: Uint8Array; filename: string; variants: boolean; maxPixels: number }
  | { op: 'variants'; data: Uint8Array; filename: string; extension: string; maxPixels: number };

/** A refusal as it crosses the process boundary. */
export interface SerializedImageError {
  name: string;
  message: string;
  filename?: string;
  detail?: string;
  width?: number;
  height?: number;
  maxPixels?: number;
  code?: string;
  status?: number;
}

interface Pending {
  job: ImageJob;
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
  /** The image process running it (set when sent). */
  worker?: ChildProcess;
}

const WORKER = fileURLToPath(new URL('./image-worker.js', import.meta.url));
/** Set in the image process's environment. */
const WORKER_MARK = 'FW_IMAGE_PROCESS';
/** Node options that run code or take a port: the image process must not inherit them (`node -e` would run again). */
const NOT_INHERITED = new Set([
  '-e',
  '--eval',
  '-p',
  '--print',
  '--input-type',
  '--test',
  '--watch',
  '--watch-path',
  '--inspect',
  '--inspect-brk',
  '--inspect-port',
  '--debug-port',
]);
/** Options of NOT_INHERITED that take their value as the next argument when written without `=`. */
const WITH_VALUE = new Set(['-e', '--eval', '-p', '--print', '--input-type', '--watch-path', '--inspect-port', '--debug-port']);

/** The server's own node options (a loader, memory sizes) without those that run code or take a port. */
function inheritedExecArgv(): string[] {
  const out: string[] = [];
  const args = process.execArgv;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const name = arg.split('=', 1)[0]!;
    if (!NOT_INHERITED.has(name) && !name.startsWith('--inspect')) {
      out.push(arg);
      continue;
    }
    if (!arg.includes('=') && WITH_VALUE.has(name)) i++;
  }
  return out;
}
/** Jobs at once: as many as the cores (the child runs them side by side, one libvips thread each). */
const WIDTH = Math.max(1, os.availableParallelism());

let child: ChildProcess | null = null;
let nextId = 1;
const running = new Map<number, Pending>();
const waiting: Pending[] = [];
let idleTimer: NodeJS.Timeout | null = null;

/** The original without metadata (and its variants when `variants`), computed by the image process. */
export function prepareImage(data: Buffer | Uint8Array, filename: string, options: { variants: boolean } | null): Promise<PreparedImage> {
  return submit({ op: 'prepare', data, filename, variants: options?.variants === true, maxPixels: get('upload_max_pixels') }) as Promise<PreparedImage>;
}

/** The medium and thumbnail of stored bytes, in the format of `extension`, computed by the image process. */
export function imageVariants(data: Buffer | Uint8Array, filename: string, extension: string): Promise<{ medium: Buffer; thumbnail: Buffer }> {
  return submit({ op: 'variants', data, filename, extension, maxPixels: get('upload_max_pixels') }) as Promise<{ medium: Buffer; thumbnail: Buffer }>;
}

function submit(job: ImageJob): Promise<unknown> {
  return new Promise((resolve, reject) => {
    waiting.push({ job, resolve, reject });
    pump();
  });
}

/** Sends waiting jobs while fewer than WIDTH run. */
function pump(): void {
  while (running.size < WIDTH && waiting.length > 0) {
    const pending = waiting.shift()!;
    const worker = ensureChild();
    const id = nextId++;
    pending.worker = worker;
    running.set(id, pending);
    worker.send({ id, job: pending.job }, (err) => {
      if (err && running.delete(id))
        pending.reject(new UploadStorageError(`Traitement de l'image « ${pending.job.filename} » impossible : ${err.message}`, { cause: err }));
    });
  }
  holdProcess(running.size > 0);
}

function ensureChild(): ChildProcess {
  if (idleTimer) {
    clearTimeout(idleTimer);
    idleTimer = null;
  }
  if (child) return child;
  // Started from the image process itself: never (the chain would not end).
  if (process.env[WORKER_MARK]) throw new UploadStorageError("Le processus d'images ne peut pas en démarrer un autre.");
  // glibc's per-thread heaps are what grow most under libvips: two are enough for one libvips thread per job.
  const env = { ...process.env, [WORKER_MARK]: '1', MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2' };
  const started = fork(WORKER, [], { serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: inheritedExecArgv(), env });
  child = started;
  started.on('message', (message: { id: number; result?: unknown; error?: SerializedImageError }) => settle(message));
  started.on('exit', (code, signal) => {
    if (child === started) child = null;
    // Only this process's jobs: a stopped idle process may exit after its successor got new ones.
    for (const [id, pending] of running) {
      if (pending.worker !== started) continue;
      running.delete(id);
      pending.reject(
        new UploadStorageError(
          `Traitement de l'image « ${pending.job.filename} » interrompu : le processus d'images s'est arrêté (${signal ?? `code ${code}`}).`,
        ),
      );
    }
    pump();
    if (running.size === 0 && waiting.length === 0) scheduleStop();
  });
  started.on('error', () => {
    // 'exit' follows and fails the jobs of this child.
  });
  return started;
}

function settle(message: { id: number; result?: unknown; error?: SerializedImageError }): void {
  const pending = running.get(message.id);
  if (!pending) return;
  running.delete(message.id);
  if (message.error) pending.reject(revive(message.error));
  else pending.resolve(toBuffers(message.result));
  pump();
  if (running.size === 0 && waiting.length === 0) scheduleStop();
}

/** Keeps the server's event loop alive for the child only while jobs run: an idle child never keeps a process from exiting. */
function holdProcess(busy: boolean): void {
  if (!child) return;
  if (busy) {
    child.ref();
    child.channel?.ref();
  } else {
    child.unref();
    child.channel?.unref();
  }
}

function scheduleStop(): void {
  if (idleTimer || !child) return;
  idleTimer = setTimeout(() => {
    idleTimer = null;
    if (child && running.size === 0 && waiting.length === 0) {
      const stopping = child;
      child = null;
      stopping.disconnect();
    }
  }, IMAGE_PROCESS_IDLE_MS);
  idleTimer.unref();
}

/** Uint8Arrays from the structured clone back to Buffers, in place. */
function toBuffers(value: unknown): unknown {
  if (value instanceof Uint8Array) return Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) (value as Record<string, unknown>)[key] = toBuffers(inner);
  }
  return value;
}

/** An error as the child sent it, back to its class. */
function revive(error: SerializedImageError): Error {
  if (error.name === 'UploadInvalidImageError') return new UploadInvalidImageError(error.filename ?? '', error.detail ?? '');
  if (error.name === 'UploadTooManyPixelsError')
    return new UploadTooManyPixelsError(error.filename ?? '', error.width ?? 0, error.height ?? 0, error.maxPixels ?? 0);
  if (error.name === 'UploadStorageError') return new UploadStorageError(error.message);
  if (error.code !== undefined && error.status !== undefined) return new UploadError(error.message, error.code, error.status);
  return new Error(error.message);
}

/** An error thrown by a job, ready to cross to the parent. */
export function serializeImageError(err: unknown): SerializedImageError {
  const e = err as Partial<SerializedImageError> & Error;
  return {
    name: e?.name ?? 'Error',
    message: e?.message ?? String(err),
    filename: e?.filename,
    detail: e?.detail,
    width: e?.width,
    height: e?.height,
    maxPixels: e?.maxPixels,
    code: err instanceof UploadError ? err.code : undefined,
    status: err instanceof UploadError ? err.status : undefined,
  };
}
