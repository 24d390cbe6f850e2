/**
 * `fw deploy:release` and `fw deploy:rollback` (docs/deploy.md "Releases"), run as processes on a deploy folder:
 * the layout (storage and env/prod linked to shared/), a failed build or migration leaving `current` as it was and
 * no folder behind, --keep, the switch of `current` seen by a reader that never finds it missing, the unit of a
 * release layout through `systemd-analyze verify`; then a primary with two workers started in `current` as systemd
 * starts it, under load while a release and a rollback reload it by SIGHUP (as ExecReload does): no request fails,
 * and the workers serve the code and the folder of the release `current` names.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { switchCurrent, layout } from '../cli/deploy/releases.js';
import { systemdUnit } from '../cli/deploy/systemd.js';
import { FW, childEnv } from './helpers/cli.js';
import { plainRequest, waitFor } from './helpers/cluster.js';
import { dropRedisPrefix, rawRedis, redisTestPrefix } from './helpers/session-backends.js';

const HERE = path.dirname(new URL(import.meta.url).pathname);
const RUNTIME_URL = pathToFileURL(path.resolve(HERE, '../runtime/index.js')).href;

/** The application: `__V__` is replaced at build time; VERSION is read from the working folder at start. */
const APP = `import fs from 'node:fs';
import { Application, Response, Router, configure, serve } from '${RUNTIME_URL}';
configure({ project_root: process.cwd() });
const folder = fs.readFileSync('VERSION', 'utf8').trim();
const router = new Router();
router.add('GET', '/version', () => new Response(200, '__V__ ' + folder), { public: true });
await serve(new Application(router, { apiRoutesModule: null }), { port: 0, host: '127.0.0.1' });
`;
const BUILD = 'mkdir -p dist && sed "s/__V__/$(cat VERSION)/" app.src.mjs > dist/app.js';

interface Done {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** `fw <args>` as its own process, without blocking the event loop (the load runs in this process). */
function fwAsync(args: readonly string[]): Promise<Done> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [FW, ...args], { cwd: os.tmpdir(), env: childEnv() });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('exit', (status) => resolve({ status, stdout, stderr }));
  });
}

function makeBase(): { base: string; src: string; release: (version: string, ...args: string[]) => Promise<Done> } {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fw-releases-')));
  fs.mkdirSync(path.join(base, 'shared', 'env'), { recursive: true });
  fs.writeFileSync(path.join(base, 'shared', 'env', 'prod'), 'APP_ENV=prod\n');
  const src = path.join(base, 'src');
  for (const dir of ['mvc/views', 'static', 'storage']) fs.mkdirSync(path.join(src, dir), { recursive: true });
  fs.writeFileSync(path.join(src, 'package.json'), JSON.stringify({ name: 'relapp', private: true, type: 'module' }));
  fs.writeFileSync(path.join(src, 'app.src.mjs'), APP);
  const release = (version: string, ...args: string[]): Promise<Done> => {
    fs.writeFileSync(path.join(src, 'VERSION'), version);
    return fwAsync(['deploy:release', '--root', base, '--from', src, '--version', version, '--build', BUILD, '--migrate', 'true', ...args]);
  };
  return { base, src, release };
}

const current = (base: string): string => path.basename(fs.realpathSync(path.join(base, 'current')));
const released = (base: string): string[] => fs.readdirSync(path.join(base, 'releases')).sort();

const R = suite('deploy:release and deploy:rollback on a deploy folder');
let folder: ReturnType<typeof makeBase>;
R.before(() => {
  folder = makeBase();
});
R.after(() => fs.rmSync(folder.base, { recursive: true, force: true }));

R('a release: built in releases/<version>, storage and env/prod shared, current switched', async () => {
  const done = await folder.release('v1', '--no-reload');
  assert.is(done.status, 0, done.stderr + done.stdout);
  assert.is(current(folder.base), 'v1');
  const dir = path.join(folder.base, 'releases', 'v1');
  assert.is(fs.realpathSync(path.join(dir, 'storage')), path.join(folder.base, 'shared', 'storage'));
  assert.is(fs.realpathSync(path.join(dir, 'env', 'prod')), path.join(folder.base, 'shared', 'env', 'prod'));
  assert.match(fs.readFileSync(path.join(dir, 'dist', 'app.js'), 'utf8'), "'v1 ' + folder");
  assert.ok(fs.existsSync(path.join(dir, '.fw-release.json')));
});

R('a failed build or a failed migration: current untouched, the folder removed', async () => {
  const build = await folder.release('broken-build', '--no-reload', '--build', 'exit 3');
  assert.is(build.status, 1);
  assert.match(build.stderr, "Erreur : l'étape « compilation » a échoué (code 3)");
  const migrate = await folder.release('broken-migration', '--no-reload', '--migrate', 'echo "table manquante" >&2; exit 4');
  assert.is(migrate.status, 1);
  assert.match(migrate.stderr, "Erreur : l'étape « migrations » a échoué (code 4)");
  assert.match(migrate.stderr, 'Conseil : ');
  assert.is(current(folder.base), 'v1');
  assert.equal(released(folder.base), ['v1']);
});

R('the switch: a reader resolving current never finds it missing', () => {
  fs.mkdirSync(path.join(folder.base, 'releases', 'other'));
  fs.writeFileSync(path.join(folder.base, 'releases', 'other', 'VERSION'), 'other');
  const file = path.join(folder.base, 'current', 'VERSION');
  const reader = spawn(process.execPath, [
    '-e',
    `const fs = require('fs'); let reads = 0, missing = 0; const until = Date.now() + 1500;
     while (Date.now() < until) { try { fs.readFileSync(${JSON.stringify(file)}); } catch { missing++; } reads++; }
     console.log(JSON.stringify({ reads, missing }));`,
  ]);
  let out = '';
  reader.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const paths = layout(folder.base);
  return new Promise<void>((resolve, reject) => {
    let switches = 0;
    const timer = setInterval(() => {
      for (let i = 0; i < 50; i++) switchCurrent(paths, ++switches % 2 ? 'other' : 'v1');
    }, 5);
    reader.once('exit', () => {
      clearInterval(timer);
      try {
        switchCurrent(paths, 'v1');
        fs.rmSync(path.join(folder.base, 'releases', 'other'), { recursive: true });
        const { reads, missing } = JSON.parse(out) as { reads: number; missing: number };
        console.log(`switch: ${switches} switches, ${reads} reads, ${missing} missing`);
        assert.ok(switches > 100 && reads > 100, out);
        assert.is(missing, 0);
        assert.equal(fs.readdirSync(folder.base).sort(), ['current', 'releases', 'shared', 'src']);
        resolve();
      } catch (error) {
        reject(error as Error);
      }
    });
  });
});

R('--keep 2: the older releases removed, the current one and the one before it kept; rollback goes back one', async () => {
  for (const version of ['v2', 'v3', 'v4']) {
    const done = await folder.release(version, '--no-reload', '--keep', '2');
    assert.is(done.status, 0, done.stderr);
  }
  assert.equal(released(folder.base), ['v3', 'v4']);
  assert.is(current(folder.base), 'v4');
  const back = await fwAsync(['deploy:rollback', '--root', folder.base, '--no-reload']);
  assert.is(back.status, 0, back.stderr);
  assert.is(current(folder.base), 'v3');
  const again = await fwAsync(['deploy:rollback', '--root', folder.base, '--no-reload']);
  assert.is(again.status, 1);
  assert.match(again.stderr, 'Erreur : aucune release antérieure à v3');
  assert.is(current(folder.base), 'v3');
});

R('a release from an archive holding one folder (npm pack, git archive --prefix); --keep drops a rolled-back one', async () => {
  const archive = path.join(folder.base, 'src.tgz');
  fs.writeFileSync(path.join(folder.src, 'VERSION'), 'v5');
  execFileSync('tar', ['-C', folder.base, '-czf', archive, 'src']);
  const done = await fwAsync([
    'deploy:release',
    '--root',
    folder.base,
    '--from',
    archive,
    '--version',
    'v5',
    '--build',
    BUILD,
    '--migrate',
    'true',
    '--no-reload',
    '--keep',
    '2',
  ]);
  assert.is(done.status, 0, done.stderr);
  fs.rmSync(archive);
  assert.match(fs.readFileSync(path.join(folder.base, 'current', 'dist', 'app.js'), 'utf8'), "'v5 ' + folder");
  // v4 was left by the rollback: v5 (current) and v3 (where a rollback goes) are the two kept.
  assert.equal(released(folder.base), ['v3', 'v5']);
  const back = await fwAsync(['deploy:rollback', '--root', folder.base, '--no-reload']);
  assert.is(back.status, 0, back.stderr);
  assert.is(current(folder.base), 'v3');
});

R('the unit of a release layout: current, shared/storage, ExecReload, KillMode=mixed; systemd-analyze verify', () => {
  const unit = systemdUnit({ app: 'relapp', root: path.join(folder.base, 'releases', 'v3'), user: 'relapp', node: process.execPath });
  assert.match(unit, `WorkingDirectory=${folder.base}/current\n`);
  assert.match(unit, `Environment=APP_DIR=${folder.base}/current\n`);
  assert.match(unit, `ReadWritePaths=${folder.base}/shared/storage\n`);
  assert.match(unit, 'ExecReload=/bin/kill -HUP $MAINPID\n');
  assert.match(unit, 'KillMode=mixed\n');
  const file = path.join(folder.base, 'relapp.service');
  fs.writeFileSync(file, unit);
  const verify = spawnSync('systemd-analyze', ['verify', file], { encoding: 'utf8' });
  fs.rmSync(file);
  assert.not.ok(verify.error, 'systemd-analyze is installed (.ci/run)');
  const complaints = `${verify.stdout}${verify.stderr}`
    .split('\n')
    .filter((line) => line.trim() !== '')
    // The service's user is created on the server (README_DEPLOY.md), not on this machine.
    .filter((line) => !/User=|Group=|relapp/.test(line) || /Unknown|unknown|Invalid|invalid|Failed/.test(line));
  assert.is(verify.status, 0, `${verify.stdout}${verify.stderr}`);
  assert.equal(complaints, []);
});

R.run();

interface LoadResult {
  requests: { total: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  '2xx': number;
}
type Autocannon = (options: Record<string, unknown>, done: (error: Error | null, result: LoadResult) => void) => { stop(): void };

const L = suite('a release and a rollback under load: SIGHUP as ExecReload sends it, no request lost');
let loaded: ReturnType<typeof makeBase>;
const prefix = redisTestPrefix();
L.before(() => {
  loaded = makeBase();
});
L.after(async () => {
  fs.rmSync(loaded.base, { recursive: true, force: true });
  const client = await rawRedis();
  await dropRedisPrefix(client, prefix).finally(() => client.close());
});

L('release v2 then rollback to v1 while 8 connections send GETs', async () => {
  assert.is((await loaded.release('v1', '--no-reload')).status, 0);
  const app = path.join(loaded.base, 'current');
  // As the unit starts it: WorkingDirectory is the symlink (the kernel resolves it), APP_DIR names it.
  const primary = spawn(process.execPath, ['dist/app.js'], {
    cwd: app,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, FW_LOG_LEVEL: 'INFO', APP_DIR: app, WEB_CONCURRENCY: '2', SESSION_STORE: 'redis', RATE_LIMIT_STORE: 'redis', REDIS_PREFIX: prefix },
  });
  let output = '';
  primary.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  primary.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  try {
    const found = await waitFor('the address', () => /http:\/\/127\.0\.0\.1:(\d+), 2 processus/.exec(output));
    const url = `http://127.0.0.1:${found[1]}`;
    const version = async (): Promise<string> => (await plainRequest(`${url}/version`)).body;
    assert.is(await version(), 'v1 v1');
    const { default: autocannon } = (await import('autocannon' as string)) as { default: Autocannon };
    let tracker: { stop(): void } | undefined;
    const result = new Promise<LoadResult>((resolve, reject) => {
      tracker = autocannon({ url: `${url}/version`, connections: 8, duration: 120 }, (error, figures) => (error ? reject(error) : resolve(figures)));
    });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const restarts = (): number => output.split('Redémarrage terminé').length - 1;
    const reload = `kill -HUP ${primary.pid}`;
    const up = await loaded.release('v2', '--reload', reload);
    assert.is(up.status, 0, up.stderr);
    await waitFor('the restart to v2', () => restarts() === 1, 30_000);
    assert.is(await version(), 'v2 v2');
    const back = await fwAsync(['deploy:rollback', '--root', loaded.base, '--reload', reload]);
    assert.is(back.status, 0, back.stderr);
    await waitFor('the restart to v1', () => restarts() === 2, 30_000);
    assert.is(await version(), 'v1 v1');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    tracker!.stop();
    const figures = await result;
    const summary = `${figures.requests.total} requests, ${figures['2xx']} 2xx, ${figures.non2xx} non-2xx, ${figures.errors} errors, ${figures.timeouts} timeouts`;
    console.log(`release and rollback under load: ${summary}`);
    assert.is(figures.errors, 0, summary);
    assert.is(figures.non2xx, 0, summary);
    assert.ok(figures['2xx'] > 100, summary);
  } finally {
    primary.kill('SIGTERM');
    await new Promise((resolve) => primary.once('exit', resolve));
  }
});

L.run();
