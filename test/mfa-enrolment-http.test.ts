/**
 * The enrolment pages over HTTP on a real server, on SQLite and on MariaDB (docs/decisions.md#second-factor): behind login and CSRF,
 * the setup page (inline SVG QR code that encodes the otpauth URI, the secret in groups of four, nothing the CSP
 * would block), confirmation (422 on a wrong code, recovery codes shown once and stored hashed), regeneration
 * with a current code, disabling with the password and a code, and the per-user limit on wrong codes.
 */
import { createHash } from 'node:crypto';
import QRCode from 'qrcode';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { hashPassword } from '../runtime/auth/passwords.js';
import { setRateLimitStore } from '../runtime/rate-limit/index.js';
import { createUser } from '../runtime/auth/users.js';
import { closeDatabase } from '../runtime/db/index.js';
import { openAuthDatabase, SessionClient, type AuthDatabase } from './helpers/auth-client.js';
import {
  auditEvents,
  codesFromPage,
  EMAIL,
  enrol,
  PASSWORD,
  passwordStep,
  postCode,
  secretFromPage,
  signIn,
  signOut,
  startMfaApp,
  stepMargin,
  totpCode,
  whoAmI,
} from './helpers/mfa.js';
import type { TestApp } from './helpers/server.js';
import { DIALECTS } from './helpers/dialects.js';

const ISSUER = 'Démo MFA';

function unescapeHtml(text: string): string {
  return text
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
}

for (const dialect of DIALECTS) {
  const test = suite<{ app: TestApp; data: AuthDatabase; aliceId: number }>(`second factor enrolment (${dialect})`);

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

  test('behind login and CSRF', async ({ app }) => {
    const anonymous = new SessionClient(app.base);
    const page = await anonymous.get('/account/mfa');
    assert.is(page.status, 302);
    assert.is(page.headers.get('location'), '/login?next=%2Faccount%2Fmfa');
    const client = new SessionClient(app.base);
    await signIn(client);
    for (const path of ['/account/mfa/setup', '/account/mfa/confirm', '/account/mfa/recovery-codes', '/account/mfa/disable']) {
      assert.is((await client.request('POST', path, [['code', '123456']])).status, 403, path);
    }
    const state = await client.get('/account/mfa');
    assert.is(state.status, 200);
    assert.is(state.headers.get('cache-control'), 'no-store');
    assert.match(state.text, /id="mfa-state">Désactivée</);
    assert.match(state.text, 'action="/account/mfa/setup"');
    // A way back: no route named profile or dashboard here, so the home page.
    assert.match(state.text, /<a href="\/" id="mfa-back"[^>]*>← Retour à l’accueil<\/a>/);
  });

  test('setup: a pending factor; QR code as inline SVG of the otpauth URI, secret in fours, nothing the CSP blocks', async ({ app, data, aliceId }) => {
    const client = new SessionClient(app.base);
    await signIn(client);
    const page = await client.post('/account/mfa/setup', [], '/account/mfa');
    assert.is(page.status, 200);
    assert.is(page.headers.get('cache-control'), 'no-store');
    const csp = page.headers.get('content-security-policy') ?? '';
    assert.match(csp, "style-src 'self'");
    assert.not.match(csp, 'unsafe-inline');

    const secret = secretFromPage(page);
    assert.match(secret, /^[A-Z2-7]{32}$/, '20 random bytes in base32');
    assert.match(page.text, /id="mfa-secret"[^>]*>([A-Z2-7]{4} ){7}[A-Z2-7]{4}</);
    const uri = `otpauth://totp/${encodeURIComponent(ISSUER)}:${encodeURIComponent(EMAIL)}?secret=${secret}&issuer=${encodeURIComponent(ISSUER)}&algorithm=SHA1&digits=6&period=30`;
    const shownUri = unescapeHtml(/id="mfa-uri"[^>]*>([^<]+)</.exec(page.text)?.[1] ?? '');
    assert.is(shownUri, uri);

    const svg = /<svg [^]*?<\/svg>/.exec(page.text)?.[0] ?? '';
    assert.match(svg, /^<svg role="img" aria-label="[^"]+" class="[^"]+" focusable="false" xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    assert.not.match(svg, /style=|<script|data:|href=/i);
    // The QR code encodes exactly the URI: qrcode is deterministic, so the same text gives the same paths.
    const expected = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2, color: { dark: '#000000', light: '#ffffff' } });
    assert.is(svg.replace(/^<svg [^>]*?xmlns=/, '<svg xmlns='), expected.trim());
    assert.not.match(page.text.replace(/<script src="\/static\/js\/app\.js"[^>]*><\/script>/, ''), /<script|style="/);

    const rows = await data.db.fetchAll<{ status: string; totp_secret: string }>('SELECT status, totp_secret FROM auth_mfa_factors WHERE user_id = ?', [
      aliceId,
    ]);
    assert.equal(rows, [{ status: 'pending', totp_secret: secret }]);
    // A second setup replaces the pending factor by a new secret.
    const again = await client.post('/account/mfa/setup', [], '/account/mfa');
    assert.is.not(secretFromPage(again), secret);
    assert.is((await data.db.fetchAll('SELECT id FROM auth_mfa_factors WHERE user_id = ?', [aliceId])).length, 1);
  });

  test('confirm: a wrong code → 422 and the same form; a right one activates and shows 10 codes once, stored hashed', async ({ app, data, aliceId }) => {
    const client = new SessionClient(app.base);
    await signIn(client);
    const setup = await client.post('/account/mfa/setup', [], '/account/mfa');
    const secret = secretFromPage(setup);
    const wrong = await client.post('/account/mfa/confirm', [['code', '000000']], '/account/mfa');
    assert.is(wrong.status, 422);
    assert.match(wrong.text, 'Code incorrect');
    assert.is(secretFromPage(wrong), secret, 'the same pending secret is shown again');
    assert.match(wrong.text, 'name="code"');

    await stepMargin();
    const page = await client.post('/account/mfa/confirm', [['code', await totpCode(secret)]], '/account/mfa');
    assert.is(page.status, 200);
    assert.is(page.headers.get('cache-control'), 'no-store');
    const codes = codesFromPage(page);
    assert.is(codes.length, 10);
    assert.is(new Set(codes).size, 10);
    for (const code of codes) assert.match(code, /^[A-HJ-NP-Z2-9]{4}(-[A-HJ-NP-Z2-9]{4}){3}$/);

    const factor = await data.db.fetchOne<{ status: string; confirmed_at: unknown; last_used_step: unknown }>(
      'SELECT status, confirmed_at, last_used_step FROM auth_mfa_factors WHERE user_id = ?',
      [aliceId],
    );
    assert.is(factor?.status, 'active');
    assert.ok(factor?.confirmed_at);
    assert.ok(Number(factor?.last_used_step) > 0, 'the confirming step is used');
    const hashes = (
      await data.db.fetchAll<{ code_hash: string }>('SELECT code_hash FROM auth_mfa_recovery_codes WHERE user_id = ? ORDER BY code_hash', [aliceId])
    ).map((r) => r.code_hash);
    assert.equal(hashes, codes.map((c) => createHash('sha256').update(c.replace(/-/g, '')).digest('hex')).sort());

    const state = await client.get('/account/mfa');
    assert.match(state.text, /id="mfa-state">Activée</);
    assert.match(state.text, /id="recovery-left">10 \/ 10</);
    assert.is(codesFromPage(state).length, 0, 'the codes are never shown again');
    const setupAgain = await client.post('/account/mfa/setup', [], '/account/mfa');
    assert.is(setupAgain.status, 302);
    assert.match((await client.get('/account/mfa')).text, 'La vérification en deux étapes est déjà activée.');
    assert.ok(auditEvents(app).includes('mfa.enabled'));
  });

  test('regenerate: a wrong code or a recovery code → 422; a current code → a new batch, the old codes dead', async ({ app }) => {
    const client = new SessionClient(app.base);
    await signIn(client);
    const { secret, codes: old } = await enrol(client);
    const wrong = await client.post('/account/mfa/recovery-codes', [['code', '000000']], '/account/mfa');
    assert.is(wrong.status, 422);
    assert.match(wrong.text, /id="regenerate-error"[^>]*>Code incorrect ou déjà utilisé\.</);
    assert.is((await client.post('/account/mfa/recovery-codes', [['code', old[0]!]], '/account/mfa')).status, 422, 'a recovery code is not a current code');

    await stepMargin();
    const page = await client.post('/account/mfa/recovery-codes', [['code', await totpCode(secret)]], '/account/mfa');
    assert.is(page.status, 200);
    const fresh = codesFromPage(page);
    assert.is(fresh.length, 10);
    assert.equal(
      fresh.filter((c) => old.includes(c)),
      [],
    );
    assert.ok(auditEvents(app).includes('mfa.revalidation.failed'));
    assert.ok(auditEvents(app).includes('mfa.revalidation.success'));

    await signOut(client);
    await passwordStep(client);
    assert.is((await postCode(client, old[1]!)).status, 401, 'a code of the old batch');
    assert.is((await postCode(client, fresh[1]!)).status, 302, 'a code of the new batch');
  });

  test('disable: needs the password and a code; a wrong password does not consume the code; then the password alone signs in', async ({
    app,
    data,
    aliceId,
  }) => {
    const client = new SessionClient(app.base);
    await signIn(client);
    const { secret, codes } = await enrol(client);
    await stepMargin();
    const code = await totpCode(secret);
    const badPassword = await client.post(
      '/account/mfa/disable',
      [
        ['password', 'not the password'],
        ['code', code],
      ],
      '/account/mfa',
    );
    assert.is(badPassword.status, 422);
    assert.match(badPassword.text, /id="disable-error"[^>]*>Mot de passe ou code incorrect\.</);
    assert.not.match(badPassword.text, 'not the password');
    const badCode = await client.post(
      '/account/mfa/disable',
      [
        ['password', PASSWORD],
        ['code', '000000'],
      ],
      '/account/mfa',
    );
    assert.is(badCode.status, 422);
    assert.is((await data.db.fetchAll("SELECT id FROM auth_mfa_factors WHERE user_id = ? AND status = 'active'", [aliceId])).length, 1);

    const done = await client.post(
      '/account/mfa/disable',
      [
        ['password', PASSWORD],
        ['code', code],
      ],
      '/account/mfa',
    );
    assert.is(done.status, 302);
    assert.is(done.headers.get('location'), '/account/mfa');
    const state = await client.get('/account/mfa');
    assert.match(state.text, 'La vérification en deux étapes est désactivée.');
    assert.match(state.text, /id="mfa-state">Désactivée</);
    assert.is((await data.db.fetchAll('SELECT id FROM auth_mfa_factors WHERE user_id = ?', [aliceId])).length, 0);
    assert.is((await data.db.fetchAll('SELECT id FROM auth_mfa_recovery_codes WHERE user_id = ?', [aliceId])).length, 0);
    assert.ok(auditEvents(app).includes('mfa.disabled'));

    await signOut(client);
    const login = await client.login(EMAIL, PASSWORD);
    assert.is(login.headers.get('location'), '/', 'no second step any more');
    assert.equal((await whoAmI(client))?.id, aliceId);
    assert.ok(codes.length === 10);
  });

  test('disable with a recovery code instead of the app', async ({ app, data, aliceId }) => {
    const client = new SessionClient(app.base);
    await signIn(client);
    const { codes } = await enrol(client);
    const done = await client.post(
      '/account/mfa/disable',
      [
        ['password', PASSWORD],
        ['code', codes[9]!],
      ],
      '/account/mfa',
    );
    assert.is(done.status, 302);
    assert.is((await data.db.fetchAll('SELECT id FROM auth_mfa_factors WHERE user_id = ?', [aliceId])).length, 0);
  });

  test('wrong codes on the account pages count toward the same per-user limit: 429 with Retry-After', async ({ app }) => {
    const client = new SessionClient(app.base);
    await signIn(client);
    const setup = await client.post('/account/mfa/setup', [], '/account/mfa');
    const secret = secretFromPage(setup);
    for (let i = 0; i < 5; i++) assert.is((await client.post('/account/mfa/confirm', [['code', String(200000 + i)]], '/account/mfa')).status, 422);
    await stepMargin();
    const limited = await client.post('/account/mfa/confirm', [['code', await totpCode(secret)]], '/account/mfa');
    assert.is(limited.status, 429);
    assert.ok(Number(limited.headers.get('retry-after')) >= 1);
    assert.ok(auditEvents(app).includes('mfa.rate_limited'));
  });

  test.run();
}
