/**
 * The mail SQL files `fw mail:init` writes (docs/mail.md "The mail_log table"): `mvc/models/sql/mail/mail_log.sql`
 * (MariaDB) and `mail_log.sqlite.sql` (SQLite), from the runtime's description of the table
 * (runtime/mail/schema.ts). Regenerable: `fw mail:init` rewrites a file while it keeps its marker line; a user who
 * removes that line owns the file, and `fw db:apply` then applies it as written.
 */
import { MAIL_LOG_TABLE, MAIL_LOG_TABLE_PURPOSE, mailLogTableSql } from '../../runtime/mail/schema.js';
import { DIALECT_NAMES, spellingOf, type DialectName } from '../../runtime/db/dialect.js';
import { sqlMarkerLine } from '../marker.js';
import type { PlannedFile } from '../planned-file.js';

/** Folder of the mail SQL files, relative to the project root. */
export const MAIL_SQL_DIR = 'mvc/models/sql/mail';

/** The command that writes (and rewrites) them. */
export const MAIL_INIT_COMMAND = 'fw mail:init';

/** `mvc/models/sql/mail/mail_log.sql` (MariaDB) or `mvc/models/sql/mail/mail_log.sqlite.sql`. */
export function mailSqlPath(dialect: DialectName): string {
  return `${MAIL_SQL_DIR}/${MAIL_LOG_TABLE}${spellingOf(dialect).fileSuffix}`;
}

/** The whole file: marker line, what the table holds, the dialect, then the statements. */
export function mailSqlContent(dialect: DialectName): string {
  return [
    sqlMarkerLine(MAIL_INIT_COMMAND),
    `-- Table ${MAIL_LOG_TABLE} (${spellingOf(dialect).label}) : ${MAIL_LOG_TABLE_PURPOSE}`,
    '',
    mailLogTableSql(dialect),
    '',
  ].join('\n');
}

/** The mail SQL files, one per dialect in the order of DIALECT_NAMES. */
export function mailSqlFiles(): PlannedFile[] {
  return DIALECT_NAMES.map((dialect) => ({ path: mailSqlPath(dialect), content: mailSqlContent(dialect), kind: 'regenerable' as const }));
}
