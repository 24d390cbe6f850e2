/**
 * The outbox of fw-mvc/mail across processes, on SQLite and MariaDB: a process that queues a message and is
 * killed before sending it (the message is sent by the next process, once), and two processes delivering one
 * outbox at once (each message received exactly once by the SMTP server). Each child imports the built runtime and
 * configures the database as an application would.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { sendMail } from '../runtime/mail/index.js';
import { configure, resetConfig } from '../runtime/index.js';
import { mailDb, type MailDb } from './helpers/mail-db.js';
import { DIALECTS, productOf } from './helpers/dialects.js';
import { startSmtp, type SmtpHandle } from './helpers/smtp.js';

const DIST = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..', 'runtime');
const RUNTIME = pathToFileURL(path.join(DIST, 'index.js')).href;
const MAIL = pathToFileURL(path.join(DIST, 'mail', 'index.js')).href;

/** `queue`: queues one message in a transaction, prints its id, then waits to be killed. `send`: delivers until the outbox is empty, prints how many it attempted. */
const SCRIPT = `
const runtime = await import(${JSON.stringify(RUNTIME)});
const mail = await import(${JSON.stringify(MAIL)});
const { config, op, port, subject } = JSON.parse(process.env.FW_TEST_MAIL);
runtime.configure(config);
if (op === 'queue') {
  const queued = await runtime.transaction((tx) => mail.sendMail({ to: 'crash@example.test', subject, text: 'après la panne' }, { tx }));
  process.stdout.write(JSON.stringify({ id: queued.id }) + '\\n');
  setInterval(() => {}, 1000);
} else {
  const sender = new mail.MailSender({ transport: mail.smtpTransport({ host: '127.0.0.1', port }) });
  let attempted = 0;
  for (;;) {
    attempted += await sender.runOnce();
    const left = await runtime.fetchOne("SELECT COUNT(*) AS n FROM mail_log WHERE status = 'queued'");
    if (Number(left.n) === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await sender.stop();
  await runtime.closeDatabase();
  process.stdout.write(JSON.stringify({ attempted }) + '\\n');
}
`;

function child(payload: Record<string, unknown>): { process: ChildProcess; firstLine: Promise<Record<string, unknown>>; exit: Promise<number | null> } {
  const env: NodeJS.ProcessEnv = { ...process.env, FW_TEST_MAIL: JSON.stringify(payload) };
  const proc = spawn(process.execPath, ['--input-type=module', '-e', SCRIPT], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  proc.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const firstLine = new Promise<Record<string, unknown>>((resolve, reject) => {
    proc.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n') && line) resolve(JSON.parse(line) as Record<string, unknown>);
    });
    proc.on('exit', (code) => {
      if (!out.includes('\n')) reject(new Error(`child exited ${code} without output: ${err}`));
    });
  });
  const exit = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  return { process: proc, firstLine, exit };
}

for (const dialect of DIALECTS) {
  const test = suite(`mail: outbox across processes (${productOf(dialect)})`);
  let db: MailDb;
  let smtp: SmtpHandle;

  test.before.each(async () => {
    db = await mailDb(dialect);
    smtp = await startSmtp({ tls: 'plain' });
  });
  test.after.each(async () => {
    await smtp.close();
    await db.close();
    resetConfig();
  });

  const config = () => ({ ...db.config, mail_from: 'App <app@example.test>' });

  test('a process killed between queue and send: the next process sends the message, once', async () => {
    const queuing = child({ op: 'queue', config: config(), subject: 'survit à la panne' });
    const { id } = (await queuing.firstLine) as { id: number };
    queuing.process.kill('SIGKILL');
    await queuing.exit;
    const row = await db.database.fetchOne<{ status: string }>('SELECT status FROM mail_log WHERE id = ?', [id]);
    assert.is(row?.status, 'queued');
    assert.is(smtp.received.length, 0);
    const first = child({ op: 'send', config: config(), port: smtp.port });
    assert.equal(await first.firstLine, { attempted: 1 });
    assert.is(await first.exit, 0);
    const again = child({ op: 'send', config: config(), port: smtp.port });
    assert.equal(await again.firstLine, { attempted: 0 });
    await again.exit;
    assert.is(smtp.received.length, 1);
    assert.is(smtp.received[0]!.parsed.subject, 'survit à la panne');
    const sent = await db.database.fetchOne<{ status: string; attempts: number }>('SELECT status, attempts FROM mail_log WHERE id = ?', [id]);
    assert.equal({ ...sent, attempts: Number(sent?.attempts) }, { status: 'sent', attempts: 1 });
  });

  test('two processes on one outbox: every message received exactly once', async () => {
    const count = 40;
    resetConfig();
    configure({ mail_from: 'App <app@example.test>' });
    for (let i = 0; i < count; i++) await sendMail({ to: `user${i}@example.test`, subject: `message ${i}`, text: `n° ${i}` }, { database: db.database });
    const senders = [child({ op: 'send', config: config(), port: smtp.port }), child({ op: 'send', config: config(), port: smtp.port })];
    const results = (await Promise.all(senders.map((s) => s.firstLine))) as Array<{ attempted: number }>;
    assert.equal(await Promise.all(senders.map((s) => s.exit)), [0, 0]);
    assert.is(results[0]!.attempted + results[1]!.attempted, count, JSON.stringify(results));
    const subjects = smtp.received.map((message) => message.parsed.subject).sort();
    assert.is(subjects.length, count);
    assert.is(new Set(subjects).size, count);
    const rows = await db.database.fetchAll<{ status: string; attempts: number }>('SELECT status, attempts FROM mail_log');
    assert.ok(
      rows.every((row) => row.status === 'sent' && Number(row.attempts) === 1),
      JSON.stringify(rows.slice(0, 3)),
    );
  });

  test.run();
}
