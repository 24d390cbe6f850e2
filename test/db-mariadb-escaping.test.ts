// `?` values on the real MariaDB server round-trip byte for byte whatever the session's sql_mode: a backslash,
// a quote, NUL and Ctrl-Z are stored as given with the default mode and with NO_BACKSLASH_ESCAPES (where a
// backslash is an ordinary character), and a literal ending in a backslash does not hide the next `?`.
import { randomBytes } from 'node:crypto';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { MARIADB_ADMIN as MARIADB } from './helpers/cli.js';
import { openDatabase, type Connection, type Database } from '../runtime/db/index.js';

const VALUES = ['a\\b', 'C:\\dossier\\', 'l\'été \\\' "x"', 'nul\0ctrl-z\x1a', '\\\\', '%_\\%'];

const t = suite('db-mariadb-escaping');
const name = `fw_test_${randomBytes(5).toString('hex')}`;
let db: Database;

t.before(async () => {
  const server = openDatabase({ driver: 'mariadb', ...MARIADB, poolSize: 1 });
  await server.execute(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4`).finally(() => server.close());
  // One connection: a session's sql_mode set in one test is the mode of every query after it.
  db = openDatabase({ driver: 'mariadb', ...MARIADB, database: name, poolSize: 1 });
  await db.execute('CREATE TABLE notes (id INT AUTO_INCREMENT PRIMARY KEY, body VARCHAR(100) NOT NULL, raw VARBINARY(100) NULL)');
});

t.after(async () => {
  await db.close();
  const server = openDatabase({ driver: 'mariadb', ...MARIADB, poolSize: 1 });
  await server.execute(`DROP DATABASE IF EXISTS \`${name}\``).finally(() => server.close());
});

/** Inserts every value, reads each back by id and by equality, and compares the stored bytes. */
async function roundTrip(handle: Connection | Database, label: string): Promise<void> {
  await handle.execute('DELETE FROM notes');
  for (const value of VALUES) {
    const id = await handle.insert('INSERT INTO notes (body, raw) VALUES (?, ?)', [value, Buffer.from(value, 'utf8')]);
    const row = await handle.fetchOne<{ body: string; same: number }>('SELECT body, CAST(body AS BINARY) = raw AS same FROM notes WHERE id = ?', [id]);
    assert.is(row?.body, value, `${label}: ${JSON.stringify(value)} read back`);
    assert.is(Number(row?.same), 1, `${label}: ${JSON.stringify(value)} stored bytes`);
    const found = await handle.fetchOne<{ id: number }>('SELECT id FROM notes WHERE body = ?', [value]);
    assert.is(found?.id, id, `${label}: ${JSON.stringify(value)} found by equality`);
  }
}

async function sessionMode(connection: Connection): Promise<string> {
  return String((await connection.fetchOne<{ mode: string }>('SELECT @@SESSION.sql_mode AS mode'))?.mode);
}

t('the default mode: backslashes, quotes, NUL and Ctrl-Z round-trip', async () => {
  await db.withConnection(async (connection) => {
    assert.not.match(await sessionMode(connection), /NO_BACKSLASH_ESCAPES/);
    await roundTrip(connection, 'default');
  });
});

t('NO_BACKSLASH_ESCAPES set in the session: the same values round-trip; a literal ending in \\ keeps the next ?', async () => {
  await db.withConnection(async (connection) => {
    await connection.execute("SET SESSION sql_mode = CONCAT(@@SESSION.sql_mode, ',NO_BACKSLASH_ESCAPES')");
    assert.match(await sessionMode(connection), /NO_BACKSLASH_ESCAPES/);
    await roundTrip(connection, 'NO_BACKSLASH_ESCAPES');
    // Here 'a\' is a complete literal (the backslash is a character), so the ? after it is a placeholder.
    assert.equal(await connection.fetchOne("SELECT 'a\\' AS lit, ? AS v", ['b\\c']), { lit: 'a\\', v: 'b\\c' });
    await connection.execute("SET SESSION sql_mode = REPLACE(@@SESSION.sql_mode, 'NO_BACKSLASH_ESCAPES', '')");
  });
});

t('back to the default mode on the same connection: escaping follows the session again', async () => {
  await db.withConnection(async (connection) => {
    assert.not.match(await sessionMode(connection), /NO_BACKSLASH_ESCAPES/);
    await roundTrip(connection, 'default again');
    assert.equal(await connection.fetchOne("SELECT 'a\\'?' AS lit, ? AS v", ['x']), { lit: "a'?", v: 'x' });
  });
});

t.run();
