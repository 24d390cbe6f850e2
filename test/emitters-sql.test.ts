// Table-driven given/want cases for the SQL emitters: one entity or relation in, the exact statements out.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { modelNode, sqlTypeNode, fieldNode, type EntityNode, type FieldNode, type RelationNode } from '../compiler/ir.js';
import type { DialectName as Dialect } from '../runtime/db/dialect.js';
import { EmitError, emitRelationsSql, emitTableSql, GENERATED_MARKER } from '../emitters/index.js';
import { shortenIdentifier } from '../runtime/db/ddl/names.js';
import { entity, field, idField, manyToMany, manyToOne } from './emitters-fixture.js';

/** The statements of a generated SQL file: comment and blank lines dropped. */
function statements(text: string): string[] {
  return text.split('\n').filter((line) => line !== '' && !line.startsWith('--'));
}

const MARIADB_END = ') ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;';

function tableSql(given: { entities: EntityNode[]; relations?: RelationNode[] }, dialect: Dialect, name?: string): string[] {
  const model = modelNode({ entities: given.entities, relations: given.relations ?? [] });
  const target = name ? model.entities.find((e) => e.name === name) : model.entities[0];
  if (!target) throw new Error('no entity');
  return statements(emitTableSql(model, target, dialect));
}

// --- one column -------------------------------------------------------------------------------------------------

const unsignedWithoutText = fieldNode({ ...field('n', 'INT'), sqlType: sqlTypeNode({ base: 'INT', args: [], unsigned: true, text: 'INT' }) });

const columnCases: Array<{ name: string; given: FieldNode; mariadb: string; sqlite: string }> = [
  {
    name: 'VARCHAR, not null',
    given: field('nom', 'VARCHAR(100)'),
    mariadb: '`Nom` VARCHAR(100) NOT NULL',
    sqlite: '"Nom" VARCHAR(100) NOT NULL COLLATE NOCASE',
  },
  {
    name: 'nullable',
    given: field('telephone', 'VARCHAR(20)', { nullable: true }),
    mariadb: '`Telephone` VARCHAR(20) NULL',
    sqlite: '"Telephone" VARCHAR(20) COLLATE NOCASE',
  },
  { name: 'CHAR', given: field('code', 'CHAR(5)'), mariadb: '`Code` CHAR(5) NOT NULL', sqlite: '"Code" CHAR(5) NOT NULL COLLATE NOCASE' },
  { name: 'TEXT', given: field('notes', 'TEXT', { nullable: true }), mariadb: '`Notes` TEXT NULL', sqlite: '"Notes" TEXT COLLATE NOCASE' },
  { name: 'boolean', given: field('actif', 'TINYINT(1)'), mariadb: '`Actif` TINYINT(1) NOT NULL', sqlite: '"Actif" TINYINT(1) NOT NULL' },
  {
    name: 'DECIMAL: TEXT on SQLite (exact, at the declared scale)',
    given: field('prix', 'DECIMAL(10,2)'),
    mariadb: '`Prix` DECIMAL(10,2) NOT NULL',
    sqlite: '"Prix" TEXT NOT NULL',
  },
  {
    name: 'DECIMAL UNSIGNED, nullable',
    given: field('remise', 'DECIMAL(5,0) UNSIGNED', { nullable: true }),
    mariadb: '`Remise` DECIMAL(5,0) UNSIGNED NULL',
    sqlite: '"Remise" TEXT',
  },
  { name: 'FLOAT', given: field('note', 'FLOAT', { nullable: true }), mariadb: '`Note` FLOAT NULL', sqlite: '"Note" FLOAT' },
  { name: 'DATE', given: field('ne_le', 'DATE'), mariadb: '`NeLe` DATE NOT NULL', sqlite: '"NeLe" DATE NOT NULL' },
  { name: 'DATETIME', given: field('cree_le', 'DATETIME'), mariadb: '`CreeLe` DATETIME NOT NULL', sqlite: '"CreeLe" DATETIME NOT NULL' },
  { name: 'TIME', given: field('heure', 'TIME'), mariadb: '`Heure` TIME NOT NULL', sqlite: '"Heure" TIME NOT NULL' },
  { name: 'BLOB', given: field('donnees', 'BLOB', { nullable: true }), mariadb: '`Donnees` BLOB NULL', sqlite: '"Donnees" BLOB' },
  { name: 'BIGINT UNSIGNED', given: field('vues', 'BIGINT UNSIGNED'), mariadb: '`Vues` BIGINT UNSIGNED NOT NULL', sqlite: '"Vues" BIGINT UNSIGNED NOT NULL' },
  { name: 'unsigned flag without UNSIGNED in the text', given: unsignedWithoutText, mariadb: '`N` INT UNSIGNED NOT NULL', sqlite: '"N" INT UNSIGNED NOT NULL' },
  {
    name: 'explicit column (sql key)',
    given: field('date_naissance', 'DATE', { column: 'Naissance' }),
    mariadb: '`Naissance` DATE NOT NULL',
    sqlite: '"Naissance" DATE NOT NULL',
  },
  {
    name: 'reserved word as column, quoted',
    given: field('ordre', 'INT', { column: 'Order' }),
    mariadb: '`Order` INT NOT NULL',
    sqlite: '"Order" INT NOT NULL',
  },
  {
    name: 'quote characters doubled',
    given: field('bizarre', 'INT', { column: 'We`ird"' }),
    mariadb: '`We``ird"` INT NOT NULL',
    sqlite: '"We`ird""" INT NOT NULL',
  },
];

for (const c of columnCases) {
  test(`column: ${c.name}`, () => {
    const given = { entities: [entity('Item', [idField(), c.given])] };
    assert.equal(tableSql(given, 'mariadb'), [
      'CREATE TABLE IF NOT EXISTS `item` (',
      '  `Id` INT UNSIGNED NOT NULL AUTO_INCREMENT,',
      `  ${c.mariadb},`,
      '  PRIMARY KEY (`Id`)',
      MARIADB_END,
    ]);
    assert.equal(tableSql(given, 'sqlite'), ['CREATE TABLE IF NOT EXISTS "item" (', '  "Id" INTEGER PRIMARY KEY AUTOINCREMENT,', `  ${c.sqlite}`, ');']);
  });
}

// --- keys and indexes -------------------------------------------------------------------------------------------

const ville = entity('Ville', [idField(), field('nom', 'VARCHAR(100)')]);

const tableCases: Array<{ name: string; given: { entities: EntityNode[]; relations?: RelationNode[] }; entity?: string; mariadb: string[]; sqlite: string[] }> =
  [
    {
      name: 'unique field: a named unique key',
      given: { entities: [entity('Item', [idField(), field('email', 'VARCHAR(190)', { unique: true })])] },
      mariadb: [
        'CREATE TABLE IF NOT EXISTS `item` (',
        '  `Id` INT UNSIGNED NOT NULL AUTO_INCREMENT,',
        '  `Email` VARCHAR(190) NOT NULL,',
        '  PRIMARY KEY (`Id`),',
        '  UNIQUE KEY `uq_item_email` (`Email`)',
        MARIADB_END,
      ],
      sqlite: [
        'CREATE TABLE IF NOT EXISTS "item" (',
        '  "Id" INTEGER PRIMARY KEY AUTOINCREMENT,',
        '  "Email" VARCHAR(190) NOT NULL COLLATE NOCASE',
        ');',
        'CREATE UNIQUE INDEX IF NOT EXISTS "uq_item_email" ON "item" ("Email");',
      ],
    },
    {
      name: 'filter field: an index; filter and unique: the unique key only',
      given: {
        entities: [entity('Item', [idField(), field('statut', 'VARCHAR(20)', { filter: true }), field('code', 'CHAR(3)', { filter: true, unique: true })])],
      },
      mariadb: [
        'CREATE TABLE IF NOT EXISTS `item` (',
        '  `Id` INT UNSIGNED NOT NULL AUTO_INCREMENT,',
        '  `Statut` VARCHAR(20) NOT NULL,',
        '  `Code` CHAR(3) NOT NULL,',
        '  PRIMARY KEY (`Id`),',
        '  UNIQUE KEY `uq_item_code` (`Code`),',
        '  KEY `ix_item_statut` (`Statut`)',
        MARIADB_END,
      ],
      sqlite: [
        'CREATE TABLE IF NOT EXISTS "item" (',
        '  "Id" INTEGER PRIMARY KEY AUTOINCREMENT,',
        '  "Statut" VARCHAR(20) NOT NULL COLLATE NOCASE,',
        '  "Code" CHAR(3) NOT NULL COLLATE NOCASE',
        ');',
        'CREATE UNIQUE INDEX IF NOT EXISTS "uq_item_code" ON "item" ("Code");',
        'CREATE INDEX IF NOT EXISTS "ix_item_statut" ON "item" ("Statut");',
      ],
    },
    {
      name: 'many-to-one key: an index; the foreign key inline on SQLite only',
      given: {
        entities: [entity('Contact', [idField(), field('ville_id', 'INT UNSIGNED', { nullable: true })]), ville],
        relations: [
          manyToOne('contact_ville', 'Contact.ville_id', 'Ville.id', { foreignKeyName: 'fk_contact_villeid', onDelete: 'SET NULL', onUpdate: 'CASCADE' }),
        ],
      },
      entity: 'Contact',
      mariadb: [
        'CREATE TABLE IF NOT EXISTS `contact` (',
        '  `Id` INT UNSIGNED NOT NULL AUTO_INCREMENT,',
        '  `VilleId` INT UNSIGNED NULL,',
        '  PRIMARY KEY (`Id`),',
        '  KEY `ix_contact_villeid` (`VilleId`)',
        MARIADB_END,
      ],
      sqlite: [
        'CREATE TABLE IF NOT EXISTS "contact" (',
        '  "Id" INTEGER PRIMARY KEY AUTOINCREMENT,',
        '  "VilleId" INT UNSIGNED,',
        '  CONSTRAINT "fk_contact_villeid" FOREIGN KEY ("VilleId") REFERENCES "ville" ("Id") ON DELETE SET NULL ON UPDATE CASCADE',
        ');',
        'CREATE INDEX IF NOT EXISTS "ix_contact_villeid" ON "contact" ("VilleId");',
      ],
    },
    {
      name: 'the referenced side of a many-to-one is unchanged',
      given: {
        entities: [entity('Contact', [idField(), field('ville_id', 'INT UNSIGNED')]), ville],
        relations: [manyToOne('contact_ville', 'Contact.ville_id', 'Ville.id', { foreignKeyName: 'fk_contact_villeid' })],
      },
      entity: 'Ville',
      mariadb: [
        'CREATE TABLE IF NOT EXISTS `ville` (',
        '  `Id` INT UNSIGNED NOT NULL AUTO_INCREMENT,',
        '  `Nom` VARCHAR(100) NOT NULL,',
        '  PRIMARY KEY (`Id`)',
        MARIADB_END,
      ],
      sqlite: ['CREATE TABLE IF NOT EXISTS "ville" (', '  "Id" INTEGER PRIMARY KEY AUTOINCREMENT,', '  "Nom" VARCHAR(100) NOT NULL COLLATE NOCASE', ');'],
    },
    {
      name: 'unique foreign key: the unique key serves, no second index',
      given: {
        entities: [entity('Profil', [idField(), field('ville_id', 'INT UNSIGNED', { unique: true })]), ville],
        relations: [manyToOne('profil_ville', 'Profil.ville_id', 'Ville.id', { foreignKeyName: 'fk_profil_villeid' })],
      },
      entity: 'Profil',
      mariadb: [
        'CREATE TABLE IF NOT EXISTS `profil` (',
        '  `Id` INT UNSIGNED NOT NULL AUTO_INCREMENT,',
        '  `VilleId` INT UNSIGNED NOT NULL,',
        '  PRIMARY KEY (`Id`),',
        '  UNIQUE KEY `uq_profil_villeid` (`VilleId`)',
        MARIADB_END,
      ],
      sqlite: [
        'CREATE TABLE IF NOT EXISTS "profil" (',
        '  "Id" INTEGER PRIMARY KEY AUTOINCREMENT,',
        '  "VilleId" INT UNSIGNED NOT NULL,',
        '  CONSTRAINT "fk_profil_villeid" FOREIGN KEY ("VilleId") REFERENCES "ville" ("Id") ON DELETE RESTRICT ON UPDATE CASCADE',
        ');',
        'CREATE UNIQUE INDEX IF NOT EXISTS "uq_profil_villeid" ON "profil" ("VilleId");',
      ],
    },
    {
      name: 'a key that is not auto-increment: a table primary key, NOT NULL on SQLite too',
      given: { entities: [entity('Pays', [field('code', 'CHAR(2)', { primaryKey: true }), field('nom', 'VARCHAR(80)')], 'pays')] },
      mariadb: ['CREATE TABLE IF NOT EXISTS `pays` (', '  `Code` CHAR(2) NOT NULL,', '  `Nom` VARCHAR(80) NOT NULL,', '  PRIMARY KEY (`Code`)', MARIADB_END],
      sqlite: [
        'CREATE TABLE IF NOT EXISTS "pays" (',
        '  "Code" CHAR(2) NOT NULL COLLATE NOCASE,',
        '  "Nom" VARCHAR(80) NOT NULL COLLATE NOCASE,',
        '  PRIMARY KEY ("Code")',
        ');',
      ],
    },
    {
      name: 'reserved word as table, quoted',
      given: { entities: [entity('Groupe', [idField()], 'group')] },
      mariadb: ['CREATE TABLE IF NOT EXISTS `group` (', '  `Id` INT UNSIGNED NOT NULL AUTO_INCREMENT,', '  PRIMARY KEY (`Id`)', MARIADB_END],
      sqlite: ['CREATE TABLE IF NOT EXISTS "group" (', '  "Id" INTEGER PRIMARY KEY AUTOINCREMENT', ');'],
    },
  ];

for (const c of tableCases) {
  test(`table: ${c.name}`, () => {
    assert.equal(tableSql(c.given, 'mariadb', c.entity), c.mariadb, 'mariadb');
    assert.equal(tableSql(c.given, 'sqlite', c.entity), c.sqlite, 'sqlite');
  });
}

test('names longer than 64 characters are shortened the same way every time', () => {
  const long = 'une_table_au_nom_vraiment_tres_long_pour_un_carnet_de_contacts';
  const given = { entities: [entity('Long', [idField(), field('une_colonne_elle_aussi_tres_longue', 'INT', { filter: true })], long)] };
  const [key] = tableSql(given, 'mariadb').filter((line) => line.startsWith('  KEY'));
  const name = /`([^`]+)`/.exec(key ?? '')?.[1] ?? '';
  assert.is(name.length, 64);
  assert.is(name, shortenIdentifier(`ix_${long}_unecolonneelleaussitreslongue`));
  assert.match(name, /^ix_une_table_au_nom_vraiment.*_[0-9a-f]{8}$/);
  assert.is(shortenIdentifier('court'), 'court');
});

// --- relations --------------------------------------------------------------------------------------------------

const contact = entity('Contact', [idField(), field('ville_id', 'INT UNSIGNED', { nullable: true })]);
const tag = entity('Tag', [field('code', 'VARCHAR(20)', { primaryKey: true })]);

const relationCases: Array<{ name: string; relations: RelationNode[]; mariadb: string[]; sqlite: string[] }> = [
  {
    name: 'many-to-one: ALTER TABLE on MariaDB, nothing on SQLite (inline in the table)',
    relations: [
      manyToOne('contact_ville', 'Contact.ville_id', 'Ville.id', { foreignKeyName: 'fk_contact_villeid', onDelete: 'RESTRICT', onUpdate: 'NO ACTION' }),
    ],
    mariadb: [
      'ALTER TABLE `contact` ADD CONSTRAINT `fk_contact_villeid` FOREIGN KEY (`VilleId`) REFERENCES `ville` (`Id`) ON DELETE RESTRICT ON UPDATE NO ACTION;',
    ],
    sqlite: [],
  },
  {
    name: 'many-to-many with pivot fields: side columns typed like the referenced keys, pair key, named foreign keys',
    relations: [
      manyToMany('contact_tag', 'Contact.id', 'Tag.code', {
        pivotTable: 'contact_tag',
        foreignKeyName: 'fk_contact_tag',
        pivotFields: [field('added_at', 'DATETIME'), field('note', 'VARCHAR(50)', { nullable: true }), field('rang', 'INT', { unique: true })],
        onDelete: 'CASCADE',
        onUpdate: 'RESTRICT',
      }),
    ],
    mariadb: [
      'CREATE TABLE IF NOT EXISTS `contact_tag` (',
      '  `ContactId` INT UNSIGNED NOT NULL,',
      '  `TagCode` VARCHAR(20) NOT NULL,',
      '  `AddedAt` DATETIME NOT NULL,',
      '  `Note` VARCHAR(50) NULL,',
      '  `Rang` INT NOT NULL,',
      '  PRIMARY KEY (`ContactId`, `TagCode`),',
      '  UNIQUE KEY `uq_contact_tag_rang` (`Rang`),',
      '  KEY `ix_contact_tag_tagcode` (`TagCode`),',
      '  CONSTRAINT `fk_contact_tag_contact` FOREIGN KEY (`ContactId`) REFERENCES `contact` (`Id`) ON DELETE CASCADE ON UPDATE RESTRICT,',
      '  CONSTRAINT `fk_contact_tag_tag` FOREIGN KEY (`TagCode`) REFERENCES `tag` (`Code`) ON DELETE CASCADE ON UPDATE RESTRICT',
      MARIADB_END,
    ],
    sqlite: [
      'CREATE TABLE IF NOT EXISTS "contact_tag" (',
      '  "ContactId" INT UNSIGNED NOT NULL,',
      '  "TagCode" VARCHAR(20) NOT NULL COLLATE NOCASE,',
      '  "AddedAt" DATETIME NOT NULL,',
      '  "Note" VARCHAR(50) COLLATE NOCASE,',
      '  "Rang" INT NOT NULL,',
      '  PRIMARY KEY ("ContactId", "TagCode"),',
      '  CONSTRAINT "fk_contact_tag_contact" FOREIGN KEY ("ContactId") REFERENCES "contact" ("Id") ON DELETE CASCADE ON UPDATE RESTRICT,',
      '  CONSTRAINT "fk_contact_tag_tag" FOREIGN KEY ("TagCode") REFERENCES "tag" ("Code") ON DELETE CASCADE ON UPDATE RESTRICT',
      ');',
      'CREATE UNIQUE INDEX IF NOT EXISTS "uq_contact_tag_rang" ON "contact_tag" ("Rang");',
      'CREATE INDEX IF NOT EXISTS "ix_contact_tag_tagcode" ON "contact_tag" ("TagCode");',
    ],
  },
  {
    name: 'ordered by relation name, whatever the file order',
    relations: [
      manyToOne('z_second', 'Contact.ville_id', 'Ville.id', { foreignKeyName: 'fk_b' }),
      manyToOne('a_first', 'Contact.ville_id', 'Ville.id', { foreignKeyName: 'fk_a' }),
    ],
    mariadb: [
      'ALTER TABLE `contact` ADD CONSTRAINT `fk_a` FOREIGN KEY (`VilleId`) REFERENCES `ville` (`Id`) ON DELETE RESTRICT ON UPDATE CASCADE;',
      'ALTER TABLE `contact` ADD CONSTRAINT `fk_b` FOREIGN KEY (`VilleId`) REFERENCES `ville` (`Id`) ON DELETE RESTRICT ON UPDATE CASCADE;',
    ],
    sqlite: [],
  },
  { name: 'no relation', relations: [], mariadb: [], sqlite: [] },
];

for (const c of relationCases) {
  test(`relations: ${c.name}`, () => {
    const model = modelNode({ entities: [contact, ville, tag], relations: c.relations });
    const mariadb = emitRelationsSql(model, 'mariadb');
    const sqlite = emitRelationsSql(model, 'sqlite');
    assert.equal(statements(mariadb), c.mariadb, 'mariadb');
    assert.equal(statements(sqlite), c.sqlite, 'sqlite');
    assert.is(mariadb.split('\n')[0], `-- ${GENERATED_MARKER} (regenerate with: fw sync:relations)`);
    assert.is(sqlite.split('\n')[0], `-- ${GENERATED_MARKER} (regenerate with: fw sync:relations)`);
  });
}

const errorCases: Array<{ name: string; relation: RelationNode; message: RegExp }> = [
  { name: 'unknown entity', relation: manyToOne('x', 'Contact.ville_id', 'Region.id', { foreignKeyName: 'fk_x' }), message: /entité inconnue « Region »/ },
  { name: 'unknown field', relation: manyToOne('x', 'Contact.pays_id', 'Ville.id', { foreignKeyName: 'fk_x' }), message: /n'a pas de champ « pays_id »/ },
  {
    name: 'many-to-many of an entity with itself without its sides named',
    relation: manyToMany('amis', 'Contact.id', 'Contact.id', { pivotTable: 'contact_ami', foreignKeyName: 'fk_ami' }),
    message: /vers elle-même demande « from_name » et « to_name »/,
  },
  {
    name: 'pivot field named like a side column',
    relation: manyToMany('ct', 'Contact.id', 'Tag.code', { pivotTable: 'ct', foreignKeyName: 'fk_ct', pivotFields: [field('contact_id', 'INT')] }),
    message: /deux colonnes « ContactId »/,
  },
];

for (const c of errorCases) {
  test(`relations refused: ${c.name}`, () => {
    const model = modelNode({ entities: [contact, ville, tag], relations: [c.relation] });
    assert.throws(
      () => emitRelationsSql(model, 'mariadb'),
      (error: unknown) => error instanceof EmitError && c.message.test(error.message),
    );
  });
}

test.run();
