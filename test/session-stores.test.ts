/**
 * One conformance suite for the session stores (docs/architecture.md "Conformance suites"), run against memory, file, database on
 * SQLite, database on MariaDB and redis: the contract (create, get, set, update, delete, regenerate, deleteUser, purge), the
 * sliding TTL and expiry on an injected clock, concurrent writes on one id, and for the stores that keep data
 * at rest: corrupt entries, ids hashed at rest. What only the file store has (modes, temporary files) and the
 * 1/10-of-TTL rule of the persistent stores follow in session-stores-persistent.test.ts.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { configure, sessionKey, type SessionStore } from '../runtime/index.js';
import { fileBackend, memoryBackend, redisBackend, databaseStoreBackend, type Backend } from './helpers/session-backends.js';
import { DIALECTS, productOf } from './helpers/dialects.js';
import { manualClock, rejection } from './helpers/clock.js';

// The stores key sessions by an HMAC under the application's secret: a configured one, so that nothing is written
// into the working directory's storage/sessions.
configure({ app_secret: 'session-stores-test-secret'.padEnd(48, 'x') });

const HEX64 = /^[0-9a-f]{64}$/;
const TTL = 3600;

function conformance(label: string, open: () => Promise<Backend> | Backend): void {
  const S = suite(`session-stores: ${label}`);
  let backend: Backend;
  let clock: ReturnType<typeof manualClock>;
  let store: SessionStore;

  S.before(async () => {
    backend = await open();
  });
  S.after(async () => {
    await backend.close();
  });
  S.before.each(async () => {
    clock = manualClock();
    store = await backend.make({ now: clock.now, ttlSeconds: TTL });
  });

  S('create, get, set, delete', async () => {
    const id = await store.create({ theme: 'sombre', cart: [1, 2], nested: { é: 'ü' } });
    assert.match(id, HEX64);
    assert.equal(await store.get(id), { theme: 'sombre', cart: [1, 2], nested: { é: 'ü' } });
    assert.equal(await store.get(await store.create()), {}, 'an empty session');
    await store.set(id, { theme: 'clair' });
    assert.equal(await store.get(id), { theme: 'clair' }, 'set() replaces the data');
    const unknown = 'a'.repeat(64);
    assert.is(await store.get(unknown), null);
    await store.set(unknown, { made: true });
    assert.equal(await store.get(unknown), { made: true }, 'set() of an unknown id creates the session');
    await store.delete(id);
    assert.is(await store.get(id), null);
    await store.delete(id); // deleting twice is harmless
    const ids = new Set<string>();
    for (let i = 0; i < 20; i++) ids.add(await store.create());
    assert.is(ids.size, 20, 'ids are unique');
  });

  S('update replaces the data of a live session and never creates one', async () => {
    const id = await store.create({ theme: 'sombre', user: { id: 7 } });
    assert.is(await store.update(id, { theme: 'clair', user: { id: 7 } }), true);
    assert.equal(await store.get(id), { theme: 'clair', user: { id: 7 } });
    assert.is(await store.update(id, { theme: 'clair', user: { id: 7 } }), true, 'the same data again, at the same instant: still found');
    const unknown = 'b'.repeat(64);
    assert.is(await store.update(unknown, { made: true }), false, 'an unknown id');
    assert.is(await store.get(unknown), null, 'was not created');
    await store.delete(id);
    assert.is(await store.update(id, { back: true }), false, 'a deleted id');
    assert.is(await store.get(id), null, 'stays deleted');
    const other = await store.create({ user: { id: 7 } });
    assert.is(await store.deleteUser(7), 1);
    assert.is(await store.update(other, { user: { id: 7 }, _flash: { message: 'x', level: 'info' } }), false, 'a session ended by deleteUser()');
    assert.is(await store.get(other), null, 'is not brought back');
    assert.is(await store.deleteUser(7), 0);
    if (backend.atRest) assert.is((await backend.atRest.texts()).length, 0, 'nothing at rest, no leftovers');
  });

  S('update slides the expiry, changes the user of the session, refuses an expired one', async () => {
    const id = await store.create({ n: 0 });
    clock.advance(TTL - 1);
    assert.is(await store.update(id, { n: 1, user: { id: 5 } }), true);
    clock.advance(TTL - 1);
    assert.equal(await store.get(id), { n: 1, user: { id: 5 } }, 'an update slides the expiry');
    assert.is(await store.deleteUser(5), 1, 'update() set the user of the session');
    const old = await store.create({ n: 2 });
    clock.advance(TTL);
    assert.is(await store.update(old, { n: 3 }), false, 'expired');
    assert.is(await store.get(old), null, 'not brought back');
    const message = await rejection(store.update(await store.create({ keep: 1 }), { user: { id: 'x'.repeat(256) } }));
    assert.is(message, "Identifiant d'utilisateur trop long pour la session (256 caractères, 255 au plus).");
  });

  S('data is stored by value', async () => {
    const data: Record<string, unknown> = { user: { id: 1 } };
    const id = await store.create(data);
    (data.user as Record<string, unknown>).id = 2;
    const read = await store.get(id);
    assert.equal(read, { user: { id: 1 } });
    read!.extra = true;
    assert.equal(await store.get(id), { user: { id: 1 } });
  });

  S('regenerate: a new id with the same data, the old id dead; an unknown id gives an empty session', async () => {
    const old = await store.create({ cart: [1, 2], user: { id: 9 } });
    const next = await store.regenerate(old);
    assert.match(next, HEX64);
    assert.is.not(next, old);
    assert.equal(await store.get(next), { cart: [1, 2], user: { id: 9 } });
    assert.is(await store.get(old), null);
    assert.is(await store.deleteUser(9), 1, 'the new session still belongs to its user');
    const fromNothing = await store.regenerate('f'.repeat(64));
    assert.equal(await store.get(fromNothing), {});
  });

  S('expiry: alive a second before the TTL, gone at the TTL without use', async () => {
    const id = await store.create({ a: 1 });
    clock.advance(TTL - 1);
    const other = await store.create({ b: 2 });
    clock.advance(1);
    assert.is(await store.get(id), null);
    assert.equal(await store.get(other), { b: 2 });
    assert.is(await store.get(id), null, 'still gone');
  });

  S('sliding: a read or a write pushes the expiry back by the TTL', async () => {
    const id = await store.create({ n: 0 });
    clock.advance(TTL / 2);
    assert.equal(await store.get(id), { n: 0 }, 'read at half the TTL');
    clock.advance(TTL - 100); // 1.5 TTL after creation, just under the TTL after the read
    assert.equal(await store.get(id), { n: 0 }, 'alive thanks to the read');
    clock.advance(TTL - 100);
    await store.set(id, { n: 1 });
    clock.advance(TTL - 1);
    assert.equal(await store.get(id), { n: 1 }, 'a write slides too');
    clock.advance(TTL);
    assert.is(await store.get(id), null, 'a TTL without use ends it');
  });

  S('purge removes the expired sessions, says how many, keeps the live ones', async () => {
    const old1 = await store.create({ k: 'old1' });
    const old2 = await store.create({ k: 'old2' });
    clock.advance(TTL / 2);
    const live = await store.create({ k: 'live' });
    await backend.settle(store); // the file store's own purge, started by that create(), is over: purge() below counts
    clock.advance(TTL / 2);
    assert.is(await store.purge(), 2);
    assert.is(await store.purge(), 0, 'nothing more to purge');
    assert.equal(await store.get(live), { k: 'live' });
    assert.is(await store.get(old1), null);
    assert.is(await store.get(old2), null);
    if (backend.atRest) assert.is((await backend.atRest.texts()).length, 1, 'one session left at rest');
  });

  S('expired sessions are purged on their own, at most once a minute, when sessions are created', async () => {
    await store.create();
    await store.create();
    clock.advance(TTL + 61);
    const fresh = await store.create();
    await backend.settle(store);
    if (backend.atRest) assert.is((await backend.atRest.texts()).length, 1, 'the two expired sessions are gone');
    assert.equal(await store.get(fresh), {});
    assert.is(await store.purge(), 0, 'nothing left to purge');
  });

  S('deleteUser deletes every session of a user (7 and "7" are the same), returns how many', async () => {
    const a = await store.create({ user: { id: 7, login: 'alice' } });
    const b = await store.create({ user: { id: '7', login: 'alice' }, theme: 'sombre' });
    const c = await store.create({ user: { id: 8, login: 'bob' } });
    const d = await store.create({ theme: 'anonyme' });
    const e = await store.create({ user: { id: 'uuid-é-1' } });
    const f = await store.create({ user: 7 });
    assert.is(await store.deleteUser(7), 2);
    assert.is(await store.get(a), null);
    assert.is(await store.get(b), null);
    assert.ok(await store.get(c));
    assert.ok(await store.get(d));
    assert.ok(await store.get(f), 'a user that is not a map has no id');
    assert.is(await store.deleteUser('7'), 0);
    assert.is(await store.deleteUser('uuid-é-1'), 1);
    assert.is(await store.get(e), null);
    assert.is(await store.deleteUser('UUID-É-1'), 0, 'ids are compared exactly');
    await store.set(c, { user: { id: 9 } });
    assert.is(await store.deleteUser(8), 0, 'set() changed the user of the session');
    assert.is(await store.deleteUser(9), 1);
    for (const bad of [NaN, '', undefined, { id: 1 }]) {
      assert.match(await rejection(store.deleteUser(bad as unknown as string)), /^deleteUser : identifiant d'utilisateur invalide/);
    }
  });

  S('deleteUser also ends the pending second-factor challenges of the user (password checked, code not yet)', async () => {
    const challenge = await store.create({ _auth_mfa_user_id: 7, _auth_mfa_started_at: 1_700_000_000, _auth_mfa_next: '/' });
    const other = await store.create({ _auth_mfa_user_id: 8, _auth_mfa_started_at: 1_700_000_000 });
    const anonymous = await store.create({ _csrf_token: 'x' });
    const later = await store.create({});
    await store.set(later, { _auth_mfa_user_id: '7', _auth_mfa_started_at: 1_700_000_000 });
    assert.is(await store.deleteUser(7), 2);
    assert.is(await store.get(challenge), null);
    assert.is(await store.get(later), null, "set() gave the session to the challenge's user");
    assert.ok(await store.get(other));
    assert.ok(await store.get(anonymous));
  });

  S('a user id longer than the column is refused, nothing written', async () => {
    const id = await store.create({ keep: 1 });
    const message = await rejection(store.set(id, { user: { id: 'x'.repeat(256) } }));
    assert.is(message, "Identifiant d'utilisateur trop long pour la session (256 caractères, 255 au plus).");
    assert.equal(await store.get(id), { keep: 1 });
    await store.set(id, { user: { id: 'x'.repeat(255) } });
    assert.is(await store.deleteUser('x'.repeat(255)), 1);
  });

  S('concurrent writes on one id: the result is one of the written values, whole', async () => {
    const id = await store.create({ n: -1 });
    const values = Array.from({ length: 40 }, (_, n) => ({ n, filler: 'é'.repeat(2000 + n) }));
    await Promise.all(values.map((value) => store.set(id, value)));
    const read = await store.get(id);
    assert.ok(read && values.some((value) => value.n === read.n && value.filler === read.filler), JSON.stringify(read).slice(0, 80));
    await Promise.all([...values.map((value) => store.set(id, value)), ...values.map(() => store.get(id))]);
    const after = await store.get(id);
    assert.ok(after && values.some((value) => value.n === after.n && value.filler === after.filler));
    if (backend.atRest) assert.is((await backend.atRest.texts()).length, 1, 'one session at rest, no leftovers');
  });

  S('ids are hashed at rest: the SHA-256 hex is stored, never the id', async () => {
    if (!backend.atRest) return; // the memory store keeps nothing outside the process
    const id = await store.create({ user: { id: 1 } });
    await store.set(id, { user: { id: 1 }, more: true });
    await store.regenerate(await store.create({ x: 1 }));
    const texts = (await backend.atRest.texts()).join('\n');
    assert.ok(texts.includes(sessionKey(id)), 'the key is there');
    assert.not.ok(texts.includes(id), 'the raw id is not');
  });

  S('a corrupt entry is no session, and is removed', async () => {
    if (!backend.atRest) return;
    const corrupt = ['{"data":', 'pas du JSON', '[1,2]', 'null', '"texte"', '\u0000\u0001'];
    for (const text of corrupt) {
      const id = await store.create({ ok: true });
      await backend.atRest.corrupt(sessionKey(id), text);
      assert.is(await store.get(id), null, JSON.stringify(text));
      assert.is((await backend.atRest.texts()).length, 0, `removed: ${JSON.stringify(text)}`);
      await store.set(id, { again: 1 });
      assert.equal(await store.get(id), { again: 1 }, 'the id works again');
      await store.delete(id);
    }
  });

  S.run();
}

conformance('memory', memoryBackend);
conformance('file', fileBackend);
for (const dialect of DIALECTS) conformance(`database on ${productOf(dialect)}`, () => databaseStoreBackend(dialect));
conformance('redis', redisBackend);
