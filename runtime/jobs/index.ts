/**
 * `fw-mvc/jobs` (docs/jobs.md): background jobs in the application's own database. `defineJob` and `enqueue`
 * (in the caller's transaction when given), workers with a concurrency per queue, retries with backoff, a dead
 * state, unique keys and recurring jobs (cron). Importing this module registers a worker with `serve()`: an
 * application that listens starts one in each process, unless `jobs_in_serve` is false, and stops it on SIGTERM.
 */
import { onServe } from '../app/background.js';
import { get } from '../config.js';
import { jobDefinitions } from './define.js';
import { startJobWorker } from './worker.js';

export {
  DEFAULT_ATTEMPTS,
  DEFAULT_BACKOFF,
  DEFAULT_QUEUE,
  DEFAULT_TIMEOUT_MS,
  backoffDelayMs,
  clearJobDefinitions,
  defineJob,
  describeError,
  jobDefinition,
  jobType,
  UnrecoverableJobError,
  jobDefinitions,
  onJobEnqueued,
  type Backoff,
  type BackoffOptions,
  type EnqueueOptions,
  type EnqueuedJob,
  type JobContext,
  type JobDefinition,
  type JobHandler,
  type JobOptions,
} from './define.js';
export { nextTick } from './cron.js';
export { claimTick, RecurringScheduler, type RecurringPayload } from './recurring.js';
export { LEASE_LOST, reapExpiredLeases } from './reap.js';
export { JobWorker, startJobWorker, type JobWorkerOptions } from './worker.js';
export { workUntilSignal } from './process.js';
export { JOBS_PAGE_STATES, jobsListSpec, registerJobsPage, type JobsPageOptions } from './page.js';
export {
  JOB_STATES,
  checkStatus,
  countJobs,
  discardJobs,
  jobCounts,
  jobTroubles,
  listJobs,
  retryJobs,
  type JobFilter,
  type JobRow,
  type JobState,
} from './admin.js';
export {
  JOB_LIMITS,
  JOB_STATUSES,
  JOB_TICKS_TABLE,
  JOB_TICKS_TABLE_SPEC,
  JOBS_TABLE,
  JOBS_TABLE_PURPOSE,
  JOBS_TABLE_SPEC,
  JOBS_TABLE_SPECS,
  jobsTablesSql,
  jobsTablesStatements,
  type JobStatus,
} from './schema.js';

onServe('fw-mvc/jobs', () => {
  if (!get('jobs_in_serve') || jobDefinitions().length === 0) return;
  const worker = startJobWorker();
  return () => worker.stop();
});
