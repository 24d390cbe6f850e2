// The generated MariaDB SQL runs on the real server (127.0.0.1:3306, root, empty password; docs/decisions.md#two-database-dialects) in a
// database of its own, and what information_schema reports is diffed against the IR: no difference allowed.
import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { modelFiles } from '../emitters/index.js';
import { expectedSchema } from './emitters-fixture.js';
import { fixtureModel } from './helpers/fixture-project.js';

const model = fixtureModel();
const files = modelFiles(model);
const DATABASE = `fw_emit_${randomBytes(6).toString('hex')}`;
let conn: mysql.Connection;

/** Entity tables first, then relations.sql (foreign keys need every table). */
function scripts(): string[] {
  const tables = files.filter((f) => /^mvc\/entities\/[^/]+\/[^/]+\.sql$/.test(f.path) && !f.path.endsWith('.sqlite.sql'));
  const relations = files.filter((f) => f.path === 'mvc/entities/relations.sql');
  assert.is(tables.length, model.entities.length);
  assert.is(relations.length, 1);
  return [...tables, ...relations].map((f) => f.content);
}

/** information_schema spelling -> the IR's canonical spelling: `int(10) unsigned` -> `INT UNSIGNED`, `tinyint(1)` kept. */
function canonicalType(columnType: string): string {
  return columnType
    .toUpperCase()
    .replace(/^(TINYINT|SMALLINT|MEDIUMINT|INT|BIGINT)\((\d+)\)/, (all, base: string, width: string) => (base === 'TINYINT' && width === '1' ? all : base));
}

async function rows<T>(sql: string, params: unknown[] = []): Promise<T[]> {
  const [result] = await conn.query(sql, params);
  return result as T[];
}

// uvu reports a failing before() hook as 0 passed tests with exit code 0: the setup error is kept and thrown by
// the first test instead.
let setupError: unknown;

test.before(async () => {
  try {
    conn = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root', password: '', multipleStatements: true });
  } catch (error) {
    setupError = new Error(
      `MariaDB injoignable sur 127.0.0.1:3306 (${(error as Error).message}) ; démarrez-le : start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd`,
    );
    return;
  }
  try {
    await conn.query(`CREATE DATABASE \`${DATABASE}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    await conn.query(`USE \`${DATABASE}\``);
    for (const sql of scripts()) await conn.query(sql);
  } catch (error) {
    setupError = error;
  }
});

test.after(async () => {
  if (!conn) return;
  await conn.query(`DROP DATABASE IF EXISTS \`${DATABASE}\``);
  await conn.end();
});

test('the generated SQL applies without error', () => {
  if (setupError) throw setupError;
});

test('the tables are exactly those of the IR, InnoDB, utf8mb4_unicode_ci', async () => {
  const tables = await rows<{ name: string; engine: string; collation: string }>(
    'SELECT TABLE_NAME AS name, ENGINE AS engine, TABLE_COLLATION AS collation FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME',
    [DATABASE],
  );
  assert.equal(
    tables.map((t) => t.name),
    expectedSchema(model).map((t) => t.table),
  );
  for (const t of tables) assert.equal([t.engine, t.collation], ['InnoDB', 'utf8mb4_unicode_ci'], t.name);
});

for (const table of expectedSchema(model)) {
  test(`${table.table}: columns (name, type, NULL, AUTO_INCREMENT, primary key)`, async () => {
    const columns = await rows<{ name: string; type: string; nullable: string; extra: string }>(
      `SELECT COLUMN_NAME AS name, COLUMN_TYPE AS type, IS_NULLABLE AS nullable, EXTRA AS extra
         FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION`,
      [DATABASE, table.table],
    );
    const primary = await rows<{ name: string; seq: number }>(
      `SELECT COLUMN_NAME AS name, SEQ_IN_INDEX AS seq FROM information_schema.STATISTICS
        WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND INDEX_NAME = 'PRIMARY'`,
      [DATABASE, table.table],
    );
    const actual = columns.map((c) => ({
      name: c.name,
      type: canonicalType(c.type),
      nullable: c.nullable === 'YES',
      autoIncrement: /auto_increment/i.test(c.extra),
      pk: Number(primary.find((p) => p.name === c.name)?.seq ?? 0),
    }));
    assert.equal(actual, table.columns);
  });

  test(`${table.table}: indexes (named unique and plain indexes, nothing added by InnoDB)`, async () => {
    const stats = await rows<{ name: string; nonUnique: number; column: string }>(
      `SELECT INDEX_NAME AS name, NON_UNIQUE AS nonUnique, COLUMN_NAME AS \`column\` FROM information_schema.STATISTICS
        WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND INDEX_NAME <> 'PRIMARY' ORDER BY INDEX_NAME, SEQ_IN_INDEX`,
      [DATABASE, table.table],
    );
    const actual: Record<string, { unique: boolean; columns: string[] }> = {};
    for (const s of stats) (actual[s.name] ??= { unique: Number(s.nonUnique) === 0, columns: [] }).columns.push(s.column);
    assert.equal(actual, table.indexes);
  });

  test(`${table.table}: foreign keys (name, column, target, ON DELETE, ON UPDATE)`, async () => {
    const fks = await rows<{ name: string; column: string; refTable: string; refColumn: string; onDelete: string; onUpdate: string }>(
      `SELECT k.CONSTRAINT_NAME AS name, k.COLUMN_NAME AS \`column\`, k.REFERENCED_TABLE_NAME AS refTable,
              k.REFERENCED_COLUMN_NAME AS refColumn, r.DELETE_RULE AS onDelete, r.UPDATE_RULE AS onUpdate
         FROM information_schema.KEY_COLUMN_USAGE k
         JOIN information_schema.REFERENTIAL_CONSTRAINTS r
           ON r.CONSTRAINT_SCHEMA = k.CONSTRAINT_SCHEMA AND r.CONSTRAINT_NAME = k.CONSTRAINT_NAME AND r.TABLE_NAME = k.TABLE_NAME
        WHERE k.TABLE_SCHEMA = ? AND k.TABLE_NAME = ? AND k.REFERENCED_TABLE_NAME IS NOT NULL
        ORDER BY k.CONSTRAINT_NAME`,
      [DATABASE, table.table],
    );
    assert.equal(
      fks.map((fk) => ({ ...fk })),
      [...table.foreignKeys].sort((a, b) => (a.name < b.name ? -1 : 1)),
    );
  });
}

test('re-applying the entity table files changes nothing (CREATE TABLE IF NOT EXISTS)', async () => {
  const shape = async () =>
    rows<Record<string, unknown>>(
      'SELECT TABLE_NAME, COLUMN_NAME, COLUMN_TYPE, IS_NULLABLE FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME, ORDINAL_POSITION',
      [DATABASE],
    );
  const before = await shape();
  for (const sql of scripts().slice(0, model.entities.length)) await conn.query(sql);
  assert.equal(await shape(), before);
});

test('the constraints hold: unique e-mail, RESTRICT on the city, CASCADE from contact to the pivot', async () => {
  await conn.query("INSERT INTO ville (Nom, CodePostal) VALUES ('Lyon', '69001')");
  await conn.query("INSERT INTO contact (Nom, Prenom, Email, NbVisites, Actif, VilleId) VALUES ('Dupont', 'Jean', 'jean@example.org', 0, 1, 1)");
  const fails = async (sql: string, code: string): Promise<void> => {
    try {
      await conn.query(sql);
    } catch (error) {
      assert.is((error as { code?: string }).code, code, sql);
      return;
    }
    assert.unreachable(`${sql} should fail with ${code}`);
  };
  await fails("INSERT INTO contact (Nom, Prenom, Email, NbVisites, Actif) VALUES ('M', 'P', 'jean@example.org', 0, 1)", 'ER_DUP_ENTRY');
  await fails("INSERT INTO contact (Nom, Prenom, Email, NbVisites, Actif, VilleId) VALUES ('M', 'P', 'p@example.org', 0, 1, 999)", 'ER_NO_REFERENCED_ROW_2');
  await fails('DELETE FROM ville WHERE Id = 1', 'ER_ROW_IS_REFERENCED_2');
  await conn.query("INSERT INTO tag (Libelle) VALUES ('client')");
  await conn.query("INSERT INTO contact_tag (ContactId, TagId, AjouteLe) VALUES (1, 1, '2024-05-01 10:00:00')");
  await conn.query('DELETE FROM contact WHERE Id = 1');
  assert.equal(await rows('SELECT * FROM contact_tag'), []);
});

test.run();
