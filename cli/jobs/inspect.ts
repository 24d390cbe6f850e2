/**
 * The jobs side of a project as the CLI sees it (docs/jobs.md "Commands"): the SQL files of the jobs tables that
 * `fw db:apply` runs, the project's jobs index (`mvc/jobs/index.ts`, which `fw make:job` fills and `fw jobs:work`
 * loads), and the database of the `jobs:*` commands with its tables checked, or an error that names the migration.
 */
import fs from 'node:fs';
import path from 'node:path';
import { hasGeneratedMarker } from '../../emitters/marker.js';
import { jobsSqlContent, jobsSqlPath } from '../../emitters/jobs/sql-files.js';
import { DIALECT_NAMES, type DialectName } from '../../runtime/db/dialect.js';
import type { Database } from '../../runtime/db/database.js';
import { failedSql } from '../../runtime/jobs/admin.js';
import { CliError } from '../errors.js';

/** The project's jobs index, relative to its root. */
export const JOBS_INDEX = 'mvc/jobs/index.ts';

function isFile(root: string, relative: string): boolean {
  return fs.statSync(path.join(root, relative), { throwIfNoEntry: false })?.isFile() === true;
}

/** The jobs SQL file of `dialect` to apply (none when the project has no jobs files), or what is wrong with it. */
export function jobsFilesToApply(root: string, dialect: DialectName): { files: Array<{ path: string; text: string }>; problems: string[] } {
  const present = DIALECT_NAMES.filter((d) => isFile(root, jobsSqlPath(d)));
  if (present.length === 0) return { files: [], problems: [] };
  const file = jobsSqlPath(dialect);
  if (!isFile(root, file)) return { files: [], problems: [`${file} (absent)`] };
  const text = fs.readFileSync(path.join(root, file), 'utf8');
  if (text !== jobsSqlContent(dialect) && hasGeneratedMarker(text)) return { files: [], problems: [`${file} (périmé)`] };
  return { files: [{ path: file, text }], problems: [] };
}

/** The way out when the tables are missing. */
export const TABLES_ADVICE = 'lancez « fw jobs:init » (ou « fw make:job <Nom> ») puis « fw db:apply » pour créer les tables fw_jobs et fw_job_ticks.';

/** Runs `fn` on the project's database (application account) once the jobs tables are known to exist. */
export async function withJobsDatabase<T>(root: string, fn: (db: Database) => Promise<T>): Promise<T> {
  const { databaseFileMissing, readDbSettings, openHandle, usingHandle } = await import('../db/connection.js');
  const { tableExists } = await import('../db/schema.js');
  const { describeTarget } = await import('../auth/database.js');
  const { JOBS_TABLE } = await import('../../runtime/jobs/schema.js');
  const settings = readDbSettings(root);
  if (databaseFileMissing(settings))
    throw new CliError(`table ${JOBS_TABLE} absente : la base ${describeTarget(settings)} n'existe pas encore.`, TABLES_ADVICE);
  return usingHandle(openHandle(settings, 'app', { poolSize: 1 }), async (db) => {
    if (!(await tableExists(db, JOBS_TABLE))) throw new CliError(`table ${JOBS_TABLE} absente de la base (${describeTarget(settings)}).`, TABLES_ADVICE);
    return fn(db);
  });
}

/** A status of the table, or `failed` (a `queued` job waiting for a retry after an error: retry and discard). */
export type StatusChoice = 'queued' | 'running' | 'done' | 'dead' | 'failed';

/** `--status` checked against the table's statuses (and `failed` when `withFailed`); undefined when not given. */
export async function statusOption(value: unknown, command: string, withFailed = false): Promise<StatusChoice | undefined> {
  if (value === undefined) return undefined;
  const { JOB_STATUSES } = await import('../../runtime/jobs/schema.js');
  const known: readonly string[] = withFailed ? [...JOB_STATUSES, 'failed'] : JOB_STATUSES;
  const text = String(value);
  if (!known.includes(text)) throw new CliError(`statut « ${text} » inconnu (statuts : ${known.join(', ')}).`, `par exemple « fw ${command} --status dead ».`);
  return text as StatusChoice;
}

/** The ids of the `failed` jobs (queued again after an error), narrowed by name and queue. */
export async function failedJobIds(db: Database, name?: string, queue?: string): Promise<number[]> {
  const params: string[] = [];
  let sql = `SELECT id FROM fw_jobs WHERE status = 'queued' AND ${failedSql()}`;
  if (name) {
    sql += ' AND name = ?';
    params.push(name);
  }
  if (queue) {
    sql += ' AND queue = ?';
    params.push(queue);
  }
  return (await db.fetchAll<{ id: number | string }>(sql, params)).map((row) => Number(row.id));
}

/** Positional ids as numbers, or a CliError naming the first that is not one. */
export function idArguments(values: readonly unknown[], command: string): number[] {
  return values.map((value) => {
    const text = String(value);
    if (!/^\d+$/.test(text))
      throw new CliError(`« ${text} » n'est pas un numéro de tâche.`, `donnez les numéros de « fw jobs:list », par exemple « fw ${command} 12 13 ».`);
    return Number(text);
  });
}
