// Letter case on both dialects (docs/entities.md "Letter case and accents"): the table an entity generates, applied
// to a real SQLite file and a real MariaDB database, refuses a unique e-mail that differs only in case, and the
// list's equality filter `?espece=chat` finds `Chat`, `CHAT`, `Chât` and `chat ` on both, as MariaDB's
// utf8mb4_unicode_ci does. The documented difference (SQLite's NOCASE folds ASCII letters only in UNIQUE keys and
// hand-written `=`) is asserted too, so that the page stays true.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { splitSqlStatements } from '../cli/db/sql-split.js';
import { modelNode } from '../compiler/ir.js';
import { emitTableSql } from '../emitters/sql-table.js';
import { ListQuery, type ListSpec } from '../runtime/crud/list-query.js';
import { DuplicateError, openDatabase, type Database, type DialectName } from '../runtime/db/index.js';
import { entity, field, idField } from './emitters-fixture.js';
import { MARIADB_ADMIN } from './helpers/cli.js';

const animal = entity('Animal', [
  idField(),
  field('email', 'VARCHAR(190)', { unique: true }),
  field('espece', 'VARCHAR(40)', { filter: true }),
  field('notes', 'TEXT', { nullable: true }),
]);
const model = modelNode({ entities: [animal], relations: [] });

/** The allow-lists `fw make:crud` writes for this entity (the part the list query reads). */
const SPEC: ListSpec = {
  sortable: { id: 't.Id', email: 't.Email', espece: 't.Espece' },
  defaultSort: 'id',
  searchable: ['t.Email', 't.Espece', 't.Notes'],
  filters: { espece: { column: 't.Espece', kind: 'text' } },
};

const ESPECES = ['Chat', 'chat', 'CHAT', 'Chât', 'chat ', 'Chien', 'chatte'];

interface Target {
  readonly dialect: DialectName;
  open(): Promise<Database>;
  cleanup(): Promise<void>;
}

function sqliteTarget(): Target {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-case-'));
  return {
    dialect: 'sqlite',
    open: async () => openDatabase({ driver: 'sqlite', file: path.join(dir, 'case.sqlite') }),
    cleanup: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

function mariadbTarget(): Target {
  const name = `fw_test_case_${randomBytes(5).toString('hex')}`;
  const server = () => openDatabase({ driver: 'mariadb', ...MARIADB_ADMIN });
  return {
    dialect: 'mariadb',
    async open() {
      const admin = server();
      await admin.execute(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`).finally(() => admin.close());
      return openDatabase({ driver: 'mariadb', ...MARIADB_ADMIN, database: name });
    },
    async cleanup() {
      const admin = server();
      await admin.execute(`DROP DATABASE IF EXISTS \`${name}\``).finally(() => admin.close());
    },
  };
}

/** Filtered ids: the list page's WHERE on `?espece=<value>`. */
async function filtered(db: Database, value: string): Promise<string[]> {
  const where = ListQuery.fromRequest({ params: { espece: [value] } }, SPEC).where(db.driver);
  const rows = await db.fetchAll<{ espece: string }>(`SELECT t.Espece AS espece FROM animal t ${where.sql} ORDER BY t.Id`, where.params);
  return rows.map((row) => row.espece);
}

for (const make of [sqliteTarget, mariadbTarget]) {
  const target = make();
  const t = suite(`db-letter-case: ${target.dialect}`);
  let db: Database;

  t.before(async () => {
    db = await target.open();
    for (const statement of splitSqlStatements(emitTableSql(model, animal, target.dialect), target.dialect)) await db.execute(statement.text);
  });

  t.after(async () => {
    await db.close();
    await target.cleanup();
  });

  t('a unique e-mail differing only in case is refused (DuplicateError, the 422 of the form)', async () => {
    await db.insert('INSERT INTO animal (Email, Espece) VALUES (?, ?)', ['michel25@example.org', 'Chat']);
    let error: unknown;
    await db.insert('INSERT INTO animal (Email, Espece) VALUES (?, ?)', ['MICHEL25@example.org', 'Chat']).catch((e: unknown) => (error = e));
    assert.ok(error instanceof DuplicateError, String(error));
    assert.equal(await db.fetchAll('SELECT Email AS email FROM animal'), [{ email: 'michel25@example.org' }]);
    await db.execute('DELETE FROM animal');
  });

  t('the equality filter ?espece=chat matches Chat, CHAT, Chât and "chat " (not Chien nor chatte)', async () => {
    for (const [i, espece] of ESPECES.entries()) await db.insert('INSERT INTO animal (Email, Espece) VALUES (?, ?)', [`a${i}@example.org`, espece]);
    const found = await filtered(db, 'chat');
    assert.equal(found, ['Chat', 'chat', 'CHAT', 'Chât', 'chat ']);
    assert.equal(await filtered(db, 'CHÂT '), found);
    assert.equal(await filtered(db, 'chien'), ['Chien']);
  });

  t('hand-written `=` (a lookup by text) and GROUP BY ignore ASCII case', async () => {
    const rows = await db.fetchAll<{ espece: string }>('SELECT Espece AS espece FROM animal WHERE Espece = ? ORDER BY Id', ['cHaT']);
    const found = rows.map((row) => row.espece);
    for (const espece of ['Chat', 'chat', 'CHAT']) assert.ok(found.includes(espece), `${espece} in ${found.join(', ')}`);
    const groups = await db.fetchAll<{ n: number }>("SELECT COUNT(*) AS n FROM animal WHERE Espece IN ('Chat', 'chien') GROUP BY Espece ORDER BY COUNT(*)");
    assert.ok(groups.length === 2 && Number(groups[1]!.n) >= 3, JSON.stringify(groups));
  });

  t('the documented difference: accents in a UNIQUE key (MariaDB refuses elodie beside Élodie, SQLite accepts)', async () => {
    await db.insert('INSERT INTO animal (Email, Espece) VALUES (?, ?)', ['Élodie@example.org', 'Chat']);
    const second = await db.insert('INSERT INTO animal (Email, Espece) VALUES (?, ?)', ['elodie@example.org', 'Chat']).then(
      () => 'accepted',
      (e: unknown) => (e instanceof DuplicateError ? 'refused' : String(e)),
    );
    assert.is(second, target.dialect === 'mariadb' ? 'refused' : 'accepted');
  });

  t.run();
}
