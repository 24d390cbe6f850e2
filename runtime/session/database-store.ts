/**
 * Sessions in the `fw_sessions` table (docs/decisions.md#session-stores, docs/runtime.md "Sessions"), on SQLite or MariaDB:
 * shared by every process and machine that uses the same database. The table is created by `fw db:init`
 * (sessions-table.ts). Rows are keyed by `sessionKey(id)`, the keyed hash of the session id; expiry is UTC, to the second, and
 * sliding (`expiryIsDue`: a read updates the row at most once per tenth of the TTL).
 */
import type { Database, Queryable } from '../db/database.js';
import type { DialectName } from '../db/dialect.js';
import { queriesOf } from '../db/dialects/index.js';
import { getDatabase } from '../db/database.js';
import { bookkeepingTable } from '../db/writes.js';
import { get } from '../config.js';
import { getLogger } from '../logger.js';
import { SESSIONS_TABLE } from './sessions-table.js';
import { checkedTtl, expiryIsDue, newSessionId, sessionKey, sessionUserId, userIdKey, type SessionData, type SessionStore } from './store.js';

// A session's sliding expiry is a write of every request: it keeps the list counts (runtime/db/writes.ts). Declared
// here, by the module that writes the table, so that sessions-table.ts imports only db/ddl/ and db/dialect.ts.
bookkeepingTable(SESSIONS_TABLE);

const log = getLogger('fw.session');
const PURGE_INTERVAL_MS = 60_000;

export interface DatabaseSessionStoreOptions {
  /** The database holding `fw_sessions`. Default: the application's (`getDatabase()`, read at each call). */
  readonly database?: Database;
  /** Seconds a session lives without use. Default: `session_ttl` (3600). */
  readonly ttlSeconds?: number;
  /** The clock, in milliseconds (tests). */
  readonly now?: () => number;
}

interface SessionRow {
  data: string;
  expires_at: unknown;
}

export class DatabaseSessionStore implements SessionStore {
  readonly ttlSeconds: number;
  private readonly database: Database | undefined;
  private readonly now: () => number;
  private lastPurge: number;

  constructor(options: DatabaseSessionStoreOptions = {}) {
    this.database = options.database;
    this.ttlSeconds = checkedTtl(options.ttlSeconds ?? get('session_ttl'), options.ttlSeconds === undefined ? 'session_ttl' : 'ttlSeconds');
    this.now = options.now ?? Date.now;
    this.lastPurge = this.now();
  }

  /** Creates a session; at most once a minute, first removes the expired rows (a failure there is only logged). */
  async create(data: SessionData = {}): Promise<string> {
    if (this.now() - this.lastPurge > PURGE_INTERVAL_MS) {
      await this.purge().catch((error: unknown) => log.warning(`Purge des sessions expirées impossible : ${(error as Error).message}`));
    }
    const id = newSessionId();
    await this.set(id, data);
    return id;
  }

  async get(id: string): Promise<SessionData | null> {
    return this.run(async (db) => {
      const key = sessionKey(id);
      const row = await db.fetchOne<SessionRow>(`SELECT data, expires_at FROM ${SESSIONS_TABLE} WHERE session_id = ?`, [key]);
      if (!row) return null;
      const now = this.now();
      const expiresAt = parseUtc(row.expires_at);
      if (!(expiresAt > now)) {
        // Only if still expired: a write that came in meanwhile has made it live again.
        await db.execute(`DELETE FROM ${SESSIONS_TABLE} WHERE session_id = ? AND expires_at <= ?`, [key, new Date(now)]);
        return null;
      }
      const data = parseData(row.data);
      if (!data) {
        await db.execute(`DELETE FROM ${SESSIONS_TABLE} WHERE session_id = ? AND data = ?`, [key, row.data]);
        return null;
      }
      if (expiryIsDue(expiresAt, now, this.ttlSeconds * 1000)) {
        // The expiry alone: never the data, which a concurrent write may have changed.
        await db.execute(`UPDATE ${SESSIONS_TABLE} SET expires_at = ?, updated_at = ? WHERE session_id = ?`, [this.expiry(now), new Date(now), key]);
      }
      return data;
    });
  }

  async set(id: string, data: SessionData): Promise<void> {
    await this.run((db) => this.upsert(db, db.driver, sessionKey(id), JSON.stringify(data), sessionUserId(data)));
  }

  /** One `UPDATE` of the live row: false when no row matched (deleted or expired meanwhile); never inserts. */
  async update(id: string, data: SessionData): Promise<boolean> {
    const json = JSON.stringify(data);
    const userId = sessionUserId(data);
    const now = new Date(this.now());
    const changed = await this.run((db) =>
      db.execute(`UPDATE ${SESSIONS_TABLE} SET data = ?, user_id = ?, expires_at = ?, updated_at = ? WHERE session_id = ? AND expires_at > ?`, [
        json,
        userId,
        this.expiry(now.getTime()),
        now,
        sessionKey(id),
        now,
      ]),
    );
    return changed > 0;
  }

  async delete(id: string): Promise<void> {
    await this.run((db) => db.execute(`DELETE FROM ${SESSIONS_TABLE} WHERE session_id = ?`, [sessionKey(id)]));
  }

  /** In one transaction: the new row holds the old data, the old row is deleted. */
  async regenerate(oldId: string): Promise<string> {
    const next = newSessionId();
    await this.run((db) =>
      db.transaction(async (tx) => {
        const oldKey = sessionKey(oldId);
        // The row is locked (FOR UPDATE on MariaDB): two regenerations of one id do not both copy it (SQLite's transaction already locks the file).
        const row = await tx.fetchOne<SessionRow>(`SELECT data, expires_at FROM ${SESSIONS_TABLE} WHERE session_id = ?${queriesOf(db.driver).lockRows}`, [
          oldKey,
        ]);
        const data = row && parseUtc(row.expires_at) > this.now() ? parseData(row.data) : null;
        await this.upsert(tx, db.driver, sessionKey(next), data ? row!.data : '{}', data ? sessionUserId(data) : null);
        await tx.execute(`DELETE FROM ${SESSIONS_TABLE} WHERE session_id = ?`, [oldKey]);
      }),
    );
    return next;
  }

  async deleteUser(userId: string | number): Promise<number> {
    const wanted = userIdKey(userId);
    return this.run((db) => db.execute(`DELETE FROM ${SESSIONS_TABLE} WHERE user_id = ?`, [wanted]));
  }

  async purge(): Promise<number> {
    this.lastPurge = this.now();
    return this.run((db) => db.execute(`DELETE FROM ${SESSIONS_TABLE} WHERE expires_at <= ?`, [new Date(this.now())]));
  }

  /** The expiry of a session used at `now`, rounded up to the second the column keeps: never shorter than the TTL. */
  private expiry(now: number): Date {
    return new Date(Math.ceil((now + this.ttlSeconds * 1000) / 1000) * 1000);
  }

  private async upsert(db: Queryable, driver: DialectName, key: string, json: string, userId: string | null): Promise<void> {
    const now = new Date(this.now());
    const params = [key, json, userId, this.expiry(now.getTime()), now, now];
    const insert = `INSERT INTO ${SESSIONS_TABLE} (session_id, data, user_id, expires_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)`;
    await db.execute(queriesOf(driver).upsert(insert, ['session_id'], ['data', 'user_id', 'expires_at', 'updated_at']), params);
  }

  /** Runs `fn` on the store's database; a missing table becomes an error that says how to create it. */
  private async run<T>(fn: (db: Database) => Promise<T>): Promise<T> {
    const db = this.database ?? getDatabase();
    try {
      return await fn(db);
    } catch (error) {
      if (isMissingTable(error)) {
        throw new Error(`La table ${SESSIONS_TABLE} n'existe pas (${db.describe()}) ; lancez « fw db:init » pour la créer.`, { cause: error });
      }
      throw error;
    }
  }
}

/** The same store under its original name (`MariaDbSessionStore`, docs/api-mapping.md); it works on SQLite as well. */
export const MariaDbSessionStore = DatabaseSessionStore;
export type MariaDbSessionStore = DatabaseSessionStore;

/** Session data from its JSON text, or null when it is not a JSON object. */
function parseData(text: unknown): SessionData | null {
  if (typeof text !== 'string') return null;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as SessionData) : null;
  } catch {
    return null;
  }
}

/** Milliseconds of a UTC `YYYY-MM-DD HH:MM:SS` as both dialects return it (NaN when unreadable: expired). */
function parseUtc(value: unknown): number {
  if (value instanceof Date) return value.getTime();
  return typeof value === 'string' ? Date.parse(`${value.trim().replace(' ', 'T')}Z`) : NaN;
}

function isMissingTable(error: unknown): boolean {
  const { errno, message } = (error ?? {}) as { errno?: unknown; message?: unknown };
  return errno === 1146 || (typeof message === 'string' && message.includes(`no such table: ${SESSIONS_TABLE}`));
}
