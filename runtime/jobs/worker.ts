/**
 * The worker of `fw-mvc/jobs` (docs/jobs.md "Workers"): one loop per queue claims up to its concurrency of due
 * jobs whose type this process defines, runs them at once, and records each end (`done`, a retry later, `dead`).
 * A claim is one statement that only one process can win: on MariaDB a `SELECT … FOR UPDATE SKIP LOCKED` and an
 * UPDATE in one transaction (several machines may share the queue), on SQLite one UPDATE over a sub-select (one
 * machine, one writer at a time). Each claim writes a token of its own in `locked_by`, so that only the claimant
 * records the end; `locked_until` is the lease: past it, a job whose worker died is queued again (reap.ts). While
 * a claim's jobs run, the worker renews their lease every third of it (docs/jobs.md "Leases"), so a job may run
 * longer than its lease. The ends of a claim are written in the transaction of the queue's next claim, one commit
 * where there were two, or on their own when the worker stops (docs/decisions.md "Jobs: leases renewed while they
 * run, ends written with the next claim").
 * `stop()` (SIGTERM through `serve()`) claims nothing more, lets the running jobs finish for `shutdownMs`, then
 * aborts them and gives them back to the queue.
 */
import { randomBytes } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { hostname } from 'node:os';
import { get } from '../config.js';
import { getDatabase, type Database, type Queryable, type Transaction } from '../db/database.js';
import { getLogger } from '../logger.js';
import { DEFAULT_BACKOFF, UnrecoverableJobError, backoffDelayMs, describeError, jobDefinitions, onJobEnqueued, type JobDefinition } from './define.js';
import { reapExpiredLeases } from './reap.js';
import { RecurringScheduler } from './recurring.js';
import { endsWritten, isDeadlock, recordEnds, retryDeadlocks, type Ends, type Outcome } from './ends.js';
import { JOB_LIMITS, JOBS_TABLE } from './schema.js';

const log = getLogger('fw.jobs');

export interface JobWorkerOptions {
  /** Default: the application's database (`getDatabase()`). */
  readonly database?: Database;
  /** Queues to run and the jobs each runs at once; default: every queue of the defined jobs, `jobs_concurrency` each. */
  readonly queues?: Readonly<Record<string, number>>;
  /** Milliseconds between looks when nothing wakes the worker (default 1000). */
  readonly pollMs?: number;
  /** Milliseconds a claim's lease holds; renewed every third of it while its jobs run (default 30 000). */
  readonly leaseMs?: number;
  /** Milliseconds `stop()` lets running jobs finish before it aborts them and gives them back (default 10 000). */
  readonly shutdownMs?: number;
  /** False: this worker enqueues no recurring job (default true). */
  readonly recurring?: boolean;
  /**
   * The job types this worker runs, instead of every one this process defined (`defineJob`); a type made with
   * `jobType()` runs only in a worker given it here (the mail sender: docs/mail.md).
   */
  readonly jobs?: ReadonlyArray<JobDefinition<never>>;
  /** The clock, in milliseconds as `Date.now` (default): due times, leases and retries; tests move it. */
  readonly now?: () => number;
}

interface ClaimedJob {
  id: number;
  name: string;
  payload: string;
  attempts: number;
  max_attempts: number;
}

const DEFAULT_LEASE_MS = 30_000;

/** Runs the jobs of the queues it was given. Build it with `startJobWorker()`, stop it with `await worker.stop()`. */
export class JobWorker {
  /** `<host>:<pid>:<random>`; each claim writes it with a sequence number in `locked_by`. */
  readonly owner = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`.slice(0, JOB_LIMITS.lockedBy - 12);
  readonly #options: JobWorkerOptions;
  #sequence = 0;
  #running = false;
  #loops: Array<Promise<void>> = [];
  #wakers = new Map<string, () => void>();
  #woken = new Set<string>();
  #unsubscribe: (() => void) | undefined;
  #scheduler: RecurringScheduler | undefined;
  #stopping: AbortController | undefined;
  #lastReap = 0;
  #waiting = 0;
  #idleWaiters: Array<() => void> = [];

  constructor(options: JobWorkerOptions = {}) {
    this.#options = options;
  }

  get running(): boolean {
    return this.#running;
  }

  #database(): Database {
    return this.#options.database ?? getDatabase();
  }

  #now(): number {
    return (this.#options.now ?? Date.now)();
  }

  #definitions(): Array<JobDefinition<unknown>> {
    return (this.#options.jobs as Array<JobDefinition<unknown>> | undefined) ?? jobDefinitions();
  }

  /** The queues and their concurrency. */
  queues(): Map<string, number> {
    if (this.#options.queues) return new Map(Object.entries(this.#options.queues));
    const concurrency = Number(get('jobs_concurrency'));
    return new Map(this.#definitions().map((definition) => [definition.queue, concurrency]));
  }

  /**
   * Resolves once every queue's loop has finished its look and waits for a wake-up or `pollMs` (at once when they
   * already wait or the worker does not run): a later run then came from a wake-up (tests).
   */
  idle(): Promise<void> {
    if (!this.#running || this.#waiting >= this.#loops.length) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  #settleIdle(): void {
    for (const resolve of this.#idleWaiters.splice(0)) resolve();
  }

  /** Starts one loop per queue (and the recurring jobs' schedule). */
  start(): this {
    if (this.#running) return this;
    this.#leaseMs();
    this.#running = true;
    this.#stopping = new AbortController();
    // One listener per running job: a concurrency above 10 is no leak.
    setMaxListeners(0, this.#stopping.signal);
    this.#unsubscribe = onJobEnqueued((queue) => this.wake(queue));
    for (const [queue, concurrency] of this.queues()) {
      if (!Number.isInteger(concurrency) || concurrency < 1)
        throw new TypeError(`File « ${queue} » : concurrence « ${concurrency} », un entier au-dessus de 0 est attendu.`);
      this.#loops.push(this.#loop(queue, concurrency));
    }
    if (this.#options.recurring !== false) this.#scheduler = new RecurringScheduler(() => this.#database()).start();
    return this;
  }

  /** Looks at `queue` (every queue when none is named) now. */
  wake(queue?: string): void {
    for (const [name, wake] of this.#wakers) {
      if (queue !== undefined && queue !== name) continue;
      this.#woken.add(name);
      wake();
    }
    if (queue !== undefined && !this.#wakers.has(queue)) this.#woken.add(queue);
  }

  /** Claims nothing more; waits for the running jobs (at most `shutdownMs`, then aborts them and gives them back). */
  async stop(): Promise<void> {
    if (!this.#running) return;
    this.#running = false;
    this.#unsubscribe?.();
    await this.#scheduler?.stop();
    this.wake();
    const timer = setTimeout(() => this.#stopping?.abort(), this.#options.shutdownMs ?? 10_000);
    try {
      await Promise.all(this.#loops);
    } finally {
      clearTimeout(timer);
      this.#loops = [];
      this.#settleIdle();
    }
  }

  /** Runs every due job of every queue now, until none is left; returns how many runs it made (tests, scripts). */
  async runOnce(): Promise<number> {
    let total = 0;
    const ends: Ends[] = [];
    this.#lastReap = this.#now();
    await reapExpiredLeases(this.#database(), new Date(this.#lastReap));
    try {
      for (;;) {
        let round = 0;
        for (const [queue, concurrency] of this.queues()) {
          // A claim refused as a deadlock (another process claiming beside it) claimed nothing: look again, as #loop does.
          for (let attempt = 1; ; attempt++) {
            try {
              round += await this.#cycle(queue, concurrency, ends);
              break;
            } catch (error) {
              if (attempt >= 10 || !isDeadlock(error)) throw error;
            }
          }
        }
        total += round;
        if (round === 0) break;
      }
      await this.#flush(this.#database(), ends);
    } finally {
      for (const end of ends) clearInterval(end.heartbeat);
    }
    return total;
  }

  async #loop(queue: string, concurrency: number): Promise<void> {
    let lastFailure: string | undefined;
    const ends: Ends[] = [];
    while (this.#running) {
      this.#woken.delete(queue);
      let claimed = 0;
      try {
        claimed = await this.#cycle(queue, concurrency, ends);
        lastFailure = undefined;
      } catch (error) {
        // Two claims that meet on MariaDB's index locks: one is refused as a deadlock, nothing was claimed; look again.
        if (isDeadlock(error)) continue;
        const failure = describeError(error);
        if (failure !== lastFailure) log.error(`File « ${queue} » : lecture des tâches impossible : ${failure}`);
        lastFailure = failure;
      }
      if (!this.#running) break;
      if (claimed > 0 || this.#woken.has(queue)) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.#options.pollMs ?? 1000);
        this.#wakers.set(queue, () => {
          clearTimeout(timer);
          resolve();
        });
        if (++this.#waiting >= this.#loops.length) this.#settleIdle();
      });
      this.#waiting--;
      this.#wakers.delete(queue);
    }
    try {
      await this.#flush(this.#database(), ends);
    } catch (error) {
      for (const end of ends.splice(0)) clearInterval(end.heartbeat);
      log.error(`File « ${queue} » : fin des tâches non écrite : ${describeError(error)} (leur bail expirera, elles seront reprises).`);
    }
  }

  /** One claim of `queue` (which writes `ends` first) and its runs, whose ends join `ends`; returns how many jobs it claimed. */
  async #cycle(queue: string, concurrency: number, ends: Ends[]): Promise<number> {
    const database = this.#database();
    const now = this.#now();
    if (now - this.#lastReap >= 1000) {
      this.#lastReap = now;
      await reapExpiredLeases(database, new Date(now));
    }
    const names = this.#definitions()
      .filter((definition) => definition.queue === queue)
      .map((definition) => definition.name);
    if (names.length === 0) {
      await this.#flush(database, ends);
      return 0;
    }
    const token = `${this.owner}:${++this.#sequence}`;
    const jobs = await this.#claim(database, queue, names, concurrency, token, now, ends);
    if (jobs.length === 0) return 0;
    const lease = this.#leaseMs();
    const heartbeat = setInterval(() => void this.#renew(database, token, lease), Math.max(10, Math.floor(lease / 3)));
    // #run never throws: the heartbeat stops once the ends are written (#written).
    ends.push({ token, outcomes: await Promise.all(jobs.map((job) => this.#run(job, queue))), heartbeat });
    return jobs.length;
  }

  #leaseMs(): number {
    const lease = this.#options.leaseMs ?? DEFAULT_LEASE_MS;
    if (!Number.isFinite(lease) || lease <= 0) throw new TypeError(`Bail de « ${lease} » ms : un nombre au-dessus de 0 est attendu.`);
    return lease;
  }

  /** The heartbeat of a claim: its jobs still running keep their lease for `lease` ms more. Never throws. */
  async #renew(database: Database, token: string, lease: number): Promise<void> {
    try {
      await retryDeadlocks(async () => {
        await database.execute(`UPDATE ${JOBS_TABLE} SET locked_until = ? WHERE locked_by = ? AND status = 'running'`, [new Date(this.#now() + lease), token]);
      });
    } catch (error) {
      log.warning(`Bail des tâches de ${token} non renouvelé : ${describeError(error)}`);
    }
  }

  /** Writes the ends not yet written (on their own: when the worker stops or has no claim to make). */
  async #flush(database: Database, ends: Ends[]): Promise<void> {
    if (ends.length === 0) return;
    // Each statement of #record keeps to its claim's token: running it again changes nothing already written.
    await retryDeadlocks(() => database.transaction((tx) => recordEnds(tx, ends, new Date(this.#now()))));
    endsWritten(ends.splice(0));
  }

  /** The claim's transaction on MariaDB: the ends, then `SELECT … FOR UPDATE SKIP LOCKED` and the UPDATE of what it found. */
  async #claimMariaDb(
    tx: Transaction,
    ends: readonly Ends[],
    where: string,
    set: string,
    limit: number,
    token: string,
    until: Date,
    params: readonly unknown[],
  ): Promise<ClaimedJob[]> {
    await recordEnds(tx, ends, new Date(this.#now()));
    const found = await tx.fetchAll<ClaimedJob>(
      `SELECT id, name, payload, attempts, max_attempts FROM ${JOBS_TABLE} WHERE ${where} ORDER BY run_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED`,
      params,
    );
    if (found.length > 0)
      await tx.execute(`UPDATE ${JOBS_TABLE} SET ${set} WHERE id IN (${found.map(() => '?').join(', ')})`, [token, until, ...found.map((row) => row.id)]);
    return found.map((row) => ({ ...row, attempts: Number(row.attempts) + 1 }));
  }

  /** Writes `ends`, then claims up to `limit` due jobs of `queue`, in one transaction; `ends` is emptied once it commits. */
  async #claim(database: Database, queue: string, names: readonly string[], limit: number, token: string, now: number, ends: Ends[]): Promise<ClaimedJob[]> {
    const due = new Date(now);
    const until = new Date(now + this.#leaseMs());
    const marks = names.map(() => '?').join(', ');
    const where = `status = 'queued' AND queue = ? AND name IN (${marks}) AND run_at <= ?`;
    const set = "status = 'running', locked_by = ?, locked_until = ?, attempts = attempts + 1";
    let rows: ClaimedJob[];
    if (database.driver === 'mariadb') {
      rows = await database.transaction((tx) => this.#claimMariaDb(tx, ends, where, set, limit, token, until, [queue, ...names, due]));
    } else {
      const claim = async (target: Queryable): Promise<ClaimedJob[]> => {
        const claimed = await target.execute(
          `UPDATE ${JOBS_TABLE} SET ${set} WHERE id IN (SELECT id FROM ${JOBS_TABLE} WHERE ${where} ORDER BY run_at, id LIMIT ${limit})`,
          [token, until, queue, ...names, due],
        );
        return claimed === 0
          ? []
          : await target.fetchAll<ClaimedJob>(`SELECT id, name, payload, attempts, max_attempts FROM ${JOBS_TABLE} WHERE locked_by = ?`, [token]);
      };
      // With no ends to write, the UPDATE alone is the claim (one statement, atomic on SQLite): an idle worker's
      // looks hold no transaction, whose write lock another connection of the process would wait on.
      rows =
        ends.length === 0
          ? await claim(database)
          : await database.transaction(async (tx) => {
              await recordEnds(tx, ends, new Date(this.#now()));
              return claim(tx);
            });
    }
    endsWritten(ends.splice(0));
    return rows.map((row) => ({ ...row, id: Number(row.id), attempts: Number(row.attempts), max_attempts: Number(row.max_attempts) }));
  }

  /** Runs one job within its timeout; never throws. */
  async #run(job: ClaimedJob, queue: string): Promise<Outcome> {
    const definition = this.#definitions().find((candidate) => candidate.name === job.name);
    // Drawn before the run, so that the handler knows when a retry would come (`retryDelayMs`).
    const delayMs = backoffDelayMs(definition?.backoff ?? DEFAULT_BACKOFF, job.attempts);
    const failed = (error: string, final = false): Outcome => ({
      id: job.id,
      ok: false,
      error,
      attempt: job.attempts,
      max: job.max_attempts,
      stopped: this.#stopping?.signal.aborted === true,
      final,
      failedAt: this.#now(),
      delayMs,
    });
    if (!definition) return failed(`tâche « ${job.name} » inconnue de ce processus.`);
    const controller = new AbortController();
    const onStop = (): void => controller.abort(new Error('arrêt du processus'));
    this.#stopping?.signal.addEventListener('abort', onStop, { once: true });
    let timer: NodeJS.Timeout | undefined;
    try {
      const payload: unknown = JSON.parse(job.payload);
      const retryDelayMs = job.attempts < job.max_attempts ? delayMs : null;
      const context = { id: job.id, name: job.name, queue, attempt: job.attempts, maxAttempts: job.max_attempts, signal: controller.signal, retryDelayMs };
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          const error = new Error(`délai de ${definition.timeoutMs} ms dépassé`);
          controller.abort(error);
          reject(error);
        }, definition.timeoutMs);
      });
      const aborted = new Promise<never>((_, reject) =>
        controller.signal.addEventListener('abort', () => reject(controller.signal.reason as Error), { once: true }),
      );
      await Promise.race([Promise.resolve().then(() => definition.handler(payload as never, context)), timeout, aborted]);
      return { id: job.id, ok: true };
    } catch (error) {
      return failed(describeError(error), error instanceof UnrecoverableJobError);
    } finally {
      clearTimeout(timer);
      this.#stopping?.signal.removeEventListener('abort', onStop);
    }
  }
}

/**
 * Starts a worker on the application's database and returns it (stop it with `await worker.stop()`). `serve()`
 * starts one in each process of an application that imports `fw-mvc/jobs` and defines jobs (unless
 * `jobs_in_serve` is false); `fw jobs:work` runs one in a process of its own.
 */
export function startJobWorker(options: JobWorkerOptions = {}): JobWorker {
  return new JobWorker(options).start();
}
