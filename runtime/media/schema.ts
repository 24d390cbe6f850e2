/**
 * The `media` table (docs/uploads.md "The media table"), described once (runtime/db/ddl/table-spec.ts) and
 * spelled per dialect by the renderer of the entity tables (runtime/db/ddl/render.ts). `fw media:init` writes it
 * to `mvc/models/sql/media/media.sql` (MariaDB) and `media.sqlite.sql`; `fw db:apply` applies it after the auth
 * tables. `entity_id` is text so that any primary key fits; names, ids and paths compare case-sensitively
 * (`utf8mb4_bin`; bytes on SQLite), so `Photo` and `photo` are two entities (the functions refuse names and ids
 * with surrounding spaces, which MariaDB would ignore at the end).
 * A path is unique: two rows never share a file, and deleting one never takes another's file.
 */
import { column, FRAMEWORK_TABLE, idColumn, UTF8MB4_BIN } from '../db/ddl/columns.js';
import { renderCreateStatements, renderCreateTable } from '../db/ddl/render.js';
import type { TableSpec } from '../db/ddl/table-spec.js';
import type { DialectName } from '../db/dialect.js';

export const MEDIA_TABLE = 'media';
/** What the table holds, written as the file's comment line. */
export const MEDIA_TABLE_PURPOSE = 'Fichiers déposés rattachés aux enregistrements (chemin relatif au dossier des dépôts, rôle, ordre, texte alternatif).';

/** Column sizes, checked by the functions before any statement. */
export const MEDIA_LIMITS = { entityName: 100, entityId: 64, path: 255, originalName: 255, mimeType: 100, role: 50, altText: 255 } as const;

/** The `media` table, for both dialects. */
export const MEDIA_TABLE_SPEC: TableSpec = {
  table: MEDIA_TABLE,
  columns: [
    idColumn(),
    column('entity_name', `VARCHAR(${MEDIA_LIMITS.entityName})`, { mariadbCharset: UTF8MB4_BIN }),
    column('entity_id', `VARCHAR(${MEDIA_LIMITS.entityId})`, { mariadbCharset: UTF8MB4_BIN }),
    column('path', `VARCHAR(${MEDIA_LIMITS.path})`, { mariadbCharset: UTF8MB4_BIN }),
    column('original_name', `VARCHAR(${MEDIA_LIMITS.originalName})`, { nullable: true }),
    column('mime_type', `VARCHAR(${MEDIA_LIMITS.mimeType})`, { nullable: true }),
    column('size', 'BIGINT UNSIGNED', { nullable: true, sqliteType: 'BIGINT' }),
    column('role', `VARCHAR(${MEDIA_LIMITS.role})`, { default: "'default'" }),
    column('position', 'INT', { default: '0', sqliteType: 'INTEGER' }),
    column('alt_text', `VARCHAR(${MEDIA_LIMITS.altText})`, { nullable: true }),
    column('created_at', 'DATETIME'),
  ],
  primaryKey: ['id'],
  uniques: [{ name: 'uq_media_path', columns: ['path'] }],
  indexes: [{ name: 'ix_media_entity', columns: ['entity_name', 'entity_id'] }],
  foreignKeys: [],
  ...FRAMEWORK_TABLE,
};

/** The statements of the `media` table for one dialect (one text, statements separated by `;` and a new line). */
export function mediaTableSql(dialect: DialectName): string {
  return renderCreateTable(MEDIA_TABLE_SPEC, dialect).join('\n');
}

/** The statements one by one (to run them through `execute`). */
export function mediaTableStatements(dialect: DialectName): string[] {
  return renderCreateStatements(MEDIA_TABLE_SPEC, dialect);
}
