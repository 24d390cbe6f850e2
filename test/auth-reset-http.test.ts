/**
 * Password reset over HTTP on a real server, on SQLite and on MariaDB, with the messages delivered by the outbox's
 * sender to a real SMTP server on 127.0.0.1: the same answer for a known and an unknown address (the times are
 * compared by the reset section of `npm run bench`), the link received, the token stored only hashed, an expired
 * link, a used link, two parallel uses of one link (one success), the user's sessions ended, the limits per
 * address and per client, the second factor still asked, the policy of the new password, and audit records
 * without the token.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { hashPassword } from '../runtime/auth/passwords.js';
import { hashResetToken, PASSWORD_RESET_MAX_PER_EMAIL, PASSWORD_RESET_MAX_PER_IP, settlePasswordResetRequests } from '../runtime/auth/index.js';
import { setRateLimitStore } from '../runtime/rate-limit/index.js';
import { createUser } from '../runtime/auth/users.js';
import { configure } from '../runtime/config.js';
import { closeDatabase } from '../runtime/db/index.js';
import { activateTotpFactor, createTotpFactor } from '../runtime/mfa/index.js';
import { SessionClient, type AuthDatabase } from './helpers/auth-client.js';
import {
  askReset,
  auditEvents,
  auditRecords,
  EMAIL,
  linkOf,
  MAIL_FROM,
  NEW_PASSWORD,
  openResetDatabase,
  outboxDrained,
  PASSWORD,
  pathOf,
  postNewPassword,
  startResetWorld,
  type ResetWorld,
} from './helpers/auth-reset.js';
import { DIALECTS } from './helpers/dialects.js';

const SENT = 'Si un compte correspond à cette adresse, un message vient de lui être envoyé.';

for (const dialect of DIALECTS) {
  const test = suite<{ world: ResetWorld; data: AuthDatabase; aliceId: number }>(`password reset over HTTP (${dialect})`);

  test.before(async (context) => {
    context.data = await openResetDatabase(dialect);
    context.world = await startResetWorld(context.data);
  });

  test.before.each(async (context) => {
    await settlePasswordResetRequests();
    await context.data.reset();
    setRateLimitStore(null);
    configure({ app_url: null, app_env: 'dev' });
    context.aliceId = await createUser({ email: EMAIL, passwordHash: await hashPassword(PASSWORD) }, context.data.db);
    context.world.smtp.received.splice(0);
    context.world.app.logs.clear();
  });

  test.after(async ({ world, data }) => {
    await world.close();
    await closeDatabase();
    await data.close();
  });

  /** Asks a link for alice and returns the path of the link received. */
  async function receivedPath(world: ResetWorld, email = EMAIL): Promise<string> {
    const before = world.smtp.received.length;
    const page = await askReset(new SessionClient(world.app.base), email);
    assert.is(page.status, 200);
    const [message] = (await world.smtp.waitFor(before + 1)).slice(before);
    return pathOf(linkOf(message!));
  }

  test('the login page links to the form; the form asks for an address', async ({ world }) => {
    const client = new SessionClient(world.app.base);
    const login = await client.get('/login');
    assert.match(login.text, '<a href="/password/forgot" id="forgot-link"');
    assert.match(login.text, 'Mot de passe oublié ?');
    const form = await client.get('/password/forgot');
    assert.is(form.status, 200);
    assert.is(form.headers.get('cache-control'), 'no-store');
    assert.is(form.headers.get('referrer-policy'), 'strict-origin-when-cross-origin', 'other sites never see the token');
    assert.match(form.text, 'name="email"');
    const invalid = await client.post('/password/forgot', [['email', 'pas une adresse']], '/password/forgot');
    assert.is(invalid.status, 422);
    assert.match(invalid.text, 'Saisissez une adresse e-mail valide.');
    // Without the CSRF token: refused before anything.
    const forged = await client.request('POST', '/password/forgot', [['email', EMAIL]]);
    assert.is(forged.status, 403);
  });

  test('known and unknown address: the same page; the known one receives the link, stored only as its SHA-256', async ({ world, data, aliceId }) => {
    const pages = [];
    for (const email of [EMAIL, 'nobody@example.test']) {
      const page = await askReset(new SessionClient(world.app.base), email);
      assert.is(page.status, 200, email);
      assert.match(page.text, SENT);
      assert.match(page.text, 'valable 30 minutes');
      pages.push(page.text.replace(/value="[^"]*"/g, ''));
    }
    assert.is(pages[0], pages[1], 'one answer whatever the address');

    assert.equal(await outboxDrained(data.db), ['sent'], 'one message queued, for the known address only');
    assert.is(world.smtp.received.length, 1, 'no message for the unknown address');
    const [message] = world.smtp.received;
    assert.equal(message!.to, [EMAIL]);
    assert.is(message!.from, MAIL_FROM);
    assert.is(message!.parsed.subject, 'Réinitialisation de votre mot de passe – Démo');
    const link = linkOf(message!);
    assert.ok(link.startsWith(`${world.app.base}/password/reset/`), link);
    assert.match(message!.parsed.text ?? '', 'valable 30 minutes');

    const token = link.slice(link.lastIndexOf('/') + 1);
    const rows = await data.db.fetchAll<{ user_id: unknown; token_hash: string; purpose: string; expires_at: unknown; created_at: unknown }>(
      'SELECT user_id, token_hash, purpose, expires_at, created_at FROM auth_tokens',
    );
    assert.is(rows.length, 1);
    assert.is(Number(rows[0]!.user_id), aliceId);
    assert.is(rows[0]!.purpose, 'password_reset');
    assert.is(rows[0]!.token_hash, hashResetToken(token));
    const lifetime = Date.parse(`${String(rows[0]!.expires_at).replace(' ', 'T')}Z`) - Date.parse(`${String(rows[0]!.created_at).replace(' ', 'T')}Z`);
    assert.is(lifetime, 30 * 60 * 1000);

    const mail = await data.db.fetchAll<{ status: string; related_entity: string; related_id: string; message_type: string; message: unknown }>(
      'SELECT status, related_entity, related_id, message_type, message FROM mail_log',
    );
    assert.is(mail.length, 1);
    assert.equal(
      { ...mail[0], related_id: String(mail[0]!.related_id) },
      {
        status: 'sent',
        related_entity: 'users',
        related_id: String(aliceId),
        message_type: 'password_reset',
        message: null,
      },
    );

    const requested = auditRecords(world.app, 'password_reset.requested');
    assert.is(requested.length, 2);
    assert.is(requested[0]!.user_id, aliceId);
    assert.is(requested[1]!.user_id, null);
    assert.not.match(world.app.logs.text(), token);
  });

  test('the link: the form, a new password, 302 to /login with a message; the new password signs in, the old one not; the link refused after', async ({
    world,
    data,
    aliceId,
  }) => {
    const path = await receivedPath(world);
    const client = new SessionClient(world.app.base);
    const form = await client.get(path);
    assert.is(form.status, 200);
    assert.is(form.headers.get('referrer-policy'), 'strict-origin-when-cross-origin', 'other sites never see the token');
    assert.is(form.headers.get('cache-control'), 'no-store');
    assert.match(form.text, `action="${path}"`);

    const mismatch = await postNewPassword(client, path, NEW_PASSWORD, 'autre chose 1234');
    assert.is(mismatch.status, 422);
    assert.match(mismatch.text, 'Les deux mots de passe ne correspondent pas.');
    const short = await postNewPassword(client, path, 'court');
    assert.is(short.status, 422);
    assert.match(short.text, 'au moins 8 caractères');
    assert.not.match(short.text, 'value="court"');

    const done = await postNewPassword(client, path, NEW_PASSWORD);
    assert.is(done.status, 302);
    assert.is(done.headers.get('location'), '/login');
    const login = await client.get('/login');
    assert.match(login.text, 'Votre mot de passe a été changé.');

    assert.is((await new SessionClient(world.app.base).login(EMAIL, PASSWORD)).status, 401, 'the old password is refused');
    const signedIn = new SessionClient(world.app.base);
    assert.is((await signedIn.login(EMAIL, NEW_PASSWORD)).status, 302);
    assert.equal(JSON.parse((await signedIn.get('/private')).text).id, aliceId);

    const again = await client.get(path);
    assert.is(again.status, 410);
    assert.match(again.text, 'Ce lien n’est pas valable ou a déjà servi.');
    assert.match(again.text, 'href="/password/forgot"');
    const reused = await new SessionClient(world.app.base).post(
      path,
      [
        ['password', 'encore un autre 99'],
        ['password_confirm', 'encore un autre 99'],
      ],
      '/password/forgot',
    );
    assert.is(reused.status, 410);
    assert.is((await new SessionClient(world.app.base).login(EMAIL, NEW_PASSWORD)).status, 302, 'the password of the first use stays');

    const used = await data.db.fetchAll<{ used_at: unknown }>('SELECT used_at FROM auth_tokens');
    assert.ok(used.every((row) => row.used_at !== null));
    const events = auditEvents(world.app);
    assert.ok(events.includes('password_reset.completed'), events.join(','));
    const refusals = auditRecords(world.app, 'password_reset.refused').map((fields) => (fields.metadata as Record<string, unknown>).reason);
    assert.equal(refusals, ['used', 'used']);
    assert.not.match(world.app.logs.text(), path.slice(path.lastIndexOf('/') + 1));
    assert.not.match(world.app.logs.text(), NEW_PASSWORD);
  });

  test('an earlier link dies with a reset made through a later one', async ({ world }) => {
    const first = await receivedPath(world);
    const second = await receivedPath(world);
    assert.is.not(first, second);
    assert.is((await postNewPassword(new SessionClient(world.app.base), second, NEW_PASSWORD)).status, 302);
    assert.is((await new SessionClient(world.app.base).get(first)).status, 410);
  });

  test('an expired link is refused (GET and POST), the password unchanged', async ({ world, data }) => {
    const path = await receivedPath(world);
    await data.db.execute("UPDATE auth_tokens SET expires_at = '2020-01-01 00:00:00'");
    const client = new SessionClient(world.app.base);
    const page = await client.get(path);
    assert.is(page.status, 410);
    assert.match(page.text, 'Ce lien a expiré.');
    const direct = await client.request('POST', path, [
      ['csrf_token', await client.csrf('/password/forgot')],
      ['password', NEW_PASSWORD],
      ['password_confirm', NEW_PASSWORD],
    ]);
    assert.is(direct.status, 410);
    assert.is((await new SessionClient(world.app.base).login(EMAIL, PASSWORD)).status, 302, 'the old password still works');
    const reasons = auditRecords(world.app, 'password_reset.refused').map((fields) => (fields.metadata as Record<string, unknown>).reason);
    assert.ok(reasons.length >= 2 && reasons.every((reason) => reason === 'expired'), reasons.join(','));
    // A made-up token: the same refusal page, no query needed for a malformed one.
    assert.is((await client.get('/password/reset/nimporte-quoi')).status, 410);
    assert.is((await client.get(`/password/reset/${'A'.repeat(43)}`)).status, 410);
  });

  test('two parallel POSTs with the same link: exactly one success', async ({ world }) => {
    const path = await receivedPath(world);
    const clients = [new SessionClient(world.app.base), new SessionClient(world.app.base)];
    const tokens = await Promise.all(clients.map((client) => client.csrf(path)));
    const pages = await Promise.all(
      clients.map((client, i) =>
        client.request('POST', path, [
          ['csrf_token', tokens[i]!],
          ['password', `parallele numero ${i}`],
          ['password_confirm', `parallele numero ${i}`],
        ]),
      ),
    );
    assert.equal(pages.map((page) => page.status).sort(), [302, 410]);
    const winner = pages.findIndex((page) => page.status === 302);
    assert.is((await new SessionClient(world.app.base).login(EMAIL, `parallele numero ${winner}`)).status, 302);
    assert.is((await new SessionClient(world.app.base).login(EMAIL, `parallele numero ${1 - winner}`)).status, 401);
  });

  test('every session of the user ends with the reset; nobody is signed in by it', async ({ world }) => {
    const laptop = new SessionClient(world.app.base);
    assert.is((await laptop.login(EMAIL, PASSWORD)).status, 302);
    assert.is((await laptop.get('/private')).status, 200);
    const path = await receivedPath(world);
    const phone = new SessionClient(world.app.base);
    assert.is((await postNewPassword(phone, path, NEW_PASSWORD)).status, 302);
    const after = await laptop.get('/private');
    assert.is(after.status, 302, 'the signed-in session is ended');
    assert.is(after.headers.get('location'), '/login?next=%2Fprivate');
    assert.is((await phone.get('/private')).status, 302, 'the reset signs nobody in');
  });

  test('limits: 3 requests per address, 10 per client in 15 minutes; then 429 with Retry-After and no message', async ({ world, data }) => {
    for (let i = 0; i < PASSWORD_RESET_MAX_PER_EMAIL; i++) assert.is((await askReset(new SessionClient(world.app.base), EMAIL)).status, 200);
    await world.smtp.waitFor(PASSWORD_RESET_MAX_PER_EMAIL);
    const limited = await askReset(new SessionClient(world.app.base), 'Alice@Example.test');
    assert.is(limited.status, 429);
    assert.ok(Number(limited.headers.get('retry-after')) > 0);
    // The same limit for an address without an account: nothing tells them apart.
    for (let i = 0; i < PASSWORD_RESET_MAX_PER_EMAIL; i++) assert.is((await askReset(new SessionClient(world.app.base), 'nobody@example.test')).status, 200);
    assert.is((await askReset(new SessionClient(world.app.base), 'nobody@example.test')).status, 429);
    // The client's own limit: other addresses, same client.
    for (let i = 2 * PASSWORD_RESET_MAX_PER_EMAIL; i < PASSWORD_RESET_MAX_PER_IP; i++) {
      assert.is((await askReset(new SessionClient(world.app.base), `autre${i}@example.test`)).status, 200, `request ${i}`);
    }
    assert.is((await askReset(new SessionClient(world.app.base), 'encore@example.test')).status, 429);
    // The other addresses have no account; every request is settled: the outbox holds all it ever will.
    assert.equal(await outboxDrained(data.db), Array(PASSWORD_RESET_MAX_PER_EMAIL).fill('sent'));
    assert.is(world.smtp.received.length, PASSWORD_RESET_MAX_PER_EMAIL);
    assert.ok(auditEvents(world.app).includes('password_reset.rate_limited'));
  });

  test('a user with a second factor: the reset signs nobody in, and the next login asks the code', async ({ world, aliceId }) => {
    const factor = await createTotpFactor(aliceId);
    assert.ok(await activateTotpFactor(factor.id));
    const path = await receivedPath(world);
    const client = new SessionClient(world.app.base);
    assert.is((await postNewPassword(client, path, NEW_PASSWORD)).status, 302);
    assert.is((await client.get('/private')).status, 302);
    const login = await client.login(EMAIL, NEW_PASSWORD);
    assert.is(login.status, 302);
    assert.is(login.headers.get('location'), '/login/mfa');
    assert.is((await client.get('/private')).status, 302, 'the password alone grants nothing');
  });

  test('a disabled account gets no message; app_url is the base of the links; without it outside dev, no link is sent', async ({ world, data, aliceId }) => {
    await data.db.execute('UPDATE users SET is_active = 0 WHERE id = ?', [aliceId]);
    assert.is((await askReset(new SessionClient(world.app.base), EMAIL)).status, 200);
    await data.db.execute('UPDATE users SET is_active = 1 WHERE id = ?', [aliceId]);
    configure({ app_url: 'https://exemple.test/' });
    await askReset(new SessionClient(world.app.base), EMAIL);
    const [message] = await world.smtp.waitFor(1);
    assert.ok(linkOf(message!).startsWith('https://exemple.test/password/reset/'), linkOf(message!));

    configure({ app_url: null, app_env: 'prod' });
    await data.db.execute('DELETE FROM auth_rate_limit_attempts');
    assert.is((await askReset(new SessionClient(world.app.base), EMAIL)).status, 200);
    assert.equal(await outboxDrained(data.db), ['sent'], 'neither the disabled account nor the request without app_url queued a message');
    assert.is(world.smtp.received.length, 1);
    assert.match(world.app.logs.text(), 'app_url (APP_URL)');
    const reasons = auditRecords(world.app, 'password_reset.requested').map((fields) => (fields.metadata as Record<string, unknown>).reason ?? 'sent');
    assert.equal(reasons, ['disabled', 'sent', 'no_app_url']);
  });

  test.run();
}
