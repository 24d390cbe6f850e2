/**
 * The reset message in the outbox, on SQLite and on MariaDB, over a real server and real SMTP servers, the sender
 * run by the test with its clock injected (no sleep): while the message waits, its `mail_log` row holds no usable
 * link (the body is sealed with a key of APP_SECRET; the token appears nowhere in the row, and another secret cannot
 * open it); a message whose link expired is never sent (`expired`); retries that would reach the server after the
 * link died end the row `expired` rather than mail a dead link; the audit says `queued`, not `sent`. And a request
 * while the database is down answers the 503 with Retry-After of every page, not a confirmation.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { hashResetToken, registerAuthRoutes, registerPasswordResetRoutes, settlePasswordResetRequests } from '../runtime/auth/index.js';
import { hashPassword } from '../runtime/auth/passwords.js';
import { createUser } from '../runtime/auth/users.js';
import { configure } from '../runtime/config.js';
import { closeDatabase, getDatabase } from '../runtime/db/index.js';
import { Response, type Router } from '../runtime/index.js';
import { MailSender, openPayload, SealedMessageError, smtpTransport } from '../runtime/mail/index.js';
import { setRateLimitStore } from '../runtime/rate-limit/index.js';
import { SessionClient, type AuthDatabase } from './helpers/auth-client.js';
import { askReset, auditRecords, EMAIL, linkOf, MAIL_FROM, openResetDatabase, PASSWORD, pathOf } from './helpers/auth-reset.js';
import { manualClock } from './helpers/clock.js';
import { startApp, type TestApp } from './helpers/server.js';
import { startSmtp, type SmtpHandle } from './helpers/smtp.js';
import { DIALECTS } from './helpers/dialects.js';

const SECRET = 'h2-outbox-secret-0123456789abcdef-0123456789';
const LINK = /\/password\/reset\/[A-Za-z0-9_-]{43}/;
const TTL_MS = 30 * 60_000;

function routes(router: Router): void {
  registerAuthRoutes(router);
  registerPasswordResetRoutes(router);
  router.add('GET', '/count', async () => new Response(200, JSON.stringify(await getDatabase().fetchOne('SELECT 1 AS one')), 'application/json'), {
    name: 'count',
    public: true,
  });
}

interface Row {
  id: number;
  status: string;
  attempts: number;
  message: string | null;
  error_message: string | null;
}

for (const dialect of DIALECTS) {
  const test = suite<{ data: AuthDatabase; app: TestApp; smtp: SmtpHandle }>(`password reset: the message in the outbox (${dialect})`);

  test.before(async (context) => {
    context.data = await openResetDatabase(dialect, 'fw_h2_outbox');
    context.smtp = await startSmtp({ tls: 'plain' });
    // No serve(): no sender runs but the ones each test drives.
    context.app = await startApp({
      routes,
      config: { ...context.data.config, app_name: 'Démo', app_secret: SECRET, rate_limit_store: 'database', mail_transport: 'smtp', mail_from: MAIL_FROM },
    });
  });

  test.before.each(async ({ data, app, smtp }) => {
    await settlePasswordResetRequests();
    await data.reset();
    setRateLimitStore(null);
    configure({ app_url: null, app_env: 'dev' });
    await createUser({ email: EMAIL, passwordHash: await hashPassword(PASSWORD) }, data.db);
    smtp.received.splice(0);
    app.logs.clear();
  });

  test.after(async ({ data, app, smtp }) => {
    await settlePasswordResetRequests();
    await app.close();
    await smtp.close();
    await closeDatabase();
    await data.close();
  });

  async function queuedRow(data: AuthDatabase): Promise<Row> {
    const rows = await data.db.fetchAll<Row>('SELECT id, status, attempts, message, error_message FROM mail_log');
    assert.is(rows.length, 1);
    return { ...rows[0]!, id: Number(rows[0]!.id), attempts: Number(rows[0]!.attempts) };
  }

  const sender = (smtp: SmtpHandle, data: AuthDatabase, now?: () => number) =>
    new MailSender({ database: data.db, transport: smtpTransport({ host: '127.0.0.1', port: smtp.port, timeoutSeconds: 5 }), now });

  test('while queued, the row holds no usable link: sealed under APP_SECRET, opened only at send time', async ({ data, app, smtp }) => {
    assert.is((await askReset(new SessionClient(app.base), EMAIL)).status, 200);
    const waiting = await queuedRow(data);
    assert.is(waiting.status, 'queued');
    const stored = JSON.stringify(await data.db.fetchAll('SELECT * FROM mail_log'));
    assert.not.match(stored, LINK, 'no link in the row');
    assert.not.match(stored, 'password/reset');
    assert.ok(waiting.message!.startsWith('fwmail1:'), waiting.message!.slice(0, 40));

    // Another secret (a copy of the database elsewhere) cannot open it.
    configure({ app_secret: 'another-secret-0123456789abcdef-0123456789' });
    assert.throws(
      () => openPayload(waiting.message),
      (error: unknown) => error instanceof SealedMessageError,
    );
    configure({ app_secret: SECRET });
    assert.match(openPayload(waiting.message).message.text, LINK);

    assert.is(await sender(smtp, data).runOnce(), 1);
    const [message] = await smtp.waitFor(1);
    const token = pathOf(linkOf(message!)).split('/').pop()!;
    assert.not.ok(stored.includes(token), 'the token was nowhere in the row while it waited');
    const hashes = await data.db.fetchAll<{ token_hash: string }>('SELECT token_hash FROM auth_tokens');
    assert.equal(
      hashes.map((row) => row.token_hash),
      [hashResetToken(token)],
    );
    const sent = await queuedRow(data);
    assert.is(sent.status, 'sent');
    assert.is(sent.message, null);
    const [requested] = auditRecords(app, 'password_reset.requested');
    const metadata = requested!.metadata as Record<string, unknown>;
    assert.equal([metadata.queued, metadata.status, metadata.mail_id], [true, 'queued', sent.id]);
    assert.not.ok('sent' in metadata, 'the audit does not say sent for a queued message');
  });

  test('a reset message still waiting when its link expires is never sent: expired, the body emptied', async ({ data, app, smtp }) => {
    assert.is((await askReset(new SessionClient(app.base), EMAIL)).status, 200);
    const later = Date.now() + TTL_MS + 1000;
    assert.is(await sender(smtp, data, () => later).runOnce(), 1);
    const row = await queuedRow(data);
    assert.is(row.status, 'expired');
    assert.is(row.message, null);
    assert.match(row.error_message ?? '', /^contenu expiré le /);
    assert.is(smtp.received.length, 0, 'nothing reached the SMTP server');
    assert.is(await sender(smtp, data, () => later + 3_600_000).runOnce(), 0, 'and it is never tried again');
  });

  test('retries that would arrive after the link died: expired after the 3rd temporary failure, no dead link mailed', async ({ data, app }) => {
    const busy = await startSmtp({ tls: 'plain', dataReplies: [451, 451, 451, 451, 451] });
    try {
      assert.is((await askReset(new SessionClient(app.base), EMAIL)).status, 200);
      const clock = manualClock(Date.now());
      const delivery = sender(busy, data, clock.now);
      const states: Array<[string, number]> = [];
      for (const wait of [0, 60, 300]) {
        clock.advance(wait);
        assert.is(await delivery.runOnce(), 1, `attempt after ${wait} s`);
        const row = await queuedRow(data);
        states.push([row.status, row.attempts]);
      }
      assert.equal(states, [
        ['queued', 1],
        ['queued', 2],
        ['expired', 3],
      ]);
      const row = await queuedRow(data);
      assert.match(row.error_message ?? '', /451.*le contenu expire le .*avant le prochain essai \(dans 1800 s\)/);
      assert.is(row.message, null);
      clock.advance(1800);
      assert.is(await delivery.runOnce(), 0);
      assert.is(busy.received.length, 0);
    } finally {
      await busy.close();
    }
  });

  test.run();
}

const Down = suite('password reset while the database is down');

for (const [name, config] of [
  ['MariaDB on a closed port', { db_driver: 'mariadb', db_host: '127.0.0.1', db_port: 1, db_user: 'root', db_password: '', db_name: 'fw_h2_nowhere' }],
  ['SQLite in a missing folder', { db_driver: 'sqlite', db_file: '/nonexistent-fw-h2/folder/db.sqlite' }],
] as const) {
  Down(`${name}: POST /password/forgot answers the same 503 with Retry-After as every page`, async () => {
    const app = await startApp({ routes, config: { ...config, app_secret: SECRET, rate_limit_store: 'memory', db_retry_after: 7, mail_from: MAIL_FROM } });
    try {
      // First, so that its log line is the outage's first (later ones are counted): the link's page meets the
      // outage too, and its line names the path without the token.
      const token = 'Zq7' + 'x'.repeat(40);
      const link = await app.fetch(`/password/reset/${token}`);
      assert.is(link.status, 503);
      assert.match(app.logs.text(), '/password/reset/…');
      assert.not.match(app.logs.text(), token, 'no reset token in any log line');
      const other = await app.fetch('/count');
      assert.is(other.status, 503);
      const page = await new SessionClient(app.base).post('/password/forgot', [['email', EMAIL]], '/password/forgot');
      await settlePasswordResetRequests();
      assert.is(page.status, 503, page.text.slice(0, 300));
      assert.is(page.headers.get('retry-after'), '7');
      assert.is(other.headers.get('retry-after'), '7');
      const title = (text: string) => /<title>([^<]*)<\/title>/.exec(text)?.[1];
      assert.ok(title(page.text), page.text.slice(0, 200));
      assert.is(title(page.text), title(other.text));
      assert.not.match(page.text, 'Si un compte correspond', 'no confirmation for a request that is dropped');
    } finally {
      await settlePasswordResetRequests();
      await app.close();
      await closeDatabase();
    }
  });
}

Down.run();
