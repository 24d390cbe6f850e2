/**
 * The deployment of docs/deploy.md proven through Debian's nginx (test/helpers/deploy-stack.ts): a generated
 * project with authentication and media, its `fw deploy:init` files with only the ports changed, `node dist/app.js`
 * behind nginx over TLS (a self-signed certificate). Chromium, through https://127.0.0.1:<port> over HTTP/2, signs
 * in, creates a product with a photo whose thumbnail shows, and signs out; every response it sees through nginx
 * carries the six security headers of runtime/security/headers.ts. Plain HTTP is redirected; the client's own
 * address (127.0.0.2) reaches the audit log through X-Forwarded-For; a body over the limit gets nginx's 413 with
 * the headers; `systemd-analyze verify` accepts the unit. Screenshots at 1280 and 390 px go to DEPLOY_SHOTS when set.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { STATIC_SECURITY_HEADERS } from '../runtime/security/headers.js';
import { launchChromium } from './helpers/crud-browser.js';
import { waitFor } from './helpers/cluster.js';
import { jpeg } from './helpers/crud-media.js';
import { EMAIL, PASSWORD, startDeployStack, type DeployStack } from './helpers/deploy-stack.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- the functions given to evaluate run in the browser (no DOM types here) */

const test = suite<{ stack: DeployStack; browser: Browser }>('déploiement : nginx de Debian devant node dist/app.js, en HTTPS');
const SHOTS = process.env.DEPLOY_SHOTS;
const SIX = [...STATIC_SECURITY_HEADERS.map(([name]) => name.toLowerCase()), 'content-security-policy'];

test.before(async (context) => {
  const [stack, browser] = await Promise.allSettled([startDeployStack(), launchChromium()]);
  if (stack.status === 'fulfilled') context.stack = stack.value;
  if (browser.status === 'fulfilled') context.browser = browser.value;
  if (stack.status === 'rejected' || browser.status === 'rejected') {
    await context.browser?.close();
    await context.stack?.stop();
    throw stack.status === 'rejected' ? stack.reason : (browser as PromiseRejectedResult).reason;
  }
});

test.after(async ({ stack, browser }) => {
  await browser?.close();
  await stack?.stop();
});

interface Answer {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

/** One request from 127.0.0.2 (a client that is not nginx's 127.0.0.1), over TLS unless `plain`. */
function request(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  const client = url.startsWith('https:') ? https : http;
  return new Promise((resolve, reject) => {
    const sent = client.request(
      url,
      { method: options.method ?? 'GET', headers: options.headers, localAddress: '127.0.0.2', rejectUnauthorized: false },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
      },
    );
    sent.on('error', reject);
    sent.end(options.body);
  });
}

function missingHeaders(headers: Record<string, unknown>): string[] {
  return SIX.filter((name) => !headers[name]);
}

async function shoot(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('plain HTTP is redirected to HTTPS with a 301, the headers on it too', async ({ stack }) => {
  const answer = await request(`http://127.0.0.1:${stack.httpPort}/produits?page=2`);
  assert.is(answer.status, 301);
  assert.is(answer.headers.location, 'https://127.0.0.1/produits?page=2');
  assert.equal(missingHeaders(answer.headers), []);
  const acme = await request(`http://127.0.0.1:${stack.httpPort}/.well-known/acme-challenge/absent`);
  assert.is(acme.status, 404, 'the ACME challenge path is not redirected');
});

test('Chromium through nginx: sign in, create a product with a photo, see its thumbnail, sign out', async ({ stack, browser }) => {
  const base = `https://127.0.0.1:${stack.httpsPort}`;
  const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const seen: Array<{ url: string; status: number; missing: string[] }> = [];
  page.on('response', async (response) => {
    const headers = await response.allHeaders();
    seen.push({ url: response.url(), status: response.status(), missing: missingHeaders(headers) });
  });
  try {
    await page.goto(`${base}/produits`);
    assert.ok(new URL(page.url()).pathname === '/login', page.url());
    await shoot(page, 'login');
    await page.fill('input[name="login"]', EMAIL);
    await page.fill('input[name="password"]', PASSWORD);
    await Promise.all([page.waitForURL(`${base}/produits`), page.click('button[type="submit"]')]);
    await shoot(page, 'list-empty');
    const protocol = await page.evaluate(() => (globalThis as any).performance.getEntriesByType('navigation')[0]?.nextHopProtocol);
    assert.is(protocol, 'h2', 'HTTP/2 through nginx');

    await page.goto(`${base}/produits/new`);
    await page.fill('input[name="nom"]', 'Fauteuil club');
    await page.fill('input[name="reference"]', 'FC-01');
    await page.setInputFiles('#media-photo-file', { name: 'bleu.jpg', mimeType: 'image/jpeg', buffer: await jpeg(1600, 1200, { r: 40, g: 90, b: 200 }) });
    await page.fill('#media-photo-alt', 'Fauteuil bleu');
    await shoot(page, 'new');
    await Promise.all([page.waitForEvent('load'), page.click('main form button[type="submit"]')]);
    assert.is(new URL(page.url()).pathname, '/produits', `${page.url()} ${(await page.content()).slice(0, 1500)} ${stack.output().slice(-2000)}`);

    await shoot(page, 'list');
    const thumb = page.locator('main img[alt="Fauteuil bleu"]').first();
    await thumb.scrollIntoViewIfNeeded();
    await page.waitForFunction((img: any) => img.complete && img.naturalWidth > 0, await thumb.elementHandle(), { timeout: 10_000 });
    assert.match(String(await thumb.getAttribute('src')), /^\/media\/images\/thumbnail\//);
    await shoot(page, 'list');

    await Promise.all([page.waitForURL(/\/login/), page.click('form[action="/logout"] button')]);
    await shoot(page, 'logged-out');
    await page.goto(`${base}/produits`);
    assert.is(new URL(page.url()).pathname, '/login', 'signed out');
  } finally {
    await context.close();
  }
  const kinds = new Set(seen.map(({ url }) => new URL(url).pathname.split('/')[1]));
  for (const kind of ['login', 'produits', 'static', 'media', 'logout'])
    assert.ok(kinds.has(kind), `no response seen under /${kind}: ${[...kinds].join(', ')}`);
  const bare = seen.filter(({ missing }) => missing.length > 0);
  assert.equal(bare, [], 'every response through nginx carries the six headers');
  assert.ok(seen.length >= 10, `${seen.length} responses`);
});

test('nginx serves the fingerprinted stylesheet a year, precompressed (br when its module is loaded, gzip), plain names an hour', async ({ stack }) => {
  const base = `https://127.0.0.1:${stack.httpsPort}`;
  const page = await request(`${base}/login`);
  const href = /<link rel="stylesheet" href="(\/static\/tailwind\.[0-9a-f]{16}\.css)">/.exec(page.body)?.[1];
  assert.ok(href, 'the layout links the fingerprinted stylesheet');
  const brotli = fs.existsSync('/usr/lib/nginx/modules/ngx_http_brotli_static_module.so');
  const br = await request(`${base}${href}`, { headers: { 'accept-encoding': 'br, gzip' } });
  assert.is(br.status, 200);
  assert.is(br.headers['content-encoding'], brotli ? 'br' : 'gzip');
  assert.is(br.headers['cache-control'], 'public, max-age=31536000, immutable');
  assert.equal(missingHeaders(br.headers), []);
  const gzip = await request(`${base}${href}`, { headers: { 'accept-encoding': 'gzip' } });
  assert.is(gzip.headers['content-encoding'], 'gzip');
  const plain = await request(`${base}/static/tailwind.css`, { headers: { 'accept-encoding': 'gzip' } });
  assert.is(plain.headers['content-encoding'], 'gzip');
  assert.is(plain.headers['cache-control'], 'public, max-age=3600, must-revalidate');
  const identity = await request(`${base}/static/tailwind.css`);
  assert.is(identity.headers['content-encoding'], undefined);
});

test("the client's address, not nginx's, reaches the audit log", async ({ stack }) => {
  const base = `https://127.0.0.1:${stack.httpsPort}`;
  const form = await request(`${base}/login`);
  assert.is(form.status, 200);
  const cookie = String(form.headers['set-cookie']?.[0] ?? '').split(';')[0]!;
  const token = /name="csrf_token" value="([^"]+)"/.exec(form.body)?.[1];
  assert.ok(cookie && token, 'a session and a CSRF token');
  const body = new URLSearchParams({ csrf_token: token!, login: EMAIL, password: 'pas-le-bon-mot-de-passe' }).toString();
  const failures = (): string[] =>
    stack
      .output()
      .split('\n')
      .filter((line) => line.includes('login.failed'));
  const before = failures().length;
  const failed = await request(`${base}/login`, {
    method: 'POST',
    headers: {
      cookie,
      'content-type': 'application/x-www-form-urlencoded',
      'content-length': String(Buffer.byteLength(body)),
      'x-forwarded-for': '203.0.113.9',
    },
    body,
  });
  assert.is(failed.status, 401);
  assert.equal(missingHeaders(failed.headers), []);
  // The server's audit line and nginx's access-log line may come just after the answer: waited for, 10 s at most.
  const audit = await waitFor('the audit line of the failed login', () => failures().length > before && failures(), 10_000);
  assert.match(audit.at(-1)!, '127.0.0.2');
  assert.not.match(audit.at(-1)!, '203.0.113.9', 'an address the client made up is not believed');
  await waitFor("127.0.0.2 in nginx's access log", () => /^127\.0\.0\.2 /m.test(stack.accessLog()), 10_000);
});

test('a body over client_max_body_size gets 413 from nginx, with the six headers', async ({ stack }) => {
  const limit = /client_max_body_size (\d+)m;/.exec(stack.project.read('deploy/nginx/boutique.conf'))?.[1];
  assert.ok(limit);
  const answer = await request(`https://127.0.0.1:${stack.httpsPort}/produits`, {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream', 'content-length': String((Number(limit) + 1) * 1024 * 1024) },
  });
  assert.is(answer.status, 413);
  assert.equal(missingHeaders(answer.headers), []);
  assert.is(answer.headers.server, 'nginx', 'the answer is nginx’s, without its version');
});

test('systemd-analyze verify accepts the unit', ({ stack }) => {
  const unit = stack.project.path('deploy/systemd/boutique.service');
  const verify = spawnSync('systemd-analyze', ['verify', unit], { encoding: 'utf8' });
  if (verify.error && (verify.error as NodeJS.ErrnoException).code === 'ENOENT') {
    console.log('systemd-analyze absent: unit not verified');
    return;
  }
  const complaints = `${verify.stdout}${verify.stderr}`
    .split('\n')
    .filter((line) => line.trim() !== '')
    // The service's user is created on the server (README_DEPLOY.md), not on the test machine.
    .filter((line) => !/User=|Group=|boutique/.test(line) || /Unknown|unknown|Invalid|invalid|Failed/.test(line));
  assert.is(verify.status, 0, `${verify.stdout}${verify.stderr}`);
  assert.equal(complaints, []);
});

test.run();
