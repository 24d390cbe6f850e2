/**
 * The outbox of fw-mvc/mail under WEB_CONCURRENCY=2, on SQLite and MariaDB: an entry point that configures itself
 * from the environment and calls `serve()` as a generated project's `app.ts` does, so the primary forks two
 * workers, each with the sender `fw-mvc/mail` registers. A route queues one message per request, with a unique
 * subject; a real SMTP server on 127.0.0.1 receives them. Every message arrives exactly once, sent by the senders
 * of both workers and never by the primary; then a worker killed (SIGKILL) while it sends is replaced, its claims
 * expire after `mail_claim_seconds`, and every message is sent at least once, the repeats being only those of the
 * messages it held (docs/mail.md "sendMail and the outbox"). Sessions and limits are in the database (the memory
 * stores are refused with two workers).
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { plainRequest, startServerProcess, stopServerProcess, waitFor, waitListening, type ClusterProcess } from './helpers/cluster.js';
import { mailDb, type MailDb } from './helpers/mail-db.js';
import { DIALECTS } from './helpers/dialects.js';
import { makeProject, type TempProject } from './helpers/project.js';
import { startSmtp, type SmtpHandle } from './helpers/smtp.js';

const DIST = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..', 'runtime');
const RUNTIME = JSON.stringify(pathToFileURL(path.join(DIST, 'index.js')).href);
const MAIL = JSON.stringify(pathToFileURL(path.join(DIST, 'mail', 'index.js')).href);

/** Seconds a claim holds in these tests: a killed worker's messages are free again soon after. */
const CLAIM_SECONDS = 2;

const SERVER = `import { Application, Response, Router, configure, serve, setLogSink, transaction } from ${RUNTIME};
import { sendMail } from ${MAIL};
// As a generated project's config.ts: the configuration from the environment.
configure({
  project_root: process.cwd(),
  ...JSON.parse(process.env.FW_TEST_DB),
  mail_host: process.env.MAIL_HOST,
  mail_port: Number(process.env.MAIL_PORT),
  mail_from: process.env.MAIL_FROM,
  mail_claim_seconds: Number(process.env.MAIL_CLAIM_SECONDS),
});
// Each log line names its process: the test reads which process sent which message.
setLogSink((record) => process.stderr.write(record.time.toISOString() + ' [pid ' + process.pid + '] ' + record.level + ' ' + record.logger + ': ' + record.message + '\\n'));
const router = new Router();
router.add('POST', '/queue/{tag}', async (request) => {
  const tag = request.routeParams.tag;
  const queued = await transaction((tx) => sendMail({ to: tag + '@example.test', subject: tag, text: 'mis en file par ' + process.pid }, { tx }));
  return new Response(200, JSON.stringify({ id: queued.id }), 'application/json', { 'X-Worker-Pid': String(process.pid) });
}, { public: true, csrf: false });
await serve(new Application(router, { apiRoutesModule: null }));
`;

interface Row {
  id: number;
  subject: string;
  status: string;
  attempts: number;
  claimed_by: string | null;
  message: string | null;
}

for (const dialect of DIALECTS) {
  const test = suite(`mail: the outbox under WEB_CONCURRENCY=2 (${dialect})`);
  let db: MailDb;
  let smtp: SmtpHandle;
  let project: TempProject;
  let server: ClusterProcess;

  test.before(async () => {
    db = await mailDb(dialect);
    smtp = await startSmtp({ tls: 'plain' });
    project = makeProject();
    server = startServerProcess(project, SERVER, {
      WEB_CONCURRENCY: '2',
      HOST: '127.0.0.1',
      PORT: '0',
      SESSION_STORE: 'database',
      RATE_LIMIT_STORE: 'database',
      FW_TEST_DB: JSON.stringify(db.config),
      MAIL_HOST: '127.0.0.1',
      MAIL_PORT: String(smtp.port),
      MAIL_FROM: 'App <app@example.test>',
      MAIL_CLAIM_SECONDS: String(CLAIM_SECONDS),
    });
    await waitListening(server, 2).catch((error: Error) => {
      throw new Error(`${error.message}\n${server.output()}`);
    });
  });
  test.after(async () => {
    if (server) await stopServerProcess(server);
    await smtp?.close();
    await db?.close();
    project?.cleanup();
  });

  /** POSTs `/queue/<tag>` for every tag, `concurrency` at a time, each on its own connection; tag → worker pid. */
  async function queue(tags: readonly string[], concurrency: number): Promise<Map<string, string>> {
    const pids = new Map<string, string>();
    for (let sent = 0; sent < tags.length; sent += concurrency) {
      await Promise.all(
        tags.slice(sent, sent + concurrency).map(async (tag) => {
          const answer = await plainRequest(`${server.base}/queue/${tag}`, { method: 'POST', ms: 15_000 });
          assert.is(answer.status, 200, answer.body);
          pids.set(tag, String(answer.headers['x-worker-pid']));
        }),
      );
    }
    return pids;
  }

  /** The rows of the prefix, each with the claim of its job (`fw_jobs.locked_by`: mail_log holds no claim of its own). */
  const rowsOf = async (prefix: string): Promise<Row[]> => {
    const jobs = await db.database.fetchAll<{ payload: string; locked_by: string | null }>(
      "SELECT payload, locked_by FROM fw_jobs WHERE name = 'fw_mail_send'",
    );
    const claims = new Map(jobs.map((job) => [(JSON.parse(job.payload) as { mailLogId: number }).mailLogId, job.locked_by]));
    return (
      await db.database.fetchAll<Omit<Row, 'claimed_by'>>('SELECT id, subject, status, attempts, message FROM mail_log WHERE subject LIKE ? ORDER BY id', [
        `${prefix}%`,
      ])
    ).map((row) => ({ ...row, id: Number(row.id), attempts: Number(row.attempts), claimed_by: claims.get(Number(row.id)) ?? null }));
  };

  /** Waits until every row of the prefix is `sent` and its job's end written (the claim released, just after the row); returns them. */
  const drained = (prefix: string, count: number, ms: number): Promise<Row[]> =>
    waitFor(
      `${count} messages ${prefix}* envoyés`,
      async () => {
        const rows = await rowsOf(prefix);
        return rows.length === count && rows.every((row) => row.status === 'sent' && row.claimed_by === null) && rows;
      },
      ms,
    );

  /** How many times the SMTP server received each subject of the prefix. */
  function arrivals(prefix: string): Map<string, number> {
    const counts = new Map<string, number>();
    for (const message of smtp.received) {
      const subject = message.parsed.subject ?? '';
      if (subject.startsWith(prefix)) counts.set(subject, (counts.get(subject) ?? 0) + 1);
    }
    return counts;
  }

  /**
   * The pid of the process whose log says it sent each message of `ids`. A sender logs once the row is `sent`, so
   * the last lines may still be on their way: waits for one line per message.
   */
  const senders = (ids: readonly number[]): Promise<Map<number, string>> =>
    waitFor(`the log lines of ${ids.length} messages sent`, () => {
      const pids = new Map<number, string>();
      for (const [, pid, id] of server.output().matchAll(/\[pid (\d+)\] INFO fw\.mail: Message n° (\d+) envoyé/g)) pids.set(Number(id), pid!);
      return ids.every((id) => pids.has(id)) && pids;
    });

  test('requests spread over both workers: every message received exactly once, sent by the senders of both workers', async () => {
    const prefix = `${dialect}-once-`;
    const tags = Array.from({ length: 100 }, (_, i) => `${prefix}${i}`);
    const pids = await queue(tags, 15);
    const workers = new Set(pids.values());
    assert.is(workers.size, 2, `requests answered by ${[...workers].join(', ')}`);
    assert.not.ok(workers.has(String(server.child.pid)), 'the primary answers no request');
    const rows = await drained(prefix, tags.length, 20_000);
    const counts = arrivals(prefix);
    assert.equal([...counts.keys()].sort(), [...tags].sort(), 'every message arrived, none lost');
    assert.equal(
      [...counts].filter(([, n]) => n !== 1),
      [],
      'none arrived twice',
    );
    assert.equal(
      rows.filter((row) => row.attempts !== 1 || row.claimed_by !== null || row.message !== null),
      [],
      'each row sent at its first attempt, released and emptied',
    );
    const sentBy = new Set((await senders(rows.map((row) => row.id))).values());
    assert.equal([...sentBy].sort(), [...workers].sort(), 'each worker runs a sender; the primary none');
  });

  test('a worker killed while it sends: replaced, its claims expire, every message sent at least once, none left claimed', async () => {
    const prefix = `${dialect}-kill-`;
    const tags = Array.from({ length: 30 }, (_, i) => `${prefix}${i}`);
    // Each message is accepted 100 ms after its data, the first delivery of the first one 5 s after: the outbox is
    // still being sent when every request has been answered, and the worker that sends the first one holds its
    // claim long enough to be killed holding it. Its second delivery is as quick as the others: an attempt that
    // outlasted the claim would let a third sender take the message.
    const first = tags[0]!;
    let delayedOnce = false;
    smtp.setDataDelay((subject) => {
      if (subject !== first || delayedOnce) return 100;
      delayedOnce = true;
      return 5000;
    });
    try {
      await queue(tags, 10);
      const claim = await waitFor('the claim of the first message', async () => (await rowsOf(first)).find((row) => row.subject === first)?.claimed_by);
      // Killed once the SMTP server has its data: a worker killed before would leave the 5 s delay to the next sender.
      await waitFor('the first delivery under way at the SMTP server', () => delayedOnce);
      // `<host>:<pid>:<random>:<claim number>`, the job's claim.
      const victim = /:(\d+):[0-9a-f]+:\d+$/.exec(claim)![1]!;
      process.kill(Number(victim), 'SIGKILL');
      await waitFor('the replacement', () => server.output().includes(`Processus ${victim} arrêté (SIGKILL) : remplacé`));
      // What the dead worker held: still queued, claimed by it until its claims expire.
      const holding = (await rowsOf(prefix)).filter((row) => row.status === 'queued' && row.claimed_by?.includes(`:${victim}:`));
      assert.equal(
        holding.map((row) => row.subject),
        [first],
        'the worker died holding the claim of the message it was sending',
      );
      const rows = await drained(prefix, tags.length, 25_000);
      assert.equal(
        rows.filter((row) => row.claimed_by !== null || row.message !== null),
        [],
        'no row left claimed',
      );
      // At least twice: on a loaded machine the second sender's attempt may itself outlast its 2 s claim.
      const heldAttempts = rows.find((row) => row.subject === first)!.attempts;
      assert.equal(
        rows.filter((row) => (row.subject === first ? row.attempts < 2 : row.attempts !== 1)).map((row) => [row.subject, row.attempts]),
        [],
        'the held message was claimed again after its claim expired; the others once',
      );
      const counts = arrivals(prefix);
      assert.equal([...counts.keys()].sort(), [...tags].sort(), 'every message arrived at least once');
      assert.equal(
        [...counts].filter(([subject, n]) => n > (subject === first ? heldAttempts : 1)),
        [],
        'only the message the dead worker held may arrive more than once (at most once per attempt)',
      );
      const sentBy = (await senders([holding[0]!.id])).get(holding[0]!.id);
      assert.is.not(sentBy, victim, 'the held message recorded sent by another process');
    } finally {
      smtp.setDataDelay(0);
    }
  });

  test('SIGTERM: each worker stops its sender after its message and closes its pool; the primary exits 0', async () => {
    assert.is(await stopServerProcess(server), 0, server.output().slice(-2000));
  });

  test.run();
}
