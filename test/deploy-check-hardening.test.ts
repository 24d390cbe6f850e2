/**
 * What `fw deploy:init` and `fw deploy:check` refuse, run as processes in a fresh project (docs/deploy.md,
 * docs/diagnostics.md): the service as root; env/prod and the SQLite file created 0600, and a secret file readable
 * by others a FAIL of deploy:check and doctor (FW-SEC-011); TRUSTED_PROXIES believing everyone, HOST on every
 * interface, an APP_SECRET of one repeated character, APP_URL missing or in http:// while password reset is
 * installed, a unit running as root; and `nginx -t` over a hostile site (logs and temporary paths outside the
 * project, `include /etc/shadow;`) that creates nothing outside its temporary folder and shows nothing it includes;
 * a site with nginx's default time-outs warned (FW-DEPLOY-012).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { nginxBinary } from '../cli/deploy/nginx-inspect.js';
import { openDatabase } from '../runtime/db/index.js';
import { newProject, type CliProject } from './helpers/cli.js';

interface Check {
  readonly id: string;
  readonly status: string;
  readonly detail: string;
  readonly hint?: string;
}

const test = suite<{ project: CliProject; outside: string }>('deploy:check : secrets, adresses, service et nginx -t sans effet hors du projet');

test.before((context) => {
  context.project = newProject('Rempart');
  context.outside = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-h3-outside-'));
});

test.after(async ({ project, outside }) => {
  await project?.cleanup();
  if (outside) fs.rmSync(outside, { recursive: true, force: true });
});

const mode = (file: string): number => fs.statSync(file).mode & 0o777;

function deployCheck(project: CliProject): { status: number | null; stdout: string; checks: Map<string, Check> } {
  const run = project.run(['deploy:check', '--json']);
  const checks = (JSON.parse(run.stdout) as { checks: Check[] }).checks;
  return { status: run.status, stdout: run.stdout, checks: new Map(checks.map((check) => [check.id, check])) };
}

/** Sets `KEY=value` in env/prod (replacing the key's line, or appending it); the file keeps its mode. */
function setProd(project: CliProject, values: Record<string, string>): void {
  let text = project.read('env/prod');
  for (const [key, value] of Object.entries(values)) {
    const line = new RegExp(`^${key}=.*$`, 'm');
    text = line.test(text) ? text.replace(line, `${key}=${value}`) : `${text.trimEnd()}\n${key}=${value}\n`;
  }
  project.write('env/prod', text);
}

test('deploy:init --user root is refused, nothing written', ({ project }) => {
  const run = project.run(['deploy:init', '--user', 'root']);
  assert.is(run.status, 1);
  assert.match(run.stderr, /^Erreur : le service ne tourne pas en root/m);
  assert.match(run.stderr, /^Conseil : un utilisateur système dédié, par exemple « --user rempart »/m);
  assert.not.ok(project.exists('deploy'));
  assert.not.ok(project.exists('env/prod'));
});

test('env/prod and the SQLite file are created 0600; a secret file readable by others fails deploy:check and doctor', ({ project }) => {
  const init = project.run(['auth:init', '--password-reset']);
  assert.is(init.status, 0, init.stderr);
  const deploy = project.run(['deploy:init', '--domain', 'rempart.example.org']);
  assert.is(deploy.status, 0, deploy.stderr);
  assert.is(mode(project.path('env/prod')), 0o600, 'env/prod');
  assert.match(project.read('env/prod'), /^APP_URL=https:\/\/rempart\.example\.org\b/m);
  const db = project.run(['db:init'], { env: { APP_ENV: 'prod' } });
  assert.is(db.status, 0, db.stderr);
  const sqlite = project.path('storage/database.sqlite');
  assert.is(mode(sqlite), 0o600, 'the SQLite file');
  for (const side of ['-wal', '-shm']) if (fs.existsSync(sqlite + side)) assert.is(mode(sqlite + side), 0o600, side);

  let found = deployCheck(project).checks.get('FW-SEC-011')!;
  assert.is(found.status, 'OK', JSON.stringify(found));
  assert.match(found.detail, 'env/prod');
  assert.match(found.detail, 'storage/database.sqlite');

  fs.chmodSync(project.path('env/prod'), 0o644);
  fs.chmodSync(sqlite, 0o640);
  const check = deployCheck(project);
  assert.is(check.status, 1);
  found = check.checks.get('FW-SEC-011')!;
  assert.is(found.status, 'FAIL');
  assert.match(found.detail, 'env/prod (0644)');
  assert.match(found.detail, 'storage/database.sqlite (0640)');
  assert.match(found.hint!, 'chmod 600 env/prod storage/database.sqlite');
  const doctor = project.run(['doctor', '--env', 'prod', '--json']);
  assert.is(doctor.status, 1);
  const fromDoctor = (JSON.parse(doctor.stdout) as { checks: Check[] }).checks.find((c) => c.id === 'FW-SEC-011');
  assert.is(fromDoctor?.status, 'FAIL');
  fs.chmodSync(project.path('env/prod'), 0o600);
  fs.chmodSync(sqlite, 0o600);
  assert.is(deployCheck(project).checks.get('FW-SEC-011')!.status, 'OK');
});

test('the runtime creates a SQLite file 0600, and SQLite its -wal and -shm alike; an existing file keeps its mode', async ({ outside }) => {
  const file = path.join(outside, 'nouvelle.sqlite');
  const db = openDatabase({ driver: 'sqlite', file });
  try {
    await db.execute('CREATE TABLE t (x INTEGER)');
    await db.execute('INSERT INTO t (x) VALUES (1)');
    for (const one of [file, `${file}-wal`, `${file}-shm`]) assert.is(mode(one), 0o600, one);
  } finally {
    await db.close();
  }
  const existing = path.join(outside, 'ancienne.sqlite');
  fs.writeFileSync(existing, '', { mode: 0o640 });
  fs.chmodSync(existing, 0o640);
  const old = openDatabase({ driver: 'sqlite', file: existing });
  try {
    await old.execute('CREATE TABLE t (x INTEGER)');
  } finally {
    await old.close();
  }
  assert.is(mode(existing), 0o640, 'not changed behind its owner: FW-SEC-011 reports it');
  for (const name of fs.readdirSync(outside)) fs.rmSync(path.join(outside, name));
});

test('TRUSTED_PROXIES with 0.0.0.0/0 fails, HOST=0.0.0.0 behind nginx warns (FW-DEPLOY-009)', ({ project }) => {
  assert.is(deployCheck(project).checks.get('FW-DEPLOY-009')!.status, 'OK');
  setProd(project, { TRUSTED_PROXIES: '127.0.0.1,0.0.0.0/0' });
  let found = deployCheck(project).checks.get('FW-DEPLOY-009')!;
  assert.is(found.status, 'FAIL');
  assert.match(found.detail, '0.0.0.0/0');
  assert.match(found.hint!, 'TRUSTED_PROXIES=127.0.0.1');
  setProd(project, { TRUSTED_PROXIES: '127.0.0.1, ::/0' });
  assert.is(deployCheck(project).checks.get('FW-DEPLOY-009')!.status, 'FAIL', '::/0');
  setProd(project, { TRUSTED_PROXIES: '127.0.0.1,10.0.0.0/8', HOST: '0.0.0.0' });
  found = deployCheck(project).checks.get('FW-DEPLOY-009')!;
  assert.is(found.status, 'WARN', JSON.stringify(found));
  assert.match(found.detail, 'HOST=0.0.0.0');
  assert.match(found.hint!, 'HOST=127.0.0.1');
  setProd(project, { TRUSTED_PROXIES: '127.0.0.1', HOST: '127.0.0.1' });
  assert.is(deployCheck(project).checks.get('FW-DEPLOY-009')!.status, 'OK');
});

test('APP_SECRET of 40 × a fails FW-SEC-010; APP_URL missing or http:// fails FW-DEPLOY-010 with password reset', ({ project }) => {
  const secret = project.read('env/prod').match(/^APP_SECRET=(.*)$/m)![1]!;
  setProd(project, { APP_SECRET: 'a'.repeat(40) });
  let found = deployCheck(project).checks.get('FW-SEC-010')!;
  assert.is(found.status, 'FAIL');
  assert.match(found.detail, "n'a que 1 caractère(s) différent(s) sur 40");
  assert.match(found.hint!, 'openssl rand -hex 32');
  setProd(project, { APP_SECRET: 'ab'.repeat(20) });
  assert.is(deployCheck(project).checks.get('FW-SEC-010')!.status, 'FAIL', 'abab…');
  setProd(project, { APP_SECRET: secret });
  assert.is(deployCheck(project).checks.get('FW-SEC-010')!.status, 'OK');

  assert.is(deployCheck(project).checks.get('FW-DEPLOY-010')!.status, 'OK');
  setProd(project, { APP_URL: '' });
  const again = project.run(['deploy:init', '--domain', 'rempart.example.org']);
  assert.match(again.stdout, "À faire : env/prod n'a pas d'APP_URL ; ajoutez-y APP_URL=https://rempart.example.org");
  found = deployCheck(project).checks.get('FW-DEPLOY-010')!;
  assert.is(found.status, 'FAIL');
  assert.match(found.detail, "aucun lien n'est envoyé");
  assert.match(found.hint!, 'APP_URL=https://');
  setProd(project, { APP_URL: 'http://rempart.example.org' });
  found = deployCheck(project).checks.get('FW-DEPLOY-010')!;
  assert.is(found.status, 'FAIL');
  assert.match(found.hint!, 'APP_URL=https://rempart.example.org');
  setProd(project, { APP_URL: 'https://rempart.example.org' });
  assert.is(deployCheck(project).checks.get('FW-DEPLOY-010')!.status, 'OK');
});

test('a unit with User=root fails FW-DEPLOY-008', ({ project }) => {
  const unit = 'deploy/systemd/rempart.service';
  const text = project.read(unit);
  project.write(unit, text.replace(/^User=.*$/m, 'User=root'));
  const found = deployCheck(project).checks.get('FW-DEPLOY-008')!;
  assert.is(found.status, 'FAIL');
  assert.match(found.detail, 'User=root : le service tournerait en root');
  project.write(unit, text);
});

test("a site with nginx's default time-outs, or without retries on time-out, warns (FW-DEPLOY-012)", ({ project }) => {
  const file = 'deploy/nginx/rempart.conf';
  const text = project.read(file);
  const found = (): Check => deployCheck(project).checks.get('FW-DEPLOY-012')!;
  try {
    const ok = found();
    assert.is(ok.status, 'OK', ok.detail);
    assert.match(ok.detail, 'connexion 2s, lecture 15s');
    project.write(file, text.replace(/^\s*proxy_connect_timeout .*$/m, '').replace('proxy_read_timeout 15s;', 'proxy_read_timeout 2m;'));
    const defaults = found();
    assert.is(defaults.status, 'WARN');
    assert.match(defaults.detail, 'proxy_connect_timeout absent (60 s par défaut)');
    assert.match(defaults.detail, 'proxy_read_timeout 2m au-delà de 60 s');
    assert.match(defaults.hint ?? '', 'fw deploy:init --force');
    project.write(file, text.replace('proxy_read_timeout 15s;', 'proxy_read_timeout "1m 30s";'));
    assert.match(found().detail, 'proxy_read_timeout "1m 30s" au-delà de 60 s');
    project.write(file, text.replace(/proxy_next_upstream [^;]+;/, 'proxy_next_upstream http_502;'));
    assert.match(found().detail, 'proxy_next_upstream sans error ni timeout');
    // A location's own longer read time-out (a slow export) is the user's choice: the server's lines are read.
    project.write(file, text.replace('location ^~ /media/ {', 'location ^~ /media/ {\n        proxy_read_timeout 300s;'));
    assert.ok(project.read(file).includes('proxy_read_timeout 300s;'));
    const ownLocation = found();
    assert.is(ownLocation.status, 'OK', ownLocation.detail);
    assert.match(ownLocation.detail, 'lecture 15s');
  } finally {
    project.write(file, text);
  }
});

test('nginx -t over a hostile site writes nothing outside its temporary folder, and shows nothing it includes', ({ project, outside }) => {
  if (!nginxBinary()) {
    console.log('nginx absent: nginx -t not exercised');
    return;
  }
  const site = 'deploy/nginx/rempart.conf';
  const secret = path.join(outside, 'secret.conf');
  fs.writeFileSync(secret, 'marqueur_secret_h3 on;\n');
  const hostile = [
    `error_log ${outside}/error.log;`,
    `proxy_cache_path "${outside}/cache" keys_zone=rempart_cache:1m;`,
    'server {',
    '    listen 127.0.0.1:9;',
    `    client_body_temp_path ${outside}/body 1 2;`,
    `    access_log ${outside}/access.log combined;`,
    `    error_log "${outside}/server-error.log" debug;`,
    `    proxy_temp_path ${outside}/proxy;`,
    '    location / { return 200 "ok"; }',
    '}',
    '',
  ].join('\n');
  project.write(site, hostile);
  let found = deployCheck(project).checks.get('FW-DEPLOY-007')!;
  assert.is(found.status, 'OK', JSON.stringify(found));
  assert.equal(fs.readdirSync(outside), ['secret.conf'], 'nothing created outside the temporary folder');

  project.write(site, `${hostile}bogus_directive on;\n`);
  found = deployCheck(project).checks.get('FW-DEPLOY-007')!;
  assert.is(found.status, 'FAIL');
  assert.match(found.detail, `unknown directive "bogus_directive" in ${site}:11`);
  assert.not.match(found.detail, os.tmpdir(), 'the temporary copy is not named');

  project.write(site, `${hostile}include /etc/shadow;\ninclude ${secret};\n`);
  const check = deployCheck(project);
  found = check.checks.get('FW-DEPLOY-007')!;
  assert.is(found.status, 'WARN');
  assert.match(found.detail, `le site inclut /etc/shadow, ${secret}, que deploy:check ne lit pas`);
  assert.not.match(check.stdout, 'marqueur_secret_h3', 'the included file is not shown');
  const shadow = fs.readFileSync('/etc/shadow', 'utf8').split('\n')[0]!;
  assert.not.match(check.stdout, shadow, 'nor /etc/shadow');
  assert.equal(fs.readdirSync(outside), ['secret.conf']);

  // Certificate files are read by nginx (that is what it tests), never shown.
  project.write(
    site,
    ['server {', '    listen 127.0.0.1:9 ssl;', '    ssl_certificate /etc/shadow;', '    ssl_certificate_key /etc/shadow;', '}', ''].join('\n'),
  );
  const certificate = deployCheck(project);
  found = certificate.checks.get('FW-DEPLOY-007')!;
  assert.is(found.status, 'FAIL');
  assert.match(found.detail, '/etc/shadow');
  assert.not.match(certificate.stdout, shadow, 'the file nginx read is not shown');

  fs.rmSync(project.path(site));
  fs.symlinkSync(secret, project.path(site));
  found = deployCheck(project).checks.get('FW-DEPLOY-006')!;
  assert.is(found.status, 'FAIL');
  assert.match(found.detail, 'mène hors du projet');
  assert.not.match(deployCheck(project).stdout, 'marqueur_secret_h3');
});

test.run();
