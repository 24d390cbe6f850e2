// The security checks (family sec) over a corpus: one real `fw new` project under git, copied once per case and
// given ONE defect (a file tracked, a store, a proxy hint, a certificate, a token, a secret), run as a command
// runs them (a child process, --json shape); each case asserts the exact ids that are not OK, their status and the
// exit code. The OK cases: the new project in dev, and a production environment set up as docs/deploy.md says.
// Each copy is also checked by the command itself, `fw doctor --env <env> --json` (its sec results must be the
// runner's, its exit code 1 exactly on a FAIL), and a few by the text report (`  [FAIL] FW-SEC-008 … — … : …`).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { SEC_DEFINITIONS } from '../cli/checks/sec.js';
import { newProject, type CliProject } from './helpers/cli.js';
import {
  byId,
  copyProject,
  doctor,
  doctorJson,
  expectDoctorAgrees,
  git,
  makeCertificates,
  removeCopy,
  secChecks,
  setEnv,
  textLine,
  type Certificates,
  type SecRun,
} from './helpers/sec-checks.js';

// The line setEnv gives a key it adds to the template's env/example: the line after the template's last one.
const EXAMPLE_LAST_LINE =
  fs
    .readFileSync(path.join(process.cwd(), 'cli', 'templates', 'project', 'env', 'example'), 'utf8')
    .trimEnd()
    .split('\n')
    .filter((line) => !line.startsWith('DB_APP_PWD=')).length + 1;

const LONG = 'a3f9c2e1b7d4058e6f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f70';
const OTHER_LONG = '5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f70a3f9c2e1b7d4058e6f1a2b3c4d';

const test = suite<{ project: CliProject; certs: Certificates }>('diagnostics: the security checks, one defect per project');

/** env/prod as a production set-up should be: stores in the database, proxy listed, secrets long, HTTPS valid. */
function goodProd(root: string, certs: Certificates): void {
  const dev = fs.readFileSync(path.join(root, 'env', 'dev'), 'utf8');
  fs.writeFileSync(path.join(root, 'env', 'prod'), dev.replace(/^APP_ENV=dev$/m, 'APP_ENV=prod'));
  setEnv(path.join(root, 'env', 'prod'), {
    SESSION_STORE: 'database',
    RATE_LIMIT_STORE: 'database',
    TRUSTED_PROXIES: '127.0.0.1',
    APP_SECRET: LONG,
    API_TOKEN: OTHER_LONG,
    SSL_CERTFILE: certs.valid.cert,
    SSL_KEYFILE: certs.valid.key,
  });
  // Secret files are readable by their owner only (FW-SEC-011).
  fs.chmodSync(path.join(root, 'env', 'prod'), 0o600);
}

test.before((context) => {
  context.certs = makeCertificates();
  context.project = newProject('Securite');
  git(context.project.root, ['init', '-q']);
  goodProd(context.project.root, context.certs);
  git(context.project.root, ['add', '-A']);
  git(context.project.root, ['commit', '-q', '-m', 'fw new']);
});

test.after(async ({ project, certs }) => {
  await project?.cleanup();
  if (certs) fs.rmSync(certs.dir, { recursive: true, force: true });
});

/** The ids whose status is not OK, SKIP or INFO, with their status. */
function problems(run: SecRun): Record<string, string> {
  return Object.fromEntries(run.report.checks.filter((check) => check.status === 'WARN' || check.status === 'FAIL').map((check) => [check.id, check.status]));
}

/** A copy of the project given `defect`, checked for `appEnv` by the runner and by `fw doctor` (and its text when asked); the copy is removed afterwards. */
function withDefect(
  project: CliProject,
  appEnv: string,
  defect: (root: string) => void,
  extra: Record<string, string> = {},
  text = false,
): SecRun & { doctor: SecRun; text?: string } {
  const root = copyProject(project.root);
  try {
    defect(root);
    const run = secChecks(root, appEnv, extra);
    const doctorRun = doctorJson(root, appEnv, extra);
    expectDoctorAgrees(run, doctorRun, appEnv);
    return { ...run, doctor: doctorRun, ...(text ? { text: doctor(root, appEnv, extra, false).stdout } : {}) };
  } finally {
    removeCopy(root);
  }
}

const prodEnv = (root: string, values: Record<string, string>): void => setEnv(path.join(root, 'env', 'prod'), values);

test('every definition has a unique FW-SEC id, numbered from 001, family sec, a French label', () => {
  assert.equal(
    SEC_DEFINITIONS.map((d) => d.id),
    Array.from({ length: 11 }, (_, i) => `FW-SEC-${String(i + 1).padStart(3, '0')}`),
  );
  assert.ok(SEC_DEFINITIONS.every((d) => d.family === 'sec' && d.label.length > 0));
});

test('OK: the new project in dev has no warning and no failure; what is production-only is SKIP', ({ project }) => {
  const run = secChecks(project.root);
  expectDoctorAgrees(run, doctorJson(project.root, 'dev'), 'dev');
  assert.is(run.status, 0, run.stderr);
  assert.equal(problems(run), {});
  assert.is(run.report.env, 'dev');
  assert.equal(
    run.report.checks.map((check) => check.id),
    SEC_DEFINITIONS.map((d) => d.id),
  );
  for (const id of ['FW-SEC-002', 'FW-SEC-003', 'FW-SEC-004', 'FW-SEC-005']) assert.is(byId(run.report, id).status, 'SKIP', id);
  assert.is(byId(run.report, 'FW-SEC-001').status, 'OK');
  assert.match(byId(run.report, 'FW-SEC-001').detail!, /ignoré/);
});

test('OK: production set up (stores in the database, proxy listed, secrets, HTTPS valid) is all OK', ({ project }) => {
  const run = secChecks(project.root, 'prod');
  assert.is(run.status, 0, run.stderr);
  const doctorRun = doctorJson(project.root, 'prod');
  expectDoctorAgrees(run, doctorRun, 'prod');
  assert.is(doctorRun.status, 0);
  assert.equal(problems(run), {});
  assert.ok(
    run.report.checks.every((check) => check.status === 'OK'),
    JSON.stringify(run.report.checks),
  );
  assert.is(run.report.summary.ok, 11);
  assert.match(byId(run.report, 'FW-SEC-007').detail!, /dans 36[45] jours/);
});

test('SKIP: outside a git repository FW-SEC-001 says why', ({ project }) => {
  const run = withDefect(project, 'dev', (root) => fs.rmSync(path.join(root, '.git'), { recursive: true }));
  assert.is(byId(run.report, 'FW-SEC-001').status, 'SKIP');
  assert.is(byId(run.report, 'FW-SEC-001').detail, "le projet n'est pas dans un dépôt git");
  assert.is(run.status, 0);
});

interface Case {
  readonly name: string;
  readonly env: 'dev' | 'prod' | 'staging';
  readonly defect: (root: string, certs: Certificates) => void;
  readonly expect: Record<string, 'WARN' | 'FAIL'>;
  readonly detail?: RegExp;
  readonly extra?: Record<string, string>;
  /** The file (and line) the result names. */
  readonly at?: { file: string; line?: number };
  /** Also run `fw doctor --env <env>` (text) and find the result's line in it. */
  readonly text?: true;
}

const CASES: readonly Case[] = [
  {
    name: 'env/dev tracked by git',
    env: 'dev',
    defect: (root) => git(root, ['add', '-f', 'env/dev']),
    expect: { 'FW-SEC-001': 'FAIL' },
    detail: /env\/dev est versionné/,
    at: { file: 'env/dev' },
  },
  {
    name: 'env/prod tracked by git, checked for prod',
    env: 'prod',
    defect: (root) => {
      git(root, ['add', '-f', 'env/prod']);
      git(root, ['commit', '-q', '-m', 'oups']);
    },
    expect: { 'FW-SEC-001': 'FAIL' },
    detail: /env\/prod est versionné/,
  },
  {
    name: 'env/staging tracked by git, checked for staging',
    env: 'staging',
    defect: (root) => {
      fs.copyFileSync(path.join(root, 'env', 'dev'), path.join(root, 'env', 'staging'));
      git(root, ['add', '-f', 'env/staging']);
    },
    expect: { 'FW-SEC-001': 'FAIL' },
    detail: /env\/staging est versionné/,
    at: { file: 'env/staging' },
  },
  {
    name: 'env/dev not ignored by .gitignore',
    env: 'dev',
    defect: (root) => fs.writeFileSync(path.join(root, '.gitignore'), fs.readFileSync(path.join(root, '.gitignore'), 'utf8').replace(/^env\/dev$/m, '')),
    expect: { 'FW-SEC-001': 'WARN' },
    detail: /env\/dev n'est pas ignoré/,
  },
  {
    name: 'SESSION_STORE=memory in prod',
    env: 'prod',
    defect: (root) => prodEnv(root, { SESSION_STORE: 'memory' }),
    expect: { 'FW-SEC-002': 'FAIL' },
    text: true,
  },
  { name: 'SESSION_STORE unset in prod (memory)', env: 'prod', defect: (root) => prodEnv(root, { SESSION_STORE: '' }), expect: { 'FW-SEC-002': 'FAIL' } },
  {
    name: 'SESSION_STORE unknown in prod',
    env: 'prod',
    defect: (root) => prodEnv(root, { SESSION_STORE: 'memcached' }),
    expect: { 'FW-SEC-002': 'FAIL' },
    detail: /redis.*refuse de démarrer/,
  },
  { name: 'RATE_LIMIT_STORE=memory in prod', env: 'prod', defect: (root) => prodEnv(root, { RATE_LIMIT_STORE: 'memory' }), expect: { 'FW-SEC-003': 'FAIL' } },
  {
    name: 'TRUSTED_PROXIES unset with HOST on the loopback',
    env: 'prod',
    defect: (root) => prodEnv(root, { TRUSTED_PROXIES: '' }),
    expect: { 'FW-SEC-004': 'WARN' },
    detail: /HOST=127\.0\.0\.1/,
  },
  {
    name: 'TRUSTED_PROXIES unset with deploy/nginx/site.conf',
    env: 'prod',
    defect: (root) => {
      prodEnv(root, { TRUSTED_PROXIES: '', HOST: '0.0.0.0' });
      fs.mkdirSync(path.join(root, 'deploy', 'nginx'), { recursive: true });
      fs.writeFileSync(path.join(root, 'deploy', 'nginx', 'site.conf'), 'location / { proxy_pass http://127.0.0.1:8000; }\n');
    },
    expect: { 'FW-SEC-004': 'WARN' },
    detail: /deploy\/nginx\/site\.conf/,
  },
  {
    name: 'TRUSTED_PROXIES unset with a BEHIND_PROXY variable',
    env: 'prod',
    defect: (root) => prodEnv(root, { TRUSTED_PROXIES: '', HOST: '0.0.0.0', BEHIND_PROXY: '1' }),
    expect: { 'FW-SEC-004': 'WARN' },
    detail: /BEHIND_PROXY/,
  },
  {
    name: 'TRUSTED_PROXIES with an entry that is not an address',
    env: 'prod',
    defect: (root) => prodEnv(root, { TRUSTED_PROXIES: 'proxy.local' }),
    expect: { 'FW-SEC-004': 'FAIL' },
    detail: /proxy\.local/,
  },
  {
    name: 'SSL_CERTFILE names a missing file',
    env: 'prod',
    defect: (root) => prodEnv(root, { SSL_CERTFILE: 'certs/absent.crt' }),
    expect: { 'FW-SEC-005': 'FAIL' },
    detail: /certs\/absent\.crt : fichier introuvable/,
  },
  {
    name: 'SSL_KEYFILE set without SSL_CERTFILE',
    env: 'prod',
    defect: (root) => prodEnv(root, { SSL_CERTFILE: '' }),
    expect: { 'FW-SEC-005': 'FAIL' },
    detail: /SSL_KEYFILE est défini sans SSL_CERTFILE/,
  },
  {
    name: 'SSL_KEYFILE unreadable (a symbolic link loop)',
    env: 'prod',
    defect: (root) => {
      fs.symlinkSync('boucle.key', path.join(root, 'boucle.key'));
      prodEnv(root, { SSL_KEYFILE: 'boucle.key' });
    },
    expect: { 'FW-SEC-005': 'FAIL' },
    detail: /boucle\.key : boucle de liens symboliques/,
  },
  {
    name: 'SSL_CERTFILE is a FIFO (never read, never waited on)',
    env: 'prod',
    defect: (root) => {
      fs.mkdirSync(path.join(root, 'certs'));
      execFileSync('mkfifo', [path.join(root, 'certs', 'tube.crt')]);
      prodEnv(root, { SSL_CERTFILE: 'certs/tube.crt' });
    },
    expect: { 'FW-SEC-005': 'FAIL' },
    detail: /certs\/tube\.crt n'est pas un fichier/,
  },
  {
    name: 'SSL_CERTFILE is not a certificate',
    env: 'prod',
    defect: (root) => {
      fs.writeFileSync(path.join(root, 'faux.crt'), 'pas un certificat\n');
      prodEnv(root, { SSL_CERTFILE: 'faux.crt' });
    },
    expect: { 'FW-SEC-005': 'FAIL' },
    detail: /faux\.crt n'est pas un certificat PEM/,
  },
  {
    name: 'SSL_KEYFILE encrypted by a passphrase',
    env: 'prod',
    defect: (root, certs) => prodEnv(root, { SSL_KEYFILE: certs.encryptedKey }),
    expect: { 'FW-SEC-005': 'FAIL' },
    detail: /phrase secrète/,
  },
  {
    name: 'the key does not match the certificate',
    env: 'prod',
    defect: (root, certs) => prodEnv(root, { SSL_KEYFILE: certs.otherKey }),
    expect: { 'FW-SEC-006': 'FAIL' },
    detail: /ne correspond pas/,
  },
  {
    name: 'the certificate expires in 5 days',
    env: 'prod',
    defect: (root, certs) => prodEnv(root, { SSL_CERTFILE: certs.expiring.cert, SSL_KEYFILE: certs.expiring.key }),
    expect: { 'FW-SEC-007': 'WARN' },
    detail: /dans [45] jour\(s\)/,
    text: true,
  },
  {
    name: 'the certificate has expired',
    env: 'prod',
    defect: (root, certs) => prodEnv(root, { SSL_CERTFILE: certs.expired.cert, SSL_KEYFILE: certs.expired.key }),
    expect: { 'FW-SEC-007': 'FAIL' },
    detail: /expiré depuis le 2020-02-01/,
  },
  {
    name: 'API_TOKEN shorter than 32 characters',
    env: 'dev',
    defect: (root) => setEnv(path.join(root, 'env', 'dev'), { API_TOKEN: 'abc123' }),
    expect: { 'FW-SEC-008': 'FAIL' },
    detail: /6 caractère\(s\), moins de 32/,
    text: true,
  },
  {
    name: 'API_TOKEN short in the process environment for prod',
    env: 'prod',
    defect: () => undefined,
    extra: { API_TOKEN: 'x'.repeat(31) },
    expect: { 'FW-SEC-008': 'FAIL' },
  },
  {
    name: 'env/example gives a real-looking secret',
    env: 'dev',
    defect: (root) => setEnv(path.join(root, 'env', 'example'), { DB_APP_PWD: 'Kq8zT2vLm9xR4wPb' }),
    expect: { 'FW-SEC-009': 'WARN' },
    detail: /donne une valeur à DB_APP_PWD/,
    text: true,
    at: { file: 'env/example', line: EXAMPLE_LAST_LINE }, // the last line: setEnv moves the key there
  },
  {
    name: "env/example gives production's API_TOKEN",
    env: 'prod',
    defect: (root) => setEnv(path.join(root, 'env', 'example'), { API_TOKEN: OTHER_LONG }),
    expect: { 'FW-SEC-009': 'FAIL' },
    detail: /valeur de production de API_TOKEN/,
  },
  {
    name: 'env/example: a password inside a URL',
    env: 'dev',
    defect: (root) => setEnv(path.join(root, 'env', 'example'), { DATABASE_URL: 'mysql://app:Hz7pQ2rT9k@db.internal/app' }),
    expect: { 'FW-SEC-009': 'WARN' },
    detail: /DATABASE_URL/,
  },
  {
    name: 'APP_SECRET shorter than the runtime accepts',
    env: 'dev',
    defect: (root) => setEnv(path.join(root, 'env', 'dev'), { APP_SECRET: 'trop-court' }),
    expect: { 'FW-SEC-010': 'FAIL' },
    detail: /10 caractère\(s\), moins de 32/,
  },
  {
    name: 'APP_SECRET unset in prod',
    env: 'prod',
    defect: (root) => prodEnv(root, { APP_SECRET: '' }),
    expect: { 'FW-SEC-010': 'WARN' },
    detail: /non défini en production/,
  },
  {
    name: 'APP_SECRET of 40 × the same character',
    env: 'prod',
    defect: (root) => prodEnv(root, { APP_SECRET: 'a'.repeat(40) }),
    expect: { 'FW-SEC-010': 'FAIL' },
    detail: /n'a que 1 caractère\(s\) différent\(s\) sur 40, moins de 8/,
    text: true,
  },
  {
    name: 'env/prod readable by everyone',
    env: 'prod',
    defect: (root) => fs.chmodSync(path.join(root, 'env', 'prod'), 0o644),
    expect: { 'FW-SEC-011': 'FAIL' },
    detail: /env\/prod \(0644\).*chmod 600 env\/prod/,
    text: true,
    at: { file: 'env/prod', line: undefined },
  },
  {
    name: 'the SQLite file readable by its group',
    env: 'prod',
    defect: (root) => {
      fs.mkdirSync(path.join(root, 'storage'), { recursive: true });
      fs.writeFileSync(path.join(root, 'storage', 'database.sqlite'), '', { mode: 0o640 });
      fs.chmodSync(path.join(root, 'storage', 'database.sqlite'), 0o640);
    },
    expect: { 'FW-SEC-011': 'FAIL' },
    detail: /storage\/database\.sqlite \(0640\)/,
  },
];

for (const one of CASES) {
  test(`${Object.entries(one.expect)
    .map(([id, status]) => `${status} ${id}`)
    .join(', ')}: ${one.name}`, ({ project, certs }) => {
    const run = withDefect(project, one.env, (root) => one.defect(root, certs), one.extra, one.text);
    assert.equal(problems(run), one.expect, JSON.stringify(run.report.checks, null, 1));
    const failing = Object.values(one.expect).includes('FAIL');
    assert.is(run.status, failing ? 1 : 0, run.stderr);
    assert.is(run.report.ok, !failing);
    const [id] = Object.keys(one.expect);
    const found = byId(run.report, id!);
    assert.is(found.family, 'sec');
    if (one.detail) assert.match(`${found.detail} : ${found.hint ?? ''}`, one.detail);
    assert.ok(found.hint, `${id} says what to do`);
    if (one.at) assert.equal({ file: found.file, line: found.line }, { file: one.at.file, line: one.at.line });
    assert.not.match(JSON.stringify(run.report), /Kq8zT2vLm9xR4wPb|Hz7pQ2rT9k|abc123|trop-court/, 'no secret value in the report');
    assert.not.match(JSON.stringify(run.doctor.report), /Kq8zT2vLm9xR4wPb|Hz7pQ2rT9k|abc123|trop-court/, 'no secret value in the doctor report');
    if (one.text) {
      const lines = run.text!.split('\n');
      const line = textLine(found);
      assert.ok(line.startsWith(`  ${`[${one.expect[id!]}]`.padEnd(7)}${id} ${found.label} — `), line); // `  [FAIL] FW-SEC-008 Label — `
      assert.ok(lines.includes(line), `« ${line} » in\n${run.text}`);
      const { warn, fail } = run.doctor.report.summary;
      assert.is(lines.filter(Boolean).at(-1), `${warn} avertissement(s), ${fail} erreur(s).`);
      assert.not.match(run.text!, /Kq8zT2vLm9xR4wPb|abc123/, 'no secret value in the text');
    }
  });
}

test.run();
