/**
 * Attempt limits under attack, over HTTP on a real server, on SQLite and on MariaDB (limits in the database):
 * concurrent wrong passwords and wrong MFA codes (login step and account page) never pass the limit together;
 * accent variants of an e-mail neither reach the account nor get a counter of their own for it; IPv6 clients are
 * counted per /64 and IPv4-mapped addresses as IPv4; a user with a legacy PBKDF2 hash still signs in.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { hashPassword, legacyPbkdf2Hash } from '../runtime/auth/passwords.js';
import { setRateLimitStore } from '../runtime/rate-limit/index.js';
import { createUser, findUserByEmail } from '../runtime/auth/users.js';
import { configure } from '../runtime/config.js';
import { closeDatabase } from '../runtime/db/index.js';
import { openAuthDatabase, SessionClient, type AuthDatabase, type Page } from './helpers/auth-client.js';
import { EMAIL, enrol, PASSWORD, passwordStep, signIn, signOut, startMfaApp, totpCode } from './helpers/mfa.js';
import type { TestApp } from './helpers/server.js';
import { DIALECTS } from './helpers/dialects.js';

/** How many pages have each status. */
function statuses(pages: Page[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const page of pages) counts[page.status] = (counts[page.status] ?? 0) + 1;
  return counts;
}

/** Six-digit codes that are none of the secret's codes for the steps around now. */
async function wrongCodes(secret: string, count: number): Promise<string[]> {
  const valid = new Set(await Promise.all([-2, -1, 0, 1, 2].map((steps) => totpCode(secret, steps))));
  const codes: string[] = [];
  for (let n = 100_000; codes.length < count; n++) if (!valid.has(String(n))) codes.push(String(n));
  return codes;
}

for (const dialect of DIALECTS) {
  const test = suite<{ app: TestApp; data: AuthDatabase; aliceId: number }>(`attempt limits under attack (${dialect})`);

  test.before(async (context) => {
    context.data = await openAuthDatabase(dialect);
    context.app = await startMfaApp(context.data);
    // The tests speak for many clients through X-Forwarded-For.
    configure({ trusted_proxies: ['127.0.0.1', '::1', '::ffff:127.0.0.1'] });
  });

  test.before.each(async (context) => {
    await context.data.reset();
    setRateLimitStore(null);
    context.aliceId = await createUser({ email: EMAIL, passwordHash: await hashPassword(PASSWORD) }, context.data.db);
  });

  test.after(async ({ app, data }) => {
    await closeDatabase();
    await app.close();
    await data.close();
  });

  /** A client seen as coming from `ip`. */
  const from = (app: TestApp, ip: string) => new SessionClient(app.base, { 'x-forwarded-for': ip });

  /** Failed login attempts counted for a key in the table. */
  async function failures(data: AuthDatabase, key: string): Promise<number> {
    const row = await data.db.fetchOne<{ n: unknown }>(
      "SELECT COUNT(*) AS n FROM auth_rate_limit_attempts WHERE action = 'login' AND rate_key = ? AND success = 0",
      [key],
    );
    return Number(row?.n ?? 0);
  }

  test('30 concurrent wrong passwords: at most 5 are checked (401), the others answer 429 with Retry-After', async ({ app, data, aliceId }) => {
    const clients = await Promise.all(
      Array.from({ length: 30 }, async () => {
        const client = from(app, '192.0.2.10');
        return { client, token: await client.csrf('/login') };
      }),
    );
    const pages = await Promise.all(
      clients.map(({ client, token }, i) =>
        client.request('POST', '/login', [
          ['csrf_token', token],
          ['login', EMAIL],
          ['password', `wrong-password-${i}`],
        ]),
      ),
    );
    const counts = statuses(pages);
    const checked = counts[401] ?? 0;
    assert.ok(checked >= 1 && checked <= 5, `checked: ${JSON.stringify(counts)}`);
    assert.is(checked + (counts[429] ?? 0), 30, JSON.stringify(counts));
    for (const page of pages.filter((p) => p.status === 429)) assert.match(page.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
    assert.is(await failures(data, `user:${aliceId}`), checked, 'only the checked attempts count for the account');
    assert.is(await failures(data, 'ip:192.0.2.10'), checked, 'and for the address');
  });

  test('5 wrong passwords, then the right one from elsewhere: 429 on the account; a success clears it, not the address', async ({ app, data, aliceId }) => {
    for (let i = 0; i < 5; i++) assert.is((await from(app, `198.51.100.${i + 1}`).login(EMAIL, `wrong-${i}`)).status, 401);
    const limited = await from(app, '198.51.100.50').login(EMAIL, PASSWORD);
    assert.is(limited.status, 429);
    assert.match(limited.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
    await data.db.execute('DELETE FROM auth_rate_limit_attempts');
    for (let i = 0; i < 4; i++) assert.is((await from(app, '203.0.113.9').login(EMAIL, `wrong-${i}`)).status, 401);
    assert.is((await from(app, '203.0.113.9').login(EMAIL, PASSWORD)).status, 302);
    assert.is(await failures(data, `user:${aliceId}`), 0, 'the account starts again');
    assert.is(await failures(data, 'ip:203.0.113.9'), 4, 'the address keeps its failures');
    assert.is((await from(app, '203.0.113.9').login('bob@example.test', 'wrong')).status, 401, 'the fifth failure of the address');
    assert.is((await from(app, '203.0.113.9').login(EMAIL, PASSWORD)).status, 429, 'the address is limited now');
  });

  test("accent variants of an e-mail do not reach the account, and the account's counter holds against them", async ({ app, data }) => {
    const variants = ['àlice@example.test', 'alíce@example.test', 'alice@exámple.test', 'ALİCE@example.test', 'alice\u00AD@example.test'];
    for (const variant of variants) {
      assert.is(await findUserByEmail(variant, data.db), null, JSON.stringify(variant));
      assert.is((await from(app, '192.0.2.77').login(variant, PASSWORD)).status, 401, `${JSON.stringify(variant)} with alice's password`);
    }
    await data.db.execute('DELETE FROM auth_rate_limit_attempts');
    for (let i = 0; i < 5; i++) assert.is((await from(app, `198.51.100.${i + 1}`).login(EMAIL, `wrong-${i}`)).status, 401);
    assert.is((await from(app, '198.51.100.60').login(' Alice@Example.TEST ', PASSWORD)).status, 429, 'another spelling of the same account');
  });

  if (dialect === 'mariadb') {
    test('a users table from before (accent-insensitive e-mail): a variant finds the account but shares its counter', async ({ app, data }) => {
      await data.db.execute('ALTER TABLE users MODIFY email VARCHAR(190) CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci NOT NULL');
      try {
        assert.ok(await findUserByEmail('àlice@example.test', data.db), 'the old collation folds accents');
        for (let i = 0; i < 5; i++) assert.is((await from(app, `198.51.100.${i + 1}`).login(EMAIL, `wrong-${i}`)).status, 401);
        for (const [i, variant] of ['àlice@example.test', 'alíce@example.test', 'alice@exámple.test'].entries()) {
          assert.is((await from(app, `203.0.113.${i + 1}`).login(variant, PASSWORD)).status, 429, JSON.stringify(variant));
        }
      } finally {
        await data.db.execute('ALTER TABLE users MODIFY email VARCHAR(190) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL');
      }
    });
  }

  test('IPv6 clients are counted per /64; an IPv4-mapped address counts as its IPv4 address', async ({ app }) => {
    for (let i = 1; i <= 5; i++) assert.is((await from(app, `2001:db8:1:2::${i}`).login(`nobody${i}@example.test`, 'wrong')).status, 401);
    assert.is((await from(app, '2001:db8:1:2:ffff:ffff:ffff:fffe').login('someone@example.test', 'wrong')).status, 429, 'same /64');
    assert.is((await from(app, '2001:db8:1:3::1').login('someone@example.test', 'wrong')).status, 401, 'another /64');
    for (let i = 1; i <= 5; i++) assert.is((await from(app, '::ffff:192.0.2.200').login(`v4-${i}@example.test`, 'wrong')).status, 401);
    assert.is((await from(app, '192.0.2.200').login(EMAIL, PASSWORD)).status, 429, 'the IPv4 address is the mapped one');
  });

  test('every spelling of an IPv4-mapped address shares the counter of its IPv4 address, not one /64 for all', async ({ app }) => {
    const spellings = [
      '::ffff:192.0.2.201',
      '::ffff:c000:2c9',
      '0:0:0:0:0:ffff:c000:2c9',
      '0000:0000:0000:0000:0000:FFFF:C000:02C9',
      '0:0:0:0:0:ffff:192.0.2.201',
    ];
    for (const [i, ip] of spellings.entries()) assert.is((await from(app, ip).login(`mapped-${i}@example.test`, 'wrong')).status, 401, ip);
    assert.is((await from(app, '192.0.2.201').login(EMAIL, PASSWORD)).status, 429, 'the five spellings were one client');
    assert.is((await from(app, '::ffff:c000:2ca').login(EMAIL, PASSWORD)).status, 302, 'another mapped address has its own counter');
  });

  test('40 concurrent wrong MFA codes on one challenge: exactly 5 answer 401, the others 429; the right code then too', async ({ app }) => {
    const client = new SessionClient(app.base);
    await signIn(client);
    const { secret } = await enrol(client);
    await signOut(client);
    await passwordStep(client);
    const token = await client.csrf('/login/mfa');
    const codes = await wrongCodes(secret, 40);
    const pages = await Promise.all(
      codes.map((code) =>
        client.request('POST', '/login/mfa', [
          ['csrf_token', token],
          ['code', code],
        ]),
      ),
    );
    assert.equal(statuses(pages), { 401: 5, 429: 35 });
    const right = await client.request('POST', '/login/mfa', [
      ['csrf_token', token],
      ['code', await totpCode(secret)],
    ]);
    assert.is(right.status, 429, 'the user is limited');
  });

  test('20 concurrent wrong codes on the account page: exactly 5 are checked (422), the others 429', async ({ app }) => {
    const client = new SessionClient(app.base);
    await signIn(client);
    const { secret } = await enrol(client);
    const token = await client.csrf('/account/mfa');
    const codes = await wrongCodes(secret, 20);
    const pages = await Promise.all(
      codes.map((code) =>
        client.request('POST', '/account/mfa/recovery-codes', [
          ['csrf_token', token],
          ['code', code],
        ]),
      ),
    );
    assert.equal(statuses(pages), { 422: 5, 429: 15 });
  });

  test('a user with a legacy PBKDF2 hash: a wrong password is refused, the right one signs in', async ({ app, data }) => {
    await createUser({ email: 'legacy@example.test', passwordHash: legacyPbkdf2Hash(PASSWORD) }, data.db);
    assert.is((await from(app, '192.0.2.30').login('legacy@example.test', 'wrong password')).status, 401);
    assert.is((await from(app, '192.0.2.30').login('nobody@example.test', 'wrong password')).status, 401);
    assert.is((await from(app, '192.0.2.30').login(EMAIL, 'wrong password')).status, 401);
    assert.is((await from(app, '192.0.2.31').login('legacy@example.test', PASSWORD)).status, 302);
  });

  test.run();
}
