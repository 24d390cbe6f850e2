/**
 * The media SQL files `fw media:init` writes (docs/uploads.md "The media table"): `mvc/models/sql/media/media.sql`
 * (MariaDB) and `media.sqlite.sql` (SQLite), from the runtime's description of the table (runtime/media/schema.ts). Regenerable:
 * `fw media:init` rewrites a file while it keeps its marker line; a user who removes that line owns the file, and
 * `fw db:apply` then applies it as written.
 */
import { MEDIA_TABLE, MEDIA_TABLE_PURPOSE, mediaTableSql } from '../../runtime/media/schema.js';
import { DIALECT_NAMES, spellingOf, type DialectName } from '../../runtime/db/dialect.js';
import { sqlMarkerLine } from '../marker.js';
import type { PlannedFile } from '../planned-file.js';

/** Folder of the media SQL files, relative to the project root. */
export const MEDIA_SQL_DIR = 'mvc/models/sql/media';

/** The command that writes (and rewrites) them. */
export const MEDIA_INIT_COMMAND = 'fw media:init';

/** `mvc/models/sql/media/media.sql` (MariaDB) or `mvc/models/sql/media/media.sqlite.sql`. */
export function mediaSqlPath(dialect: DialectName): string {
  return `${MEDIA_SQL_DIR}/${MEDIA_TABLE}${spellingOf(dialect).fileSuffix}`;
}

/** The whole file: marker line, what the table holds, the dialect, then the statements. */
export function mediaSqlContent(dialect: DialectName): string {
  return [
    sqlMarkerLine(MEDIA_INIT_COMMAND),
    `-- Table ${MEDIA_TABLE} (${spellingOf(dialect).label}) : ${MEDIA_TABLE_PURPOSE}`,
    '',
    mediaTableSql(dialect),
    '',
  ].join('\n');
}

/** The media SQL files, one per dialect in the order of DIALECT_NAMES. */
export function mediaSqlFiles(): PlannedFile[] {
  return DIALECT_NAMES.map((dialect) => ({ path: mediaSqlPath(dialect), content: mediaSqlContent(dialect), kind: 'regenerable' as const }));
}
