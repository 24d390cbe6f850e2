/**
 * A refused body that the client goes on sending: the server answers (413, 404…), then reads and discards what
 * still comes before it closes, so a client that sends its whole body before reading (nginx does) reads the answer
 * rather than a reset connection (docs/runtime.md "Limits and time-outs").
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { nginxBinary } from '../cli/deploy/nginx-inspect.js';
import { BaseController, configure, type Router } from '../runtime/index.js';
import { freePort, startNginx, stopChild } from './helpers/deploy-stack.js';
import { startApp, type TestApp } from './helpers/server.js';

const MiB = 1_048_576;

function routes(router: Router): void {
  router.add('POST', '/form', (r) => BaseController.json({ fields: Object.keys(r.body).length }), { public: true, csrf: false });
}

interface Exchange {
  /** Everything the server sent. */
  readonly received: string;
  /** The socket error, if the connection was reset. */
  readonly error?: string;
}

/**
 * Sends `head` then `pieces`, each one once the previous is written, reading only what arrives (as a proxy does,
 * which sends the whole body before it reads the answer), then ends its side; resolves when the socket closes.
 */
function sendWholeBody(port: number, head: string, pieces: readonly Buffer[]): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    let error: string | undefined;
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('error', (err: NodeJS.ErrnoException) => (error = err.code ?? err.message));
    socket.on('close', () => resolve({ received, ...(error ? { error } : {}) }));
    let at = 0;
    const next = (): void => {
      if (socket.destroyed) return;
      if (at === pieces.length) socket.end();
      else socket.write(pieces[at++]!, () => setImmediate(next));
    };
    socket.once('connect', () => socket.write(head, next));
  });
}

const PIECE = Buffer.alloc(65_536, 0x61);
/** `size` bytes of body in 64 KiB pieces. */
const plain = (size: number): Buffer[] => Array.from({ length: size / PIECE.length }, () => PIECE);
/** The same, as chunks of a chunked body, then its last chunk. */
const chunked = (size: number): Buffer[] => [
  ...Array.from({ length: size / PIECE.length }, () => Buffer.concat([Buffer.from('10000\r\n'), PIECE, Buffer.from('\r\n')])),
  Buffer.from('0\r\n\r\n'),
];

function formHead(path: string, headers: Record<string, string | number>): string {
  return `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n`;
}

const Refused = suite('http-body-refused: the answer to a refused body reaches a client still sending it');
let t: TestApp;
Refused.before(async () => {
  t = await startApp({ routes });
});
Refused.after(() => t.close());

Refused('an urlencoded body over 1 MiB, sent whole: 413 every time out of 10, never a reset', async () => {
  for (let i = 0; i < 10; i++) {
    const r = await sendWholeBody(t.port, formHead('/form', { 'Content-Length': 3 * MiB }), plain(3 * MiB));
    assert.ok(r.received.startsWith('HTTP/1.1 413 '), `essai ${i + 1} : ${r.error ?? ''} ${r.received.slice(0, 80)}`);
    assert.is(r.error, undefined, `essai ${i + 1}`);
  }
});

Refused('chunked, over the limit: 413 every time out of 10', async () => {
  for (let i = 0; i < 10; i++) {
    const r = await sendWholeBody(t.port, formHead('/form', { 'Transfer-Encoding': 'chunked' }), chunked(3 * MiB));
    assert.ok(r.received.startsWith('HTTP/1.1 413 '), `essai ${i + 1} : ${r.error ?? ''} ${r.received.slice(0, 80)}`);
    assert.is(r.error, undefined, `essai ${i + 1}`);
  }
});

Refused('a body sent to a route that does not read it (404): the 404 arrives, not a reset', async () => {
  for (let i = 0; i < 10; i++) {
    const r = await sendWholeBody(t.port, formHead('/nowhere', { 'Content-Length': 3 * MiB }), plain(3 * MiB));
    assert.ok(r.received.startsWith('HTTP/1.1 404 '), `essai ${i + 1} : ${r.error ?? ''} ${r.received.slice(0, 80)}`);
    assert.is(r.error, undefined, `essai ${i + 1}`);
  }
});

Refused('the dropping is bounded: past the multipart limit and a margin, a client that never stops is cut off', async () => {
  configure({ upload_body_max_size: 2 * MiB });
  try {
    const sent = await new Promise<number>((resolve) => {
      const socket = net.connect(t.port, '127.0.0.1');
      let total = 0;
      socket.on('error', () => undefined);
      socket.on('close', () => resolve(total));
      const next = (): void => {
        if (socket.destroyed) return;
        total += PIECE.length;
        socket.write(PIECE, () => setImmediate(next));
      };
      socket.once('connect', () => socket.write(formHead('/form', { 'Content-Length': 1000 * MiB }), next));
    });
    // 2 MiB and the 1 MiB margin are read; what the kernel's buffers held when the server closed comes on top.
    assert.ok(sent >= 3 * MiB, `${sent}`);
    assert.ok(sent < 12 * MiB, `${sent}`);
  } finally {
    configure({ upload_body_max_size: null });
  }
});

Refused('the server still answers after the refused bodies', async () => {
  const r = await t.fetch('/form', { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'a=1&b=2' });
  assert.is(r.status, 200);
  assert.equal(r.json(), { fields: 2 });
});

Refused.run();

const Nginx = suite('http-body-refused: behind nginx, the application’s 413 reaches the browser');

Nginx('an urlencoded body of 3 MiB (nginx lets 22 MiB through): 413 every time out of 10, never nginx’s 502', async () => {
  if (!nginxBinary()) {
    console.log('nginx absent : test sauté');
    return;
  }
  const app = await startApp({ routes });
  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-h5-nginx-'));
  // nginx's workers (nobody) write request bodies under the prefix, as under /var/lib/nginx.
  fs.chmodSync(prefix, 0o755);
  const port = await freePort();
  // The proxying of cli/templates/deploy/nginx.conf, without TLS.
  const site = path.join(prefix, 'site.conf');
  fs.writeFileSync(
    site,
    [
      `upstream app { server 127.0.0.1:${app.port}; keepalive 16; keepalive_timeout 4s; }`,
      `server { listen 127.0.0.1:${port}; client_max_body_size 22m; proxy_http_version 1.1; proxy_set_header Connection "";`,
      '  location / { proxy_pass http://app; } }',
      '',
    ].join('\n'),
  );
  const nginx = await startNginx(prefix, site, port);
  try {
    const body = `a=${'x'.repeat(3 * MiB)}`;
    for (let i = 0; i < 10; i++) {
      const status = await new Promise<number>((resolve, reject) => {
        const req = http.request(
          {
            host: '127.0.0.1',
            port,
            path: '/form',
            method: 'POST',
            headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': body.length },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
      assert.is(status, 413, `essai ${i + 1} : ${fs.readFileSync(path.join(prefix, 'error.log'), 'utf8').slice(-400)}`);
    }
  } finally {
    await stopChild(nginx, 'SIGQUIT');
    await app.close();
    fs.rmSync(prefix, { recursive: true, force: true });
  }
});

Nginx.run();
