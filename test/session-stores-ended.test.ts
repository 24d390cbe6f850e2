/**
 * A session ended while a request of its user is in flight stays ended (memory, file, database on SQLite and on
 * MariaDB): the request loaded the session of user 7, the session is deleted meanwhile (deleteUser(7), as when
 * the user is disabled or changes password, or a logout elsewhere), then the request sets a flash and its
 * session is persisted. The write is an update, which creates nothing: no session at rest, no cookie sent.
 * A rotated id is still created.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Response, type Router, type SessionStore } from '../runtime/index.js';
import { requestSession, setRequestFlash } from '../runtime/session/session.js';
import { sessionCookie } from './helpers/client.js';
import { startApp, type TestApp } from './helpers/server.js';
import { fileBackend, memoryBackend, redisBackend, databaseStoreBackend, type Backend } from './helpers/session-backends.js';
import { DIALECTS, productOf } from './helpers/dialects.js';

/** A request handler held until the test lets it go: `reached` resolves when the handler runs. */
class Gate {
  reached!: Promise<void>;
  private arrive!: () => void;
  private release!: () => void;
  private released!: Promise<void>;

  constructor() {
    this.reset();
  }

  reset(): void {
    this.reached = new Promise((resolve) => (this.arrive = resolve));
    this.released = new Promise((resolve) => (this.release = resolve));
  }

  async pass(): Promise<void> {
    this.arrive();
    await this.released;
  }

  open(): void {
    this.release();
  }
}

function endedSuite(label: string, open: () => Promise<Backend> | Backend): void {
  const S = suite(`session-stores-ended: ${label}`);
  let backend: Backend;
  let store: SessionStore;
  let t: TestApp;
  const gate = new Gate();

  const routes = (router: Router): void => {
    router.add(
      'GET',
      '/slow-flash',
      async (r) => {
        await gate.pass();
        setRequestFlash(r, 'Préférences enregistrées.');
        return new Response(200, 'ok');
      },
      { public: true },
    );
    router.add(
      'GET',
      '/slow-rotate',
      async (r) => {
        await gate.pass();
        requestSession(r).rotate();
        return new Response(200, 'ok');
      },
      { public: true },
    );
  };

  S.before(async () => {
    backend = await open();
  });
  S.after(async () => {
    await backend.close();
  });
  S.before.each(async () => {
    store = await backend.make({ now: Date.now });
    gate.reset();
    t = await startApp({ routes, sessionStore: store });
  });
  S.after.each(async () => {
    await t.close();
  });

  /** Starts a request with the session cookie of `id`, and waits until its handler holds the loaded session. */
  async function inFlight(path: string, id: string): Promise<{ response: ReturnType<TestApp['fetch']> }> {
    const response = t.fetch(path, { headers: { cookie: `session_id=${id}` } });
    await gate.reached;
    return { response }; // wrapped: an async function returning the promise itself would wait for it
  }

  S('control: the flash of a live session is written to it', async () => {
    const id = await store.create({ user: { id: 7, login: 'alice' } });
    const pending = await inFlight('/slow-flash', id);
    gate.open();
    const page = await pending.response;
    assert.is(page.status, 200, page.text);
    assert.is(sessionCookie(page.cookies), undefined, 'same id: no cookie sent again');
    assert.equal((await store.get(id))?._flash, { message: 'Préférences enregistrées.', level: 'success' });
  });

  S('deleteUser(7) while a request of user 7 is in flight: its flash does not bring the session back', async () => {
    const id = await store.create({ user: { id: 7, login: 'alice' }, _csrf_token: 'a'.repeat(64) });
    const other = await store.create({ user: { id: 8, login: 'bob' } });
    const pending = await inFlight('/slow-flash', id);
    assert.is(await store.deleteUser(7), 1);
    gate.open();
    const page = await pending.response;
    assert.is(page.status, 200, page.text);
    assert.is(sessionCookie(page.cookies), undefined, 'no cookie issued for the ended session');
    assert.is(await store.get(id), null, 'the session stays deleted');
    assert.is(await store.deleteUser(7), 0, 'no session of user 7 anywhere');
    assert.ok(await store.get(other), 'the other user keeps his session');
    if (backend.atRest) assert.is((await backend.atRest.texts()).length, 1, 'only the other session at rest');
  });

  S('a logout elsewhere (the id deleted) while a request is in flight: the session stays deleted', async () => {
    const id = await store.create({ user: { id: 7, login: 'alice' } });
    const pending = await inFlight('/slow-flash', id);
    await store.delete(id);
    gate.open();
    const page = await pending.response;
    assert.is(page.status, 200, page.text);
    assert.is(sessionCookie(page.cookies), undefined);
    assert.is(await store.get(id), null);
    if (backend.atRest) assert.is((await backend.atRest.texts()).length, 0, 'nothing at rest');
  });

  S('a rotated id is still created: new cookie, same data, the old id dead', async () => {
    const id = await store.create({ cart: [1, 2] });
    const pending = await inFlight('/slow-rotate', id);
    gate.open();
    const page = await pending.response;
    assert.is(page.status, 200, page.text);
    const cookie = sessionCookie(page.cookies);
    const next = /^session_id=([0-9a-f]{64})$/.exec(cookie ?? '')?.[1];
    assert.ok(next && next !== id, `a new id is sent: ${String(cookie)}`);
    assert.equal(await store.get(next!), { cart: [1, 2] });
    assert.is(await store.get(id), null);
  });

  S.run();
}

endedSuite('memory', memoryBackend);
endedSuite('file', fileBackend);
for (const dialect of DIALECTS) endedSuite(`database on ${productOf(dialect)}`, () => databaseStoreBackend(dialect));
endedSuite('redis', redisBackend);
