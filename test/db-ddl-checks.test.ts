// The CHECK constraints of a field's `constraints` as each dialect writes them (runtime/db/ddl/clauses.ts
// `checkClause`, docs/entities.md "Constraints"): given a check, the exact text out; a pattern on MariaDB only,
// case-sensitive and anchored, its backslashes and quotes written for the default sql_mode. What the databases do
// with them is test/crud-http-named-records.test.ts.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spellingOf } from '../runtime/db/dialect.js';
import type { CheckSpec } from '../runtime/db/ddl/table-spec.js';

const cases: Array<{ name: string; given: CheckSpec; mariadb: string; sqlite: string | null }> = [
  {
    name: 'an integer minimum',
    given: { name: 'ck_m_age_min', column: 'Age', kind: 'min', value: '5' },
    mariadb: 'CONSTRAINT `ck_m_age_min` CHECK (`Age` >= 5)',
    sqlite: 'CONSTRAINT "ck_m_age_min" CHECK ("Age" >= 5)',
  },
  {
    name: 'a DECIMAL maximum: cast on SQLite, which stores it as text',
    given: { name: 'ck_m_prix_max', column: 'Prix', kind: 'max', value: '9.99', numeric: 'text' },
    mariadb: 'CONSTRAINT `ck_m_prix_max` CHECK (`Prix` <= 9.99)',
    sqlite: 'CONSTRAINT "ck_m_prix_max" CHECK (CAST("Prix" AS REAL) <= 9.99)',
  },
  {
    name: 'a minimum length in characters',
    given: { name: 'ck_m_pseudo_min_length', column: 'Pseudo', kind: 'min_length', value: '3' },
    mariadb: 'CONSTRAINT `ck_m_pseudo_min_length` CHECK (CHAR_LENGTH(`Pseudo`) >= 3)',
    sqlite: 'CONSTRAINT "ck_m_pseudo_min_length" CHECK (LENGTH("Pseudo") >= 3)',
  },
  {
    name: 'a pattern with a backslash and a quote: MariaDB only',
    given: { name: 'ck_m_code_pattern', column: 'Code', kind: 'pattern', value: "[A-Z]{2}\\d|l'x" },
    mariadb: "CONSTRAINT `ck_m_code_pattern` CHECK (`Code` REGEXP '(?-i)^(?:[A-Z]{2}\\\\d|l''x)$')",
    sqlite: null,
  },
];

for (const c of cases) {
  test(`CHECK: ${c.name}`, () => {
    assert.is(spellingOf('mariadb').check(c.given), c.mariadb);
    assert.is(spellingOf('sqlite').check(c.given), c.sqlite);
  });
}

test('CHECKs go inside CREATE TABLE, after the keys, on both dialects', () => {
  const spec = {
    table: 'm',
    columns: [
      { name: 'Id', type: 'INT', nullable: false, autoIncrement: true },
      { name: 'Age', type: 'INT', nullable: false, autoIncrement: false, default: '18' },
    ],
    primaryKey: ['Id'],
    uniques: [],
    indexes: [],
    foreignKeys: [],
    checks: [cases[0]!.given],
  };
  assert.equal(spellingOf('mariadb').createTable(spec), [
    'CREATE TABLE IF NOT EXISTS `m` (',
    '  `Id` INT NOT NULL AUTO_INCREMENT,',
    '  `Age` INT NOT NULL DEFAULT 18,',
    '  PRIMARY KEY (`Id`),',
    '  CONSTRAINT `ck_m_age_min` CHECK (`Age` >= 5)',
    ') ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;',
  ]);
  assert.equal(spellingOf('sqlite').createTable(spec), [
    'CREATE TABLE IF NOT EXISTS "m" (',
    '  "Id" INTEGER PRIMARY KEY AUTOINCREMENT,',
    '  "Age" INT NOT NULL DEFAULT 18,',
    '  CONSTRAINT "ck_m_age_min" CHECK ("Age" >= 5)',
    ');',
  ]);
});

test.run();
