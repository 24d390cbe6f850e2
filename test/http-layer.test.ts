/**
 * runtime/http is the bottom layer of the runtime: its files import only node built-ins, npm packages and each
 * other, without a cycle; the server works for any handler, with what its creator gives it (the headers written
 * first, the limits, the client address, the answer to an error), on a real socket.
 */
import fs from 'node:fs';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { BodyLimits } from '../runtime/http/body.js';
import { HttpError } from '../runtime/http/errors.js';
import type { Request } from '../runtime/http/request.js';
import { Response } from '../runtime/http/response.js';
import { createHttpServer, listen, type HttpServerOptions } from '../runtime/http/server.js';
import { rawRequest } from './helpers/client.js';

const HTTP_DIR = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..', 'runtime', 'http');

/** The module specifiers of a source file: static imports and exports, and dynamic imports. */
function specifiers(file: string): string[] {
  const text = fs.readFileSync(path.join(HTTP_DIR, file), 'utf8');
  const found: string[] = [];
  for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?\bfrom\s+'([^']+)'/g)) found.push(match[1]!);
  for (const match of text.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g)) found.push(match[1]!);
  return found;
}

const SOURCES = fs.readdirSync(HTTP_DIR).filter((name) => name.endsWith('.ts'));

const L = suite('http-layer: what runtime/http imports');

L('the sources are read (the folder is the one of the repository)', () => {
  assert.ok(SOURCES.includes('server.ts') && SOURCES.includes('request.ts'), SOURCES.join(', '));
  assert.ok(specifiers('request.ts').includes('./body.js'));
});

L('only node built-ins, npm packages and its own files: nothing from above (../)', () => {
  const outside: string[] = [];
  for (const file of SOURCES) {
    for (const spec of specifiers(file)) {
      if (spec.startsWith('node:')) continue;
      if (spec.startsWith('./') && !spec.slice(2).includes('/')) {
        assert.ok(fs.existsSync(path.join(HTTP_DIR, spec.slice(2).replace(/\.js$/, '.ts'))), `${file} -> ${spec}`);
        continue;
      }
      // A bare name is an npm package (busboy); anything relative that leaves the folder is refused.
      if (!spec.startsWith('.') && !spec.startsWith('/')) continue;
      outside.push(`${file} -> ${spec}`);
    }
  }
  assert.equal(outside, []);
});

L('no import cycle between its files (request.ts and form-body.ts share url-encoded.ts)', () => {
  const graph = new Map(
    SOURCES.map((file) => [
      file,
      specifiers(file)
        .filter((s) => s.startsWith('./'))
        .map((s) => s.slice(2).replace(/\.js$/, '.ts')),
    ]),
  );
  const cycles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (file: string, trail: string[]): void => {
    if (state.get(file) === 'done') return;
    if (state.get(file) === 'open') {
      cycles.push([...trail.slice(trail.indexOf(file)), file].join(' -> '));
      return;
    }
    state.set(file, 'open');
    for (const next of graph.get(file) ?? []) visit(next, [...trail, file]);
    state.set(file, 'done');
  };
  for (const file of SOURCES) visit(file, []);
  assert.equal(cycles, []);
  assert.not.ok(graph.get('form-body.ts')!.includes('request.ts'));
});

L.run();

// --- The server for any handler ---

const limits: BodyLimits = { body: 64, multipart: 64, file: 64, fields: 2 };
const errors: Array<{ err: unknown; request: Request | undefined }> = [];
const logged: string[] = [];
const handler = {
  async respond(request: Request): Promise<Response> {
    if (request.path === '/throw') throw new Error('échec du gestionnaire');
    if (request.method === 'POST') {
      try {
        await request.readBody(limits);
      } catch (err) {
        if (err instanceof HttpError) return new Response(err.status, err.message, 'text/plain; charset=utf-8');
        throw err;
      }
      return new Response(200, JSON.stringify(request.body), 'application/json');
    }
    return new Response(200, `ip=${request.ip}`, 'text/plain; charset=utf-8', { 'X-Fixed': 'from-the-response', 'X-Own': 'kept' });
  },
};
const options: HttpServerOptions = {
  onError(err, request) {
    errors.push({ err, request });
    return err instanceof HttpError ? new Response(err.status, `refusé ${request?.path}`) : new Response(500, 'page 500 du créateur');
  },
  headers: { names: new Set(['x-fixed']), forRequest: (request) => ['X-Fixed', request ? `for ${request.path}` : 'no request'] },
  limits: { headersTimeoutMs: 5000, requestTimeoutMs: 10_000, keepAliveTimeoutMs: 1000, maxConnections: 0 },
  bodyLimits: limits,
  clientIp: () => '203.0.113.9',
  log: { error: (message) => void logged.push(message) },
};

let server: http.Server;
let port: number;
const S = suite('http-layer: createHttpServer with what its creator gives');
S.before(async () => {
  server = createHttpServer(handler, options);
  await listen(server, 0, '127.0.0.1');
  port = (server.address() as AddressInfo).port;
});
S.after(
  () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
);
S.before.each(() => {
  errors.length = 0;
  logged.length = 0;
});

S('the fixed headers come first and a response cannot replace them; the client address is the resolver’s', async () => {
  const response = await fetch(`http://127.0.0.1:${port}/page`);
  assert.is(response.status, 200);
  assert.is(response.headers.get('x-fixed'), 'for /page');
  assert.is(response.headers.get('x-own'), 'kept');
  assert.is(await response.text(), 'ip=203.0.113.9');
});

S('a body is read within the limits the handler passes', async () => {
  const ok = await fetch(`http://127.0.0.1:${port}/form`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'a=1&b=2',
  });
  assert.equal(await ok.json(), { a: ['1'], b: ['2'] });
  const many = await fetch(`http://127.0.0.1:${port}/form`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'a=1&b=2&c=3',
  });
  assert.is(many.status, 413);
  assert.match(await many.text(), /2/);
});

S('Expect: 100-continue over the body limit: the creator’s onError answers, with the request’s head, and the body is never sent', async () => {
  const r = await rawRequest(port, 'POST /upload?x=1 HTTP/1.1\r\nHost: t\r\nContent-Type: text/plain\r\nContent-Length: 65\r\nExpect: 100-continue\r\n\r\n');
  assert.is(r.status, 413);
  assert.is(r.text, 'refusé /upload');
  assert.is(r.header('x-fixed'), 'for /upload');
  assert.is(r.header('connection'), 'close');
  assert.is(errors.length, 1);
  assert.is((errors[0]!.err as HttpError).status, 413);
  assert.is(errors[0]!.request?.ip, '203.0.113.9');
});

S('a handler that throws: logged to the creator’s log, then its 500 without a request', async () => {
  const response = await fetch(`http://127.0.0.1:${port}/throw`);
  assert.is(response.status, 500);
  assert.is(await response.text(), 'page 500 du créateur');
  assert.is(response.headers.get('x-fixed'), 'no request');
  assert.equal(logged, ['Erreur pendant l’envoi de la réponse']);
  assert.is(errors[0]!.request, undefined);
  assert.is((errors[0]!.err as Error).message, 'échec du gestionnaire');
});

S('a request node cannot parse: 400 with the fixed headers of a response without a request', async () => {
  const r = await rawRequest(port, 'NOT HTTP\r\n\r\n');
  assert.is(r.status, 400);
  assert.is(r.header('x-fixed'), 'no request');
  assert.is(r.header('connection'), 'close');
});

S('headers time-out over the request time-out: refused at creation', () => {
  assert.throws(
    () => createHttpServer(handler, { ...options, limits: { ...options.limits, headersTimeoutMs: 20_000 } }),
    /http_headers_timeout \(20 s\) doit être inférieur ou égal à http_request_timeout \(10 s\)/,
  );
});

S.run();
