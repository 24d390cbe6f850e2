/**
 * The database store of attempts (docs/auth.md "Login limits"): table `auth_rate_limit_attempts`, shared by every
 * process on that database. Same contract and conformance suite as the memory store (stores.ts).
 */
import { getDatabase, type Database } from '../db/database.js';
import { bookkeepingTable } from '../db/writes.js';
import { getLogger } from '../logger.js';
import {
  DEFAULT_RETENTION_SECONDS,
  checkAction,
  checkSeconds,
  checkTime,
  storageKey,
  type RateLimitAttempt,
  type RateLimitCount,
  type RateLimitCounting,
  type RateLimitReservation,
  type RateLimitStore,
} from './stores.js';

export interface DatabaseRateLimitStoreOptions {
  /** The database holding `auth_rate_limit_attempts`; by default the application's (getDatabase(), read at each call). */
  database?: Database;
  /** Attempts older than this (seconds) are deleted now and then by `record` (default one day). */
  retentionSeconds?: number;
  /** Seconds between two of those clean-ups by one store (default 600). */
  purgeEverySeconds?: number;
}

const TABLE = 'auth_rate_limit_attempts';
bookkeepingTable(TABLE);
const log = getLogger('fw.auth');

/**
 * Attempts in the table `auth_rate_limit_attempts` (created by `fw auth:init` + `fw db:apply`), on MariaDB or
 * SQLite: every process on the database sees the same counts, so limits hold across processes.
 * `created_at` is UTC with milliseconds (`DATETIME(3)` on MariaDB, `YYYY-MM-DD HH:MM:SS.mmm` text on SQLite).
 */
export class DatabaseRateLimitStore implements RateLimitStore {
  readonly retentionSeconds: number;
  readonly purgeEverySeconds: number;
  readonly #database: Database | undefined;
  #lastPurgeAt = -Infinity;

  constructor(options: DatabaseRateLimitStoreOptions = {}) {
    this.#database = options.database;
    this.retentionSeconds = options.retentionSeconds ?? DEFAULT_RETENTION_SECONDS;
    this.purgeEverySeconds = options.purgeEverySeconds ?? 600;
    checkSeconds('retentionSeconds', this.retentionSeconds);
    checkSeconds('purgeEverySeconds', this.purgeEverySeconds);
  }

  get database(): Database {
    return this.#database ?? getDatabase();
  }

  /** Runs a statement; a missing table becomes an error that says how to create it. */
  async #query<T>(run: (database: Database) => Promise<T>): Promise<T> {
    const database = this.database;
    try {
      return await run(database);
    } catch (err) {
      throw missingTable(err, database) ?? err;
    }
  }

  async record(attempt: RateLimitAttempt): Promise<void> {
    await this.#insert(attempt);
  }

  /**
   * Insert, then count: the counted attempts of the window whose id is not above this one's. Ids grow with
   * insertions, so of concurrent requests (in any process) each counts those inserted before it, and itself.
   */
  async reserve(attempt: RateLimitAttempt, windowSeconds: number, counting: RateLimitCounting = 'failures'): Promise<RateLimitReservation> {
    const at = checkTime(attempt.at);
    const id = await this.#insert({ ...attempt, success: counting === 'hits' && attempt.success, at });
    const { where, params } = windowFilter(attempt.action, attempt.key, windowSeconds, counting, at);
    const row = await this.#query((db) => db.fetchOne<{ n: unknown }>(`SELECT COUNT(*) AS n FROM ${TABLE} WHERE ${where} AND id <= ?`, [...params, id]));
    return { reference: id, count: Math.max(Number(row?.n ?? 0), 1) };
  }

  async settle(reference: unknown, outcome: 'success' | 'cancel'): Promise<void> {
    if (typeof reference !== 'number' || !Number.isSafeInteger(reference) || reference <= 0) return;
    await this.#query((db) =>
      outcome === 'success'
        ? db.execute(`UPDATE ${TABLE} SET success = 1 WHERE id = ?`, [reference])
        : db.execute(`DELETE FROM ${TABLE} WHERE id = ?`, [reference]),
    );
  }

  /** Inserts the attempt; its id. */
  async #insert(attempt: RateLimitAttempt): Promise<number> {
    checkAction(attempt.action);
    const at = checkTime(attempt.at);
    const ip = typeof attempt.ip === 'string' && attempt.ip !== '' ? attempt.ip.slice(0, 45) : null;
    const userId = Number.isSafeInteger(attempt.userId) && attempt.userId! >= 0 ? attempt.userId! : null;
    const id = await this.#query((db) =>
      db.insert(`INSERT INTO ${TABLE} (action, rate_key, ip_address, user_id, success, created_at) VALUES (?, ?, ?, ?, ?, ?)`, [
        attempt.action,
        storageKey(attempt.key),
        ip,
        userId,
        attempt.success === true ? 1 : 0,
        formatTime(at),
      ]),
    );
    if (at - this.#lastPurgeAt >= this.purgeEverySeconds * 1000) {
      this.#lastPurgeAt = at;
      try {
        await this.purge(this.retentionSeconds, at);
      } catch (err) {
        // The attempt is recorded; the clean-up is tried again later.
        log.warning(`Nettoyage de ${TABLE} impossible : ${(err as Error)?.message ?? String(err)}`);
      }
    }
    return id;
  }

  async failures(action: string, key: string, windowSeconds: number, now?: number): Promise<RateLimitCount> {
    return this.#count(action, key, windowSeconds, 'failures', now);
  }

  async hits(action: string, key: string, windowSeconds: number, now?: number): Promise<RateLimitCount> {
    return this.#count(action, key, windowSeconds, 'hits', now);
  }

  async nthAttemptAt(action: string, key: string, windowSeconds: number, counting: RateLimitCounting, index: number, now?: number): Promise<number | null> {
    const { where, params } = windowFilter(action, key, windowSeconds, counting, now);
    if (!Number.isSafeInteger(index) || index < 0) return null;
    const row = await this.#query((db) =>
      db.fetchOne<{ created_at: unknown }>(`SELECT created_at FROM ${TABLE} WHERE ${where} ORDER BY created_at, id LIMIT 1 OFFSET ?`, [...params, index]),
    );
    return row ? parseTime(row.created_at) : null;
  }

  async clearFailures(action: string, key: string): Promise<void> {
    checkAction(action);
    await this.#query((db) => db.execute(`DELETE FROM ${TABLE} WHERE action = ? AND rate_key = ? AND success = 0`, [action, storageKey(key)]));
  }

  async purge(olderThanSeconds: number, now?: number): Promise<number> {
    const cutoff = checkTime(now) - checkSeconds('olderThanSeconds', olderThanSeconds);
    return this.#query((db) => db.execute(`DELETE FROM ${TABLE} WHERE created_at < ?`, [formatTime(cutoff)]));
  }

  async #count(action: string, key: string, windowSeconds: number, counting: RateLimitCounting, now: number | undefined): Promise<RateLimitCount> {
    const { where, params } = windowFilter(action, key, windowSeconds, counting, now);
    const row = await this.#query((db) =>
      db.fetchOne<{ n: unknown; oldest: unknown }>(`SELECT COUNT(*) AS n, MIN(created_at) AS oldest FROM ${TABLE} WHERE ${where}`, params),
    );
    const count = Number(row?.n ?? 0);
    return { count, oldestAt: count > 0 ? parseTime(row?.oldest) : null };
  }
}

/** The error to throw instead of `err` when it says that the table does not exist (SQLite, MariaDB), else null. */
function missingTable(err: unknown, database: Database): Error | null {
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  const text = String(message ?? '');
  if (code !== 'ER_NO_SUCH_TABLE' && !text.includes(`no such table: ${TABLE}`)) return null;
  return new Error(
    `La table ${TABLE} n'existe pas (${database.describe()}) : RATE_LIMIT_STORE=database compte les tentatives dans cette table. ` +
      'Créez-la avec « fw auth:init » puis « fw db:apply », ou choisissez RATE_LIMIT_STORE=memory.',
    { cause: err },
  );
}

/** The WHERE clause of a window: the index (action, rate_key, created_at) serves it. */
function windowFilter(
  action: string,
  key: string,
  windowSeconds: number,
  counting: RateLimitCounting,
  now: number | undefined,
): { where: string; params: unknown[] } {
  checkAction(action);
  const since = checkTime(now) - checkSeconds('windowSeconds', windowSeconds);
  const where = `action = ? AND rate_key = ? AND created_at > ?${counting === 'failures' ? ' AND success = 0' : ''}`;
  return { where, params: [action, storageKey(key), formatTime(since)] };
}

/** `YYYY-MM-DD HH:MM:SS.mmm` in UTC: sorts as text on SQLite, read as DATETIME(3) by MariaDB. */
export function formatTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 23).replace('T', ' ');
}

/** The epoch milliseconds of a `created_at` read back (text on both dialects; a Date if a driver made one). */
function parseTime(value: unknown): number | null {
  if (value instanceof Date) return value.getTime();
  if (typeof value !== 'string') return null;
  const ms = Date.parse(`${value.trim().replace(' ', 'T')}Z`);
  return Number.isNaN(ms) ? null : ms;
}
