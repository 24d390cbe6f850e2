/**
 * The login chain over HTTP on a real server, on SQLite and on MariaDB: the login states of docs/auth.md "Login and logout" one by one,
 * cookie attributes, fixation, logout, CSRF on login and logout, the 429 and its reset, a disabled user, rehashes,
 * `next` open-redirect attempts, roles and permissions in the session user, and audit records without secrets.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import argon2 from 'argon2';
import { registerAuthRoutes } from '../runtime/auth/index.js';
import { hashPassword, legacyPbkdf2Hash } from '../runtime/auth/passwords.js';
import { setRateLimitStore } from '../runtime/rate-limit/index.js';
import { addUserRole, createRole, createUser, grantPermission } from '../runtime/auth/users.js';
import { closeDatabase, getDatabase } from '../runtime/db/index.js';
import {
  BaseController,
  getSessionStore,
  getUser,
  MemorySessionStore,
  requireRole,
  requestSession,
  Response,
  type Request,
  type Router,
} from '../runtime/index.js';
import { htmxRedirect } from '../runtime/crud/htmx.js';
import { requirePermission } from '../runtime/rbac/index.js';
import { openAuthDatabase, SessionClient, type AuthDatabase } from './helpers/auth-client.js';
import { startApp, type TestApp } from './helpers/server.js';
import { DIALECTS } from './helpers/dialects.js';

const PASSWORD = 'correct horse battery';
const COOKIE_ATTRIBUTES = 'HttpOnly; SameSite=Strict; Secure; Path=/';

function routes(router: Router): void {
  registerAuthRoutes(router);
  const me = (request: Request) => new Response(200, JSON.stringify(getUser(request) ?? null), 'application/json');
  router.add('GET', '/private', me, { name: 'private' });
  router.add('GET', '/reports', requirePermission('reports.view', me), { name: 'reports' });
  router.add('GET', '/admin-only', requireRole('admin', me), { name: 'admin_only' });
  // Redirect helpers with URLs that are not ASCII (Location and HX-Redirect are percent-encoded when written).
  router.add('GET', '/go', () => BaseController.redirect('/dossiers/Ā é?q=ü%zz%41'), { name: 'go', public: true });
  router.add('GET', '/go-flash', (request) => BaseController.redirectWithFlash(request, '/é', 'Enregistré'), { name: 'go_flash', public: true });
  router.add('GET', '/go-htmx', () => htmxRedirect('/liste/Ā'), { name: 'go_htmx', public: true });
  router.add('GET', '/go-raw', () => new Response(302, '', 'text/html', { location: '/brut/ÿ\u0100' }), { name: 'go_raw', public: true });
  // A handler that changes the session, then answers a header node cannot write.
  router.add(
    'GET',
    '/bad-header',
    (request) => {
      requestSession(request).set('_flash', { message: 'jamais', level: 'info' });
      return new Response(200, 'x', 'text/plain', { 'X-Nom': 'Ā' });
    },
    { name: 'bad_header', public: true },
  );
  // A private page with a form (the logout button of a real layout).
  router.add('GET', '/account', (request) => BaseController.render('account.html', { request }), { name: 'account' });
}

const FILES = { 'mvc/views/account.html': '<form method="post" action="/logout"><input type="hidden" name="csrf_token" value="{{ csrf_token() }}"></form>' };

for (const dialect of DIALECTS) {
  const test = suite<{ app: TestApp; data: AuthDatabase; aliceId: number }>(`login over HTTP (${dialect})`);

  test.before(async (context) => {
    context.data = await openAuthDatabase(dialect);
    context.app = await startApp({ routes, files: FILES, config: { ...context.data.config, rate_limit_store: 'database', session_store: 'memory' } });
  });

  test.before.each(async (context) => {
    await context.data.reset();
    setRateLimitStore(null);
    context.aliceId = await createUser({ email: 'alice@example.test', passwordHash: await hashPassword(PASSWORD) });
    context.app.logs.clear();
  });

  test.after(async ({ app, data }) => {
    await closeDatabase();
    await app.close();
    await data.close();
  });

  test('GET /login: the form and its session_id cookie with exactly the documented attributes; no session stored', async ({ app }) => {
    const store = getSessionStore() as MemorySessionStore;
    assert.instance(store, MemorySessionStore);
    const before = store.size;
    const client = new SessionClient(app.base);
    const page = await client.get('/login');
    assert.is(page.status, 200);
    assert.is(page.cookies.length, 1);
    assert.match(page.cookies[0]!, new RegExp(`^session_id=[0-9a-f]{64}; ${COOKIE_ATTRIBUTES}$`));
    assert.match(client.sessionId, /^[0-9a-f]{64}$/);
    for (let i = 0; i < 20; i++) await new SessionClient(app.base).get('/login');
    assert.is(store.size, before, 'the id is not stored until the session holds something');
    assert.is(page.headers.get('cache-control'), 'no-store');
    for (const field of ['csrf_token', 'login', 'password']) assert.match(page.text, `name="${field}"`);
  });

  test('anonymous → authenticated: 302 to /, id rotated, the pre-login id dead, the session user loaded once', async ({ app, data, aliceId }) => {
    const roleId = await createRole('editeur', data.db);
    assert.ok(roleId > 0);
    await addUserRole(aliceId, 'editeur', data.db);
    await grantPermission('editeur', 'reports.view', data.db);
    const client = new SessionClient(app.base);
    const token = await client.csrf();
    const before = client.sessionId;
    const page = await client.request('POST', '/login', [
      ['csrf_token', token],
      ['login', 'Alice@Example.test'],
      ['password', PASSWORD],
    ]);
    assert.is(page.status, 302);
    assert.is(page.headers.get('location'), '/');
    assert.is(page.cookies.length, 1);
    assert.match(page.cookies[0]!, new RegExp(`^session_id=[0-9a-f]{64}; ${COOKIE_ATTRIBUTES}$`));
    assert.is.not(client.sessionId, before);

    const me = await client.get('/private');
    assert.is(me.status, 200);
    assert.is(me.headers.get('cache-control'), 'no-store');
    assert.equal(JSON.parse(me.text), { id: aliceId, login: 'alice@example.test', roles: ['editeur'], permissions: ['reports.view'] });
    assert.is((await client.get('/reports')).status, 200);
    assert.is((await client.get('/admin-only')).status, 403);

    // Fixation: the id the client had before login is dead.
    const attacker = new SessionClient(app.base);
    attacker.cookie = `session_id=${before}`;
    const refused = await attacker.get('/private');
    assert.is(refused.status, 302);
    assert.is(refused.headers.get('location'), '/login?next=%2Fprivate');

    const row = await data.db.fetchOne<{ last_login_at: unknown }>('SELECT last_login_at FROM users WHERE id = ?', [aliceId]);
    assert.ok(row?.last_login_at, 'last_login_at written');
    const success = app.logs.records.filter((r) => r.logger === 'fw.auth.audit' && r.message.includes('login.success'));
    assert.is(success.length, 1);
  });

  test('wrong password, unknown e-mail and disabled account: the same 401 page, the login kept, never the password', async ({ app, data, aliceId }) => {
    await createUser({ email: 'bob@example.test', passwordHash: await hashPassword(PASSWORD), isActive: false }, data.db);
    const texts: string[] = [];
    for (const [login, password] of [
      ['alice@example.test', 'wrong password!'],
      ['nobody@example.test', PASSWORD],
      ['bob@example.test', PASSWORD],
    ] as const) {
      const client = new SessionClient(app.base);
      const page = await client.login(login, password);
      assert.is(page.status, 401, login);
      assert.match(page.text, 'Identifiant ou mot de passe incorrect.');
      assert.match(page.text, `value="${login}"`);
      assert.not.match(page.text, password);
      assert.is(page.headers.get('cache-control'), 'no-store');
      assert.is((await client.get('/private')).status, 302, 'still anonymous');
      texts.push(page.text.replace(/value="[^"]*"/g, 'value=""'));
    }
    assert.is(texts[0], texts[1]);
    assert.is(texts[1], texts[2]);
    const audit = app.logs.records.filter((r) => r.logger === 'fw.auth.audit');
    assert.equal(
      audit
        .map((r) => [r.message, r.level])
        .filter(([m]) => !String(m).includes('rate'))
        .map(([m, l]) => [String(m).split(' ')[0], l]),
      [
        ['login.failed', 'WARNING'],
        ['login.failed', 'WARNING'],
        ['user.disabled', 'WARNING'],
      ],
    );
    assert.not.match(app.logs.text(), PASSWORD);
    assert.not.match(app.logs.text(), 'wrong password!');
    assert.ok(aliceId > 0);
  });

  test('CSRF: a login or logout without the token is refused (403) and not counted as a failure', async ({ app }) => {
    const client = new SessionClient(app.base);
    await client.get('/login');
    for (let i = 0; i < 6; i++) {
      const page = await client.request('POST', '/login', [
        ['login', 'alice@example.test'],
        ['password', 'nope-nope'],
      ]);
      assert.is(page.status, 403);
    }
    assert.is((await client.login('alice@example.test', PASSWORD)).status, 302, 'CSRF refusals did not count toward the limit');
    const logout = await client.request('POST', '/logout', []);
    assert.is(logout.status, 403);
    assert.is((await client.get('/private')).status, 200, 'still signed in');
  });

  test('logout: 302 to /login, the cookie expired with the same attributes, the session deleted on the server', async ({ app }) => {
    const client = new SessionClient(app.base);
    await client.login('alice@example.test', PASSWORD);
    const signedIn = client.cookie;
    const page = await client.post('/logout', [], '/account');
    assert.is(page.status, 302);
    assert.is(page.headers.get('location'), '/login');
    assert.is(page.cookies.length, 1);
    assert.is(page.cookies[0], `session_id=; Max-Age=0; ${COOKIE_ATTRIBUTES}`);
    const replay = new SessionClient(app.base);
    replay.cookie = signedIn;
    assert.is((await replay.get('/private')).status, 302, 'the old session is gone');
    assert.ok(app.logs.records.some((r) => r.logger === 'fw.auth.audit' && r.message.startsWith('logout')));
  });

  test('five failures in 60 s: 429 with Retry-After even for the right password; the window passing resets it', async ({ app, data }) => {
    const client = new SessionClient(app.base);
    for (let i = 0; i < 5; i++) assert.is((await client.login('alice@example.test', `wrong-${i}-password`)).status, 401);
    const limited = await client.login('alice@example.test', PASSWORD);
    assert.is(limited.status, 429);
    const retryAfter = Number(limited.headers.get('retry-after'));
    assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
    assert.match(limited.text, '429');
    // Another login from the same address is limited too (per IP).
    assert.is((await new SessionClient(app.base).login('nobody@example.test', 'whatever-pass')).status, 429);
    // The window passes: the attempts are moved 61 s back in the shared table.
    await data.db.execute(
      dialect === 'mariadb'
        ? 'UPDATE auth_rate_limit_attempts SET created_at = DATE_SUB(created_at, INTERVAL 61 SECOND)'
        : "UPDATE auth_rate_limit_attempts SET created_at = strftime('%Y-%m-%d %H:%M:%f', created_at, '-61 seconds')",
    );
    assert.is((await client.login('alice@example.test', PASSWORD)).status, 302);
  });

  test('a success clears the per-login counter, not the per-IP one', async ({ app }) => {
    const client = new SessionClient(app.base);
    for (let i = 0; i < 4; i++) assert.is((await client.login('alice@example.test', `bad-${i}-password`)).status, 401);
    assert.is((await client.login('alice@example.test', PASSWORD)).status, 302);
    // The IP keeps its four failures: one more reaches five, and the next attempt is limited.
    const other = new SessionClient(app.base);
    assert.is((await other.login('nobody@example.test', 'bad-password-5')).status, 401);
    assert.is((await other.login('alice@example.test', PASSWORD)).status, 429);
  });

  test('rehash at login: a legacy PBKDF2 hash and a weaker Argon2 hash become Argon2id at the minimum', async ({ app, data }) => {
    const legacy = await createUser({ email: 'legacy@example.test', passwordHash: legacyPbkdf2Hash(PASSWORD) }, data.db);
    const weak = await createUser(
      { email: 'weak@example.test', passwordHash: await argon2.hash(PASSWORD, { type: argon2.argon2id, memoryCost: 4096, timeCost: 1, parallelism: 1 }) },
      data.db,
    );
    for (const [id, login] of [
      [legacy, 'legacy@example.test'],
      [weak, 'weak@example.test'],
    ] as const) {
      assert.is((await new SessionClient(app.base).login(login, PASSWORD)).status, 302, login);
      const row = await data.db.fetchOne<{ password_hash: string }>('SELECT password_hash FROM users WHERE id = ?', [id]);
      assert.match(row!.password_hash, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      assert.is((await new SessionClient(app.base).login(login, PASSWORD)).status, 302, `${login} again with the new hash`);
    }
  });

  test('next: a same-site path is followed; //evil, https://evil, /\\evil and their kin go to /', async ({ app }) => {
    const client = new SessionClient(app.base);
    const good = await client.login('alice@example.test', PASSWORD, '/contacts?page=2');
    assert.is(good.headers.get('location'), '/contacts?page=2');
    for (const next of [
      '//evil.example',
      'https://evil.example',
      '/\\evil.example',
      '\\\\evil.example',
      '/\t/evil.example',
      'javascript:alert(1)',
      ' /x',
      '',
    ]) {
      const page = await new SessionClient(app.base).login('alice@example.test', PASSWORD, next);
      assert.is(page.status, 302, next);
      assert.is(page.headers.get('location'), '/', JSON.stringify(next));
    }
    // The protected page's redirect carries next, and the form sends it back.
    const anonymous = new SessionClient(app.base);
    const redirect = await anonymous.get('/private?x=1');
    assert.is(redirect.headers.get('location'), '/login?next=%2Fprivate%3Fx%3D1');
    const form = await anonymous.get(redirect.headers.get('location')!);
    assert.match(form.text, 'name="next" value="/private?x=1"');
  });

  test('next beyond ASCII (U+0100, Latin-1, a stray %): 302 with the URL percent-encoded, the new session delivered', async ({ app }) => {
    const client = new SessionClient(app.base);
    await client.get('/login');
    const anonymous = client.sessionId;
    const page = await client.login('alice@example.test', PASSWORD, '/Ā/é?q=ü%zz%41');
    assert.is(page.status, 302, page.text.slice(0, 300));
    assert.is(page.headers.get('location'), '/%C4%80/%C3%A9?q=%C3%BC%25zz%41');
    assert.is.not(client.sessionId, anonymous, 'the session id is rotated');
    assert.equal(JSON.parse((await client.get('/private')).text).login, 'alice@example.test', 'signed in on the new session');
    const old = new SessionClient(app.base);
    old.cookie = `session_id=${anonymous}`;
    assert.is((await old.get('/private')).status, 302, 'the pre-login id is gone');
    // Signed in, GET /login goes to next at once: the same encoding.
    const again = await client.get(`/login?next=${encodeURIComponent('/%C4%80')}`);
    assert.is(again.headers.get('location'), '/%C4%80');
    const direct = await client.get(`/login?next=${encodeURIComponent('/Ā')}`);
    assert.is(direct.headers.get('location'), '/%C4%80');
  });

  test('redirect helpers and a raw Location: every URL header percent-encoded as UTF-8, escapes kept', async ({ app }) => {
    const client = new SessionClient(app.base);
    assert.is((await client.get('/go')).headers.get('location'), '/dossiers/%C4%80%20%C3%A9?q=%C3%BC%25zz%41');
    const flash = await client.get('/go-flash');
    assert.is(flash.headers.get('location'), '/%C3%A9');
    assert.is(flash.cookies.length, 1, 'the flash session is delivered');
    const htmx = await client.get('/go-htmx');
    assert.is(htmx.status, 200);
    assert.is(htmx.headers.get('hx-redirect'), '/liste/%C4%80');
    assert.is((await client.get('/go-raw')).headers.get('location'), '/brut/%C3%BF%C4%80');
  });

  test('a header node cannot write: 500 before the session is committed (no cookie, nothing stored)', async ({ app }) => {
    const client = new SessionClient(app.base);
    const page = await client.get('/bad-header');
    assert.is(page.status, 500);
    assert.is(page.cookies.length, 0, 'no session delivered');
    assert.is(page.headers.get('x-nom'), null);
    assert.ok(
      app.logs.records.some((r) => r.level === 'ERROR' && /X-Nom/.test(r.message)),
      'logged with the header named',
    );
    assert.is((await client.get('/go')).status, 302, 'the server goes on');
  });

  test('the runtime default database is the one configured (sanity)', async ({ data }) => {
    assert.is(getDatabase().driver, data.dialect);
  });

  test.run();
}
