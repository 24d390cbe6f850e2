// The security checks are read-only and inert: over a good production set-up and over a project full of bad input
// (env/dev tracked, a symbolic link loop under deploy/, a FIFO as certificate, a binary and a 2 MB env/example,
// a git fsmonitor hook that would write a file), the whole tree, .git included, hashes the same (mtimes too) before
// and after, the hook never runs, and every bad input is a result naming its file, never a stack trace. Then the
// rules as functions: placeholders and secrets of env/example, the days left on a certificate.
import { X509Certificate } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { isPlaceholder, realSecrets } from '../cli/checks/sec-secrets.js';
import { expiryResult } from '../cli/checks/sec-tls.js';
import { SEC_CHECK_DEFINITIONS } from '../cli/checks/sec.js';
import { newProject, type CliProject } from './helpers/cli.js';
import { byId, copyProject, git, makeCertificates, removeCopy, secChecks, setEnv, treeDigest, type Certificates } from './helpers/sec-checks.js';

const LONG = 'a3f9c2e1b7d4058e6f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f70';

const test = suite<{ project: CliProject; certs: Certificates }>('diagnostics: the security checks write nothing and run nothing');

test.before((context) => {
  context.certs = makeCertificates();
  context.project = newProject('Inerte');
  git(context.project.root, ['init', '-q']);
  git(context.project.root, ['add', '-A']);
  git(context.project.root, ['commit', '-q', '-m', 'fw new']);
});

test.after(async ({ project, certs }) => {
  await project?.cleanup();
  if (certs) fs.rmSync(certs.dir, { recursive: true, force: true });
});

test('a good production set-up: the tree (with .git, mtimes included) is the same after the checks', ({ project, certs }) => {
  const root = copyProject(project.root);
  try {
    fs.writeFileSync(path.join(root, 'env', 'prod'), 'APP_ENV=prod\nDB_DRIVER=sqlite\nDB_FILE=storage/database.sqlite\n');
    setEnv(path.join(root, 'env', 'prod'), {
      SESSION_STORE: 'file',
      RATE_LIMIT_STORE: 'database',
      TRUSTED_PROXIES: '127.0.0.1',
      APP_SECRET: LONG,
      SSL_CERTFILE: certs.valid.cert,
      SSL_KEYFILE: certs.valid.key,
    });
    fs.chmodSync(path.join(root, 'env', 'prod'), 0o600);
    const before = treeDigest(root);
    const certBefore = treeDigest(certs.dir);
    for (const appEnv of ['dev', 'prod']) {
      const run = secChecks(root, appEnv);
      assert.is(run.status, 0, run.stderr);
      assert.is(run.stderr, '');
    }
    assert.is(treeDigest(root), before);
    assert.is(treeDigest(certs.dir), certBefore);
    assert.not.ok(fs.existsSync(path.join(root, 'storage', 'sessions', '.app_secret')), 'the runtime would create it; the check does not');
    assert.not.ok(fs.existsSync(path.join(root, 'storage', 'database.sqlite')));
  } finally {
    removeCopy(root);
  }
});

test('bad input: each problem a result naming its file, no stack trace, nothing written, no hook run', ({ project }) => {
  const root = copyProject(project.root);
  try {
    const hookRan = path.join(path.dirname(root), 'fsmonitor-ran');
    const hook = path.join(path.dirname(root), 'fsmonitor.sh');
    fs.writeFileSync(hook, `#!/bin/sh\ntouch '${hookRan}'\n`, { mode: 0o755 });
    git(root, ['add', '-f', 'env/dev']);
    git(root, ['config', 'core.fsmonitor', hook]);
    fs.mkdirSync(path.join(root, 'deploy'));
    fs.symlinkSync('.', path.join(root, 'deploy', 'boucle'));
    fs.symlinkSync('boucle-b', path.join(root, 'deploy', 'boucle-a'));
    fs.symlinkSync('boucle-a', path.join(root, 'deploy', 'boucle-b'));
    execFileSync('mkfifo', [path.join(root, 'tube.crt')]);
    fs.symlinkSync('boucle.key', path.join(root, 'boucle.key'));
    fs.writeFileSync(path.join(root, 'env', 'prod'), `APP_ENV=prod\nSSL_CERTFILE=tube.crt\nSSL_KEYFILE=boucle.key\nAPI_TOKEN=${LONG}\n`);
    const cases: Array<[string, Buffer, RegExp]> = [
      ['binary', Buffer.from([0x41, 0x3d, 0x00, 0xff, 0xfe, 0x0a]), /env\/example est un fichier binaire/],
      ['2 MB', Buffer.alloc(2 * 1024 * 1024, 'A=1\n'), /env\/example pèse 2097152 octets/],
      ['unclosed quote', Buffer.from('APP_NAME=demo\nAPI_TOKEN="abc\n'), /^env\/example, ligne 2 : guillemet fermant " manquant$/],
    ];
    for (const [name, example, message] of cases) {
      fs.writeFileSync(path.join(root, 'env', 'example'), example);
      const before = treeDigest(root);
      const run = secChecks(root, 'prod');
      assert.is(treeDigest(root), before, `${name}: nothing written`);
      assert.is(run.stderr, '', name);
      assert.is(run.status, 1, name);
      assert.is(byId(run.report, 'FW-SEC-001').status, 'FAIL', name);
      assert.is(byId(run.report, 'FW-SEC-001').file, 'env/dev');
      const tls = byId(run.report, 'FW-SEC-005');
      assert.is(tls.status, 'FAIL');
      assert.match(tls.detail!, /SSL_CERTFILE=tube\.crt n'est pas un fichier/);
      assert.match(tls.detail!, /SSL_KEYFILE=boucle\.key : boucle de liens symboliques/);
      const example_ = byId(run.report, 'FW-SEC-009');
      assert.is(example_.status, 'FAIL', name);
      assert.is(example_.file, 'env/example');
      assert.match(example_.detail!, message);
      assert.is(byId(run.report, 'FW-SEC-004').status, 'WARN', 'the loop under deploy/ is not followed; HOST unset is the loopback');
    }
    assert.not.ok(fs.existsSync(hookRan), "the repository's fsmonitor hook never runs");
    git(root, ['status', '--porcelain']);
    assert.ok(fs.existsSync(hookRan), 'the hook is live: git status runs it');
  } finally {
    removeCopy(root);
  }
});

test('env/example rules: placeholders are not secrets; a real-looking value under a secret name is', () => {
  for (const value of [
    '',
    'changeme',
    'change-me',
    '<jeton>',
    '${APP_SECRET}',
    'xxxxxxxxxxxx',
    '********',
    'your-api-key',
    'votre_mot_de_passe',
    'à définir',
    '...',
  ]) {
    assert.ok(isPlaceholder(value), value);
  }
  for (const value of ['Kq8zT2vLm9xR4wPb', LONG, 'hunter2']) assert.not.ok(isPlaceholder(value), value);
  assert.equal(
    realSecrets({
      API_TOKEN: LONG,
      DB_APP_PWD: 'hunter2',
      APP_SECRET: 'changeme',
      SSL_KEYFILE: '/etc/ssl/private/site.key',
      DB_APP_LOGIN: 'app',
      STRIPE_KEY: 'sk_live_51Hx9',
      DATABASE_URL: 'mysql://app:Hz7pQ2rT9k@db/app',
      OTHER_URL: 'mysql://app:changeme@db/app',
      APP_NAME: 'Kq8zT2vLm9xR4wPb',
    }),
    ['API_TOKEN', 'DB_APP_PWD', 'STRIPE_KEY', 'DATABASE_URL'],
  );
});

test('certificate expiry: FAIL once expired or not yet valid, WARN under 14 days, OK from 14', ({ certs }) => {
  const certificate = new X509Certificate(fs.readFileSync(certs.valid.cert));
  const validTo = new Date(certificate.validTo).getTime();
  const day = 24 * 60 * 60 * 1000;
  const at = (time: number) => expiryResult(SEC_CHECK_DEFINITIONS.tlsExpiry, certificate, new Date(time));
  assert.is(at(validTo - 14 * day).status, 'OK');
  assert.is(at(validTo - 14 * day + 1).status, 'WARN');
  assert.match(at(validTo - 13 * day).detail!, /dans 13 jour\(s\)/);
  assert.is(at(validTo - 1).status, 'WARN');
  assert.is(at(validTo).status, 'FAIL');
  assert.match(at(validTo + day).detail!, /^expiré depuis le /);
  assert.is(at(new Date(certificate.validFrom).getTime() - day).status, 'FAIL');
  assert.match(at(new Date(certificate.validFrom).getTime() - day).detail!, /pas encore valide/);
});

test.run();
