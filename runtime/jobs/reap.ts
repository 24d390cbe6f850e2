/**
 * Leases that expired (docs/jobs.md "At least once"): a `running` job whose `locked_until` passed lost its worker
 * (killed, or its machine gone). It is queued again at once, its attempt counted, or `dead` when that was its
 * last attempt. Every worker does this about once a second; the UPDATEs are idempotent across processes.
 */
import type { Queryable } from '../db/database.js';
import { JOBS_TABLE } from './schema.js';

export const LEASE_LOST = 'bail expiré : le processus qui la traitait a disparu avant la fin';

/** Requeues (or ends `dead`) the jobs whose lease expired before `now`; returns how many rows it changed. */
export async function reapExpiredLeases(database: Queryable, now: Date): Promise<number> {
  const requeued = await database.execute(
    `UPDATE ${JOBS_TABLE} SET status = 'queued', run_at = ?, locked_by = NULL, locked_until = NULL, last_error = ? ` +
      "WHERE status = 'running' AND locked_until < ? AND attempts < max_attempts",
    [now, LEASE_LOST, now],
  );
  const dead = await database.execute(
    `UPDATE ${JOBS_TABLE} SET status = 'dead', finished_at = ?, locked_by = NULL, locked_until = NULL, unique_key = NULL, last_error = ? ` +
      "WHERE status = 'running' AND locked_until < ? AND attempts >= max_attempts",
    [now, LEASE_LOST, now],
  );
  return requeued + dead;
}
