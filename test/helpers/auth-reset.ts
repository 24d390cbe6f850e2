/**
 * What the password-reset tests share: a database holding the auth tables and `mail_log`, a real SMTP server on
 * 127.0.0.1 that receives the messages (parsed by mailparser), a server with the login, reset and MFA routes, and
 * the mail sender of the test process delivering the outbox to that SMTP server.
 */
import * as assert from 'uvu/assert';
import { registerAuthRoutes, registerPasswordResetRoutes, settlePasswordResetRequests } from '../../runtime/auth/index.js';
import type { Database, DialectName } from '../../runtime/db/index.js';
import { getUser, Response, type Request, type Router } from '../../runtime/index.js';
import { jobsTablesStatements } from '../../runtime/jobs/index.js';
import { mailLogTableStatements, startMailSender, type MailSender } from '../../runtime/mail/index.js';
import { registerMfaRoutes } from '../../runtime/mfa/index.js';
import { openAuthDatabase, type SessionClient, type AuthDatabase, type Page } from './auth-client.js';
import { startApp, type TestApp } from './server.js';
import { startSmtp, type Received, type SmtpHandle } from './smtp.js';

export const PASSWORD = 'correct horse battery';
export const NEW_PASSWORD = 'nouveau mot de passe 42';
export const EMAIL = 'alice@example.test';
export const MAIL_FROM = 'app@example.test';

/**
 * Creates `mail_log` and the jobs tables its messages go through from the runtime's own descriptions
 * (runtime/mail/schema.ts, runtime/jobs/schema.ts). The one place to change once `fw mail:init` writes the tables'
 * SQL files and `fw db:apply` applies them.
 */
export async function createMailLog(db: Database, dialect: DialectName): Promise<void> {
  for (const statement of [...mailLogTableStatements(dialect), ...jobsTablesStatements(dialect)]) await db.execute(statement);
}

/** The auth tables and `mail_log`; `reset()` empties both. */
export async function openResetDatabase(dialect: DialectName, prefix?: string): Promise<AuthDatabase> {
  const data = await openAuthDatabase(dialect, prefix);
  await createMailLog(data.db, dialect);
  return {
    ...data,
    async reset() {
      // A message the sender has claimed is sent even when its row is deleted: wait until none is left queued (at
      // most 10 s), so that no message of one test reaches the SMTP server during the next one.
      await queuedLeft(data.db, 10_000);
      await data.db.execute('DELETE FROM mail_log');
      await data.db.execute('DELETE FROM fw_jobs');
      await data.reset();
    },
  };
}

/**
 * Polls `mail_log` until no row is `queued` and no message's job is still `running` (its end is written just after
 * the row's), or `timeoutMs` passed; returns how many are still queued or running.
 */
async function queuedLeft(db: Database, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await db.fetchOne<{ n: unknown; running: unknown }>(
      "SELECT (SELECT COUNT(*) FROM mail_log WHERE status = 'queued') AS n, (SELECT COUNT(*) FROM fw_jobs WHERE status = 'running') AS running",
    );
    const left = Number(row?.n ?? 0) + Number(row?.running ?? 0);
    if (left === 0 || Date.now() > deadline) return left;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Waits until the outbox is drained: no row of `mail_log` left `queued` (fails after `timeoutMs`), and returns the
 * rows' statuses in order. After `askReset` (which waits for the request's work), every message the requests made
 * so far will ever queue is in `mail_log`; once none is queued, the sender has finished with all of them, and the
 * SMTP server holds every message it will ever receive from them (it stores one before its 250 reply, which the
 * sender awaits before writing `sent`). So "no other message" is asserted on a finished state, not after a pause.
 */
export async function outboxDrained(db: Database, timeoutMs = 10_000): Promise<string[]> {
  const left = await queuedLeft(db, timeoutMs);
  assert.is(left, 0, `${left} message(s) still queued after ${timeoutMs} ms`);
  const rows = await db.fetchAll<{ status: string }>('SELECT status FROM mail_log ORDER BY id');
  return rows.map((row) => row.status);
}

function routes(router: Router): void {
  registerAuthRoutes(router);
  registerPasswordResetRoutes(router);
  registerMfaRoutes(router);
  router.add('GET', '/private', (request: Request) => new Response(200, JSON.stringify(getUser(request) ?? null), 'application/json'), { name: 'private' });
}

export interface ResetWorld {
  readonly app: TestApp;
  readonly smtp: SmtpHandle;
  readonly sender: MailSender;
  close(): Promise<void>;
}

/** The SMTP server, the app (links from its own address: `app_env` dev, no `app_url`) and a sender polling every 50 ms. */
export async function startResetWorld(data: AuthDatabase, files?: Record<string, string | Buffer>, moreRoutes?: (router: Router) => void): Promise<ResetWorld> {
  const smtp = await startSmtp({ tls: 'plain' });
  const app = await startApp({
    files,
    routes: (router) => {
      routes(router);
      moreRoutes?.(router);
    },
    config: {
      ...data.config,
      app_name: 'Démo',
      rate_limit_store: 'database',
      session_store: 'memory',
      mail_transport: 'smtp',
      mail_host: '127.0.0.1',
      mail_port: smtp.port,
      mail_from: MAIL_FROM,
      mail_timeout: 5,
    },
  });
  const sender = startMailSender({ intervalMs: 50 });
  return {
    app,
    smtp,
    sender,
    async close() {
      await settlePasswordResetRequests();
      await sender.stop();
      await app.close();
      await smtp.close();
    },
  };
}

/** Posts the "forgotten password" form with a fresh CSRF token, then waits until its work is done. */
export async function askReset(client: SessionClient, email: string): Promise<Page> {
  const page = await client.post('/password/forgot', [['email', email]], '/password/forgot');
  await settlePasswordResetRequests();
  return page;
}

/** The reset link of a received message: in the text part, and the same in the HTML part. */
export function linkOf(message: Received): string {
  const text = message.parsed.text ?? '';
  const link = /https?:\/\/\S+\/password\/reset\/[A-Za-z0-9_-]{43}/.exec(text)?.[0];
  assert.ok(link, `no link in:\n${text}`);
  assert.match(String(message.parsed.html ?? ''), `href="${link}"`);
  return link!;
}

/** The path of a link (`/password/reset/<token>`). */
export function pathOf(link: string): string {
  return new URL(link).pathname;
}

/** Posts a new password on a reset page, with a fresh token of that page. */
export function postNewPassword(client: SessionClient, path: string, password: string, confirm = password): Promise<Page> {
  return client.post(
    path,
    [
      ['password', password],
      ['password_confirm', confirm],
    ],
    path,
  );
}

/** The events written on fw.auth.audit, in order. */
export function auditEvents(app: TestApp): string[] {
  return app.logs.records.filter((record) => record.logger === 'fw.auth.audit').map((record) => record.message);
}

/** The audit records of one event. */
export function auditRecords(app: TestApp, event: string): Array<Record<string, unknown>> {
  return app.logs.records.filter((record) => record.logger === 'fw.auth.audit' && record.message === event).map((record) => record.fields ?? {});
}
