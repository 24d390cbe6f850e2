/**
 * The mail files of a project as the CLI sees them: the `mail_log` SQL files `fw db:apply` runs (written by
 * `fw mail:init`), their state for `mail:doctor`, and whether the project uses mail at all (its templates, its SQL
 * files or a MAIL_* variable), which decides whether `fw doctor` runs the mail checks.
 */
import fs from 'node:fs';
import path from 'node:path';
import { hasGeneratedMarker } from '../../emitters/marker.js';
import { MAIL_SQL_DIR, mailSqlContent, mailSqlPath } from '../../emitters/mail/sql-files.js';
import { MAIL_VIEWS_DIR } from '../../emitters/mail/templates.js';
import { DIALECT_NAMES, type DialectName } from '../../runtime/db/dialect.js';

/** `absent`, `current` (what mail:init writes), `stale` (still marked as generated, but different), `owned` (marker removed). */
export type MailSqlState = 'absent' | 'current' | 'stale' | 'owned';

function isFile(root: string, relative: string): boolean {
  return fs.statSync(path.join(root, relative), { throwIfNoEntry: false })?.isFile() === true;
}

/** The state of the mail SQL file of `dialect`. */
export function mailSqlState(root: string, dialect: DialectName): MailSqlState {
  const file = mailSqlPath(dialect);
  if (!isFile(root, file)) return 'absent';
  const text = fs.readFileSync(path.join(root, file), 'utf8');
  if (text === mailSqlContent(dialect)) return 'current';
  return hasGeneratedMarker(text) ? 'stale' : 'owned';
}

/**
 * The mail SQL file `db:apply` runs after the auth and media tables, for `dialect`: none when the project has
 * neither mail file (no `fw mail:init`), else the file as it is on disk (one the user took over included). A
 * missing file, or one still marked as generated that differs from what `mail:init` writes, is a problem: nothing
 * is applied.
 */
export function mailFilesToApply(root: string, dialect: DialectName): { files: Array<{ path: string; text: string }>; problems: string[] } {
  const present = DIALECT_NAMES.filter((d) => isFile(root, mailSqlPath(d)));
  if (present.length === 0) return { files: [], problems: [] };
  const file = mailSqlPath(dialect);
  const state = mailSqlState(root, dialect);
  if (state === 'absent') return { files: [], problems: [`${file} (absent)`] };
  if (state === 'stale') return { files: [], problems: [`${file} (périmé)`] };
  return { files: [{ path: file, text: fs.readFileSync(path.join(root, file), 'utf8') }], problems: [] };
}

/** True when the project has mail templates or mail SQL files (read only; links are followed). */
export function mailFilesPresent(root: string): boolean {
  for (const dir of [MAIL_VIEWS_DIR, MAIL_SQL_DIR]) {
    try {
      if (fs.readdirSync(path.join(root, dir)).length > 0) return true;
    } catch {
      // Absent or unreadable: the mail checks say so when they run.
    }
  }
  return false;
}
