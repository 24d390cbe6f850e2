// The generated SQLite SQL runs on a real database (better-sqlite3): tables, columns, indexes and foreign keys
// read back with PRAGMA match the IR exactly; applying everything twice works; the constraints really hold.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { modelFiles } from '../emitters/index.js';
import { expectedSchema } from './emitters-fixture.js';
import { fixtureModel } from './helpers/fixture-project.js';

interface ColumnInfo {
  name: string;
  type: string;
  notnull: number;
  pk: number;
}
interface ForeignKeyInfo {
  id: number;
  table: string;
  from: string;
  to: string;
  on_update: string;
  on_delete: string;
}
interface IndexInfo {
  name: string;
  unique: number;
  origin: string;
}

const model = fixtureModel();
const files = modelFiles(model);

/** Entity tables first (any order: SQLite resolves foreign keys at use), then the relations file. */
function scripts(): string[] {
  const tables = files.filter((f) => f.path.endsWith('.sqlite.sql') && !f.path.endsWith('relations.sqlite.sql'));
  const relations = files.filter((f) => f.path.endsWith('relations.sqlite.sql'));
  return [...tables, ...relations].map((f) => f.content);
}

let dir = '';
let db: Database.Database;

// uvu reports a failing before() hook as 0 passed tests with exit code 0: the first test throws it instead.
let setupError: unknown;

test.before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-emit-sqlite-'));
  db = new Database(path.join(dir, 'test.sqlite'));
  db.pragma('foreign_keys = ON');
  try {
    for (const sql of scripts()) db.exec(sql);
  } catch (error) {
    setupError = error;
  }
});

test.after(() => {
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function schemaSql(): string[] {
  return (db.prepare('SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY type, name').all() as Array<{ sql: string }>).map((r) => r.sql);
}

test('the generated SQL applies without error', () => {
  if (setupError) throw setupError;
});

test('the tables are exactly those of the IR (entities and pivots)', () => {
  const tables = (
    db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as Array<{ name: string }>
  ).map((r) => r.name);
  assert.equal(
    tables,
    expectedSchema(model).map((t) => t.table),
  );
});

for (const table of expectedSchema(model)) {
  test(`${table.table}: columns (name, type, NOT NULL, primary key)`, () => {
    const actual = (db.prepare(`PRAGMA table_info("${table.table}")`).all() as ColumnInfo[]).map((c) => ({
      name: c.name,
      type: c.type,
      notnull: c.notnull,
      pk: c.pk,
    }));
    const expected = table.columns.map((c) => {
      // The auto-increment key is SQLite's rowid: declared INTEGER, NOT NULL implied (PRAGMA reports 0).
      const rowid = c.autoIncrement && c.pk === 1;
      // DECIMAL is declared TEXT: SQLite keeps the exact decimal text (docs/entities.md "Types").
      const type = rowid ? 'INTEGER' : /^DECIMAL\b/.test(c.type) ? 'TEXT' : c.type;
      return { name: c.name, type, notnull: rowid || c.nullable ? 0 : 1, pk: c.pk };
    });
    assert.equal(actual, expected);
  });

  test(`${table.table}: indexes (named unique and plain indexes, nothing else)`, () => {
    const list = (db.prepare(`PRAGMA index_list("${table.table}")`).all() as IndexInfo[]).filter((i) => i.origin === 'c');
    const actual = Object.fromEntries(
      list
        .map(
          (i) =>
            [
              i.name,
              { unique: i.unique === 1, columns: (db.prepare(`PRAGMA index_info("${i.name}")`).all() as Array<{ name: string }>).map((c) => c.name) },
            ] as const,
        )
        .sort(([a], [b]) => (a < b ? -1 : 1)),
    );
    assert.equal(actual, Object.fromEntries(Object.entries(table.indexes).sort(([a], [b]) => (a < b ? -1 : 1))));
  });

  test(`${table.table}: foreign keys (target, columns, actions, constraint name)`, () => {
    const actual = (db.prepare(`PRAGMA foreign_key_list("${table.table}")`).all() as ForeignKeyInfo[])
      .map((fk) => ({ column: fk.from, refTable: fk.table, refColumn: fk.to, onDelete: fk.on_delete, onUpdate: fk.on_update }))
      .sort((a, b) => (a.column < b.column ? -1 : 1));
    const expected = table.foreignKeys
      .map(({ column, refTable, refColumn, onDelete, onUpdate }) => ({ column, refTable, refColumn, onDelete, onUpdate }))
      .sort((a, b) => (a.column < b.column ? -1 : 1));
    assert.equal(actual, expected);
    const created = (db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").get(table.table) as { sql: string }).sql;
    for (const fk of table.foreignKeys) assert.ok(created.includes(`CONSTRAINT "${fk.name}" FOREIGN KEY ("${fk.column}")`), fk.name);
  });
}

test('applying every file a second time changes nothing', () => {
  const before = schemaSql();
  for (const sql of scripts()) db.exec(sql);
  assert.equal(schemaSql(), before);
});

test('the constraints hold: unique, NOT NULL, RESTRICT, CASCADE on update and on delete', () => {
  const ville = db.prepare('INSERT INTO ville (Nom, CodePostal) VALUES (?, ?)').run('Lyon', '69001').lastInsertRowid;
  const insertContact = db.prepare('INSERT INTO contact (Nom, Prenom, Email, NbVisites, Actif, VilleId) VALUES (?, ?, ?, ?, ?, ?)');
  const contact = insertContact.run('Dupont', 'Jean', 'jean@example.org', 0, 1, ville).lastInsertRowid;
  assert.throws(() => insertContact.run('Martin', 'Paul', 'jean@example.org', 0, 1, null), /UNIQUE constraint failed: contact\.Email/);
  assert.throws(() => insertContact.run('Martin', 'Paul', 'paul@example.org', 0, 1, 999), /FOREIGN KEY constraint failed/);
  assert.throws(() => insertContact.run(null, 'Paul', 'paul@example.org', 0, 1, null), /NOT NULL constraint failed: contact\.Nom/);
  assert.throws(() => db.prepare('DELETE FROM ville WHERE Id = ?').run(ville), /FOREIGN KEY constraint failed/, 'ON DELETE RESTRICT');
  db.prepare('UPDATE ville SET Id = 50 WHERE Id = ?').run(ville);
  assert.is((db.prepare('SELECT VilleId FROM contact WHERE Id = ?').get(contact) as { VilleId: number }).VilleId, 50, 'ON UPDATE CASCADE');

  const tag = db.prepare('INSERT INTO tag (Libelle) VALUES (?)').run('client').lastInsertRowid;
  const link = db.prepare('INSERT INTO contact_tag (ContactId, TagId, AjouteLe) VALUES (?, ?, ?)');
  link.run(contact, tag, '2024-05-01 10:00:00');
  assert.throws(() => link.run(contact, tag, '2024-05-02 10:00:00'), /UNIQUE constraint failed/, 'the pair is the key');
  assert.throws(() => link.run(contact, 999, '2024-05-02 10:00:00'), /FOREIGN KEY constraint failed/);
  db.prepare('DELETE FROM contact WHERE Id = ?').run(contact);
  assert.is((db.prepare('SELECT COUNT(*) AS n FROM contact_tag').get() as { n: number }).n, 0, 'pivot ON DELETE CASCADE');
});

test.run();
