/**
 * The tables of fw-mvc/jobs on a fresh database of any dialect for the jobs tests (helpers/dialects.ts), with a
 * `job_runs` table the tests' handlers write into: one row per run, so that a test counts the runs of each job.
 */
import type { Database } from '../../runtime/index.js';
import { jobsTablesStatements } from '../../runtime/jobs/index.js';
import { freshDatabase, type DialectName } from './dialects.js';

export interface JobsDb {
  readonly dialect: DialectName;
  readonly database: Database;
  /** What another process passes to `configure` to reach the same database. */
  readonly config: Record<string, unknown>;
  close(): Promise<void>;
}

/** `job_runs`: `tag` (what the job was about), `attempt`, `pid` of the process that ran it. */
export const JOB_RUNS_TABLE = 'CREATE TABLE job_runs (tag VARCHAR(100) NOT NULL, attempt INT NOT NULL, pid INT NOT NULL)';

export async function jobsDb(dialect: DialectName, prefix = 'fw_test_jobs'): Promise<JobsDb> {
  const fresh = await freshDatabase(dialect, { prefix, poolSize: 10 });
  for (const statement of jobsTablesStatements(dialect)) await fresh.database.execute(statement);
  await fresh.database.execute(JOB_RUNS_TABLE);
  return { dialect, database: fresh.database, config: fresh.config, close: () => fresh.close() };
}

/** How many runs each tag had. */
export async function runsByTag(database: Database): Promise<Map<string, number>> {
  const rows = await database.fetchAll<{ tag: string; n: number | string }>('SELECT tag, COUNT(*) AS n FROM job_runs GROUP BY tag');
  return new Map(rows.map((row) => [row.tag, Number(row.n)]));
}
