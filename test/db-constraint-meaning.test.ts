// How `migration:diff` reads DEFAULTs and CHECKs back (cli/db/sql-meaning.ts, runtime/db/dialects/sqlite/create-table-checks.ts):
// what the generator writes and what each catalogue reports for it mean the same (MariaDB 10.11's rewrites, read
// from a real server by test/migrations-constraints.test.ts), a different bound or value does not, and SQLite's
// CREATE TABLE text gives its table constraints with their names.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { canonicalNumber, defaultMeaning, sqlMeaning } from '../cli/db/sql-meaning.js';
import { createTableChecks } from '../runtime/db/dialects/sqlite/create-table-checks.js';

test('numbers by their decimal value', () => {
  assert.equal(['1.50', '1e3', '0.0', '007', '.5', '2.5E-2', '12'].map(canonicalNumber), ['1.5', '1000', '0', '7', '0.5', '0.025', '12']);
});

test('MariaDB: what the server reports for the generator DDL means the same', () => {
  const same: Array<[string, string]> = [
    ['CHAR_LENGTH(`Nom`) >= 3', 'char_length(`Nom`) >= 3'],
    ['(`Age` >= 5)', '`Age` >= 5'],
    ['`Prix` <= 9.990', '`Prix` <= 9.99'],
    ["`Code` REGEXP '(?-i)^(?:[A-Z]{2}\\\\d|l''x)$'", "`Code` regexp '(?-i)^(?:[A-Z]{2}\\\\d|l\\'x)$'"],
    ["`Code` REGEXP 'a'", "`Code` regexp _utf8mb4'a'"],
  ];
  for (const [written, reported] of same) assert.is(sqlMeaning(written, 'mariadb'), sqlMeaning(reported, 'mariadb'), written);
  assert.is.not(sqlMeaning('`Age` >= 5', 'mariadb'), sqlMeaning('`Age` >= 6', 'mariadb'));
  assert.is.not(sqlMeaning('`Age` >= 5', 'mariadb'), sqlMeaning('`Age` <= 5', 'mariadb'));
  assert.is.not(sqlMeaning("`Code` REGEXP 'a'", 'mariadb'), sqlMeaning("`Code` REGEXP 'A'", 'mariadb'));
});

test('a column renamed by the file reads as its new name', () => {
  assert.is(
    sqlMeaning('`Old` >= 1', 'mariadb', (name) => (name === 'old' ? 'new' : name)),
    sqlMeaning('`New` >= 1', 'mariadb'),
  );
});

test('defaults: quotes, numbers, and NULL as none', () => {
  assert.is(defaultMeaning("'l''x'", 'mariadb'), defaultMeaning("'l\\'x'", 'mariadb'));
  assert.is(defaultMeaning('1.50', 'mariadb'), defaultMeaning('1.5', 'mariadb'));
  assert.is(defaultMeaning('NULL', 'mariadb'), null);
  assert.is(defaultMeaning(null, 'sqlite'), null);
  assert.is.not(defaultMeaning("'18'", 'sqlite'), defaultMeaning('18', 'sqlite'));
  // SQLite: a backslash is an ordinary character, a double quote an identifier.
  assert.is.not(defaultMeaning("'a\\'", 'sqlite'), null);
});

test('SQLite: the table constraints of a CREATE TABLE, named or not, comments and quoted commas left alone', () => {
  const sql = [
    'CREATE TABLE "m" (',
    '  "Id" INTEGER PRIMARY KEY AUTOINCREMENT,',
    '  "Nom" VARCHAR(100) NOT NULL DEFAULT \'a, (b\' COLLATE NOCASE, -- un commentaire, avec virgule',
    '  "Age" INT CHECK ("Age" < 200),',
    '  CONSTRAINT "ck_m_age_min" CHECK ("Age" >= 0),',
    '  CONSTRAINT "ck_m_nom_min_length" CHECK (LENGTH("Nom") >= 2),',
    '  CHECK (("Age" % 2) = 0)',
    ')',
  ].join('\n');
  assert.equal(createTableChecks(sql), [
    { name: 'ck_m_age_min', clause: '"Age" >= 0' },
    { name: 'ck_m_nom_min_length', clause: 'LENGTH("Nom") >= 2' },
    { name: null, clause: '("Age" % 2) = 0' },
  ]);
});

test.run();
