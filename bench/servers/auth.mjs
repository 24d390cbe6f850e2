/**
 * fw-mvc behind the login, for the auth section: the login routes, the bench page public (`/page`) and behind the
 * login (`/private`), users and sessions on a SQLite file in a temporary folder. The session store comes from
 * BENCH_SESSION_STORE (memory, file, database or redis: under a key prefix of its own, deleted on exit).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Application, Router, configure, html, serve, getDatabase, setLogLevel } from 'fw-mvc';
import { AUTH_TABLES, authTableSql, createUser, hashPassword, registerAuthRoutes } from 'fw-mvc/auth';
import { fwSessionsDdl } from 'fw-mvc';
import { BENCH_DIR, PAGE_CONTEXT, PAGE_TEMPLATE, announce } from '../shared.mjs';

export const BENCH_USER = { email: 'bench@example.test', password: 'bench-password-1234' };

const store = process.env.BENCH_SESSION_STORE ?? 'memory';
// One audit line per sign-in would time the terminal, not the login.
setLogLevel('WARNING');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-bench-auth-'));
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
const redisPrefix = `fwbench:${process.pid}:`;
configure({
  redis_prefix: redisPrefix,
  project_root: BENCH_DIR,
  views_dir: 'views',
  db_driver: 'sqlite',
  db_file: path.join(dir, 'auth.sqlite'),
  session_store: store,
  session_dir: path.join(dir, 'sessions'),
  rate_limit_store: 'memory',
});

const db = getDatabase();
for (const statement of fwSessionsDdl('sqlite')) await db.execute(statement);
for (const table of AUTH_TABLES) for (const statement of authTableSql(table, 'sqlite').split(/;\s*(?:\n|$)/)) if (statement.trim()) await db.execute(statement);
await createUser({ email: BENCH_USER.email, passwordHash: await hashPassword(BENCH_USER.password) });

const router = new Router();
registerAuthRoutes(router);
router.add('GET', '/page', () => html(PAGE_TEMPLATE, 200, PAGE_CONTEXT), { public: true });
router.add('GET', '/private', () => html(PAGE_TEMPLATE, 200, PAGE_CONTEXT));

if (store === 'redis') {
  // The sessions this run wrote, deleted when the bench stops the server (SIGTERM).
  process.once('SIGTERM', async () => {
    const { createClient } = await import('redis');
    const client = createClient({ url: process.env.REDIS_URL || 'redis://127.0.0.1:6379' });
    await client.connect();
    for await (const keys of client.scanIterator({ MATCH: `${redisPrefix}*`, COUNT: 1000 })) if (keys.length) await client.del(keys);
    await client.close();
    process.exit(0);
  });
}

const app = new Application(router, { apiRoutesModule: null });
const server = await serve(app, { host: '127.0.0.1', port: 0, announce: false, handleSignals: false, workers: 1 });
announce(`fw-auth-${store}`, server);
