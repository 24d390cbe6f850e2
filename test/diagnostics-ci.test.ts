// `npm run check` of a new project (scripts/check.mjs of the template) and docs/ci.md: a real `fw new` project with
// an entity and its CRUD pages, the packages linked as after `npm install`; green on SQLite (with and without the
// database file) and on the real MariaDB through the very commands docs/ci.md gives the CI job; then broken steps
// (a type error, a stale generated file, a drift in the database) fail it, each named while the others pass. Each
// `npm run check` costs a tsc and four fw processes: where a test is about a step's own output, and a full run
// already shows how the report prints it, the step's command runs alone.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openDatabase } from '../runtime/db/index.js';
import { MARIADB_ADMIN, REPO, newProject, type CliProject, type Run } from './helpers/cli.js';
import { CONTACT, linkPackages, ok, writeEntity } from './helpers/crud-cli-project.js';

const STEPS = ['tsc --noEmit', 'fw project:check', 'fw build:model --check', 'fw make:crud Contact --check', 'fw migration:diff --all --check'];
const DRIFT = 'fw migration:diff --all --check';

const test = suite<{ project: CliProject }>('npm run check and docs/ci.md');

test.before((context) => {
  const project = newProject('Ci');
  context.project = project;
  linkPackages(project);
  fs.symlinkSync(path.join(REPO, 'node_modules', 'typescript'), project.path('node_modules/typescript'), 'dir');
  fs.mkdirSync(project.path('node_modules/.bin'));
  fs.symlinkSync('../fw-mvc-cli/bin/fw.js', project.path('node_modules/.bin/fw'));
  writeEntity(project, CONTACT);
  ok(project, ['sync:entity', 'Contact']);
  ok(project, ['make:crud', 'Contact']);
  // The relation files of a model without relations would hold no statement: their absence is not stale (docs/ci.md).
  const fresh = project.run(['build:model', '--check']);
  if (fresh.status !== 0) throw new Error(`build:model --check on a model without relations: ${fresh.status} ${fresh.stdout}`);
  // Written all the same: a test below edits relations.sql to make it stale.
  ok(project, ['build:model']);
});

test.after(async ({ project }) => {
  await project?.cleanup();
});

/** The environment of the child: this one without DB_*, APP_ENV or npm's own variables, plus `extra`. */
function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!/^(DB_|npm_|TEST_DB_)|^APP_ENV$/.test(key)) env[key] = value;
  return { ...env, ...extra };
}

/** `npm run check` in the project. */
function check(project: CliProject): Run {
  const run = spawnSync('npm', ['run', '--silent', 'check'], { cwd: project.root, encoding: 'utf8', env: childEnv(), timeout: 180_000 });
  if (run.error) throw run.error;
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** The status of each step, from the report lines (`  [OK]   tsc --noEmit — 2.1 s`). */
function statuses(stdout: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const match of stdout.matchAll(/^ {2}\[(OK|FAIL|SKIP)\] +(.+?) — /gm)) out[match[2]!] = match[1]!;
  return out;
}

function expectStatuses(run: Run, expected: Record<string, string>, exit: number): void {
  assert.equal(statuses(run.stdout), expected, run.stdout + run.stderr);
  assert.is(run.status, exit, run.stdout + run.stderr);
  const failures = Object.values(expected).filter((s) => s === 'FAIL').length;
  const skips = Object.values(expected).filter((s) => s === 'SKIP').length;
  const summary = `${STEPS.length - failures - skips} étape(s) réussie(s), ${skips} ignorée(s), ${failures} en échec.`;
  assert.ok(run.stdout.trimEnd().endsWith(summary), `summary « ${summary} » in ${run.stdout}`);
}

const allOk = (): Record<string, string> => Object.fromEntries(STEPS.map((step) => [step, 'OK']));

/** Runs `body` with each file of `edits` changed by its function, then puts the files back. */
function withEdits<T>(project: CliProject, edits: Record<string, (text: string) => string>, body: () => T): T {
  const before = Object.keys(edits).map((relative) => [relative, project.read(relative)] as const);
  try {
    for (const [relative, text] of before) project.write(relative, edits[relative]!(text));
    return body();
  } finally {
    for (const [relative, text] of before) project.write(relative, text);
  }
}

/** Runs `body` with `relative` changed by `edit`, then puts the file back. */
function withEdit<T>(project: CliProject, relative: string, edit: (text: string) => string, body: () => T): T {
  const before = project.read(relative);
  project.write(relative, edit(before));
  try {
    return body();
  } finally {
    project.write(relative, before);
  }
}

test('without its dependencies installed: exit 1 and the advice, no stack trace', ({ project }) => {
  fs.renameSync(project.path('node_modules'), project.path('node_modules.off'));
  try {
    const run = check(project);
    assert.is(run.status, 1);
    assert.is(run.stdout, '');
    assert.is(
      run.stderr,
      'Erreur : fw-mvc-cli/package.json introuvable : les dépendances du projet ne sont pas installées.\nConseil : lancez « npm install » (ou « npm ci »).\n',
    );
  } finally {
    fs.renameSync(project.path('node_modules.off'), project.path('node_modules'));
  }
});

test('SQLite without its file: every step passes, the drift check is skipped with the reason', ({ project }) => {
  project.useSqlite();
  const run = check(project);
  expectStatuses(run, { ...allOk(), [DRIFT]: 'SKIP' }, 0);
  assert.match(run.stdout, /\[SKIP\] fw migration:diff --all --check — base SQLite storage\/database\.sqlite absente \(fw db:init la crée\)/);
  assert.not.ok(project.exists('storage/database.sqlite'), 'the check creates no database file');
});

test('SQLite after db:init and db:apply: all five steps pass; broken steps fail together, each named, the others pass', async ({ project }) => {
  project.useSqlite();
  ok(project, ['db:init']);
  ok(project, ['db:apply']);
  expectStatuses(check(project), allOk(), 0);
  // Three steps broken at once, one run: a column added to the table behind the entity's back, a type error, a
  // generated file edited by hand (its marker kept). Each fails on its own line; the other two steps still pass;
  // the output shown is the first failed step's.
  await project.sql(['ALTER TABLE contacts ADD COLUMN surnom TEXT']);
  const before = project.snapshot();
  const broken = withEdits(
    project,
    {
      'mvc/controllers/home_controller.ts': (text) => `${text}\nexport const broken: number = 'texte';\n`,
      'mvc/entities/relations.sql': (text) => `${text}-- modifié à la main\n`,
    },
    () => {
      const run = check(project);
      // The failed steps' own outputs, which the report leaves out after the first one: the same commands alone.
      return { run, model: project.run(['build:model', '--check']), diff: project.run(['migration:diff', '--all', '--check']) };
    },
  );
  expectStatuses(broken.run, { ...allOk(), 'tsc --noEmit': 'FAIL', 'fw build:model --check': 'FAIL', [DRIFT]: 'FAIL' }, 1);
  assert.match(broken.run.stdout, /Sortie de « tsc --noEmit » :\n\n[^]*home_controller\.ts[^]*error TS2322/);
  assert.match(broken.run.stdout, /\[FAIL\] fw migration:diff --all --check — code 2 /);
  assert.not.match(broken.run.stdout, /Sortie de « fw build:model/, 'the output of the first failed step only');
  assert.is(broken.model.status, 2, broken.model.stdout + broken.model.stderr);
  assert.match(broken.model.stdout, /^Fichiers générés périmés \(1\) :\n {2}mvc\/entities\/relations\.sql\n/);
  assert.is(broken.diff.status, 2, broken.diff.stdout + broken.diff.stderr);
  assert.match(broken.diff.stdout, /surnom/);

  // One of the entity's generated files edited by hand: build:model --check sees it stale, and make:crud --check too
  // (the CRUD pages derive from it): the steps' commands alone, the report's lines for them are proven above and below.
  withEdit(
    project,
    'mvc/entities/contact/contact_base.ts',
    (text) => `${text}// modifié à la main\n`,
    () => {
      const model = project.run(['build:model', '--check']);
      assert.is(model.status, 2, model.stdout + model.stderr);
      assert.match(model.stdout, /^Fichiers générés périmés \(1\) :\n {2}mvc\/entities\/contact\/contact_base\.ts\n/);
      const crud = project.run(['make:crud', 'Contact', '--check']);
      assert.is(crud.status, 2, crud.stdout + crud.stderr);
    },
  );

  // A regenerable CRUD file edited by hand: make:crud --check and build:model --check (which checks them too); the
  // drift still fails.
  const crud = withEdit(
    project,
    'mvc/forms/contact_fields.ts',
    (text) => `${text}// modifié à la main\n`,
    () => check(project),
  );
  expectStatuses(crud, { ...allOk(), 'fw build:model --check': 'FAIL', 'fw make:crud Contact --check': 'FAIL', [DRIFT]: 'FAIL' }, 1);
  assert.match(crud.stdout, /Sortie de « fw build:model --check » :\n\n[^]*mvc\/forms\/contact_fields\.ts/);

  assert.equal(project.snapshot(), before, 'npm run check writes nothing');
  fs.rmSync(project.path('storage/database.sqlite'));
});

/** The job's commands of docs/ci.md (the sh block after `<!-- ci:commands -->`), and its two CI files. */
function ciDoc(): { commands: string; github: string; gitlab: string } {
  const doc = fs.readFileSync(path.join(REPO, 'docs', 'ci.md'), 'utf8');
  const commands = /<!-- ci:commands -->\n```sh\n([^]*?)```/.exec(doc)?.[1];
  const github = /## GitHub Actions[^]*?```yaml\n([^]*?)```/.exec(doc)?.[1];
  const gitlab = /## GitLab CI[^]*?```yaml\n([^]*?)```/.exec(doc)?.[1];
  if (!commands || !github || !gitlab) throw new Error('docs/ci.md : bloc des commandes ou fichier de CI introuvable');
  return { commands, github, gitlab };
}

test('docs/ci.md: both CI files run exactly the job commands, in order', () => {
  const { commands, github, gitlab } = ciDoc();
  const wanted = commands.trim().split('\n');
  for (const [name, file] of [
    ['GitHub Actions', github],
    ['GitLab CI', gitlab],
  ] as const) {
    const text = file.split('\n').map((line) => line.trim());
    const start = text.indexOf(wanted[0]!);
    assert.ok(start >= 0, `${name}: « ${wanted[0]} »`);
    assert.equal(text.slice(start, start + wanted.length), wanted, `${name} runs the commands of docs/ci.md`);
  }
  assert.match(github, /services:\n\s+mariadb:\n\s+image: mariadb:/);
  assert.match(gitlab, /services:\n\s+- name: mariadb:/);
});

test('docs/ci.md commands against the real MariaDB: green, then a drift fails, then an absent server is skipped', async ({ project }) => {
  const { commands } = ciDoc();
  const name = `fw_ci_${randomBytes(5).toString('hex')}`;
  const server = openDatabase({ driver: 'mariadb', ...MARIADB_ADMIN, poolSize: 1 });
  try {
    const job = spawnSync('bash', ['-e', '-c', commands], {
      cwd: project.root,
      encoding: 'utf8',
      timeout: 240_000,
      env: childEnv({
        TEST_DB_HOST: MARIADB_ADMIN.host,
        TEST_DB_PORT: String(MARIADB_ADMIN.port),
        TEST_DB_NAME: name,
        TEST_DB_APP_PWD: randomBytes(12).toString('hex'),
        TEST_DB_ROOT_PWD: MARIADB_ADMIN.password,
      }),
    });
    const jobRun = { status: job.status, stdout: job.stdout, stderr: job.stderr };
    assert.match(project.read('env/dev'), new RegExp(`^DB_DRIVER=mariadb\nDB_NAME=${name}\n`, 'm'));
    assert.match(jobRun.stdout, new RegExp(`créé +base ${name}`));
    assert.match(jobRun.stdout, /appliqué +mvc\/entities\/contact\/contact\.sql/);
    expectStatuses(jobRun, allOk(), 0);

    await server.execute(`ALTER TABLE \`${name}\`.\`contacts\` ADD COLUMN \`Surnom\` VARCHAR(20) NULL`);
    // The drift step's command alone: how the report shows a failed drift step is proven on SQLite above.
    const drift = project.run(['migration:diff', '--all', '--check']);
    assert.is(drift.status, 2, drift.stdout + drift.stderr);
    assert.match(drift.stdout, /Surnom/);

    // No server on that port: the drift check is skipped, the others still run.
    const env = project.read('env/dev');
    const closed = withEdit(
      project,
      'env/dev',
      () => env.replace(/^DB_APP_PORT=.*$/m, 'DB_APP_PORT=1'),
      () => check(project),
    );
    expectStatuses(closed, { ...allOk(), [DRIFT]: 'SKIP' }, 0);
    assert.match(closed.stdout, /\[SKIP\] fw migration:diff --all --check — MariaDB injoignable sur 127\.0\.0\.1:1 \(ECONNREFUSED\)/);

    // A server that accepts the connection and never greets (a paused MariaDB): skipped after 3 s.
    const silent = net.createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as net.AddressInfo).port;
    try {
      const paused = withEdit(
        project,
        'env/dev',
        () => env.replace(/^DB_APP_PORT=.*$/m, `DB_APP_PORT=${port}`),
        () => check(project),
      );
      expectStatuses(paused, { ...allOk(), [DRIFT]: 'SKIP' }, 0);
      assert.match(paused.stdout, new RegExp(`\\[SKIP\\] fw migration:diff --all --check — MariaDB ne répond pas sur 127\\.0\\.0\\.1:${port} en 3 s`));
    } finally {
      await new Promise((resolve) => silent.close(resolve));
    }
  } finally {
    await server.execute(`DROP DATABASE IF EXISTS \`${name}\``);
    for (const host of ['%', 'localhost', '127.0.0.1']) await server.execute('DROP USER IF EXISTS ?@?', [`${name}_app`, host]);
    await server.close();
  }
});

test.run();
