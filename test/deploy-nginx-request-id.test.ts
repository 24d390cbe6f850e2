/**
 * The request id through Debian's nginx running the site `fw deploy:init` writes (cli/deploy/nginx.ts, the ports
 * only changed), in front of a real server that trusts it (TRUSTED_PROXIES): nginx's `$request_id` reaches the
 * application as X-Request-Id, comes back in the response, and is the same in nginx's access line and in the
 * application's; nginx's line has no query string, the application's has it with the secret values left out.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import https from 'node:https';
import type { ChildProcess } from 'node:child_process';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { nginxSite } from '../cli/deploy/nginx.js';
import { Response } from '../runtime/index.js';
import { freePort, selfSigned, startNginx, stopChild } from './helpers/deploy-stack.js';
import { captureLogs, startApp, type LogCapture, type TestApp } from './helpers/server.js';

interface Context {
  app: TestApp;
  logs: LogCapture;
  prefix: string;
  nginx: ChildProcess;
  httpsPort: number;
}

const test = suite<Context>('déploiement : l’identifiant de requête de nginx dans les journaux de nginx et de l’application');

test.before(async (context) => {
  context.app = await startApp({
    config: { trusted_proxies: ['127.0.0.1'] },
    env: { ACCESS_LOG: 'on' },
    routes: (router) => router.add('GET', '/produits', () => new Response(200, 'liste'), { public: true }),
  });
  context.logs = captureLogs({ access: true });
  context.prefix = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-deploy-request-id-'));
  fs.chmodSync(context.prefix, 0o755);
  const tls = selfSigned(context.prefix);
  const [httpPort, httpsPort] = [await freePort(), await freePort()];
  context.httpsPort = httpsPort;
  const site = nginxSite({
    app: 'boutique',
    root: context.app.project.root,
    serverName: '_',
    upstream: `127.0.0.1:${context.app.port}`,
    certificate: { ...tls, source: 'test' },
    body: { application: 1024 * 1024, nginxMiB: 2, source: 'test' },
  })
    .replace(/listen (\[::\]:)?80;/g, `listen $1${httpPort};`)
    .replace(/listen (\[::\]:)?443 ssl http2;/g, `listen $1${httpsPort} ssl http2;`);
  const file = path.join(context.prefix, 'boutique.conf');
  fs.writeFileSync(file, site);
  context.nginx = await startNginx(context.prefix, file, httpsPort);
});

test.after(async ({ app, logs, nginx, prefix }) => {
  await stopChild(nginx, 'SIGQUIT');
  logs?.restore();
  await app?.close();
  if (prefix) fs.rmSync(prefix, { recursive: true, force: true });
});

/** A GET through nginx over TLS (its certificate is the test's own), with a forged X-Request-Id. */
function get(port: number, target: string): Promise<{ status: number; id: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      { host: '127.0.0.1', port, path: target, rejectUnauthorized: false, agent: false, headers: { 'X-Request-Id': 'forged-by-client' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, id: res.headers['x-request-id'] as string | undefined }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

test('nginx’s $request_id in both access lines and in the response; no query in nginx’s line', async ({ logs, nginx, prefix, httpsPort }) => {
  const first = await get(httpsPort, '/produits?token=s3cr3t&page=2');
  const second = await get(httpsPort, '/produits');
  assert.is(first.status, 200);
  assert.match(first.id ?? '', /^[0-9a-f]{32}$/, 'nginx’s id, not the one the client sent');
  assert.is.not(first.id, second.id);
  const app = logs.records.filter((record) => record.logger === 'fw.access');
  assert.equal(
    app.map((record) => [record.requestId, record.fields?.path]),
    [
      [first.id, '/produits?token=…&page=2'],
      [second.id, '/produits'],
    ],
  );
  await stopChild(nginx, 'SIGQUIT');
  const access = fs.readFileSync(path.join(prefix, 'access.log'), 'utf8');
  assert.match(access, `"GET /produits HTTP/1.1" 200 5 "-" "-" request_id=${first.id} upstream=127.0.0.1:`);
  assert.match(access, `request_id=${second.id} `);
  assert.not.match(access, 's3cr3t');
  assert.not.match(access, 'forged');
});

test.run();
