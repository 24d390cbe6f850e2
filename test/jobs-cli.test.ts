/**
 * The jobs commands in a real project, on SQLite and MariaDB (docs/jobs.md "Commands"): `fw make:job` writes a job
 * file that type-checks and registers it, imports the jobs index from `app.ts` once, refuses an existing name; `fw db:apply` creates the tables; `fw jobs:work`
 * runs a job enqueued in the database and stops on SIGTERM; `jobs:list`, `jobs:retry`, `jobs:discard` and their
 * errors (unknown status, unknown id, no tables); `fw doctor` warns about dead jobs.
 */
import { spawn, spawnSync } from 'node:child_process';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { FW, TSC, childEnv, newProject, type CliProject } from './helpers/cli.js';
import { linkFramework } from './helpers/crud-app.js';
import { waitFor } from './helpers/cluster.js';
import { DIALECTS, productOf } from './helpers/dialects.js';
import { clearJobDefinitions, countJobs, defineJob } from '../runtime/jobs/index.js';

for (const dialect of DIALECTS) {
  const test = suite(`jobs commands (${productOf(dialect)})`);
  let project: CliProject;

  test.before(() => {
    project = newProject('Taches');
    project.useDialect(dialect);
    linkFramework(project);
    if (dialect === 'mariadb') assert.is(project.run(['db:init']).status, 0);
  });
  test.after(async () => {
    clearJobDefinitions();
    await project.cleanup();
  });

  test('no tables yet: jobs:list names the migration', () => {
    const run = project.run(['jobs:list']);
    assert.is(run.status, 1);
    assert.match(run.stderr, /^Erreur : table fw_jobs absente/);
    assert.match(run.stderr, 'fw jobs:init');
    assert.match(run.stderr, 'fw db:apply');
  });

  test('make:job writes a job file that type-checks, registers it, imports the index from app.ts, writes the tables SQL; refuses it twice', () => {
    const appBefore = project.read('app.ts');
    const made = project.run(['make:job', 'SendReport']);
    assert.is(made.status, 0, made.stderr);
    const app = project.read('app.ts');
    assert.is(app.split("import './mvc/jobs/index.js';").length, 2, 'app.ts imports the jobs index');
    assert.is(app.replace("\nimport './mvc/jobs/index.js';", ''), appBefore, 'nothing else of app.ts changed');
    assert.match(project.read('mvc/jobs/send_report_job.ts'), "defineJob<SendReportPayload>(\n  'send_report',");
    assert.match(project.read('mvc/jobs/index.ts'), "import './send_report_job.js';");
    assert.ok(project.exists('mvc/models/sql/jobs/fw_jobs.sql') && project.exists('mvc/models/sql/jobs/fw_jobs.sqlite.sql'));
    const again = project.run(['make:job', 'SendReport']);
    assert.is(again.status, 1);
    assert.match(again.stderr, /^Erreur : la tâche « SendReport » existe déjà \(mvc\/jobs\/send_report_job\.ts\)/);
    assert.is(project.read('mvc/jobs/index.ts').split("import './send_report_job.js';").length, 2, 'registered once');
    assert.is(project.run(['make:job', 'Cleanup']).status, 0);
    assert.is(project.read('app.ts'), app, 'the import is not added twice');
    const tsc = spawnSync(process.execPath, [TSC, '--noEmit', '-p', 'tsconfig.json'], { cwd: project.root, encoding: 'utf8' });
    assert.is(tsc.status, 0, tsc.stdout + tsc.stderr);
    const apply = project.run(['db:apply']);
    assert.is(apply.status, 0, apply.stderr);
    assert.match(apply.stdout, `mvc/models/sql/jobs/fw_jobs${dialect === 'sqlite' ? '.sqlite' : ''}.sql`);
  });

  test('jobs:work runs a job enqueued in the database, then stops on SIGTERM', async () => {
    const db = project.open();
    try {
      const job = defineJob<{ id: number }>('send_report', () => undefined);
      const enqueued = await job.enqueue({ id: 7 }, { database: db });
      const child = spawn(process.execPath, [FW, 'jobs:work', '--concurrency', '2'], { cwd: project.root, env: childEnv() });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      try {
        // Done in the database, and its log line received (the pipe may deliver it after the row changed).
        await waitFor(
          'the job done',
          async () =>
            ((await countJobs(db, { ids: [enqueued.id], status: 'done' })) === 1 && output.includes('send_report n° 7 : essai 1.')) || child.exitCode !== null,
          30_000,
        );
        assert.is(await countJobs(db, { ids: [enqueued.id], status: 'done' }), 1, output);
        assert.match(output, 'Travailleur prêt : default (2 à la fois)');
        assert.match(output, 'send_report n° 7 : essai 1.');
      } finally {
        child.kill('SIGTERM');
      }
      assert.is(await exited, 0, output);
      assert.match(output, 'Travailleur arrêté.');
      assert.match(output, 'SIGTERM reçu');
    } finally {
      await db.close();
    }
  });

  test('jobs:list, retry and discard by id and by status; their errors', async () => {
    const db = project.open();
    try {
      const job = defineJob<{ id: number }>('cleanup', () => undefined);
      const dead = await job.enqueue({ id: 1 }, { database: db });
      const other = await job.enqueue({ id: 2 }, { database: db });
      await db.execute("UPDATE fw_jobs SET status = 'dead', last_error = 'Error: disque plein' WHERE id = ?", [dead.id]);
      const list = project.run(['jobs:list', '--status', 'dead']);
      assert.is(list.status, 0, list.stderr);
      const lines = list.stdout.trimEnd().split('\n');
      assert.match(lines[0]!, /^ID +NAME +QUEUE +STATUS +ATTEMPTS +RUN AT +LAST ERROR$/);
      assert.is(lines.length, 2);
      assert.match(lines[1]!, new RegExp(`^${dead.id} +cleanup +default +dead +0/\\d+ +\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d +Error: disque plein$`));
      const json = JSON.parse(project.run(['jobs:list', '--name', 'cleanup', '--json']).stdout) as Array<{ id: number }>;
      assert.equal(json.map((row) => row.id).sort(), [dead.id, other.id].sort());
      const doctor = project.run(['doctor', '--json']);
      assert.match(doctor.stdout, 'FW-JOBS-001');
      assert.match(doctor.stdout, 'fw jobs:list --status dead');

      const badStatus = project.run(['jobs:list', '--status', 'mort']);
      assert.is(badStatus.status, 1);
      assert.match(badStatus.stderr, /^Erreur : statut « mort » inconnu \(statuts : queued, running, done, dead\)/);
      const unknown = project.run(['jobs:retry', String(dead.id), '999999']);
      assert.is(unknown.status, 1);
      assert.match(unknown.stderr, /^Erreur : tâche\(s\) inconnue\(s\) : 999999\. Rien n'a été fait\./);
      assert.match(unknown.stderr, 'fw jobs:list');
      const neither = project.run(['jobs:discard']);
      assert.is(neither.status, 1);
      assert.match(neither.stderr, /^Erreur : quelles tâches \?/);

      const failed = await job.enqueue({ id: 3 }, { database: db });
      await db.execute("UPDATE fw_jobs SET attempts = 1, last_error = 'Error: délai' WHERE id = ?", [failed.id]);
      const retriedFailed = project.run(['jobs:retry', '--status', 'failed']);
      assert.is(retriedFailed.status, 0, retriedFailed.stderr);
      assert.match(retriedFailed.stdout, '1 tâche(s) remise(s) en file.');
      const [again] = await db.fetchAll<{ attempts: number | string }>('SELECT attempts FROM fw_jobs WHERE id = ?', [failed.id]);
      assert.is(Number(again?.attempts), 0);
      // Retried, it is waiting from zero attempts, no longer failed; failed again once an attempt counts.
      const notFailed = project.run(['jobs:discard', '--status', 'failed', '--name', 'cleanup']);
      assert.is(notFailed.status, 0, notFailed.stderr);
      assert.match(notFailed.stdout, '0 tâche(s) supprimée(s).');
      assert.is(await countJobs(db, { ids: [failed.id] }), 1);
      await db.execute('UPDATE fw_jobs SET attempts = 1 WHERE id = ?', [failed.id]);
      const discardFailed = project.run(['jobs:discard', '--status', 'failed', '--name', 'cleanup']);
      assert.is(discardFailed.status, 0, discardFailed.stderr);
      assert.match(discardFailed.stdout, '1 tâche(s) supprimée(s).');
      assert.is(await countJobs(db, { ids: [failed.id] }), 0);
      const retried = project.run(['jobs:retry', '--status', 'dead', '--name', 'cleanup']);
      assert.is(retried.status, 0, retried.stderr);
      assert.match(retried.stdout, '1 tâche(s) remise(s) en file.');
      assert.is(await countJobs(db, { status: 'dead' }), 0);
      const discarded = project.run(['jobs:discard', String(dead.id), String(other.id)]);
      assert.is(discarded.status, 0, discarded.stderr);
      assert.match(discarded.stdout, '2 tâche(s) supprimée(s).');
      assert.is(await countJobs(db, { name: 'cleanup' }), 0);
    } finally {
      await db.close();
    }
  });

  test.run();
}
