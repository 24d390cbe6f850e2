/**
 * The ends of the worker's claims (docs/decisions.md "Jobs: leases renewed while they run, ends written with the
 * next claim"): how each job ended, written under its claim's token (each claim's successes in one statement, each
 * failure in its own), then logged; and MariaDB's deadlocks, after which a statement is simply run again.
 */
import type { Queryable } from '../db/database.js';
import { getLogger } from '../logger.js';
import { JOB_LIMITS, JOBS_TABLE } from './schema.js';

const log = getLogger('fw.jobs');

/** MariaDB refused the statement as a deadlock (errno 1213): it was rolled back whole and may be run again. */
export function isDeadlock(error: unknown): boolean {
  const e = error as { errno?: unknown; cause?: { errno?: unknown } };
  return e?.errno === 1213 || e?.cause?.errno === 1213 || /deadlock/i.test(String((error as Error)?.message));
}

/**
 * Runs `write` again while MariaDB refuses it as a deadlock (at most 10 times). The ends of a claim meet the other
 * processes' claims on the same index: an end left unwritten would keep its jobs `running` until their lease
 * expired, and they would then run a second time (docs/jobs.md "At least once").
 */
export async function retryDeadlocks(write: () => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (attempt >= 10 || !isDeadlock(error)) throw error;
    }
  }
}

/** How a job ended; `stopped`: it failed because the process was stopping (back to the queue, not counted). */
export type Outcome =
  | { id: number; ok: true }
  | { id: number; ok: false; error: string; attempt: number; max: number; stopped: boolean; final: boolean; failedAt: number; delayMs: number };

/** The ends of one claim, not yet written; its heartbeat goes on until they are. */
export interface Ends {
  readonly token: string;
  readonly outcomes: readonly Outcome[];
  readonly heartbeat: NodeJS.Timeout;
}

/** Writes the ends of claims: each claim's successes in one statement, each failure in its own. */
export async function recordEnds(database: Queryable, ends: readonly Ends[], now: Date): Promise<void> {
  for (const { token, outcomes } of ends) {
    const done = outcomes.filter((outcome) => outcome.ok).map((outcome) => outcome.id);
    if (done.length > 0) {
      await database.execute(
        `UPDATE ${JOBS_TABLE} SET status = 'done', finished_at = ?, locked_by = NULL, locked_until = NULL, unique_key = NULL, last_error = NULL ` +
          `WHERE locked_by = ? AND id IN (${done.map(() => '?').join(', ')})`,
        [now, token, ...done],
      );
    }
    for (const outcome of outcomes) {
      if (outcome.ok) continue;
      const error = outcome.error.slice(0, JOB_LIMITS.lastError);
      if (outcome.stopped) {
        // Cut short by the shutdown: back to the queue, that attempt not counted.
        await database.execute(
          `UPDATE ${JOBS_TABLE} SET status = 'queued', attempts = attempts - 1, run_at = ?, locked_by = NULL, locked_until = NULL WHERE id = ? AND locked_by = ?`,
          [now, outcome.id, token],
        );
      } else if (!outcome.final && outcome.attempt < outcome.max) {
        await database.execute(
          `UPDATE ${JOBS_TABLE} SET status = 'queued', run_at = ?, last_error = ?, locked_by = NULL, locked_until = NULL WHERE id = ? AND locked_by = ?`,
          [new Date(outcome.failedAt + outcome.delayMs), error, outcome.id, token],
        );
      } else {
        await database.execute(
          `UPDATE ${JOBS_TABLE} SET status = 'dead', finished_at = ?, last_error = ?, unique_key = NULL, locked_by = NULL, locked_until = NULL WHERE id = ? AND locked_by = ?`,
          [now, error, outcome.id, token],
        );
      }
    }
  }
}

/** Once `ends` are written: their heartbeats stop, their failures are logged. */
export function endsWritten(ends: readonly Ends[]): void {
  for (const { outcomes, heartbeat } of ends) {
    clearInterval(heartbeat);
    for (const outcome of outcomes) {
      if (outcome.ok) continue;
      const error = outcome.error.slice(0, JOB_LIMITS.lastError);
      if (outcome.stopped) log.warning(`Tâche n° ${outcome.id} rendue à la file à l'arrêt du processus.`);
      else if (!outcome.final && outcome.attempt < outcome.max)
        log.warning(
          `Tâche n° ${outcome.id} en échec (essai ${outcome.attempt}/${outcome.max}), nouvel essai dans ${Math.round(outcome.delayMs / 1000)} s : ${error}`,
        );
      else log.error(`Tâche n° ${outcome.id} morte après ${outcome.attempt} essai(s) : ${error}`);
    }
  }
}
