/**
 * The outbox of fw-mvc/mail on SQLite and MariaDB: `sendMail` in the caller's transaction (nothing when it rolls
 * back, sent once it commits, the sender woken by the commit), `skipped` when mail is disabled, header injection
 * and invalid addresses refused before anything is written, the rendered row fields, and the claim's duration
 * (`mail_claim_seconds`). The messages leave through the file transport and are read back with mailparser.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { configure, resetConfig, setLogSink, type LogRecord } from '../runtime/index.js';
import { listJobs, retryJobs } from '../runtime/jobs/admin.js';
import { MailAddressError, MailSender, fileTransport, mailLogTableSql, sendMail, startMailSender, type MailTransport } from '../runtime/mail/index.js';
import { mailDb, mailRow, waitForStatus, type MailDb } from './helpers/mail-db.js';
import { DIALECTS, productOf } from './helpers/dialects.js';

for (const dialect of DIALECTS) {
  const test = suite(`mail: outbox (${productOf(dialect)})`);
  let db: MailDb;
  let dir: string;
  let sender: MailSender | undefined;
  const logs: LogRecord[] = [];

  test.before(async () => {
    db = await mailDb(dialect);
  });
  test.after(async () => {
    await db.close();
  });
  test.before.each(async () => {
    resetConfig();
    configure({ mail_from: 'App <app@example.test>' });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-mail-out-'));
    logs.length = 0;
    setLogSink((record) => logs.push(record));
    await db.database.execute('DELETE FROM mail_log');
    await db.database.execute('DELETE FROM fw_jobs');
  });
  test.after.each(async () => {
    await sender?.stop();
    sender = undefined;
    fs.rmSync(dir, { recursive: true, force: true });
    setLogSink(null);
    resetConfig();
  });

  const emlFiles = () => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => name.endsWith('.eml')) : []);

  test('in a transaction that rolls back: no row, nothing sent', async () => {
    sender = startMailSender({ database: db.database, transport: fileTransport(dir), intervalMs: 60_000 });
    const error = await db.database
      .transaction(async (tx) => {
        await sendMail({ to: 'a@example.test', subject: 'annulé', text: 't' }, { tx });
        throw new Error('rollback');
      })
      .catch((e: unknown) => e);
    assert.is((error as Error).message, 'rollback');
    await sender.runOnce();
    assert.equal(await db.database.fetchAll('SELECT id FROM mail_log'), []);
    assert.equal(emlFiles(), []);
  });

  test('in a transaction that commits: queued, then sent once the commit wakes the sender (no tick needed)', async () => {
    sender = startMailSender({ database: db.database, transport: fileTransport(dir), intervalMs: 60_000 });
    // Its first look is over: the next one, before a minute, can only come from the commit's wake-up.
    await sender.idle();
    const queued = await db.database.transaction(async (tx) => {
      const result = await sendMail(
        {
          to: ['Zoé <zoe@example.test>', 'bob@example.test'],
          subject: 'Commande n° 7 validée',
          text: 'Merci.',
          html: '<p>Merci.</p>',
          type: 'order_confirmed',
          related: { entity: 'orders', id: 7 },
        },
        { tx },
      );
      const inside = await tx.fetchOne<{ status: string }>('SELECT status FROM mail_log WHERE id = ?', [result.id]);
      assert.is(inside?.status, 'queued');
      return result;
    });
    const row = await waitForStatus(db.database, queued.id, 'sent', 5000);
    assert.is(row.message_type, 'order_confirmed');
    assert.is(row.to_email, 'zoe@example.test, bob@example.test');
    assert.is(row.subject, 'Commande n° 7 validée');
    assert.is(row.transport, 'file');
    assert.is(row.related_entity, 'orders');
    assert.is(row.related_id, '7');
    assert.is(row.attempts, 1);
    assert.is(row.message, null, 'the body is not kept once sent');
    assert.match(row.created_at, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const files = emlFiles();
    assert.is(files.length, 1);
    const parsed = await simpleParser(fs.readFileSync(path.join(dir, files[0]!)));
    assert.is(parsed.subject, 'Commande n° 7 validée');
    assert.is(parsed.text, 'Merci.');
    assert.is(parsed.html, '<p>Merci.</p>');
    assert.is(parsed.messageId, queued.messageId);
    assert.not.ok(JSON.stringify(logs).includes('Merci'), 'no body in the log');
  });

  test('mail_enabled false: the row is skipped, nothing sent', async () => {
    configure({ mail_enabled: false });
    sender = startMailSender({ database: db.database, transport: fileTransport(dir), intervalMs: 100 });
    const queued = await sendMail({ to: 'a@example.test', subject: 'off', text: 't' }, { database: db.database });
    assert.is(queued.status, 'skipped');
    await sender.runOnce();
    const row = await mailRow(db.database, queued.id);
    assert.is(row.status, 'skipped');
    assert.is(row.message, null);
    assert.is(row.sent_at, null);
    assert.equal(emlFiles(), []);
  });

  test('a row queued while mail was enabled is skipped by a sender that finds it disabled', async () => {
    const queued = await sendMail({ to: 'a@example.test', subject: 'later', text: 't' }, { database: db.database });
    configure({ mail_enabled: false });
    sender = startMailSender({ database: db.database, transport: fileTransport(dir), intervalMs: 60_000 });
    const row = await waitForStatus(db.database, queued.id, 'skipped', 5000);
    assert.is(row.message, null);
    assert.equal(emlFiles(), []);
  });

  test('header injection and invalid addresses are refused before anything is written', async () => {
    const cases: Array<[Parameters<typeof sendMail>[0], string, string]> = [
      [{ to: 'a@example.test', subject: 'Bonjour\r\nBcc: victim@example.test', text: 't' }, 'subject', 'header_injection'],
      [{ to: 'a@example.test', subject: 'ok\n', text: 't' }, 'subject', 'header_injection'],
      [{ to: { name: 'Eve\nBcc: victim@example.test', address: 'eve@example.test' }, subject: 's', text: 't' }, 'to (nom)', 'header_injection'],
      [{ to: 'a@example.test\r\nBcc: victim@example.test', subject: 's', text: 't' }, 'to', 'header_injection'],
      [{ to: 'a@example.test', from: { address: 'app@example.test\n' }, subject: 's', text: 't' }, 'from', 'header_injection'],
      [{ to: 'a@example.test', replyTo: 'Support\r <s@example.test>', subject: 's', text: 't' }, 'replyTo', 'header_injection'],
      [{ to: 'not-an-address', subject: 's', text: 't' }, 'to', 'invalid_address'],
      [{ to: 'a@b@example.test', subject: 's', text: 't' }, 'to', 'invalid_address'],
      [{ to: 'a@example.test, b@example.test', subject: 's', text: 't' }, 'to', 'invalid_address'],
      [{ to: [], subject: 's', text: 't' }, 'to', 'invalid_address'],
    ];
    for (const [message, field, code] of cases) {
      const error = await sendMail(message, { database: db.database }).catch((e: unknown) => e);
      assert.instance(error, MailAddressError, JSON.stringify(message));
      assert.is((error as MailAddressError).field, field, JSON.stringify(message));
      assert.is((error as MailAddressError).code, code, JSON.stringify(message));
    }
    configure({ mail_from: '' });
    const noFrom = await sendMail({ to: 'a@example.test', subject: 's', text: 't' }, { database: db.database }).catch((e: unknown) => e);
    assert.instance(noFrom, MailAddressError);
    assert.equal(await db.database.fetchAll('SELECT id FROM mail_log'), []);
  });

  // The claim is the job's (fw_jobs, queue mail): mail_log holds no claim of its own since messages are jobs.
  const mailJob = (id: number) =>
    db.database.fetchOne<{ id: number; locked_by: string | null; locked_until: string | null }>(
      "SELECT id, locked_by, locked_until FROM fw_jobs WHERE name = 'fw_mail_send' AND payload = ?",
      [JSON.stringify({ mailLogId: id })],
    );

  test('a claim held by a dead process is taken once it expires, not before', async () => {
    const queued = await sendMail({ to: 'a@example.test', subject: 'orphelin', text: 't' }, { database: db.database });
    const claim = (until: Date) =>
      db.database.execute("UPDATE fw_jobs SET status = 'running', locked_by = 'dead-host:1:0:1', locked_until = ?, attempts = 1 WHERE id = ?", [
        until,
        queued.jobId,
      ]);
    await claim(new Date(Date.now() + 60_000));
    // Not started: only the calls below look at the outbox.
    sender = new MailSender({ database: db.database, transport: fileTransport(dir) });
    assert.is(await sender.runOnce(), 0);
    assert.is((await mailJob(queued.id))?.locked_by, 'dead-host:1:0:1');
    await claim(new Date(Date.now() - 2000));
    assert.is(await sender.runOnce(), 1);
    const row = await mailRow(db.database, queued.id);
    assert.is(row.status, 'sent');
    assert.is(row.attempts, 2);
    assert.is((await mailJob(queued.id))?.locked_by, null);
    assert.is(emlFiles().length, 1);
  });

  test('mail_claim_seconds is how long a claim holds; a value that is not seconds above 0 stops the start', async () => {
    configure({ mail_claim_seconds: 7 });
    const queued = await sendMail({ to: 'a@example.test', subject: 'bail court', text: 't' }, { database: db.database });
    const file = fileTransport(dir);
    let claimedUntil: string | null = null;
    // The claim as the job holds it while the message is being sent.
    const transport: MailTransport = {
      name: 'file',
      send: async (message) => {
        claimedUntil = (await mailJob(queued.id))?.locked_until ?? null;
        return file.send(message);
      },
      close: () => file.close(),
    };
    const before = Date.now();
    sender = new MailSender({ database: db.database, transport });
    assert.is(await sender.runOnce(), 1);
    const held = Date.parse(`${String(claimedUntil).replace(' ', 'T')}Z`) - before;
    // 7 s from the claim, cut to the second; the default would be 6 × mail_timeout + 30 = 90 s.
    assert.ok(held >= 6000 && held < 60_000, `locked_until ${claimedUntil}`);
    for (const value of [0, -1, Number.NaN]) {
      configure({ mail_claim_seconds: value });
      assert.throws(() => startMailSender({ database: db.database, transport }), new RegExp(`mail_claim_seconds vaut « ${value} » : un nombre de secondes`));
    }
    assert.throws(() => startMailSender({ database: db.database, transport, claimSeconds: 0 }), /claimSeconds vaut « 0 »/);
  });

  test('a message refused for good: failed, its job dead with the same error; a retry of the job sends nothing and says why', async () => {
    let sent = 0;
    const refusing: MailTransport = {
      name: 'smtp',
      send: () => {
        sent++;
        return Promise.reject(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
      },
      close: async () => {},
    };
    const queued = await sendMail({ to: 'a@example.test', subject: 'refusé', text: 't' }, { database: db.database });
    sender = new MailSender({ database: db.database, transport: refusing });
    assert.is(await sender.runOnce(), 1);
    const row = await mailRow(db.database, queued.id);
    assert.equal([row.status, row.attempts, row.message], ['failed', 1, null]);
    const [job] = await listJobs(db.database, { ids: [queued.jobId!] });
    assert.equal([job?.name, job?.queue, job?.status], ['fw_mail_send', 'mail', 'dead']);
    assert.match(job?.lastError ?? '', /550 : Mailbox unavailable/);
    assert.is(await retryJobs(db.database, { ids: [queued.jobId!] }), 1);
    assert.is(await sender.runOnce(), 1);
    const [again] = await listJobs(db.database, { ids: [queued.jobId!] });
    assert.is(again?.status, 'dead');
    assert.match(again?.lastError ?? '', /en échec, son contenu effacé : il ne peut être renvoyé/);
    assert.is(sent, 1, 'never sent a second time');
    assert.is((await mailRow(db.database, queued.id)).status, 'failed');
  });

  test('a subject longer than the column is cut in mail_log and sent whole', async () => {
    const subject = 'é'.repeat(600);
    sender = startMailSender({ database: db.database, transport: fileTransport(dir), intervalMs: 60_000 });
    const queued = await sendMail({ to: 'a@example.test', subject, text: 't' }, { database: db.database });
    const row = await waitForStatus(db.database, queued.id, 'sent', 5000);
    assert.is(row.subject.length, 500);
    const parsed = await simpleParser(fs.readFileSync(path.join(dir, emlFiles()[0]!)));
    assert.is(parsed.subject, subject);
  });

  test.run();
}

const table = suite('mail: the mail_log table');

table('one description, both dialects, no ENUM; dates as DATETIME on MariaDB and TEXT on SQLite', () => {
  const mariadb = mailLogTableSql('mariadb');
  const sqlite = mailLogTableSql('sqlite');
  for (const sql of [mariadb, sqlite]) {
    assert.not.match(sql, /ENUM/i);
    for (const name of [
      'message_type',
      'to_email',
      'subject',
      'transport',
      'status',
      'error_message',
      'related_entity',
      'related_id',
      'created_at',
      'sent_at',
      'attempts',
      'next_attempt_at',
      'message',
    ]) {
      assert.match(sql, new RegExp(`\\b${name}\\b`), name);
    }
    assert.match(sql, /ix_mail_log_due/);
    // Claims are the jobs' (fw_jobs): the table holds none of its own.
    assert.not.match(sql, /claimed_(by|until)/);
  }
  assert.match(mariadb, /`created_at` DATETIME NOT NULL/);
  assert.match(sqlite, /"created_at" TEXT NOT NULL/);
});

table.run();

/** What the outbox relies on to wake the sender: `Connection.afterCommit`. */
const commit = suite('mail: afterCommit (the wake-up after a commit)');

commit('runs after the outermost COMMIT, never after a rollback, and a rolled-back savepoint drops its own', async () => {
  const db = await mailDb('sqlite');
  try {
    const calls: string[] = [];
    await db.database.transaction(async (tx) => {
      tx.afterCommit(() => calls.push('outer'));
      await tx.transaction(async (inner) => {
        inner.afterCommit(() => calls.push('kept savepoint'));
      });
      await tx
        .transaction(async (inner) => {
          inner.afterCommit(() => calls.push('rolled-back savepoint'));
          throw new Error('savepoint');
        })
        .catch(() => {});
      assert.equal(calls, [], 'nothing before the COMMIT');
    });
    assert.equal(calls, ['outer', 'kept savepoint']);
    await db.database
      .transaction(async (tx) => {
        tx.afterCommit(() => calls.push('rolled back'));
        throw new Error('rollback');
      })
      .catch(() => {});
    assert.equal(calls, ['outer', 'kept savepoint']);
  } finally {
    await db.close();
  }
});

commit.run();
