/**
 * Prometheus metrics (runtime/app/metrics.ts, runtime/app/metrics-cluster.ts, docs/deploy.md "Metrics"): off by
 * default (`/metrics` is the application's 404 and prom-client is never loaded); with METRICS_TOKEN, `GET /metrics`
 * on the application's port asks for the bearer token and counts requests by route pattern and status (never the
 * raw path); with two workers, a scrape on METRICS_PORT (the primary's) or through a worker adds both workers'
 * requests up, and a worker killed and replaced is counted. In this process: the mail outbox's queue and the
 * MariaDB pool's connections in use, read at the scrape.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { configure, openDatabase, Request } from '../runtime/index.js';
import { loadMetrics, metricsResponse, metricsSettings } from '../runtime/app/metrics.js';
import { mailLogTableStatements, sendMail } from '../runtime/mail/index.js';
import { plainRequest, startServerProcess, stopServerProcess, waitFor, waitListening, type ClusterProcess } from './helpers/cluster.js';
import { freePort } from './helpers/deploy-stack.js';
import { makeProject, type TempProject } from './helpers/project.js';
import { dropRedisPrefix, rawRedis, redisTestPrefix } from './helpers/session-backends.js';

const RUNTIME_URL = pathToFileURL(path.resolve(path.dirname(new URL(import.meta.url).pathname), '../runtime/index.js')).href;
const TOKEN = 'test-metrics-token-0123456789abcdef';

const SERVER = `import { createRequire } from 'node:module';
import { Application, Response, Router, configure, serve } from '${RUNTIME_URL}';
configure({ project_root: process.cwd() });
const router = new Router();
router.add('GET', '/produits/{id}', (request) => new Response(200, 'produit ' + request.routeParams.id), { public: true });
router.add('GET', '/pid', () => new Response(200, String(process.pid)), { public: true });
// Whether prom-client is in the module cache of this process (an import of a CommonJS package puts it there).
router.add('GET', '/loaded', () => {
  const cache = Object.keys(createRequire(import.meta.url).cache);
  return new Response(200, cache.some((file) => file.includes('/node_modules/prom-client/')) ? 'prom-client' : 'none');
}, { public: true });
await serve(new Application(router, { apiRoutesModule: null }), { port: 0, host: '127.0.0.1' });
`;

/** The value of one series of a scrape (`name{labels}`), null when absent. */
function sample(text: string, series: string): number | null {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? null : Number(line.slice(series.length + 1));
}

const count = (route: string, status: number, method = 'GET'): string =>
  `fw_http_request_duration_seconds_count{method="${method}",route="${route}",status="${status}"}`;

async function scrape(url: string, token: string | null = TOKEN): Promise<{ status: number; body: string; headers: Record<string, string> }> {
  const response = await fetch(url, { headers: token === null ? {} : { Authorization: `Bearer ${token}` } });
  return { status: response.status, body: await response.text(), headers: Object.fromEntries(response.headers) };
}

const S = suite('metrics: settings and a single process');
let project: TempProject;

S.after.each(() => project?.cleanup());

S('off unless METRICS_TOKEN or METRICS_PORT is set; a short token or a bad port stops the start', () => {
  assert.is(metricsSettings({}), null);
  assert.is(metricsSettings({ METRICS_TOKEN: ' ', METRICS_PORT: '' }), null);
  assert.equal(metricsSettings({ METRICS_TOKEN: TOKEN }), { token: TOKEN, port: null, host: '127.0.0.1' });
  assert.equal(metricsSettings({ METRICS_PORT: '9464', METRICS_HOST: '10.0.0.2' }), { token: null, port: 9464, host: '10.0.0.2' });
  assert.throws(() => metricsSettings({ METRICS_TOKEN: 'court' }), /METRICS_TOKEN : 24 caractères/);
  assert.throws(() => metricsSettings({ METRICS_PORT: '70000' }), /METRICS_PORT vaut « 70000 »/);
});

S('off: /metrics is the application 404 and prom-client is never loaded', async () => {
  project = makeProject();
  const server = startServerProcess(project, SERVER, {});
  try {
    const base = `http://127.0.0.1:${(await waitFor('the address', () => /http:\/\/127\.0\.0\.1:(\d+)/.exec(server.output())))[1]}`;
    assert.is((await scrape(`${base}/metrics`)).status, 404);
    assert.is((await plainRequest(`${base}/produits/1`)).status, 200);
    assert.is((await plainRequest(`${base}/loaded`)).body, 'none');
  } finally {
    await stopServerProcess(server);
  }
});

S('METRICS_TOKEN: 401 without the token; with it, requests counted by route pattern and status', async () => {
  project = makeProject();
  const server = startServerProcess(project, SERVER, { METRICS_TOKEN: TOKEN });
  try {
    const base = `http://127.0.0.1:${(await waitFor('the address', () => /http:\/\/127\.0\.0\.1:(\d+)/.exec(server.output())))[1]}`;
    for (const id of ['1', '2', '3']) assert.is((await plainRequest(`${base}/produits/${id}`)).status, 200);
    assert.is((await plainRequest(`${base}/absent/page`)).status, 404);
    const refused = await scrape(`${base}/metrics`, null);
    assert.is(refused.status, 401);
    assert.match(String(refused.headers['www-authenticate']), /^Bearer/);
    assert.is((await scrape(`${base}/metrics`, 'x'.repeat(40))).status, 401);
    const page = await scrape(`${base}/metrics`);
    assert.is(page.status, 200);
    assert.match(String(page.headers['content-type']), /^text\/plain; version=0\.0\.4/);
    assert.is(sample(page.body, count('/produits/{id}', 200)), 3);
    assert.is(sample(page.body, count('unmatched', 404)), 1);
    assert.not.match(page.body, /route="\/produits\/1"/);
    assert.ok(sample(page.body, 'fw_db_pool_connections_in_use') !== null, 'the pool gauges');
    assert.ok(sample(page.body, 'process_resident_memory_bytes')! > 0, "Node's default metrics");
    assert.is((await plainRequest(`${base}/loaded`)).body, 'prom-client');
  } finally {
    await stopServerProcess(server);
  }
});

S.run();

const C = suite('metrics: WEB_CONCURRENCY=2, the figures of both workers added up');
const prefix = redisTestPrefix();
let cluster: ClusterProcess;
let metricsPort: number;

C.before(async () => {
  project = makeProject();
  metricsPort = await freePort();
  cluster = startServerProcess(project, SERVER, {
    WEB_CONCURRENCY: '2',
    SESSION_STORE: 'redis',
    RATE_LIMIT_STORE: 'redis',
    REDIS_PREFIX: prefix,
    METRICS_TOKEN: TOKEN,
    METRICS_PORT: String(metricsPort),
  });
  await waitListening(cluster, 2);
});
C.after(async () => {
  await stopServerProcess(cluster);
  project.cleanup();
  const client = await rawRedis();
  await dropRedisPrefix(client, prefix).finally(() => client.close());
});

C('a scrape of the primary (METRICS_PORT) or through a worker counts every request of both workers', async () => {
  const pids = new Set<string>();
  let sent = 0;
  // Connections of their own: the kernel hands each to whichever worker accepts first; sent until both answered.
  while (pids.size < 2 || sent < 40) {
    const answers = await Promise.all(Array.from({ length: 10 }, () => plainRequest(`${cluster.base}/pid`)));
    for (const answer of answers) pids.add(answer.body);
    sent += answers.length;
    assert.ok(sent < 2000, 'both workers answered');
  }
  const primary = await scrape(`http://127.0.0.1:${metricsPort}/metrics`);
  assert.is(primary.status, 200);
  assert.is(sample(primary.body, count('/pid', 200)), sent);
  assert.is(sample(primary.body, 'fw_worker_restarts_total{reason="exit"}'), 0);
  assert.is((await scrape(`http://127.0.0.1:${metricsPort}/metrics`, null)).status, 401, 'the token is asked on METRICS_PORT too');
  // Through a worker: the primary answers for the cluster (this scrape counts once written, not in its own text).
  const worker = await scrape(`${cluster.base}/metrics`);
  assert.is(worker.status, 200);
  assert.is(sample(worker.body, count('/pid', 200)), sent);
});

C('a worker killed and replaced is counted by the primary', async () => {
  const victim = Number((await plainRequest(`${cluster.base}/pid`)).body);
  process.kill(victim, 'SIGKILL');
  await waitFor('the replacement', () => cluster.output().includes(`Processus ${victim} arrêté`));
  await waitListening(cluster, 2);
  const page = await waitFor('two workers answering', async () => {
    const answer = await scrape(`http://127.0.0.1:${metricsPort}/metrics`);
    return answer.status === 200 && sample(answer.body, 'fw_worker_restarts_total{reason="exit"}') === 1 ? answer : null;
  });
  assert.is(sample(page.body, 'fw_worker_restarts_total{reason="timeout"}'), 0);
});

C.run();

const P = suite('metrics: the outbox and the pool, read at the scrape');

P('the mail outbox queue and the MariaDB connections in use', async () => {
  project = makeProject();
  configure({ project_root: project.root, db_driver: 'sqlite', db_file: 'metrics.sqlite', mail_enabled: true, mail_from: 'app@example.test' });
  const { closeDatabase, getDatabase } = await import('../runtime/db/database.js');
  const { jobsTablesStatements } = await import('../runtime/jobs/schema.js');
  // The outbox's tables: mail_log and the jobs tables its messages go through (docs/mail.md).
  for (const statement of [...mailLogTableStatements('sqlite'), ...jobsTablesStatements('sqlite')]) await getDatabase().execute(statement);
  for (const n of [1, 2]) await sendMail({ to: `client${n}@example.test`, subject: 'Bonjour', text: 'Texte' });
  await loadMetrics({ token: TOKEN, port: null, host: '127.0.0.1' });
  const mariadb = openDatabase({ driver: 'mariadb', host: '127.0.0.1', port: 3306, user: 'root', password: '' });
  try {
    const during = await mariadb.transaction(async (tx) => {
      await tx.fetchOne('SELECT 1 AS one');
      const response = await metricsResponse(new Request({ path: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } }))!;
      return response.body as string;
    });
    assert.is(sample(during, 'fw_mail_outbox_queued'), 2);
    assert.is(sample(during, 'fw_db_pool_connections_max'), 5);
    assert.is(sample(during, 'fw_db_pool_connections_in_use'), 1);
    const after = (await metricsResponse(new Request({ path: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } }))!).body as string;
    assert.is(sample(after, 'fw_db_pool_connections_in_use'), 0);
  } finally {
    await mariadb.close();
    await closeDatabase();
    project.cleanup();
  }
});

P.run();
