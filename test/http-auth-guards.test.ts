/**
 * requireAuth and requireRole (docs/api-mapping.md "Sessions, CSRF, roles") over HTTP: the redirect to the
 * login URL with `next`, the 401 envelope for JSON clients, and the 403 page that says the rights are missing.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Response, escapeHtml, getUser, requestSession, requireAuth, requireRole, trans, type Router } from '../runtime/index.js';
import { assertSecurityHeaders, sessionCookie } from './helpers/client.js';
import { startApp, type TestApp } from './helpers/server.js';

const USERS: Record<string, Record<string, unknown>> = {
  lecteur: { Login: 'lecteur', roles: ['lecteur'] },
  admin: { Login: 'admin', roles: ['admin', 'lecteur'] },
  sans_roles: { Login: 'sans_roles' },
};

function routes(router: Router): void {
  // Public routes guarded by the wrappers only, so that the wrappers are what is tested (not AuthMiddleware).
  router.add(
    'GET',
    '/private',
    requireAuth((r) => new Response(200, `bonjour ${String(getUser(r)?.Login)}`)),
    { public: true },
  );
  router.add(
    'GET',
    '/elsewhere',
    requireAuth(() => new Response(200, 'ok'), '/connexion'),
    { public: true },
  );
  router.add(
    'GET',
    '/admin',
    requireRole('admin', () => new Response(200, 'zone admin')),
    { public: true },
  );
  router.add(
    'GET',
    '/login-as/{who}',
    (r) => {
      requestSession(r).set('user', USERS[r.routeParams.who!]);
      return new Response(204);
    },
    { public: true },
  );
}

let t: TestApp;
const G = suite('http-auth-guards: requireAuth and requireRole');
G.before(async () => {
  t = await startApp({ routes });
});
G.after(() => t.close());

async function loginAs(who: string): Promise<string> {
  const r = await t.fetch(`/login-as/${who}`);
  assert.is(r.status, 204);
  return sessionCookie(r.cookies)!;
}

G('requireAuth without a user: 302 to /login with next = the path and query', async () => {
  const r = await t.fetch('/private?page=2&q=a b');
  assert.is(r.status, 302);
  assert.is(r.headers.get('location'), `/login?next=${encodeURIComponent('/private?page=2&q=a%20b')}`);
  assertSecurityHeaders(r.headers, '302');
  const custom = await t.fetch('/elsewhere');
  assert.is(custom.headers.get('location'), `/connexion?next=${encodeURIComponent('/elsewhere')}`);
});

G('requireAuth for a JSON client: 401 envelope with code unauthorized', async () => {
  const r = await t.fetch('/private', { headers: { Accept: 'application/json' } });
  assert.is(r.status, 401);
  assert.equal(r.json(), { success: false, error: { code: 'unauthorized', message: 'Authentification requise.' } });
});

G('requireAuth with a user: the handler runs', async () => {
  const cookie = await loginAs('lecteur');
  const r = await t.fetch('/private', { headers: { Cookie: cookie } });
  assert.is(r.status, 200);
  assert.is(r.text, 'bonjour lecteur');
});

G('requireRole without a user: the login redirect, as requireAuth', async () => {
  const r = await t.fetch('/admin');
  assert.is(r.status, 302);
  assert.is(r.headers.get('location'), `/login?next=${encodeURIComponent('/admin')}`);
});

G('requireRole with a user lacking the role: 403 page saying the rights are missing, not an expired form', async () => {
  for (const who of ['lecteur', 'sans_roles']) {
    const r = await t.fetch('/admin', { headers: { Cookie: await loginAs(who) } });
    assert.is(r.status, 403, who);
    assertSecurityHeaders(r.headers, '403');
    assert.ok(r.text.includes(`<title>${escapeHtml(trans('errors.403.title'))}</title>`), who);
    assert.ok(r.text.includes(escapeHtml(trans('errors.403.message'))), who);
    assert.not.ok(/expiré|[Rr]echargez/.test(r.text), `${who}: no CSRF wording`);
  }
  const json = await t.fetch('/admin', { headers: { Cookie: await loginAs('lecteur'), Accept: 'application/json' } });
  assert.is(json.status, 403);
  assert.is(json.json().error.code, 'forbidden');
});

G('requireRole with the role: the handler runs', async () => {
  const r = await t.fetch('/admin', { headers: { Cookie: await loginAs('admin') } });
  assert.is(r.status, 200);
  assert.is(r.text, 'zone admin');
});

G.run();
