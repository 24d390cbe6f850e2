/**
 * The sender of the outbox (docs/mail.md "sendMail and the outbox"), run in the application process: a worker of
 * `fw-mvc/jobs` on the queue `mail` that runs the jobs `fw_mail_send` (job.ts) with this sender's transport. The
 * queue claims each job for one process (several processes may share one outbox) and holds it by a lease; the
 * handler opens the row's sealed body (sealed.ts), sends it through the transport, and records `sent`, a retry
 * (`queued` again, later: the queue runs the job again after the delay), `failed` (the job ends `dead` with the
 * error), or `expired` when the content's expiry came (or would come before the next retry). Also `sendMailNow`,
 * which sends at once without the outbox (`fw mail:test`).
 */
import { get } from '../config.js';
import { getDatabase, type Database, type Queryable } from '../db/database.js';
import { UnrecoverableJobError, type JobContext } from '../jobs/define.js';
import { JobWorker } from '../jobs/worker.js';
import { getLogger } from '../logger.js';
import { DEFAULT_MAX_ATTEMPTS, MAIL_QUEUE, mailSendJob, type MailJobPayload } from './job.js';
import { clip, prepareMail, toEmailColumn, type MailInput } from './outbox.js';
import { openPayload, SealedMessageError, type QueuedPayload } from './sealed.js';
import { MAIL_LOG_LIMITS, MAIL_LOG_TABLE } from './schema.js';
import { isTemporaryFailure, transportFromConfig, type MailTransport, type OutgoingMessage, type SendResult } from './transports.js';

export { DEFAULT_MAX_ATTEMPTS, DEFAULT_RETRY_DELAYS_SECONDS } from './job.js';

const log = getLogger('fw.mail');

export interface MailSenderOptions {
  /** Default: the application's (`getDatabase()`), read at each look. */
  database?: Database;
  /** Default: the transport `mail_transport` names (`transportFromConfig()`), built at start. */
  transport?: MailTransport;
  /** Milliseconds between two looks at the outbox when nothing wakes the sender (default 5000). */
  intervalMs?: number;
  /** Messages sent at once by this sender (default 1: one after the other, as one SMTP connection would). */
  concurrency?: number;
  /** Read no more: messages are claimed `concurrency` at a time by the queue (docs/upgrading.md). */
  batchSize?: number;
  /** Attempts before `failed` (default 5). */
  maxAttempts?: number;
  /** Delays after the 1st, 2nd… temporary failure; the last one repeats (default `DEFAULT_RETRY_DELAYS_SECONDS`). */
  retryDelaysSeconds?: readonly number[];
  /**
   * Seconds a claim holds, renewed while the message is being sent: past it, the job of a sender that died is
   * free again. Default: `mail_claim_seconds`, else `6 × mail_timeout + 30`.
   */
  claimSeconds?: number;
  /** The clock, in milliseconds as `Date.now` (default); tests move it to reach a retry or an expiry. */
  now?: () => number;
}

/** How a row ended after one attempt. */
export type AttemptOutcome = 'sent' | 'retry' | 'failed' | 'skipped' | 'expired';

interface MailRowToSend {
  id: number | string | bigint;
  status: string;
  message: string | null;
  error_message: string | null;
}

/** A short, secret-free text of a failure, for `error_message` and the log. */
export function describeFailure(error: unknown): string {
  const { code, responseCode, message } = (error ?? {}) as { code?: unknown; responseCode?: unknown; message?: unknown };
  const parts = [typeof code === 'string' ? code : null, typeof responseCode === 'number' ? String(responseCode) : null].filter(Boolean);
  const text = typeof message === 'string' ? message.replace(/\s+/g, ' ').trim() : String(error);
  return clip(parts.length ? `${parts.join(' ')} : ${text}` : text, MAIL_LOG_LIMITS.errorMessage);
}

/**
 * Seconds a claim holds: `claimSeconds`, else `mail_claim_seconds`, else `6 × mail_timeout + 30`. Throws when the
 * one given is not a number of seconds above 0.
 */
function claimSecondsFor(claimSeconds?: number): number {
  const configured = get('mail_claim_seconds');
  const [source, value] = claimSeconds !== undefined ? ['claimSeconds', claimSeconds] : ['mail_claim_seconds', configured];
  if (value === null || value === undefined) return 6 * Number(get('mail_timeout')) + 30;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new TypeError(`${source} vaut « ${String(value)} » : un nombre de secondes au-dessus de 0 est attendu.`);
  }
  return value;
}

/**
 * Delivers the outbox. Build it with `startMailSender()` (or `new MailSender(options).start()`), stop it with
 * `stop()`, which waits for the message being sent. `runOnce()` delivers every due message now (tests, scripts).
 */
export class MailSender {
  readonly #options: MailSenderOptions;
  readonly #worker: JobWorker;
  #transport: MailTransport | undefined;

  constructor(options: MailSenderOptions = {}) {
    this.#options = options;
    const job = mailSendJob((payload, context) => this.#deliver(payload, context), {
      ...(options.maxAttempts !== undefined ? { attempts: options.maxAttempts } : {}),
      ...(options.retryDelaysSeconds !== undefined ? { retryDelaysSeconds: options.retryDelaysSeconds } : {}),
      // Longer than one attempt can last (the transport's own timeouts end it first).
      timeoutMs: (6 * Number(get('mail_timeout')) + 30) * 1000,
    });
    this.#worker = new JobWorker({
      ...(options.database ? { database: options.database } : {}),
      ...(options.now ? { now: options.now } : {}),
      queues: { [MAIL_QUEUE]: options.concurrency ?? 1 },
      jobs: [job],
      pollMs: options.intervalMs ?? 5000,
      // Read at each claim, as `mail_claim_seconds` always was: a setting changed after the sender was built counts.
      get leaseMs() {
        return claimSecondsFor(options.claimSeconds) * 1000;
      },
      recurring: false,
    });
  }

  /** `<host>:<pid>:<random>`, written with a claim's number in the job's `locked_by`. */
  get owner(): string {
    return this.#worker.owner;
  }

  #now(): Date {
    return new Date((this.#options.now ?? Date.now)());
  }

  get running(): boolean {
    return this.#worker.running;
  }

  /** Starts the loop: a look at once, then after every wake-up (a message queued) or `intervalMs`. */
  start(): this {
    if (this.#worker.running) return this;
    // A claim duration that cannot work stops the start rather than every look at the outbox.
    claimSecondsFor(this.#options.claimSeconds);
    this.#transport ??= this.#options.transport ?? transportFromConfig();
    this.#worker.start();
    return this;
  }

  /** Looks at the outbox now (a message queued and committed wakes it by itself). */
  wake(): void {
    this.#worker.wake(MAIL_QUEUE);
  }

  /**
   * Resolves once the loop has finished its look at the outbox and waits for a wake-up or `intervalMs` (at once
   * when it already waits or does not run). Tests use it to know that a later delivery came from a wake-up.
   */
  idle(): Promise<void> {
    return this.#worker.idle();
  }

  /** Stops after the message being sent, if any, and closes the transport. */
  async stop(): Promise<void> {
    if (!this.#worker.running) return;
    await this.#worker.stop();
    await this.#transport?.close();
    this.#transport = undefined;
  }

  /** Delivers every message due now; returns how many attempts it made. */
  async runOnce(): Promise<number> {
    claimSecondsFor(this.#options.claimSeconds);
    this.#transport ??= this.#options.transport ?? transportFromConfig();
    return this.#worker.runOnce();
  }

  /** The job's handler: one attempt at the row, whose end it writes; throws what the queue must retry or end dead. */
  async #deliver(payload: MailJobPayload, context: JobContext): Promise<AttemptOutcome | null> {
    const database: Queryable = this.#options.database ?? getDatabase();
    const id = Number(payload?.mailLogId);
    const row = await database.fetchOne<MailRowToSend>(`SELECT id, status, message, error_message FROM ${MAIL_LOG_TABLE} WHERE id = ?`, [id]);
    if (!row) {
      log.warning(`Message n° ${id} absent de mail_log : rien à envoyer.`);
      return null;
    }
    // A job run again after its row's end was written (at least once): the message is never sent twice.
    if (row.status === 'failed')
      throw new UnrecoverableJobError(`message n° ${id} en échec, son contenu effacé : il ne peut être renvoyé (${row.error_message ?? 'sans erreur'}).`);
    if (row.status !== 'queued') return null;
    return this.#attempt(database, id, row.message, context);
  }

  async #attempt(database: Queryable, id: number, sealed: string | null, context: JobContext): Promise<AttemptOutcome> {
    const transport = this.#transport ?? (this.#transport = this.#options.transport ?? transportFromConfig());
    const attempts = context.attempt;
    const maxAttempts = Math.min(this.#options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS, context.maxAttempts);
    const where = "WHERE id = ? AND status = 'queued'";
    const end = async (status: 'failed' | 'skipped' | 'expired', reason: string, named = false): Promise<void> => {
      await database.execute(
        `UPDATE ${MAIL_LOG_TABLE} SET status = ?, attempts = ?, message = NULL, next_attempt_at = NULL, error_message = ?${named ? ', transport = ?' : ''} ${where}`,
        [status, attempts, clip(reason, MAIL_LOG_LIMITS.errorMessage), ...(named ? [clip(transport.name, MAIL_LOG_LIMITS.transport)] : []), id],
      );
    };
    if (!get('mail_enabled')) {
      await end('skipped', 'mail_enabled est faux : message non envoyé.');
      log.info(`Message n° ${id} non envoyé (mail_enabled est faux).`);
      return 'skipped';
    }
    let payload: QueuedPayload;
    try {
      payload = openPayload(sealed);
    } catch (error) {
      const reason = error instanceof SealedMessageError ? error.message : 'Message illisible dans mail_log.';
      await end('failed', reason);
      log.error(`Message n° ${id} en échec définitif : ${reason}`);
      throw new UnrecoverableJobError(reason);
    }
    const message: OutgoingMessage = payload.message;
    const expiresAt = payload.expiresAt === null ? null : new Date(payload.expiresAt);
    const expire = async (reason: string): Promise<AttemptOutcome> => {
      await end('expired', reason);
      log.warning(`Message n° ${id} non envoyé : ${reason}`);
      return 'expired';
    };
    if (expiresAt && this.#now().getTime() >= expiresAt.getTime()) {
      return expire(`contenu expiré le ${expiresAt.toISOString()} avant son envoi (tentative ${attempts}) : message non envoyé.`);
    }
    try {
      await transport.send(message);
    } catch (error) {
      const reason = describeFailure(error);
      if (isTemporaryFailure(error) && attempts < maxAttempts && context.retryDelayMs !== null) {
        const delay = Math.round(context.retryDelayMs / 1000);
        const next = new Date(this.#now().getTime() + context.retryDelayMs);
        if (expiresAt && next.getTime() >= expiresAt.getTime()) {
          return expire(`${reason} ; le contenu expire le ${expiresAt.toISOString()}, avant le prochain essai (dans ${delay} s) : message non envoyé.`);
        }
        await database.execute(`UPDATE ${MAIL_LOG_TABLE} SET attempts = ?, next_attempt_at = ?, error_message = ?, transport = ? ${where}`, [
          attempts,
          next,
          reason,
          clip(transport.name, MAIL_LOG_LIMITS.transport),
          id,
        ]);
        log.warning(`Message n° ${id} : échec temporaire (tentative ${attempts}/${maxAttempts}), nouvel essai dans ${delay} s : ${reason}`);
        // The queue runs the job again after `retryDelayMs`.
        throw new Error(reason, { cause: error });
      }
      await end('failed', reason, true);
      log.error(`Message n° ${id} en échec définitif (tentative ${attempts}) : ${reason}`);
      throw new UnrecoverableJobError(reason, { cause: error });
    }
    await database.execute(
      `UPDATE ${MAIL_LOG_TABLE} SET status = 'sent', attempts = ?, sent_at = ?, transport = ?, message = NULL, next_attempt_at = NULL, error_message = NULL ${where}`,
      [attempts, this.#now(), clip(transport.name, MAIL_LOG_LIMITS.transport), id],
    );
    log.info(`Message n° ${id} envoyé (tentative ${attempts}).`);
    return 'sent';
  }
}

/**
 * Starts a sender on the application's outbox and returns it (stop it with `await sender.stop()`). An
 * application served by `serve()` that imports `fw-mvc/mail` gets one started when it listens, if
 * `mail_enabled`, and stopped on SIGTERM: call this only in another process (a worker) or a test.
 */
export function startMailSender(options: MailSenderOptions = {}): MailSender {
  return new MailSender(options).start();
}

/** A failure of `sendMailNow`: the original error is `cause`; `temporary` says whether a retry could succeed. */
export class MailSendError extends Error {
  readonly temporary: boolean;
  readonly responseCode: number | undefined;
  readonly code: string | undefined;
  constructor(cause: unknown) {
    super(describeFailure(cause), { cause });
    this.name = 'MailSendError';
    this.temporary = isTemporaryFailure(cause);
    const { responseCode, code } = (cause ?? {}) as { responseCode?: unknown; code?: unknown };
    this.responseCode = typeof responseCode === 'number' ? responseCode : undefined;
    this.code = typeof code === 'string' ? code : undefined;
  }
}

export interface SendMailNowOptions {
  /** Default: the transport `mail_transport` names; closed afterwards only when built here. */
  transport?: MailTransport;
  /** When given, the attempt is recorded in its `mail_log` (`sent` or `failed`, one attempt). */
  database?: Queryable;
}

/**
 * Sends one message at once, outside the outbox and whatever `mail_enabled` says (an explicit request, such as
 * `fw mail:test`): resolves with the server's answer (`response`, `accepted`, `rejected`), or throws
 * `MailSendError` (with `responseCode`, `code` and `temporary`). Address, header-injection and template errors
 * are thrown before any connection, as by `sendMail`.
 */
export async function sendMailNow(input: MailInput, options: SendMailNowOptions = {}): Promise<SendResult> {
  const prepared = prepareMail(input);
  const transport = options.transport ?? transportFromConfig();
  const record = async (status: 'sent' | 'failed', error: string | null): Promise<void> => {
    if (!options.database) return;
    const now = new Date();
    await options.database.insert(
      `INSERT INTO ${MAIL_LOG_TABLE} (message_type, to_email, subject, transport, status, error_message, related_entity, related_id, ` +
        'created_at, sent_at, attempts, next_attempt_at, message) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, NULL, NULL)',
      [
        prepared.type,
        toEmailColumn(prepared.message),
        clip(prepared.message.subject, MAIL_LOG_LIMITS.subject),
        clip(transport.name, MAIL_LOG_LIMITS.transport),
        status,
        error,
        prepared.related?.entity ?? null,
        prepared.related?.id ?? null,
        now,
        status === 'sent' ? now : null,
      ],
    );
  };
  try {
    const result = await transport.send(prepared.message);
    await record('sent', null);
    return result;
  } catch (error) {
    const failure = new MailSendError(error);
    await record('failed', failure.message);
    throw failure;
  } finally {
    if (!options.transport) await transport.close();
  }
}
