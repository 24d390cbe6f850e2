/**
 * The `media` table (docs/uploads.md "The media table"), one statement list per
 * dialect. `fw media:init` writes it to `mvc/models/sql/media/media.sql` (MariaDB) and `media.sqlite.sql`;
 * `fw db:apply` applies it after the auth tables. `entity_id` is text so that any primary key fits; names, ids and
 * paths compare case-sensitively (`utf8mb4_bin`), so `Photo` and `photo` are two entities (the functions refuse
 * names and ids with surrounding spaces, which MariaDB would ignore at the end).
 * A path is unique: two rows never share a file, and deleting one never takes another's file.
 */
import type { DialectName } from '../db/dialect.js';

export const MEDIA_TABLE = 'media';
/** What the table holds, written as the file's comment line. */
export const MEDIA_TABLE_PURPOSE = 'Fichiers déposés rattachés aux enregistrements (chemin relatif au dossier des dépôts, rôle, ordre, texte alternatif).';

/** Column sizes, checked by the functions before any statement. */
export const MEDIA_LIMITS = { entityName: 100, entityId: 64, path: 255, originalName: 255, mimeType: 100, role: 50, altText: 255 } as const;

const MARIADB = `CREATE TABLE IF NOT EXISTS \`media\` (
  \`id\` INT UNSIGNED NOT NULL AUTO_INCREMENT,
  \`entity_name\` VARCHAR(100) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
  \`entity_id\` VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
  \`path\` VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
  \`original_name\` VARCHAR(255) NULL,
  \`mime_type\` VARCHAR(100) NULL,
  \`size\` BIGINT UNSIGNED NULL,
  \`role\` VARCHAR(50) NOT NULL DEFAULT 'default',
  \`position\` INT NOT NULL DEFAULT 0,
  \`alt_text\` VARCHAR(255) NULL,
  \`created_at\` DATETIME NOT NULL,
  PRIMARY KEY (\`id\`),
  UNIQUE KEY \`uq_media_path\` (\`path\`),
  KEY \`ix_media_entity\` (\`entity_name\`, \`entity_id\`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;`;

const SQLITE = `CREATE TABLE IF NOT EXISTS "media" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "entity_name" VARCHAR(100) NOT NULL,
  "entity_id" VARCHAR(64) NOT NULL,
  "path" VARCHAR(255) NOT NULL,
  "original_name" VARCHAR(255),
  "mime_type" VARCHAR(100),
  "size" BIGINT,
  "role" VARCHAR(50) NOT NULL DEFAULT 'default',
  "position" INTEGER NOT NULL DEFAULT 0,
  "alt_text" VARCHAR(255),
  "created_at" DATETIME NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS "uq_media_path" ON "media" ("path");
CREATE INDEX IF NOT EXISTS "ix_media_entity" ON "media" ("entity_name", "entity_id");`;

/** The statements of the `media` table for one dialect (one text, statements separated by `;` and a new line). */
export function mediaTableSql(dialect: DialectName): string {
  return dialect === 'mariadb' ? MARIADB : SQLITE;
}

/** The statements one by one (to run them through `execute`). */
export function mediaTableStatements(dialect: DialectName): string[] {
  return mediaTableSql(dialect)
    .split(/;\s*(?:\n|$)/)
    .map((s) => s.trim())
    .filter(Boolean);
}
