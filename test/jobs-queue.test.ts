/**
 * fw-mvc/jobs in one process, on SQLite and MariaDB: a job enqueued runs once with its payload and attempt; one
 * enqueued in a transaction that rolls back never exists; `runAt` and `delayMs` wait; a failing job is retried
 * with a growing delay then ends `dead` with its error; a unique key refuses a second job while the first waits;
 * retry and discard by id and by filter; a tick of a recurring job is taken once.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { resetConfig } from '../runtime/index.js';
import {
  backoffDelayMs,
  claimTick,
  clearJobDefinitions,
  countJobs,
  defineJob,
  discardJobs,
  jobCounts,
  JobWorker,
  jobType,
  listJobs,
  retryJobs,
  UnrecoverableJobError,
  type JobOptions,
} from '../runtime/jobs/index.js';
import { DIALECTS, productOf } from './helpers/dialects.js';
import { jobsDb, runsByTag, type JobsDb } from './helpers/jobs-db.js';

for (const dialect of DIALECTS) {
  const test = suite(`jobs: the queue in one process (${productOf(dialect)})`);
  let db: JobsDb;

  test.before.each(async () => {
    db = await jobsDb(dialect);
  });
  test.after.each(async () => {
    clearJobDefinitions();
    await db.close();
    resetConfig();
  });

  const recorder = (name: string, options: JobOptions<{ tag: string }> = {}) =>
    defineJob<{ tag: string }>(
      name,
      async ({ tag }, { attempt }) => {
        await db.database.execute('INSERT INTO job_runs (tag, attempt, pid) VALUES (?, ?, ?)', [tag, attempt, process.pid]);
      },
      options,
    );

  test('an enqueued job runs once, with its payload and attempt 1, and ends done', async () => {
    const job = recorder('record');
    const queued = await job.enqueue({ tag: 'a' }, { database: db.database });
    assert.is(queued.duplicate, false);
    const worker = new JobWorker({ database: db.database, recurring: false });
    assert.is(await worker.runOnce(), 1);
    assert.is(await worker.runOnce(), 0);
    assert.equal([...(await runsByTag(db.database))], [['a', 1]]);
    const [row] = await listJobs(db.database, { ids: [queued.id] });
    assert.is(row?.status, 'done');
    assert.is(row?.attempts, 1);
    assert.is(row?.lockedBy, null);
  });

  test('a job enqueued in a transaction that rolls back never exists; one that commits runs', async () => {
    const job = recorder('record');
    await db.database
      .transaction(async (tx) => {
        await job.enqueue({ tag: 'rolled-back' }, { tx });
        throw new Error('annulé');
      })
      .catch(() => undefined);
    await db.database.transaction((tx) => job.enqueue({ tag: 'committed' }, { tx }));
    assert.is(await new JobWorker({ database: db.database, recurring: false }).runOnce(), 1);
    assert.equal([...(await runsByTag(db.database))], [['committed', 1]]);
    assert.is(await countJobs(db.database), 1);
  });

  test('runAt and delayMs: the job waits until then (scheduled in the counts)', async () => {
    const job = recorder('record');
    await job.enqueue({ tag: 'later' }, { database: db.database, runAt: new Date(Date.now() + 3600_000) });
    await job.enqueue({ tag: 'delayed' }, { database: db.database, delayMs: 3600_000 });
    assert.is(await new JobWorker({ database: db.database, recurring: false }).runOnce(), 0);
    assert.equal((await jobCounts(db.database)).get('default')?.scheduled, 2);
  });

  test('a failing job is retried with a growing delay, then ends dead with its last error', async () => {
    let calls = 0;
    const flaky = defineJob('flaky', () => Promise.reject(new Error(`panne n° ${++calls}`)), { attempts: 3, backoff: { baseMs: 60_000 } });
    const queued = await flaky.enqueue(null, { database: db.database });
    const worker = new JobWorker({ database: db.database, recurring: false });
    for (let attempt = 1; attempt <= 3; attempt++) {
      assert.is(await worker.runOnce(), 1, `essai ${attempt}`);
      const [row] = await listJobs(db.database, { ids: [queued.id] });
      assert.is(row?.attempts, attempt);
      assert.is(row?.lastError, `panne n° ${attempt}`);
      if (attempt < 3) {
        assert.is(row?.status, 'queued');
        assert.ok(row!.runAt >= row!.createdAt, `${row!.runAt} ≥ ${row!.createdAt}`);
        // Due now, so that the next look runs it.
        await db.database.execute("UPDATE fw_jobs SET run_at = '2000-01-01 00:00:00' WHERE id = ?", [queued.id]);
      } else assert.is(row?.status, 'dead');
    }
    assert.is((await jobCounts(db.database)).get('default')?.dead, 1);
  });

  test('backoff: exponential, capped, each delay within [½, 1] of its step', () => {
    const backoff = { baseMs: 1000, maxMs: 5000 };
    assert.equal(
      [1, 2, 3, 4].map((attempt) => backoffDelayMs(backoff, attempt, () => 1)),
      [1000, 2000, 4000, 5000],
    );
    assert.equal(
      [1, 2, 3].map((attempt) => backoffDelayMs(backoff, attempt, () => 0)),
      [500, 1000, 2000],
    );
  });

  test('a type of its own: only the worker given it runs it, on its clock, with fixed delays, until an unrecoverable failure', async () => {
    let at = Date.parse('2030-01-01T00:00:00Z');
    const seen: Array<[number, number | null]> = [];
    const own = jobType<{ tag: string }>(
      'own_type',
      (_payload, { attempt, retryDelayMs }) => {
        seen.push([attempt, retryDelayMs]);
        if (attempt < 3) throw new Error(`panne ${attempt}`);
        throw new UnrecoverableJobError('refus définitif');
      },
      { attempts: 5, backoff: { delaysMs: [60_000, 300_000] } },
    );
    const queued = await own.enqueue({ tag: 'x' }, { database: db.database, runAt: new Date(at) });
    // Not in the registry: a worker of every defined type has nothing to run.
    assert.is(await new JobWorker({ database: db.database, recurring: false, queues: { default: 1 } }).runOnce(), 0);
    const worker = new JobWorker({ database: db.database, recurring: false, jobs: [own], now: () => at });
    assert.equal([...worker.queues().keys()], ['default']);
    assert.is(await worker.runOnce(), 1);
    const retryAt = async () => Date.parse(`${(await listJobs(db.database, { ids: [queued.id] }))[0]!.runAt.replace(' ', 'T')}Z`);
    assert.is(await retryAt(), at + 60_000, 'the first fixed delay, no jitter');
    at += 59_000;
    assert.is(await worker.runOnce(), 0, 'not due yet on the worker’s clock');
    at += 1000;
    assert.is(await worker.runOnce(), 1);
    assert.is(await retryAt(), at + 300_000, 'the second delay');
    at += 300_000;
    assert.is(await worker.runOnce(), 1);
    const [row] = await listJobs(db.database, { ids: [queued.id] });
    assert.is(row?.status, 'dead', 'dead at its 3rd attempt of 5');
    assert.match(row?.lastError ?? '', /refus définitif/);
    assert.equal(seen, [
      [1, 60_000],
      [2, 300_000],
      [3, 300_000],
    ]);
  });

  test('idle(): resolves once every queue waits', async () => {
    recorder('idle_a', { queue: 'a' });
    recorder('idle_b', { queue: 'b' });
    const worker = new JobWorker({ database: db.database, recurring: false, pollMs: 60_000 }).start();
    try {
      await worker.idle();
      await recorder('idle_a', { queue: 'a' }).enqueue({ tag: 'woken' }, { database: db.database });
      const deadline = Date.now() + 5000;
      while ((await runsByTag(db.database)).get('woken') === undefined) {
        assert.ok(Date.now() < deadline, 'the enqueue woke the idle worker');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      await worker.stop();
    }
    assert.is(await worker.idle(), undefined, 'at once once stopped');
  });

  test('a unique key: a second job with the same key while the first waits is not written', async () => {
    const job = recorder('unique', { uniqueKey: ({ tag }) => tag });
    const first = await job.enqueue({ tag: 'k' }, { database: db.database });
    const second = await job.enqueue({ tag: 'k' }, { database: db.database });
    assert.equal([second.duplicate, second.id], [true, first.id]);
    assert.is(await countJobs(db.database), 1);
    await new JobWorker({ database: db.database, recurring: false }).runOnce();
    const third = await job.enqueue({ tag: 'k' }, { database: db.database });
    assert.is(third.duplicate, false);
  });

  test('retry and discard, by id and by filter; a running job is left alone', async () => {
    const job = recorder('record', { attempts: 1 });
    const ids = [];
    for (const tag of ['a', 'b', 'c']) ids.push((await job.enqueue({ tag }, { database: db.database })).id);
    await db.database.execute("UPDATE fw_jobs SET status = 'dead', last_error = 'x'");
    await db.database.execute("UPDATE fw_jobs SET status = 'running' WHERE id = ?", [ids[2]]);
    assert.is(await retryJobs(db.database, { ids: [ids[0]!] }), 1);
    assert.is(await discardJobs(db.database, { status: 'dead' }), 1);
    assert.is(await discardJobs(db.database, { ids: [ids[2]!] }), 0);
    const rows = await listJobs(db.database);
    assert.equal(
      rows.map((row) => [row.id, row.status, row.attempts]),
      [
        [ids[2], 'running', 0],
        [ids[0], 'queued', 0],
      ],
    );
  });

  test('a recurring tick is taken once, however many times it is claimed', async () => {
    const job = recorder('every_second', { cron: '* * * * * *' });
    const tick = new Date('2030-01-01T00:00:05.000Z');
    assert.equal(await Promise.all([claimTick(db.database, job as never, tick), claimTick(db.database, job as never, tick)]).then((r) => r.sort()), [
      false,
      true,
    ]);
    assert.is(await countJobs(db.database, { name: 'every_second' }), 1);
  });

  test('a cron expression cron-parser refuses is refused at definition', () => {
    assert.throws(() => defineJob('bad', () => undefined, { cron: 'tous les jours' }), /expression cron « tous les jours » illisible/);
  });

  test.run();
}
