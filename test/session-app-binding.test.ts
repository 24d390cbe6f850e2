/**
 * A session is valid only in the application that made it (docs/decisions.md#session-stores): two applications
 * on one Redis with one key prefix (the default `fw:` case) but different secrets. Application A runs in a child
 * process, B in the test's process, both on the real Redis; A's signed-in cookie, sent to B, is no session there
 * (before, B answered 200 and showed A's user and roles), and B's deleteUser() leaves A's sessions alone. The file
 * store shared by two secrets (one folder) refuses the same way.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { randomBytes } from 'node:crypto';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  FileSessionStore,
  RedisConnection,
  RedisSessionStore,
  Response,
  configure,
  getUser,
  requestSession,
  requireRole,
  type Router,
} from '../runtime/index.js';
import { sessionCookie } from './helpers/client.js';
import { startApp, type TestApp } from './helpers/server.js';
import { dropRedisPrefix, rawRedis, redisTestPrefix } from './helpers/session-backends.js';

const RUNTIME = pathToFileURL(path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..', 'runtime', 'index.js')).href;
const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const SECRET_A = randomBytes(24).toString('hex');
const SECRET_B = randomBytes(24).toString('hex');
const prefix = redisTestPrefix();

/** The routes of both applications: sign in as user 7 with the role `admin`, say who is signed in, an admin page. */
function routes(router: Router): void {
  router.add(
    'GET',
    '/sign-in',
    (r) => {
      const s = requestSession(r);
      s.rotate();
      s.set('user', { id: 7, login: 'alice@a.test', roles: ['admin'], permissions: [] });
      return new Response(200, 'ok');
    },
    { public: true },
  );
  router.add('GET', '/me', (r) => new Response(200, JSON.stringify(getUser(r) ?? null)), { public: true });
  router.add(
    'GET',
    '/admin',
    requireRole('admin', () => new Response(200, 'admin')),
    { public: true },
  );
}

/** Application A, in its own process: the same routes, its own secret, the same Redis prefix. */
const APP_A = `
const runtime = await import(${JSON.stringify(RUNTIME)});
const fs = await import('node:fs');
const { root, secret, prefix, url } = JSON.parse(process.env.FW_TEST_APP);
runtime.configure({ project_root: root, app_secret: secret, redis_prefix: prefix, redis_url: url, session_store: 'redis' });
const router = new runtime.Router();
router.add('GET', '/sign-in', (r) => {
  const s = runtime.requestSession(r);
  s.rotate();
  s.set('user', { id: 7, login: 'alice@a.test', roles: ['admin'], permissions: [] });
  return new runtime.Response(200, 'ok');
}, { public: true });
router.add('GET', '/me', (r) => new runtime.Response(200, JSON.stringify(runtime.getUser(r) ?? null)), { public: true });
router.add('GET', '/admin', runtime.requireRole('admin', () => new runtime.Response(200, 'admin')), { public: true });
const app = new runtime.Application(router, { apiRoutesModule: null });
await app.init();
const server = runtime.createServer(app);
server.listen(0, '127.0.0.1', () => process.stdout.write('listening ' + server.address().port + '\\n'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
`;

function startA(root: string): { child: ChildProcess; base: Promise<string> } {
  const env: NodeJS.ProcessEnv = { ...process.env, FW_TEST_APP: JSON.stringify({ root, secret: SECRET_A, prefix, url: REDIS_URL }) };
  delete env.SESSION_STORE;
  delete env.APP_SECRET;
  const child = spawn(process.execPath, ['--input-type=module', '-e', APP_A], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const base = new Promise<string>((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const port = /listening (\d+)/.exec(out)?.[1];
      if (port) resolve(`http://127.0.0.1:${port}`);
    });
    child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`application A exited with ${code}: ${out} ${err}`)));
  });
  return { child, base };
}

async function get(base: string, url: string, cookie = ''): Promise<{ status: number; text: string; cookies: string[] }> {
  const response = await fetch(base + url, { headers: cookie ? { cookie } : {}, redirect: 'manual' });
  return { status: response.status, text: await response.text(), cookies: response.headers.getSetCookie() };
}

const R = suite('session-app-binding: two applications on one Redis prefix, two secrets');
let root: string;
let a: { child: ChildProcess; base: Promise<string> };
let baseA: string;
let b: TestApp;
let connection: RedisConnection;

R.before(async () => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fw-h1-binding-')));
  a = startA(root);
  baseA = await a.base;
  connection = new RedisConnection(REDIS_URL);
  b = await startApp({ routes, config: { app_secret: SECRET_B }, sessionStore: new RedisSessionStore({ connection, prefix }) });
});

R.after(async () => {
  await b?.close();
  if (a?.child.exitCode === null) {
    const exited = new Promise((resolve) => a.child.once('exit', resolve));
    a.child.kill('SIGTERM');
    await exited;
  }
  await connection?.close();
  const client = await rawRedis();
  await dropRedisPrefix(client, prefix).finally(() => client.close());
  fs.rmSync(root, { recursive: true, force: true });
});

R("A's signed-in cookie is no session in B: no user, no admin page; A still serves it", async () => {
  const signIn = await get(baseA, '/sign-in');
  assert.is(signIn.status, 200, signIn.text);
  const cookie = sessionCookie(signIn.cookies)!;
  assert.ok(cookie, 'A sent its session cookie');
  assert.equal(JSON.parse((await get(baseA, '/me', cookie)).text), { id: 7, login: 'alice@a.test', roles: ['admin'], permissions: [] });
  assert.is((await get(baseA, '/admin', cookie)).status, 200, 'control: A accepts its own session');

  assert.is((await b.fetch('/me', { headers: { cookie } })).text, 'null', 'B sees no user');
  const admin = await b.fetch('/admin', { headers: { cookie } });
  assert.is(admin.status, 302, `B does not open its admin page: ${admin.status}`);
  assert.is(admin.headers.get('location'), '/login?next=%2Fadmin');
  assert.equal(JSON.parse((await get(baseA, '/me', cookie)).text).id, 7, 'B reading it did not end it in A');
});

R("B's sessions are not A's either, and B's deleteUser(7) leaves A's user 7 signed in", async () => {
  const inA = sessionCookie((await get(baseA, '/sign-in')).cookies)!;
  const inB = sessionCookie((await b.fetch('/sign-in')).cookies)!;
  assert.is((await get(baseA, '/me', inB)).text, 'null', "A sees no user with B's cookie");
  assert.is(await new RedisSessionStore({ connection, prefix }).deleteUser(7), 1, "B's own session of user 7 only");
  assert.is((await b.fetch('/me', { headers: { cookie: inB } })).text, 'null', 'ended in B');
  assert.equal(JSON.parse((await get(baseA, '/me', inA)).text).id, 7, 'still signed in in A');
});

R.run();

const F = suite('session-app-binding: one folder of sessions, two secrets');
F('a session written under one secret is not found under another; found again under the first', async () => {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fw-h1-binding-files-')));
  try {
    configure({ app_secret: SECRET_A });
    const store = new FileSessionStore({ dir, ttlSeconds: 3600 });
    const id = await store.create({ user: { id: 7, roles: ['admin'] } });
    configure({ app_secret: SECRET_B });
    assert.is(await store.get(id), null, 'another secret finds nothing');
    assert.is(await store.update(id, { user: { id: 8 } }), false, 'nor can it write over it');
    configure({ app_secret: SECRET_A });
    assert.equal(await store.get(id), { user: { id: 7, roles: ['admin'] } });
  } finally {
    configure({ app_secret: null });
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
F.run();
