/**
 * A process that only runs jobs (`fw jobs:work`, or a project's own script; docs/jobs.md "Workers"): a worker on
 * the jobs this process defined, until SIGTERM or SIGINT, then `stop()` (the running jobs finish or go back to the
 * queue) and the database closes.
 */
import { closeDatabase } from '../db/database.js';
import { getLogger } from '../logger.js';
import { jobDefinitions } from './define.js';
import { startJobWorker, type JobWorkerOptions } from './worker.js';

const log = getLogger('fw.jobs');

/**
 * Runs a worker until the process receives SIGTERM or SIGINT; `onReady` is told its queues once it started.
 * Throws when this process defines no job.
 */
export async function workUntilSignal(options: JobWorkerOptions = {}, onReady?: (queues: Map<string, number>) => void): Promise<void> {
  if (jobDefinitions().length === 0) throw new Error('aucune tâche définie : ce processus ne peut rien traiter.');
  const signalled = new Promise<string>((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
  });
  const worker = startJobWorker(options);
  const queues = worker.queues();
  onReady?.(queues);
  const signal = await signalled;
  log.info(`${signal} reçu : arrêt du travailleur ${worker.owner} après les tâches en cours.`);
  await worker.stop();
  if (!options.database) await closeDatabase();
}
