/**
 * Stopping and watching the workers of a real primary (runtime/app/cluster.ts, docs/deploy.md "Stopping: SIGTERM"
 * and "Frozen workers"):
 * - SIGTERM with a keep-alive connection idle and a slow POST in flight: new connections are refused (never
 *   accepted and then reset), a request sent afterwards on the idle connection is answered (`Connection: close`),
 *   the POST gets its whole response, and the processes exit 0;
 * - a worker whose event loop is stuck (a route that computes without end, only in this test's application) is
 *   killed past WORKER_TIMEOUT and replaced, while the other keeps answering.
 */
import fs from 'node:fs';
import net from 'node:net';
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
// Answers once the test writes release-slow (at most 20 s), with the size of the body it received.
router.add('POST', '/slow', async (request) => {
  process.stdout.write('slow-started\\n');
  const until = Date.now() + 20000;
  while (!fs.existsSync('release-slow') && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
  return new Response(200, 'slow done ' + String(request.field('text') ?? '').length);
}, { public: true, csrf: false });
// The event loop stuck for good: only this test's application has such a route.
router.add('GET', '/freeze', () => {
  process.stdout.write('frozen ' + process.pid + '\\n');
  for (;;);
}, { public: true });
await serve(new Application(router, { apiRoutesModule: null }), { port: 0, host: '127.0.0.1' });
`;

const prefix = redisTestPrefix();
const STORES = { SESSION_STORE: 'redis', RATE_LIMIT_STORE: 'redis', REDIS_PREFIX: prefix };

/** A raw connection that reads HTTP/1.1 responses one after another (Content-Length bodies). */
class RawConnection {
  private buffer = '';
  private waiting: (() => void) | null = null;
  closed = false;
  error: NodeJS.ErrnoException | null = null;
  private constructor(readonly socket: net.Socket) {
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      this.buffer += chunk;
      this.waiting?.();
    });
    socket.on('error', (error) => (this.error = error));
    socket.on('close', () => {
      this.closed = true;
      this.waiting?.();
    });
  }

  static open(port: number): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  /** The next whole response: status, lower-case headers, body; throws when the connection ends first. */
  async response(): Promise<{ status: number; headers: Record<string, string>; body: string }> {
    for (;;) {
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end >= 0) {
        const [statusLine, ...lines] = this.buffer.slice(0, end).split('\r\n');
        const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
        const length = Number(headers['content-length'] ?? 0);
        if (this.buffer.length >= end + 4 + length) {
          const body = this.buffer.slice(end + 4, end + 4 + length);
          this.buffer = this.buffer.slice(end + 4 + length);
          return { status: Number(statusLine!.split(' ')[1]), headers, body };
        }
      }
      if (this.closed) throw new Error(`connection closed before a whole response (${this.error?.code ?? 'no error'}): ${JSON.stringify(this.buffer)}`);
      await new Promise<void>((resolve) => (this.waiting = resolve));
      this.waiting = null;
    }
  }

  get(pathname: string): void {
    this.socket.write(`GET ${pathname} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  }
}

const D = suite('scale: SIGTERM drains, a frozen worker is replaced');
let project: TempProject;
const servers: ClusterProcess[] = [];

D.before(() => {
  project = makeProject();
});
D.after(async () => {
  for (const server of servers) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  project.cleanup();
  const client = await rawRedis();
  await dropRedisPrefix(client, prefix).finally(() => client.close());
});

/** The SIGTERM scenario on `workers` processes (1: the process serves itself, no primary). */
async function drains(workers: number): Promise<void> {
  const server = startServerProcess(project, SERVER, { WEB_CONCURRENCY: String(workers), ...STORES });
  servers.push(server);
  const port =
    workers > 1
      ? Number(new URL(await waitListening(server, workers)).port)
      : Number((await waitFor('the address', () => /http:\/\/127\.0\.0\.1:(\d+) \(Ctrl\+C/.exec(server.output())))[1]);

  const idle = await RawConnection.open(port);
  idle.get('/pid');
  const first = await idle.response();
  assert.is(first.status, 200);
  assert.is.not(first.headers.connection, 'close', 'a keep-alive connection');

  const text = 'é'.repeat(50_000);
  const body = `text=${encodeURIComponent(text)}`;
  const post = await RawConnection.open(port);
  post.socket.write(
    `POST /slow HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
  );
  await waitFor('the slow POST', () => server.output().includes('slow-started'));

  server.child.kill('SIGTERM');
  await waitFor('every process told to stop', () => server.output().split('SIGTERM reçu : arrêt après les requêtes en cours.').length - 1 >= workers);

  // Every new connection is either answered whole or refused; once refused, always refused.
  const refused = await waitFor('a refused connection', async () => {
    try {
      const probe = await RawConnection.open(port);
      probe.get('/pid');
      const answer = await probe.response();
      assert.is(answer.status, 200, 'a connection accepted while the listener closes is answered');
      probe.socket.destroy();
      return false;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'ECONNREFUSED' && 'ECONNREFUSED';
    }
  });
  assert.is(refused, 'ECONNREFUSED');

  assert.not.ok(idle.closed, 'the idle keep-alive connection is not cut');
  idle.get('/pid');
  const late = await idle.response();
  assert.is(late.status, 200, 'a request on the idle connection after the SIGTERM is answered');
  assert.is(late.headers.connection, 'close', 'and its connection then closes');

  project.write('release-slow', '');
  const slow = await post.response();
  assert.is(slow.status, 200);
  assert.is(slow.body, `slow done ${text.length}`, 'the whole body was read and answered');
  assert.is(slow.headers.connection, 'close');
  assert.is(await server.exited, 0);
  fs.rmSync(path.join(project.root, 'release-slow'));
}

D('SIGTERM, two workers: refused new connections, the idle keep-alive connection still answered, the slow POST answered whole, exit 0', () => drains(2));

D('SIGTERM, one process: the same', () => drains(1));

D('a worker whose event loop is stuck is killed past WORKER_TIMEOUT and replaced; the other keeps answering', async () => {
  const server = startServerProcess(project, SERVER, { WEB_CONCURRENCY: '2', WORKER_TIMEOUT: '1', ...STORES });
  servers.push(server);
  await waitListening(server, 2);
  const frozen = plainRequest(`${server.base}/freeze`, { ms: 30_000 }).then(
    () => 'answered',
    (error: NodeJS.ErrnoException) => error.code ?? error.message,
  );
  const pid = (await waitFor('the frozen worker', () => /frozen (\d+)/.exec(server.output())))[1]!;
  // The other worker answers meanwhile; the first connections may be refused by no one: each is answered.
  const answers: string[] = [];
  while (!server.output().includes(`Processus ${pid} sans réponse`)) {
    const answer = await plainRequest(`${server.base}/pid`, { ms: 10_000 });
    assert.is(answer.status, 200);
    answers.push(answer.body);
  }
  assert.ok(answers.length > 0 && !answers.includes(pid), `answered by ${[...new Set(answers)].join(', ')}`);
  assert.is(await frozen, 'ECONNRESET', 'the stuck request ends with its worker');
  await waitFor('the replacement', () => new RegExp(`Processus ${pid} arrêté \\(SIGKILL\\) : remplacé`).test(server.output()));
  const pids = new Set<string>();
  await waitFor('two workers again', async () => {
    const answer = await plainRequest(`${server.base}/pid`);
    assert.is(answer.status, 200);
    pids.add(answer.body);
    return pids.size >= 2;
  });
  assert.not.ok(pids.has(pid));
  server.child.kill('SIGTERM');
  assert.is(await server.exited, 0);
});

D.run();
