/**
 * Rolling restarts that are interrupted (runtime/app/cluster.ts, docs/deploy.md "Several processes"): a SIGHUP
 * during a SIGHUP, three in a row, a SIGHUP sent to every process of the group, a new worker killed before it
 * listens. After each, once the primary has logged the end of its restart, exactly WEB_CONCURRENCY workers are
 * its children, counted in /proc.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { plainRequest, startServerProcess, waitFor, waitListening, type ClusterProcess } from './helpers/cluster.js';
import { makeProject, type TempProject } from './helpers/project.js';
import { dropRedisPrefix, rawRedis, redisTestPrefix } from './helpers/session-backends.js';

const RUNTIME_URL = pathToFileURL(path.resolve(path.dirname(new URL(import.meta.url).pathname), '../runtime/index.js')).href;

const SERVER = `import { Application, Response, Router, configure, serve } from '${RUNTIME_URL}';
configure({ project_root: process.cwd() });
const router = new Router();
router.add('GET', '/pid', () => new Response(200, String(process.pid)), { public: true });
await serve(new Application(router, { apiRoutesModule: null }), { port: 0, host: '127.0.0.1' });
`;

/** The pids of the primary's children (every thread's: node forks from its main thread, but only /proc knows). */
function children(pid: number): string[] {
  const tasks = fs.readdirSync(`/proc/${pid}/task`);
  return tasks.flatMap((task) => fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean)).sort();
}

/** How many times `text` is in the output so far. */
const count = (server: ClusterProcess, text: string | RegExp): number => server.output().split(text).length - 1;

const DONE = 'Redémarrage terminé : ';
/** A worker's line as it starts to stop (`… fw.http [<pid>]: SIGTERM reçu …`): the restart has replaced one worker and goes on. */
const RETIRING = /fw\.http(?: \[[^\]]*\])?: SIGTERM reçu/g;

const S = suite('scale: WEB_CONCURRENCY=2, interrupted rolling restarts end with exactly 2 workers');
let project: TempProject;
let server: ClusterProcess;
const prefix = redisTestPrefix();

S.before(async () => {
  project = makeProject();
  server = startServerProcess(project, SERVER, { WEB_CONCURRENCY: '2', SESSION_STORE: 'redis', RATE_LIMIT_STORE: 'redis', REDIS_PREFIX: prefix });
  await waitListening(server, 2);
});
S.after(async () => {
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  project.cleanup();
  const client = await rawRedis();
  await dropRedisPrefix(client, prefix).finally(() => client.close());
});

S('a SIGHUP during a restart: the restart goes on until every worker is new, then exactly 2', async () => {
  const primary = server.child.pid!;
  const before = children(primary);
  assert.is(before.length, 2);
  const [done, retiring] = [count(server, DONE), count(server, RETIRING)];
  server.child.kill('SIGHUP');
  await waitFor('the first worker replaced', () => count(server, RETIRING) > retiring, 30_000);
  // The new worker started by the first SIGHUP is serving: the second one replaces it too.
  const during = children(primary);
  server.child.kill('SIGHUP');
  await waitFor('the end of the restart', () => count(server, DONE) > done, 60_000);
  const after = children(primary);
  assert.is(after.length, 2, `${after.join(', ')}\n${server.output()}`);
  for (const pid of after) assert.not.ok(during.includes(pid) || before.includes(pid), `pid ${pid} restarted`);
  assert.match(server.output(), 'SIGHUP reçu pendant un redémarrage');
  assert.is((await plainRequest(`${server.base}/pid`)).status, 200);
});

S('three SIGHUPs in a row: exactly 2 afterwards, and a later SIGHUP keeps 2', async () => {
  const primary = server.child.pid!;
  for (const round of [3, 1]) {
    const done = count(server, DONE);
    for (let i = 0; i < round; i++) server.child.kill('SIGHUP');
    await waitFor('the end of the restart', () => count(server, DONE) > done, 60_000);
    const after = children(primary);
    assert.is(after.length, 2, `${round} SIGHUP : ${after.join(', ')}\n${server.output()}`);
  }
});

S('SIGHUP sent to every process (the group): the workers do not die of it, exactly 2 afterwards', async () => {
  const primary = server.child.pid!;
  const before = children(primary);
  const done = count(server, DONE);
  server.child.kill('SIGHUP');
  for (const pid of before) process.kill(Number(pid), 'SIGHUP');
  await waitFor('the end of the restart', () => count(server, DONE) > done, 60_000);
  assert.is(children(primary).length, 2, server.output());
  assert.not.match(server.output(), 'arrêté (SIGHUP)');
});

S('a new worker killed before it listens: the restart stops, the 2 in place serve, no third one', async () => {
  const primary = server.child.pid!;
  const before = children(primary);
  const interrupted = count(server, 'Redémarrage interrompu');
  server.child.kill('SIGHUP');
  const started = await waitFor('the new worker', () => children(primary).find((pid) => !before.includes(pid)), 30_000);
  process.kill(Number(started), 'SIGKILL');
  await waitFor('the interruption', () => count(server, 'Redémarrage interrompu') > interrupted, 30_000);
  const after = children(primary);
  assert.equal(after, before, server.output());
  // …and the next SIGHUP restarts both, to exactly 2.
  const done = count(server, DONE);
  server.child.kill('SIGHUP');
  await waitFor('the end of the restart', () => count(server, DONE) > done, 60_000);
  const restarted = children(primary);
  assert.is(restarted.length, 2, server.output());
  for (const pid of restarted) assert.not.ok(before.includes(pid));
});

S.run();
