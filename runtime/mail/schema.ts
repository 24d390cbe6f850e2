/**
 * The `mail_log` table of `fw-mvc/mail` (docs/mail.md "The mail_log table"): the log of every message and the
 * outbox the sender reads, described once (runtime/db/ddl/table-spec.ts) and spelled per dialect by the shared
 * renderer. Statuses are short text (`queued`, `sent`, `failed`, `skipped`), not an ENUM, so both dialects hold
 * the same thing. Dates are UTC `YYYY-MM-DD HH:MM:SS` (TEXT on SQLite, as the runtime writes dates), compared as
 * text. `message` holds the rendered message, sealed (sealed.ts), while the row waits to be sent, and is emptied
 * once it is `sent`, `failed`, `skipped` or `expired`. Each `queued` row has its job in `fw_jobs` (`fw_mail_send`,
 * queue `mail`), whose claim and lease say which process sends it; `next_attempt_at` is the time of its retry, as the
 * sender gave it to the queue (docs/mail.md "sendMail and the outbox").
 */
import { ASCII_BIN, column, FRAMEWORK_TABLE, idColumn, UTF8MB4_BIN } from '../db/ddl/columns.js';
import { renderCreateStatements, renderCreateTable } from '../db/ddl/render.js';
import type { TableSpec } from '../db/ddl/table-spec.js';
import type { DialectName } from '../db/dialect.js';

export const MAIL_LOG_TABLE = 'mail_log';
/** The job type that sends a row, and its queue (runtime/mail/job.ts). */
export const MAIL_JOB = 'fw_mail_send';
export const MAIL_QUEUE = 'mail';
/** What the table holds, written as the file's comment line. */
export const MAIL_LOG_TABLE_PURPOSE = "Journal des messages envoyés et file d'envoi (outbox) de fw-mvc/mail.";

/** The statuses of a row (`expired`: its content's expiry came before it could be sent). */
export const MAIL_STATUSES = ['queued', 'sent', 'failed', 'skipped', 'expired'] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];

/** Column sizes; longer values are cut (subject, error) or refused (type, related entity and id). */
export const MAIL_LOG_LIMITS = {
  messageType: 100,
  toEmail: 1000,
  subject: 500,
  transport: 20,
  errorMessage: 1000,
  relatedEntity: 100,
  relatedId: 64,
} as const;

const datetime = (name: string, nullable = false) => column(name, 'DATETIME', { sqliteType: 'TEXT', nullable });

/** `mail_log`, for both dialects. */
export const MAIL_LOG_TABLE_SPEC: TableSpec = {
  table: MAIL_LOG_TABLE,
  columns: [
    idColumn('BIGINT UNSIGNED'),
    column('message_type', `VARCHAR(${MAIL_LOG_LIMITS.messageType})`, { mariadbCharset: UTF8MB4_BIN }),
    column('to_email', `VARCHAR(${MAIL_LOG_LIMITS.toEmail})`),
    column('subject', `VARCHAR(${MAIL_LOG_LIMITS.subject})`),
    column('transport', `VARCHAR(${MAIL_LOG_LIMITS.transport})`, { mariadbCharset: ASCII_BIN }),
    column('status', 'VARCHAR(10)', { mariadbCharset: ASCII_BIN }),
    column('error_message', `VARCHAR(${MAIL_LOG_LIMITS.errorMessage})`, { nullable: true }),
    column('related_entity', `VARCHAR(${MAIL_LOG_LIMITS.relatedEntity})`, { nullable: true, mariadbCharset: UTF8MB4_BIN }),
    column('related_id', `VARCHAR(${MAIL_LOG_LIMITS.relatedId})`, { nullable: true, mariadbCharset: UTF8MB4_BIN }),
    datetime('created_at'),
    datetime('sent_at', true),
    column('attempts', 'INT', { default: '0', sqliteType: 'INTEGER' }),
    datetime('next_attempt_at', true),
    column('message', 'MEDIUMTEXT', { nullable: true, mariadbCharset: UTF8MB4_BIN, sqliteType: 'TEXT' }),
  ],
  primaryKey: ['id'],
  uniques: [],
  indexes: [
    { name: 'ix_mail_log_due', columns: ['status', 'next_attempt_at'] },
    { name: 'ix_mail_log_created_at', columns: ['created_at'] },
    { name: 'ix_mail_log_related', columns: ['related_entity', 'related_id'] },
  ],
  foreignKeys: [],
  ...FRAMEWORK_TABLE,
};

/** The statements of `mail_log` for one dialect (one text, statements separated by `;` and a new line). */
export function mailLogTableSql(dialect: DialectName): string {
  return renderCreateTable(MAIL_LOG_TABLE_SPEC, dialect).join('\n');
}

/** The statements one by one, each creating only what is absent (to run them through `execute`). */
export function mailLogTableStatements(dialect: DialectName): string[] {
  return renderCreateStatements(MAIL_LOG_TABLE_SPEC, dialect);
}

/**
 * The statement that gives a job to each row an older release left `queued` (its sender claimed rows itself, with
 * `claimed_by`), so that the upgrade's migration loses no waiting message (docs/upgrading.md "Mail as jobs"): the
 * job keeps the row's attempts and runs when the row was due.
 */
export function adoptQueuedMailSql(dialect: DialectName): string {
  const q = (name: string) => (dialect === 'mariadb' ? `\`${name}\`` : `"${name}"`);
  const text = (parts: string[]) => (dialect === 'mariadb' ? `CONCAT(${parts.join(', ')})` : parts.join(' || '));
  return (
    `INSERT INTO ${q('fw_jobs')} (${['name', 'queue', 'payload', 'status', 'attempts', 'max_attempts', 'run_at', 'unique_key', 'created_at'].map(q).join(', ')})\n` +
    `SELECT '${MAIL_JOB}', '${MAIL_QUEUE}', ${text([`'{"mailLogId":'`, q('id'), `'}'`])}, 'queued', ${q('attempts')}, 5, ` +
    `COALESCE(${q('next_attempt_at')}, ${q('created_at')}), ${text([`'${MAIL_JOB}:'`, q('id')])}, ${q('created_at')}\n` +
    `FROM ${q(MAIL_LOG_TABLE)} WHERE ${q('status')} = 'queued';`
  );
}
