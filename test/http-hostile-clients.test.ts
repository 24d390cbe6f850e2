/**
 * What node answers by itself (malformed requests, oversized heads, slow clients) and the server's time-outs,
 * connection cap and request targets, over raw sockets (docs/runtime.md "Limits and time-outs").
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import net from 'node:net';
import { BaseController, configure, createServer, type Router } from '../runtime/index.js';
import { assertSecurityHeaders } from './helpers/client.js';
import { startApp, type AppSetup, type TestApp } from './helpers/server.js';

function routes(router: Router): void {
  router.add('GET', '/hello', (r) => BaseController.json({ path: r.path, query: r.query, host: r.header('host') ?? null }), { public: true });
  router.add('POST', '/form', (r) => BaseController.json({ fields: Object.keys(r.body).length }), { public: true, csrf: false });
}

/** Starts the app for one test and always closes it. */
async function withApp(setup: AppSetup, run: (t: TestApp) => Promise<void>): Promise<void> {
  const t = await startApp({ routes, ...setup });
  try {
    await run(t);
  } finally {
    await t.close();
  }
}

/** A socket connected to the server, once the server has counted it. */
function connect(t: TestApp): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const accepted = new Promise<void>((ok) => t.server.once('connection', () => ok()));
    const socket = net.connect(t.port, '127.0.0.1');
    socket.once('error', reject);
    socket.once('connect', () => void accepted.then(() => resolve(socket)));
  });
}

/** Everything the server sends on a socket until it closes it (fails after `timeoutMs`). */
function readUntilClosed(socket: net.Socket, timeoutMs = 10_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`socket toujours ouvert après ${timeoutMs} ms ; reçu : ${data.slice(0, 200)}`));
    }, timeoutMs);
    socket.on('data', (chunk: Buffer) => (data += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(data);
    });
  });
}

const NodeAnswers = suite('http-hostile-clients: what node answers itself carries the six headers');

NodeAnswers('a malformed request line: 400 with the six headers and a body', () =>
  withApp({}, async (t) => {
    const r = await t.raw('NOT A REQUEST\r\n\r\n');
    assert.is(r.status, 400);
    assertSecurityHeaders(r, '400 client error');
    assert.is(r.header('connection'), 'close');
    assert.is(r.header('content-type'), 'text/html; charset=utf-8');
    assert.is(Number(r.header('content-length')), r.body.length);
    assert.match(r.text, 'mal formée');
  }),
);

NodeAnswers('a 20 KB header: 431 with the six headers', () =>
  withApp({}, async (t) => {
    const r = await t.raw(`GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\nConnection: close\r\n\r\n`);
    assert.is(r.status, 431);
    assertSecurityHeaders(r, '431 client error');
    assert.is(r.header('connection'), 'close');
  }),
);

NodeAnswers('a client slower than http_headers_timeout: 408 with the six headers, and the server goes on', () =>
  withApp({ config: { http_headers_timeout: 0.3, http_request_timeout: 0.6 } }, async (t) => {
    // The head is never finished: node's own 60 s would outlast the client's 10 s wait.
    const r = await t.raw('GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    assert.is(r.status, 408);
    assertSecurityHeaders(r, '408 client error');
    assert.is(r.header('connection'), 'close');
    const ok = await t.fetch('/hello');
    assert.is(ok.status, 200);
  }),
);

NodeAnswers('a body slower than http_request_timeout: 408 with the six headers', () =>
  withApp({ config: { http_headers_timeout: 0.3, http_request_timeout: 0.6 } }, async (t) => {
    const r = await t.raw('POST /form HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\na=1&b=');
    assert.is(r.status, 408);
    assertSecurityHeaders(r, '408 request time-out');
    const ok = await t.fetch('/hello');
    assert.is(ok.status, 200);
  }),
);

NodeAnswers.run();

const Server = suite('http-hostile-clients: time-outs, connection cap, request targets');

Server('keep-alive time-out from http_keep_alive_timeout, and HTTP_KEEP_ALIVE_TIMEOUT wins over it', async () => {
  await withApp({ config: { http_keep_alive_timeout: 2 } }, async (t) => {
    const r = await t.raw('GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    assert.is(r.status, 200);
    assert.is(r.header('keep-alive'), 'timeout=2');
  });
  await withApp({ config: { http_keep_alive_timeout: 2 }, env: { HTTP_KEEP_ALIVE_TIMEOUT: '3' } }, async (t) => {
    const r = await t.raw('GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    assert.is(r.header('keep-alive'), 'timeout=3');
  });
});

Server("the default time-outs are a framework's, not node's 60 s and 300 s", () =>
  withApp({}, async (t) => {
    assert.is(t.server.headersTimeout, 10_000);
    assert.is(t.server.requestTimeout, 30_000);
    assert.is(t.server.keepAliveTimeout, 5_000);
    assert.is(t.server.maxConnections, 1000);
  }),
);

Server('max_connections: past the cap a new connection is closed at once, the others are served', () =>
  withApp({ config: { max_connections: 2 } }, async (t) => {
    const first = await connect(t);
    const second = await connect(t);
    const third = net.connect(t.port, '127.0.0.1');
    third.on('connect', () => third.write('GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'));
    assert.is(await readUntilClosed(third), '', 'the third connection gets no answer');
    const answer = readUntilClosed(first);
    first.write('GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    assert.match(await answer, /^HTTP\/1\.1 200 /);
    second.destroy();
  }),
);

Server('MAX_CONNECTIONS in the environment sets the cap; 0 means none', async () => {
  await withApp({ env: { MAX_CONNECTIONS: '7' } }, async (t) => assert.is(t.server.maxConnections, 7));
  await withApp({ config: { max_connections: 0 } }, async (t) => assert.not.ok(Number.isFinite(t.server.maxConnections) && t.server.maxConnections > 0));
});

Server('an invalid limit stops the start with a message that names it', () =>
  withApp({}, async (t) => {
    const saved = process.env.HTTP_HEADERS_TIMEOUT;
    process.env.HTTP_HEADERS_TIMEOUT = 'dix';
    try {
      assert.throws(() => createServer(t.app), /HTTP_HEADERS_TIMEOUT=dix/);
    } finally {
      if (saved === undefined) delete process.env.HTTP_HEADERS_TIMEOUT;
      else process.env.HTTP_HEADERS_TIMEOUT = saved;
    }
    configure({ http_headers_timeout: 40, http_request_timeout: 30 });
    assert.throws(() => createServer(t.app), /http_headers_timeout \(40 s\)/);
  }),
);

Server('an absolute-form request target is routed by its path and query', () =>
  withApp({}, async (t) => {
    const r = await t.raw(`GET http://127.0.0.1:${t.port}/hello?a=1 HTTP/1.1\r\nHost: 127.0.0.1:${t.port}\r\nConnection: close\r\n\r\n`);
    assert.is(r.status, 200);
    assert.equal(JSON.parse(r.text), { path: '/hello', query: 'a=1', host: `127.0.0.1:${t.port}` });
    const bare = await t.raw(`GET http://127.0.0.1:${t.port} HTTP/1.1\r\nHost: 127.0.0.1:${t.port}\r\nConnection: close\r\n\r\n`);
    assert.is(bare.status, 404, 'no path: the root, which has no route here');
  }),
);

Server.run();
