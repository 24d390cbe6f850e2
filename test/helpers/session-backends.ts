/**
 * The session stores under test, each behind the same small interface so that one conformance suite runs on
 * all of them (test/session-stores.test.ts): memory, file, database on each dialect, redis. Each backend owns its
 * resources (a temporary folder, a fresh database of helpers/dialects.ts) and removes them in `close()`.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  DatabaseSessionStore,
  FileSessionStore,
  MemorySessionStore,
  RedisConnection,
  RedisSessionStore,
  fwSessionsDdl,
  type Database,
  type SessionStore,
} from '../../runtime/index.js';
import { freshDatabase, productOf, type DialectName } from './dialects.js';

export interface StoreOptions {
  readonly now: () => number;
  readonly ttlSeconds?: number;
}

/** What lies at rest for a store: one entry per session (a file's text, a row as JSON). */
export interface AtRest {
  /** Every stored session, as text. */
  texts(): Promise<string[]>;
  /** Replaces what is stored under a key (SHA-256 hex of the id) with raw text, as a crash or an edit would. */
  corrupt(key: string, text: string): Promise<void>;
}

export interface Backend {
  readonly name: string;
  /** A new store on empty storage. */
  make(options: StoreOptions): Promise<SessionStore>;
  /** What is kept at rest (null for the memory store, which keeps nothing outside the process). */
  readonly atRest: AtRest | null;
  /** Waits for what the store runs in the background (the file store's purge). */
  settle(store: SessionStore): Promise<void>;
  close(): Promise<void>;
}

export function memoryBackend(): Backend {
  return {
    name: 'memory',
    make: async ({ now, ttlSeconds }) => new MemorySessionStore(ttlSeconds ?? 3600, now),
    atRest: null,
    settle: async () => {},
    close: async () => {},
  };
}

/** The file store, on a fresh folder per store (`dir` exposes the current one). */
export function fileBackend(): Backend & { readonly dir: string } {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fw-sessions-')));
  let dir = '';
  let count = 0;
  return {
    name: 'file',
    get dir() {
      return dir;
    },
    make: async ({ now, ttlSeconds }) => {
      dir = path.join(root, `store-${++count}`, 'sessions');
      return new FileSessionStore({ dir, ttlSeconds: ttlSeconds ?? 3600, now });
    },
    atRest: {
      texts: async () => {
        if (!fs.existsSync(dir)) return [];
        return fs.readdirSync(dir).map((name) => `${name}\n${fs.readFileSync(path.join(dir, name), 'utf8')}`);
      },
      corrupt: async (key, text) => fs.writeFileSync(path.join(dir, `${key}.json`), text, { mode: 0o600 }),
    },
    settle: (store) => (store as FileSessionStore).whenIdle(),
    close: async () => fs.rmSync(root, { recursive: true, force: true }),
  };
}

/** The database store on a database that holds `fw_sessions` (emptied for each new store); `close` closes and removes it. */
function databaseBackend(name: string, database: Database, close: () => Promise<void>): Backend & { readonly database: Database } {
  let created = false;
  return {
    name,
    database,
    make: async ({ now, ttlSeconds }) => {
      if (!created) {
        for (const statement of fwSessionsDdl(database.driver)) await database.execute(statement);
        created = true;
      }
      await database.execute('DELETE FROM fw_sessions');
      return new DatabaseSessionStore({ database, ttlSeconds: ttlSeconds ?? 3600, now });
    },
    atRest: {
      texts: async () => (await database.fetchAll('SELECT * FROM fw_sessions')).map((row) => JSON.stringify(row)),
      corrupt: async (key, text) => void (await database.execute('UPDATE fw_sessions SET data = ? WHERE session_id = ?', [text, key])),
    },
    settle: async () => {},
    close,
  };
}

/** The database store on a fresh database of `dialect` (`database` exposes the handle). */
export async function databaseStoreBackend(dialect: DialectName): Promise<Backend & { readonly database: Database }> {
  const fresh = await freshDatabase(dialect, { prefix: 'fw_test_sessions' });
  return databaseBackend(`database (${productOf(dialect)})`, fresh.database, () => fresh.close());
}

export { dropMariaDb } from './dialects.js';

/** A raw client to the test Redis (127.0.0.1:6379, or REDIS_URL), for what the tests read or break at rest. */
export async function rawRedis(): Promise<import('redis').RedisClientType> {
  const { createClient } = await import('redis');
  const client = createClient({ url: process.env.REDIS_URL || 'redis://127.0.0.1:6379' }) as import('redis').RedisClientType;
  await client.connect();
  return client;
}

/** A key prefix of its own for a test: `fwtest:<pid>:<random>:`. */
export function redisTestPrefix(): string {
  return `fwtest:${process.pid}:${randomBytes(4).toString('hex')}:`;
}

/** Deletes every key under `prefix` (SCAN: tests only). */
export async function dropRedisPrefix(client: import('redis').RedisClientType, prefix: string): Promise<void> {
  for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) if (keys.length > 0) await client.del(keys);
}

/** The Redis store, each store under a prefix of its own; at rest: each session hash, with its key. */
export async function redisBackend(): Promise<Backend & { readonly prefix: string }> {
  const root = redisTestPrefix();
  const client = await rawRedis();
  const connection = new RedisConnection(process.env.REDIS_URL || 'redis://127.0.0.1:6379');
  let prefix = '';
  let count = 0;
  const sessionKeys = async (): Promise<string[]> => {
    const found: string[] = [];
    for await (const keys of client.scanIterator({ MATCH: `${prefix}sess:*`, COUNT: 500 })) found.push(...keys);
    return found;
  };
  return {
    name: 'redis',
    get prefix() {
      return prefix;
    },
    make: async ({ now, ttlSeconds }) => {
      prefix = `${root}${++count}:`;
      return new RedisSessionStore({ connection, prefix, ttlSeconds: ttlSeconds ?? 3600, now });
    },
    atRest: {
      texts: async () => Promise.all((await sessionKeys()).map(async (key) => `${key}\n${JSON.stringify(await client.hGetAll(key))}`)),
      corrupt: async (key, text) => void (await client.hSet(`${prefix}sess:${key}`, 'd', text)),
    },
    settle: async () => {},
    close: async () => {
      await dropRedisPrefix(client, root);
      await connection.close();
      await client.close();
    },
  };
}
