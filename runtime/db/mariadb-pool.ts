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
 */
import type { MysqlPool, MysqlPoolConnection, MysqlQueryResult } from 'kysely';
import type { Pool, PoolConnection } from 'mysql2';
import { bindParameters } from './mariadb-binding.js';
import type { DriverValue } from './params.js';

type Callback = (error: unknown, result: MysqlQueryResult) => void;

/** Wraps `pool` so that its connections bind parameters according to their session's sql_mode. */
export function bindingPool(pool: Pool): MysqlPool {
  // Kysely keys its connection state by the object it is given: the same wrapper for the same connection.
  const wrappers = new WeakMap<PoolConnection, MysqlPoolConnection>();
  return {
    getConnection(callback) {
      pool.getConnection((error, connection) => {
        if (error) return callback(error, undefined as unknown as MysqlPoolConnection);
        let wrapper = wrappers.get(connection);
        if (!wrapper) {
          wrapper = bindingConnection(connection);
          wrappers.set(connection, wrapper);
        }
        callback(null, wrapper);
      });
    },
    end(callback) {
      pool.end(callback);
    },
  };
}

const MODE_QUERY = 'SELECT @@SESSION.sql_mode AS mode';
const MENTIONS_SQL_MODE = /sql_mode/i;

function bindingConnection(connection: PoolConnection): MysqlPoolConnection {
  /** The session's NO_BACKSLASH_ESCAPES, unknown until read. */
  let noBackslashEscapes: boolean | undefined;

  const readMode = (then: (error: unknown) => void): void => {
    connection.query(MODE_QUERY, (error: unknown, rows: unknown) => {
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
    connection.query(bound, (error: unknown, result: unknown) => {
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
      connection.release();
    },
  };
}
