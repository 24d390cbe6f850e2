// SQLite searches and sorts text as MariaDB's utf8mb4_unicode_ci does (docs/decisions.md#sqlite-text-like-mariadb, docs/crud.md "Search and sort
// on SQLite"): the same rows in a real SQLite file and a real MariaDB database, the list query's SQL for each
// dialect, and the results compared with what MariaDB returns (the reference).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ListQuery, type ListSpec } from '../runtime/crud/index.js';
import { openDatabase, type Database, type DialectName } from '../runtime/db/index.js';
import { unicodeFold, unicodeSortKey } from '../runtime/db/dialects/sqlite/unicode-ci.js';
import { MARIADB_ADMIN } from './helpers/cli.js';

const WORDS = [
  'Écrou',
  'ecrou',
  'Zèbre',
  'zebre',
  'Âne',
  'abricot',
  'Œuf',
  'oeuf',
  'ß',
  'ss',
  'Straße',
  'strasse',
  'Ærø',
  'æble',
  'Łódź',
  'lodz',
  'Ñu',
  'nu',
  'ﬁn',
  'fin',
  '50% off',
  '500 items',
  'a_b',
  'axb',
  'a b',
  'a-b',
  'ab',
  'Wow!',
  '10',
  '9',
  '1abc',
  '[x',
  '~x',
  'école',
  'Ecole',
  'ÉCOLE',
  'Δέλτα',
  'δελτα',
  'Йогурт',
  'йод',
  'Иван',
  'Ørsted',
  'orsted',
  'µ',
  'İstanbul',
  'istanbul',
  'ıspanak',
  'Þór',
  'thor',
  'Ħal',
  'hal',
  'Đuro',
  'duro',
  'café crème',
  'CAFE CREME',
];

const SEARCHES = [
  'écrou',
  'ECROU',
  'ecrou',
  'zebre',
  'ZÈBRE',
  'ane',
  'âne',
  'œuf',
  'oe',
  'ss',
  'ß',
  'straße',
  'strasse',
  'æ',
  'ae',
  'lodz',
  'ł',
  'l',
  'ñ',
  'fi',
  'ﬁ',
  '50%',
  '%',
  'a_b',
  '_',
  '!',
  'wow!',
  ' ',
  'ecole',
  'delta',
  'Δ',
  'й',
  'и',
  'ø',
  'o',
  'istanbul',
  'ı',
  'i',
  'þ',
  'th',
  'ħ',
  'h',
  'đ',
  'd',
  'creme',
  'cafe c',
  'µ',
  'zz',
];

const SPEC: ListSpec = {
  sortable: { id: 't.id', libelle: 't.libelle', quantite: 't.quantite', livraison: 't.livraison' },
  defaultSort: 'id',
  searchable: ['t.libelle'],
  filters: {},
};

interface Target {
  readonly name: DialectName;
  db: Database;
  cleanup(): Promise<void>;
}

const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fw-unicode-ci-')));
const mariadbName = `fw_test_uci_${randomBytes(4).toString('hex')}`;
const targets: Target[] = [];

/** Every character of the blocks the data covers, one row each (the order of single characters is the table). */
function characters(): string[] {
  const ranges: Array<[number, number]> = [
    [0x20, 0x7e],
    [0xa0, 0x24f],
    [0x370, 0x3ff],
    [0x400, 0x4ff],
    [0x1e00, 0x1eff],
    [0xfb00, 0xfb06],
  ];
  const chars: string[] = [];
  for (const [from, to] of ranges) {
    for (let cp = from; cp <= to; cp++) {
      const c = String.fromCodePoint(cp);
      // Unassigned code points and combining marks alone are left out (MariaDB stores them, but no user types them).
      if (/\p{Cn}|\p{M}/u.test(c)) continue;
      chars.push(c);
    }
  }
  return chars;
}

async function fill(db: Database, name: DialectName): Promise<void> {
  const options = name === 'mariadb' ? ' ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci' : '';
  const id = name === 'mariadb' ? 'INT AUTO_INCREMENT PRIMARY KEY' : 'INTEGER PRIMARY KEY AUTOINCREMENT';
  await db.execute(`CREATE TABLE produits (id ${id}, libelle VARCHAR(100) NULL, quantite INT NOT NULL, livraison DATE NULL)${options}`);
  await db.execute(`CREATE TABLE caracteres (id ${id}, libelle VARCHAR(4) NOT NULL)${options}`);
  for (const [i, word] of WORDS.entries()) {
    // Quantities 100, 97, 94…: numbers that sort differently as text; dates likewise.
    await db.insert('INSERT INTO produits (libelle, quantite, livraison) VALUES (?, ?, ?)', [
      word,
      100 - 3 * i,
      `2025-${String((i % 12) + 1).padStart(2, '0')}-0${(i % 9) + 1}`,
    ]);
  }
  await db.insert('INSERT INTO produits (libelle, quantite, livraison) VALUES (NULL, 5, NULL)');
  await db.transaction(async (tx) => {
    for (const c of characters()) await tx.insert('INSERT INTO caracteres (libelle) VALUES (?)', [c]);
  });
}

const T = suite('db-unicode-ci: SQLite searches and sorts as MariaDB utf8mb4_unicode_ci');

T.before(async () => {
  const sqlite = openDatabase({ driver: 'sqlite', file: path.join(tmp, 'test.sqlite') });
  targets.push({ name: 'sqlite', db: sqlite, cleanup: () => sqlite.close() });
  const server = openDatabase({ driver: 'mariadb', ...MARIADB_ADMIN, poolSize: 1 });
  await server.execute(`CREATE DATABASE \`${mariadbName}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await server.close();
  const mariadb = openDatabase({ driver: 'mariadb', ...MARIADB_ADMIN, database: mariadbName, poolSize: 2 });
  targets.push({
    name: 'mariadb',
    db: mariadb,
    async cleanup() {
      await mariadb.execute(`DROP DATABASE IF EXISTS \`${mariadbName}\``);
      await mariadb.close();
    },
  });
  for (const target of targets) await fill(target.db, target.name);
});

T.after(async () => {
  for (const target of targets) await target.cleanup();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** The libelles the list query returns on `target` for these request parameters. */
async function list(target: Target, params: Record<string, string>, table = 'produits'): Promise<string[]> {
  const multi = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, [v]]));
  const query = ListQuery.fromRequest({ params: multi }, SPEC);
  const where = query.where(target.name);
  const rows = await target.db.fetchAll<{ libelle: string | null }>(
    `SELECT t.libelle FROM ${table} t ${where.sql} ${query.orderBy(target.name)}`,
    where.params,
  );
  return rows.map((row) => row.libelle ?? '(null)');
}

function pair(): [Target, Target] {
  const sqlite = targets.find((t) => t.name === 'sqlite');
  const mariadb = targets.find((t) => t.name === 'mariadb');
  if (!sqlite || !mariadb) throw new Error('targets not ready');
  return [sqlite, mariadb];
}

T('q finds the same rows on both dialects, ignoring case and accents (q=écrou finds « Écrou »)', async () => {
  const [sqlite, mariadb] = pair();
  assert.equal(await list(sqlite, { q: 'écrou', sort: 'id', direction: 'asc' }), ['Écrou', 'ecrou']);
  for (const q of SEARCHES) {
    const params = { q, sort: 'id', direction: 'asc' };
    const expected = await list(mariadb, params);
    assert.equal(await list(sqlite, params), expected, `q=${JSON.stringify(q)}`);
  }
});

T('text sorts in the same order on both dialects, both directions (accented and capitalised words in place)', async () => {
  const [sqlite, mariadb] = pair();
  for (const direction of ['asc', 'desc']) {
    const expected = await list(mariadb, { sort: 'libelle', direction });
    assert.equal(await list(sqlite, { sort: 'libelle', direction }), expected, `libelle ${direction}`);
  }
  const asc = await list(sqlite, { sort: 'libelle', direction: 'asc' });
  assert.ok(asc.indexOf('Âne') < asc.indexOf('Écrou') && asc.indexOf('Écrou') < asc.indexOf('Zèbre'), asc.join(' | '));
});

T('numbers and dates keep their own order (no text folding), the same on both dialects', async () => {
  const [sqlite, mariadb] = pair();
  for (const sort of ['quantite', 'livraison', 'id']) {
    for (const direction of ['asc', 'desc']) {
      assert.equal(await list(sqlite, { sort, direction }), await list(mariadb, { sort, direction }), `${sort} ${direction}`);
    }
  }
  const byQuantity = await list(sqlite, { sort: 'quantite', direction: 'asc' });
  // Quantities run from 100 down to negative ones: numerically, the last word comes first (as text, "-11" would).
  assert.is(byQuantity[0], WORDS.at(-1));
});

T('every Latin, Greek and Cyrillic character sorts and matches a letter or a digit as on MariaDB', async () => {
  const [sqlite, mariadb] = pair();
  for (const direction of ['asc', 'desc']) {
    const expected = await list(mariadb, { sort: 'libelle', direction }, 'caracteres');
    const actual = await list(sqlite, { sort: 'libelle', direction }, 'caracteres');
    assert.is(actual.length, expected.length);
    const first = actual.findIndex((c, i) => c !== expected[i]);
    assert.is(
      first,
      -1,
      `first difference at ${first}: SQLite ${JSON.stringify(actual.slice(first, first + 5))}, MariaDB ${JSON.stringify(expected.slice(first, first + 5))}`,
    );
  }
  for (const q of [...'abcdefghijklmnopqrstuvwxyz0123456789', 'ss', 'oe', 'æ', 'ß', 'α', 'σ', 'и', 'й']) {
    const params = { q, sort: 'id', direction: 'asc' };
    assert.equal(await list(sqlite, params, 'caracteres'), await list(mariadb, params, 'caracteres'), `q=${q}`);
  }
});

T('the functions are plain: fold keeps one character for one, the sort key orders as the collation', () => {
  assert.is(unicodeFold('Écrou ÉCOLE'), 'ecrou ecole');
  assert.is(unicodeFold('Œuf Straße'), 'œuf straße');
  assert.is(unicodeFold('50%_!'), '50%_!');
  assert.is(unicodeSortKey('Œuf'), unicodeSortKey('oeuf'));
  assert.is(unicodeSortKey('ß'), unicodeSortKey('SS'));
  assert.ok(unicodeSortKey('abricot') < unicodeSortKey('Âne') && unicodeSortKey('Âne') < unicodeSortKey('ecrou'));
  assert.ok(unicodeSortKey('9') < unicodeSortKey('a') && unicodeSortKey('-') < unicodeSortKey('0'));
  // A decomposed é (e + U+0301) is the composed one.
  assert.is(unicodeFold('e\u0301crou'), 'ecrou');
});

T.run();
