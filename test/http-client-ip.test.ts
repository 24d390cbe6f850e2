/**
 * The client address (docs/auth.md "Proxies and the client address") over a real server: `request.ip` is the
 * socket's peer; X-Forwarded-For counts only when that peer is in TRUSTED_PROXIES / `trusted_proxies`, read from
 * the right past trusted hops. CIDR blocks in IPv4 and IPv6, IPv4-mapped addresses, a spoofed chain, garbage in
 * the header, a configuration change at run time, and the message for a bad entry.
 */
import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  Application,
  Response,
  Router,
  TrustedProxies,
  TrustedProxiesError,
  configure,
  createServer,
  getTrustedProxies,
  resetConfig,
  resolveClientIp,
  type Request,
} from '../runtime/index.js';
import { rawRequest } from './helpers/client.js';
import { startApp, type TestApp } from './helpers/server.js';

const routes = (router: Router): void => {
  router.add('GET', '/ip', (request: Request) => new Response(200, request.ip, 'text/plain; charset=utf-8'), { name: 'ip', public: true });
};

/** The address the server saw for a GET /ip with these X-Forwarded-For values (none when empty). */
async function seen(app: TestApp, ...forwardedFor: string[]): Promise<string> {
  const head = forwardedFor.map((value) => `X-Forwarded-For: ${value}\r\n`).join('');
  const response = await rawRequest(app.port, `GET /ip HTTP/1.1\r\nHost: 127.0.0.1\r\n${head}Connection: close\r\n\r\n`);
  assert.is(response.status, 200, response.text);
  return response.text;
}

async function withApp(env: string | undefined, fn: (app: TestApp) => Promise<void>): Promise<void> {
  const app = await startApp({ routes, env: { TRUSTED_PROXIES: env } });
  try {
    await fn(app);
  } finally {
    await app.close();
  }
}

const http = suite('client address over HTTP');

http('without TRUSTED_PROXIES, X-Forwarded-For is ignored: the socket address', async () => {
  await withApp(undefined, async (app) => {
    assert.is(getTrustedProxies(), null);
    assert.is(await seen(app), '127.0.0.1');
    assert.is(await seen(app, '203.0.113.5'), '127.0.0.1');
    assert.is(await seen(app, '203.0.113.5, 10.0.0.1'), '127.0.0.1');
  });
  await withApp('  ', async (app) => assert.is(await seen(app, '203.0.113.5'), '127.0.0.1'));
});

http('with 127.0.0.1 trusted, the forwarded client is used; without the header, the socket address', async () => {
  await withApp('127.0.0.1', async (app) => {
    assert.is(await seen(app, '203.0.113.5'), '203.0.113.5');
    assert.is(await seen(app), '127.0.0.1');
    assert.is(await seen(app, '2001:db8::5'), '2001:db8::5');
    // Ports and brackets are removed; two header lines are one list.
    assert.is(await seen(app, '203.0.113.5:4711'), '203.0.113.5');
    assert.is(await seen(app, '"[2001:db8::5]:443"'), '2001:db8::5');
    assert.is(await seen(app, '198.51.100.1', '203.0.113.5'), '203.0.113.5');
  });
});

http('a spoofed chain: only the hops added by trusted proxies are skipped; the first untrusted from the right wins', async () => {
  await withApp('127.0.0.1, 10.0.0.0/8', async (app) => {
    // The client wrote "1.1.1.1" itself; the proxy 10.1.2.3 appended what it saw (203.0.113.5).
    assert.is(await seen(app, '1.1.1.1, 203.0.113.5, 10.1.2.3'), '203.0.113.5');
    assert.is(await seen(app, '1.1.1.1, 203.0.113.5'), '203.0.113.5');
    // All hops trusted: the leftmost.
    assert.is(await seen(app, '10.0.0.1, 10.0.0.2'), '10.0.0.1');
    // Garbage stops the walk: the last trusted hop before it, never the text sent.
    assert.is(await seen(app, 'evil<script>, 10.0.0.2'), '10.0.0.2');
    assert.is(await seen(app, 'unknown'), '127.0.0.1');
    assert.is(await seen(app, '1.1.1.1, , 203.0.113.5'), '203.0.113.5');
  });
});

http('CIDR blocks in IPv4 and IPv6, and IPv4-mapped addresses', async () => {
  await withApp('127.0.0.0/8, 2001:db8::/32, ::ffff:192.168.0.0/112', async (app) => {
    assert.is(await seen(app, '198.51.100.9, 2001:db8:1::7'), '198.51.100.9', 'an IPv6 proxy in the /32 is skipped');
    assert.is(await seen(app, '198.51.100.9, 2001:db9::7'), '2001:db9::7', 'outside the /32: the client');
    assert.is(await seen(app, '198.51.100.9, ::ffff:127.0.0.9'), '198.51.100.9', 'a mapped address in 127.0.0.0/8');
    assert.is(await seen(app, '198.51.100.9, 192.168.4.4'), '198.51.100.9', 'a plain address in a mapped block');
    assert.is(await seen(app, '198.51.100.9, 192.169.4.4'), '192.169.4.4');
  });
  // An IPv6 peer: a server of the same application on ::1.
  const app = await startApp({ routes, env: { TRUSTED_PROXIES: '::1/128' } });
  const server = createServer(app.app);
  try {
    await new Promise<void>((resolve) => server.listen(0, '::1', resolve));
    const port = (server.address() as AddressInfo).port;
    const ask = async (headers: Record<string, string> = {}) => (await fetch(`http://[::1]:${port}/ip`, { headers })).text();
    assert.is(await ask(), '::1');
    assert.is(await ask({ 'X-Forwarded-For': '203.0.113.5' }), '203.0.113.5');
    // The IPv4 server of the same process does not trust 127.0.0.1.
    assert.is(await seen(app, '203.0.113.5'), '127.0.0.1');
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await app.close();
  }
});

http('configure({ trusted_proxies }) takes effect at once, and wins over the environment', async () => {
  await withApp('10.9.9.9', async (app) => {
    assert.is(await seen(app, '203.0.113.5'), '127.0.0.1');
    configure({ trusted_proxies: ['127.0.0.1'] });
    assert.is(await seen(app, '203.0.113.5'), '203.0.113.5');
    configure({ trusted_proxies: [] });
    assert.is(await seen(app, '203.0.113.5'), '127.0.0.1');
    configure({ trusted_proxies: null });
    assert.equal(getTrustedProxies()?.entries, ['10.9.9.9'], 'back to TRUSTED_PROXIES');
  });
});

http('a bad entry: the server does not start, and the message names the entry, where it came from and the form', async () => {
  const saved = process.env.TRUSTED_PROXIES;
  const app = new Application(new Router(), { apiRoutesModule: null });
  try {
    for (const [value, entry, reason] of [
      ['127.0.0.1, localhost', 'localhost', "ce n'est pas une adresse IP"],
      ['10.0.0.0/33', '10.0.0.0/33', 'le préfixe doit aller de 0 à 32'],
      ['fd00::/129', 'fd00::/129', 'le préfixe doit aller de 0 à 128'],
      ['10.0.0.0/', '10.0.0.0/', 'le préfixe'],
      ['10.0.0.0/8/8', '10.0.0.0/8/8', 'le préfixe'],
      ['256.1.1.1', '256.1.1.1', "ce n'est pas une adresse IP"],
    ] as const) {
      process.env.TRUSTED_PROXIES = value;
      resetConfig();
      try {
        createServer(app);
        assert.unreachable(`${value} accepted`);
      } catch (err) {
        assert.instance(err, TrustedProxiesError);
        const message = (err as Error).message;
        assert.ok(message.startsWith(`TRUSTED_PROXIES : entrée invalide « ${entry} » (${reason}`), message);
        assert.match(message, 'par exemple « 127.0.0.1, 10.0.0.0/8, ::1, fd00::/8 »');
      }
    }
    delete process.env.TRUSTED_PROXIES;
    resetConfig();
    configure({ trusted_proxies: ['10.0.0.1', 'proxy.internal'] });
    assert.throws(() => getTrustedProxies(), /^trusted_proxies : entrée invalide « proxy\.internal »/);
  } finally {
    if (saved === undefined) delete process.env.TRUSTED_PROXIES;
    else process.env.TRUSTED_PROXIES = saved;
    resetConfig();
  }
});

http.run();

const unit = suite('resolveClientIp');

unit('the peer when untrusted or when no list; the walk from the right otherwise', () => {
  const proxies = new TrustedProxies(['127.0.0.1', '10.0.0.0/8', 'fd00::/8']);
  assert.is(resolveClientIp('192.0.2.1', '203.0.113.5', null), '192.0.2.1');
  assert.is(resolveClientIp('192.0.2.1', '203.0.113.5', proxies), '192.0.2.1', 'an untrusted peer is the client');
  assert.is(resolveClientIp('::ffff:127.0.0.1', '203.0.113.5', proxies), '203.0.113.5', 'a mapped peer is matched');
  assert.is(resolveClientIp('fd12::1', '203.0.113.5, fd00::9', proxies), '203.0.113.5');
  assert.is(resolveClientIp('fe80::1%eth0', '203.0.113.5', new TrustedProxies(['fe80::/10'])), '203.0.113.5', 'a zone is ignored');
  assert.is(resolveClientIp('127.0.0.1', ['1.1.1.1', '203.0.113.5, 10.0.0.1'], proxies), '203.0.113.5', 'repeated headers');
  assert.is(resolveClientIp('127.0.0.1', undefined, proxies), '127.0.0.1');
  assert.is(resolveClientIp('127.0.0.1', '', proxies), '127.0.0.1');
  assert.is(resolveClientIp('127.0.0.1', '[2001:db8::1]:x', proxies), '127.0.0.1', 'a bad port is garbage');
  assert.is(resolveClientIp('127.0.0.1', '1.2.3.4:5:6', proxies), '127.0.0.1');
  assert.equal(new TrustedProxies([' 127.0.0.1 ', '', '::1']).entries, ['127.0.0.1', '::1']);
});

unit.run();
