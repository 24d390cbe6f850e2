/**
 * fw-mvc/jobs with real processes, on SQLite and MariaDB: 10,000 jobs over an application served with two cluster
 * workers and a separate jobs process, each run exactly once; a job enqueued by a request whose transaction rolls
 * back never runs; a process SIGKILLed while it runs a job: the job runs again after its lease, nothing lost;
 * SIGTERM under load: the process exits 0, what it ran is done, what it held goes back to the queue, and a second
 * process runs the rest, each job once; a job longer than its lease runs once (its lease renewed while it runs); a
 * recurring job over two processes: 10 consecutive ticks of every second, each run once.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { plainRequest, stopServerProcess, waitFor, waitListening, type ClusterProcess } from './helpers/cluster.js';
import { DIALECTS, productOf } from './helpers/dialects.js';
import { jobsDb, runsByTag, type JobsDb } from './helpers/jobs-db.js';
import { startJobsProcess, startJobsServer } from './helpers/jobs-processes.js';
import { makeProject, type TempProject } from './helpers/project.js';
import { countJobs, defineJob, clearJobDefinitions } from '../runtime/jobs/index.js';

for (const dialect of DIALECTS) {
  const test = suite(`jobs: real processes (${productOf(dialect)})`);
  let db: JobsDb;
  const projects: TempProject[] = [];
  const processes: ClusterProcess[] = [];

  test.before.each(async () => {
    db = await jobsDb(dialect, 'fw_test_jobsp');
  });
  test.after.each(async () => {
    await Promise.all(processes.splice(0).map((started) => stopServerProcess(started)));
    for (const project of projects.splice(0)) project.cleanup();
    clearJobDefinitions();
    await db.close();
  });

  const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({ FW_TEST_DB: JSON.stringify(db.config), ...extra });
  const project = (): TempProject => {
    const made = makeProject();
    projects.push(made);
    return made;
  };
  const jobsProcess = async (extra: NodeJS.ProcessEnv = {}): Promise<ClusterProcess> => {
    const started = await startJobsProcess(project(), env(extra));
    processes.push(started);
    return started;
  };
  /** Enqueues `count` jobs `count` tagged `<prefix><n>` from this process, in one transaction. */
  const enqueueMany = async (prefix: string, count: number, name = 'count'): Promise<void> => {
    const job = defineJob<{ tag: string }>(name, () => undefined);
    await db.database.transaction(async (tx) => {
      for (let i = 0; i < count; i++) await job.enqueue({ tag: `${prefix}${i}` }, { tx });
    });
  };
  const allDone = async (count: number, ms: number): Promise<void> => {
    try {
      await waitFor(`${count} jobs done`, async () => (await countJobs(db.database, { status: 'done' })) === count, ms);
    } catch (error) {
      const rows = await db.database.fetchAll('SELECT status, name, attempts, locked_until, run_at, last_error FROM fw_jobs WHERE status <> ? LIMIT 5', [
        'done',
      ]);
      throw new Error(`${(error as Error).message}: ${JSON.stringify(rows)} ${processes.map((p) => p.output().slice(-2000)).join('\n')}`, { cause: error });
    }
  };

  test('10,000 jobs over two cluster workers and a separate process: each runs exactly once; a rolled-back enqueue never runs', async () => {
    // Each job takes 20 ms: the 10,000 then last about 3 s over the three processes' 75 slots, longer than an idle
    // worker's 1 s poll, so that each process claims its share (empty jobs were all done by two of them in 0.8 s).
    const slow = { FW_TEST_SLOW_MS: '20' };
    const server = startJobsServer(
      project(),
      env({ WEB_CONCURRENCY: '2', HOST: '127.0.0.1', PORT: '0', SESSION_STORE: 'database', RATE_LIMIT_STORE: 'database', ...slow }),
    );
    processes.push(server);
    const [separate] = await Promise.all([
      jobsProcess(slow),
      waitListening(server, 2).catch((error: Error) => {
        throw new Error(`${error.message}\n${server.output()}`);
      }),
    ]);
    assert.is((await plainRequest(`${server.base}/enqueue/rolled-back?fail`, { method: 'POST' })).status, 409);
    assert.is((await plainRequest(`${server.base}/enqueue/from-page`, { method: 'POST' })).status, 200);
    const total = 10_000;
    await enqueueMany('n', total);
    await allDone(total + 1, 90_000);
    const runs = await runsByTag(db.database);
    assert.is(runs.size, total + 1);
    assert.equal(
      [...runs].filter(([, n]) => n !== 1),
      [],
      'no job ran twice',
    );
    assert.not.ok(runs.has('rolled-back'), 'the job of the rolled-back transaction never existed');
    assert.is(await countJobs(db.database), total + 1);
    const pids = await db.database.fetchAll<{ pid: number | string }>('SELECT DISTINCT pid FROM job_runs');
    assert.is(pids.length, 3, `runs by ${pids.map((row) => row.pid).join(', ')}`);
    assert.ok(
      pids.some((row) => Number(row.pid) === separate.child.pid),
      'the separate process ran jobs',
    );
    assert.not.ok(
      pids.some((row) => Number(row.pid) === server.child.pid),
      'the primary runs none',
    );
  });

  test('a process SIGKILLed while it runs a job: the job runs again after its lease, nothing lost', async () => {
    // Short leases (2 s): the jobs the victim held are free again soon after it dies.
    const victim = await jobsProcess({ FW_TEST_TIMEOUT_MS: '1000' });
    const hang = defineJob<{ tag: string }>('hang', () => undefined, { queue: 'slow' });
    const held = await hang.enqueue({ tag: 'held' }, { database: db.database });
    await enqueueMany('k', 50);
    await waitFor('the first attempt under way', async () => (await runsByTag(db.database)).has('held'));
    victim.child.kill('SIGKILL');
    await victim.exited;
    const rescuer = await jobsProcess({ FW_TEST_TIMEOUT_MS: '1000' });
    await allDone(51, 30_000);
    const runs = await db.database.fetchAll<{ tag: string; attempt: number | string; pid: number | string }>(
      "SELECT tag, attempt, pid FROM job_runs WHERE tag = 'held' ORDER BY attempt",
    );
    assert.equal(
      runs.map((row) => [Number(row.attempt), Number(row.pid)]),
      [
        [1, victim.child.pid],
        [2, rescuer.child.pid],
      ],
    );
    const [row] = await db.database.fetchAll<{ attempts: number | string; locked_by: string | null }>('SELECT attempts, locked_by FROM fw_jobs WHERE id = ?', [
      held.id,
    ]);
    assert.equal([Number(row?.attempts), row?.locked_by], [2, null]);
    const all = await runsByTag(db.database);
    for (let i = 0; i < 50; i++) assert.ok(all.has(`k${i}`), `k${i} ran`);
  });

  test('SIGTERM under load: exit 0, what ran is done, what was held goes back; a second process runs the rest, each once', async () => {
    const first = await jobsProcess({ FW_TEST_SLOW_MS: '100' });
    await enqueueMany('t', 200);
    await waitFor('some runs', async () => (await runsByTag(db.database)).size >= 10);
    const code = await stopServerProcess(first);
    assert.is(code, 0, first.output());
    assert.match(first.output(), 'arrêté');
    const left = await db.database.fetchAll<{ status: string; n: number | string }>('SELECT status, COUNT(*) AS n FROM fw_jobs GROUP BY status');
    assert.not.ok(
      left.some((row) => row.status === 'running'),
      `no job left running: ${JSON.stringify(left)}`,
    );
    const ranByFirst = (await runsByTag(db.database)).size;
    assert.is(await countJobs(db.database, { status: 'done' }), ranByFirst, 'every job the first process ran is done');
    await jobsProcess();
    await allDone(200, 30_000);
    const runs = await runsByTag(db.database);
    assert.is(runs.size, 200);
    assert.equal(
      [...runs].filter(([, n]) => n !== 1),
      [],
    );
  });

  test('a job that runs longer than its lease, two processes: its lease is renewed while it runs, it runs once', async () => {
    // Leases of 600 ms, renewed every 200 ms; the job runs 3 s: without the renewal the other process would run it again.
    await Promise.all([jobsProcess({ FW_TEST_LEASE_MS: '600' }), jobsProcess({ FW_TEST_LEASE_MS: '600' })]);
    const long = defineJob<{ tag: string }>('long', () => undefined, { queue: 'long' });
    const job = await long.enqueue({ tag: 'long' }, { database: db.database });
    await waitFor(
      'the long job done',
      async () => (await db.database.fetchOne<{ status: string }>('SELECT status FROM fw_jobs WHERE id = ?', [job.id]))?.status === 'done',
      30_000,
    );
    const runs = await db.database.fetchAll<{ attempt: number | string }>("SELECT attempt FROM job_runs WHERE tag = 'long'");
    assert.equal(
      runs.map((row) => Number(row.attempt)),
      [1],
      processes.map((p) => p.output()).join('\n'),
    );
    const row = await db.database.fetchOne<{ attempts: number | string; last_error: string | null }>('SELECT attempts, last_error FROM fw_jobs WHERE id = ?', [
      job.id,
    ]);
    assert.equal([Number(row?.attempts), row?.last_error], [1, null]);
  });

  test('a recurring job every second over two processes: 10 consecutive ticks, each run once', async () => {
    await Promise.all([jobsProcess({ FW_TEST_CRON: '1' }), jobsProcess({ FW_TEST_CRON: '1' })]);
    const ticks = 10;
    const seen = await waitFor(
      `${ticks} ticks`,
      async () => {
        const runs = await runsByTag(db.database);
        return runs.size >= ticks + 1 && runs;
      },
      30_000,
    );
    const sorted = [...seen.keys()].sort();
    const start = Date.parse(sorted[0]!);
    // The ticks from the first: one each second, none missing, none run twice.
    const window = sorted.filter((tick) => Date.parse(tick) < start + ticks * 1000);
    assert.equal(
      window,
      Array.from({ length: ticks }, (_, i) => new Date(start + i * 1000).toISOString()),
    );
    assert.equal(
      window.filter((tick) => seen.get(tick) !== 1),
      [],
    );
  });

  test.run();
}
