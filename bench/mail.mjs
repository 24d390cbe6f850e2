/**
 * The mail section: (1) messages per second through the outbox: N messages queued with `sendMail` into a SQLite
 * `mail_log`, then one sender (`MailSender.runOnce`, one SMTP connection per message, as in production) delivers
 * them to a local `smtp-server` in another process (which waits 100 ms before each greeting, to catch clients that
 * talk too soon: that bounds one sender to a few messages a second); then 5 × N through a transport that accepts
 * at once, which leaves the outbox's own work (the job's claim, the row read, the row's and the job's ends); (2) the added time of a page that queues a
 * message: the bench page with and without one `sendMail` (an INSERT into `mail_log` and one into `fw_jobs`, in one transaction), served by
 * fw-mvc and loaded by autocannon in alternating rounds; the cost per request is 1/rps(with) − 1/rps(without), and
 * the handler's own time in `sendMail` is reported too (median and p99). Target: under 2 ms added.
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { BENCH_DIR, median, printTable } from './shared.mjs';

const CONNECTIONS = 50;

function start(file, env = {}) {
  const child = fork(path.join(BENCH_DIR, 'servers', file), { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], env: { ...process.env, ...env } });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${file} exited (${code}) before listening`)));
    child.on('message', (msg) => msg?.type === 'ready' && resolve({ child, port: msg.port }));
  });
}

function ask(child, type) {
  return new Promise((resolve) => {
    const onMessage = (msg) => {
      if (msg?.type !== type) return;
      child.off('message', onMessage);
      resolve(msg);
    };
    child.on('message', onMessage);
    child.send({ type });
  });
}

function quantile(sorted, q) {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))];
}

/** A transport that accepts at once: what is left is the outbox's own work (claim, read, record) on SQLite. */
const instantTransport = {
  name: 'bench',
  async send(message) {
    return { messageId: message.messageId, response: '250 bench', accepted: message.to.map((a) => a.address), rejected: [] };
  },
  close() {},
};

/** Queues `count` messages, then times one sender delivering them all (to the SMTP server, or at once without `smtpPort`). */
async function throughput(count, smtpPort) {
  const { configure, openDatabase, setLogLevel } = await import('fw-mvc');
  // One log line per message would time the terminal, not the sender.
  setLogLevel('WARNING');
  const { MailSender, mailLogTableStatements, sendMail, smtpTransport } = await import('fw-mvc/mail');
  const { jobsTablesStatements } = await import('fw-mvc/jobs');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-bench-outbox-'));
  const database = openDatabase({ driver: 'sqlite', file: path.join(dir, 'outbox.sqlite') });
  try {
    configure({ mail_from: 'Bench <bench@example.test>', mail_enabled: true, mail_timeout: 10 });
    for (const statement of [...mailLogTableStatements('sqlite'), ...jobsTablesStatements('sqlite')]) await database.execute(statement);
    const queueStarted = process.hrtime.bigint();
    for (let i = 0; i < count; i++) {
      await sendMail({ to: `client${i}@example.test`, subject: `Commande n° ${i}`, text: `Bonjour,\nvotre commande n° ${i} est confirmée.\n` }, { database });
    }
    const queueMs = Number(process.hrtime.bigint() - queueStarted) / 1e6;
    const transport = smtpPort ? smtpTransport({ host: '127.0.0.1', port: smtpPort }) : instantTransport;
    const sender = new MailSender({ database, transport });
    const started = process.hrtime.bigint();
    const attempted = await sender.runOnce();
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    await sender.stop();
    const sent = await database.fetchOne("SELECT COUNT(*) AS n FROM mail_log WHERE status = 'sent'");
    if (attempted !== count || Number(sent.n) !== count) throw new Error(`${Number(sent.n)} of ${count} messages sent (${attempted} attempted)`);
    return { count, queuePerSecond: (count / queueMs) * 1000, sendPerSecond: (count / ms) * 1000, ms };
  } finally {
    await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function load(port, route, duration) {
  const result = await autocannon({ url: `http://127.0.0.1:${port}${route}`, connections: CONNECTIONS, duration });
  if (result.errors || result.timeouts || result.non2xx)
    throw new Error(`${route}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx`);
  const seconds = (new Date(result.finish) - new Date(result.start)) / 1000;
  return { rps: result.requests.total / seconds, p50: result.latency.p50, p99: result.latency.p99 };
}

export async function runMailBench({ rounds, duration, warmup, messages }) {
  const smtp = await start('smtp.mjs');
  let delivery;
  try {
    await throughput(20, smtp.port);
    delivery = await throughput(messages, smtp.port);
    const { received } = await ask(smtp.child, 'count');
    console.log(
      `outbox: ${delivery.count} messages queued at ${delivery.queuePerSecond.toFixed(0)}/s, delivered at ${delivery.sendPerSecond.toFixed(1)}/s (server received ${received})`,
    );
  } finally {
    smtp.child.kill();
  }
  const instant = await throughput(messages * 5, null);
  console.log(`outbox alone (a transport that accepts at once): ${instant.count} messages delivered at ${instant.sendPerSecond.toFixed(0)}/s`);
  const page = await start('mail-page.mjs');
  const plain = [];
  const mail = [];
  let handler;
  try {
    await load(page.port, '/page', warmup);
    await load(page.port, '/page-mail', warmup);
    await ask(page.child, 'times');
    for (let round = 0; round < rounds; round++) {
      plain.push(await load(page.port, '/page', duration));
      mail.push(await load(page.port, '/page-mail', duration));
      console.log(`round ${round + 1}/${rounds}  /page ${plain.at(-1).rps.toFixed(0)} req/s  /page-mail ${mail.at(-1).rps.toFixed(0)} req/s`);
    }
    handler = (await ask(page.child, 'times')).times.sort((a, b) => a - b);
  } finally {
    page.child.kill();
  }
  const plainRps = median(plain.map((r) => r.rps));
  const mailRps = median(mail.map((r) => r.rps));
  const addedMs = (1 / mailRps - 1 / plainRps) * 1000;
  const sendMailMedian = quantile(handler, 0.5);
  const sendMailP99 = quantile(handler, 0.99);
  printTable(
    ['page', 'req/s', 'p50 ms', 'p99 ms'],
    [
      ['/page', plainRps.toFixed(0), median(plain.map((r) => r.p50)).toFixed(1), median(plain.map((r) => r.p99)).toFixed(1)],
      ['/page-mail (one sendMail)', mailRps.toFixed(0), median(mail.map((r) => r.p50)).toFixed(1), median(mail.map((r) => r.p99)).toFixed(1)],
    ],
    [0],
  );
  console.log(
    `\nadded per request: ${addedMs.toFixed(3)} ms of server time (1/rps); sendMail in the handler: median ${sendMailMedian.toFixed(3)} ms, p99 ${sendMailP99.toFixed(3)} ms (${handler.length} calls, ${CONNECTIONS} connections)`,
  );
  return {
    settings: { connections: CONNECTIONS, rounds, duration, warmup, messages },
    outbox: {
      messages: delivery.count,
      queuedPerSecond: Math.round(delivery.queuePerSecond),
      sentPerSecond: Number(delivery.sendPerSecond.toFixed(1)),
      instantSentPerSecond: Math.round(instant.sendPerSecond),
    },
    page: {
      plainRps: Math.round(plainRps),
      mailRps: Math.round(mailRps),
      addedMs: Number(addedMs.toFixed(3)),
      sendMailMedianMs: Number(sendMailMedian.toFixed(3)),
      sendMailP99Ms: Number(sendMailP99.toFixed(3)),
    },
    targets: [
      {
        target: 'a page that queues a message: < 2 ms added',
        value: `${addedMs.toFixed(3)} ms`,
        pass: addedMs < 2,
        note: `sendMail median ${sendMailMedian.toFixed(3)} ms`,
      },
    ],
  };
}
