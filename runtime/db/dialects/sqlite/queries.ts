/**
 * The SQL of the runtime's own queries on SQLite (runtime/db/dialect.ts `DialectQueries`): text searched, compared
 * and sorted as MariaDB's utf8mb4_unicode_ci does through the functions of unicode-ci.ts (docs/crud.md "Search and
 * sort on SQLite"), DECIMAL (declared TEXT) sorted by its value, and the page's keys kept as the outer loop.
 */
import type { DialectQueries } from '../../dialect.js';
import { SQLITE_CONTAINS_FUNCTION, SQLITE_SORT_KEY_FUNCTION, unicodeFold } from './unicode-ci.js';

export const sqliteQueries: DialectQueries = {
  // Trailing spaces ignored, as MariaDB's PAD SPACE collation ignores them.
  textEquals: (column, value) => ({
    sql: `${SQLITE_SORT_KEY_FUNCTION}(RTRIM(${column}, ' ')) = ${SQLITE_SORT_KEY_FUNCTION}(?)`,
    params: [value.replace(/ +$/, '')],
  }),
  // One call per row whatever the number of columns; a substring test, hence `%` and `_` literal.
  textSearch: (q, columns) => ({ sql: `${SQLITE_CONTAINS_FUNCTION}(?, ${columns.join(', ')})`, params: [unicodeFold(q)] }),
  textSortKey: (column) => `${SQLITE_SORT_KEY_FUNCTION}(${column})`,
  decimalSortKey: (column) => `CAST(${column} AS REAL)`,
  // With a plain JOIN its planner may scan the whole table and look each row up among the page's keys.
  keysJoin: 'CROSS JOIN',
  // The transaction already holds the file's write lock.
  lockRows: '',
  upsert: (insert, key, update) =>
    `${insert} ON CONFLICT (${key.join(', ')}) DO UPDATE SET ${update.map((column) => `${column} = excluded.${column}`).join(', ')}`,
};
