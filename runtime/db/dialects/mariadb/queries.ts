/**
 * The SQL of the runtime's own queries on MariaDB (runtime/db/dialect.ts `DialectQueries`): its utf8mb4_unicode_ci
 * collation already searches, compares and sorts text as the list pages want, so they keep their plain form.
 */
import type { DialectQueries } from '../../dialect.js';

export const mariadbQueries: DialectQueries = {
  textEquals: () => null,
  textSearch: () => null,
  textSortKey: (column) => column,
  decimalSortKey: (column) => column,
  keysJoin: 'JOIN',
  lockRows: ' FOR UPDATE',
  upsert: (insert, _key, update) => `${insert} ON DUPLICATE KEY UPDATE ${update.map((column) => `${column} = VALUES(${column})`).join(', ')}`,
};
