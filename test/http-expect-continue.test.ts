/**
 * `Expect: 100-continue` (docs/runtime.md "Limits and time-outs": Content-Length checked before the body is read): a declared
 * length over the limit gets the 413 page instead of `100 Continue`, so the client never sends the body; within
 * the limit the server says 100 and the request is answered as usual.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import http from 'node:http';
import { BaseController, escapeHtml, trans, type Router } from '../runtime/index.js';
import { assertSecurityHeaders } from './helpers/client.js';
import { startApp, type TestApp } from './helpers/server.js';

/** Small limits so that the bodies stay small: 1 KiB by default, multipart 1 KiB + 4 × 4096 = 17408. */
const CONFIG = { body_max_size: 1024, upload_max_size: 4096 };
const MULTIPART_LIMIT = 1024 + 4 * 4096;

function routes(router: Router): void {
  router.add('POST', '/echo', (r) => BaseController.json({ body: BaseController.body(r), files: Object.keys(r.files) }), { public: true, csrf: false });
}

interface ContinueResult {
  /** 'continue' when the server sent 100, then the final status. */
  events: Array<'continue' | number>;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/**
 * A POST with `Expect: 100-continue` and the given Content-Length: node sends the head at once; the body is
 * written only after a 100 (as a real client does), and never after a final answer.
 */
function postExpecting(t: TestApp, contentType: string, length: number, body: Buffer | string): Promise<ContinueResult> {
  return new Promise((resolve, reject) => {
    const events: ContinueResult['events'] = [];
    const req = http.request({
      host: '127.0.0.1',
      port: t.port,
      method: 'POST',
      path: '/echo',
      agent: false,
      headers: { Expect: '100-continue', 'Content-Type': contentType, 'Content-Length': String(length) },
    });
    req.on('continue', () => {
      events.push('continue');
      req.end(body);
    });
    req.on('response', (res) => {
      events.push(res.statusCode!);
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        resolve({ events, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') });
        req.destroy();
      });
    });
    req.on('error', reject);
  });
}

function multipart(size: number): { type: string; body: Buffer } {
  const boundary = 'fwBoundary42';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="nom"\r\n\r\nDupont\r\n--${boundary}\r\nContent-Disposition: form-data; name="doc"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n`;
  const tail = `\r\n--${boundary}--\r\n`;
  const filler = Math.max(0, size - Buffer.byteLength(head) - Buffer.byteLength(tail));
  return { type: `multipart/form-data; boundary=${boundary}`, body: Buffer.concat([Buffer.from(head), Buffer.alloc(filler, 0x61), Buffer.from(tail)]) };
}

let t: TestApp;
const X = suite('http-expect-continue: 100 Continue or 413 before the body');
X.before(async () => {
  t = await startApp({ routes, config: CONFIG });
});
X.after(() => t.close());

X('over the limit: the first and only answer is the 413 page, with the security headers and Connection: close', async () => {
  // Raw bytes: the head only. Without the check, node would answer "100 Continue" and wait for the body.
  const r = await t.raw(
    'POST /echo HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1025\r\n\r\n',
  );
  assert.is(r.status, 413);
  assertSecurityHeaders(r, '413 before 100');
  assert.is(r.header('connection'), 'close');
  assert.is(r.header('content-type'), 'text/html; charset=utf-8');
  assert.ok(r.text.includes(escapeHtml(trans('errors.413.title'))), 'the errors/413.html page');
  assert.ok(r.text.includes(escapeHtml(trans('errors.413.message'))));
  assert.not.ok(r.text.includes('100 Continue'));
});

X('over the limit with a real client: no 100, the body is never sent', async () => {
  const r = await postExpecting(t, 'application/x-www-form-urlencoded', 2_000_000, '');
  assert.equal(r.events, [413]);
  assert.is(r.headers.connection, 'close');
});

X('a JSON client gets the payload_too_large envelope instead of the page', async () => {
  const r = await t.raw(
    'POST /echo HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nAccept: application/json\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n',
  );
  assert.is(r.status, 413);
  assertSecurityHeaders(r, '413 json');
  assert.is(JSON.parse(r.text).error.code, 'payload_too_large');
});

X('within the limit: 100 Continue, then the body is read and the handler answers', async () => {
  const body = 'nom=Dupont&ville=Lyon';
  const r = await postExpecting(t, 'application/x-www-form-urlencoded', Buffer.byteLength(body), body);
  assert.equal(r.events, ['continue', 200]);
  assert.equal(JSON.parse(r.text), { body: { nom: 'Dupont', ville: 'Lyon' }, files: [] });
  assertSecurityHeaders(new Headers(r.headers as Record<string, string>), '200 after 100');
});

X('at exactly the limit: 100 Continue', async () => {
  const body = `a=${'x'.repeat(1022)}`;
  assert.is(body.length, 1024);
  const r = await postExpecting(t, 'application/x-www-form-urlencoded', body.length, body);
  assert.equal(r.events, ['continue', 200]);
});

X('multipart uses its own limit: body_max_size + 4 × upload_max_size', async () => {
  const small = multipart(2000); // over body_max_size, under the multipart limit
  const accepted = await postExpecting(t, small.type, small.body.length, small.body);
  assert.equal(accepted.events, ['continue', 200]);
  assert.equal(JSON.parse(accepted.text), { body: { nom: 'Dupont' }, files: ['doc'] });
  const refused = await postExpecting(t, small.type, MULTIPART_LIMIT + 1, Buffer.alloc(0));
  assert.equal(refused.events, [413]);
  const exact = multipart(MULTIPART_LIMIT);
  const atLimit = await postExpecting(t, exact.type, exact.body.length, exact.body);
  assert.equal(atLimit.events, ['continue', 200]);
});

X('a GET announcing an over-limit body is refused too, rather than invited to send it', async () => {
  const r = await t.raw('GET /echo HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 5000\r\n\r\n');
  assert.is(r.status, 413);
  assertSecurityHeaders(r, '413 GET');
});

X.run();
