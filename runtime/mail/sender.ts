/**
 * The sender of the outbox (docs/mail.md "sendMail and the outbox"), run in the application process: it claims
 * the due `queued` rows of `mail_log` one by one with an UPDATE that only one process can win (several processes
 * may share one outbox), opens its sealed body (sealed.ts), sends it through the transport, and records `sent`, a
 * retry (`queued` again, later), `failed`, or `expired` when the content's expiry came (or would come before the
 * next retry). Also `sendMailNow`, which sends at once without the outbox (`fw mail:test`).
 */
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { get } from '../config.js';
import { getDatabase, type Database, type Queryable } from '../db/database.js';
import { getLogger } from '../logger.js';
import { clip, onMailQueued, prepareMail, toEmailColumn, type MailInput } from './outbox.js';
import { openPayload, SealedMessageError, type QueuedPayload } from './sealed.js';
import { MAIL_LOG_LIMITS, MAIL_LOG_TABLE } from './schema.js';
import { isTemporaryFailure, transportFromConfig, type MailTransport, type OutgoingMessage, type SendResult } from './transports.js';

const log = getLogger('fw.mail');

/** Seconds between the attempts of a message that failed temporarily: 1 min, 5 min, 30 min, 2 h. */
export const DEFAULT_RETRY_DELAYS_SECONDS: readonly number[] = [60, 300, 1800, 7200];
/** Attempts before a message that keeps failing temporarily is `failed`. */
export const DEFAULT_MAX_ATTEMPTS = 5;

export interface MailSenderOptions {
  /** Default: the application's (`getDatabase()`), read at each tick. */
  database?: Database;
  /** Default: the transport `mail_transport` names (`transportFromConfig()`), built at start. */
  transport?: MailTransport;
  /** Milliseconds between two looks at the outbox when nothing wakes the sender (default 5000). */
  intervalMs?: number;
  /** Rows read per look (default 20); the sender keeps looking while it finds some. */
  batchSize?: number;
  /** Attempts before `failed` (default 5). */
  maxAttempts?: number;
  /** Delays after the 1st, 2nd… temporary failure; the last one repeats (default `DEFAULT_RETRY_DELAYS_SECONDS`). */
  retryDelaysSeconds?: readonly number[];
  /**
   * Seconds a claim holds: past it, a row still `queued` is free again (its sender died). Default:
   * `mail_claim_seconds`, else `6 × mail_timeout + 30`, longer than one attempt can last.
   */
  claimSeconds?: number;
  /** The clock, in milliseconds as `Date.now` (default); tests move it to reach a retry or an expiry. */
  now?: () => number;
}

/** How a row ended after one attempt. */
export type AttemptOutcome = 'sent' | 'retry' | 'failed' | 'skipped' | 'expired';

interface ClaimedRow {
  id: number | string | bigint;
  attempts: number | string;
  message: string | null;
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
 * `stop()`, which waits for the message being sent. `runOnce()` delivers every due row now (tests, scripts).
 */
export class MailSender {
  /** `<host>:<pid>:<random>`, written in `claimed_by`. */
  readonly owner = clip(`${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`, MAIL_LOG_LIMITS.claimedBy);
  readonly #options: MailSenderOptions;
  #transport: MailTransport | undefined;
  #running = false;
  #loop: Promise<void> | undefined;
  #woken = false;
  #wake: (() => void) | undefined;
  #unsubscribe: (() => void) | undefined;
  #waiting = false;
  #idleWaiters: Array<() => void> = [];

  constructor(options: MailSenderOptions = {}) {
    this.#options = options;
  }

  #now(): Date {
    return new Date((this.#options.now ?? Date.now)());
  }

  get running(): boolean {
    return this.#running;
  }

  /** Starts the loop: a look at once, then after every wake-up (a message queued) or `intervalMs`. */
  start(): this {
    if (this.#running) return this;
    // A claim duration that cannot work stops the start rather than every look at the outbox.
    claimSecondsFor(this.#options.claimSeconds);
    this.#running = true;
    this.#transport ??= this.#options.transport ?? transportFromConfig();
    this.#unsubscribe = onMailQueued(() => this.wake());
    this.#loop = this.#run();
    return this;
  }

  /** Looks at the outbox now (called after a message is queued and committed). */
  wake(): void {
    this.#woken = true;
    this.#wake?.();
  }

  /**
   * Resolves once the loop has finished its look at the outbox and waits for a wake-up or `intervalMs` (at once
   * when it already waits or does not run). Tests use it to know that a later delivery came from a wake-up.
   */
  idle(): Promise<void> {
    if (!this.#running || this.#waiting) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  #settleIdle(): void {
    for (const resolve of this.#idleWaiters.splice(0)) resolve();
  }

  /** Stops after the message being sent, if any, and closes the transport. */
  async stop(): Promise<void> {
    if (!this.#running) return;
    this.#running = false;
    this.#unsubscribe?.();
    this.wake();
    await this.#loop;
    await this.#transport?.close();
    this.#transport = undefined;
  }

  /** Delivers every row due now; returns how many rows it attempted. */
  async runOnce(): Promise<number> {
    this.#transport ??= this.#options.transport ?? transportFromConfig();
    let attempted = 0;
    for (;;) {
      const database = this.#options.database ?? getDatabase();
      const now = this.#now();
      const due = await database.fetchAll<{ id: number | string | bigint }>(
        `SELECT id FROM ${MAIL_LOG_TABLE} WHERE status = 'queued' AND next_attempt_at <= ? AND (claimed_until IS NULL OR claimed_until < ?) ` +
          `ORDER BY next_attempt_at, id LIMIT ${Math.max(1, Math.trunc(this.#options.batchSize ?? 20))}`,
        [now, now],
      );
      if (due.length === 0) return attempted;
      let claimedAny = false;
      for (const { id } of due) {
        const row = await this.#claim(database, id);
        if (!row) continue;
        claimedAny = true;
        attempted++;
        await this.#attempt(database, row);
      }
      // Every due row was taken by another process: leave them to it.
      if (!claimedAny) return attempted;
    }
  }

  async #run(): Promise<void> {
    // The same failure (a missing mail_log table, a database down) is logged once, not at every tick.
    let lastFailure: string | undefined;
    while (this.#running) {
      this.#woken = false;
      try {
        await this.runOnce();
        lastFailure = undefined;
      } catch (error) {
        const failure = describeFailure(error);
        if (failure !== lastFailure) log.error(`Envoi des messages en attente impossible : ${failure}`);
        lastFailure = failure;
      }
      if (!this.#running) break;
      if (this.#woken) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.#options.intervalMs ?? 5000);
        this.#wake = () => {
          clearTimeout(timer);
          resolve();
        };
        this.#waiting = true;
        this.#settleIdle();
      });
      this.#waiting = false;
      this.#wake = undefined;
    }
    this.#settleIdle();
  }

  /** Takes the row for this process; null when another one holds it or it is no longer due. */
  async #claim(database: Queryable, id: number | string | bigint): Promise<ClaimedRow | null> {
    const now = this.#now();
    const until = new Date(now.getTime() + claimSecondsFor(this.#options.claimSeconds) * 1000);
    const claimed = await database.execute(
      `UPDATE ${MAIL_LOG_TABLE} SET claimed_by = ?, claimed_until = ?, attempts = attempts + 1 ` +
        `WHERE id = ? AND status = 'queued' AND next_attempt_at <= ? AND (claimed_until IS NULL OR claimed_until < ?)`,
      [this.owner, until, id, now, now],
    );
    if (claimed !== 1) return null;
    return database.fetchOne<ClaimedRow>(`SELECT id, attempts, message FROM ${MAIL_LOG_TABLE} WHERE id = ? AND claimed_by = ?`, [id, this.owner]);
  }

  async #attempt(database: Queryable, row: ClaimedRow): Promise<AttemptOutcome> {
    const transport = this.#transport!;
    const attempts = Number(row.attempts);
    const release = 'claimed_by = NULL, claimed_until = NULL';
    const where = 'WHERE id = ? AND claimed_by = ?';
    if (!get('mail_enabled')) {
      await database.execute(
        `UPDATE ${MAIL_LOG_TABLE} SET status = 'skipped', message = NULL, next_attempt_at = NULL, error_message = ?, ${release} ${where}`,
        ['mail_enabled est faux : message non envoyé.', row.id, this.owner],
      );
      log.info(`Message n° ${row.id} non envoyé (mail_enabled est faux).`);
      return 'skipped';
    }
    let payload: QueuedPayload;
    try {
      payload = openPayload(row.message);
    } catch (error) {
      const reason = error instanceof SealedMessageError ? error.message : 'Message illisible dans mail_log.';
      await database.execute(`UPDATE ${MAIL_LOG_TABLE} SET status = 'failed', message = NULL, next_attempt_at = NULL, error_message = ?, ${release} ${where}`, [
        clip(reason, MAIL_LOG_LIMITS.errorMessage),
        row.id,
        this.owner,
      ]);
      log.error(`Message n° ${row.id} en échec définitif : ${reason}`);
      return 'failed';
    }
    const message: OutgoingMessage = payload.message;
    const expiresAt = payload.expiresAt === null ? null : new Date(payload.expiresAt);
    const expire = async (reason: string): Promise<AttemptOutcome> => {
      await database.execute(
        `UPDATE ${MAIL_LOG_TABLE} SET status = 'expired', message = NULL, next_attempt_at = NULL, error_message = ?, ${release} ${where}`,
        [clip(reason, MAIL_LOG_LIMITS.errorMessage), row.id, this.owner],
      );
      log.warning(`Message n° ${row.id} non envoyé : ${reason}`);
      return 'expired';
    };
    if (expiresAt && this.#now().getTime() >= expiresAt.getTime()) {
      return expire(`contenu expiré le ${expiresAt.toISOString()} avant son envoi (tentative ${attempts}) : message non envoyé.`);
    }
    try {
      await transport.send(message);
      await database.execute(
        `UPDATE ${MAIL_LOG_TABLE} SET status = 'sent', sent_at = ?, transport = ?, message = NULL, next_attempt_at = NULL, error_message = NULL, ${release} ${where}`,
        [this.#now(), clip(transport.name, MAIL_LOG_LIMITS.transport), row.id, this.owner],
      );
      log.info(`Message n° ${row.id} envoyé (tentative ${attempts}).`);
      return 'sent';
    } catch (error) {
      const reason = describeFailure(error);
      const maxAttempts = this.#options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
      if (isTemporaryFailure(error) && attempts < maxAttempts) {
        const delays = this.#options.retryDelaysSeconds ?? DEFAULT_RETRY_DELAYS_SECONDS;
        const delay = delays[Math.min(attempts - 1, delays.length - 1)] ?? 60;
        const next = new Date(this.#now().getTime() + delay * 1000);
        if (expiresAt && next.getTime() >= expiresAt.getTime()) {
          return expire(
            clip(
              `${reason} ; le contenu expire le ${expiresAt.toISOString()}, avant le prochain essai (dans ${delay} s) : message non envoyé.`,
              MAIL_LOG_LIMITS.errorMessage,
            ),
          );
        }
        await database.execute(`UPDATE ${MAIL_LOG_TABLE} SET next_attempt_at = ?, error_message = ?, transport = ?, ${release} ${where}`, [
          next,
          reason,
          clip(transport.name, MAIL_LOG_LIMITS.transport),
          row.id,
          this.owner,
        ]);
        log.warning(`Message n° ${row.id} : échec temporaire (tentative ${attempts}/${maxAttempts}), nouvel essai dans ${delay} s : ${reason}`);
        return 'retry';
      }
      await database.execute(
        `UPDATE ${MAIL_LOG_TABLE} SET status = 'failed', message = NULL, next_attempt_at = NULL, error_message = ?, transport = ?, ${release} ${where}`,
        [reason, clip(transport.name, MAIL_LOG_LIMITS.transport), row.id, this.owner],
      );
      log.error(`Message n° ${row.id} en échec définitif (tentative ${attempts}) : ${reason}`);
      return 'failed';
    }
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
        'created_at, sent_at, attempts, next_attempt_at, claimed_by, claimed_until, message) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, NULL, NULL, NULL, NULL)',
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
