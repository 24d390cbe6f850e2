/**
 * The tables of `fw-mvc/jobs` (docs/jobs.md "The tables"), described once (runtime/db/ddl/table-spec.ts) and
 * spelled per dialect by the shared renderer, as `mail_log` is:
 * - `fw_jobs`, one row per job: `queued` (waiting for `run_at`, a first run or a retry), `running` (claimed by the
 *   worker `locked_by` until `locked_until`, its lease), `done`, `dead` (its last attempt failed; `last_error`
 *   kept). `unique_key`, when the job has one, is unique while the job waits or runs and emptied when it ends, so
 *   that a second job with the same key cannot exist at the same time.
 * - `fw_job_ticks`, one row per tick of a recurring job: its primary key (job, tick) lets only one process of all
 *   those that reach the tick enqueue its run.
 * Dates are UTC `YYYY-MM-DD HH:MM:SS` (TEXT on SQLite), compared as text.
 */
import { ASCII_BIN, column, FRAMEWORK_TABLE, idColumn, UTF8MB4_BIN } from '../db/ddl/columns.js';
import { renderCreateStatements, renderCreateTable } from '../db/ddl/render.js';
import type { TableSpec } from '../db/ddl/table-spec.js';
import type { DialectName } from '../db/dialect.js';

export const JOBS_TABLE = 'fw_jobs';
export const JOB_TICKS_TABLE = 'fw_job_ticks';
/** What each table holds, written as the SQL file's comment line. */
export const JOBS_TABLE_PURPOSE = 'File des tâches de fond de fw-mvc/jobs (en attente, en cours, terminées, mortes).';
export const JOB_TICKS_TABLE_PURPOSE = 'Échéances des tâches récurrentes de fw-mvc/jobs : une ligne par échéance, prise par un seul processus.';

/** The statuses of a job. */
export const JOB_STATUSES = ['queued', 'running', 'done', 'dead'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** Column sizes; longer values are refused (name, queue, key) or cut (error). */
export const JOB_LIMITS = {
  name: 100,
  queue: 50,
  uniqueKey: 191,
  lockedBy: 100,
  lastError: 2000,
} as const;

const datetime = (name: string, nullable = false) => column(name, 'DATETIME', { sqliteType: 'TEXT', nullable });

/** `fw_jobs`, for both dialects. */
export const JOBS_TABLE_SPEC: TableSpec = {
  table: JOBS_TABLE,
  columns: [
    idColumn('BIGINT UNSIGNED'),
    column('name', `VARCHAR(${JOB_LIMITS.name})`, { mariadbCharset: UTF8MB4_BIN }),
    column('queue', `VARCHAR(${JOB_LIMITS.queue})`, { mariadbCharset: UTF8MB4_BIN }),
    column('payload', 'MEDIUMTEXT', { mariadbCharset: UTF8MB4_BIN, sqliteType: 'TEXT' }),
    column('status', 'VARCHAR(10)', { mariadbCharset: ASCII_BIN }),
    column('attempts', 'INT', { default: '0', sqliteType: 'INTEGER' }),
    column('max_attempts', 'INT', { sqliteType: 'INTEGER' }),
    datetime('run_at'),
    column('locked_by', `VARCHAR(${JOB_LIMITS.lockedBy})`, { nullable: true, mariadbCharset: ASCII_BIN }),
    datetime('locked_until', true),
    column('unique_key', `VARCHAR(${JOB_LIMITS.uniqueKey})`, { nullable: true, mariadbCharset: UTF8MB4_BIN }),
    column('last_error', `VARCHAR(${JOB_LIMITS.lastError})`, { nullable: true }),
    datetime('created_at'),
    datetime('finished_at', true),
  ],
  primaryKey: ['id'],
  uniques: [{ name: 'ux_fw_jobs_unique_key', columns: ['unique_key'] }],
  indexes: [
    { name: 'ix_fw_jobs_due', columns: ['status', 'queue', 'run_at'] },
    { name: 'ix_fw_jobs_lease', columns: ['status', 'locked_until'] },
    { name: 'ix_fw_jobs_claim', columns: ['locked_by'] },
  ],
  foreignKeys: [],
  ...FRAMEWORK_TABLE,
};

/** `fw_job_ticks`, for both dialects. */
export const JOB_TICKS_TABLE_SPEC: TableSpec = {
  table: JOB_TICKS_TABLE,
  columns: [column('name', `VARCHAR(${JOB_LIMITS.name})`, { mariadbCharset: UTF8MB4_BIN }), datetime('tick_at'), datetime('created_at')],
  primaryKey: ['name', 'tick_at'],
  uniques: [],
  indexes: [{ name: 'ix_fw_job_ticks_created_at', columns: ['created_at'] }],
  foreignKeys: [],
  ...FRAMEWORK_TABLE,
};

/** Both tables, in the order they are created. */
export const JOBS_TABLE_SPECS: readonly TableSpec[] = [JOBS_TABLE_SPEC, JOB_TICKS_TABLE_SPEC];

/** The statements of both tables for one dialect (one text, statements separated by `;` and a new line). */
export function jobsTablesSql(dialect: DialectName): string {
  return JOBS_TABLE_SPECS.map((spec) => renderCreateTable(spec, dialect).join('\n')).join('\n\n');
}

/** The statements one by one, each creating only what is absent (to run them through `execute`). */
export function jobsTablesStatements(dialect: DialectName): string[] {
  return JOBS_TABLE_SPECS.flatMap((spec) => renderCreateStatements(spec, dialect));
}
