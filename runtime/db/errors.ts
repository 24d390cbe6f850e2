/**
 * Errors of the database layer (docs/api-mapping.md "Database (`core.database.db`)"; `DoublonError` → `DuplicateError`,
 * docs/decisions.md#names-in-typescript).
 */

/**
 * A unique or primary-key violation (MariaDB errno 1062, SQLite `SQLITE_CONSTRAINT_UNIQUE` / `_PRIMARYKEY`).
 * `constraint` is what the server names: the key on MariaDB (`email`, `PRIMARY`; an inline UNIQUE key takes
 * the name of its column), `table.column[, table.column]` on SQLite. `columns` holds the column names when the
 * server gives them (SQLite), or the key name otherwise, `PRIMARY` aside.
 */
export class DuplicateError extends Error {
  override readonly name = 'DuplicateError';

  constructor(
    readonly constraint: string | null,
    readonly columns: readonly string[],
    options?: { cause?: unknown },
  ) {
    super(
      constraint ? `Doublon : la valeur existe déjà (contrainte d'unicité « ${constraint} »).` : "Doublon : la valeur existe déjà (contrainte d'unicité).",
      options,
    );
  }
}

/**
 * A foreign key refused the statement (MariaDB errno 1451/1217 and 1452/1216, SQLite `SQLITE_CONSTRAINT_FOREIGNKEY`).
 * `referenced` is true when a row could not be deleted or changed because other rows still refer to it (ON DELETE
 * RESTRICT or NO ACTION), false when a value refers to a row that does not exist, null when the server does not
 * say (SQLite). `table` and `constraint` are what MariaDB names (the referencing table, the key), null on SQLite.
 */
export class ForeignKeyError extends Error {
  override readonly name = 'ForeignKeyError';

  constructor(
    readonly referenced: boolean | null,
    readonly table: string | null,
    readonly constraint: string | null,
    options?: { cause?: unknown },
  ) {
    // The server's own words follow, as they name what failed more precisely than we can.
    const server = options?.cause instanceof Error ? ` (${options.cause.message})` : '';
    super(
      referenced === false
        ? `Clé étrangère : la valeur ne correspond à aucun enregistrement.${server}`
        : referenced === true
          ? `Clé étrangère : d'autres enregistrements${table ? ` de « ${table} »` : ''} font encore référence à celui-ci.${server}`
          : `Clé étrangère : contrainte non respectée.${server}`,
      options,
    );
  }
}

/**
 * Why a database cannot be used: the server is not reachable, refuses the account, or lacks the base
 * (`cannot-open` for a SQLite file); or it did not answer in time (docs/runtime.md "Database time-outs"):
 * no free connection of the pool within `db_pool_wait_ms` (`pool-timeout`), no answer to a statement within
 * `db_query_timeout_ms` (`query-timeout`), a SQLite file still locked by another process after
 * `db_busy_timeout_ms` (`locked`).
 */
export type UnavailableReason = 'unreachable' | 'access-denied' | 'unknown-database' | 'cannot-open' | 'pool-timeout' | 'query-timeout' | 'locked';

/**
 * The database cannot be reached, opened or did not answer in time. `summary` says what failed (host:port or
 * file), `advice` which settings to check; `message` holds both. Raised after a configured time-out at worst,
 * never a hang. The HTTP layer answers it with 503 and `Retry-After`.
 */
export class DatabaseUnavailableError extends Error {
  override readonly name = 'DatabaseUnavailableError';

  constructor(
    readonly reason: UnavailableReason,
    readonly summary: string,
    readonly advice: string,
    options?: { cause?: unknown },
  ) {
    super(`${capitalize(summary)} ${capitalize(advice)}`, options);
  }
}

/** A SQL query file of `loadQueries` is missing or malformed; `file` is its absolute path. */
export class QueryFileError extends Error {
  override readonly name = 'QueryFileError';

  constructor(
    readonly file: string,
    message: string,
  ) {
    super(message);
  }
}

/** A value given as a `?` parameter that the layer does not know how to send, or a placeholder count mismatch. */
export class QueryParameterError extends TypeError {
  override readonly name = 'QueryParameterError';
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
