/**
 * Processes of the jobs tests: a module of job definitions written in a temporary project (`jobs.mjs`), a process
 * that only runs jobs (`workUntilSignal`, what `fw jobs:work` calls) and an application served by `serve()`
 * with the same definitions. Each handler writes one row in `job_runs` (helpers/jobs-db.ts) with its pid.
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startServerProcess, waitFor, type ClusterProcess } from './cluster.js';
import type { TempProject } from './project.js';

const DIST = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..', 'runtime');
const RUNTIME = JSON.stringify(pathToFileURL(path.join(DIST, 'index.js')).href);
const JOBS = JSON.stringify(pathToFileURL(path.join(DIST, 'jobs', 'index.js')).href);

/**
 * The definitions: `count` (records its tag, after `FW_TEST_SLOW_MS`; timeout `FW_TEST_TIMEOUT_MS`, default 60 s), `hang` (records its tag and, at its first
 * attempt, never ends: timeout 1 s), `long` (records its tag, then runs `FW_TEST_LONG_MS`, 3 s by default, in the
 * queue `long`); concurrency 25 per queue, leases of `FW_TEST_LEASE_MS` (2 s by default) and, with FW_TEST_CRON set, `tick` every second (records its tick).
 */
export const JOBS_MODULE = `import { configure, execute, setLogSink } from ${RUNTIME};
import { defineJob } from ${JOBS};
configure({ project_root: process.cwd(), ...JSON.parse(process.env.FW_TEST_DB), jobs_concurrency: 25 });
setLogSink((record) => process.stderr.write('[pid ' + process.pid + '] ' + record.level + ' ' + record.logger + ': ' + record.message + '\\n'));
const slowMs = Number(process.env.FW_TEST_SLOW_MS ?? 0);
const record = (tag, attempt) => execute('INSERT INTO job_runs (tag, attempt, pid) VALUES (?, ?, ?)', [tag, attempt, process.pid]);
export const count = defineJob('count', async ({ tag }, { attempt }) => {
  if (slowMs) await new Promise((resolve) => setTimeout(resolve, slowMs));
  await record(tag, attempt);
}, { timeoutMs: Number(process.env.FW_TEST_TIMEOUT_MS ?? 60_000) });
defineJob('hang', async ({ tag }, { attempt }) => {
  await record(tag, attempt);
  if (attempt === 1) await new Promise(() => {});
}, { timeoutMs: 1000, queue: 'slow' });
defineJob('long', async ({ tag }, { attempt }) => {
  await record(tag, attempt);
  await new Promise((resolve) => setTimeout(resolve, Number(process.env.FW_TEST_LONG_MS ?? 3000)));
}, { queue: 'long' });
if (process.env.FW_TEST_CRON) defineJob('tick', ({ tick }, { attempt }) => record(tick, attempt), { cron: '* * * * * *' });
`;

const WORKER = `import './jobs.mjs';
import { workUntilSignal } from ${JOBS};
await workUntilSignal({ leaseMs: Number(process.env.FW_TEST_LEASE_MS ?? 2000) }, (queues) => process.stdout.write('prêt ' + [...queues.keys()].join(',') + '\\n'));
process.stdout.write('arrêté\\n');
`;

const SERVER = `import { count } from './jobs.mjs';
import { Application, Response, Router, serve, transaction } from ${RUNTIME};
const router = new Router();
// Enqueues in a transaction that commits, or (?fail) rolls back after the enqueue.
router.add('POST', '/enqueue/{tag}', async (request) => {
  const tag = request.routeParams.tag;
  const fail = (request.query ?? '').includes('fail');
  try {
    await transaction(async (tx) => {
      await count.enqueue({ tag }, { tx });
      if (fail) throw new Error('annulé');
    });
  } catch {
    return new Response(409, 'annulé', 'text/plain');
  }
  return new Response(200, 'ok', 'text/plain', { 'X-Worker-Pid': String(process.pid) });
}, { public: true, csrf: false });
await serve(new Application(router, { apiRoutesModule: null }));
`;

/** A process that only runs jobs; resolves once it says it is ready. */
export async function startJobsProcess(project: TempProject, env: NodeJS.ProcessEnv): Promise<ClusterProcess> {
  project.write('jobs.mjs', JOBS_MODULE);
  project.write('worker-main.mjs', WORKER);
  const started = startServerProcess(project, "import './worker-main.mjs';\n", env);
  await waitFor('the jobs process ready', () => started.output().includes('prêt ') || started.child.exitCode !== null, 15_000);
  if (!started.output().includes('prêt ')) throw new Error(`the jobs process did not start:\n${started.output()}`);
  return started;
}

/** The application under `serve()`, with the same definitions (WEB_CONCURRENCY in `env`). */
export function startJobsServer(project: TempProject, env: NodeJS.ProcessEnv): ClusterProcess {
  project.write('jobs.mjs', JOBS_MODULE);
  return startServerProcess(project, SERVER, env);
}
