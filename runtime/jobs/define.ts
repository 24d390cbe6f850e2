/**
 * Defining and enqueuing jobs (docs/jobs.md "Define and enqueue"): `defineJob(name, handler, options)` records a
 * job type in this process's registry (the workers run only the types they know) and returns a handle whose
 * `enqueue(payload, options)` writes one `queued` row in `fw_jobs`, inside the caller's transaction when it passes
 * one (the job exists if and only if that transaction commits), due now, at `runAt`, or after `delayMs`.
 */
import { getDatabase, type Database, type Transaction } from '../db/database.js';
import { DuplicateError } from '../db/errors.js';
import { bookkeepingTable } from '../db/writes.js';
import { checkCron } from './cron.js';
import { JOB_LIMITS, JOB_TICKS_TABLE, JOBS_TABLE } from './schema.js';

// The queue's writes (a job enqueued, a claim, an end) keep the list counts (runtime/db/writes.ts); declared here,
// by the module that writes the tables, not in schema.ts, which the emitters import.
bookkeepingTable(JOBS_TABLE);
bookkeepingTable(JOB_TICKS_TABLE);

/** What a handler is told about the run it makes. */
export interface JobContext {
  /** `fw_jobs.id`. */
  readonly id: number;
  readonly name: string;
  readonly queue: string;
  /** 1 on the first run; a run after a retry or a lost lease counts one more (at-least-once: docs/jobs.md). */
  readonly attempt: number;
  readonly maxAttempts: number;
  /** Aborted when the job's `timeoutMs` passes or the worker stops with the job still running. */
  readonly signal: AbortSignal;
  /** Milliseconds after a failure of this run before the next one runs; null when this run is the last attempt. */
  readonly retryDelayMs: number | null;
}

export type JobHandler<P> = (payload: P, context: JobContext) => unknown;

/**
 * The delays between attempts: `baseMs × 2^(attempt − 1)`, at most `maxMs`, each drawn in [½, 1] of it (jitter);
 * or `delaysMs`, fixed delays after the 1st, 2nd… failure, the last one repeating, without jitter (the mail
 * queue's 1 min, 5 min, 30 min, 2 h: docs/jobs.md "Retries").
 */
export interface BackoffOptions {
  readonly baseMs?: number;
  readonly maxMs?: number;
  readonly delaysMs?: readonly number[];
}

/** A definition's backoff, every option resolved (`delaysMs` null: exponential with jitter). */
export interface Backoff {
  readonly baseMs: number;
  readonly maxMs: number;
  readonly delaysMs: readonly number[] | null;
}

/**
 * Thrown by a handler whose job must not be tried again (a refusal that another attempt would meet too): the job
 * ends `dead` at once with this error, whatever attempts it had left.
 */
export class UnrecoverableJobError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UnrecoverableJobError';
  }
}

export interface JobOptions<P> {
  /** The queue its rows go to (workers run queues with a concurrency each); default `default`. */
  readonly queue?: string;
  /** Runs before `dead` (default 5; 1: never retried). */
  readonly attempts?: number;
  readonly backoff?: BackoffOptions;
  /** Milliseconds one run may last before it counts as failed (default 60 000). */
  readonly timeoutMs?: number;
  /**
   * The key of the jobs that must not wait or run twice at once: while a job of this type with the same key is
   * `queued` or `running`, `enqueue` writes nothing and returns that job (`duplicate: true`).
   */
  readonly uniqueKey?: (payload: P) => string;
  /**
   * A recurring job: a cron expression (5 fields, or 6 with seconds first), read in UTC by cron-parser. Every
   * running worker schedules it; each tick runs once over all of them (docs/jobs.md "Recurring jobs").
   */
  readonly cron?: string;
}

export interface EnqueueOptions {
  /** The caller's transaction: the row is written in it, so it exists only if the transaction commits. */
  readonly tx?: Transaction;
  /** The database when no `tx` is given; default: the application's (`getDatabase()`). */
  readonly database?: Database;
  /** When it may run (default: now). */
  readonly runAt?: Date;
  /** Or: milliseconds from now. */
  readonly delayMs?: number;
  /** Overrides the definition's `uniqueKey` for this job. */
  readonly uniqueKey?: string;
}

/** What `enqueue` wrote (or found, for a duplicate key). */
export interface EnqueuedJob {
  readonly id: number;
  readonly name: string;
  readonly runAt: Date;
  /** True when a job with the same unique key was waiting or running: nothing was written. */
  readonly duplicate: boolean;
}

export interface JobDefinition<P = unknown> {
  readonly name: string;
  readonly queue: string;
  readonly attempts: number;
  readonly backoff: Backoff;
  readonly timeoutMs: number;
  readonly cron: string | null;
  readonly handler: JobHandler<P>;
  readonly uniqueKey: ((payload: P) => string) | null;
  enqueue(payload: P, options?: EnqueueOptions): Promise<EnqueuedJob>;
}

export const DEFAULT_QUEUE = 'default';
export const DEFAULT_ATTEMPTS = 5;
export const DEFAULT_TIMEOUT_MS = 60_000;
export const DEFAULT_BACKOFF: Backoff = { baseMs: 5_000, maxMs: 3_600_000, delaysMs: null };

const registry = new Map<string, JobDefinition<never>>();
const wakers = new Set<(queue: string) => void>();

const NAME = /^[a-z][a-z0-9_.:-]*$/;

function checkName(what: string, value: unknown, max: number): string {
  if (typeof value !== 'string' || !NAME.test(value) || value.length > max) {
    throw new TypeError(`${what} « ${String(value)} » : de 1 à ${max} caractères, minuscules, chiffres, « _ . : - », une lettre en tête.`);
  }
  return value;
}

function positive(what: string, value: number, integer: boolean): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw new TypeError(`${what} vaut « ${String(value)} » : un nombre${integer ? ' entier' : ''} au-dessus de 0 est attendu.`);
  }
  return value;
}

/**
 * Defines the job type `name` (snake_case, e.g. `resize_image`) and returns its handle. A second definition under
 * one name replaces the first (a module reloaded in development). The cron expression, when given, is checked here.
 *
 * @example
 * export const resizeImage = defineJob('resize_image', async (payload: { mediaId: number }, { attempt }) => { … }, { attempts: 3 });
 * await transaction(async (tx) => { const id = await tx.insert(…); await resizeImage.enqueue({ mediaId: id }, { tx }); });
 */
export function defineJob<P = unknown>(name: string, handler: JobHandler<P>, options: JobOptions<P> = {}): JobDefinition<P> {
  const definition = jobType(name, handler, options);
  registry.set(name, definition);
  return definition;
}

/**
 * A job type as `defineJob` makes it, checked the same way, but not recorded in this process's registry: only a
 * worker given it in its `jobs` option runs it (the mail sender runs the framework's `fw_mail_send` this way:
 * docs/mail.md "sendMail and the outbox"); its `enqueue` writes rows as a defined job's does.
 */
export function jobType<P = unknown>(name: string, handler: JobHandler<P>, options: JobOptions<P> = {}): JobDefinition<P> {
  checkName('Nom de tâche', name, JOB_LIMITS.name);
  if (typeof handler !== 'function') throw new TypeError(`Tâche « ${name} » : le traitement doit être une fonction.`);
  const queue = checkName('File', options.queue ?? DEFAULT_QUEUE, JOB_LIMITS.queue);
  const attempts = positive('attempts', options.attempts ?? DEFAULT_ATTEMPTS, true);
  const delaysMs = options.backoff?.delaysMs;
  if (
    delaysMs !== undefined &&
    (!Array.isArray(delaysMs) || delaysMs.length === 0 || delaysMs.some((d) => typeof d !== 'number' || !Number.isFinite(d) || d < 0))
  )
    throw new TypeError(`Tâche « ${name} » : backoff.delaysMs, une liste non vide de millisecondes (0 ou plus), est attendue.`);
  const backoff: Backoff = {
    baseMs: positive('backoff.baseMs', options.backoff?.baseMs ?? DEFAULT_BACKOFF.baseMs, false),
    maxMs: positive('backoff.maxMs', options.backoff?.maxMs ?? DEFAULT_BACKOFF.maxMs, false),
    delaysMs: delaysMs === undefined ? null : Array.from<number>(delaysMs),
  };
  const timeoutMs = positive('timeoutMs', options.timeoutMs ?? DEFAULT_TIMEOUT_MS, false);
  const cron = options.cron ?? null;
  if (cron !== null && typeof cron !== 'string') throw new TypeError(`Tâche « ${name} » : cron doit être une expression (chaîne).`);
  if (cron !== null) checkCron(name, cron);
  const definition: JobDefinition<P> = {
    name,
    queue,
    attempts,
    backoff,
    timeoutMs,
    cron,
    handler,
    uniqueKey: options.uniqueKey ?? null,
    enqueue: (payload, enqueueOptions) => enqueueJob(definition, payload, enqueueOptions),
  };
  return definition;
}

/** The definition of `name` in this process, if any. */
export function jobDefinition(name: string): JobDefinition<unknown> | undefined {
  return registry.get(name) as JobDefinition<unknown> | undefined;
}

/** Every definition of this process, in the order they were defined. */
export function jobDefinitions(): Array<JobDefinition<unknown>> {
  return [...registry.values()] as Array<JobDefinition<unknown>>;
}

/** Forgets every definition (tests). */
export function clearJobDefinitions(): void {
  registry.clear();
}

/** Registers what runs when a job was enqueued (and its transaction committed); returns the unregistration. */
export function onJobEnqueued(wake: (queue: string) => void): () => void {
  wakers.add(wake);
  return () => wakers.delete(wake);
}

/** The delay before the attempt after `attempt` failed runs: exponential, capped, with jitter; or the fixed `delaysMs`. */
export function backoffDelayMs(backoff: Pick<Backoff, 'baseMs' | 'maxMs'> & Partial<Backoff>, attempt: number, random: () => number = Math.random): number {
  if (backoff.delaysMs) return backoff.delaysMs[Math.min(Math.max(0, attempt - 1), backoff.delaysMs.length - 1)]!;
  const full = Math.min(backoff.maxMs, backoff.baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(full / 2 + (full / 2) * random());
}

/** A short text of a failure, for `last_error` and the log (its message, else the value itself). */
export function describeError(error: unknown): string {
  const message = error instanceof Error ? `${error.name === 'Error' ? '' : `${error.name} : `}${error.message}` : String(error);
  return message.replace(/\s+/g, ' ').trim().slice(0, JOB_LIMITS.lastError) || 'erreur sans message';
}

/** The row's `unique_key`: the job's name and its key, so that two types never share one. */
function uniqueColumn(name: string, key: string): string {
  if (typeof key !== 'string' || key.length === 0) throw new TypeError(`Tâche « ${name} » : la clé d'unicité doit être une chaîne non vide.`);
  const value = `${name}:${key}`;
  if (value.length > JOB_LIMITS.uniqueKey)
    throw new TypeError(`Tâche « ${name} » : clé d'unicité trop longue (${JOB_LIMITS.uniqueKey} caractères au plus, nom compris).`);
  return value;
}

/** The text stored in `payload`: JSON, refused when it would not come back the same (a function, a cycle…). */
function payloadText(name: string, payload: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(payload === undefined ? null : payload);
  } catch (error) {
    throw new TypeError(`Tâche « ${name} » : données non sérialisables en JSON (${(error as Error).message}).`, { cause: error });
  }
  if (text === undefined) throw new TypeError(`Tâche « ${name} » : données non sérialisables en JSON.`);
  return text;
}

async function enqueueJob<P>(definition: JobDefinition<P>, payload: P, options: EnqueueOptions = {}): Promise<EnqueuedJob> {
  const now = Date.now();
  if (options.runAt !== undefined && (!(options.runAt instanceof Date) || Number.isNaN(options.runAt.getTime())))
    throw new TypeError('runAt : une date (Date) est attendue.');
  if (options.delayMs !== undefined && (typeof options.delayMs !== 'number' || !Number.isFinite(options.delayMs) || options.delayMs < 0))
    throw new TypeError('delayMs : un nombre de millisecondes, 0 ou plus, est attendu.');
  const runAt = options.runAt ?? new Date(now + (options.delayMs ?? 0));
  const key = options.uniqueKey ?? (definition.uniqueKey ? definition.uniqueKey(payload) : null);
  const unique = key === null ? null : uniqueColumn(definition.name, key);
  const text = payloadText(definition.name, payload);
  const target = options.tx ?? options.database ?? getDatabase();
  let id: number;
  try {
    id = await target.insert(
      `INSERT INTO ${JOBS_TABLE} (name, queue, payload, status, attempts, max_attempts, run_at, locked_by, locked_until, unique_key, last_error, created_at, finished_at) ` +
        "VALUES (?, ?, ?, 'queued', 0, ?, ?, NULL, NULL, ?, NULL, ?, NULL)",
      [definition.name, definition.queue, text, definition.attempts, runAt, unique, new Date(now)],
    );
  } catch (error) {
    if (!(error instanceof DuplicateError) || unique === null) throw error;
    const existing = await target.fetchOne<{ id: number | string; run_at: unknown }>(`SELECT id, run_at FROM ${JOBS_TABLE} WHERE unique_key = ?`, [unique]);
    // The job with this key ended between the INSERT and this look: a second INSERT would now succeed.
    if (!existing) return enqueueJob(definition, payload, options);
    return { id: Number(existing.id), name: definition.name, runAt: new Date(`${String(existing.run_at).slice(0, 19).replace(' ', 'T')}Z`), duplicate: true };
  }
  const wake = (): void => {
    for (const waker of wakers) waker(definition.queue);
  };
  if (options.tx) options.tx.afterCommit(wake);
  else wake();
  return { id, name: definition.name, runAt, duplicate: false };
}
