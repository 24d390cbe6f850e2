/**
 * The mysql2 pool as Kysely's `MysqlDialect` sees it, with one difference: each connection writes the `?`
 * parameters into the SQL itself (bindParameters), knowing how its session reads string literals.
 *
 * Why not let the server bind them? mysql2's `query(sql, values)` escapes on the client too (with backslashes,
 * whatever the session's mode), and its `execute` (server-side prepared statements) changes result types,
 * refuses some statements and keeps one server statement per distinct SQL per connection, against a global
 * server limit. Binding here keeps the text protocol; the session's `NO_BACKSLASH_ESCAPES` (set by the server's
 * or the session's sql_mode) decides whether `\` must be doubled or is an ordinary character: read once per
 * connection, and read again after a statement that mentions sql_mode.
 *
 * Time limits (docs/runtime.md "Database time-outs"): waiting for a free connection is bounded by `poolWaitMs`
 * (mysql2's pool waits for ever), and each statement by `queryTimeoutMs` (mysql2's per-query `timeout`). A
 * connection whose statement timed out is still busy with it: it is destroyed, never given back to the pool,
 * and the statement is killed on the server by another connection when one can be had.
 */
import type { MysqlPool, MysqlPoolConnection, MysqlQueryResult } from 'kysely';
import type { Pool, PoolConnection } from 'mysql2';
import type { DriverValue } from '../../params.js';
import { countPool, type PoolCounters } from '../../pool-usage.js';
import { bindParameters } from './binding.js';

type Callback = (error: unknown, result: MysqlQueryResult) => void;

/** The error code given when no connection of the pool became free within `poolWaitMs`. */
export const POOL_WAIT_TIMEOUT = 'FW_POOL_WAIT_TIMEOUT';
/** mysql2's code for a statement that got no answer within its `timeout`. */
export const QUERY_TIMEOUT = 'PROTOCOL_SEQUENCE_TIMEOUT';

export interface PoolLimits {
  /** Longest wait for a free connection, in ms; 0 or absent: no limit. */
  readonly poolWaitMs?: number;
  /** Longest wait for a statement's answer, in ms; 0 or absent: no limit. */
  readonly queryTimeoutMs?: number;
  /** The pool's connectionLimit, for its counters (runtime/db/pool-usage.ts). */
  readonly size?: number;
}

/** Wraps `pool` so that its connections bind parameters according to their session's sql_mode. */
export function bindingPool(pool: Pool, limits: PoolLimits = {}): MysqlPool {
  // Kysely keys its connection state by the object it is given: the same wrapper for the same connection.
  const wrappers = new WeakMap<PoolConnection, MysqlPoolConnection>();
  const usage = countPool(limits.size ?? 0);
  const wrap = (connection: PoolConnection): MysqlPoolConnection => {
    let wrapper = wrappers.get(connection);
    if (!wrapper) {
      wrapper = bindingConnection(connection, pool, limits.queryTimeoutMs ?? 0, usage.counters);
      wrappers.set(connection, wrapper);
    }
    return wrapper;
  };
  const waitMs = limits.poolWaitMs ?? 0;
  return {
    getConnection(callback) {
      let timedOut = false;
      usage.counters.waiting++;
      const timer =
        waitMs > 0
          ? setTimeout(() => {
              timedOut = true;
              usage.counters.waiting--;
              const error = Object.assign(new Error(`No free database connection within ${waitMs} ms.`), { code: POOL_WAIT_TIMEOUT });
              callback(error, undefined as unknown as MysqlPoolConnection);
            }, waitMs)
          : undefined;
      pool.getConnection((error, connection) => {
        clearTimeout(timer);
        if (!timedOut) usage.counters.waiting--;
        if (timedOut) {
          // The caller has given up: the connection goes back to the pool for the next one.
          if (!error) connection.release();
          return;
        }
        if (error) return callback(error, undefined as unknown as MysqlPoolConnection);
        usage.counters.inUse++;
        callback(null, wrap(connection));
      });
    },
    end(callback) {
      usage.forget();
      pool.end(callback);
    },
  };
}

const MODE_QUERY = 'SELECT @@SESSION.sql_mode AS mode';
const MENTIONS_SQL_MODE = /sql_mode/i;

function bindingConnection(connection: PoolConnection, pool: Pool, timeout: number, counters: PoolCounters): MysqlPoolConnection {
  /** The session's NO_BACKSLASH_ESCAPES, unknown until read. */
  let noBackslashEscapes: boolean | undefined;
  /** Set when a statement timed out: the connection is destroyed and must not be released. */
  let destroyed = false;

  /** `connection.query` with the time limit; a timed-out statement costs the connection. */
  const send = (sql: string, then: (error: unknown, result: unknown) => void): void => {
    connection.query(timeout > 0 ? { sql, timeout } : { sql }, (error: unknown, result: unknown) => {
      if (!destroyed && (error as { code?: unknown } | null)?.code === QUERY_TIMEOUT) abandon();
      then(error, result);
    });
  };

  const abandon = (): void => {
    destroyed = true;
    const threadId = connection.threadId;
    connection.destroy();
    // Best effort: the server would otherwise run the statement to its end. A stalled server fails this too.
    if (typeof threadId === 'number') pool.query({ sql: `KILL ${threadId}`, timeout: timeout || undefined }, () => {});
  };

  const readMode = (then: (error: unknown) => void): void => {
    send(MODE_QUERY, (error: unknown, rows: unknown) => {
      if (!error) {
        const mode = Array.isArray(rows) ? String((rows[0] as { mode?: unknown } | undefined)?.mode ?? '') : '';
        noBackslashEscapes = mode.split(',').includes('NO_BACKSLASH_ESCAPES');
      }
      then(error);
    });
  };

  const run = (sql: string, parameters: readonly unknown[], callback: Callback): void => {
    let bound: string;
    try {
      bound = bindParameters(sql, parameters as readonly DriverValue[], noBackslashEscapes === true);
    } catch (error) {
      return callback(error, []);
    }
    send(bound, (error: unknown, result: unknown) => {
      // `SET sql_mode = …` (or a routine that sets it) may have changed how literals are read from now on.
      if (MENTIONS_SQL_MODE.test(sql)) noBackslashEscapes = undefined;
      callback(error, result as MysqlQueryResult);
    });
  };

  function query(sql: string, parameters: unknown[]): { stream: never };
  function query(sql: string, parameters: unknown[], callback: Callback): void;
  function query(sql: string, parameters: unknown[], callback?: Callback): { stream: never } | void {
    // Kysely streams only for `.stream()`, which the fw database layer never calls.
    if (!callback) throw new Error('fw-mvc : le flux de résultats (stream) n’est pas pris en charge sur MariaDB.');
    // No value to write: the mode does not matter (and reading it first would cost a round trip).
    if (parameters.length === 0 || noBackslashEscapes !== undefined) return run(sql, parameters, callback);
    readMode((error) => (error ? callback(error, []) : run(sql, parameters, callback)));
  }

  return {
    query,
    release() {
      counters.inUse--;
      if (!destroyed) connection.release();
    },
  };
}
