/**
 * fw-mvc server of the cluster section: a public page that reads 12 rows (SQLite, through the runtime's database
 * handle) and renders a small template, no session; served by serve() as a generated project is, so that
 * WEB_CONCURRENCY (1 or 2) decides the processes. HOST/PORT from the environment.
 */
import { Application, Router, configure, getDatabase, html, serve, setLogLevel } from 'fw-mvc';
import { BENCH_DIR } from '../shared.mjs';
import { ROWS_SQL, rowsDatabaseFile } from './cluster-db.mjs';

setLogLevel('WARNING');
configure({ project_root: BENCH_DIR, views_dir: 'views', db_driver: 'sqlite', db_file: rowsDatabaseFile() });

const router = new Router().add('GET', '/rows', async () => html('rows.html', 200, { title: 'Douze lignes', rows: await getDatabase().fetchAll(ROWS_SQL) }), {
  public: true,
});

await serve(new Application(router, { apiRoutesModule: null }));
