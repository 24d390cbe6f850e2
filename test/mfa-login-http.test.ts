/**
 * The login with a second factor over HTTP on a real server, on SQLite and on MariaDB, with real time steps:
 * enrolment through the pages, the password step (challenge stored, data kept, id rotated), a TOTP code (session rotated,
 * signed in), a replayed code, a code of the previous step (accepted once), recovery codes (accepted once),
 * expiry, the per-user limit, and a factor table that errs (refused, never granted).
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { hashPassword } from '../runtime/auth/passwords.js';
import { setRateLimitStore } from '../runtime/rate-limit/index.js';
import { createUser } from '../runtime/auth/users.js';
import { closeDatabase } from '../runtime/db/index.js';
import { openAuthDatabase, SessionClient, type AuthDatabase } from './helpers/auth-client.js';
import {
  ageChallenge,
  auditEvents,
  EMAIL,
  enrol,
  PASSWORD,
  passwordStep,
  postCode,
  signIn,
  signOut,
  startMfaApp,
  stepMargin,
  totpCode,
  whoAmI,
} from './helpers/mfa.js';
import type { TestApp } from './helpers/server.js';
import { DIALECTS } from './helpers/dialects.js';

const COOKIE = /^session_id=[0-9a-f]{64}; HttpOnly; SameSite=Strict; Secure; Path=\/$/;

for (const dialect of DIALECTS) {
  const test = suite<{ app: TestApp; data: AuthDatabase; aliceId: number }>(`second factor at login (${dialect})`);

  test.before(async (context) => {
    context.data = await openAuthDatabase(dialect);
    context.app = await startMfaApp(context.data);
  });

  test.before.each(async (context) => {
    await context.data.reset();
    setRateLimitStore(null);
    context.aliceId = await createUser({ email: EMAIL, passwordHash: await hashPassword(PASSWORD) }, context.data.db);
    context.app.logs.clear();
  });

  test.after(async ({ app, data }) => {
    await closeDatabase();
    await app.close();
    await data.close();
  });

  test('enrol, log out, log in: password → /login/mfa (new id) → code → signed in on a new id; the same code refused after', async ({ app, aliceId }) => {
    const client = new SessionClient(app.base);
    await signIn(client);
    const { secret } = await enrol(client);
    await signOut(client);
    assert.is(await whoAmI(client), null);

    await client.get('/login');
    const prePasswordId = client.sessionId;
    const prePasswordToken = await client.csrf('/login');
    const password = await passwordStep(client, EMAIL, '/private?x=1');
    assert.is(password.cookies.length, 1, 'the cookie of the new id is sent');
    assert.match(password.cookies[0]!, COOKIE);
    assert.is(await whoAmI(client), null, 'the password alone grants nothing');
    const challengeId = client.sessionId;
    assert.is.not(challengeId, prePasswordId, 'the password step rotates the session id');

    // Fixation: a session id planted before the password step is dead after it, and reaches no challenge.
    const planted = new SessionClient(app.base);
    planted.cookie = `session_id=${prePasswordId}`;
    assert.is((await planted.get('/login/mfa')).headers.get('location'), '/login', 'the pre-password id holds no challenge');
    const guess = await planted.request('POST', '/login/mfa', [
      ['csrf_token', prePasswordToken],
      ['code', '123456'],
    ]);
    // Its token is the anonymous one of that id (valid for an anonymous form), but the id holds no challenge.
    assert.is(guess.status, 302, 'nor can it post codes to the challenge');
    assert.is(guess.headers.get('location'), '/login');
    // The CSRF token of the password step was dropped: the challenge form has a new one.
    const challengeToken = await client.csrf('/login/mfa');
    assert.is.not(challengeToken, prePasswordToken, 'a new CSRF token after the password step');

    await stepMargin();
    const code = await totpCode(secret);
    const form = await client.get('/login/mfa');
    assert.is(form.status, 200);
    assert.match(form.text, 'name="code"');
    assert.is(form.headers.get('cache-control'), 'no-store');
    const signedIn = await postCode(client, code);
    assert.is(signedIn.status, 302);
    assert.is(signedIn.headers.get('location'), '/private?x=1', 'the next of the password step is followed');
    assert.match(signedIn.cookies[0]!, COOKIE);
    assert.is.not(client.sessionId, challengeId, 'the session id is rotated');
    assert.equal(await whoAmI(client), { id: aliceId, login: EMAIL, roles: [], permissions: [] });

    // Fixation: the pre-MFA id is dead; the challenge keys did not survive into the signed-in session.
    const attacker = new SessionClient(app.base);
    attacker.cookie = `session_id=${challengeId}`;
    assert.is(await whoAmI(attacker), null);
    assert.is((await attacker.get('/login/mfa')).headers.get('location'), '/login');

    // Replay: the same code, on a new login, is refused.
    await signOut(client);
    await passwordStep(client);
    const replay = await postCode(client, code);
    assert.is(replay.status, 401);
    assert.match(replay.text, 'Code incorrect ou déjà utilisé.');
    assert.match(replay.text, 'name="code"');
    assert.is(await whoAmI(client), null);
    const events = auditEvents(app);
    assert.ok(events.includes('mfa.challenge.required'), events.join(','));
    assert.ok(events.includes('mfa.challenge.success'));
    assert.ok(events.includes('mfa.challenge.failed'));
    assert.not.match(app.logs.text(), secret);
    assert.not.match(app.logs.text(), code);
  });

  test('a code of the previous step is accepted once; then neither it nor an older step passes, a later one does', async ({ app, data, aliceId }) => {
    const client = new SessionClient(app.base);
    await signIn(client);
    const { secret } = await enrol(client);
    await signOut(client);
    // As if enrolled long ago: no step used yet.
    await data.db.execute('UPDATE auth_mfa_factors SET last_used_step = NULL WHERE user_id = ?', [aliceId]);

    await stepMargin(12);
    const previous = await totpCode(secret, -1);
    await passwordStep(client);
    assert.is((await postCode(client, previous)).status, 302, 'previous step accepted');
    await signOut(client);

    await passwordStep(client);
    assert.is((await postCode(client, previous)).status, 401, 'the previous step, a second time');
    const current = await totpCode(secret);
    assert.is((await postCode(client, current)).status, 302, 'a later step');
    await signOut(client);

    await passwordStep(client);
    assert.is((await postCode(client, previous)).status, 401, 'an older step than the last used one');
    assert.is((await postCode(client, current)).status, 401);
    assert.is((await postCode(client, await totpCode(secret, 2))).status, 401, 'two steps ahead is out of the window');
    assert.is((await postCode(client, await totpCode(secret, 1))).status, 302, 'the next step');
  });

  test('a recovery code signs in once (any case, spaces or dashes), then is refused', async ({ app, data, aliceId }) => {
    const client = new SessionClient(app.base);
    await signIn(client);
    const { codes } = await enrol(client);
    await signOut(client);

    await passwordStep(client);
    const typed = ` ${codes[3]!.toLowerCase().replace(/-/g, ' ')} `;
    const page = await postCode(client, typed);
    assert.is(page.status, 302);
    assert.equal((await whoAmI(client))?.id, aliceId);
    const home = await client.get('/account/mfa');
    assert.match(home.text, 'Code de secours utilisé. Il vous en reste 9.');
    assert.match(home.text, /id="recovery-left">9 \/ 10</);
    await signOut(client);

    await passwordStep(client);
    const again = await postCode(client, codes[3]!);
    assert.is(again.status, 401);
    assert.is(await whoAmI(client), null);
    const used = await data.db.fetchAll<{ used_at: unknown }>('SELECT used_at FROM auth_mfa_recovery_codes WHERE user_id = ? AND used_at IS NOT NULL', [
      aliceId,
    ]);
    assert.is(used.length, 1);
    assert.is((await postCode(client, codes[4]!)).status, 302, 'another code of the batch');
    assert.ok(auditEvents(app).filter((e) => e === 'mfa.challenge.success').length >= 2);
  });

  test('a recovery code with a next beyond ASCII: signed in, the URL percent-encoded; one code spent, no other', async ({ app, data, aliceId }) => {
    const client = new SessionClient(app.base);
    await signIn(client);
    const { codes } = await enrol(client);
    await signOut(client);
    await passwordStep(client, EMAIL, '/Ā/é');
    const page = await postCode(client, codes[0]!);
    assert.is(page.status, 302, page.text.slice(0, 300));
    assert.is(page.headers.get('location'), '/%C4%80/%C3%A9');
    assert.equal((await whoAmI(client))?.id, aliceId, 'the new session is delivered');
    const used = await data.db.fetchAll('SELECT id FROM auth_mfa_recovery_codes WHERE user_id = ? AND used_at IS NOT NULL', [aliceId]);
    assert.is(used.length, 1);
    assert.match((await client.get('/account/mfa')).text, 'Code de secours utilisé. Il vous en reste 9.');
  });

  test('a challenge older than 10 minutes: keys removed, 302 to /login with a warning; none at all: 302 /login', async ({ app }) => {
    const client = new SessionClient(app.base);
    await signIn(client);
    const { secret } = await enrol(client);
    await signOut(client);

    const none = await client.get('/login/mfa');
    assert.is(none.status, 302);
    assert.is(none.headers.get('location'), '/login');
    assert.is((await client.request('POST', '/login/mfa', [['code', '123456']])).status, 403, 'CSRF still applies');

    await passwordStep(client);
    await ageChallenge(client, 601);
    await stepMargin();
    // The token comes from /login: GET /login/mfa would itself end the expired challenge.
    const expired = await client.post('/login/mfa', [['code', await totpCode(secret)]], '/login');
    assert.is(expired.status, 302);
    assert.is(expired.headers.get('location'), '/login');
    const login = await client.get('/login');
    assert.match(login.text, 'La vérification a expiré : reconnectez-vous.');
    assert.is(await whoAmI(client), null);
    assert.is((await client.get('/login/mfa')).headers.get('location'), '/login', 'the keys are gone');

    // GET ends an expired challenge the same way.
    await passwordStep(client);
    await ageChallenge(client, 601);
    const get = await client.get('/login/mfa');
    assert.is(get.headers.get('location'), '/login');
    assert.match((await client.get('/login')).text, 'La vérification a expiré : reconnectez-vous.');

    // Just under the limit, it still works.
    await passwordStep(client);
    await ageChallenge(client, 590);
    assert.is((await postCode(client, await totpCode(secret))).status, 302);
  });

  test('five wrong codes in five minutes: the sixth attempt answers 429 with Retry-After, even with the right code', async ({ app }) => {
    const client = new SessionClient(app.base);
    await signIn(client);
    const { secret } = await enrol(client);
    await signOut(client);
    await passwordStep(client);
    for (let i = 0; i < 5; i++) assert.is((await postCode(client, String(100000 + i))).status, 401, `wrong code ${i + 1}`);
    await stepMargin();
    const limited = await postCode(client, await totpCode(secret));
    assert.is(limited.status, 429);
    const retryAfter = Number(limited.headers.get('retry-after'));
    assert.ok(retryAfter >= 1 && retryAfter <= 300, `Retry-After ${retryAfter}`);
    assert.is(await whoAmI(client), null);
    assert.ok(auditEvents(app).includes('mfa.rate_limited'));
    // A new password step does not reset the per-user count.
    const other = new SessionClient(app.base);
    await passwordStep(other);
    assert.is((await postCode(other, await totpCode(secret))).status, 429);
  });

  test('a right code clears the wrong ones of the user: five more may follow before the limit', async ({ app }) => {
    const client = new SessionClient(app.base);
    await signIn(client);
    const { secret } = await enrol(client);
    await signOut(client);
    await passwordStep(client);
    for (let i = 0; i < 4; i++) assert.is((await postCode(client, String(300000 + i))).status, 401);
    await stepMargin();
    assert.is((await postCode(client, await totpCode(secret))).status, 302);
    await signOut(client);
    await passwordStep(client);
    for (let i = 0; i < 5; i++) assert.is((await postCode(client, String(400000 + i))).status, 401, `wrong code ${i + 1} after the success`);
    assert.is((await postCode(client, '999999')).status, 429);
  });

  test('a factor table that errs: the login is refused, never granted, at the password step and at the code step', async ({ app, data }) => {
    const client = new SessionClient(app.base);
    await signIn(client);
    const { secret } = await enrol(client);
    await signOut(client);
    const rename = (from: string, to: string) =>
      data.db.execute(dialect === 'sqlite' ? `ALTER TABLE ${from} RENAME TO ${to}` : `RENAME TABLE ${from} TO ${to}`);

    await rename('auth_mfa_factors', 'auth_mfa_factors_off');
    try {
      const page = await client.login(EMAIL, PASSWORD);
      assert.ok(page.status >= 500, `password step answered ${page.status}`);
      assert.not.match(page.text, secret);
      assert.is(await whoAmI(client), null);
    } finally {
      await rename('auth_mfa_factors_off', 'auth_mfa_factors');
    }

    await passwordStep(client);
    await rename('auth_mfa_factors', 'auth_mfa_factors_off');
    try {
      await stepMargin();
      const page = await postCode(client, await totpCode(secret));
      assert.ok(page.status >= 500, `code step answered ${page.status}`);
      assert.is(await whoAmI(client), null);
    } finally {
      await rename('auth_mfa_factors_off', 'auth_mfa_factors');
    }
  });

  test('a user disabled during the challenge is sent back to /login', async ({ app, data, aliceId }) => {
    const client = new SessionClient(app.base);
    await signIn(client);
    const { secret } = await enrol(client);
    await signOut(client);
    await passwordStep(client);
    await data.db.execute('UPDATE users SET is_active = 0 WHERE id = ?', [aliceId]);
    await stepMargin();
    const page = await postCode(client, await totpCode(secret));
    assert.is(page.status, 302);
    assert.is(page.headers.get('location'), '/login');
    assert.is(await whoAmI(client), null);
  });

  test.run();
}
