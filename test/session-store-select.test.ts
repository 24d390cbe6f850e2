/**
 * Which session store an application uses (docs/runtime.md "Sessions"): `session_store`, else SESSION_STORE,
 * else memory; an unknown name stops the Application's construction with a message naming it; the store is
 * built lazily, follows the configuration, and setSessionStore() overrides it (null: back to the configuration).
 */
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  Application,
  DatabaseSessionStore,
  FileSessionStore,
  MemorySessionStore,
  Router,
  configure,
  getSessionStore,
  resetConfig,
  sessionStoreFromConfig,
  sessionStoreName,
  setSessionStore,
  type SessionStore,
} from '../runtime/index.js';

const S = suite('session-store-select');
let savedEnv: string | undefined;
let savedStore: SessionStore;

S.before(() => {
  savedEnv = process.env.SESSION_STORE;
  savedStore = getSessionStore();
});
S.before.each(() => {
  delete process.env.SESSION_STORE;
  resetConfig();
  setSessionStore(null);
});
S.after(() => {
  if (savedEnv === undefined) delete process.env.SESSION_STORE;
  else process.env.SESSION_STORE = savedEnv;
  resetConfig();
  setSessionStore(savedStore);
});

S('memory by default; SESSION_STORE names another; session_store wins over it', () => {
  assert.is(sessionStoreName(), 'memory');
  assert.ok(sessionStoreFromConfig() instanceof MemorySessionStore);
  for (const [value, expected] of [
    ['file', 'file'],
    ['database', 'database'],
    ['memory', 'memory'],
    [' File ', 'file'],
    ['', 'memory'],
    ['  ', 'memory'],
  ]) {
    process.env.SESSION_STORE = value;
    assert.is(sessionStoreName(), expected, JSON.stringify(value));
  }
  process.env.SESSION_STORE = 'file';
  configure({ session_store: 'database' });
  assert.is(sessionStoreName(), 'database');
  assert.ok(sessionStoreFromConfig() instanceof DatabaseSessionStore);
});

S('each store takes session_ttl; the file store session_dir from project_root', () => {
  configure({ project_root: '/srv/app', session_ttl: 120, session_store: 'file' });
  const file = sessionStoreFromConfig() as FileSessionStore;
  assert.ok(file instanceof FileSessionStore);
  assert.is(file.dir, path.join('/srv/app', 'storage', 'sessions'));
  assert.is(file.ttlSeconds, 120);
  configure({ session_store: 'database' });
  assert.is((sessionStoreFromConfig() as DatabaseSessionStore).ttlSeconds, 120);
  configure({ session_store: 'memory' });
  assert.is((sessionStoreFromConfig() as MemorySessionStore).ttlSeconds, 120);
  configure({ session_ttl: -5 });
  assert.throws(() => sessionStoreFromConfig(), /^session_ttl doit être un nombre de secondes supérieur à 0 \(valeur lue : « -5 »\)\.$/);
});

S('an unknown name throws, naming it and the accepted values', () => {
  process.env.SESSION_STORE = 'memcached';
  assert.throws(
    () => sessionStoreName(),
    (error: Error) => error.message === 'SESSION_STORE vaut « memcached » : stockage de sessions inconnu ; valeurs acceptées : memory, file, database, redis.',
  );
  configure({ session_store: 'disque' as 'file' });
  assert.throws(
    () => sessionStoreFromConfig(),
    (error: Error) => error.message === 'session_store vaut « disque » : stockage de sessions inconnu ; valeurs acceptées : memory, file, database, redis.',
  );
});

S('an unknown SESSION_STORE stops the Application at construction', () => {
  process.env.SESSION_STORE = 'mongo';
  assert.throws(
    () => new Application(new Router(), { apiRoutesModule: null, staticDirs: null }),
    /^SESSION_STORE vaut « mongo » : stockage de sessions inconnu/,
  );
  process.env.SESSION_STORE = 'file';
  new Application(new Router(), { apiRoutesModule: null, staticDirs: null });
  assert.ok(getSessionStore() instanceof FileSessionStore, 'built when the Application was');
});

S('lazy: built on first use, then the same; a change of session_* keys builds it again; setSessionStore wins', () => {
  const first = getSessionStore();
  assert.ok(first instanceof MemorySessionStore);
  assert.is(getSessionStore(), first);
  configure({ app_name: 'autre' });
  assert.is(getSessionStore(), first, 'an unrelated key changes nothing');
  configure({ session_store: 'file' });
  assert.ok(getSessionStore() instanceof FileSessionStore);
  const mine = new MemorySessionStore(10);
  setSessionStore(mine);
  configure({ session_store: 'database' });
  assert.is(getSessionStore(), mine, 'a store set by hand is kept');
  setSessionStore(null);
  assert.ok(getSessionStore() instanceof DatabaseSessionStore, 'null: back to the configuration');
});

S.run();
