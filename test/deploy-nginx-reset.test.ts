/**
 * A password-reset link through Debian's nginx running the site `fw deploy:init` writes (cli/deploy/nginx.ts, the
 * ports only changed): a real server with the reset routes, a real link received by a real SMTP server, the page
 * and its form sent through nginx over TLS, then the application stopped so that nginx logs an upstream error. The
 * token is in neither nginx's access log nor its error log, while both logs hold the other requests; the page
 * sends no Referer (one Referrer-Policy, no-referrer), so the requests it leads to do not carry its address.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { nginxSite } from '../cli/deploy/nginx.js';
import { hashPassword } from '../runtime/auth/passwords.js';
import { createUser } from '../runtime/auth/users.js';
import { closeDatabase } from '../runtime/db/index.js';
import { SessionClient, type AuthDatabase } from './helpers/auth-client.js';
import {
  askReset,
  EMAIL,
  linkOf,
  NEW_PASSWORD,
  openResetDatabase,
  PASSWORD,
  pathOf,
  postNewPassword,
  startResetWorld,
  type ResetWorld,
} from './helpers/auth-reset.js';
import { freePort, selfSigned, startNginx, stopChild } from './helpers/deploy-stack.js';

interface Context {
  data: AuthDatabase;
  world: ResetWorld;
  prefix: string;
  nginx: ChildProcess;
  httpsPort: number;
  closed: boolean;
}

const test = suite<Context>('déploiement : un lien de réinitialisation à travers nginx ne laisse son jeton dans aucun journal');

// The self-signed certificate of the test, for fetch (this process only).
process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';

test.before(async (context) => {
  context.data = await openResetDatabase('sqlite');
  context.world = await startResetWorld(context.data);
  await createUser({ email: EMAIL, passwordHash: await hashPassword(PASSWORD) }, context.data.db);
  context.prefix = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-deploy-reset-'));
  // nginx's workers (nobody) write request bodies under the prefix.
  fs.chmodSync(context.prefix, 0o755);
  const tls = selfSigned(context.prefix);
  const [httpPort, httpsPort] = [await freePort(), await freePort()];
  context.httpsPort = httpsPort;
  const site = nginxSite({
    app: 'boutique',
    root: context.world.app.project.root,
    serverName: '_',
    upstream: `127.0.0.1:${context.world.app.port}`,
    certificate: { ...tls, source: 'test' },
    body: { application: 1024 * 1024, nginxMiB: 2, source: 'test' },
  })
    .replace(/listen (\[::\]:)?80;/g, `listen $1${httpPort};`)
    .replace(/listen (\[::\]:)?443 ssl http2;/g, `listen $1${httpsPort} ssl http2;`);
  const file = path.join(context.prefix, 'boutique.conf');
  fs.writeFileSync(file, site);
  context.nginx = await startNginx(context.prefix, file, httpsPort);
});

test.after(async ({ world, data, nginx, prefix, closed }) => {
  await stopChild(nginx, 'SIGQUIT');
  if (!closed) await world?.close();
  await closeDatabase();
  await data?.close();
  if (prefix) fs.rmSync(prefix, { recursive: true, force: true });
});

test('the reset page and its form through nginx; no log holds the token; the page sends no Referer', async (context) => {
  const { world, prefix, httpsPort } = context;
  const before = world.smtp.received.length;
  await askReset(new SessionClient(world.app.base), EMAIL);
  const [message] = (await world.smtp.waitFor(before + 1)).slice(before);
  const resetPath = pathOf(linkOf(message!));
  const token = resetPath.split('/').at(-1)!;
  assert.is(token.length, 43);

  const client = new SessionClient(`https://127.0.0.1:${httpsPort}`);
  const login = await client.get('/login');
  assert.is(login.status, 200);
  const page = await client.get(resetPath);
  assert.is(page.status, 200, page.text.slice(0, 300));
  assert.match(page.text, 'name="password_confirm"');
  assert.is(page.headers.get('referrer-policy'), 'no-referrer', 'one Referrer-Policy, no-referrer');
  assert.ok(page.headers.get('content-security-policy'), 'the application’s other headers pass');
  const done = await postNewPassword(client, resetPath, NEW_PASSWORD);
  assert.is(done.status, 302, done.text.slice(0, 300));
  assert.is(done.headers.get('location'), '/login');
  assert.is(done.headers.get('referrer-policy'), 'no-referrer');

  const large = await fetch(`https://127.0.0.1:${httpsPort}${resetPath}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'x'.repeat(3 * 1024 * 1024),
  });
  assert.is(large.status, 413, 'a body over client_max_body_size: nginx’s 413');
  await large.text();

  // The application gone: nginx logs the failed connections to its error log, and answers its own 503.
  await world.close();
  context.closed = true;
  const down = await client.get(resetPath);
  assert.is(down.status, 503, 'nginx’s own 503 (error_page 500 502 504 =503)');
  assert.is(down.headers.get('retry-after'), '5');
  const other = await client.get('/produits');
  assert.is(other.status, 503);
  await stopChild(context.nginx, 'SIGQUIT');

  const access = fs.readFileSync(path.join(prefix, 'access.log'), 'utf8');
  const errors = fs.readFileSync(path.join(prefix, 'error.log'), 'utf8');
  assert.match(access, '"GET /login HTTP/1.1" 200', 'the access log holds the other requests');
  assert.match(access, '"GET /produits HTTP/1.1" 503');
  assert.match(errors, /connect\(\) failed .*"GET \/produits HTTP\/1\.1"/, 'the error log holds the upstream failure of another request');
  assert.not.match(access, token, 'no token in the access log');
  assert.not.match(errors, token, 'no token in the error log');
  assert.not.match(access, '/password/reset/');
  assert.not.match(errors, '/password/reset/');
});

test.run();
