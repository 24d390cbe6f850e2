// The far pages of a generated list read keys first (runtime/crud/list-page.ts `keysFirstSql`; docs/crud.md "What a
// list page costs"): on real SQLite and MariaDB, every page of every sort, filter and search gives the same rows, in
// the same order, with the same labels of the joined reference, whether read keys first or the plain way; ties on
// the sort column (equal for the collation, NULLs) never put a row on two pages or on none.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { KEYS_FIRST_OFFSET, ListQuery, forgetListCounts, keysFirstSql, listPage, listRowsQuery, type ListSpec } from '../runtime/crud/index.js';
import { configure, resetConfig } from '../runtime/config.js';
import { closeDatabase, openDatabase, type Database } from '../runtime/db/database.js';
import type { DialectName } from '../runtime/db/dialect.js';
import { MARIADB_ADMIN } from './helpers/cli.js';
import { DIALECTS } from './helpers/dialects.js';

const SPEC: ListSpec = {
  sortable: { id: 't.Id', nom: 't.Nom', prix: 't.Prix', actif: 't.Actif', town_id: 't.TownId' },
  defaultSort: 'id',
  searchable: ['t.Nom'],
  textSorts: ['nom'],
  decimalSorts: ['prix'],
  filters: {
    actif: { column: 't.Actif', kind: 'bool' },
    nom: { column: 't.Nom', kind: 'text' },
    town_id: { column: 't.TownId', kind: 'relation' },
  },
};
const SELECT =
  'SELECT t.Id, t.Nom, t.Prix, t.Actif, t.TownId, r_town_id.Name AS town_id_label FROM items t LEFT JOIN towns r_town_id ON r_town_id.Id = t.TownId';
const COUNT = 'SELECT COUNT(*) AS total FROM items t';
const PER_PAGE = 20;
const ROWS = 130;

/** Texts equal two by two for the collation (case, accents), so that a text sort has ties beyond the key. */
const NOMS = ['abricot', 'Âne', 'ane', 'Écrou', 'ecrou', 'zèbre', 'Zebre', 'mûre'];

type Params = Record<string, string>;
/** The list states compared: default sort, each sort both ways, filters, searches, and combinations. */
const STATES: Params[] = [
  {},
  { direction: 'asc' },
  { sort: 'nom', direction: 'asc' },
  { sort: 'nom', direction: 'desc' },
  { sort: 'prix', direction: 'asc' },
  { sort: 'prix', direction: 'desc' },
  { sort: 'town_id', direction: 'desc' },
  { sort: 'actif', direction: 'asc' },
  { actif: '1' },
  { town_id: '2', sort: 'nom', direction: 'asc' },
  { nom: 'ane' },
  { q: 'e' },
  { q: 'E', sort: 'prix', direction: 'desc' },
  { q: 'ecrou', actif: '0', sort: 'nom', direction: 'asc' },
];

function request(params: Params): { params: Record<string, string[]> } {
  return { params: Object.fromEntries(Object.entries(params).map(([name, value]) => [name, [value]])) };
}

/** One page read keys first or the plain way: its rows as plain objects, its total and page. */
async function page(params: Params, keysFirst: boolean): Promise<{ total: number; page: number; rows: unknown[] }> {
  const result = await listPage<Record<string, unknown>>(request(params), SPEC, { select: SELECT, count: COUNT, perPage: PER_PAGE, keysFirst });
  const rows = result.rows.map((row) => ({
    ...row,
    Id: Number(row['Id']),
    Actif: Number(row['Actif']),
    TownId: row['TownId'] === null ? null : Number(row['TownId']),
  }));
  return { total: result.pagination.total, page: result.pagination.page, rows };
}

async function makeDatabase(dialect: DialectName): Promise<() => Promise<void>> {
  const prix = dialect === 'sqlite' ? 'TEXT' : 'DECIMAL(10,2)'; // DECIMAL is text at its scale on SQLite (docs/entities.md "Types")
  const tables = [
    'CREATE TABLE towns (Id INTEGER PRIMARY KEY, Name VARCHAR(50) NOT NULL)',
    `CREATE TABLE items (Id INTEGER PRIMARY KEY, Nom VARCHAR(50) NOT NULL, Prix ${prix} NULL, Actif INTEGER NOT NULL, TownId INTEGER NULL)`,
    'CREATE INDEX ix_items_nom ON items (Nom)',
    'CREATE INDEX ix_items_townid ON items (TownId)',
  ];
  let db: Database;
  let cleanup: () => Promise<void>;
  if (dialect === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-keysfirst-'));
    const file = path.join(dir, 'list.sqlite');
    db = openDatabase({ driver: 'sqlite', file });
    configure({ db_driver: 'sqlite', db_file: file });
    cleanup = async () => fs.rmSync(dir, { recursive: true, force: true });
  } else {
    const name = `fw_keysfirst_${randomBytes(5).toString('hex')}`;
    const server = openDatabase({ driver: 'mariadb', ...MARIADB_ADMIN, poolSize: 1 });
    await server.execute(`CREATE DATABASE \`${name}\` COLLATE utf8mb4_unicode_ci`).finally(() => server.close());
    db = openDatabase({ driver: 'mariadb', ...MARIADB_ADMIN, database: name, poolSize: 1 });
    const { host, port, user, password } = MARIADB_ADMIN;
    configure({ db_driver: 'mariadb', db_host: host, db_port: port, db_user: user, db_password: password, db_name: name });
    cleanup = async () => {
      const again = openDatabase({ driver: 'mariadb', ...MARIADB_ADMIN, poolSize: 1 });
      await again.execute(`DROP DATABASE IF EXISTS \`${name}\``).finally(() => again.close());
    };
  }
  try {
    for (const sql of tables) await db.execute(sql);
    await db.execute('INSERT INTO towns (Id, Name) VALUES (1, ?), (2, ?), (3, ?)', ['Lyon', 'Paris', 'Nantes']);
    const values: unknown[] = [];
    for (let n = 1; n <= ROWS; n++) {
      // Prices repeat (ties), some are NULL, and `9.00` comes before `10.00` only by value.
      const prix = n % 9 === 0 ? null : `${(n % 13) + 1}.${n % 2 ? '50' : '00'}`;
      values.push(n, NOMS[n % NOMS.length], prix, n % 2, n % 4 === 0 ? null : (n % 3) + 1);
    }
    await db.execute(`INSERT INTO items (Id, Nom, Prix, Actif, TownId) VALUES ${Array.from({ length: ROWS }, () => '(?, ?, ?, ?, ?)').join(', ')}`, values);
  } finally {
    await db.close();
  }
  return cleanup;
}

for (const dialect of DIALECTS) {
  const t = suite(`crud list page: far pages keys first (${dialect})`);
  let cleanup: () => Promise<void>;

  t.before(async () => {
    cleanup = await makeDatabase(dialect);
  });
  t.after(async () => {
    await closeDatabase();
    await cleanup();
    resetConfig();
  });
  t.before.each(() => forgetListCounts());

  t('every page of every state: the same rows, order and labels keys first and plain; each row once', async () => {
    for (const state of STATES) {
      const first = await page(state, false);
      const pages = Math.max(1, Math.ceil(first.total / PER_PAGE));
      assert.ok(first.total > 0, `${JSON.stringify(state)} : des lignes`);
      const seen: number[] = [];
      // Every page, then one past the end (the last page again).
      for (let n = 1; n <= pages + 1; n++) {
        const params = { ...state, page: String(n) };
        const plain = await page(params, false);
        const keysFirst = await page(params, true);
        assert.equal(keysFirst, plain, `${JSON.stringify(params)} : les deux formes`);
        if (n <= pages) seen.push(...plain.rows.map((row) => (row as { Id: number }).Id));
      }
      assert.is(seen.length, first.total, `${JSON.stringify(state)} : autant de lignes que le total`);
      assert.is(new Set(seen).size, seen.length, `${JSON.stringify(state)} : aucune ligne sur deux pages`);
    }
  });

  t('the labels of the joined reference come with the rows read keys first', async () => {
    const last = await page({ sort: 'town_id', direction: 'asc', page: '99' }, true);
    const labels = new Map([
      [1, 'Lyon'],
      [2, 'Paris'],
      [3, 'Nantes'],
    ]);
    assert.ok(last.rows.length > 0);
    for (const row of last.rows as Array<{ TownId: number | null; town_id_label: unknown }>) {
      assert.is(row.town_id_label, row.TownId === null ? null : labels.get(row.TownId));
    }
  });

  t.run();
}

const k = suite('crud list page: keysFirstSql');

k('the SQL of the generated form, CROSS JOIN on SQLite, the parameters of the plain form', () => {
  const sql = keysFirstSql({ select: SELECT, count: COUNT }, 't.Id', 'WHERE t.Actif = ?', 'ORDER BY t.Id DESC', 'mariadb');
  assert.is(
    sql,
    'SELECT t.Id, t.Nom, t.Prix, t.Actif, t.TownId, r_town_id.Name AS town_id_label FROM (SELECT t.Id AS fw_key FROM items t WHERE t.Actif = ? ORDER BY t.Id DESC LIMIT ? OFFSET ?) fw_k JOIN items t ON t.Id = fw_k.fw_key LEFT JOIN towns r_town_id ON r_town_id.Id = t.TownId ORDER BY t.Id DESC',
  );
  assert.match(keysFirstSql({ select: SELECT, count: COUNT }, 't.Id', '', 'ORDER BY t.Id DESC', 'sqlite')!, /\) fw_k CROSS JOIN items t ON /);
  assert.is(
    keysFirstSql({ select: 'SELECT t.Id FROM items t', count: COUNT }, 't.Id', '', 'ORDER BY t.Id DESC', 'sqlite'),
    'SELECT t.Id FROM (SELECT t.Id AS fw_key FROM items t  ORDER BY t.Id DESC LIMIT ? OFFSET ?) fw_k CROSS JOIN items t ON t.Id = fw_k.fw_key ORDER BY t.Id DESC',
  );
});

k('a SELECT written by hand that does not hold the FROM of the count once: null (the plain form is used)', () => {
  for (const select of ['SELECT i.Id FROM items i', 'SELECT t.Id FROM items tt', 'SELECT t.Id FROM items t, items t2 WHERE 1 FROM items t']) {
    assert.is(keysFirstSql({ select, count: COUNT }, 't.Id', '', 'ORDER BY t.Id DESC', 'mariadb'), null, select);
  }
  assert.is(keysFirstSql({ select: SELECT, count: 'SELECT 1' }, 't.Id', '', 'ORDER BY t.Id DESC', 'mariadb'), null);
});

k('which pages read keys first: from KEYS_FIRST_OFFSET on, and a sort no index orders without search or filter', () => {
  const sql = { select: SELECT, count: COUNT, perPage: PER_PAGE };
  const keysFirst = (params: Params, offset: number, dialect: DialectName, forced?: boolean): boolean =>
    listRowsQuery({ ...sql, keysFirst: forced }, ListQuery.fromRequest(request(params), SPEC), offset, dialect).sql.includes(' fw_k ');
  for (const dialect of DIALECTS) {
    for (const params of [{}, { sort: 'town_id' }, { actif: '1' }, { q: 'e' }, { q: 'e', sort: 'prix' }] as Params[]) {
      assert.is(keysFirst(params, 0, dialect), false, `${dialect} ${JSON.stringify(params)} page 1`);
      assert.is(keysFirst(params, KEYS_FIRST_OFFSET - PER_PAGE, dialect), false, `${dialect} ${JSON.stringify(params)} before`);
      assert.is(keysFirst(params, KEYS_FIRST_OFFSET, dialect), true, `${dialect} ${JSON.stringify(params)} from`);
      assert.is(keysFirst(params, KEYS_FIRST_OFFSET, dialect, false), false, `${dialect} ${JSON.stringify(params)} forced off`);
      assert.is(keysFirst(params, 0, dialect, true), true, `${dialect} ${JSON.stringify(params)} forced on`);
    }
    // `actif` is no filter's column here: no index orders it; nor, on SQLite, a text or DECIMAL column.
    assert.is(keysFirst({ sort: 'actif' }, 0, dialect), false, `${dialect} actif (a filter's column: indexed)`);
    assert.is(keysFirst({ sort: 'nom' }, 0, dialect), dialect === 'sqlite', `${dialect} nom (fw_sort_key on SQLite)`);
    assert.is(keysFirst({ sort: 'prix' }, 0, dialect), true, `${dialect} prix (no index)`);
    assert.is(keysFirst({ sort: 'prix', actif: '1' }, 0, dialect), false, `${dialect} prix, filtered`);
  }
  const plain = listRowsQuery(sql, ListQuery.fromRequest(request({ actif: '1' }), SPEC), 40, 'mariadb');
  assert.equal(plain, { sql: `${SELECT} WHERE t.Actif = ? ORDER BY t.Id DESC LIMIT ? OFFSET ?`, params: [1, PER_PAGE, 40] });
  const far = listRowsQuery(sql, ListQuery.fromRequest(request({ actif: '1' }), SPEC), 2000, 'mariadb');
  assert.equal(far.params, [1, PER_PAGE, 2000], 'the parameters of the plain form');
});

k.run();
