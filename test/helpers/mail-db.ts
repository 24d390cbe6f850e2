/**
 * A `mail_log` on a fresh database for the mail tests: a SQLite file in a temporary folder, or a MariaDB database
 * with a random name (dropped by `close()`). `waitForStatus` polls a row until it reaches a status.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type Database } from '../../runtime/index.js';
import { mailLogTableStatements } from '../../runtime/mail/index.js';
import { MARIADB_ADMIN } from './cli.js';
import { dropMariaDb } from './session-backends.js';

export interface MailDb {
  readonly name: 'sqlite' | 'mariadb';
  readonly database: Database;
  /** What another process passes to `openDatabase` / `configure` to reach the same database. */
  readonly config: Record<string, unknown>;
  close(): Promise<void>;
}

export async function sqliteMailDb(): Promise<MailDb> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-mail-db-'));
  const file = path.join(dir, 'mail.sqlite');
  const database = openDatabase({ driver: 'sqlite', file });
  for (const statement of mailLogTableStatements('sqlite')) await database.execute(statement);
  return {
    name: 'sqlite',
    database,
    config: { db_driver: 'sqlite', db_file: file },
    async close() {
      await database.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function mariadbMailDb(prefix = 'fw_test_mail'): Promise<MailDb> {
  const databaseName = `${prefix}_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = openDatabase({ driver: 'mariadb', ...MARIADB_ADMIN, poolSize: 1 });
  try {
    await admin.execute(`CREATE DATABASE \`${databaseName}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  } finally {
    await admin.close();
  }
  const database = openDatabase({ driver: 'mariadb', ...MARIADB_ADMIN, database: databaseName, poolSize: 5 });
  for (const statement of mailLogTableStatements('mariadb')) await database.execute(statement);
  return {
    name: 'mariadb',
    database,
    config: {
      db_driver: 'mariadb',
      db_host: MARIADB_ADMIN.host,
      db_port: MARIADB_ADMIN.port,
      db_user: MARIADB_ADMIN.user,
      db_password: MARIADB_ADMIN.password,
      db_name: databaseName,
    },
    async close() {
      await database.close();
      await dropMariaDb(databaseName);
    },
  };
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
  claimed_by: string | null;
  claimed_until: string | null;
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
