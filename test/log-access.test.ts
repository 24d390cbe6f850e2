/**
 * The access line and the request id (docs/deploy.md "Logs"): a real server on an ephemeral port, its records
 * written by the JSON and text formatters of runtime/logger.ts and parsed back; then a compiled start whose stderr
 * is read as a log shipper would, with LOG_FORMAT=json.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Response, getLogger, jsonLine, requestSession, setLogSink, textLine, type LogRecord } from '../runtime/index.js';
import { DatabaseUnavailableError } from '../runtime/db/errors.js';
import { makeProject, type TempProject } from './helpers/project.js';
import { startApp, type TestApp } from './helpers/server.js';

const RUNTIME_URL = pathToFileURL(path.resolve(path.dirname(new URL(import.meta.url).pathname), '../runtime/index.js')).href;
const HEX_ID = /^[0-9a-f]{32}$/;

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A GET from `localAddress` (127.0.0.2 is the trusted proxy of these tests, 127.0.0.1 a client). */
function get(port: number, target: string, headers: http.OutgoingHttpHeaders = {}, localAddress = '127.0.0.1'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: target, headers, localAddress, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const A = suite('log-access: one JSON line per request, the request id in every line of the request');
let app: TestApp;
/** The lines the JSON formatter wrote, parsed; and the records, for the text formatter. */
let lines: Array<Record<string, unknown>> = [];
let records: LogRecord[] = [];
let previousSink: ReturnType<typeof setLogSink> | undefined;

A.before(async () => {
  app = await startApp({
    config: { trusted_proxies: ['127.0.0.2'] },
    env: { ACCESS_LOG: 'on' },
    routes: (router) => {
      router.add(
        'GET',
        '/work',
        async () => {
          await new Promise((resolve) => setTimeout(resolve, 2));
          getLogger('app.work').info('travail fait', { rows: 3 });
          return new Response(200, 'fait');
        },
        { public: true },
      );
      router.add(
        'GET',
        '/db-down',
        async () => {
          await new Promise((resolve) => setTimeout(resolve, 1));
          throw new DatabaseUnavailableError('unreachable', 'serveur de test injoignable.', 'vérifiez le test.');
        },
        { public: true },
      );
      router.add('GET', '/password/reset/{token}', () => new Response(200, 'formulaire'), { public: true });
      router.add(
        'GET',
        '/sign-in',
        (request) => {
          requestSession(request).set('user', { id: 42, login: 'ada' });
          return new Response(200, 'connecté');
        },
        { public: true },
      );
    },
  });
  // After startApp's capture: every record goes through the real formatters.
  previousSink = setLogSink((record) => {
    records.push(record);
    const line = jsonLine(record);
    assert.ok(line.endsWith('}\n') && !line.slice(0, -1).includes('\n'), 'one line per record');
    lines.push(JSON.parse(line) as Record<string, unknown>);
  });
});
A.after(async () => {
  setLogSink(previousSink ?? null);
  await app.close();
});
A.before.each(() => {
  lines = [];
  records = [];
});

const accessLines = (): Array<Record<string, unknown>> => lines.filter((line) => line.logger === 'fw.access');

A('a request from a client: a new id, echoed, on the access line and on the handler’s line; secrets of the query left out', async () => {
  const answer = await get(app.port, '/work?token=s3cr3t-t0ken&page=2&api_key=k3y&q=dupont', { 'X-Request-Id': 'forged-by-client' });
  assert.is(answer.status, 200);
  const id = answer.headers['x-request-id'];
  assert.type(id, 'string');
  assert.match(id as string, HEX_ID, 'a forged id from a client that is not a trusted proxy is replaced');
  const [access, ...more] = accessLines();
  assert.is(more.length, 0, 'one access line');
  assert.ok(access);
  assert.is(access.request_id, id);
  assert.is(access.level, 'INFO');
  assert.is(access.pid, process.pid);
  assert.is(access.method, 'GET');
  assert.is(access.path, '/work?token=…&page=2&api_key=…&q=dupont');
  assert.is(access.status, 200);
  assert.is(access.bytes, Buffer.byteLength('fait'));
  assert.type(access.duration_ms, 'number');
  assert.ok((access.duration_ms as number) >= 2, 'the duration covers the handler');
  assert.is(access.user_id, undefined, 'no user: no user_id');
  assert.type(access.time, 'string');
  const handlerLine = lines.find((line) => line.logger === 'app.work');
  assert.ok(handlerLine, 'the handler logged');
  assert.is(handlerLine.request_id, id, 'the same id on a line the handler wrote after an await');
  assert.is(handlerLine.rows, 3, 'the fields beside the fixed keys');
  const all = lines.map((line) => JSON.stringify(line)).join('\n');
  assert.not.ok(all.includes('s3cr3t') || all.includes('k3y') || all.includes('forged'), all);
});

A('from the trusted proxy: its X-Request-Id is kept; an unsafe or overlong one is replaced', async () => {
  const kept = await get(app.port, '/work', { 'X-Request-Id': '7f3a9c0e.nginx-id_1' }, '127.0.0.2');
  assert.is(kept.headers['x-request-id'], '7f3a9c0e.nginx-id_1');
  assert.is(accessLines()[0]?.request_id, '7f3a9c0e.nginx-id_1');
  assert.is(lines.find((line) => line.logger === 'app.work')?.request_id, '7f3a9c0e.nginx-id_1');
  for (const bad of ['a b', 'x'.repeat(129), 'id"}{']) {
    const answer = await get(app.port, '/work', { 'X-Request-Id': bad }, '127.0.0.2');
    assert.match(answer.headers['x-request-id'] as string, HEX_ID, bad);
  }
  const ids = new Set(accessLines().map((line) => line.request_id));
  assert.is(ids.size, 4, 'each request its own id');
});

A('a 404, the reset token, the signed-in user; the health routes are never logged', async () => {
  assert.is((await get(app.port, '/nowhere')).status, 404);
  assert.is((await get(app.port, '/password/reset/tok-abcdef123456')).status, 200);
  assert.is((await get(app.port, '/up')).status, 200);
  await get(app.port, '/up/ready');
  const signIn = await get(app.port, '/sign-in');
  const cookie = (signIn.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; ');
  assert.ok(cookie.includes('session_id='), cookie);
  await get(app.port, '/work', { Cookie: cookie });
  const access = accessLines();
  assert.equal(
    access.map((line) => [line.path, line.status, line.user_id]),
    [
      ['/nowhere', 404, undefined],
      ['/password/reset/…', 200, undefined],
      ['/sign-in', 200, 42],
      ['/work', 200, 42],
    ],
  );
  assert.not.ok(JSON.stringify(lines).includes('tok-abcdef'));
});

A('the database logger’s line of a request carries its id', async () => {
  const answer = await get(app.port, '/db-down');
  assert.is(answer.status, 503);
  const db = lines.find((line) => line.logger === 'fw.db');
  assert.ok(db, JSON.stringify(lines));
  assert.is(db.request_id, answer.headers['x-request-id']);
  assert.is(accessLines()[0]?.status, 503);
});

A('the text format: a readable line with the pid and the request id; the access line without a JSON tail', async () => {
  const answer = await get(app.port, '/work?code=123456');
  const id = answer.headers['x-request-id'] as string;
  const access = records.find((record) => record.logger === 'fw.access');
  assert.ok(access);
  assert.match(textLine(access), new RegExp(`^\\S+Z INFO fw\\.access \\[${process.pid} ${id}\\]: GET /work\\?code=… 200 [\\d.]+ ms 4 B\\n$`));
  const handler = records.find((record) => record.logger === 'app.work');
  assert.ok(handler);
  assert.match(textLine(handler), new RegExp(`^\\S+Z INFO app\\.work \\[${process.pid} ${id}\\]: travail fait \\{"rows":3\\}\\n$`));
  // Outside a request: the pid alone.
  const outside: LogRecord = { ...handler, requestId: undefined };
  assert.match(textLine(outside), new RegExp(`^\\S+Z INFO app\\.work \\[${process.pid}\\]: travail fait`));
});

A.run();

const S = suite('log-access: the compiled start with LOG_FORMAT=json writes only JSON lines on stderr');
let project: TempProject;
let child: ChildProcess | undefined;
S.before(() => {
  project = makeProject();
});
S.after(() => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  project.cleanup();
});

/** Starts the script with `env`; resolves with the port once announced, or with the exit code and stderr. */
function start(script: string, env: Record<string, string>): Promise<{ port?: number; code?: number | null; stderr: () => string }> {
  child = spawn(process.execPath, [script], { cwd: project.root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start within 10 s: ${stderr}`)), 10_000);
    child!.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      const match = /http:\/\/127\.0\.0\.1:(\d+)/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve({ port: Number(match[1]), stderr: () => stderr });
      }
    });
    // 'close', not 'exit': stderr has been read to its end.
    child!.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr: () => stderr });
    });
  });
}

S('every stderr line is a JSON object; the access line and the handler’s line share the echoed id', async () => {
  const script = project.write(
    'server.mjs',
    `import { Application, Response, Router, configure, getLogger, serve } from '${RUNTIME_URL}';
configure({ project_root: ${JSON.stringify(project.root)} });
const router = new Router();
router.add('GET', '/hello', async () => {
  await new Promise((resolve) => setTimeout(resolve, 1));
  getLogger('app.hello').warning('bonjour "guillemets"\\net retour à la ligne');
  return new Response(200, 'bonjour');
}, { public: true });
await serve(new Application(router, { apiRoutesModule: null }), { port: 0, host: '127.0.0.1', workers: 1 });
`,
  );
  const started = await start(script, { LOG_FORMAT: 'json', ACCESS_LOG: 'on', FW_LOG_LEVEL: 'INFO' });
  assert.ok(started.port, started.stderr());
  const answer = await get(started.port, '/hello?password=hunter2');
  assert.is(answer.status, 200);
  await get(started.port, '/up');
  const id = answer.headers['x-request-id'] as string;
  assert.match(id, HEX_ID);
  const deadline = Date.now() + 5000;
  while (!started.stderr().includes('"fw.access"') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  const text = started.stderr();
  assert.ok(text.endsWith('\n'), text);
  const parsed = text
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  const access = parsed.filter((line) => line.logger === 'fw.access');
  assert.is(access.length, 1, 'one access line, none for /up');
  assert.is(access[0]!.request_id, id);
  assert.is(access[0]!.path, '/hello?password=…');
  assert.is(access[0]!.pid, child!.pid);
  const hello = parsed.find((line) => line.logger === 'app.hello');
  assert.is(hello?.request_id, id);
  assert.is(hello?.message, 'bonjour "guillemets"\net retour à la ligne');
  assert.not.ok(text.includes('hunter2'));
  child!.kill('SIGTERM');
});

S('an unknown LOG_FORMAT stops the start with a message naming the values', async () => {
  const script = project.write(
    'bad.mjs',
    `import { Application, Router, configure, serve } from '${RUNTIME_URL}';
configure({ project_root: ${JSON.stringify(project.root)} });
await serve(new Application(new Router(), { apiRoutesModule: null }), { port: 0, host: '127.0.0.1', workers: 1 });
`,
  );
  const result = await start(script, { LOG_FORMAT: 'xml' });
  assert.is(result.port, undefined);
  assert.is.not(result.code, 0);
  assert.match(result.stderr(), /LOG_FORMAT : valeur inconnue « xml »/);
});

S('the lines waiting to be written are written when the process exits', async () => {
  const script = project.write(
    'exit.mjs',
    `import { getLogger } from '${RUNTIME_URL}';
for (let i = 0; i < 3; i++) getLogger('app.exit').info('ligne ' + i);
process.exit(3);
`,
  );
  const result = await start(script, { LOG_FORMAT: 'json' });
  assert.is(result.code, 3);
  assert.equal(
    result
      .stderr()
      .trimEnd()
      .split('\n')
      .map((line) => (JSON.parse(line) as { message: string }).message),
    ['ligne 0', 'ligne 1', 'ligne 2'],
  );
});

S.run();
