/**
 * The memory session store (docs/decisions.md#session-stores: TTL 3600 s, sliding, expired sessions purged) on an
 * injected clock, and the store-level session helpers (docs/api-mapping.md "Sessions, CSRF, roles").
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { manualClockMs as manualClock, rejection } from './helpers/clock.js';
import {
  MemorySessionStore,
  authenticateSession,
  createSession,
  deleteSession,
  getFlash,
  getSession,
  getSessionStore,
  configure,
  regenerateSession,
  resetConfig,
  setFlash,
  setSessionStore,
  type SessionStore,
} from '../runtime/index.js';

const HEX64 = /^[0-9a-f]{64}$/;
const SECOND = 1000;

// --- the memory store ---

const M = suite('session-store: MemorySessionStore');

M('TTL: 3600 s by default; alive just before, gone at 3600 s without activity', async () => {
  const clock = manualClock();
  const store = new MemorySessionStore(undefined, clock.now);
  assert.is(store.ttlSeconds, 3600);
  assert.is(new MemorySessionStore().ttlSeconds, 3600);
  const id = await store.create({ a: 1 });
  assert.match(id, HEX64);
  clock.advance(3600 * SECOND - 1);
  const other = await store.create();
  clock.advance(1);
  // `id` was last touched 3600 s ago: expired. Its neighbour, created 1 ms later, is not.
  assert.is(await store.get(id), null);
  assert.equal(await store.get(other), {});
});

M('sliding: each read or write pushes the expiry back by the TTL', async () => {
  const clock = manualClock();
  const store = new MemorySessionStore(3600, clock.now);
  const id = await store.create({ n: 0 });
  clock.advance(3000 * SECOND);
  assert.equal(await store.get(id), { n: 0 }, 'read at 3000 s');
  clock.advance(3000 * SECOND); // 6000 s after creation, 3000 s after the read
  assert.equal(await store.get(id), { n: 0 }, 'still alive thanks to the read');
  clock.advance(3000 * SECOND);
  await store.set(id, { n: 1 });
  clock.advance(3599 * SECOND);
  assert.equal(await store.get(id), { n: 1 }, 'a write slides too');
  clock.advance(3600 * SECOND);
  assert.is(await store.get(id), null, 'an hour without activity ends it');
});

M('a custom TTL is honoured', async () => {
  const clock = manualClock();
  const store = new MemorySessionStore(60, clock.now);
  const id = await store.create();
  clock.advance(59 * SECOND);
  assert.ok(await store.get(id));
  clock.advance(60 * SECOND);
  assert.is(await store.get(id), null);
});

M("purge() removes every expired session on the store's own clock, and keeps the live ones", async () => {
  const clock = manualClock();
  const store = new MemorySessionStore(3600, clock.now);
  const old1 = await store.create({ k: 'old1' });
  const old2 = await store.create({ k: 'old2' });
  clock.advance(1800 * SECOND);
  const live = await store.create({ k: 'live' });
  clock.advance(1800 * SECOND); // old1 and old2 are 3600 s old, live 1800 s
  assert.is(store.size, 3, 'nothing is dropped before a purge');
  assert.is(await store.purge(), 2, 'purge() says how many it removed');
  assert.is(store.size, 1);
  assert.equal(await store.get(live), { k: 'live' });
  assert.is(await store.get(old1), null);
  assert.is(await store.get(old2), null);
});

M('expired sessions are purged on their own once a minute, when sessions are created or written', async () => {
  const clock = manualClock();
  const store = new MemorySessionStore(120, clock.now);
  await store.create();
  await store.create();
  clock.advance(121 * SECOND);
  const fresh = await store.create(); // more than 60 s since the last purge: the two expired ones go
  assert.is(store.size, 1);
  clock.advance(30 * SECOND);
  await store.create();
  assert.is(store.size, 2);
  clock.advance(100 * SECOND); // fresh has expired and the last purge was 130 s ago: the next create purges
  const other = await store.create();
  assert.is(store.size, 2, 'fresh purged; the 100 s old one and the new one kept');
  assert.is(await store.get(fresh), null);
  assert.equal(await store.get(other), {});
  clock.advance(121 * SECOND); // both expired; a write, not only a creation, purges
  const written = 'a'.repeat(64);
  await store.set(written, { w: 1 });
  assert.is(store.size, 1, 'set() purged the two expired sessions');
  assert.equal(await store.get(written), { w: 1 });
});

M('data is stored by value: changing an object after set() or after get() does not change the session', async () => {
  const store = new MemorySessionStore();
  const data: Record<string, unknown> = { user: { id: 1 } };
  const id = await store.create(data);
  (data.user as Record<string, unknown>).id = 2;
  const read = await store.get(id);
  assert.equal(read, { user: { id: 1 } });
  read!.extra = true;
  assert.equal(await store.get(id), { user: { id: 1 } });
});

M('regenerate(): a new id with the same data; the old id is gone; an unknown id gives an empty session', async () => {
  const store = new MemorySessionStore();
  const old = await store.create({ cart: [1, 2] });
  const next = await store.regenerate(old);
  assert.match(next, HEX64);
  assert.is.not(next, old);
  assert.equal(await store.get(next), { cart: [1, 2] });
  assert.is(await store.get(old), null);
  const fromNothing = await store.regenerate('f'.repeat(64));
  assert.equal(await store.get(fromNothing), {});
});

M('delete() ends a session; ids are unique 64-hex tokens', async () => {
  const store = new MemorySessionStore();
  const ids = new Set<string>();
  for (let i = 0; i < 50; i++) ids.add(await store.create());
  assert.is(ids.size, 50);
  const [first] = ids;
  await store.delete(first!);
  assert.is(await store.get(first!), null);
  assert.is(store.size, 49);
});

M('bounded: past the max the least recently used session is evicted; a read or a write counts as a use', async () => {
  const store = new MemorySessionStore(3600, Date.now, 3);
  const [a, b, c] = [await store.create({ n: 'a' }), await store.create({ n: 'b' }), await store.create({ n: 'c' })];
  assert.ok(await store.get(a), 'a read: a is now the most recently used');
  const d = await store.create({ n: 'd' });
  assert.is(store.size, 3);
  assert.is(await store.get(b), null, 'b, the least recently used, is gone');
  await store.set(c, { n: 'c2' }); // order of use now: a, d, c
  const e = await store.create({ n: 'e' });
  assert.is(await store.get(a), null, 'a, now the least recently used, is gone');
  assert.equal([await store.get(d), await store.get(c), await store.get(e)], [{ n: 'd' }, { n: 'c2' }, { n: 'e' }]);
  await store.set('f'.repeat(64), { n: 'f' }); // set() of an unknown id creates a session: it evicts too
  assert.is(store.size, 3);
  assert.is(await store.get(d), null);
});

M("eviction order: anonymous sessions first (least recently used first), a user's sessions only when no anonymous one is left", async () => {
  const store = new MemorySessionStore(3600, Date.now, 4);
  const alice = await store.create({ user: { id: 1 } });
  const challenge = await store.create({ _auth_mfa_user_id: 2, _auth_mfa_started_at: 1 });
  const x = await store.create({ _flash: { message: 'x', level: 'info' } });
  const y = await store.create({ _flash: { message: 'y', level: 'info' } });
  assert.ok(await store.get(x), 'x used: y is now the least recently used anonymous session');
  await store.create({ n: 1 });
  assert.is(await store.get(y), null, 'y evicted');
  for (let i = 2; i < 10; i++) await store.create({ n: i });
  assert.is(store.size, 4);
  assert.ok(await store.get(alice), 'the signed-in session, least recently used of all, is kept');
  assert.ok(await store.get(challenge), 'so is a pending second-factor challenge');
  assert.is(await store.get(x), null);
  // Only sessions of users: the least recently used of them goes.
  const full = new MemorySessionStore(3600, Date.now, 2);
  const [u1, u2] = [await full.create({ user: { id: 1 } }), await full.create({ user: { id: 2 } })];
  await full.create({ n: 'anonyme' });
  assert.is(await full.get(u1), null);
  assert.ok(await full.get(u2));
  // A session that gains a user moves to the kept side; one that loses it, to the evicted side.
  const s = new MemorySessionStore(3600, Date.now, 2);
  const v = await s.create({ n: 'v' });
  const w = await s.create({ user: { id: 3 } });
  await s.set(v, { user: { id: 4 } });
  await s.set(w, { n: 'w' });
  await s.create({ n: 'new' });
  assert.ok(await s.get(v));
  assert.is(await s.get(w), null);
  assert.is(await s.deleteUser(4), 1);
});

M('bounded: 50,000 sessions through a store of 1,000 leave the last 1,000', async () => {
  const store = new MemorySessionStore(3600, Date.now, 1000);
  const ids: string[] = [];
  for (let i = 0; i < 50_000; i++) ids.push(await store.create({ i }));
  assert.is(store.size, 1000);
  assert.is(await store.get(ids[48_999]!), null);
  assert.equal(await store.get(ids[49_000]!), { i: 49_000 });
  assert.equal(await store.get(ids[49_999]!), { i: 49_999 });
});

M('the cap: session_memory_max, else SESSION_MEMORY_MAX, else 10,000; read at each new session; nonsense throws', async () => {
  const saved = process.env.SESSION_MEMORY_MAX;
  try {
    delete process.env.SESSION_MEMORY_MAX;
    resetConfig();
    const store = new MemorySessionStore();
    assert.is(store.max, 10_000);
    process.env.SESSION_MEMORY_MAX = '7';
    assert.is(store.max, 7);
    configure({ session_memory_max: 2 });
    assert.is(store.max, 2, 'the configuration wins over the environment');
    for (let i = 0; i < 5; i++) await store.create();
    assert.is(store.size, 2);
    assert.is(new MemorySessionStore(3600, Date.now, 4).max, 4, 'the constructor wins over both');
    configure({ session_memory_max: 0 });
    assert.match(await rejection(store.create()), "session_memory_max doit être un entier d'au moins 1 (valeur lue : « 0 »).");
    resetConfig();
    process.env.SESSION_MEMORY_MAX = 'beaucoup';
    assert.match(await rejection(store.create()), "SESSION_MEMORY_MAX doit être un entier d'au moins 1 (valeur lue : « beaucoup »).");
    assert.throws(() => new MemorySessionStore(3600, Date.now, 0), /maxSessions/);
  } finally {
    if (saved === undefined) delete process.env.SESSION_MEMORY_MAX;
    else process.env.SESSION_MEMORY_MAX = saved;
    resetConfig();
  }
});

M.run();

// --- the helpers over the configured store ---

let saved: SessionStore;
let store: MemorySessionStore;
const H = suite('session-store: session helpers');
H.before(() => {
  saved = getSessionStore();
});
H.before.each(() => {
  store = new MemorySessionStore();
  setSessionStore(store);
});
H.after(() => setSessionStore(saved));

H('createSession, getSession, deleteSession go through the configured store', async () => {
  const id = await createSession();
  assert.match(id, HEX64);
  assert.equal(await store.get(id), {});
  assert.equal(await getSession(id), {});
  await deleteSession(id);
  assert.is(await getSession(id), null);
  assert.is(await getSession('not-a-session-id'), null, 'a malformed id is never looked up');
});

H('regenerateSession copies the data to a new id and deletes the old session', async () => {
  const id = await store.create({ theme: 'sombre' });
  const next = await regenerateSession(id);
  assert.match(next, HEX64);
  assert.is.not(next, id);
  assert.equal(await getSession(next), { theme: 'sombre' });
  assert.is(await getSession(id), null);
});

H('authenticateSession: a new id holding the user and the earlier data; the old session is deleted', async () => {
  const id = await store.create({ theme: 'sombre', user: { Login: 'intrus' } });
  const user = { UtilisateurId: 7, Login: 'alice', roles: ['admin'] };
  const next = await authenticateSession(id, user);
  assert.match(next, HEX64);
  assert.is.not(next, id, 'session fixation: the id changes');
  assert.is(await getSession(id), null, 'the old id no longer works');
  assert.equal(await getSession(next), { theme: 'sombre', user });
  assert.is(store.size, 1);
  const fromUnknown = await authenticateSession('0'.repeat(64), { Login: 'bob' });
  assert.equal(await getSession(fromUnknown), { user: { Login: 'bob' } });
});

H('setFlash / getFlash: one message and its level, consumed by the read; danger is error, unknown is info', async () => {
  const id = await store.create({ keep: 1 });
  await setFlash(id, 'Enregistré.');
  assert.equal(await getFlash(id), { message: 'Enregistré.', level: 'success' });
  assert.is(await getFlash(id), null, 'consumed');
  assert.equal(await getSession(id), { keep: 1 }, 'the rest of the session is kept');
  for (const [given, expected] of [
    ['error', 'error'],
    ['warning', 'warning'],
    ['info', 'info'],
    ['danger', 'error'],
    ['bizarre', 'info'],
  ]) {
    await setFlash(id, 'm', given);
    assert.equal(await getFlash(id), { message: 'm', level: expected }, given);
  }
  await setFlash(id, 'premier');
  await setFlash(id, 'second', 'warning');
  assert.equal(await getFlash(id), { message: 'second', level: 'warning' }, 'the last flash wins');
  assert.is(await getFlash('f'.repeat(64)), null, 'no session, no flash');
});

H.run();
