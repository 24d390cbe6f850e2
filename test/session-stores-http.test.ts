/**
 * A real server whose sessions live in the store SESSION_STORE names (file, then database on SQLite and on
 * MariaDB): anonymous GETs of a form page store nothing (their CSRF token is signed and bound to the unstored
 * `session_id` they get); a POST with the token succeeds and the session it writes is stored under that id, and after a restart of the application (a
 * new store on the same folder or database) it comes back, which only a store that persisted it allows. A wrong
 * token, or a token with another cookie, is refused.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  BaseController,
  DatabaseSessionStore,
  FileSessionStore,
  Response,
  closeDatabase,
  fwSessionsDdl,
  getSessionStore,
  requestSession,
  sessionKey,
  type Router,
} from '../runtime/index.js';
import { sessionCookie } from './helpers/client.js';
import { startApp, type AppSetup, type TestApp } from './helpers/server.js';
import { DIALECTS, freshDatabase, productOf } from './helpers/dialects.js';

function routes(router: Router): void {
  router.add('GET', '/form', (r) => BaseController.render('form.html', { request: r }), { public: true });
  router.add(
    'POST',
    '/submit',
    (r) => {
      const session = requestSession(r);
      const count = (session.get<number>('count') ?? 0) + 1;
      session.set('count', count);
      return new Response(200, `envoyé ${count}`);
    },
    { public: true },
  );
}

const files = {
  'mvc/views/form.html': '<form method="post" action="/submit"><input type="hidden" name="csrf_token" value="{{ csrf_token() }}"></form>',
};

const post = (t: TestApp, cookie: string, token: string) =>
  t.fetch('/submit', { method: 'POST', headers: { cookie }, body: new URLSearchParams({ csrf_token: token }) });

const ANONYMOUS_GETS = 30;

interface Target {
  readonly storeName: 'file' | 'database';
  readonly config: AppSetup['config'];
  /** The sessions at rest, one text each. */
  atRest(): Promise<string[]>;
  cleanup(): Promise<void>;
}

function httpSuite(label: string, kind: typeof FileSessionStore | typeof DatabaseSessionStore, prepare: () => Promise<Target>): void {
  const S = suite(`session-stores-http: SESSION_STORE=${label}`);
  let target: Target;
  S.before(async () => {
    target = await prepare();
  });
  S.after(async () => {
    await closeDatabase();
    await target.cleanup();
  });

  const start = (): Promise<TestApp> => startApp({ files, routes, env: { SESSION_STORE: target.storeName }, config: target.config, sessionStore: null });

  S(`${ANONYMOUS_GETS} anonymous GETs of a form store no session; its POST works and stores what it writes, before and after a restart`, async () => {
    let t = await start();
    let cookie: string;
    let token: string;
    let kept: { cookie: string; token: string };
    try {
      assert.ok(getSessionStore() instanceof kind, `the application uses ${kind.name}`);
      const forms: Array<{ cookie: string; token: string }> = [];
      for (let i = 0; i < ANONYMOUS_GETS; i++) {
        const form = await t.fetch('/form');
        assert.is(form.status, 200);
        const cookie = sessionCookie(form.cookies);
        assert.ok(cookie, 'a session id, not stored');
        forms.push({ cookie: cookie!, token: /name="csrf_token" value="([0-9a-f]{64})"/.exec(form.text)![1]! });
      }
      assert.equal(await target.atRest(), [], 'nothing stored');
      [{ cookie, token }, kept] = [forms[0]!, forms[1]!];
      assert.is((await post(t, cookie, 'f'.repeat(64))).status, 403, 'a wrong token is refused');
      assert.is((await post(t, 'session_id=' + 'e'.repeat(64), token)).status, 403, 'the token with another id is refused');
      assert.equal(await target.atRest(), [], 'a refused POST stores nothing');
      const sent = await post(t, cookie, token);
      assert.is(sent.status, 200, sent.text);
      assert.is(sent.text, 'envoyé 1');
      assert.equal(sent.cookies, [], 'stored under the id the browser has');
      const id = /^session_id=([0-9a-f]{64})$/.exec(cookie)![1]!;
      const rest = await target.atRest();
      assert.is(rest.length, 1, 'the session the POST wrote is stored');
      assert.ok(rest[0]!.includes(sessionKey(id)) && !rest[0]!.includes(id), 'keyed by the hash of the id');
    } finally {
      await t.close();
      await closeDatabase();
    }
    t = await start(); // a new Application and a new store: only what was persisted remains
    try {
      const again = await post(t, cookie, token);
      assert.is(again.status, 200, again.text);
      assert.is(again.text, 'envoyé 2', 'the session data came back from the store');
      assert.is((await post(t, kept.cookie, kept.token)).status, 200, 'a form opened before the restart still posts');
    } finally {
      await t.close();
    }
  });

  S.run();
}

function tempDir(): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fw-sessions-http-')));
}

httpSuite('file', FileSessionStore, async () => {
  const dir = tempDir();
  const sessions = path.join(dir, 'sessions');
  return {
    storeName: 'file',
    config: { session_dir: sessions },
    atRest: async () =>
      fs
        .readdirSync(sessions)
        .filter((name) => name.endsWith('.json'))
        .map((name) => `${name}\n${fs.readFileSync(path.join(sessions, name), 'utf8')}`),
    cleanup: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
});

for (const dialect of DIALECTS) {
  httpSuite(`database (${productOf(dialect)})`, DatabaseSessionStore, async () => {
    const fresh = await freshDatabase(dialect, { prefix: 'fw_test_sessions_http' });
    for (const statement of fwSessionsDdl(dialect)) await fresh.database.execute(statement);
    const dir = tempDir();
    return {
      storeName: 'database',
      config: { ...fresh.config, session_dir: path.join(dir, 'sessions') },
      atRest: async () => (await fresh.database.fetchAll('SELECT * FROM fw_sessions')).map((row) => JSON.stringify(row)),
      cleanup: async () => {
        await fresh.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  });
}
