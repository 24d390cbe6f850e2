// `fw deploy:init` through the one writer (dry run, nothing overwritten without --force, env/prod never) and
// `fw deploy:check --json` with its FW-DEPLOY ids after the doctor's, run as processes in a fresh project.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { STATIC_SECURITY_HEADERS, buildCspHeader } from '../runtime/security/headers.js';
import { newProject, type CliProject } from './helpers/cli.js';

let project: CliProject | undefined;

test.after(async () => {
  await project?.cleanup();
});

test('deploy:init --dry-run writes nothing; deploy:init writes the four files and the backup units', () => {
  project = newProject('Vitrine');
  const dry = project.run(['deploy:init', '--dry-run', '--domain', 'vitrine.example.org']);
  assert.is(dry.status, 0, dry.stderr);
  assert.match(dry.stdout, 'Simulation (--dry-run)');
  assert.not.ok(project.exists('deploy/nginx/vitrine.conf'));
  assert.not.ok(project.exists('env/prod'));
  const run = project.run(['deploy:init', '--domain', 'vitrine.example.org']);
  assert.is(run.status, 0, run.stderr);
  for (const file of ['deploy/nginx/vitrine.conf', 'deploy/systemd/vitrine.service', 'README_DEPLOY.md', 'env/prod']) assert.ok(project.exists(file), file);
  // The nightly backup (docs/deploy.md "Backups"); test/backup.test.ts runs the units through systemd-analyze verify.
  assert.match(project.read('deploy/systemd/vitrine-backup.service'), 'backup:create --keep 14\n');
  assert.match(project.read('deploy/systemd/vitrine-backup.timer'), 'Unit=vitrine-backup.service\n');
  const site = project.read('deploy/nginx/vitrine.conf');
  assert.match(site, 'listen 443 ssl http2;');
  assert.match(site, 'ssl_certificate /etc/letsencrypt/live/vitrine.example.org/fullchain.pem;');
  assert.match(site, 'server_name vitrine.example.org;');
  assert.match(site, 'client_max_body_size 22m;');
  assert.match(site, 'ssl_protocols TLSv1.2 TLSv1.3;');
  for (const [name, value] of [...STATIC_SECURITY_HEADERS, ['Content-Security-Policy', buildCspHeader()] as const]) {
    assert.match(site, `add_header ${name} "${value}" always;`);
  }
  const prod = project.read('env/prod');
  assert.match(prod, /^APP_ENV=prod$/m);
  assert.match(prod, /^TRUSTED_PROXIES=127\.0\.0\.1\b/m);
  assert.match(prod, /^APP_SECRET=[0-9a-f]{64}$/m);
  const unit = project.read('deploy/systemd/vitrine.service');
  assert.match(unit, `WorkingDirectory=${project.root}\n`);
  assert.match(unit, `ReadWritePaths=${project.root}/storage\n`);
  assert.match(unit, /^ExecStart=\/\S+ --max-semi-space-size=8 dist\/app\.js$/m);
  // systemctl reload: the primary's rolling restart; the stop is ordered by the primary (docs/deploy.md "Releases").
  assert.match(unit, 'ExecReload=/bin/kill -HUP $MAINPID\n');
  assert.match(unit, 'KillMode=mixed\n');
  assert.match(unit, `Environment=APP_DIR=${project.root}\n`);
  assert.match(project.read('README_DEPLOY.md'), 'npx fw deploy:rollback --root /srv/vitrine');
});

test('an edited file is kept without --force and rewritten with it; env/prod never', () => {
  assert.ok(project);
  project.write('deploy/nginx/vitrine.conf', '# à moi\n');
  project.write('env/prod', 'APP_ENV=prod\n');
  const kept = project.run(['deploy:init', '--domain', 'vitrine.example.org']);
  assert.is(kept.status, 0, kept.stderr);
  assert.match(kept.stdout, /ignoré\s+deploy\/nginx\/vitrine\.conf/);
  assert.is(project.read('deploy/nginx/vitrine.conf'), '# à moi\n');
  assert.match(kept.stdout, 'TRUSTED_PROXIES=127.0.0.1');
  const forced = project.run(['deploy:init', '--domain', 'vitrine.example.org', '--force']);
  assert.is(forced.status, 0, forced.stderr);
  assert.match(project.read('deploy/nginx/vitrine.conf'), 'listen 443 ssl http2;');
  assert.is(project.read('env/prod'), 'APP_ENV=prod\n');
});

test('deploy:check --json: the doctor checks for prod, then FW-DEPLOY-001…008; exit 1 without a build', () => {
  assert.ok(project);
  const check = project.run(['deploy:check', '--json']);
  assert.is(check.status, 1, check.stderr);
  const report = JSON.parse(check.stdout) as { command: string; env: string; checks: Array<{ id: string; status: string; detail: string }> };
  assert.is(report.command, 'deploy:check');
  assert.is(report.env, 'prod');
  const ids = report.checks.map((c) => c.id);
  assert.ok(ids.includes('FW-SEC-002') && ids.indexOf('FW-SEC-002') < ids.indexOf('FW-DEPLOY-001'));
  for (let n = 1; n <= 8; n++) assert.ok(ids.includes(`FW-DEPLOY-00${n}`), `FW-DEPLOY-00${n}`);
  const byId = new Map(report.checks.map((c) => [c.id, c]));
  assert.is(byId.get('FW-DEPLOY-001')!.status, 'FAIL');
  assert.is(byId.get('FW-DEPLOY-006')!.status, 'FAIL', 'env/prod without TRUSTED_PROXIES');
  assert.match(byId.get('FW-DEPLOY-006')!.detail, 'TRUSTED_PROXIES');
});

test('deploy:check silences an id given to --skip or in fw.config.json, like doctor', () => {
  assert.ok(project);
  project.write('fw.config.json', '{ "silenced_checks": ["FW-DEPLOY-006"] }\n');
  const check = project.run(['deploy:check', '--json', '--skip', 'FW-DEPLOY-001']);
  const checks = (JSON.parse(check.stdout) as { checks: Array<{ id: string; status: string; detail: string }> }).checks;
  const byId = new Map(checks.map((c) => [c.id, c]));
  assert.is(byId.get('FW-DEPLOY-001')!.status, 'SKIP');
  assert.match(byId.get('FW-DEPLOY-001')!.detail, 'réduit au silence par --skip (FAIL');
  assert.is(byId.get('FW-DEPLOY-006')!.status, 'SKIP');
  assert.match(byId.get('FW-DEPLOY-006')!.detail, 'fw.config.json');
});

test.run();
