/**
 * fw-mvc/mail in an application process: importing it and queueing a message loads no nodemailer; `serve()`
 * starts the sender registered by `fw-mvc/mail` once it listens (the message queued before is sent, through the
 * file transport, which loads nodemailer); stopping the background jobs lets the process exit. Observed in a fresh
 * Node process through a module resolve hook (the technique of test/runtime-lazy-modules.test.ts).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const DIST = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..', 'runtime');
const url = (...parts: string[]) => JSON.stringify(pathToFileURL(path.join(DIST, ...parts)).href);

test('nodemailer waits for the first message; serve() starts the sender and the stop lets the process exit', () => {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fw-mail-serve-')));
  try {
    const log = path.join(dir, 'loaded.txt');
    const hook = path.join(dir, 'hook.mjs');
    fs.writeFileSync(
      hook,
      `import { appendFileSync } from 'node:fs';
      export async function resolve(specifier, context, next) {
        const result = await next(specifier, context);
        if (/\\/node_modules\\/nodemailer\\//.test(result.url)) appendFileSync(${JSON.stringify(log)}, 'nodemailer\\n');
        return result;
      }\n`,
    );
    const register = path.join(dir, 'register.mjs');
    fs.writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hook).href)});\n`);
    const script = `
      import fs from 'node:fs';
      const runtime = await import(${url('index.js')});
      const mail = await import(${url('mail', 'index.js')});
      const background = await import(${url('app', 'background.js')});
      const loaded = () => fs.existsSync(${JSON.stringify(log)});
      const report = { afterImport: loaded() };
      runtime.configure({ project_root: ${JSON.stringify(dir)}, db_driver: 'sqlite', db_file: 'app.sqlite', mail_transport: 'file', mail_from: 'app@example.test', session_dir: 'sessions' });
      // The outbox's tables: mail_log and the jobs tables its messages go through.
      const jobs = await import(${url('jobs', 'schema.js')});
      for (const statement of [...mail.mailLogTableStatements('sqlite'), ...jobs.jobsTablesStatements('sqlite')]) await runtime.execute(statement);
      const queued = await mail.sendMail({ to: 'a@example.test', subject: 'au démarrage', text: 't' });
      await new Promise((resolve) => setTimeout(resolve, 200));
      report.afterQueue = loaded();
      report.statusBeforeServe = (await runtime.fetchOne('SELECT status FROM mail_log WHERE id = ?', [queued.id])).status;
      const app = new runtime.Application(new runtime.Router(), { apiRoutesModule: null });
      const server = await runtime.serve(app, { port: 0, host: '127.0.0.1', handleSignals: false, announce: false, workers: 1 });
      const deadline = Date.now() + 10000;
      let status;
      do {
        await new Promise((resolve) => setTimeout(resolve, 50));
        status = (await runtime.fetchOne('SELECT status FROM mail_log WHERE id = ?', [queued.id])).status;
      } while (status !== 'sent' && Date.now() < deadline);
      report.statusAfterServe = status;
      report.afterSend = loaded();
      report.files = fs.readdirSync(${JSON.stringify(path.join(dir, 'storage', 'mail'))}).length;
      await runtime.stopGracefully(server);
      await background.stopBackground();
      await runtime.closeDatabase();
      process.stdout.write(JSON.stringify(report));
    `;
    const run = spawnSync(process.execPath, ['--import', pathToFileURL(register).href, '--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    assert.is(run.status, 0, run.stderr);
    assert.equal(JSON.parse(run.stdout), {
      afterImport: false,
      afterQueue: false,
      statusBeforeServe: 'queued',
      statusAfterServe: 'sent',
      afterSend: true,
      files: 1,
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
