/**
 * A dialect is a small interface of factories (STYLE.md example 2, after Kysely's `Dialect`): each dialect file
 * (`mariadb.ts`, `sqlite.ts`) implements it, and `database.ts` holds everything they share. Kysely carries the
 * driver, the pool and the single-connection scopes; the native driver is imported only when the first query
 * runs, so an application on one dialect never loads the other's.
 */
import type { CompiledQuery, Dialect as KyselyDialect } from 'kysely';
import type { DriverValue } from './params.js';

export type DialectName = 'sqlite' | 'mariadb';

export const DIALECT_NAMES: readonly DialectName[] = ['sqlite', 'mariadb'];

export interface Dialect {
  readonly name: DialectName;
  /** The Kysely dialect (driver and pool) for this target; no connection is opened before the first query. */
  createKyselyDialect(): KyselyDialect;
  /** Turns SQL with `?` placeholders and converted values into the query the driver runs. */
  compile(sql: string, params: readonly DriverValue[]): CompiledQuery;
  /** Opens a transaction on the current connection (SQLite takes the write lock at once: `BEGIN IMMEDIATE`). */
  readonly beginTransactionSql: string;
  /**
   * Translates a driver error into `DuplicateError` or `DatabaseUnavailableError` (with the target and the
   * settings to check), or returns it unchanged.
   */
  translateError(error: unknown): unknown;
  /** The target as shown in messages: `MariaDB 127.0.0.1:3306/base` or `SQLite /path/file.sqlite`. */
  describe(): string;
}
