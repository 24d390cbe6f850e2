/**
 * A dialect is a small interface of factories (docs/architecture.md "Dialects", after Kysely's `Dialect`): each dialect file
 * (`mariadb.ts`, `sqlite.ts`) implements it, and `database.ts` holds everything they share. Kysely carries the
 * driver, the pool and the single-connection scopes. Kysely itself (about a thousand modules, 140 ms and 12 MB
 * to load) and the native driver are imported only when the first query runs: an application that has not
 * touched its database yet carries neither, and one on one dialect never loads the other's driver.
 */
import type { Dialect as KyselyDialect } from 'kysely';

export type DialectName = 'sqlite' | 'mariadb';

export const DIALECT_NAMES: readonly DialectName[] = ['sqlite', 'mariadb'];

/** The kysely module, loaded on first use and handed to the dialect's factory. */
export type KyselyModule = typeof import('kysely');

export interface Dialect {
  readonly name: DialectName;
  /** The Kysely dialect (driver and pool) for this target, built with the loaded `kysely` module. */
  createKyselyDialect(kysely: KyselyModule): KyselyDialect;
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
