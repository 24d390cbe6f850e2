/**
 * SQL reserved words refused as entity, table, field, column and pivot names (spec "Entity definition",
 * naming rules). The list is MariaDB's reserved words (KB "Reserved Words", 10.x/11.x), in upper case, checked
 * against a MariaDB 10.11 server: every word of information_schema.KEYWORDS that the server refuses as an
 * unquoted table or column name is here (test/compiler-reserved-words-server.test.ts keeps it so).
 * A few words of the KB list that 10.11 accepts (DATABASE, SCHEMA, OPTION, POSITION, WINDOW, GENERAL, SLOW,
 * IGNORE_SERVER_IDS, MASTER_HEARTBEAT_PERIOD) are kept: other supported servers (MySQL 8, other MariaDB
 * versions) reserve them. Words reserved only under `sql_mode=ORACLE` are left out: they are legal identifiers
 * in the default mode.
 */

const MARIADB_RESERVED_WORDS = [
  'ACCESSIBLE', 'ADD', 'ALL', 'ALTER', 'ANALYZE', 'AND', 'AS', 'ASC', 'ASENSITIVE',
  'BEFORE', 'BETWEEN', 'BIGINT', 'BINARY', 'BLOB', 'BOTH', 'BY',
  'CALL', 'CASCADE', 'CASE', 'CHANGE', 'CHAR', 'CHARACTER', 'CHECK', 'COLLATE', 'COLUMN', 'CONDITION',
  'CONSTRAINT', 'CONTINUE', 'CONVERT', 'CREATE', 'CROSS', 'CURRENT_DATE', 'CURRENT_ROLE', 'CURRENT_TIME',
  'CURRENT_TIMESTAMP', 'CURRENT_USER', 'CURSOR',
  'DATABASE', 'DATABASES', 'DAY_HOUR', 'DAY_MICROSECOND', 'DAY_MINUTE', 'DAY_SECOND', 'DEC', 'DECIMAL',
  'DECLARE', 'DEFAULT', 'DELAYED', 'DELETE', 'DELETE_DOMAIN_ID', 'DESC', 'DESCRIBE', 'DETERMINISTIC',
  'DISTINCT', 'DISTINCTROW', 'DIV', 'DO_DOMAIN_IDS', 'DOUBLE', 'DROP', 'DUAL',
  'EACH', 'ELSE', 'ELSEIF', 'ENCLOSED', 'ESCAPED', 'EXCEPT', 'EXISTS', 'EXIT', 'EXPLAIN',
  'FALSE', 'FETCH', 'FLOAT', 'FLOAT4', 'FLOAT8', 'FOR', 'FORCE', 'FOREIGN', 'FROM', 'FULLTEXT',
  'GENERAL', 'GRANT', 'GROUP',
  'HAVING', 'HIGH_PRIORITY', 'HOUR_MICROSECOND', 'HOUR_MINUTE', 'HOUR_SECOND',
  'IF', 'IGNORE', 'IGNORE_DOMAIN_IDS', 'IGNORE_SERVER_IDS', 'IN', 'INDEX', 'INFILE', 'INNER', 'INOUT',
  'INSENSITIVE', 'INSERT', 'INT', 'INT1', 'INT2', 'INT3', 'INT4', 'INT8', 'INTEGER', 'INTERSECT', 'INTERVAL',
  'INTO', 'IS', 'ITERATE',
  'JOIN',
  'KEY', 'KEYS', 'KILL',
  'LEADING', 'LEAVE', 'LEFT', 'LIKE', 'LIMIT', 'LINEAR', 'LINES', 'LOAD', 'LOCALTIME', 'LOCALTIMESTAMP',
  'LOCK', 'LONG', 'LONGBLOB', 'LONGTEXT', 'LOOP', 'LOW_PRIORITY',
  'MASTER_DEMOTE_TO_REPLICA', 'MASTER_DEMOTE_TO_SLAVE', 'MASTER_HEARTBEAT_PERIOD', 'MASTER_SSL_VERIFY_SERVER_CERT',
  'MATCH', 'MAXVALUE', 'MEDIUMBLOB', 'MEDIUMINT',
  'MEDIUMTEXT', 'MIDDLEINT', 'MINUTE_MICROSECOND', 'MINUTE_SECOND', 'MOD', 'MODIFIES',
  'NATURAL', 'NOT', 'NO_WRITE_TO_BINLOG', 'NULL', 'NUMERIC',
  'OFFSET', 'ON', 'OPTIMIZE', 'OPTION', 'OPTIONALLY', 'OR', 'ORDER', 'OUT', 'OUTER', 'OUTFILE', 'OVER',
  'PAGE_CHECKSUM', 'PARSE_VCOL_EXPR', 'PARTITION', 'PORTION', 'POSITION', 'PRECISION', 'PRIMARY', 'PROCEDURE',
  'PURGE',
  'RANGE', 'READ', 'READS', 'READ_WRITE', 'REAL', 'RECURSIVE', 'REF_SYSTEM_ID', 'REFERENCES', 'REGEXP',
  'RELEASE', 'RENAME', 'REPEAT', 'REPLACE', 'REQUIRE', 'RESIGNAL', 'RESTRICT', 'RETURN', 'RETURNING',
  'REVOKE', 'RIGHT', 'RLIKE', 'ROW_NUMBER', 'ROWS',
  'SCHEMA', 'SCHEMAS', 'SECOND_MICROSECOND', 'SELECT', 'SENSITIVE', 'SEPARATOR', 'SET', 'SHOW', 'SIGNAL',
  'SLOW', 'SMALLINT', 'SPATIAL', 'SPECIFIC', 'SQL', 'SQLEXCEPTION', 'SQLSTATE', 'SQLWARNING', 'SQL_BIG_RESULT',
  'SQL_CALC_FOUND_ROWS', 'SQL_SMALL_RESULT', 'SSL', 'STARTING', 'STATS_AUTO_RECALC', 'STATS_PERSISTENT',
  'STATS_SAMPLE_PAGES', 'STRAIGHT_JOIN',
  'TABLE', 'TERMINATED', 'THEN', 'TINYBLOB', 'TINYINT', 'TINYTEXT', 'TO', 'TRAILING', 'TRIGGER', 'TRUE',
  'UNDO', 'UNION', 'UNIQUE', 'UNLOCK', 'UNSIGNED', 'UPDATE', 'USAGE', 'USE', 'USING', 'UTC_DATE', 'UTC_TIME',
  'UTC_TIMESTAMP',
  'VALUES', 'VARBINARY', 'VARCHAR', 'VARCHARACTER', 'VARYING',
  'WHEN', 'WHERE', 'WHILE', 'WINDOW', 'WITH', 'WRITE',
  'XOR',
  'YEAR_MONTH',
  'ZEROFILL',
] as const;

/**
 * Words the spec names as refused although MariaDB itself only treats them as keywords
 * ("SQL reserved words such as order, user, group, select are refused as names").
 */
const SPEC_EXTRA_RESERVED_WORDS = ['USER'] as const;

/** Every refused word, upper-case. */
export const RESERVED_WORDS: ReadonlySet<string> = new Set<string>([...MARIADB_RESERVED_WORDS, ...SPEC_EXTRA_RESERVED_WORDS]);

/** True when `name` is a refused SQL word, compared case-insensitively (`Order`, `group`, `User`). */
export function isReservedWord(name: string): boolean {
  return RESERVED_WORDS.has(name.toUpperCase());
}
