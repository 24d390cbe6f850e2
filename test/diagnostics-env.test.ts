// Corpus of the `env` family: a real `fw new` project copied and given one defect per case; the id, status and exit
// code asserted in `--json` and in text.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fw } from './helpers/cli.js';
import { corpusBase, corpusTests, expectCase, type CorpusCase } from './helpers/diagnostics.js';

const test = suite<{ base: ReturnType<typeof corpusBase> }>('diagnostics: env');

test.before((context) => {
  context.base = corpusBase('EnvCorpus');
});
test.after(async ({ base }) => {
  await base?.cleanup();
});

const editPackage = (edit: (data: Record<string, unknown>) => void) => (copy: { read(r: string): string; write(r: string, c: string): void }) => {
  const data = JSON.parse(copy.read('package.json'));
  edit(data);
  copy.write('package.json', JSON.stringify(data, null, 2));
};

const CASES: CorpusCase[] = [
  {
    name: 'engines.node above this Node',
    command: 'doctor',
    defect: editPackage((d) => (d.engines = { node: '>=99' })),
    id: 'FW-ENV-001',
    status: 'FAIL',
    exit: 1,
    detail: '>=99',
  },
  {
    name: 'engines.node unreadable',
    command: 'doctor',
    defect: editPackage((d) => (d.engines = { node: 'latest' })),
    id: 'FW-ENV-001',
    status: 'WARN',
    exit: 0,
  },
  {
    name: 'env/dev absent',
    command: 'project:check',
    defect: (c) => c.remove('env/dev'),
    id: 'FW-ENV-002',
    status: 'WARN',
    exit: 0,
    detail: 'env/dev est absent',
  },
  {
    name: 'env/dev with an unclosed quote',
    command: 'doctor',
    defect: (c) => c.write('env/dev', `${c.read('env/dev')}\nAPP_NAME="Demo\n`),
    id: 'FW-ENV-002',
    status: 'FAIL',
    exit: 1,
    detail: 'env/dev, ligne',
    more: (check) => assert.is(check.file, 'env/dev'),
  },
  {
    name: 'env/dev is a folder',
    command: 'project:check',
    defect: (c) => (c.remove('env/dev'), c.write('env/dev/x', '')),
    id: 'FW-ENV-002',
    status: 'FAIL',
    exit: 1,
  },
  {
    name: 'DB_DRIVER=oracle',
    command: 'doctor',
    defect: (c) => c.write('env/dev', c.read('env/dev').replace('DB_DRIVER=sqlite', 'DB_DRIVER=oracle')),
    id: 'FW-ENV-003',
    status: 'FAIL',
    exit: 1,
    detail: 'DB_DRIVER',
  },
  {
    name: 'PORT=huit',
    command: 'project:check',
    defect: (c) => c.write('env/dev', c.read('env/dev').replace('PORT=8000', 'PORT=huit')),
    id: 'FW-ENV-003',
    status: 'FAIL',
    exit: 1,
    detail: 'PORT',
  },
  {
    name: 'SESSION_STORE=memcached',
    command: 'doctor',
    defect: (c) => c.write('env/dev', `${c.read('env/dev')}\nSESSION_STORE=memcached\n`),
    id: 'FW-ENV-003',
    status: 'FAIL',
    exit: 1,
    detail: 'SESSION_STORE',
  },
  {
    name: 'mariadb without DB_APP_LOGIN',
    command: 'doctor',
    defect: (c) =>
      c.write(
        'env/dev',
        c
          .read('env/dev')
          .replace('DB_DRIVER=sqlite', 'DB_DRIVER=mariadb')
          .replace(/DB_APP_LOGIN=\w+/, 'DB_APP_LOGIN='),
      ),
    id: 'FW-ENV-003',
    status: 'FAIL',
    exit: 1,
    detail: 'DB_APP_LOGIN',
  },
  {
    name: 'APP_TIMEZONE unknown',
    command: 'doctor',
    defect: (c) => c.write('env/dev', `${c.read('env/dev')}\nAPP_TIMEZONE=Mars/Olympus\n`),
    id: 'FW-ENV-003',
    status: 'FAIL',
    exit: 1,
    detail: 'APP_TIMEZONE',
  },
  {
    name: 'a key of env/example missing',
    command: 'project:check',
    defect: (c) => c.write('env/dev', c.read('env/dev').replace(/^API_TOKEN=.*$/m, '')),
    id: 'FW-ENV-004',
    status: 'WARN',
    exit: 0,
    detail: 'API_TOKEN',
  },
];

corpusTests(test, CASES);

test('the good project: every env result OK, in doctor, project:check and project:audit', ({ base }) => {
  for (const command of ['doctor', 'project:check', 'project:audit'] as const) {
    const { report } = expectCase(base.project.root, base.scratch, { name: 'good', command, defect: () => {}, id: 'FW-ENV-002', status: 'OK', exit: 0 });
    assert.equal(
      report.checks.filter((c) => c.family === 'env').map((c) => `${c.id} ${c.status}`),
      ['FW-ENV-001 OK', 'FW-ENV-002 OK', 'FW-ENV-003 OK', 'FW-ENV-004 OK'],
    );
  }
});

test('--env prod reads env/prod: absent is a WARN naming it, the report says which env', ({ base }) => {
  const { report } = expectCase(base.project.root, base.scratch, {
    name: '--env',
    command: 'project:check',
    defect: () => {},
    id: 'FW-ENV-002',
    status: 'OK',
    exit: 0,
  });
  assert.is(report.env, 'dev');
  const run = fw(base.project.root, ['project:check', '--json', '--env', 'prod']);
  const prod = JSON.parse(run.stdout);
  assert.is(prod.env, 'prod');
  assert.is(run.status, 0);
  assert.ok(prod.checks.find((c: { id: string }) => c.id === 'FW-ENV-002').detail.startsWith('env/prod est absent'));
});

test.run();
