/**
 * One worker process of the jobs section: BENCH_JOBS_KIND=fw runs a `JobWorker` of fw-mvc/jobs on the database that
 * BENCH_JOBS_DB describes (`configure()` keys, JSON); BENCH_JOBS_KIND=bullmq runs a BullMQ `Worker` on the queue
 * BENCH_JOBS_QUEUE of the Redis at REDIS_URL (else 127.0.0.1:6379). Both run the same handler (nothing, or a wait of
 * BENCH_JOBS_DELAY_MS) with BENCH_JOBS_CONCURRENCY jobs at once. The process says `ready` once built, starts on
 * `go`, and on `stop` stops its worker and says `stopped`.
 */
import { setTimeout as sleep } from 'node:timers/promises';

const kind = process.env.BENCH_JOBS_KIND;
const delayMs = Number(process.env.BENCH_JOBS_DELAY_MS ?? 0);
const concurrency = Number(process.env.BENCH_JOBS_CONCURRENCY ?? 5);
const handler = delayMs > 0 ? () => sleep(delayMs) : () => undefined;

let start;
let stop;
if (kind === 'fw') {
  const { configure, closeDatabase, setLogLevel } = await import('fw-mvc');
  const { JobWorker, defineJob } = await import('fw-mvc/jobs');
  setLogLevel('WARNING');
  configure(JSON.parse(process.env.BENCH_JOBS_DB));
  defineJob('bench', handler);
  const worker = new JobWorker({ queues: { default: concurrency }, recurring: false });
  start = () => worker.start();
  stop = async () => {
    await worker.stop();
    await closeDatabase();
  };
} else if (kind === 'bullmq') {
  const { Worker } = await import('bullmq');
  const url = new URL(process.env.REDIS_URL || 'redis://127.0.0.1:6379');
  const worker = new Worker(process.env.BENCH_JOBS_QUEUE, handler, {
    connection: { host: url.hostname, port: Number(url.port || 6379) },
    concurrency,
    autorun: false,
  });
  await worker.waitUntilReady();
  start = () => {
    worker.run().catch((error) => {
      console.error(error);
      process.exit(1);
    });
  };
  stop = () => worker.close();
} else {
  throw new Error(`BENCH_JOBS_KIND must be fw or bullmq (got ${kind})`);
}

process.on('message', async (msg) => {
  if (msg?.type === 'go') start();
  if (msg?.type === 'stop') {
    await stop();
    process.send({ type: 'stopped' });
  }
});
process.on('disconnect', () => process.exit(0));
process.send({ type: 'ready' });
