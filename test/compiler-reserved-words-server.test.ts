// The compiler's reserved words checked against the real MariaDB server and MySQL 8.0's published list (docs/decisions.md
// #reserved-words, docs/entities.md "Reserved words"): a word is refused exactly when MariaDB refuses it as an unquoted table or
// column name or MySQL 8.0 reserves it. Every keyword the server lists (information_schema.KEYWORDS, MariaDB
// 10.6+), every word of MySQL's list and every word the compiler refuses is asked. The server only parses the
// statements (PREPARE): nothing is created in the scratch database, which is dropped afterwards.
import { randomBytes } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MARIADB_ADMIN as MARIADB } from './helpers/cli.js';
import { isReservedTableName, isReservedWord, MYSQL80_RESERVED_WORDS, RESERVED_WORDS } from '../compiler/index.js';
import { openDatabase, type Connection } from '../runtime/db/index.js';

const PARSE_ERROR = 1064;

/** True when the server cannot parse `sql`; any other failure is unexpected and thrown. */
async function refusedByParser(connection: Connection, sql: string): Promise<boolean> {
  try {
    await connection.execute('PREPARE fw_reserved_probe FROM ?', [sql]);
    await connection.execute('DEALLOCATE PREPARE fw_reserved_probe');
    return false;
  } catch (error) {
    if ((error as { errno?: unknown }).errno === PARSE_ERROR) return true;
    throw error;
  }
}

/** The words `connection`'s server refuses as a table name and as a column name, among `words`. */
async function refusedByServer(connection: Connection, words: readonly string[]): Promise<{ tables: Set<string>; columns: Set<string> }> {
  const tables = new Set<string>();
  const columns = new Set<string>();
  for (const word of words) {
    if (await refusedByParser(connection, `CREATE TABLE ${word} (a INT)`)) tables.add(word);
    if (await refusedByParser(connection, `CREATE TABLE t (a INT, ${word} INT)`)) columns.add(word);
  }
  return { tables, columns };
}

test('a word is refused exactly when MariaDB refuses it unquoted or MySQL 8.0 reserves it', async () => {
  const scratch = `audit_rw_${randomBytes(5).toString('hex')}`;
  const server = openDatabase({ driver: 'mariadb', ...MARIADB, poolSize: 1 });
  try {
    await server.execute(`CREATE DATABASE \`${scratch}\``);
    const db = openDatabase({ driver: 'mariadb', ...MARIADB, database: scratch, poolSize: 1 });
    try {
      await db.withConnection(async (connection) => {
        const listed = await connection.fetchOne(
          "SELECT 1 AS found FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'information_schema' AND TABLE_NAME = 'KEYWORDS'",
        );
        const keywords = listed
          ? (await connection.fetchAll<{ word: string }>('SELECT WORD AS word FROM information_schema.KEYWORDS')).map((row) => row.word)
          : [];
        const candidates = [...keywords, ...RESERVED_WORDS, ...MYSQL80_RESERVED_WORDS, 'POSITION', 'USER', 'PORTION', 'MASTER_DEMOTE_TO_REPLICA'];
        const words = [...new Set(candidates.map((word) => word.toUpperCase()))].filter((word) => /^[A-Z_][A-Z0-9_]*$/.test(word)).sort();
        // The session is the framework's own (mysql2 sets IGNORE_SPACE): `CREATE TABLE position (` reads as a call.
        const mariadb = await refusedByServer(connection, words);
        const mysql = new Set(MYSQL80_RESERVED_WORDS);

        // The probe works: plain words and nonreserved keywords pass, reserved ones do not.
        assert.not.ok(await refusedByParser(connection, 'CREATE TABLE contact (nom INT)'));
        for (const word of ['SELECT', 'ORDER', 'PORTION']) assert.ok(mariadb.columns.has(word), `${word} should be refused by the server`);
        for (const word of ['POSITION', 'USER']) assert.not.ok(mariadb.columns.has(word), `${word} should be accepted by the server as a column`);

        const refusedWithoutReason = words.filter(
          (word) => isReservedWord(word) && !mariadb.columns.has(word) && !mariadb.tables.has(word) && !mysql.has(word),
        );
        assert.equal(refusedWithoutReason, [], 'refused by the compiler, yet accepted by MariaDB and not reserved by MySQL 8.0');
        const acceptedWrongly = words.filter((word) => !isReservedWord(word) && (mariadb.columns.has(word) || mysql.has(word)));
        assert.equal(acceptedWrongly, [], 'accepted by the compiler, yet refused by MariaDB or reserved by MySQL 8.0');
        const tablesAcceptedWrongly = words.filter((word) => !isReservedTableName(word) && mariadb.tables.has(word));
        assert.equal(tablesAcceptedWrongly, [], 'accepted by the compiler as a table name, yet refused by MariaDB');
        const tablesRefusedWithoutReason = words.filter((word) => isReservedTableName(word) && !isReservedWord(word) && !mariadb.tables.has(word));
        assert.equal(tablesRefusedWithoutReason, [], 'refused by the compiler as a table name only, yet accepted by MariaDB');
        for (const word of RESERVED_WORDS) assert.ok(isReservedWord(word.toLowerCase()), word);
      });
    } finally {
      await db.close();
    }
  } finally {
    await server.execute(`DROP DATABASE IF EXISTS \`${scratch}\``).finally(() => server.close());
  }
});

test('position (a column of the media table) and user are valid names; MySQL-only words such as rank are not', () => {
  for (const name of ['position', 'Position', 'user', 'general', 'slow']) assert.not.ok(isReservedWord(name), name);
  assert.ok(isReservedTableName('position'), 'position cannot be a table name (IGNORE_SPACE)');
  assert.not.ok(isReservedTableName('user'));
  for (const name of ['rank', 'row', 'system', 'window', 'database', 'option', 'order']) assert.ok(isReservedWord(name), name);
});

test.run();
