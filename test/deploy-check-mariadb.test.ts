// `fw deploy:check` against a real MariaDB (a throw-away database and application account made by `fw db:init`):
// the application account reaches its database, every migration is APPLIED, and its grants stay inside its
// database without GRANT OPTION (FW-DEPLOY-004); one privilege on another database makes it fail.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { grantProblems } from '../cli/deploy/database.js';
import { newProject, type CliProject } from './helpers/cli.js';

let project: CliProject | undefined;

test.after(async () => {
  await project?.cleanup();
});

test('grantProblems: USAGE and the own database pass; GRANT OPTION and other databases do not', () => {
  const own = ["GRANT USAGE ON *.* TO `app`@`localhost` IDENTIFIED BY PASSWORD '*AB'", 'GRANT SELECT, INSERT, UPDATE, DELETE ON `shop`.* TO `app`@`localhost`'];
  assert.equal(grantProblems(own, 'shop'), []);
  assert.is(grantProblems(['GRANT SELECT ON `shop`.* TO `app`@`localhost` WITH GRANT OPTION'], 'shop').length, 1);
  assert.is(grantProblems(['GRANT SELECT ON `mysql`.* TO `app`@`localhost`'], 'shop').length, 1);
  assert.is(grantProblems(['GRANT ALL PRIVILEGES ON *.* TO `app`@`localhost`'], 'shop').length, 1);
});

function deployChecks(target: CliProject): Map<string, { status: string; detail: string }> {
  const run = target.run(['deploy:check', '--json']);
  const report = JSON.parse(run.stdout) as { checks: Array<{ id: string; status: string; detail: string }> };
  return new Map(report.checks.map((check) => [check.id, check]));
}

test('deploy:check on MariaDB: the account made by db:init passes, an extra grant fails', async () => {
  project = newProject('Registre');
  const target = project.useMariaDb();
  for (const args of [['db:init'], ['db:apply'], ['deploy:init']]) {
    const run = project.run(args);
    assert.is(run.status, 0, `fw ${args.join(' ')} : ${run.stdout}${run.stderr}`);
  }
  // env/prod takes the database of env/dev (env/example's values are placeholders).
  const dbLines = project
    .read('env/dev')
    .split('\n')
    .filter((line) => line.startsWith('DB_'));
  const kept = project
    .read('env/prod')
    .split('\n')
    .filter((line) => !line.startsWith('DB_'));
  project.write('env/prod', `${kept.join('\n')}\n${dbLines.join('\n')}\n`);
  let checks = deployChecks(project);
  assert.is(checks.get('FW-DEPLOY-003')?.status, 'OK', JSON.stringify(checks.get('FW-DEPLOY-003')));
  assert.is(checks.get('FW-DEPLOY-002')?.status, 'OK', JSON.stringify(checks.get('FW-DEPLOY-002')));
  assert.is(checks.get('FW-DEPLOY-004')?.status, 'OK', JSON.stringify(checks.get('FW-DEPLOY-004')));

  for (const host of ['localhost', '127.0.0.1']) {
    await project.sql([`GRANT SELECT ON mysql.* TO '${target.appLogin}'@'${host}'`]).catch(() => undefined);
  }
  checks = deployChecks(project);
  assert.is(checks.get('FW-DEPLOY-004')?.status, 'FAIL');
  assert.match(checks.get('FW-DEPLOY-004')!.detail, 'mysql');
});

test.run();
