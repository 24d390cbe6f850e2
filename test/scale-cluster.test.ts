/**
 * WEB_CONCURRENCY (runtime/app/cluster.ts, docs/deploy.md "Several processes"): a real server process whose
 * primary forks two workers on one port, with the Redis session and limit stores. Two workers serve (their pids
 * differ), a killed worker is replaced, SIGHUP restarts them one at a time under a steady request loop with no
 * failed request, SIGTERM lets a request in flight complete; with the memory stores, N = 2 refuses to start, and
 * a Redis store with an unreadable REDIS_URL refuses to start with any N.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { plainRequest, startServerProcess, waitFor, waitListening, type ClusterProcess } from './helpers/cluster.js';
import { makeProject, type TempProject } from './helpers/project.js';
import { dropRedisPrefix, rawRedis, redisTestPrefix } from './helpers/session-backends.js';

const RUNTIME_URL = pathToFileURL(path.resolve(path.dirname(new URL(import.meta.url).pathname), '../runtime/index.js')).href;

const SERVER = `import fs from 'node:fs';
import { Application, Response, Router, configure, serve } from '${RUNTIME_URL}';
configure({ project_root: process.cwd() });
const router = new Router();
router.add('GET', '/pid', () => new Response(200, String(process.pid)), { public: true });
// Busy for 20 ms: while one worker computes, the next connection is accepted by another (the workers accept
// from the shared socket themselves).
router.add('GET', '/busy', () => {
  const until = Date.now() + 20;
  while (Date.now() < until);
  return new Response(200, String(process.pid));
}, { public: true });
// Slow until the test writes release-slow in the project (at most 10 s): it is still in flight at the SIGTERM.
router.add('GET', '/slow', async () => {
  process.stdout.write('slow-started\\n');
  const until = Date.now() + 10000;
  while (!fs.existsSync('release-slow') && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
  return new Response(200, 'slow done ' + process.pid);
}, { public: true });
await serve(new Application(router, { apiRoutesModule: null }), { port: 0, host: '127.0.0.1' });
`;

const start = (project: TempProject, env: NodeJS.ProcessEnv): ClusterProcess => startServerProcess(project, SERVER, env);

/** A GET on a connection of its own (no keep-alive): status and body; an error past `ms` without an answer. */
const get = (url: string, ms = 5000): Promise<{ status: number; body: string }> => plainRequest(url, { ms });

/** The pids that answered `requests` requests to /busy, sent ten at a time. */
async function pidsSeen(base: string, requests: number, wanted = 2): Promise<Set<string>> {
  // The kernel gives each connection to whichever worker accepts first: a worker warming up may get none of a
  // batch, so batches are sent until `wanted` workers answered (or 10 s).
  const until = Date.now() + 10_000;
  const pids = await pidBatch(base, requests);
  while (pids.size < wanted && Date.now() < until) for (const pid of await pidBatch(base, requests)) pids.add(pid);
  return pids;
}

async function pidBatch(base: string, requests: number): Promise<Set<string>> {
  const pids = new Set<string>();
  for (let sent = 0; sent < requests; sent += 10) {
    const answers = await Promise.all(Array.from({ length: Math.min(10, requests - sent) }, () => get(`${base}/busy`)));
    for (const { status, body } of answers) {
      assert.is(status, 200);
      pids.add(body);
    }
  }
  return pids;
}

const C = suite('scale: WEB_CONCURRENCY=2 with the Redis stores');
let project: TempProject;
let cluster: ClusterProcess;
const prefix = redisTestPrefix();

C.before(async () => {
  project = makeProject();
  cluster = start(project, { WEB_CONCURRENCY: '2', SESSION_STORE: 'redis', RATE_LIMIT_STORE: 'redis', REDIS_PREFIX: prefix });
  await waitListening(cluster, 2);
});
C.after(async () => {
  if (cluster.child.exitCode === null && cluster.child.signalCode === null) cluster.child.kill('SIGKILL');
  project.cleanup();
  const client = await rawRedis();
  await dropRedisPrefix(client, prefix).finally(() => client.close());
});

C('two workers serve the port: their pids differ, neither is the primary', async () => {
  assert.is(cluster.output().match(/fw-mvc : http/g)!.length, 1, 'the address is announced once');
  const seen = await pidsSeen(cluster.base, 40);
  assert.is(seen.size, 2, [...seen].join(', '));
  assert.not.ok(seen.has(String(cluster.child.pid)));
});

C('a killed worker is replaced', async () => {
  const before = await pidsSeen(cluster.base, 20);
  const victim = [...before][0]!;
  process.kill(Number(victim), 'SIGKILL');
  const until = Date.now() + 15_000;
  let after = new Set<string>();
  while (Date.now() < until) {
    // A connection the primary handed to the worker as it was killed is lost with it (no answer): a crash's cost.
    after = await pidsSeen(cluster.base, 20).catch(() => new Set<string>());
    if (after.size === 2 && !after.has(victim)) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.is(after.size, 2, [...after].join(', '));
  assert.not.ok(after.has(victim), 'the killed worker serves no more');
  assert.match(cluster.output(), new RegExp(`Processus ${victim} arrêté \\(SIGKILL\\) : remplacé`));
});

C('SIGHUP restarts the workers one at a time: no failed request under a steady loop, new pids after', async () => {
  const before = await pidsSeen(cluster.base, 20);
  let running = true;
  let ok = 0;
  const failures: string[] = [];
  const loop = async (): Promise<void> => {
    while (running) {
      try {
        // A slow answer (the machine busy starting a worker) is no failure: refused, reset or lost ones are.
        const { status } = await get(`${cluster.base}/pid`, 30_000);
        if (status === 200) ok++;
        else failures.push(`status ${status}`);
      } catch (error) {
        failures.push((error as Error).message);
      }
    }
  };
  const loops = Array.from({ length: 4 }, () => loop());
  // The loop under way before the signal, and still after the restart: counted answers, not a pause.
  await waitFor('20 answers before the restart', () => ok + failures.length >= 20, 30_000);
  const marks = cluster.output().split('Redémarrage terminé').length;
  cluster.child.kill('SIGHUP');
  await waitFor('the end of the restart', () => cluster.output().split('Redémarrage terminé').length > marks, 30_000);
  const done = ok + failures.length;
  await waitFor('20 answers after the restart', () => ok + failures.length >= done + 20, 30_000);
  running = false;
  await Promise.all(loops);
  assert.equal(failures, [], `${failures.length} failed of ${ok + failures.length}`);
  assert.ok(ok > 50, `${ok} requests served during the restart`);
  const after = await pidsSeen(cluster.base, 20);
  assert.is(after.size, 2);
  for (const pid of after) assert.not.ok(before.has(pid), `pid ${pid} was restarted`);
});

C('SIGTERM: the request in flight completes, then every process exits 0', async () => {
  const marks = cluster.output().split('slow-started').length;
  const slow = get(`${cluster.base}/slow`);
  await waitFor('the slow request', () => cluster.output().split('slow-started').length > marks);
  const draining = (): number => cluster.output().split('SIGTERM reçu : arrêt après les requêtes en cours.').length - 1;
  cluster.child.kill('SIGTERM');
  // Both workers told to stop, the slow request still waiting: only then is it let to finish.
  await waitFor('both workers told to stop', () => draining() >= 2);
  project.write('release-slow', '');
  const answer = await slow;
  assert.is(answer.status, 200);
  assert.match(answer.body, /^slow done \d+$/);
  assert.is(await cluster.exited, 0);
  const refusedCode = await get(`${cluster.base}/pid`).then(
    () => 'answered',
    (error: NodeJS.ErrnoException) => error.code,
  );
  assert.is(refusedCode, 'ECONNREFUSED', 'nothing listens any more');
});

C.run();

const R = suite('scale: the settings of the stores a start refuses');
let refused: TempProject;
R.before(() => {
  refused = makeProject();
});
R.after(() => refused.cleanup());

R('WEB_CONCURRENCY=2 with the memory session store: exit 1, a message that says why and what to choose', async () => {
  const run = start(refused, { WEB_CONCURRENCY: '2', RATE_LIMIT_STORE: 'redis' });
  assert.is.not(await run.exited, 0);
  assert.match(run.output(), 'WEB_CONCURRENCY=2 : 2 processus se partageraient les sessions (SESSION_STORE=memory : choisissez redis, database');
  assert.not.match(run.output(), 'fw-mvc : http', 'nothing listened');
});

R('the memory limit store too; WEB_CONCURRENCY must be a number or auto', async () => {
  const run = start(refused, { WEB_CONCURRENCY: '2', SESSION_STORE: 'redis' });
  assert.is.not(await run.exited, 0);
  assert.match(run.output(), 'les limites de tentatives (RATE_LIMIT_STORE=memory : choisissez redis ou database)');
  const bad = start(refused, { WEB_CONCURRENCY: 'beaucoup' });
  assert.is.not(await bad.exited, 0);
  assert.match(bad.output(), 'WEB_CONCURRENCY vaut « beaucoup » : un nombre de processus (1 à 1024) ou « auto »');
});

R('a Redis store with a REDIS_URL the client cannot read: refused at start, one process or several, password hidden', async () => {
  for (const workers of ['1', '2']) {
    const run = start(refused, { WEB_CONCURRENCY: workers, SESSION_STORE: 'redis', RATE_LIMIT_STORE: 'redis', REDIS_URL: 'http://app:s3cr3t@127.0.0.1:6379' });
    assert.is.not(await run.exited, 0, `WEB_CONCURRENCY=${workers}`);
    assert.match(run.output(), 'REDIS_URL vaut « http://app:***@127.0.0.1:6379 » : une adresse Redis redis://hôte:port/base');
    assert.not.match(run.output(), 's3cr3t');
    assert.not.match(run.output(), 'fw-mvc : http', 'nothing listened');
  }
});

R.run();
