// The auth checks of cli/checks/ as data, run in-process over the context of a real `fw new` project (SQLite, no
// auth yet), then after `fw auth:init` and `fw db:apply`: their ids, family and order, the detail and hint of a
// failure, the report line `reportCheck` makes of them, and one database read shared by the checks that need it.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { AUTH_CHECKS, authCheckCode } from '../cli/checks/auth.js';
import { detailLine, runChecks } from '../cli/checks/check.js';
import { projectContext } from '../cli/checks/context.js';
import { formatCheck, reportCheck } from '../cli/diagnostic-report.js';
import { newProject, type CliProject } from './helpers/cli.js';
import { fwOk } from './helpers/auth-app.js';

const IDS = Array.from({ length: 9 }, (_, i) => `FW-AUTH-00${i + 1}`);
const CODES = ['sql_files', 'routes', 'tables', 'active_user', 'session_store', 'rate_limit_store', 'trusted_proxies', 'argon2', 'totp_secrets'];

const test = suite<{ project: CliProject }>('cli/checks: the auth checks');

// projectContext() loads the project's env file into process.env, as a command does in its own process; here it
// runs in the test process, whose environment the later test files' child processes inherit: it is restored after.
const savedEnv = { ...process.env };

test.before((context) => {
  context.project = newProject('Controles');
  context.project.useSqlite();
});

test.after(async ({ project }) => {
  for (const key of Object.keys(process.env)) if (!(key in savedEnv)) delete process.env[key];
  Object.assign(process.env, savedEnv);
  await project?.cleanup();
});

test('a project without auth: nine results in order, family auth; the failures carry their hint', async ({ project }) => {
  const results = await runChecks(AUTH_CHECKS, projectContext(project.root));
  assert.equal(
    results.map((r) => r.id),
    IDS,
  );
  assert.ok(results.every((r) => r.family === 'auth'));
  assert.equal(
    results.map((r) => authCheckCode(r.id)),
    CODES,
  );
  const [sqlFiles, routes, tables] = results;
  assert.equal(sqlFiles, {
    id: 'FW-AUTH-001',
    family: 'auth',
    label: "Fichiers SQL d'authentification",
    status: 'FAIL',
    detail: 'aucun fichier dans mvc/models/sql/auth/',
    hint: 'lancez « fw auth:init »',
  });
  assert.is(routes!.status, 'FAIL');
  assert.is(routes!.hint, 'lancez « fw auth:init »');
  assert.is(tables!.status, 'FAIL');
  assert.is(detailLine(tables!), "le fichier SQLite storage/database.sqlite n'existe pas encore : « fw db:init » ou « fw db:apply » le crée.");
  assert.is(
    formatCheck(reportCheck(sqlFiles!, authCheckCode(sqlFiles!.id))),
    "  [FAIL] Fichiers SQL d'authentification — aucun fichier dans mvc/models/sql/auth/ : lancez « fw auth:init »",
  );
  assert.equal(reportCheck(results[8]!, 'totp_secrets'), {
    code: 'totp_secrets',
    status: 'SKIP',
    label: 'Secrets TOTP',
    detail: 'table auth_mfa_factors absente ou base non lue',
  });
});

test('after auth:init and db:apply: the tables and the TOTP table are seen, from one database read', async ({ project }) => {
  fwOk(project, ['auth:init']);
  fwOk(project, ['db:apply']);
  const context = projectContext(project.root);
  let reads = 0;
  const once = context.once.bind(context);
  const counted = {
    ...context,
    once<T>(key: string, read: () => Promise<T>): Promise<T> {
      return once(key, () => {
        reads += 1;
        return read();
      });
    },
  };
  const results = await runChecks(AUTH_CHECKS, counted);
  assert.is(reads, 1, 'the tables, the session store and the TOTP secrets share one read');
  const byId = new Map(results.map((r) => [r.id, r]));
  assert.is(byId.get('FW-AUTH-001')!.status, 'OK');
  assert.is(byId.get('FW-AUTH-003')!.detail, '10 tables présentes (SQLite storage/database.sqlite)');
  assert.is(byId.get('FW-AUTH-004')!.status, 'WARN');
  assert.equal(byId.get('FW-AUTH-009'), {
    id: 'FW-AUTH-009',
    family: 'auth',
    label: 'Secrets TOTP',
    status: 'WARN',
    detail: 'auth_mfa_factors.totp_secret est stocké en clair',
    hint: 'protégez la base et ses sauvegardes',
  });
});

test('an unknown id has no code', () => {
  assert.throws(() => authCheckCode('FW-AUTH-999'), /FW-AUTH-999/);
});

test.run();
