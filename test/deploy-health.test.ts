/**
 * The health routes (runtime/app/health.ts, docs/deploy.md "Health routes") of a real server process with two
 * workers, MariaDB and Redis reached through TCP proxies the test cuts, and an SMTP server it closes: `/up` answers
 * 200 `ok` whatever is away, without a cookie or a log line; `/up/ready` answers 200 while everything answers and
 * 503 naming what does not (a refused port or a stalled server alike), and 200 again once it is back.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { plainRequest, startServerProcess, waitFor, waitListening, type ClusterProcess, type PlainAnswer } from './helpers/cluster.js';
import { MARIADB_ADMIN } from './helpers/cli.js';
import { makeProject, type TempProject } from './helpers/project.js';
import { dropRedisPrefix, rawRedis, redisTestPrefix } from './helpers/session-backends.js';
import { startSilentServer } from './helpers/smtp.js';
import { startTcpProxy, type TcpProxy } from './helpers/tcp-proxy.js';

const RUNTIME_URL = pathToFileURL(path.resolve(path.dirname(new URL(import.meta.url).pathname), '../runtime/index.js')).href;

const SERVER = `import { Application, Response, Router, configure, serve } from '${RUNTIME_URL}';
const env = process.env;
configure({
  project_root: process.cwd(),
  db_driver: 'mariadb', db_host: '127.0.0.1', db_port: Number(env.T_DB_PORT), db_name: 'mysql', db_user: '${MARIADB_ADMIN.user}',
  db_password: '${MARIADB_ADMIN.password}', db_connect_timeout_ms: 500,
  mail_transport: 'smtp', mail_host: '127.0.0.1', mail_port: Number(env.T_SMTP_PORT),
});
const router = new Router();
router.add('GET', '/', () => new Response(200, 'home'), { public: true });
await serve(new Application(router, { apiRoutesModule: null }), { port: 0, host: '127.0.0.1' });
`;

const H = suite('deploy: /up and /up/ready with two workers');
let project: TempProject;
let server: ClusterProcess;
let database: TcpProxy;
let redis: TcpProxy;
let smtp: Awaited<ReturnType<typeof startSilentServer>>;
const prefix = redisTestPrefix();

H.before(async () => {
  project = makeProject();
  database = await startTcpProxy({ host: MARIADB_ADMIN.host, port: MARIADB_ADMIN.port });
  redis = await startTcpProxy({ host: '127.0.0.1', port: 6379 });
  smtp = await startSilentServer();
  server = startServerProcess(project, SERVER, {
    WEB_CONCURRENCY: '2',
    SESSION_STORE: 'redis',
    RATE_LIMIT_STORE: 'redis',
    REDIS_URL: `redis://127.0.0.1:${redis.port}`,
    REDIS_PREFIX: prefix,
    T_DB_PORT: String(database.port),
    T_SMTP_PORT: String(smtp.port),
    // A loaded machine may take more than the default second to open the first connections (docs/deploy.md).
    HEALTH_CHECK_MS: '4000',
  });
  await waitListening(server, 2);
  // Each worker opens its first database and Redis connections on its first check: on a loaded machine that may
  // take longer than a check may. The tests start from workers whose connections are open.
  await waitFor(
    'every check ok in both workers',
    async () => {
      const answers = await Promise.all([ready(), ready(), ready(), ready()]);
      return answers.every((answer) => answer.status === 200);
    },
    30_000,
  );
});

H.after(async () => {
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  await Promise.allSettled([database.close(), redis.close(), smtp.close()]);
  project.cleanup();
  const client = await rawRedis();
  await dropRedisPrefix(client, prefix).finally(() => client.close());
});

const ready = (): Promise<PlainAnswer> => plainRequest(`${server.base}/up/ready`, { ms: 10_000 });

function readyBody(answer: PlainAnswer): { status: string; checks: Record<string, string>; failed?: string[] } {
  assert.match(String(answer.headers['content-type']), /^application\/json/);
  assert.is(answer.headers['cache-control'], 'no-store');
  assert.is(answer.headers['set-cookie'], undefined, 'no cookie');
  return JSON.parse(answer.body) as { status: string; checks: Record<string, string>; failed?: string[] };
}

H('/up: 200 ok, no-store, no cookie (even with one sent), GET and HEAD only; nothing logged per request', async () => {
  const before = server.output().length;
  for (let i = 0; i < 40; i++) {
    const answer = await plainRequest(`${server.base}/up`);
    assert.is(answer.status, 200);
    assert.is(answer.body, 'ok\n');
    assert.is(answer.headers['cache-control'], 'no-store');
    assert.is(answer.headers['set-cookie'], undefined);
  }
  const withCookie = await fetch(`${server.base}/up`, { headers: { cookie: 'fw_session=forged; other=1' } });
  assert.is(withCookie.status, 200);
  assert.is(withCookie.headers.get('set-cookie'), null, 'a cookie sent loads no session and sets none');
  const head = await plainRequest(`${server.base}/up`, { method: 'HEAD' });
  assert.is(head.status, 200);
  assert.is(head.body, '');
  const post = await plainRequest(`${server.base}/up`, { method: 'POST' });
  assert.is(post.status, 405);
  assert.is(post.headers.allow, 'GET, HEAD');
  assert.is(server.output().length, before, `nothing written for the health requests: ${server.output().slice(before)}`);
});

H('/up/ready: 200 with every check ok; never counted by an attempt limiter (200 requests, all 200)', async () => {
  const body = readyBody(await ready());
  assert.equal(body, { status: 'ok', checks: { database: 'ok', redis: 'ok', mail: 'ok' } });
  const answers = await Promise.all(Array.from({ length: 200 }, () => plainRequest(`${server.base}/up/ready`, { ms: 10_000 })));
  assert.equal([...new Set(answers.map((answer) => answer.status))], [200]);
});

H('the database refused, then stalled: /up 200, /up/ready 503 naming the database, then 200 once it is back', async () => {
  await database.close();
  const refused = await ready();
  assert.is(refused.status, 503);
  assert.is(refused.headers['retry-after'], '5');
  assert.equal(readyBody(refused), { status: 'unavailable', checks: { database: 'unavailable', redis: 'ok', mail: 'ok' }, failed: ['database'] });
  assert.is((await plainRequest(`${server.base}/up`)).status, 200, 'liveness does not depend on the database');
  await database.reopen();
  assert.is((await ready()).status, 200, 'ready again at once');
  database.pause();
  const stalled = await ready();
  assert.is(stalled.status, 503, 'a silent database fails its check within its time-out');
  assert.equal(readyBody(stalled).failed, ['database']);
  assert.is((await plainRequest(`${server.base}/up`)).status, 200);
  database.resume();
  await database.close();
  await database.reopen();
  assert.is((await ready()).status, 200);
  assert.match(server.output(), /Prêt : non \(\/up\/ready\) : database indisponible/, 'the failure is logged (WARNING)');
  assert.not.match(server.output(), /INFO[^\n]*\/up/, 'no INFO line about the health routes');
});

H('Redis and the SMTP server away: 503 naming both; /up still 200', async () => {
  await redis.close();
  await smtp.close();
  const answer = await ready();
  assert.is(answer.status, 503);
  assert.equal(readyBody(answer), { status: 'unavailable', checks: { database: 'ok', redis: 'unavailable', mail: 'unavailable' }, failed: ['redis', 'mail'] });
  assert.is((await plainRequest(`${server.base}/up`)).status, 200);
  await redis.reopen();
  // The Redis client reconnects on its own, after its back-off.
  const back = await waitFor('Redis back', async () => {
    const body = readyBody(await ready());
    return body.checks.redis === 'ok' && body;
  });
  assert.equal(back.checks, { database: 'ok', redis: 'ok', mail: 'unavailable' });
});

H.run();
