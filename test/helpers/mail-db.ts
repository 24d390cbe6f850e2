/**
 * A `mail_log` (and the jobs tables) on a fresh database for the mail tests, of any dialect (a SQLite file in a temporary folder, a MariaDB
 * database with a random name), removed by `close()`. `waitForStatus` polls a row until it reaches a status.
 */
import type { Database } from '../../runtime/index.js';
import { jobsTablesStatements } from '../../runtime/jobs/index.js';
import { mailLogTableStatements } from '../../runtime/mail/index.js';
import { freshDatabase, type DialectName } from './dialects.js';

export interface MailDb {
  readonly name: DialectName;
  readonly database: Database;
  /** What another process passes to `openDatabase` / `configure` to reach the same database. */
  readonly config: Record<string, unknown>;
  close(): Promise<void>;
}

/** `mail_log` and the jobs tables its messages go through, on a fresh database of `dialect` (helpers/dialects.ts), removed by `close()`. */
export async function mailDb(dialect: DialectName, prefix = 'fw_test_mail'): Promise<MailDb> {
  const fresh = await freshDatabase(dialect, { prefix });
  for (const statement of [...mailLogTableStatements(dialect), ...jobsTablesStatements(dialect)]) await fresh.database.execute(statement);
  return { name: dialect, database: fresh.database, config: fresh.config, close: () => fresh.close() };
}

export interface MailRow {
  id: number;
  message_type: string;
  to_email: string;
  subject: string;
  transport: string;
  status: string;
  error_message: string | null;
  related_entity: string | null;
  related_id: string | null;
  created_at: string;
  sent_at: string | null;
  attempts: number;
  next_attempt_at: string | null;
  message: string | null;
}

export async function mailRow(database: Database, id: number): Promise<MailRow> {
  const row = await database.fetchOne<MailRow>('SELECT * FROM mail_log WHERE id = ?', [id]);
  if (!row) throw new Error(`mail_log n° ${id} absent`);
  return { ...row, id: Number(row.id), attempts: Number(row.attempts) };
}

/** Polls the row until its status is `status`; throws after `timeoutMs` with the row as it is. */
export async function waitForStatus(database: Database, id: number, status: string, timeoutMs = 10_000): Promise<MailRow> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await mailRow(database, id);
    if (row.status === status) return row;
    if (Date.now() > deadline) throw new Error(`mail_log n° ${id} : ${row.status} au lieu de ${status} (${JSON.stringify(row)})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface MailJobRow {
  id: number;
  status: string;
  attempts: number;
  locked_by: string | null;
  locked_until: string | null;
  last_error: string | null;
  run_at: string;
}

/** The job (`fw_jobs`, `fw_mail_send`) of the row `id`: its claim, its lease and its state. */
export async function mailJobOf(database: Database, id: number): Promise<MailJobRow> {
  const row = await database.fetchOne<MailJobRow>(
    "SELECT id, status, attempts, locked_by, locked_until, last_error, run_at FROM fw_jobs WHERE name = 'fw_mail_send' AND payload = ?",
    [JSON.stringify({ mailLogId: id })],
  );
  if (!row) throw new Error(`tâche de mail_log n° ${id} absente`);
  return { ...row, id: Number(row.id), attempts: Number(row.attempts) };
}
