// `fw backup:create` and `fw backup:restore` on SQLite and MariaDB: rows created over HTTP and a file in
// storage/uploads are backed up while the application runs, restored into a FRESH project (same entities, db:init,
// db:apply) which is then served and lists the rows; a restore over data needs --force; a backup whose file does not
// match its manifest is refused with nothing written. Then the systemd units of the nightly backup through
// `systemd-analyze verify`.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { backupServiceUnit, backupTimerUnit } from '../cli/deploy/systemd.js';
import type { DialectName } from '../runtime/db/index.js';
import type { CliProject } from './helpers/cli.js';
import { HttpClient, buildCrudApp, serveProject, startCrudApp } from './helpers/crud-app.js';

const PHOTO = Buffer.from('\x89PNG\r\n\x1a\n-une-photo-de-test-', 'binary');

function sha(file: string): string {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/** Every file of a folder with its sha256 (what a refused restore must leave as it was). */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!fs.existsSync(dir)) return out;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) out[path.relative(dir, path.join(entry.parentPath, entry.name))] = sha(path.join(entry.parentPath, entry.name));
  }
  return out;
}

for (const dialect of ['sqlite', 'mariadb'] as DialectName[]) {
  const t = suite(`backup (${dialect})`);
  const cleanups: Array<() => Promise<void>> = [];
  t.after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  t('backup of a running app, restored into a fresh project that serves the rows; --force; a corrupted backup refused', async () => {
    const app = await startCrudApp(dialect);
    cleanups.push(() => app.stop());
    const client = new HttpClient(app.url);
    assert.is((await client.post('/villes', [['nom', 'Valence']])).status, 302);
    const created = await client.post('/contacts', [
      ['nom', 'Sauvegardé'],
      ['prenom', 'Zoé'],
      ['email', `zoe-${dialect}@exemple.fr`],
    ]);
    assert.is(created.status, 302, created.text.slice(0, 600));
    fs.mkdirSync(app.project.path('storage/uploads/images/2026'), { recursive: true });
    fs.writeFileSync(app.project.path('storage/uploads/images/2026/photo.png'), PHOTO);

    const made = app.project.run(['backup:create']);
    assert.is(made.status, 0, made.stderr);
    const dir = /Sauvegarde écrite : (\S+)/.exec(made.stdout)![1]!;
    assert.ok(dir.startsWith(app.project.path('storage/backups/')), dir);
    assert.equal(
      fs.readdirSync(app.project.path('storage/backups')).filter((name) => name.startsWith('.')),
      [],
      'no temporary folder left',
    );
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as {
      format_version: number;
      dialect: string;
      files: Array<{ path: string; size: number; sha256: string }>;
    };
    assert.is(manifest.format_version, 1);
    assert.is(manifest.dialect, dialect);
    const database = dialect === 'sqlite' ? 'database.sqlite' : 'database.sql';
    assert.equal(manifest.files.map((file) => file.path).sort(), [database, 'uploads/.gitkeep', 'uploads/images/2026/photo.png'].sort());
    for (const file of manifest.files) assert.is(file.sha256, sha(path.join(dir, file.path)), file.path);
    if (dialect === 'mariadb') assert.match(fs.readFileSync(path.join(dir, database), 'utf8'), /INSERT INTO `contacts`/);

    const fresh: CliProject = buildCrudApp(dialect);
    cleanups.push(() => fresh.cleanup());
    // A corrupted copy first: refused, naming the file, nothing written.
    const broken = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-backup-broken-'));
    cleanups.push(async () => fs.rmSync(broken, { recursive: true, force: true }));
    fs.cpSync(dir, broken, { recursive: true });
    const photo = path.join(broken, 'uploads/images/2026/photo.png');
    fs.writeFileSync(photo, Buffer.concat([PHOTO, Buffer.from('!')]));
    const before = { storage: tree(fresh.path('storage')) };
    const refused = fresh.run(['backup:restore', broken, '--force']);
    assert.is(refused.status, 1, refused.stdout);
    assert.match(refused.stderr, /^Erreur : uploads\/images\/2026\/photo\.png ne correspond pas au manifeste/m);
    assert.equal({ storage: tree(fresh.path('storage')) }, before, 'nothing written by a refused restore');

    const restored = fresh.run(['backup:restore', dir]);
    assert.is(restored.status, 0, restored.stderr);
    assert.match(restored.stdout, '2 fichier(s)');
    assert.ok(PHOTO.equals(fs.readFileSync(fresh.path('storage/uploads/images/2026/photo.png'))));
    const served = await serveProject(fresh);
    try {
      const list = await new HttpClient(served.url).get('/contacts');
      assert.is(list.status, 200);
      assert.match(list.text, 'Sauvegardé');
      assert.match((await new HttpClient(served.url).get('/villes')).text, 'Valence');
    } finally {
      const exited = new Promise((resolve) => served.child.once('exit', resolve));
      served.child.kill('SIGTERM');
      await exited;
    }

    // The fresh project now holds rows: a second restore needs --force.
    const again = fresh.run(['backup:restore', dir]);
    assert.is(again.status, 1, again.stdout);
    assert.match(again.stderr, 'contacts');
    assert.match(again.stderr, '--force');
    const forced = fresh.run(['backup:restore', dir, '--force']);
    assert.is(forced.status, 0, forced.stderr);

    // A backup that fails half-way (the database cannot be read) leaves nothing in storage/backups/.
    const failing: Record<string, string> = dialect === 'sqlite' ? { DB_FILE: 'storage/absente.sqlite' } : { DB_NAME: 'fw_backup_absente' };
    const failed = app.project.run(['backup:create'], { env: failing });
    assert.is(failed.status, 1, failed.stdout);
    assert.match(failed.stderr, /^Erreur : /m);
    assert.equal(fs.readdirSync(app.project.path('storage/backups')), [path.basename(dir)], 'nothing left by a failed backup');
    // --keep 1: the new backup is kept, the older one removed.
    const pruned = app.project.run(['backup:create', '--keep', '1']);
    assert.is(pruned.status, 0, pruned.stderr);
    assert.match(pruned.stdout, `Supprimées (au-delà de --keep 1) : ${path.basename(dir)}`);
    const left = fs.readdirSync(app.project.path('storage/backups'));
    assert.is(left.length, 1);
    assert.is.not(left[0], path.basename(dir));
  });

  t.run();
}

const S = suite('backup systemd units');

S('<app>-backup.service and <app>-backup.timer: oneshot fw backup:create, daily, Persistent; systemd-analyze verify', () => {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fw-backup-units-')));
  try {
    fs.mkdirSync(path.join(dir, 'storage'));
    const service = backupServiceUnit({ app: 'sauvapp', root: dir, user: 'sauvapp', node: process.execPath });
    const timer = backupTimerUnit('sauvapp');
    assert.match(service, 'Type=oneshot\n');
    assert.match(service, `ExecStart=${process.execPath} ${dir}/node_modules/.bin/fw backup:create --keep 14\n`);
    assert.match(service, `ReadWritePaths=${dir}/storage\n`);
    assert.match(service, 'ProtectSystem=strict\n');
    assert.match(timer, 'Persistent=true\n');
    assert.match(timer, 'Unit=sauvapp-backup.service\n');
    const files = [path.join(dir, 'sauvapp-backup.service'), path.join(dir, 'sauvapp-backup.timer')];
    fs.writeFileSync(files[0]!, service);
    fs.writeFileSync(files[1]!, timer);
    const verify = spawnSync('systemd-analyze', ['verify', ...files], { encoding: 'utf8' });
    assert.not.ok(verify.error, 'systemd-analyze is installed (.ci/run)');
    const complaints = `${verify.stdout}${verify.stderr}`
      .split('\n')
      .filter((line) => line.trim() !== '')
      // The service's user is created on the server (README_DEPLOY.md), and fw is installed by npm ci there.
      .filter((line) => !/User=|Group=|sauvapp|node_modules/.test(line) || /Unknown|unknown|Invalid|invalid|Failed/.test(line));
    assert.is(verify.status, 0, `${verify.stdout}${verify.stderr}`);
    assert.equal(complaints, []);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

S.run();
