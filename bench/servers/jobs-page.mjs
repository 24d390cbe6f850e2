/**
 * fw-mvc with the bench page twice, for the jobs section: `/page` renders it, `/page-job` renders it after enqueueing
 * one job (an INSERT into `fw_jobs` of the database BENCH_JOBS_DB describes, whose tables the section made), as a
 * page that hands slow work to the queue would. No worker runs in this process (`jobs_in_serve` is false): the rows
 * stay queued, so the requests measure the page's own cost of enqueueing. The handler's time in `enqueue` is kept
 * and sent to the parent on request.
 */
import { Application, Router, configure, html, serve, setLogLevel } from 'fw-mvc';
import { defineJob } from 'fw-mvc/jobs';
import { BENCH_DIR, PAGE_CONTEXT, PAGE_TEMPLATE, announce } from '../shared.mjs';

setLogLevel('WARNING');
configure({ project_root: BENCH_DIR, views_dir: 'views', jobs_in_serve: false, ...JSON.parse(process.env.BENCH_JOBS_DB) });
const resize = defineJob('bench.resize', () => undefined);

const times = [];
let sequence = 0;
const router = new Router();
router.add('GET', '/page', () => html(PAGE_TEMPLATE, 200, PAGE_CONTEXT), { public: true });
router.add(
  'GET',
  '/page-job',
  async () => {
    const started = process.hrtime.bigint();
    await resize.enqueue({ upload: ++sequence, width: 640 });
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
    return html(PAGE_TEMPLATE, 200, PAGE_CONTEXT);
  },
  { public: true },
);

const app = new Application(router, { apiRoutesModule: null });
const server = await serve(app, { host: '127.0.0.1', port: 0, announce: false, handleSignals: false, workers: 1 });
process.on('message', (msg) => {
  if (msg?.type === 'times') process.send({ type: 'times', times: times.splice(0) });
});
announce('fw-jobs-page', server);
