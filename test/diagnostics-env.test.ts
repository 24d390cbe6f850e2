// Corpus of the `env` family: a real `fw new` project copied and given one defect per case; the id, status and exit
// code asserted in `--json` and in text.
import os from 'node:os';
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

/** Lines added at the end of env/dev. */
const appendEnv =
  (...lines: string[]) =>
  (copy: { read(r: string): string; write(r: string, c: string): void }) =>
    copy.write('env/dev', `${copy.read('env/dev')}\n${lines.join('\n')}\n`);

/** The result points at env/dev and its hint holds `hint`. */
const inEnvDev = (hint: string) => (check: { file?: string; hint?: string }) => {
  assert.is(check.file, 'env/dev');
  assert.ok(check.hint?.includes(hint), `hint « ${check.hint} » holds « ${hint} »`);
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
  {
    name: 'WEB_CONCURRENCY=beaucoup',
    command: 'doctor',
    defect: appendEnv('WEB_CONCURRENCY=beaucoup'),
    id: 'FW-ENV-005',
    status: 'FAIL',
    exit: 1,
    detail: 'WEB_CONCURRENCY vaut « beaucoup » : un nombre de processus (1 à 1024) ou « auto » (un par cœur)',
    more: inEnvDev('écrivez WEB_CONCURRENCY=1, un nombre de processus ou auto ; corrigez env/dev : le serveur refuse de démarrer'),
  },
  {
    name: 'WEB_CONCURRENCY=0',
    command: 'project:check',
    defect: appendEnv('WEB_CONCURRENCY=0'),
    id: 'FW-ENV-005',
    status: 'FAIL',
    exit: 1,
    detail: 'WEB_CONCURRENCY vaut « 0 »',
  },
  {
    name: 'WEB_CONCURRENCY=2 with the memory stores',
    command: 'project:check',
    defect: appendEnv('WEB_CONCURRENCY=2', 'SESSION_STORE=memory'),
    id: 'FW-ENV-005',
    status: 'FAIL',
    exit: 1,
    detail:
      'WEB_CONCURRENCY=2 : 2 processus se partageraient les sessions (SESSION_STORE=memory : choisissez redis, database, ou file sur une seule machine) ' +
      'et les limites de tentatives (RATE_LIMIT_STORE=memory : choisissez redis ou database) ; chacun aurait les siens. Configurez un stockage partagé, ou WEB_CONCURRENCY=1',
    more: inEnvDev('corrigez env/dev : le serveur refuse de démarrer'),
  },
  {
    name: 'WEB_CONCURRENCY=3, sessions on redis, limits in memory',
    command: 'doctor',
    defect: appendEnv('WEB_CONCURRENCY=3', 'SESSION_STORE=redis'),
    id: 'FW-ENV-005',
    status: 'FAIL',
    exit: 1,
    detail: /^WEB_CONCURRENCY=3 : 3 processus se partageraient les limites de tentatives \(RATE_LIMIT_STORE=memory/,
  },
  {
    name: 'WEB_CONCURRENCY=auto with the memory stores',
    command: 'doctor',
    defect: appendEnv('WEB_CONCURRENCY=auto'),
    id: 'FW-ENV-005',
    // auto is one process per core of this machine: a refusal only where there are several.
    ...(os.availableParallelism() > 1
      ? {
          status: 'FAIL',
          exit: 1,
          detail: `WEB_CONCURRENCY=auto, ${os.availableParallelism()} cœurs sur cette machine ; WEB_CONCURRENCY=${os.availableParallelism()} : `,
        }
      : { status: 'OK', exit: 0, detail: 'WEB_CONCURRENCY=auto, 1 cœur sur cette machine ; 1 processus' }),
  },
  {
    name: 'WEB_CONCURRENCY=2 with shared stores',
    command: 'project:check',
    defect: appendEnv('WEB_CONCURRENCY=2', 'SESSION_STORE=redis', 'RATE_LIMIT_STORE=database'),
    id: 'FW-ENV-005',
    status: 'OK',
    exit: 0,
    detail: '2 processus : sessions redis, limites de tentatives database',
    more: (_check, { report }) => {
      const redis = report.checks.find((c) => c.id === 'FW-ENV-006')!;
      assert.is(redis.status, 'WARN', 'the default key prefix');
      assert.ok(
        redis.detail.startsWith('127.0.0.1:6379 (REDIS_URL absent : valeur par défaut) pour SESSION_STORE=redis ; préfixe des clés fw: (celui par défaut)'),
        redis.detail,
      );
    },
  },
  {
    name: 'WEB_CONCURRENCY=2 with a WORKER_TIMEOUT that is no number of seconds',
    command: 'doctor',
    defect: appendEnv('WEB_CONCURRENCY=2', 'SESSION_STORE=redis', 'RATE_LIMIT_STORE=redis', 'WORKER_TIMEOUT=30s'),
    id: 'FW-ENV-005',
    status: 'FAIL',
    exit: 1,
    detail: 'WORKER_TIMEOUT vaut « 30s » : un nombre de secondes (30 par défaut, 0 pour ne pas surveiller les processus)',
    more: inEnvDev('écrivez WORKER_TIMEOUT=30 (secondes) ; corrigez env/dev : le serveur refuse de démarrer'),
  },
  {
    name: 'WEB_CONCURRENCY=2 with an unknown session store',
    command: 'doctor',
    defect: appendEnv('WEB_CONCURRENCY=2', 'SESSION_STORE=memcached'),
    id: 'FW-ENV-005',
    status: 'SKIP',
    exit: 1,
    detail: '2 processus ; stockage inconnu (FW-ENV-003)',
    more: (_check, { report }) => assert.ok(report.checks.some((c) => c.id === 'FW-ENV-003' && c.status === 'FAIL' && c.detail.includes('SESSION_STORE'))),
  },
  {
    name: 'SESSION_STORE=redis with an http:// REDIS_URL',
    command: 'doctor',
    defect: appendEnv('SESSION_STORE=redis', 'REDIS_URL=http://cache.internal:6379'),
    id: 'FW-ENV-006',
    status: 'FAIL',
    exit: 1,
    detail:
      'SESSION_STORE=redis ; REDIS_URL vaut « http://cache.internal:6379 » : une adresse Redis redis://hôte:port/base (rediss:// pour TLS), par exemple redis://127.0.0.1:6379/0',
    more: inEnvDev('corrigez env/dev : le serveur refuse de démarrer'),
  },
  {
    name: 'both stores on redis, a REDIS_URL with a password and no database number',
    command: 'project:check',
    defect: appendEnv('SESSION_STORE=redis', 'RATE_LIMIT_STORE=redis', 'REDIS_URL=redis://app:s3cr3t-Pw@cache.internal:6379/sessions'),
    id: 'FW-ENV-006',
    status: 'FAIL',
    exit: 1,
    detail: 'SESSION_STORE=redis, RATE_LIMIT_STORE=redis ; REDIS_URL vaut « redis://app:***@cache.internal:6379/sessions »',
    more: (_check, { text }) => {
      assert.not.ok(text.stdout.includes('s3cr3t'), 'the password is not printed');
    },
  },
  {
    name: 'RATE_LIMIT_STORE=redis with a rediss:// REDIS_URL and a prefix of its own',
    command: 'doctor',
    defect: appendEnv('RATE_LIMIT_STORE=redis', 'REDIS_URL=rediss://cache.internal:6380/2', 'REDIS_PREFIX=facturation:'),
    id: 'FW-ENV-006',
    status: 'OK',
    exit: 0,
    detail: 'cache.internal:6380 pour RATE_LIMIT_STORE=redis ; préfixe des clés facturation:',
  },
  {
    name: 'SESSION_STORE=redis on the default prefix fw: (REDIS_PREFIX unset, or set to it)',
    command: 'doctor',
    defect: appendEnv('SESSION_STORE=redis', 'REDIS_PREFIX=fw:'),
    id: 'FW-ENV-006',
    status: 'WARN',
    exit: 0,
    detail:
      'pour SESSION_STORE=redis ; préfixe des clés fw: (celui par défaut) : toute autre application de ce serveur Redis restée sur ce préfixe partage ces clés',
    more: inEnvDev("REDIS_PREFIX=<nom de l'application>: dans env/dev, un préfixe par application"),
  },
  {
    name: 'an unreadable REDIS_URL no store uses',
    command: 'project:check',
    defect: appendEnv('REDIS_URL=nimporte'),
    id: 'FW-ENV-006',
    status: 'OK',
    exit: 0,
    detail: 'non utilisé : ni SESSION_STORE ni RATE_LIMIT_STORE ne vaut redis',
  },
];

corpusTests(test, CASES);

test('the good project: every env result OK, in doctor, project:check and project:audit', ({ base }) => {
  for (const command of ['doctor', 'project:check', 'project:audit'] as const) {
    const { report } = expectCase(base.project.root, base.scratch, { name: 'good', command, defect: () => {}, id: 'FW-ENV-002', status: 'OK', exit: 0 });
    assert.equal(
      report.checks.filter((c) => c.family === 'env').map((c) => `${c.id} ${c.status}`),
      ['FW-ENV-001 OK', 'FW-ENV-002 OK', 'FW-ENV-003 OK', 'FW-ENV-004 OK', 'FW-ENV-005 OK', 'FW-ENV-006 OK'],
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
