// The compiler's reserved words checked against the real MariaDB server: every keyword the server lists
// (information_schema.KEYWORDS, MariaDB 10.6+) that it refuses as an unquoted table or column name must be
// refused by the compiler. The server only parses the statements (PREPARE): nothing is created in the scratch
// database, which is dropped afterwards.
import { randomBytes } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MARIADB_ADMIN as MARIADB } from './helpers/cli.js';
import { isReservedWord, RESERVED_WORDS } from '../compiler/index.js';
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

test('every keyword the server refuses as a table or column name is a reserved word for the compiler', async () => {
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
        // Without the server's list (before 10.6), the compiler's own words and the ones it once missed are probed.
        const candidates = listed
          ? (await connection.fetchAll<{ word: string }>('SELECT WORD AS word FROM information_schema.KEYWORDS')).map((row) => row.word)
          : [...RESERVED_WORDS, 'PORTION', 'MASTER_DEMOTE_TO_REPLICA', 'MASTER_DEMOTE_TO_SLAVE'];
        const words = [...new Set(candidates.map((word) => word.toUpperCase()))].filter((word) => /^[A-Z_][A-Z0-9_]*$/.test(word)).sort();
        const reserved: string[] = [];
        for (const word of words) {
          if ((await refusedByParser(connection, `CREATE TABLE ${word} (a INT)`)) || (await refusedByParser(connection, `CREATE TABLE t (a INT, ${word} INT)`))) {
            reserved.push(word);
          }
        }
        // The probe works: plain words pass, reserved ones do not.
        assert.not.ok(await refusedByParser(connection, 'CREATE TABLE contact (nom INT)'));
        for (const word of ['SELECT', 'ORDER', 'PORTION']) assert.ok(reserved.includes(word), `${word} should be refused by the server`);
        assert.equal(reserved.filter((word) => !isReservedWord(word)), [], 'reserved by the server but accepted by the compiler');
        for (const word of reserved) assert.ok(isReservedWord(word.toLowerCase()), word);
      });
    } finally {
      await db.close();
    }
  } finally {
    await server.execute(`DROP DATABASE IF EXISTS \`${scratch}\``).finally(() => server.close());
  }
});

test.run();
