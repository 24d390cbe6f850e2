/**
 * `fw mail:doctor` as a real process in a `fw new` project against real servers on 127.0.0.1: every step OK over
 * STARTTLS with AUTH and over implicit TLS; one FAIL at the step that breaks and the next ones SKIP for a refused
 * port, a server that offers no STARTTLS when MAIL_USE_TLS requires it, a wrong password, and a server that never
 * answers (bounded by MAIL_TIMEOUT); bad values; and that it writes nothing (the tree hashed with modes and
 * modification times before and after: no storage/mail, no SQLite file, no mail_log row). `fw doctor` runs the
 * family only when the project uses mail.
 */
import fs from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { newProject, type CliProject } from './helpers/cli.js';
import { fwAsync, setMailEnv, treeState, trustTestCertificate } from './helpers/mail-cli.js';
import { closedPort, startSilentServer, startSmtp } from './helpers/smtp.js';

interface Check {
  id: string;
  status: string;
  detail: string;
  hint?: string;
}

const test = suite('fw mail:doctor');
let p: CliProject;
const env = trustTestCertificate();
const toClose: Array<{ close(): Promise<void> }> = [];

test.before(() => {
  p = newProject('Diagnostic');
  p.useSqlite();
});
test.after.each(async () => {
  for (const item of toClose.splice(0)) await item.close();
});
test.after(async () => {
  await p?.cleanup();
});

const BASE = { MAIL_HOST: '127.0.0.1', MAIL_FROM: 'Diag <app@example.test>', MAIL_TIMEOUT: 2 };

/** `fw mail:doctor --json` and the text report; the tree is unchanged by both. */
async function doctor(values: Record<string, string | number | boolean>): Promise<{ status: number | null; checks: Check[]; text: string; ms: number }> {
  setMailEnv(p, values);
  const before = treeState(p.root);
  const json = await fwAsync(p.root, ['mail:doctor', '--json'], env);
  const text = await fwAsync(p.root, ['mail:doctor'], env);
  assert.equal(treeState(p.root), before, 'mail:doctor wrote nothing');
  assert.not.ok(p.exists('storage/mail'), 'no storage/mail');
  assert.not.ok(p.exists('storage/database.sqlite'), 'no SQLite file');
  assert.is(text.status, json.status);
  assert.not.match(json.stderr + text.stderr, /\n\s+at /);
  const report = JSON.parse(json.stdout) as { command: string; ok: boolean; checks: Check[] };
  assert.is(report.command, 'mail:doctor');
  assert.is(report.ok, json.status === 0);
  assert.is(text.stdout.trimEnd().split('\n').length, report.checks.length + 1);
  return { status: json.status, checks: report.checks, text: text.stdout, ms: json.ms };
}

const smtpSteps = (checks: Check[]) => checks.filter((c) => /^FW-MAIL-00[5-8]$/.test(c.id)).map((c) => `${c.id} ${c.status}`);

test('STARTTLS and AUTH: every SMTP step OK; the password never printed; no message sent', async () => {
  const server = await startSmtp({ tls: 'starttls', auth: { user: 'alice', pass: 's3cret-pw' } });
  toClose.push(server);
  const run = await doctor({ ...BASE, MAIL_PORT: server.port, MAIL_USERNAME: 'alice', MAIL_PASSWORD: 's3cret-pw', MAIL_USE_TLS: true });
  assert.is(run.status, 0, run.text);
  assert.equal(smtpSteps(run.checks), ['FW-MAIL-005 OK', 'FW-MAIL-006 OK', 'FW-MAIL-007 OK', 'FW-MAIL-008 OK']);
  const byId = Object.fromEntries(run.checks.map((c) => [c.id, c]));
  assert.is(byId['FW-MAIL-001']!.status, 'OK');
  assert.match(
    byId['FW-MAIL-001']!.detail,
    new RegExp(`^smtp 127\\.0\\.0\\.1:${server.port} \\(STARTTLS exigé, AUTH alice\\), expéditeur Diag <app@example\\.test>, délai 2 s$`),
  );
  assert.match(byId['FW-MAIL-006']!.detail, /STARTTLS/);
  assert.is(byId['FW-MAIL-007']!.detail, 'session chiffrée (STARTTLS, certificat vérifié)');
  assert.is(byId['FW-MAIL-008']!.detail, 'alice authentifié (235 Authentication successful)');
  assert.is(byId['FW-MAIL-002']!.status, 'WARN', 'no template yet');
  assert.is(byId['FW-MAIL-003']!.status, 'WARN', 'no SQL file yet');
  assert.is(byId['FW-MAIL-004']!.status, 'SKIP', 'no database file');
  assert.not.match(run.text, /s3cret-pw/);
  assert.is(server.dataCount(), 0);
});

test('implicit TLS (MAIL_USE_SSL): the connection is TLS, STARTTLS is SKIP', async () => {
  const server = await startSmtp({ tls: 'implicit' });
  toClose.push(server);
  const run = await doctor({ ...BASE, MAIL_PORT: server.port, MAIL_USE_SSL: true });
  assert.is(run.status, 0, run.text);
  assert.equal(smtpSteps(run.checks), ['FW-MAIL-005 OK', 'FW-MAIL-006 OK', 'FW-MAIL-007 SKIP', 'FW-MAIL-008 SKIP']);
  assert.match(run.checks.find((c) => c.id === 'FW-MAIL-005')!.detail, /TLS implicite \(certificat vérifié\)/);
});

test('a refused port: the connection FAILs with ECONNREFUSED, the next steps SKIP', async () => {
  const run = await doctor({ ...BASE, MAIL_PORT: await closedPort() });
  assert.is(run.status, 1);
  assert.equal(smtpSteps(run.checks), ['FW-MAIL-005 FAIL', 'FW-MAIL-006 SKIP', 'FW-MAIL-007 SKIP', 'FW-MAIL-008 SKIP']);
  const failed = run.checks.find((c) => c.id === 'FW-MAIL-005')!;
  assert.match(failed.detail, /connexion refusée \(ECONNREFUSED\)/);
  assert.match(failed.hint ?? '', /MAIL_HOST et MAIL_PORT/);
  assert.match(run.text, /\[FAIL\] FW-MAIL-005 SMTP : connexion et accueil — connexion à 127\.0\.0\.1:\d+ : connexion refusée/);
});

test('STARTTLS required but not offered: FAIL at STARTTLS, AUTH SKIP; not required: a WARN', async () => {
  const server = await startSmtp({ tls: 'plain' });
  toClose.push(server);
  const required = await doctor({ ...BASE, MAIL_PORT: server.port, MAIL_USE_TLS: true });
  assert.is(required.status, 1);
  assert.equal(smtpSteps(required.checks), ['FW-MAIL-005 OK', 'FW-MAIL-006 OK', 'FW-MAIL-007 FAIL', 'FW-MAIL-008 SKIP']);
  assert.match(required.checks.find((c) => c.id === 'FW-MAIL-007')!.detail, /ne propose pas STARTTLS alors que MAIL_USE_TLS=true/);
  const optional = await doctor({ ...BASE, MAIL_PORT: server.port });
  assert.is(optional.status, 0);
  assert.equal(smtpSteps(optional.checks), ['FW-MAIL-005 OK', 'FW-MAIL-006 OK', 'FW-MAIL-007 WARN', 'FW-MAIL-008 SKIP']);
});

test('a wrong password: FAIL at AUTH with the 535, the password never printed', async () => {
  const server = await startSmtp({ tls: 'starttls', auth: { user: 'alice', pass: 'right' } });
  toClose.push(server);
  const run = await doctor({ ...BASE, MAIL_PORT: server.port, MAIL_USERNAME: 'alice', MAIL_PASSWORD: 'wrong-pw', MAIL_USE_TLS: true });
  assert.is(run.status, 1);
  assert.equal(smtpSteps(run.checks), ['FW-MAIL-005 OK', 'FW-MAIL-006 OK', 'FW-MAIL-007 OK', 'FW-MAIL-008 FAIL']);
  const auth = run.checks.find((c) => c.id === 'FW-MAIL-008')!;
  assert.match(auth.detail, /^authentification de alice refusée : 535 /);
  assert.is(auth.hint, 'vérifiez MAIL_USERNAME et MAIL_PASSWORD');
  assert.not.match(run.text, /wrong-pw/);
});

test('a server that never answers: FAIL after MAIL_TIMEOUT, not later', async () => {
  const silent = await startSilentServer();
  toClose.push(silent);
  const run = await doctor({ ...BASE, MAIL_PORT: silent.port, MAIL_TIMEOUT: 1 });
  assert.is(run.status, 1);
  assert.equal(smtpSteps(run.checks), ['FW-MAIL-005 FAIL', 'FW-MAIL-006 SKIP', 'FW-MAIL-007 SKIP', 'FW-MAIL-008 SKIP']);
  assert.match(run.checks.find((c) => c.id === 'FW-MAIL-005')!.detail, /aucune réponse à l'accueil du serveur en 1 s \(MAIL_TIMEOUT\)/);
  assert.ok(silent.connections() >= 1);
  assert.ok(run.ms < 8000, `bounded by MAIL_TIMEOUT (${run.ms} ms)`);
});

test('bad values: one FAIL per variable, the SMTP steps SKIP; a console transport has no SMTP step', async () => {
  const bad = await doctor({ MAIL_HOST: '127.0.0.1', MAIL_PORT: 'abc', MAIL_FROM: 'pas une adresse', MAIL_USE_TLS: 'oui', MAIL_TIMEOUT: '0' });
  assert.is(bad.status, 1);
  const config = bad.checks.filter((c) => c.id === 'FW-MAIL-001').map((c) => c.detail);
  assert.is(config.length, 4, config.join('\n'));
  assert.ok(config.some((d) => d.startsWith('MAIL_PORT doit être un numéro de port')));
  assert.ok(config.some((d) => d.startsWith('MAIL_USE_TLS doit valoir true ou false (valeur lue : « oui »)')));
  assert.ok(config.some((d) => d.startsWith('MAIL_TIMEOUT doit être un nombre de secondes')));
  assert.ok(config.some((d) => d.startsWith("MAIL_FROM n'est pas une adresse acceptée")));
  assert.equal(smtpSteps(bad.checks), ['FW-MAIL-005 SKIP', 'FW-MAIL-006 SKIP', 'FW-MAIL-007 SKIP', 'FW-MAIL-008 SKIP']);
  const console = await doctor({ MAIL_TRANSPORT: 'console', MAIL_FROM: 'app@example.test' });
  assert.is(console.checks.find((c) => c.id === 'FW-MAIL-005')!.detail, 'MAIL_TRANSPORT=console : aucun serveur SMTP à joindre');
});

test('templates: a syntax error and a missing text part are FAIL naming the file', async () => {
  p.write('mvc/views/mail/casse_subject.txt', 'Sujet {% if %}');
  p.write('mvc/views/mail/casse_text.txt', 'ok');
  p.write('mvc/views/mail/seul_subject.txt', 'Seul');
  try {
    const run = await doctor({ MAIL_TRANSPORT: 'console', MAIL_FROM: 'app@example.test' });
    const templates = run.checks.filter((c) => c.id === 'FW-MAIL-002');
    assert.equal(
      templates.map((c) => c.status),
      ['FAIL', 'FAIL'],
    );
    assert.match(templates[0]!.detail, /^mvc\/views\/mail\/casse_subject\.txt:1:\d+ : /);
    assert.match(templates[1]!.detail, /^mvc\/views\/mail\/seul_text\.txt absent/);
  } finally {
    fs.rmSync(p.path('mvc/views/mail'), { recursive: true, force: true });
  }
});

test('fw doctor: one SKIP when mail is not used; the mail checks when a MAIL_* variable is set', async () => {
  p.write('env/dev', p.read('env/dev').replace(/\nMAIL_[^\n]*/g, ''));
  const plain = await fwAsync(p.root, ['doctor', '--json'], env);
  const mail = (JSON.parse(plain.stdout) as { checks: Check[] }).checks.filter((c) => c.id.startsWith('FW-MAIL-'));
  assert.equal(
    mail.map((c) => `${c.id} ${c.status}`),
    ['FW-MAIL-001 SKIP'],
  );
  const silent = await startSilentServer();
  toClose.push(silent);
  setMailEnv(p, { ...BASE, MAIL_PORT: silent.port, MAIL_TIMEOUT: 1 });
  const configured = await fwAsync(p.root, ['doctor', '--json'], env);
  const ids = (JSON.parse(configured.stdout) as { checks: Check[] }).checks.filter((c) => c.id.startsWith('FW-MAIL-')).map((c) => c.id);
  assert.equal([...new Set(ids)], ['FW-MAIL-001', 'FW-MAIL-002', 'FW-MAIL-003', 'FW-MAIL-004', 'FW-MAIL-005', 'FW-MAIL-006', 'FW-MAIL-007', 'FW-MAIL-008']);
  assert.is(configured.status, 1);
});

test.run();
