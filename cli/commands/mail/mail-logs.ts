/**
 * `fw mail:logs [--limit N]` (docs/mail.md "Commands"): the last N rows of `mail_log` (default 20, N from 1 to
 * 1000), the most recent first: when, status, attempts, type, recipients, subject, transport, the last error and,
 * for a message waiting for a retry, when it is due.
 * Never the message body (the `message` column is not even read). Read with the application account; a SQLite
 * file that does not exist is not created.
 */
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import { CliError } from '../../errors.js';
import { projectRoot } from '../../current-project.js';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 1000;

export function configure(command: Command): void {
  command.option('--limit <N>', `nombre de lignes, de 1 à ${MAX_LIMIT} (défaut ${DEFAULT_LIMIT})`);
}

/** `--limit` as a number, or a CliError. */
export function parseLimit(value: unknown): number {
  if (value === undefined) return DEFAULT_LIMIT;
  const text = String(value).trim();
  const limit = Number(text);
  if (!/^\d+$/.test(text) || limit < 1 || limit > MAX_LIMIT) {
    throw new CliError(
      `--limit doit être un entier de 1 à ${MAX_LIMIT} (valeur lue : « ${String(value)} »).`,
      `par exemple « fw mail:logs --limit 50 » ; sans --limit : les ${DEFAULT_LIMIT} dernières lignes.`,
    );
  }
  return limit;
}

interface LogRow {
  id: number | string;
  created_at: unknown;
  sent_at: unknown;
  next_attempt_at: unknown;
  status: string;
  attempts: number | string;
  message_type: string;
  to_email: string;
  subject: string;
  transport: string;
  error_message: string | null;
  related_entity: string | null;
  related_id: string | null;
}

/** A date column as `YYYY-MM-DD HH:MM:SS` (UTC), whichever way the driver returns it. */
function when(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString().slice(0, 19).replace('T', ' ');
  return String(value).slice(0, 19);
}

/** One value on one line (a subject or an error never breaks the listing). */
function flat(value: string): string {
  return value.replace(/[\r\n\t]+/g, ' ');
}

export async function run({ options }: CommandInput): Promise<number> {
  const limit = parseLimit(options.limit);
  const root = projectRoot();
  const { databaseFileMissing, readDbSettings, openHandle, usingHandle } = await import('../../db/connection.js');
  const { tableExists } = await import('../../db/schema.js');
  const { describeTarget } = await import('../../auth/database.js');
  const settings = readDbSettings(root);
  const advice = 'lancez « fw mail:init » puis « fw db:apply ».';
  if (databaseFileMissing(settings)) throw new CliError(`table mail_log absente : la base ${describeTarget(settings)} n'existe pas encore.`, advice);
  const rows = await usingHandle(openHandle(settings, 'app', { poolSize: 1 }), async (db) => {
    if (!(await tableExists(db, 'mail_log'))) throw new CliError(`table mail_log absente de la base (${describeTarget(settings)}).`, advice);
    return db.fetchAll<LogRow>(
      'SELECT id, created_at, sent_at, next_attempt_at, status, attempts, message_type, to_email, subject, transport, error_message, related_entity, related_id ' +
        `FROM mail_log ORDER BY id DESC LIMIT ${limit}`,
    );
  });
  if (rows.length === 0) {
    process.stdout.write(`mail_log est vide (${describeTarget(settings)}) : aucun message enregistré.\n`);
    return 0;
  }
  const out = [`mail_log (${describeTarget(settings)}) : ${rows.length} dernière(s) ligne(s), la plus récente en premier ; dates en UTC.`];
  const idWidth = Math.max(...rows.map((row) => String(row.id).length));
  for (const row of rows) {
    const related = row.related_entity ? ` [${row.related_entity} ${row.related_id ?? ''}]`.replace(/ \]$/, ']') : '';
    out.push(
      `  n° ${String(row.id).padStart(idWidth)}  ${when(row.created_at)}  ${row.status.padEnd(7)}  ${Number(row.attempts)} essai(s)  ${flat(row.message_type)}  → ${flat(row.to_email)}  « ${flat(row.subject)} »  (${row.transport})${related}`,
    );
    if (row.sent_at) out.push(`        envoyé le ${when(row.sent_at)}`);
    if (row.error_message) out.push(`        erreur : ${flat(row.error_message)}`);
    if (row.status === 'queued' && row.next_attempt_at && Number(row.attempts) > 0)
      out.push(`        nouvel essai prévu le ${when(row.next_attempt_at)} (essai n° ${Number(row.attempts) + 1})`);
  }
  process.stdout.write(`${out.join('\n')}\n`);
  return 0;
}
