/**
 * fw-mvc/mail against a real SMTP server (smtp-server on 127.0.0.1): the message received exactly over STARTTLS
 * with AUTH and over implicit TLS, a wrong password, STARTTLS required but not offered, a refused connection, a
 * server that never answers, a 4xx then a success on retry, a 5xx without retry. The outbox runs on SQLite here
 * (test/mail-outbox.test.ts runs it on both dialects).
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { configure, resetConfig, setLogSink, type LogRecord } from '../runtime/index.js';
import { MailSendError, MailSender, sendMail, sendMailNow, smtpTransport, startMailSender, type MailSenderOptions } from '../runtime/mail/index.js';
import { manualClockMs } from './helpers/clock.js';
import { mailDb, mailJobOf, mailRow, waitForStatus, type MailDb } from './helpers/mail-db.js';
import { closedPort, startSilentServer, startSmtp, testCertificate, type SmtpHandle } from './helpers/smtp.js';

const test = suite('mail: SMTP');
const logs: LogRecord[] = [];
let db: MailDb;
const toClose: Array<{ close(): Promise<void> } | MailSender> = [];

test.before.each(async () => {
  resetConfig();
  configure({ mail_from: 'Mon Appli <app@example.test>', mail_timeout: 2 });
  logs.length = 0;
  setLogSink((record) => logs.push(record));
  db = await mailDb('sqlite');
});

test.after.each(async () => {
  for (const item of toClose.splice(0).reverse()) await ('stop' in item ? item.stop() : item.close());
  await db.close();
  setLogSink(null);
  resetConfig();
});

const ca = () => testCertificate().cert;

async function smtp(options: Parameters<typeof startSmtp>[0]): Promise<SmtpHandle> {
  const handle = await startSmtp(options);
  toClose.push(handle);
  return handle;
}

function sender(options: MailSenderOptions): MailSender {
  const started = startMailSender({ database: db.database, intervalMs: 100, ...options });
  toClose.push(started);
  return started;
}

const SUBJECT = 'Bienvenue, Zoé — « ünïcode » ✓ 日本';

test('STARTTLS and AUTH: the message arrives exactly (headers, text, HTML, UTF-8 subject), the password nowhere in the log', async () => {
  const server = await smtp({ tls: 'starttls', auth: { user: 'alice', pass: 's3cret-pw' } });
  const transport = smtpTransport({ host: '127.0.0.1', port: server.port, username: 'alice', password: 's3cret-pw', requireTls: true, tls: { ca: ca() } });
  const result = await sendMailNow(
    {
      to: { name: 'Zoé Dupré', address: 'zoe@example.test' },
      replyTo: 'support@example.test',
      subject: SUBJECT,
      text: 'Bonjour Zoé,\nà bientôt & merci.\n',
      html: '<p>Bonjour <b>Zoé</b></p>',
    },
    { transport, database: db.database },
  );
  await transport.close();
  assert.match(result.response, /^250/);
  assert.equal(result.accepted, ['zoe@example.test']);
  const [message] = await server.waitFor(1);
  assert.ok(message!.secure, 'the session was upgraded with STARTTLS');
  assert.is(message!.user, 'alice');
  assert.is(message!.from, 'app@example.test');
  assert.equal(message!.to, ['zoe@example.test']);
  const parsed = message!.parsed;
  assert.is(parsed.subject, SUBJECT);
  assert.equal(parsed.from?.value, [{ address: 'app@example.test', name: 'Mon Appli' }]);
  const to = Array.isArray(parsed.to) ? parsed.to[0] : parsed.to;
  assert.equal(to?.value, [{ address: 'zoe@example.test', name: 'Zoé Dupré' }]);
  assert.equal(parsed.replyTo?.value, [{ address: 'support@example.test', name: '' }]);
  assert.is(parsed.text, 'Bonjour Zoé,\nà bientôt & merci.\n');
  assert.is(parsed.html, '<p>Bonjour <b>Zoé</b></p>');
  assert.is(parsed.messageId, result.messageId);
  assert.match(result.messageId, /^<[0-9a-f-]{36}@example\.test>$/);
  assert.match(message!.raw, /^Subject: =\?UTF-8\?/m);
  const rows = await db.database.fetchAll<{ status: string; attempts: number; message: string | null }>('SELECT status, attempts, message FROM mail_log');
  assert.equal(
    rows.map((row) => [row.status, Number(row.attempts), row.message]),
    [['sent', 1, null]],
  );
  const logged = JSON.stringify(logs);
  assert.not.ok(logged.includes('s3cret-pw'));
  assert.not.ok(logged.includes('Bonjour'));
});

test('implicit TLS (mail_use_ssl) delivers through the outbox', async () => {
  const server = await smtp({ tls: 'implicit' });
  sender({ transport: smtpTransport({ host: '127.0.0.1', port: server.port, implicitTls: true, tls: { ca: ca() } }) });
  const queued = await sendMail({ to: 'bob@example.test', subject: 'TLS', text: 'chiffré' }, { database: db.database });
  assert.is(queued.status, 'queued');
  const row = await waitForStatus(db.database, queued.id, 'sent');
  const [message] = await server.waitFor(1);
  assert.ok(message!.secure);
  // SMTP ends the data with CRLF: a text without a final line break arrives with one.
  assert.is(message!.parsed.text, 'chiffré\n');
  assert.is(row.attempts, 1);
  assert.is(row.transport, 'smtp');
  assert.ok(row.sent_at);
  assert.is(row.message, null);
  // The claim is the job's: released once the message is sent.
  assert.is((await mailJobOf(db.database, queued.id)).locked_by, null);
});

test('a wrong password: failed at once (535), no retry, nothing received', async () => {
  const server = await smtp({ tls: 'starttls', auth: { user: 'alice', pass: 'right' } });
  const options = { host: '127.0.0.1', port: server.port, username: 'alice', password: 'wrong-pw', tls: { ca: ca() } };
  const error = await sendMailNow({ to: 'x@example.test', subject: 's', text: 't' }, { transport: smtpTransport(options) }).catch((e: unknown) => e);
  assert.instance(error, MailSendError);
  assert.is((error as MailSendError).responseCode, 535);
  assert.is((error as MailSendError).temporary, false);
  sender({ transport: smtpTransport(options), retryDelaysSeconds: [0] });
  const queued = await sendMail({ to: 'x@example.test', subject: 's', text: 't' }, { database: db.database });
  const row = await waitForStatus(db.database, queued.id, 'failed');
  assert.is(row.attempts, 1);
  assert.match(row.error_message ?? '', /535/);
  assert.not.ok(JSON.stringify(logs).includes('wrong-pw'));
  assert.not.ok((row.error_message ?? '').includes('wrong-pw'));
  assert.is(server.received.length, 0);
});

test('STARTTLS required (mail_use_tls) but not offered: refused, nothing sent in clear', async () => {
  const server = await smtp({ tls: 'plain' });
  const error = await sendMailNow(
    { to: 'x@example.test', subject: 's', text: 't' },
    { transport: smtpTransport({ host: '127.0.0.1', port: server.port, requireTls: true }) },
  ).catch((e: unknown) => e);
  assert.instance(error, MailSendError);
  assert.is((error as MailSendError).temporary, false);
  assert.is((error as MailSendError).code, 'ETLS');
  assert.is(server.dataCount(), 0);
  assert.is(server.received.length, 0);
});

test('a refused connection is temporary: the row is queued again later, with its error', async () => {
  const port = await closedPort();
  const error = await sendMailNow({ to: 'x@example.test', subject: 's', text: 't' }, { transport: smtpTransport({ host: '127.0.0.1', port }) }).catch(
    (e: unknown) => e,
  );
  assert.instance(error, MailSendError);
  assert.ok((error as MailSendError).temporary, (error as Error).message);
  const s = sender({ transport: smtpTransport({ host: '127.0.0.1', port }), retryDelaysSeconds: [600] });
  const queued = await sendMail({ to: 'x@example.test', subject: 's', text: 't' }, { database: db.database });
  const deadline = Date.now() + 5000;
  let row = await mailRow(db.database, queued.id);
  // The claim is the job's: the attempt is over once its job is queued again.
  while (row.attempts < 1 || (await mailJobOf(db.database, queued.id)).status !== 'queued') {
    assert.ok(Date.now() < deadline, JSON.stringify(row));
    await new Promise((resolve) => setTimeout(resolve, 50));
    row = await mailRow(db.database, queued.id);
  }
  assert.is(row.status, 'queued');
  assert.is(row.attempts, 1);
  assert.ok(row.error_message);
  assert.ok(row.next_attempt_at! > row.created_at, 'the next attempt is later');
  assert.ok(row.message, 'the message is kept for the retry');
  await s.runOnce();
  assert.is((await mailRow(db.database, queued.id)).attempts, 1, 'not due yet: not attempted again');
});

test('a server that never answers: the caller returns at once, the row is failed after mail_timeout and the last attempt', async () => {
  const silent = await startSilentServer();
  toClose.push(silent);
  configure({ mail_timeout: 1 });
  sender({ transport: smtpTransport({ host: '127.0.0.1', port: silent.port }), maxAttempts: 2, retryDelaysSeconds: [1] });
  const started = performance.now();
  const queued = await sendMail({ to: 'x@example.test', subject: 's', text: 't' }, { database: db.database });
  const elapsed = performance.now() - started;
  assert.ok(elapsed < 200, `sendMail took ${elapsed} ms`);
  assert.is((await mailRow(db.database, queued.id)).status, 'queued');
  const row = await waitForStatus(db.database, queued.id, 'failed', 15_000);
  assert.is(row.attempts, 2);
  assert.match(row.error_message ?? '', /ETIMEDOUT|timeout|Greeting/i);
  assert.ok(silent.connections() >= 2);
});

test('a 4xx then success: sent on the second attempt, received once', async () => {
  const server = await smtp({ tls: 'plain', dataReplies: [451] });
  sender({ transport: smtpTransport({ host: '127.0.0.1', port: server.port }), retryDelaysSeconds: [1] });
  const queued = await sendMail({ to: 'x@example.test', subject: 'retry', text: 't', type: 'retry_test' }, { database: db.database });
  const row = await waitForStatus(db.database, queued.id, 'sent', 10_000);
  assert.is(row.attempts, 2);
  assert.is(row.error_message, null);
  assert.is(server.dataCount(), 2);
  assert.is(server.received.length, 1);
  assert.is(server.received[0]!.parsed.subject, 'retry');
});

test('a 5xx: failed without retry, even once every retry delay has passed', async () => {
  const server = await smtp({ tls: 'plain', dataReplies: [550] });
  // No loop: the test drives the sender pass by pass, on a clock of its own.
  const clock = manualClockMs(Date.now());
  const transport = smtpTransport({ host: '127.0.0.1', port: server.port });
  toClose.push({ close: async () => transport.close() });
  const s = new MailSender({ database: db.database, transport, retryDelaysSeconds: [0], now: clock.now });
  const queued = await sendMail({ to: 'x@example.test', subject: 'no', text: 't' }, { database: db.database });
  assert.is(await s.runOnce(), 1, 'one attempt in the first pass (a retry due at once would be made in it too)');
  const row = await mailRow(db.database, queued.id);
  assert.is(row.status, 'failed');
  assert.is(row.attempts, 1);
  assert.match(row.error_message ?? '', /550/);
  assert.is(row.message, null);
  assert.is(row.next_attempt_at, null);
  clock.advance(24 * 3600 * 1000);
  assert.is(await s.runOnce(), 0, 'a day later, nothing is due');
  assert.is((await mailRow(db.database, queued.id)).attempts, 1);
  assert.is(server.dataCount(), 1);
});

test.run();
