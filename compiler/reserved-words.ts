/**
 * SQL reserved words refused as entity, table, field, column and pivot names (docs/decisions.md#reserved-words): a name is refused only when a supported server refuses it unquoted, MariaDB 10.6+ or
 * MySQL 8.0 (docs/entities.md "Reserved words").
 * - MariaDB: the words of its "Reserved Words" list that a MariaDB 10.11 server refuses as an unquoted table or
 *   column name; test/compiler-reserved-words-server.test.ts asks the server about every keyword it knows.
 * - MySQL 8.0: its published reserved words (mysql-reserved-words.ts).
 * Keywords that both accept (POSITION, USER, GENERAL, SLOW, …) are valid names; POSITION is refused as a table
 * name only (isReservedTableName). Words reserved only under
 * `sql_mode=ORACLE` are left out: they are legal identifiers in the default mode.
 */
import { MYSQL80_RESERVED_WORDS } from './mysql-reserved-words.js';

// A word list, kept in lines of similar words rather than one word per line:
// prettier-ignore
const MARIADB_RESERVED_WORDS = [
  'ACCESSIBLE', 'ADD', 'ALL', 'ALTER', 'ANALYZE', 'AND', 'AS', 'ASC', 'ASENSITIVE',
  'BEFORE', 'BETWEEN', 'BIGINT', 'BINARY', 'BLOB', 'BOTH', 'BY',
  'CALL', 'CASCADE', 'CASE', 'CHANGE', 'CHAR', 'CHARACTER', 'CHECK', 'COLLATE', 'COLUMN', 'CONDITION',
  'CONSTRAINT', 'CONTINUE', 'CONVERT', 'CREATE', 'CROSS', 'CURRENT_DATE', 'CURRENT_ROLE', 'CURRENT_TIME',
  'CURRENT_TIMESTAMP', 'CURRENT_USER', 'CURSOR',
  'DATABASES', 'DAY_HOUR', 'DAY_MICROSECOND', 'DAY_MINUTE', 'DAY_SECOND', 'DEC', 'DECIMAL',
  'DECLARE', 'DEFAULT', 'DELAYED', 'DELETE', 'DELETE_DOMAIN_ID', 'DESC', 'DESCRIBE', 'DETERMINISTIC',
  'DISTINCT', 'DISTINCTROW', 'DIV', 'DO_DOMAIN_IDS', 'DOUBLE', 'DROP', 'DUAL',
  'EACH', 'ELSE', 'ELSEIF', 'ENCLOSED', 'ESCAPED', 'EXCEPT', 'EXISTS', 'EXIT', 'EXPLAIN',
  'FALSE', 'FETCH', 'FLOAT', 'FLOAT4', 'FLOAT8', 'FOR', 'FORCE', 'FOREIGN', 'FROM', 'FULLTEXT',
  'GRANT', 'GROUP',
  'HAVING', 'HIGH_PRIORITY', 'HOUR_MICROSECOND', 'HOUR_MINUTE', 'HOUR_SECOND',
  'IF', 'IGNORE', 'IGNORE_DOMAIN_IDS', 'IN', 'INDEX', 'INFILE', 'INNER', 'INOUT',
  'INSENSITIVE', 'INSERT', 'INT', 'INT1', 'INT2', 'INT3', 'INT4', 'INT8', 'INTEGER', 'INTERSECT', 'INTERVAL',
  'INTO', 'IS', 'ITERATE',
  'JOIN',
  'KEY', 'KEYS', 'KILL',
  'LEADING', 'LEAVE', 'LEFT', 'LIKE', 'LIMIT', 'LINEAR', 'LINES', 'LOAD', 'LOCALTIME', 'LOCALTIMESTAMP',
  'LOCK', 'LONG', 'LONGBLOB', 'LONGTEXT', 'LOOP', 'LOW_PRIORITY',
  'MASTER_DEMOTE_TO_REPLICA', 'MASTER_DEMOTE_TO_SLAVE', 'MASTER_SSL_VERIFY_SERVER_CERT',
  'MATCH', 'MAXVALUE', 'MEDIUMBLOB', 'MEDIUMINT',
  'MEDIUMTEXT', 'MIDDLEINT', 'MINUTE_MICROSECOND', 'MINUTE_SECOND', 'MOD', 'MODIFIES',
  'NATURAL', 'NOT', 'NO_WRITE_TO_BINLOG', 'NULL', 'NUMERIC',
  'OFFSET', 'ON', 'OPTIMIZE', 'OPTIONALLY', 'OR', 'ORDER', 'OUT', 'OUTER', 'OUTFILE', 'OVER',
  'PAGE_CHECKSUM', 'PARSE_VCOL_EXPR', 'PARTITION', 'PORTION', 'PRECISION', 'PRIMARY', 'PROCEDURE',
  'PURGE',
  'RANGE', 'READ', 'READS', 'READ_WRITE', 'REAL', 'RECURSIVE', 'REF_SYSTEM_ID', 'REFERENCES', 'REGEXP',
  'RELEASE', 'RENAME', 'REPEAT', 'REPLACE', 'REQUIRE', 'RESIGNAL', 'RESTRICT', 'RETURN', 'RETURNING',
  'REVOKE', 'RIGHT', 'RLIKE', 'ROW_NUMBER', 'ROWS',
  'SCHEMAS', 'SECOND_MICROSECOND', 'SELECT', 'SENSITIVE', 'SEPARATOR', 'SET', 'SHOW', 'SIGNAL',
  'SMALLINT', 'SPATIAL', 'SPECIFIC', 'SQL', 'SQLEXCEPTION', 'SQLSTATE', 'SQLWARNING', 'SQL_BIG_RESULT',
  'SQL_CALC_FOUND_ROWS', 'SQL_SMALL_RESULT', 'SSL', 'STARTING', 'STATS_AUTO_RECALC', 'STATS_PERSISTENT',
  'STATS_SAMPLE_PAGES', 'STRAIGHT_JOIN',
  'TABLE', 'TERMINATED', 'THEN', 'TINYBLOB', 'TINYINT', 'TINYTEXT', 'TO', 'TRAILING', 'TRIGGER', 'TRUE',
  'UNDO', 'UNION', 'UNIQUE', 'UNLOCK', 'UNSIGNED', 'UPDATE', 'USAGE', 'USE', 'USING', 'UTC_DATE', 'UTC_TIME',
  'UTC_TIMESTAMP',
  'VALUES', 'VARBINARY', 'VARCHAR', 'VARCHARACTER', 'VARYING',
  'WHEN', 'WHERE', 'WHILE', 'WITH', 'WRITE',
  'XOR',
  'YEAR_MONTH',
  'ZEROFILL',
  '_FILENAME',
] as const;

/** Every refused word, upper-case: MariaDB's and MySQL 8.0's. */
export const RESERVED_WORDS: ReadonlySet<string> = new Set<string>([...MARIADB_RESERVED_WORDS, ...MYSQL80_RESERVED_WORDS]);

/**
 * Function names that MariaDB refuses as a table name followed by `(` when spaces may follow a function name
 * (IGNORE_SPACE, which the mysql2 client sets): `CREATE TABLE position (…)`, `INSERT INTO position (…)`. They stay
 * valid field and column names. The other such names (RANK, LAG, …) are MySQL 8.0 reserved words anyway.
 */
const TABLE_ONLY_WORDS: ReadonlySet<string> = new Set(['POSITION']);

/** True when `name` is a refused SQL word, compared case-insensitively (`Order`, `group`, `Rank`). */
export function isReservedWord(name: string): boolean {
  return RESERVED_WORDS.has(name.toUpperCase());
}

/** True when `name` cannot be a table name: a reserved word, or POSITION (see TABLE_ONLY_WORDS). */
export function isReservedTableName(name: string): boolean {
  return isReservedWord(name) || TABLE_ONLY_WORDS.has(name.toUpperCase());
}
