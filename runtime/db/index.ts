/**
 * The database layer of the runtime (docs/api-mapping.md "Database (`core.database.db`)",
 * docs/decisions.md#two-database-dialects).
 */
export {
  Database,
  Connection,
  openDatabase,
  getDatabase,
  closeDatabase,
  databaseOptionsFromConfig,
  fetchOne,
  fetchAll,
  execute,
  insert,
  transaction,
  type Transaction,
  type Queryable,
  type Row,
  type Params,
  type DatabaseOptions,
} from './database.js';
export { DIALECT_NAMES, isDialectName, type Dialect, type DialectName } from './dialect.js';
export { mariadbDialect, type MariaDbOptions } from './dialects/mariadb/driver.js';
export { sqliteDialect, type SqliteOptions } from './dialects/sqlite/driver.js';
export { DuplicateError, ForeignKeyError, DatabaseUnavailableError, QueryFileError, QueryParameterError, type UnavailableReason } from './errors.js';
export { formatUtcDateTime, type DriverValue } from './params.js';
export { loadQueries, loadQueryFile, clearQueryCache, parseQueries, type QueryMap } from './queries.js';
