// The destructive steps read from a migration's SQL (cli/db/migration-steps.ts, docs/entities.md "Destructive
// steps"): the forms `migration:make` writes on both dialects and the usual hand-written ones, names followed
// through the file's renames. Pure, no database.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { migrationSteps } from '../cli/db/migration-steps.js';
import { splitSqlStatements } from '../cli/db/sql-split.js';
import type { DialectName } from '../runtime/db/dialect.js';

const steps = (sql: string, dialect: DialectName) => migrationSteps(splitSqlStatements(sql, dialect, 'x.sql')).map(({ line: _line, ...step }) => step);

test('MariaDB: DROP TABLE, DROP COLUMN, MODIFY, CHANGE, ADD UNIQUE; DROP INDEX and DROP FOREIGN KEY are not columns', () => {
  const sql = [
    'DROP TABLE IF EXISTS `vieux`, `autre`;',
    'ALTER TABLE `contact` DROP COLUMN `Note`, DROP INDEX `ix_contact_nom`, DROP FOREIGN KEY `fk_x`;',
    'ALTER TABLE `contact` MODIFY COLUMN `Nom` VARCHAR(20) NOT NULL;',
    'ALTER TABLE `contact` CHANGE `Ville` `Commune` VARCHAR(40) NULL;',
    'ALTER TABLE `contact` MODIFY `Commune` VARCHAR(30) NOT NULL;',
    'ALTER TABLE `contact` DROP INDEX `uq_old`, ADD UNIQUE KEY `uq_contact_code` (`Code`, `Nom`(10));',
  ].join('\n');
  assert.equal(steps(sql, 'mariadb'), [
    { kind: 'DROP_TABLE', table: 'vieux' },
    { kind: 'DROP_TABLE', table: 'autre' },
    { kind: 'DROP_COLUMN', table: 'contact', column: 'Note' },
    { kind: 'COLUMN_DEFINITION', table: 'contact', column: 'Nom', type: 'VARCHAR(20)', notNull: true },
    { kind: 'COLUMN_DEFINITION', table: 'contact', column: 'Ville', type: 'VARCHAR(40)', notNull: false },
    { kind: 'COLUMN_DEFINITION', table: 'contact', column: 'Ville', type: 'VARCHAR(30)', notNull: true },
    { kind: 'UNIQUE', table: 'contact', columns: ['Code', 'Nom'] },
  ]);
});

test('SQLite: a rebuild is one REBUILD step with its columns (the old table it drops is not a DROP_TABLE), a rename followed', () => {
  const sql = [
    'PRAGMA foreign_keys = OFF;',
    'ALTER TABLE "contact" RENAME COLUMN "Prenom" TO "PetitNom";',
    'CREATE TABLE "contact__fw_new" (',
    '  "Id" INTEGER PRIMARY KEY AUTOINCREMENT,',
    '  "Nom" VARCHAR(20) NOT NULL COLLATE NOCASE,',
    '  "PetitNom" VARCHAR(40) COLLATE NOCASE,',
    '  CONSTRAINT "fk_c" FOREIGN KEY ("VilleId") REFERENCES "ville" ("Id")',
    ');',
    'INSERT INTO "contact__fw_new" ("Id", "Nom", "PetitNom") SELECT "Id", "Nom", "PetitNom" FROM "contact";',
    'DROP TABLE "contact";',
    'ALTER TABLE "contact__fw_new" RENAME TO "contact";',
    'CREATE UNIQUE INDEX IF NOT EXISTS "uq_contact_petitnom" ON "contact" ("PetitNom");',
  ].join('\n');
  assert.equal(steps(sql, 'sqlite'), [
    { kind: 'COLUMN_DEFINITION', table: 'contact', column: 'Id', type: 'INTEGER', notNull: true },
    { kind: 'COLUMN_DEFINITION', table: 'contact', column: 'Nom', type: 'VARCHAR(20)', notNull: true },
    { kind: 'COLUMN_DEFINITION', table: 'contact', column: 'Prenom', type: 'VARCHAR(40)', notNull: false },
    { kind: 'REBUILD', table: 'contact', columns: ['Id', 'Nom', 'Prenom'] },
    { kind: 'UNIQUE', table: 'contact', columns: ['Prenom'] },
  ]);
});

test('CHECKs added: ADD CONSTRAINT … CHECK and an unnamed ADD CHECK (MariaDB), the CHECKs of a rebuilt table (SQLite); DEFAULT changes and DROP CONSTRAINT give none', () => {
  const mariadb = [
    "ALTER TABLE `contact` ALTER COLUMN `Nom` SET DEFAULT 'x', ALTER COLUMN `Age` DROP DEFAULT;",
    'ALTER TABLE `contact` DROP CONSTRAINT `ck_contact_age_max`;',
    'ALTER TABLE `contact` ADD CONSTRAINT `ck_contact_age_min` CHECK (`Age` >= 0), ADD CHECK (CHAR_LENGTH(`Nom`) >= 2);',
  ].join('\n');
  assert.equal(steps(mariadb, 'mariadb'), [
    { kind: 'CHECK', table: 'contact', name: 'ck_contact_age_min', test: '`Age` >= 0' },
    { kind: 'CHECK', table: 'contact', name: null, test: 'CHAR_LENGTH(`Nom`) >= 2' },
  ]);
  const sqlite = [
    'PRAGMA foreign_keys = OFF;',
    'CREATE TABLE "contact__fw_new" (',
    '  "Id" INTEGER PRIMARY KEY AUTOINCREMENT,',
    '  "Age" INT DEFAULT 18,',
    '  CONSTRAINT "ck_contact_age_min" CHECK ("Age" >= 0)',
    ');',
    'INSERT INTO "contact__fw_new" ("Id", "Age") SELECT "Id", "Age" FROM "contact";',
    'DROP TABLE "contact";',
    'ALTER TABLE "contact__fw_new" RENAME TO "contact";',
  ].join('\n');
  assert.equal(steps(sqlite, 'sqlite'), [
    { kind: 'COLUMN_DEFINITION', table: 'contact', column: 'Id', type: 'INTEGER', notNull: true },
    { kind: 'COLUMN_DEFINITION', table: 'contact', column: 'Age', type: 'INT', notNull: false },
    { kind: 'CHECK', table: 'contact', name: 'ck_contact_age_min', test: '"Age" >= 0' },
    { kind: 'REBUILD', table: 'contact', columns: ['Id', 'Age'] },
  ]);
});

test('statements that lose nothing give no step', () => {
  const sql =
    'CREATE TABLE "t" ("Id" INTEGER PRIMARY KEY, "Nom" TEXT NOT NULL);\nALTER TABLE "t" ADD COLUMN "Age" INT;\nCREATE INDEX "ix" ON "t" ("Nom");\nINSERT INTO "t" ("Nom") VALUES (\'DROP TABLE x\');\n';
  assert.equal(steps(sql, 'sqlite'), []);
});

test.run();
