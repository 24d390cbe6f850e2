/**
 * Bare server of the cluster section: node:http, better-sqlite3 and nunjucks answer the same page as
 * cluster-fw.mjs (12 rows, the same template, the six security headers); WEB_CONCURRENCY above 1 forks that many
 * node:cluster workers, which accept from the shared socket themselves (SCHED_NONE, as runtime/app/cluster.ts).
 * Nothing else runs in the primary or the workers. HOST/PORT from the environment.
 */
import cluster from 'node:cluster';
import http from 'node:http';
import Database from 'better-sqlite3';
import { HTML_TYPE, SECURITY_FLAT, nunjucksEnv } from '../shared.mjs';
import { ROWS_SQL, rowsDatabaseFile } from './cluster-db.mjs';

const workers = Number(process.env.WEB_CONCURRENCY ?? 1);
const port = Number(process.env.PORT ?? 0);
const host = process.env.HOST ?? '127.0.0.1';

if (cluster.isPrimary && workers > 1) {
  cluster.schedulingPolicy = cluster.SCHED_NONE;
  let listening = 0;
  for (let i = 0; i < workers; i++) cluster.fork();
  cluster.on('listening', (_worker, address) => {
    if (++listening === workers) process.stdout.write(`fw-mvc : http://127.0.0.1:${address.port}, ${workers} processus\n`);
  });
  process.on('SIGTERM', () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    process.exit(0);
  });
} else {
  const env = nunjucksEnv();
  const statement = new Database(rowsDatabaseFile(), { readonly: true }).prepare(ROWS_SQL);
  const server = http.createServer((req, res) => {
    if (req.url !== '/rows') {
      res.writeHead(404, [...SECURITY_FLAT, 'Content-Type', 'text/plain']);
      return res.end('Not Found');
    }
    const body = env.render('rows.html', { title: 'Douze lignes', rows: statement.all() });
    res.writeHead(200, [...SECURITY_FLAT, 'Content-Type', HTML_TYPE, 'Content-Length', String(Buffer.byteLength(body))]);
    res.end(body);
  });
  server.listen(port, host, () => {
    if (cluster.isPrimary) process.stdout.write(`fw-mvc : http://127.0.0.1:${server.address().port}\n`);
  });
  process.on('SIGTERM', () => process.exit(0));
}
