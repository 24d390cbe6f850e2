// The framework's own tables (auth, media, fw_sessions) created on a real MariaDB (a random database) and a real
// SQLite file from the very text `fw auth:init` / `fw media:init` write and `fw db:init` runs, then read back from
// the server's catalogue: information_schema (columns with charsets and collations, indexes, foreign keys and their
// rules, engine and table collation, SHOW CREATE TABLE) on MariaDB; PRAGMA table_info, index_list, index_xinfo and
// foreign_key_list on SQLite, with each column's own collation. The reading must equal the one kept in
// test/fixtures/framework-tables-schema.json: a change of how these tables are written must not change the schema
// an existing or a new project gets. Running the statements a second time must be harmless (IF NOT EXISTS).
// UPDATE_SNAPSHOTS=1 rewrites the kept reading (read its diff: it must change only on purpose).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { splitSqlStatements } from '../cli/db/sql-split.js';
import { authSqlContent } from '../emitters/auth/sql-files.js';
import { mediaSqlContent } from '../emitters/media/sql-files.js';
import { AUTH_TABLES } from '../runtime/auth/schema.js';
import type { DialectName } from '../runtime/db/dialect.js';
import { openDatabase, type Database } from '../runtime/db/index.js';
import { fwSessionsDdl } from '../runtime/session/sessions-table.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const KEPT = path.join(REPO, 'test', 'fixtures', 'framework-tables-schema.json');
const MARIADB = { host: '127.0.0.1', port: 3306, user: 'root', password: '' };
const TABLES = [...AUTH_TABLES.map((t) => t.name), 'media', 'fw_sessions'];

type Reading = Record<string, unknown>;

/** Every statement that creates the framework tables, in order: the auth files, the media file, fw_sessions. */
function statements(dialect: DialectName): string[] {
  const files = [...AUTH_TABLES.map((table) => authSqlContent(table, dialect)), mediaSqlContent(dialect)];
  return [...files.flatMap((text) => splitSqlStatements(text, dialect).map((s) => s.text)), ...fwSessionsDdl(dialect)];
}

async function createAll(db: Database, dialect: DialectName): Promise<void> {
  for (let pass = 0; pass < 2; pass++) for (const statement of statements(dialect)) await db.execute(statement);
}

/** Rows with BigInt values as numbers (the MariaDB driver answers BIGINT columns of the catalogue as BigInt). */
function plain<T extends object>(rows: T[]): Array<Record<string, unknown>> {
  return rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : v])));
}

async function readMariadb(db: Database, schema: string): Promise<Reading> {
  const reading: Reading = {};
  for (const table of TABLES) {
    const args = [schema, table];
    const where = 'WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?';
    const create = await db.fetchOne<{ 'Create Table': string }>(`SHOW CREATE TABLE \`${table}\``);
    reading[table] = {
      table: plain(
        await db.fetchAll(`SELECT ENGINE, TABLE_COLLATION, ROW_FORMAT, CREATE_OPTIONS, TABLE_COMMENT FROM information_schema.TABLES ${where}`, args),
      ),
      columns: plain(
        await db.fetchAll(
          'SELECT ORDINAL_POSITION, COLUMN_NAME, COLUMN_TYPE, IS_NULLABLE, COLUMN_DEFAULT, CHARACTER_SET_NAME, COLLATION_NAME, COLUMN_KEY, EXTRA ' +
            `FROM information_schema.COLUMNS ${where} ORDER BY ORDINAL_POSITION`,
          args,
        ),
      ),
      indexes: plain(
        await db.fetchAll(
          'SELECT INDEX_NAME, NON_UNIQUE, SEQ_IN_INDEX, COLUMN_NAME, COLLATION, SUB_PART, NULLABLE, INDEX_TYPE ' +
            `FROM information_schema.STATISTICS ${where} ORDER BY INDEX_NAME, SEQ_IN_INDEX`,
          args,
        ),
      ),
      keyColumns: plain(
        await db.fetchAll(
          'SELECT CONSTRAINT_NAME, ORDINAL_POSITION, COLUMN_NAME, REFERENCED_TABLE_NAME, REFERENCED_COLUMN_NAME ' +
            `FROM information_schema.KEY_COLUMN_USAGE ${where} ORDER BY CONSTRAINT_NAME, ORDINAL_POSITION`,
          args,
        ),
      ),
      foreignKeys: plain(
        await db.fetchAll(
          'SELECT CONSTRAINT_NAME, UNIQUE_CONSTRAINT_NAME, REFERENCED_TABLE_NAME, UPDATE_RULE, DELETE_RULE, MATCH_OPTION ' +
            'FROM information_schema.REFERENTIAL_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = ? AND TABLE_NAME = ? ORDER BY CONSTRAINT_NAME',
          args,
        ),
      ),
      showCreate: create?.['Create Table'],
    };
  }
  return reading;
}

/** The collation a column compares with: the one SQLite gives an index on it (PRAGMA index_xinfo). */
async function sqliteColumnCollation(db: Database, table: string, column: string): Promise<unknown> {
  await db.execute(`CREATE INDEX "fw_probe" ON "${table}" ("${column}")`);
  const rows = await db.fetchAll<{ cid: number; coll: string }>(`PRAGMA index_xinfo("fw_probe")`);
  await db.execute('DROP INDEX "fw_probe"');
  return rows.find((row) => row.cid >= 0)?.coll;
}

async function readSqlite(db: Database): Promise<Reading> {
  const reading: Reading = {};
  for (const table of TABLES) {
    const master = await db.fetchOne<{ sql: string }>(`SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?`, [table]);
    const options = await db.fetchAll(`SELECT type, ncol, wr, strict FROM pragma_table_list WHERE name = ?`, [table]);
    const columns = await db.fetchAll<{ name: string }>(`PRAGMA table_xinfo("${table}")`);
    const collations: Record<string, unknown> = {};
    for (const column of columns) collations[column.name] = await sqliteColumnCollation(db, table, column.name);
    const indexes = await db.fetchAll<{ name: string }>(`PRAGMA index_list("${table}")`);
    const indexColumns: Record<string, unknown> = {};
    for (const index of [...indexes].sort((a, b) => (a.name < b.name ? -1 : 1)))
      indexColumns[index.name] = await db.fetchAll(`PRAGMA index_xinfo("${index.name}")`);
    reading[table] = {
      table: options,
      autoincrement: /\bAUTOINCREMENT\b/i.test(master?.sql ?? ''),
      columns,
      collations,
      indexes: [...indexes].sort((a, b) => (a.name < b.name ? -1 : 1)),
      indexColumns,
      foreignKeys: await db.fetchAll(`PRAGMA foreign_key_list("${table}")`),
    };
  }
  return reading;
}

let kept: Record<string, Reading> = fs.existsSync(KEPT) ? JSON.parse(fs.readFileSync(KEPT, 'utf8')) : {};

function compare(dialect: DialectName, reading: Reading): void {
  if (process.env.UPDATE_SNAPSHOTS === '1') {
    kept = { ...kept, [dialect]: reading };
    fs.mkdirSync(path.dirname(KEPT), { recursive: true });
    fs.writeFileSync(KEPT, `${JSON.stringify(kept, null, 2)}\n`);
    return;
  }
  assert.ok(kept[dialect], `no kept reading for ${dialect} in ${KEPT} (UPDATE_SNAPSHOTS=1 writes it)`);
  for (const table of TABLES) assert.equal(reading[table], kept[dialect]![table], `${dialect}: ${table}`);
  assert.equal(Object.keys(reading), Object.keys(kept[dialect]!));
}

const test = suite('framework tables: the schema read back');

test('SQLite: every table, column, collation, index and foreign key as kept', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-tables-'));
  const db = openDatabase({ driver: 'sqlite', file: path.join(dir, 'app.sqlite') });
  try {
    await createAll(db, 'sqlite');
    const reading = await readSqlite(db);
    assert.equal(Object.keys(reading), TABLES);
    compare('sqlite', reading);
  } finally {
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('MariaDB: every table, column, charset, collation, index, foreign key and engine as kept', async () => {
  const name = `fw_test_${randomBytes(4).toString('hex')}`;
  const server = openDatabase({ driver: 'mariadb', ...MARIADB });
  await server.execute(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`).finally(() => server.close());
  const db = openDatabase({ driver: 'mariadb', ...MARIADB, database: name });
  try {
    await createAll(db, 'mariadb');
    compare('mariadb', await readMariadb(db, name));
  } finally {
    await db.close();
    const admin = openDatabase({ driver: 'mariadb', ...MARIADB });
    await admin.execute(`DROP DATABASE IF EXISTS \`${name}\``).finally(() => admin.close());
  }
});

test.run();
