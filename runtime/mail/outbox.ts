/**
 * The outbox (docs/mail.md "sendMail and the outbox"): `sendMail` checks and renders a message, writes it into
 * `mail_log` as `queued` with its job `fw_mail_send` in `fw_jobs` (both inside the caller's transaction when it
 * passes one, else in one of their own) and returns at once; a sender (sender.ts) delivers it later. The rendered message is stored in the row (`message`) so that a restart loses
 * nothing, sealed with a key of the application's secret (sealed.ts: no link or code readable at rest) with its
 * expiry, and emptied once the row is `sent`, `failed`, `skipped` or `expired`.
 */
import { randomUUID } from 'node:crypto';
import { get } from '../config.js';
import { UnrecoverableJobError } from '../jobs/define.js';
import { getDatabase, type Database, type Queryable, type Transaction } from '../db/database.js';
import { bookkeepingTable } from '../db/writes.js';
import { MailAddressError, parseAddress, parseAddressList, refuseLineBreaks, type AddressInput, type MailAddress } from './address.js';
import { MAIL_JOB, mailSendJob } from './job.js';
import { renderMail } from './render.js';
import { sealPayload } from './sealed.js';
import { MAIL_LOG_LIMITS, MAIL_LOG_TABLE, type MailStatus } from './schema.js';
import type { OutgoingMessage } from './transports.js';

// The outbox's writes (a queued message, a claim, a status) keep the list counts (runtime/db/writes.ts). Declared
// here, by the module that writes the table, not in schema.ts: the emitters import that one (docs/architecture.md).
bookkeepingTable(MAIL_LOG_TABLE);

/** What a message is about, written in `related_entity` / `related_id` (e.g. `{ entity: 'users', id: 42 }`). */
export interface MailRelated {
  readonly entity: string;
  readonly id: string | number;
}

/** What both kinds of message share. */
interface MailEnvelope {
  /** One address or several: `a@b.fr`, `Nom <a@b.fr>`, `{ name, address }`. */
  readonly to: AddressInput | readonly AddressInput[];
  /** Default: `mail_from`. */
  readonly from?: AddressInput;
  readonly replyTo?: AddressInput;
  /** `mail_log.message_type`; default: the template's name, or `message`. */
  readonly type?: string;
  readonly related?: MailRelated;
  /**
   * When the content stops being valid (a reset link, a code): the message is never sent after it, and a retry
   * that would come after it ends the row `expired` (docs/mail.md "Messages that expire"). Default: never.
   */
  readonly expiresAt?: Date;
}

/** A message written by the caller. */
export interface MailMessage extends MailEnvelope {
  readonly subject: string;
  readonly text: string;
  readonly html?: string;
}

/** A message rendered from the templates `mvc/views/mail/<template>_*` (`renderMail`). */
export interface TemplateMailMessage extends MailEnvelope {
  readonly template: string;
  readonly context?: Record<string, unknown>;
}

export type MailInput = MailMessage | TemplateMailMessage;

/** A message checked and rendered, with what its `mail_log` row records. */
export interface PreparedMail {
  readonly message: OutgoingMessage;
  readonly type: string;
  readonly related: { readonly entity: string; readonly id: string } | null;
  readonly expiresAt: Date | null;
}

export interface SendMailOptions {
  /** The caller's transaction: the row is written in it, so it exists only if the transaction commits. */
  readonly tx?: Transaction;
  /** The database when no `tx` is given; default: the application's (`getDatabase()`). */
  readonly database?: Database;
}

/** What `sendMail` wrote. */
export interface QueuedMail {
  /** `mail_log.id`. */
  readonly id: number;
  /** `fw_jobs.id` of the job that sends it; null when `skipped`. */
  readonly jobId: number | null;
  /** `queued`, or `skipped` when `mail_enabled` is false (the row is kept, nothing will be sent). */
  readonly status: Extract<MailStatus, 'queued' | 'skipped'>;
  readonly messageId: string;
}

function checkLabel(field: string, value: unknown, max: number): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > max) {
    throw new TypeError(`${field} : une chaîne de 1 à ${max} caractères est attendue.`);
  }
  return value;
}

/** The domain Message-IDs are made under: the sender's. */
function messageId(from: MailAddress): string {
  return `<${randomUUID()}@${from.address.slice(from.address.indexOf('@') + 1)}>`;
}

/**
 * Checks the addresses (`MailAddressError`: invalid, or a CR/LF in an address, a name or the subject), renders
 * the templates of a `TemplateMailMessage` (`MailTemplateError` when one is missing) and fixes the Message-ID.
 * Throws before anything is written.
 */
export function prepareMail(input: MailInput): PreparedMail {
  const fromInput = input.from ?? get('mail_from');
  if (!fromInput) throw new MailAddressError('from', "from : aucun expéditeur (le message n'en donne pas et mail_from est vide).", 'invalid_address');
  const from = parseAddress('from', fromInput);
  const to = parseAddressList('to', input.to);
  const replyTo = input.replyTo === undefined ? undefined : parseAddress('replyTo', input.replyTo);
  let content: { subject: string; text: string; html?: string };
  let type: string;
  if ('template' in input && typeof input.template === 'string') {
    content = renderMail(input.template, input.context ?? {});
    type = input.type ?? input.template;
  } else {
    const message = input as MailMessage;
    if (typeof message.subject !== 'string' || typeof message.text !== 'string')
      throw new TypeError('Un message sans modèle demande subject et text (chaînes).');
    if (message.html !== undefined && typeof message.html !== 'string') throw new TypeError('html : une chaîne est attendue.');
    content = { subject: message.subject, text: message.text, ...(message.html !== undefined ? { html: message.html } : {}) };
    type = input.type ?? 'message';
  }
  refuseLineBreaks('subject', content.subject);
  checkLabel('type', type, MAIL_LOG_LIMITS.messageType);
  let related: PreparedMail['related'] = null;
  if (input.related) {
    related = {
      entity: checkLabel('related.entity', input.related.entity, MAIL_LOG_LIMITS.relatedEntity),
      id: checkLabel('related.id', String(input.related.id), MAIL_LOG_LIMITS.relatedId),
    };
  }
  let expiresAt: Date | null = null;
  if (input.expiresAt !== undefined) {
    if (!(input.expiresAt instanceof Date) || Number.isNaN(input.expiresAt.getTime())) throw new TypeError('expiresAt : une date (Date) est attendue.');
    expiresAt = input.expiresAt;
  }
  const message: OutgoingMessage = { from, to, ...(replyTo ? { replyTo } : {}), ...content, messageId: messageId(from) };
  return { message, type, related, expiresAt };
}

/** Cuts a text to a column's size. */
export function clip(value: string, max: number): string {
  return value.length > max ? value.slice(0, max - 1) + '…' : value;
}

/** The row's `to_email`: the addresses, without names, comma-separated. */
export function toEmailColumn(message: OutgoingMessage): string {
  return clip(message.to.map((address) => address.address).join(', '), MAIL_LOG_LIMITS.toEmail);
}

// The type as sendMail enqueues it; the sender runs it with a handler of its own (sender.ts), never this one.
const QUEUED_JOB = mailSendJob(() => {
  throw new UnrecoverableJobError(`${MAIL_JOB} est traité par l'envoyeur de fw-mvc/mail (startMailSender), pas par ce travailleur.`);
});

const wakers = new Set<() => void>();

/** Registers what runs when a message was queued (and its transaction committed); returns the unregistration. */
export function onMailQueued(wake: () => void): () => void {
  wakers.add(wake);
  return () => wakers.delete(wake);
}

function wakeSenders(): void {
  for (const wake of wakers) wake();
}

/**
 * Queues a message and returns at once: the row is written `queued` in `mail_log` (in `options.tx` when given, so
 * that it is sent only if the caller's transaction commits), then the application's sender (`startMailSender`)
 * is woken once the row is committed. Nothing is sent here: the page never waits on SMTP. With `mail_enabled`
 * false the row is written `skipped` and never sent. Throws, writing nothing, when an address is invalid, a
 * header value holds a CR or LF (`MailAddressError`), a template is missing (`MailTemplateError`), or `expiresAt`
 * is already past. The body is stored sealed (sealed.ts), with `expiresAt`.
 *
 * @example
 * await transaction(async (tx) => {
 *   const id = await tx.insert('INSERT INTO orders …', [...]);
 *   await sendMail({ template: 'order_confirmed', context: { id }, to: user.email, related: { entity: 'orders', id } }, { tx });
 * });
 */
export async function sendMail(input: MailInput, options: SendMailOptions = {}): Promise<QueuedMail> {
  const prepared = prepareMail(input);
  const enabled = Boolean(get('mail_enabled'));
  const status = enabled ? 'queued' : 'skipped';
  const now = new Date();
  if (prepared.expiresAt && prepared.expiresAt.getTime() <= now.getTime()) {
    throw new TypeError(`expiresAt : ${prepared.expiresAt.toISOString()} est déjà passé ; le message ne serait jamais envoyé.`);
  }
  const body = enabled ? sealPayload({ message: prepared.message, expiresAt: prepared.expiresAt?.toISOString() ?? null }) : null;
  // `tx` null: a skipped row, which has no job, written alone.
  const write = async (target: Queryable, tx: Transaction | null): Promise<{ id: number; jobId: number | null }> => {
    const id = await target.insert(
      `INSERT INTO ${MAIL_LOG_TABLE} (message_type, to_email, subject, transport, status, error_message, related_entity, related_id, ` +
        'created_at, sent_at, attempts, next_attempt_at, message) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, 0, ?, ?)',
      [
        prepared.type,
        toEmailColumn(prepared.message),
        clip(prepared.message.subject, MAIL_LOG_LIMITS.subject),
        clip(String(get('mail_transport')), MAIL_LOG_LIMITS.transport),
        status,
        enabled ? null : 'mail_enabled est faux : message non envoyé.',
        prepared.related?.entity ?? null,
        prepared.related?.id ?? null,
        now,
        enabled ? now : null,
        body,
      ],
    );
    if (!tx) return { id, jobId: null };
    const job = await QUEUED_JOB.enqueue({ mailLogId: id }, { tx, runAt: now });
    return { id, jobId: job.id };
  };
  let written: { id: number; jobId: number | null };
  const database = options.database ?? getDatabase();
  if (options.tx) {
    written = await write(options.tx, enabled ? options.tx : null);
    if (enabled) options.tx.afterCommit(wakeSenders);
  } else if (!enabled) {
    written = await write(database, null);
  } else {
    // The row and its job in one transaction: never one without the other.
    written = await database.transaction((tx) => write(tx, tx));
    wakeSenders();
  }
  return { id: written.id, jobId: written.jobId, status, messageId: prepared.message.messageId };
}
