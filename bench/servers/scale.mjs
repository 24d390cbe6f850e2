/**
 * The signed-in server of the semispace section (the scale section serves the generated list page instead): the bench page behind the login (`/private`) and public (`/page`), sessions and
 * attempt limits on Redis (prefix BENCH_REDIS_PREFIX), users on a SQLite file in BENCH_SCALE_DIR, started with
 * serve() as a generated project starts: WEB_CONCURRENCY from the environment decides the number of processes.
 * The primary (or the single process) creates the tables and the user; workers only serve.
 */
import cluster from 'node:cluster';
import path from 'node:path';
import { Application, Router, configure, html, serve, getDatabase, setLogLevel, fwSessionsDdl } from 'fw-mvc';
import { AUTH_TABLES, authTableSql, createUser, hashPassword, registerAuthRoutes } from 'fw-mvc/auth';
import { BENCH_DIR, PAGE_CONTEXT, PAGE_TEMPLATE } from '../shared.mjs';

const USER = { email: 'bench@example.test', password: 'bench-password-1234' };

setLogLevel('WARNING');
configure({
  project_root: BENCH_DIR,
  views_dir: 'views',
  db_driver: 'sqlite',
  db_file: path.join(process.env.BENCH_SCALE_DIR, 'auth.sqlite'),
  // The app secret of anonymous CSRF tokens is kept in the session folder: a temporary one.
  session_dir: path.join(process.env.BENCH_SCALE_DIR, 'sessions'),
  session_store: 'redis',
  rate_limit_store: 'redis',
  redis_prefix: process.env.BENCH_REDIS_PREFIX,
});

if (cluster.isPrimary) {
  const db = getDatabase();
  for (const statement of fwSessionsDdl('sqlite')) await db.execute(statement);
  for (const table of AUTH_TABLES)
    for (const statement of authTableSql(table, 'sqlite').split(/;\s*(?:\n|$)/)) if (statement.trim()) await db.execute(statement);
  await createUser({ email: USER.email, passwordHash: await hashPassword(USER.password) });
}

const router = new Router();
registerAuthRoutes(router);
router.add('GET', '/page', () => html(PAGE_TEMPLATE, 200, PAGE_CONTEXT), { public: true });
router.add('GET', '/private', () => html(PAGE_TEMPLATE, 200, PAGE_CONTEXT));

await serve(new Application(router, { apiRoutesModule: null }), { host: '127.0.0.1', port: 0 });
