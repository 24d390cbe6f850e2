/**
 * The SQL files of the jobs tables (docs/jobs.md "The tables"): `mvc/models/sql/jobs/fw_jobs.sql` (MariaDB) and
 * `fw_jobs.sqlite.sql` (SQLite), both tables (`fw_jobs`, `fw_job_ticks`) from the runtime's description
 * (runtime/jobs/schema.ts). Written by `fw make:job` and `fw jobs:init`, applied by `fw db:apply`; regenerable while
 * they keep their marker line, as the mail_log file is.
 */
import { JOB_TICKS_TABLE, JOBS_TABLE, JOBS_TABLE_PURPOSE, jobsTablesSql } from '../../runtime/jobs/schema.js';
import { DIALECT_NAMES, spellingOf, type DialectName } from '../../runtime/db/dialect.js';
import { sqlMarkerLine } from '../marker.js';
import type { PlannedFile } from '../planned-file.js';

/** Folder of the jobs SQL files, relative to the project root. */
export const JOBS_SQL_DIR = 'mvc/models/sql/jobs';

/** The command that writes (and rewrites) them. */
export const JOBS_INIT_COMMAND = 'fw jobs:init';

/** `mvc/models/sql/jobs/fw_jobs.sql` (MariaDB) or `mvc/models/sql/jobs/fw_jobs.sqlite.sql`. */
export function jobsSqlPath(dialect: DialectName): string {
  return `${JOBS_SQL_DIR}/${JOBS_TABLE}${spellingOf(dialect).fileSuffix}`;
}

/** The whole file: marker line, what the tables hold, the dialect, then the statements. */
export function jobsSqlContent(dialect: DialectName): string {
  return [
    sqlMarkerLine(JOBS_INIT_COMMAND),
    `-- Tables ${JOBS_TABLE} et ${JOB_TICKS_TABLE} (${spellingOf(dialect).label}) : ${JOBS_TABLE_PURPOSE}`,
    '',
    jobsTablesSql(dialect),
    '',
  ].join('\n');
}

/** The jobs SQL files, one per dialect in the order of DIALECT_NAMES. */
export function jobsSqlFiles(): PlannedFile[] {
  return DIALECT_NAMES.map((dialect) => ({ path: jobsSqlPath(dialect), content: jobsSqlContent(dialect), kind: 'regenerable' as const }));
}
