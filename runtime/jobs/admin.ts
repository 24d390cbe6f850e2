/**
 * What operators do with the queue (docs/jobs.md "Operating the queue"), shared by `fw jobs:list`, `jobs:retry`,
 * `jobs:discard`, `fw doctor` and the operators' page: the jobs by filter, the counts per queue and state, retry
 * (a `dead` or waiting job runs again now, its attempts from zero) and discard (a job that is not running is
 * deleted). A running job is never touched: its worker holds it.
 */
import type { Queryable } from '../db/database.js';
import { JOB_STATUSES, JOBS_TABLE, type JobStatus } from './schema.js';

/** Which jobs a command or the page acts on; every field given narrows the set. */
export interface JobFilter {
  readonly ids?: readonly number[];
  readonly status?: JobStatus;
  readonly name?: string;
  readonly queue?: string;
}

/** One job as listed (never its payload, which may hold personal data). */
export interface JobRow {
  readonly id: number;
  readonly name: string;
  readonly queue: string;
  readonly status: JobStatus;
  readonly attempts: number;
  readonly maxAttempts: number;
  readonly runAt: string;
  readonly lockedBy: string | null;
  readonly lockedUntil: string | null;
  readonly lastError: string | null;
  readonly createdAt: string;
  readonly finishedAt: string | null;
}

/** The states an operator reads: `scheduled` and `failed` are `queued` jobs not due yet, or waiting for a retry. */
export const JOB_STATES = ['queued', 'scheduled', 'failed', 'running', 'done', 'dead'] as const;
export type JobState = (typeof JOB_STATES)[number];

/**
 * The SQL condition of a `failed` job, on a `queued` row (`t.` or no prefix): an error kept from an attempt that
 * counted. A job that an operator retried starts again from zero attempts: `queued` (or `scheduled`), its last
 * error still shown, not `failed` (docs/jobs.md "Operating the queue").
 */
export function failedSql(prefix = ''): string {
  return `${prefix}last_error IS NOT NULL AND ${prefix}attempts > 0`;
}

/** The state of one row as operators read it, at `now` (`runAt` as dateText writes it). */
export function jobState(row: { status: string; lastError: string | null; attempts: number; runAt: string }, now: Date): JobState {
  if (row.status !== 'queued') return row.status as JobState;
  if (row.lastError !== null && row.attempts > 0) return 'failed';
  return row.runAt > dateText(now) ? 'scheduled' : 'queued';
}

/** A date column as `YYYY-MM-DD HH:MM:SS` (UTC), whichever way the driver returns it. */
export function dateText(value: unknown): string {
  if (value instanceof Date) return value.toISOString().slice(0, 19).replace('T', ' ');
  return String(value).slice(0, 19);
}

/** Throws a TypeError when `status` is not one of the table's. */
export function checkStatus(status: string): JobStatus {
  if (!(JOB_STATUSES as readonly string[]).includes(status)) throw new TypeError(`statut « ${status} » inconnu : ${JOB_STATUSES.join(', ')}.`);
  return status as JobStatus;
}

function whereOf(filter: JobFilter): { sql: string; params: unknown[] } {
  const parts: string[] = [];
  const params: unknown[] = [];
  if (filter.ids) {
    if (filter.ids.length === 0) return { sql: 'WHERE 1 = 0', params };
    parts.push(`id IN (${filter.ids.map(() => '?').join(', ')})`);
    params.push(...filter.ids);
  }
  for (const key of ['status', 'name', 'queue'] as const) {
    const value = filter[key];
    if (!value) continue;
    parts.push(`${key} = ?`);
    params.push(value);
  }
  return { sql: parts.length ? `WHERE ${parts.join(' AND ')}` : '', params };
}

interface RawRow {
  id: number | string;
  name: string;
  queue: string;
  status: JobStatus;
  attempts: number | string;
  max_attempts: number | string;
  run_at: unknown;
  locked_by: string | null;
  locked_until: unknown;
  last_error: string | null;
  created_at: unknown;
  finished_at: unknown;
}

const COLUMNS = 'id, name, queue, status, attempts, max_attempts, run_at, locked_by, locked_until, last_error, created_at, finished_at';

/** The jobs of `filter`, newest first, at most `limit` from `offset`. */
export async function listJobs(database: Queryable, filter: JobFilter = {}, limit = 50, offset = 0): Promise<JobRow[]> {
  const where = whereOf(filter);
  const rows = await database.fetchAll<RawRow>(
    `SELECT ${COLUMNS} FROM ${JOBS_TABLE} ${where.sql} ORDER BY id DESC LIMIT ${Math.max(1, Math.trunc(limit))} OFFSET ${Math.max(0, Math.trunc(offset))}`,
    where.params,
  );
  return rows.map((row) => ({
    id: Number(row.id),
    name: row.name,
    queue: row.queue,
    status: row.status,
    attempts: Number(row.attempts),
    maxAttempts: Number(row.max_attempts),
    runAt: dateText(row.run_at),
    lockedBy: row.locked_by,
    lockedUntil: row.locked_until === null ? null : dateText(row.locked_until),
    lastError: row.last_error,
    createdAt: dateText(row.created_at),
    finishedAt: row.finished_at === null ? null : dateText(row.finished_at),
  }));
}

/** How many jobs match `filter`. */
export async function countJobs(database: Queryable, filter: JobFilter = {}): Promise<number> {
  const where = whereOf(filter);
  const row = await database.fetchOne<{ n: number | string }>(`SELECT COUNT(*) AS n FROM ${JOBS_TABLE} ${where.sql}`, where.params);
  return Number(row?.n ?? 0);
}

/** The count of each state per queue, at `now`. */
export async function jobCounts(database: Queryable, now: Date = new Date()): Promise<Map<string, Record<JobState, number>>> {
  const rows = await database.fetchAll<{ queue: string; state: JobState; n: number | string }>(
    `SELECT queue, CASE WHEN status <> 'queued' THEN status WHEN ${failedSql()} THEN 'failed' WHEN run_at > ? THEN 'scheduled' ELSE 'queued' END AS state, ` +
      `COUNT(*) AS n FROM ${JOBS_TABLE} GROUP BY queue, state ORDER BY queue`,
    [now],
  );
  const counts = new Map<string, Record<JobState, number>>();
  for (const row of rows) {
    const entry = counts.get(row.queue) ?? (Object.fromEntries(JOB_STATES.map((state) => [state, 0])) as Record<JobState, number>);
    entry[row.state] += Number(row.n);
    counts.set(row.queue, entry);
  }
  return counts;
}

/** Queues the jobs of `filter` that are `dead` or `queued` again, due now, attempts from zero; returns how many. */
export async function retryJobs(database: Queryable, filter: JobFilter, now: Date = new Date()): Promise<number> {
  const where = whereOf(filter);
  return database.execute(
    `UPDATE ${JOBS_TABLE} SET status = 'queued', attempts = 0, run_at = ?, finished_at = NULL ${where.sql ? `${where.sql} AND` : 'WHERE'} status IN ('dead', 'queued')`,
    [now, ...where.params],
  );
}

/** Deletes the jobs of `filter` that are not running; returns how many. */
export async function discardJobs(database: Queryable, filter: JobFilter): Promise<number> {
  const where = whereOf(filter);
  return database.execute(`DELETE FROM ${JOBS_TABLE} ${where.sql ? `${where.sql} AND` : 'WHERE'} status <> 'running'`, where.params);
}

/** What `fw doctor` reads: the dead jobs, and the running ones whose lease passed more than `graceMs` ago. */
export async function jobTroubles(database: Queryable, now: Date = new Date(), graceMs = 60_000): Promise<{ dead: number; stuck: number }> {
  const dead = await countJobs(database, { status: 'dead' });
  const row = await database.fetchOne<{ n: number | string }>(`SELECT COUNT(*) AS n FROM ${JOBS_TABLE} WHERE status = 'running' AND locked_until < ?`, [
    new Date(now.getTime() - graceMs),
  ]);
  return { dead, stuck: Number(row?.n ?? 0) };
}
