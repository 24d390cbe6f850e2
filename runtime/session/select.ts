/** Which session store the application uses: `session_store`, else `SESSION_STORE`, else memory (docs/runtime.md "Sessions"). */
import { get } from '../config.js';
import { DatabaseSessionStore } from './database-store.js';
import { FileSessionStore } from './file-store.js';
import { RedisSessionStore } from './redis-store.js';
import { checkedTtl, MemorySessionStore, type SessionStore } from './store.js';

export const SESSION_STORE_NAMES = ['memory', 'file', 'database', 'redis'] as const;
export type SessionStoreName = (typeof SESSION_STORE_NAMES)[number];

/**
 * The configured store's name: the `session_store` key when set, else the `SESSION_STORE` environment variable
 * (trimmed, any case; empty means unset), else `memory`. Any other value throws, naming it and the accepted ones.
 */
export function sessionStoreName(): SessionStoreName {
  const configured: unknown = get('session_store');
  if (configured !== null && configured !== undefined) return checkedName(configured, 'session_store');
  const fromEnv = process.env.SESSION_STORE;
  if (fromEnv === undefined || fromEnv.trim() === '') return 'memory';
  return checkedName(fromEnv, 'SESSION_STORE');
}

function checkedName(value: unknown, source: string): SessionStoreName {
  const name = typeof value === 'string' ? value.trim().toLowerCase() : value;
  if ((SESSION_STORE_NAMES as readonly unknown[]).includes(name)) return name as SessionStoreName;
  throw new Error(`${source} vaut « ${String(value)} » : stockage de sessions inconnu ; valeurs acceptées : ${SESSION_STORE_NAMES.join(', ')}.`);
}

/**
 * A new store of the configured kind, with `session_ttl`: memory (in the process), file (`session_dir`) or
 * database (`fw_sessions` in the application's database, made by `fw db:init`) or redis (`REDIS_URL`, the client
 * loaded on first use). Nothing is opened or created before the first session is used.
 */
export function sessionStoreFromConfig(): SessionStore {
  const ttlSeconds = checkedTtl(get('session_ttl'), 'session_ttl');
  switch (sessionStoreName()) {
    case 'file':
      return new FileSessionStore({ ttlSeconds });
    case 'database':
      return new DatabaseSessionStore({ ttlSeconds });
    case 'redis':
      return new RedisSessionStore({ ttlSeconds });
    default:
      return new MemorySessionStore(ttlSeconds);
  }
}
