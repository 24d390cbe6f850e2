/**
 * fw-mvc with the bench page twice, for the mail section: `/page` renders it, `/page-mail` renders it after
 * queueing one message with `sendMail` into `mail_log` (a SQLite file in a temporary folder), as a page that
 * sends a confirmation would. No sender runs in this process (`mail_enabled` is false while `serve()` starts, then
 * true): the rows stay queued, so the requests measure the page's own cost of queueing, not the delivery (measured
 * apart, messages per second). The handler's time in `sendMail` is kept and sent to the parent on request.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Application, Router, configure, getDatabase, html, serve, setLogLevel } from 'fw-mvc';
import { jobsTablesStatements } from 'fw-mvc/jobs';
import { mailLogTableStatements, sendMail } from 'fw-mvc/mail';
import { BENCH_DIR, PAGE_CONTEXT, PAGE_TEMPLATE, announce } from '../shared.mjs';

setLogLevel('WARNING');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-bench-mail-'));
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
configure({
  project_root: BENCH_DIR,
  views_dir: 'views',
  db_driver: 'sqlite',
  db_file: path.join(dir, 'mail.sqlite'),
  mail_from: 'Bench <bench@example.test>',
  mail_enabled: false,
});
for (const statement of [...mailLogTableStatements('sqlite'), ...jobsTablesStatements('sqlite')]) await getDatabase().execute(statement);

const times = [];
let sequence = 0;
const router = new Router();
router.add('GET', '/page', () => html(PAGE_TEMPLATE, 200, PAGE_CONTEXT), { public: true });
router.add(
  'GET',
  '/page-mail',
  async () => {
    const started = process.hrtime.bigint();
    await sendMail({
      to: `client${++sequence}@example.test`,
      subject: 'Votre commande est confirmée',
      text: 'Bonjour,\nvotre commande est confirmée.\n',
      html: '<p>Bonjour,</p><p>votre commande est confirmée.</p>',
    });
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
    return html(PAGE_TEMPLATE, 200, PAGE_CONTEXT);
  },
  { public: true },
);

const app = new Application(router, { apiRoutesModule: null });
const server = await serve(app, { host: '127.0.0.1', port: 0, announce: false, handleSignals: false, workers: 1 });
configure({ mail_enabled: true });
process.on('message', (msg) => {
  if (msg?.type === 'times') {
    process.send({ type: 'times', times: times.splice(0) });
  }
});
announce('fw-mail-page', server);
