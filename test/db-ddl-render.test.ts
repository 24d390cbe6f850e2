// The table renderer (runtime/db/ddl/render.ts) on what only the framework's own tables use: a DEFAULT, a MariaDB
// column charset, a SQLite declared type and collation of their own, a table whose text columns compare bytes on
// SQLite, a foreign key without ON UPDATE; and the statements one by one as `fw db:init` runs them. Given a
// description, the exact text out. What the tables become once created is db-framework-tables.test.ts.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { AUTH_TABLES, authTableSql } from '../runtime/auth/schema.js';
import { ASCII_BIN, cascadeForeignKey, column, FRAMEWORK_TABLE, idColumn, refColumn, UTF8MB4_BIN } from '../runtime/db/ddl/columns.js';
import { renderColumn, renderCreateStatements, renderCreateTable } from '../runtime/db/ddl/render.js';
import type { ColumnSpec, TableSpec } from '../runtime/db/ddl/table-spec.js';
import { fwSessionsDdl } from '../runtime/session/sessions-table.js';
import { DIALECTS } from './helpers/dialects.js';

const columnCases: Array<{ name: string; given: ColumnSpec; mariadb: string; sqlite: string }> = [
  {
    name: 'a numeric DEFAULT, on both dialects',
    given: column('is_active', 'TINYINT(1)', { default: '1' }),
    mariadb: '`is_active` TINYINT(1) NOT NULL DEFAULT 1',
    sqlite: '"is_active" TINYINT(1) NOT NULL DEFAULT 1',
  },
  {
    name: 'a text DEFAULT before the SQLite collation',
    given: column('role', 'VARCHAR(50)', { default: "'default'" }),
    mariadb: "`role` VARCHAR(50) NOT NULL DEFAULT 'default'",
    sqlite: `"role" VARCHAR(50) NOT NULL DEFAULT 'default' COLLATE NOCASE`,
  },
  {
    name: 'a MariaDB charset and collation, right after the type',
    given: column('session_id', 'CHAR(64)', { mariadbCharset: ASCII_BIN }),
    mariadb: '`session_id` CHAR(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL',
    sqlite: '"session_id" CHAR(64) NOT NULL COLLATE NOCASE',
  },
  {
    name: 'a nullable binary column with no SQLite collation',
    given: column('user_id', 'VARCHAR(255)', { nullable: true, mariadbCharset: UTF8MB4_BIN, sqliteCollation: null }),
    mariadb: '`user_id` VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL',
    sqlite: '"user_id" VARCHAR(255)',
  },
  {
    name: 'a SQLite declared type of its own',
    given: refColumn('user_id'),
    mariadb: '`user_id` INT UNSIGNED NOT NULL',
    sqlite: '"user_id" INTEGER NOT NULL',
  },
  {
    name: 'a SQLite declared type of its own is not collated as text',
    given: column('expires_at', 'DATETIME', { sqliteType: 'TEXT' }),
    mariadb: '`expires_at` DATETIME NOT NULL',
    sqlite: '"expires_at" TEXT NOT NULL',
  },
];

for (const c of columnCases) {
  test(`column: ${c.name}`, () => {
    assert.is(renderColumn(c.given, 'mariadb'), c.mariadb);
    assert.is(renderColumn(c.given, 'sqlite'), c.sqlite);
  });
}

const notes: TableSpec = {
  table: 'notes',
  columns: [
    idColumn(),
    refColumn('user_id'),
    column('title', 'VARCHAR(100)', { sqliteCollation: 'NOCASE' }),
    column('body', 'TEXT'),
    column('rank', 'INT', { default: '0', sqliteType: 'INTEGER' }),
  ],
  primaryKey: ['id'],
  uniques: [{ name: 'uq_notes_title', columns: ['title'] }],
  indexes: [{ name: 'ix_notes_user_id', columns: ['user_id'] }],
  foreignKeys: [cascadeForeignKey('fk_notes_user', 'user_id', 'users')],
  ...FRAMEWORK_TABLE,
};

test('a framework table on MariaDB: keys inside CREATE TABLE, ON DELETE without ON UPDATE, the table options', () => {
  assert.equal(renderCreateTable(notes, 'mariadb'), [
    'CREATE TABLE IF NOT EXISTS `notes` (',
    '  `id` INT UNSIGNED NOT NULL AUTO_INCREMENT,',
    '  `user_id` INT UNSIGNED NOT NULL,',
    '  `title` VARCHAR(100) NOT NULL,',
    '  `body` TEXT NOT NULL,',
    '  `rank` INT NOT NULL DEFAULT 0,',
    '  PRIMARY KEY (`id`),',
    '  UNIQUE KEY `uq_notes_title` (`title`),',
    '  KEY `ix_notes_user_id` (`user_id`),',
    '  CONSTRAINT `fk_notes_user` FOREIGN KEY (`user_id`) REFERENCES `users` (`id`) ON DELETE CASCADE',
    ') ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;',
  ]);
});

test('a framework table on SQLite: text compares bytes unless a column names a collation; indexes after the table', () => {
  assert.equal(renderCreateTable(notes, 'sqlite'), [
    'CREATE TABLE IF NOT EXISTS "notes" (',
    '  "id" INTEGER PRIMARY KEY AUTOINCREMENT,',
    '  "user_id" INTEGER NOT NULL,',
    '  "title" VARCHAR(100) NOT NULL COLLATE NOCASE,',
    '  "body" TEXT NOT NULL,',
    '  "rank" INTEGER NOT NULL DEFAULT 0,',
    '  CONSTRAINT "fk_notes_user" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE',
    ');',
    'CREATE UNIQUE INDEX IF NOT EXISTS "uq_notes_title" ON "notes" ("title");',
    'CREATE INDEX IF NOT EXISTS "ix_notes_user_id" ON "notes" ("user_id");',
  ]);
});

test('an entity table (no sqliteTextCollation) keeps NOCASE on its text columns and both referential actions', () => {
  const entityLike: TableSpec = {
    table: 'tag',
    columns: [column('Nom', 'VARCHAR(50)')],
    primaryKey: ['Nom'],
    uniques: [],
    indexes: [],
    foreignKeys: [{ name: 'fk_tag_x', columns: ['Nom'], refTable: 'x', refColumns: ['Nom'], onDelete: 'RESTRICT', onUpdate: 'CASCADE' }],
  };
  assert.equal(renderCreateTable(entityLike, 'sqlite'), [
    'CREATE TABLE IF NOT EXISTS "tag" (',
    '  "Nom" VARCHAR(50) NOT NULL COLLATE NOCASE,',
    '  PRIMARY KEY ("Nom"),',
    '  CONSTRAINT "fk_tag_x" FOREIGN KEY ("Nom") REFERENCES "x" ("Nom") ON DELETE RESTRICT ON UPDATE CASCADE',
    ');',
  ]);
});

test('the statements one by one are the same text, cut at each statement, without the final semicolon', () => {
  for (const dialect of DIALECTS) {
    const statements = renderCreateStatements(notes, dialect);
    assert.is(statements.length, dialect === 'mariadb' ? 1 : 3);
    assert.ok(statements.every((s) => !s.endsWith(';')));
    assert.is(`${statements.join(';\n')};`, renderCreateTable(notes, dialect).join('\n'));
  }
});

test('the auth files and fw_sessions are rendered from their descriptions', () => {
  const users = AUTH_TABLES.find((t) => t.name === 'users')!;
  assert.is(authTableSql(users, 'sqlite').split('\n')[2], '  "email" VARCHAR(190) NOT NULL COLLATE NOCASE,');
  assert.is(authTableSql(users, 'mariadb').split('\n')[2], '  `email` VARCHAR(190) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,');
  assert.equal(
    fwSessionsDdl('sqlite').map((s) => s.split('\n')[0]),
    [
      'CREATE TABLE IF NOT EXISTS "fw_sessions" (',
      'CREATE INDEX IF NOT EXISTS "ix_fw_sessions_expires_at" ON "fw_sessions" ("expires_at")',
      'CREATE INDEX IF NOT EXISTS "ix_fw_sessions_user_id" ON "fw_sessions" ("user_id")',
    ],
  );
});

test.run();
