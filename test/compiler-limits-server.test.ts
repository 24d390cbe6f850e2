// The row size the compiler computes (compiler/limits.ts) is the one a real MariaDB server computes for utf8mb4:
// for each type, a table whose row is exactly 65,535 bytes by the compiler's count is created, and one byte more is
// refused (error 1118). The padding is a latin1 VARCHAR, one byte per character, so that each type is measured to
// the byte. The largest utf8mb4 VARCHAR is measured too. Scratch tables live in a database dropped afterwards.
import { randomBytes } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { analyseSqlType } from '../compiler/sql-types.js';
import { columnBytes, MAX_ROW_BYTES, MAX_VARCHAR_LENGTH, rowBytes } from '../compiler/limits.js';
import { openDatabase, type Database } from '../runtime/db/index.js';
import { MARIADB_ADMIN } from './helpers/cli.js';

const TYPES = [
  'TINYINT',
  'SMALLINT',
  'MEDIUMINT',
  'INT',
  'BIGINT',
  'BOOLEAN',
  'FLOAT',
  'DOUBLE',
  'DECIMAL(10,2)',
  'DECIMAL(5,2)',
  'DECIMAL(18,9)',
  'DECIMAL(65,30)',
  'DATE',
  'TIME',
  'TIME(6)',
  'DATETIME',
  'DATETIME(3)',
  'TIMESTAMP',
  'TIMESTAMP(1)',
  'YEAR',
  'CHAR(10)',
  'VARCHAR(63)',
  'VARCHAR(64)',
  'VARCHAR(1000)',
  'TINYTEXT',
  'TEXT',
  'MEDIUMTEXT',
  'LONGTEXT',
  'JSON',
  'TINYBLOB',
  'BLOB',
  'MEDIUMBLOB',
  'LONGBLOB',
];

const OPTIONS = 'ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci';
const database = `fw_h7_limits_${randomBytes(4).toString('hex')}`;
let db: Database;

function type(text: string) {
  const analysis = analyseSqlType(text);
  if (!analysis.ok) throw new Error(analysis.error);
  return analysis.type;
}

/** Whether the server creates the table; false on the row size error only. */
async function creates(columns: string): Promise<boolean> {
  await db.execute('DROP TABLE IF EXISTS t');
  try {
    await db.execute(`CREATE TABLE t (${columns}) ${OPTIONS}`);
    return true;
  } catch (error) {
    if (/Row size too large|Column length too big/.test(String((error as Error).message))) return false;
    throw error;
  }
}

test.before(async () => {
  const server = openDatabase({ driver: 'mariadb', ...MARIADB_ADMIN, poolSize: 1 });
  await server.execute(`CREATE DATABASE \`${database}\``);
  await server.close();
  db = openDatabase({ driver: 'mariadb', ...MARIADB_ADMIN, database, poolSize: 1 });
});

test.after(async () => {
  await db?.close();
  const server = openDatabase({ driver: 'mariadb', ...MARIADB_ADMIN, poolSize: 1 });
  await server.execute(`DROP DATABASE IF EXISTS \`${database}\``);
  await server.close();
});

test('each type counts in the row what MariaDB counts: an exact row is created, one byte more is refused', async () => {
  for (const text of TYPES) {
    const node = type(text);
    const pad = MAX_ROW_BYTES - columnBytes(node) - 2; // the padding's own 2 length bytes
    const sql = node.text;
    assert.ok(
      await creates(`x ${sql} NOT NULL, pad VARCHAR(${pad}) CHARACTER SET latin1 NOT NULL`),
      `${text} : ${columnBytes(node)} octets, ligne exacte refusée`,
    );
    assert.not.ok(await creates(`x ${sql} NOT NULL, pad VARCHAR(${pad + 1}) CHARACTER SET latin1 NOT NULL`), `${text} : un octet de plus accepté`);
  }
});

test('a nullable column adds its byte of the null bitmap (one per 8)', async () => {
  const int = type('INT');
  const size = rowBytes([{ type: int, nullable: true }]);
  assert.is(size, 5);
  const pad = MAX_ROW_BYTES - size - 2;
  assert.ok(await creates(`x INT NULL, pad VARCHAR(${pad}) CHARACTER SET latin1 NOT NULL`));
  assert.not.ok(await creates(`x INT NULL, pad VARCHAR(${pad + 1}) CHARACTER SET latin1 NOT NULL`));
});

test(`VARCHAR(${MAX_VARCHAR_LENGTH}) is the largest utf8mb4 VARCHAR`, async () => {
  assert.ok(await creates(`x VARCHAR(${MAX_VARCHAR_LENGTH}) NOT NULL`));
  assert.not.ok(await creates(`x VARCHAR(${MAX_VARCHAR_LENGTH + 1}) NOT NULL`));
});

test.run();
