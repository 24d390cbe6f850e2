/**
 * fw-mvc with the login and password-reset routes, for the reset section: users and `mail_log` on a SQLite file
 * in a temporary folder, one known user. No sender runs in this process (`mail_enabled` is false while `serve()`
 * starts, then true): the messages stay queued, so a request measures the answer and the work beside it, not the
 * delivery. On the parent's `settle` message it waits for the work of the requests so far
 * (`settlePasswordResetRequests`) and starts the limits afresh, then answers `settled`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Application, Router, configure, getDatabase, serve, setLogLevel } from 'fw-mvc';
import {
  AUTH_TABLES,
  authTableSql,
  createUser,
  hashPassword,
  registerAuthRoutes,
  registerPasswordResetRoutes,
  setRateLimitStore,
  settlePasswordResetRequests,
} from 'fw-mvc/auth';
import { jobsTablesStatements } from 'fw-mvc/jobs';
import { mailLogTableStatements } from 'fw-mvc/mail';
import { BENCH_DIR, announce } from '../shared.mjs';

export const RESET_USER = { email: 'bench@example.test', password: 'bench-password-1234' };

// One audit line per request would time the terminal, not the answer.
setLogLevel('ERROR');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-bench-reset-'));
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
configure({
  project_root: BENCH_DIR,
  views_dir: 'views',
  db_driver: 'sqlite',
  db_file: path.join(dir, 'reset.sqlite'),
  session_store: 'memory',
  session_dir: path.join(dir, 'sessions'),
  rate_limit_store: 'memory',
  app_name: 'Bench',
  app_url: 'http://127.0.0.1',
  mail_from: 'Bench <bench@example.test>',
  mail_enabled: false,
});

const db = getDatabase();
for (const table of AUTH_TABLES) for (const statement of authTableSql(table, 'sqlite').split(/;\s*(?:\n|$)/)) if (statement.trim()) await db.execute(statement);
for (const statement of [...mailLogTableStatements('sqlite'), ...jobsTablesStatements('sqlite')]) await db.execute(statement);
await createUser({ email: RESET_USER.email, passwordHash: await hashPassword(RESET_USER.password) });

const router = new Router();
registerAuthRoutes(router);
registerPasswordResetRoutes(router);

const app = new Application(router, { apiRoutesModule: null });
const server = await serve(app, { host: '127.0.0.1', port: 0, announce: false, handleSignals: false, workers: 1 });
configure({ mail_enabled: true });
process.on('message', async (msg) => {
  if (msg?.type !== 'settle') return;
  await settlePasswordResetRequests();
  setRateLimitStore(null);
  process.send({ type: 'settled' });
});
announce('fw-reset', server);
