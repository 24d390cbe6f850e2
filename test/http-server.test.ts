/** The server itself: graceful stop on SIGTERM (child process) and HTTPS (docs/decisions.md#how-a-generated-app-runs). */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Application, BaseController, Router, configure, createServer, resetConfig } from '../runtime/index.js';
import { assertSecurityHeaders } from './helpers/client.js';
import { makeProject, type TempProject } from './helpers/project.js';
import { listen } from './helpers/server.js';

const RUNTIME_URL = pathToFileURL(path.resolve(path.dirname(new URL(import.meta.url).pathname), '../runtime/index.js')).href;

/** Resolves when `predicate` holds on the accumulated text of a stream, or rejects after `ms`. */
function waitForOutput(
  child: ChildProcess,
  stream: 'stdout' | 'stderr',
  predicate: (text: string) => RegExpExecArray | boolean | null,
  ms: number,
): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`${stream}: rien d'attendu après ${ms} ms, reçu : ${text}`)), ms);
    const onData = (chunk: Buffer): void => {
      text += chunk.toString();
      if (predicate(text)) {
        clearTimeout(timer);
        child[stream]!.off('data', onData);
        resolve(text);
      }
    };
    child[stream]!.on('data', onData);
  });
}

function get(url: string, agent: http.Agent | false = false): Promise<{ status: number; body: string; connection?: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve(agent ? { status: res.statusCode!, body, connection: res.headers.connection } : { status: res.statusCode!, body }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** The error code of a TCP connection attempt (undefined when it connects). */
function connectError(port: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(undefined);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code));
  });
}

const G = suite('http-server: graceful stop on SIGTERM');
let project: TempProject;
let child: ChildProcess | undefined;
G.before(() => {
  project = makeProject();
});
G.after(() => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  project.cleanup();
});

G('the slow request in flight completes with 200, then the process exits 0 and refuses connections', async () => {
  const script = project.write(
    'server.mjs',
    `import { Application, Response, Router, configure, serve } from '${RUNTIME_URL}';
configure({ project_root: ${JSON.stringify(project.root)} });
// The slow requests end when the test closes this process's stdin: not before it has checked the refusal.
const released = new Promise((resolve) => process.stdin.once('end', resolve));
process.stdin.resume();
const router = new Router();
router.add('GET', '/slow', async () => {
  process.stdout.write('slow-started\\n');
  await released;
  return new Response(200, 'slow done');
}, { public: true });
router.add('GET', '/fast', () => new Response(200, 'fast'), { public: true });
await serve(new Application(router, { apiRoutesModule: null }), { port: 0, host: '127.0.0.1' });
`,
  );
  child = spawn(process.execPath, [script], { cwd: project.root, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, FW_LOG_LEVEL: 'INFO' } });
  const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
  const announced = await waitForOutput(child, 'stdout', (text) => /http:\/\/127\.0\.0\.1:(\d+)/.exec(text), 10_000);
  const port = Number(/http:\/\/127\.0\.0\.1:(\d+)/.exec(announced)![1]);
  const base = `http://127.0.0.1:${port}`;
  assert.equal(await get(`${base}/fast`), { status: 200, body: 'fast' });

  // Two requests in flight: one on its own connection, one on a keep-alive connection (as a browser would).
  const started = waitForOutput(child, 'stdout', (text) => text.split('slow-started').length === 3, 10_000);
  const keepAlive = new http.Agent({ keepAlive: true });
  const slow = get(`${base}/slow`);
  const slowKeepAlive = get(`${base}/slow`, keepAlive);
  // Awaited below; these only keep a failure elsewhere from becoming an unhandled rejection.
  slow.catch(() => undefined);
  slowKeepAlive.catch(() => undefined);
  await started;
  const stopping = waitForOutput(child, 'stderr', (text) => text.includes('SIGTERM'), 10_000);
  child.kill('SIGTERM');
  await stopping;
  let slowDone = false;
  void slow.then(
    () => (slowDone = true),
    () => (slowDone = true),
  );
  // The listener closes right after the log line; allow the child a moment to get there (10 s at most).
  let refused: string | undefined;
  const deadline = Date.now() + 10_000;
  while ((refused = await connectError(port)) !== 'ECONNREFUSED' && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.is(refused, 'ECONNREFUSED', 'no new connection while draining');
  assert.not.ok(slowDone, 'refused while the slow request was still running');
  child.stdin!.end();

  assert.equal(await slow, { status: 200, body: 'slow done' });
  // The keep-alive connection is told to close, so the process need not wait for the keep-alive timeout.
  assert.equal(await slowKeepAlive, { status: 200, body: 'slow done', connection: 'close' });
  keepAlive.destroy();
  const code = await Promise.race([exited, new Promise<string>((resolve) => setTimeout(() => resolve('timeout'), 15_000).unref())]);
  assert.is(code, 0);
  assert.is(await connectError(port), 'ECONNREFUSED');
});

G.run();

// --- HTTPS ---

const H = suite('http-server: HTTPS');
let tls: TempProject;
let certFile: string;
let keyFile: string;
H.before(() => {
  tls = makeProject();
  certFile = path.join(tls.root, 'cert.pem');
  keyFile = path.join(tls.root, 'key.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=127.0.0.1', '-days', '1', '-keyout', keyFile, '-out', certFile], {
    stdio: 'ignore',
  });
  configure({ project_root: tls.root });
});
H.after(() => {
  resetConfig();
  tls.cleanup();
});

function httpsGet(url: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string; encrypted: boolean }> {
  return new Promise((resolve, reject) => {
    https
      .get(url, { rejectUnauthorized: false, agent: false }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, body, encrypted: Boolean((res.socket as { encrypted?: boolean }).encrypted) }),
        );
      })
      .on('error', reject);
  });
}

async function checkHttps(server: http.Server): Promise<void> {
  assert.instance(server, https.Server);
  const handle = await listen(server, 'https');
  try {
    const r = await httpsGet(`${handle.base}/hello`);
    assert.is(r.status, 200);
    assert.ok(r.encrypted, 'TLS socket');
    assert.equal(JSON.parse(r.body), { hello: 'tls' });
    assertSecurityHeaders({ get: (name: string) => r.headers[name] as string | undefined }, 'https');
  } finally {
    await handle.close();
  }
}

const router = (): Router => new Router().add('GET', '/hello', () => BaseController.json({ hello: 'tls' }), { public: true });

H('createServer(app, { certFile, keyFile }) serves HTTPS with the security headers', async () => {
  await checkHttps(createServer(new Application(router(), { apiRoutesModule: null }), { certFile, keyFile }));
});

H('SSL_CERTFILE and SSL_KEYFILE select HTTPS too', async () => {
  const saved = [process.env.SSL_CERTFILE, process.env.SSL_KEYFILE];
  process.env.SSL_CERTFILE = certFile;
  process.env.SSL_KEYFILE = keyFile;
  try {
    await checkHttps(createServer(new Application(router(), { apiRoutesModule: null })));
  } finally {
    if (saved[0] === undefined) delete process.env.SSL_CERTFILE;
    else process.env.SSL_CERTFILE = saved[0];
    if (saved[1] === undefined) delete process.env.SSL_KEYFILE;
    else process.env.SSL_KEYFILE = saved[1];
  }
});

H.run();
