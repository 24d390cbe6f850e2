/**
 * Two instances of an application (each a primary with two workers) behind Debian's nginx running the site
 * `fw deploy:init` writes (cli/deploy/nginx.ts, its one upstream `server` line made two, the ports changed): under
 * a load of GETs and form POSTs (autocannon), one instance is stopped with SIGTERM; no request fails (nginx sends
 * new connections to the other instance once the stopping one refuses them, and no POST is cut), and the stopped
 * instance exits 0. One instance frozen (SIGSTOP) costs the GETs it held nginx's read time-out, then they are
 * answered by the other. The health routes answer through nginx and are not written to its access log.
 * docs/deploy.md "Stopping: SIGTERM", "Timeouts and retries".
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, type ChildProcess } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { nginxSite } from '../cli/deploy/nginx.js';
import { testSite } from '../cli/deploy/nginx-inspect.js';
import { startServerProcess, waitFor, waitListening, type ClusterProcess } from './helpers/cluster.js';
import { freePort, selfSigned, startNginx, stopChild } from './helpers/deploy-stack.js';
import { makeProject, type TempProject } from './helpers/project.js';
import { dropRedisPrefix, rawRedis, redisTestPrefix } from './helpers/session-backends.js';

const RUNTIME_URL = pathToFileURL(path.resolve(path.dirname(new URL(import.meta.url).pathname), '../runtime/index.js')).href;

const SERVER = `import { Application, Response, Router, configure, serve } from '${RUNTIME_URL}';
configure({ project_root: process.cwd() });
const router = new Router();
router.add('GET', '/pid', () => new Response(200, String(process.pid)), { public: true });
router.add('POST', '/echo', (request) => new Response(200, 'reçu ' + String(request.field('text') ?? '').length), { public: true, csrf: false });
await serve(new Application(router, { apiRoutesModule: null }), { port: Number(process.env.T_PORT || 0), host: '127.0.0.1' });
`;

interface LoadResult {
  '2xx': number;
  non2xx: number;
  errors: number;
  timeouts: number;
  resets: number;
}
type Autocannon = (options: Record<string, unknown>) => Promise<LoadResult>;

process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
const prefix = redisTestPrefix();
const ENV = { WEB_CONCURRENCY: '2', SESSION_STORE: 'redis', RATE_LIMIT_STORE: 'redis', REDIS_PREFIX: prefix };
const N = suite('deploy: SIGTERM of one of two instances behind nginx');
let project: TempProject;
let instances: ClusterProcess[] = [];
let nginx: ChildProcess | undefined;
let nginxPrefix = '';
let httpsPort = 0;

N.before(async () => {
  project = makeProject();
  instances = [startServerProcess(project, SERVER, ENV), startServerProcess(project, SERVER, ENV)];
  for (const instance of instances) await waitListening(instance, 2);
  nginxPrefix = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-deploy-instances-'));
  fs.chmodSync(nginxPrefix, 0o755);
  const tls = selfSigned(nginxPrefix);
  const httpPort = await freePort();
  httpsPort = await freePort();
  const [first, second] = instances.map((instance) => new URL(instance.base).host);
  const site = nginxSite({
    app: 'boutique',
    root: project.root,
    serverName: '_',
    upstream: first!,
    certificate: { ...tls, source: 'test' },
    body: { application: 1024 * 1024, nginxMiB: 2, source: 'test' },
  })
    .replace(`    server ${first};\n`, `    server ${first};\n    server ${second};\n`)
    .replace(/listen (\[::\]:)?80;/g, `listen $1${httpPort};`)
    .replace(/listen (\[::\]:)?443 ssl http2;/g, `listen $1${httpsPort} ssl http2;`);
  const file = path.join(nginxPrefix, 'boutique.conf');
  fs.writeFileSync(file, site);
  const syntax = testSite(site, 'boutique.conf');
  assert.ok(syntax && 'ok' in syntax && syntax.ok, `nginx -t: ${JSON.stringify(syntax)}`);
  nginx = await startNginx(nginxPrefix, file, httpsPort);
});

N.after(async () => {
  await stopChild(nginx, 'SIGQUIT');
  for (const instance of instances) if (instance.child.exitCode === null && instance.child.signalCode === null) instance.child.kill('SIGKILL');
  if (nginxPrefix) fs.rmSync(nginxPrefix, { recursive: true, force: true });
  project.cleanup();
  const client = await rawRedis();
  await dropRedisPrefix(client, prefix).finally(() => client.close());
});

N('the generated site: timeouts, retries of idempotent requests only, the health locations', () => {
  const site = fs.readFileSync(path.join(nginxPrefix, 'boutique.conf'), 'utf8');
  assert.match(site, 'proxy_connect_timeout 2s;');
  assert.match(site, 'proxy_next_upstream error timeout http_502 http_503;');
  assert.not.match(site, /^\s*proxy_next_upstream [^;\n]*non_idempotent/m);
  assert.match(site, /location = \/up \{\n\s+access_log off;/);
  assert.match(site, /location = \/up\/ready \{\n\s+access_log off;/);
});

N('/up and /up/ready through nginx, absent from its access log', async () => {
  const up = await fetch(`https://127.0.0.1:${httpsPort}/up`);
  assert.is(up.status, 200);
  assert.is(await up.text(), 'ok\n');
  const ready = await fetch(`https://127.0.0.1:${httpsPort}/up/ready`);
  assert.is(ready.status, 200);
  assert.is(((await ready.json()) as { status: string }).status, 'ok');
  const page = await fetch(`https://127.0.0.1:${httpsPort}/pid`);
  assert.is(page.status, 200);
  await page.text();
  const access = await waitFor('the access log line', () => {
    const text = fs.readFileSync(path.join(nginxPrefix, 'access.log'), 'utf8');
    return text.includes('GET /pid') && text;
  });
  assert.not.match(access, '/up');
});

N('GETs and POSTs under load while one instance gets SIGTERM: no failed request, the instance exits 0', async () => {
  const { default: autocannon } = (await import('autocannon' as string)) as { default: Autocannon };
  const body = `text=${'x'.repeat(2000)}`;
  const load = autocannon({
    url: `https://127.0.0.1:${httpsPort}`,
    connections: 8,
    duration: 5,
    requests: [
      { method: 'GET', path: '/pid' },
      { method: 'POST', path: '/echo', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body },
    ],
  });
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const [stopped] = instances;
  stopped!.child.kill('SIGTERM');
  assert.is(await stopped!.exited, 0, stopped!.output());
  const result = await load;
  const figures = `${result['2xx']} 2xx, ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts, ${result.resets} resets`;
  console.log(`SIGTERM under load through nginx: ${figures}`);
  // What nginx answered other than 200 (499: autocannon closing its connections at the end of its run).
  const failed = fs
    .readFileSync(path.join(nginxPrefix, 'access.log'), 'utf8')
    .split('\n')
    .filter((line) => line && !/" (200|499) /.test(line));
  const upstreamErrors = fs
    .readFileSync(path.join(nginxPrefix, 'error.log'), 'utf8')
    .split('\n')
    .filter((line) => /upstream/.test(line) && !/Connection refused|while connecting/.test(line));
  if (failed.length > 0) console.log(`${failed.slice(0, 5).join('\n')}\n${upstreamErrors.slice(-6).join('\n')}`);
  assert.is(result.errors, 0, figures);
  assert.ok(result['2xx'] > 100, figures);
  assert.equal(
    failed.filter((line) => !line.includes('"POST ')),
    [],
    'no GET fails: refused, cut or timed out, nginx sends it to the other instance',
  );
  // A POST already sent is never sent twice. One case is left that no server can close: a connection the kernel
  // completed on the shared socket in the instant between the last worker's close and the primary's (about a
  // millisecond; measured here: 1 request of 406,500 over 17 runs) is reset with it. docs/deploy.md.
  assert.ok(result.non2xx <= 1, `${figures}\n${failed.join('\n')}`);
});

N('one instance frozen (its processes stopped) for 18 s under a load of GETs: every GET answered', async () => {
  const { default: autocannon } = (await import('autocannon' as string)) as { default: Autocannon };
  // The instance the previous test stopped, started again on its port: nginx's upstream is unchanged.
  const restarted = startServerProcess(project, SERVER, { ...ENV, T_PORT: new URL(instances[0]!.base).port });
  instances.push(restarted);
  await waitListening(restarted, 2);
  // nginx takes it back once its fail_timeout (10 s) after the refused connections has passed.
  const workers = execFileSync('pgrep', ['-P', String(restarted.child.pid)], { encoding: 'utf8' })
    .trim()
    .split('\n');
  await waitFor(
    'nginx sending requests to the restarted instance',
    async () => workers.includes(await (await fetch(`https://127.0.0.1:${httpsPort}/pid`)).text()),
    20_000,
  );
  const frozen = instances[1]!;
  const pids = [
    frozen.child.pid!,
    ...execFileSync('pgrep', ['-P', String(frozen.child.pid)], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .map(Number),
  ];
  assert.is(pids.length, 3, 'the primary and its two workers');
  const load = autocannon({ url: `https://127.0.0.1:${httpsPort}/pid`, connections: 8, duration: 22, timeout: 30 });
  await new Promise((resolve) => setTimeout(resolve, 1000));
  for (const pid of pids) process.kill(pid, 'SIGSTOP');
  await new Promise((resolve) => setTimeout(resolve, 18_000));
  for (const pid of pids) process.kill(pid, 'SIGCONT');
  const result = (await load) as LoadResult & { latency: { max: number; p99: number } };
  const figures = `${result['2xx']} 2xx, ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts; latency p99 ${result.latency.p99} ms, max ${result.latency.max} ms`;
  console.log(`One instance frozen 18 s: ${figures}`);
  assert.is(result.non2xx, 0, figures);
  assert.is(result.errors, 0, figures);
  assert.ok(result['2xx'] > 100, figures);
});

N.run();
