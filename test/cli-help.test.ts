// `fw` dispatch: the grouped help, --version, and the `Erreur :` / `Conseil :` format of dispatch errors. The commands
// run in the file's command runner (`runFw`, which bin/fw.js calls: docs/testing.md "How `fw` runs in tests"); the
// binary itself runs as a process for --version and for an unexpected exception.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { COMMANDS, FAMILIES } from '../cli/commands-table.js';
import { nearest } from '../cli/suggest.js';
import { fwWithEnvironment } from './helpers/cli.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const FW = path.join(REPO, 'bin', 'fw.js');
const VERSION: string = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')).version;

/** Every command of the original command list (docs/decisions.md#the-fixed-contract). */
const SPEC_COMMANDS = [
  'new',
  'make:entity',
  'make:crud',
  'make:public-page',
  'make:public-list',
  'make:public-show',
  'make:public-form',
  'make:public-contact',
  'make:relation',
  'sync:entity',
  'sync:relations',
  'sync:landing',
  'build:model',
  'check:model',
  'upload:init',
  'media:init',
  'db:init',
  'db:apply',
  'migration:status',
  'migration:make',
  'migration:diff',
  'migration:apply',
  'routes:list',
  'auth:init',
  'auth:doctor',
  'auth:status',
  'auth:list-sql',
  'auth:user:create',
  'auth:user:list',
  'auth:user:show',
  'auth:user:disable',
  'auth:user:enable',
  'auth:user:password',
  'auth:user:role:add',
  'auth:user:role:remove',
  'auth:user:roles',
  'mail:init',
  'mail:doctor',
  'mail:test',
  'mail:render',
  'mail:logs',
  'deploy:init',
  'deploy:check',
  'starter:list',
  'starter:build',
  'module:list',
  'module:install',
  'module:files',
  'module:routes',
  'js:init',
  'i18n:init',
  'i18n:check',
  'doctor',
  'project:check',
  'project:audit',
];

/** `fw <args>` in a fresh empty folder (outside any project), or in `cwd` when given. */
function fw(...args: string[]) {
  return fwIn(undefined, ...args);
}

function fwIn(dir: string | undefined, ...args: string[]) {
  const cwd = dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'fw-'));
  try {
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries(process.env)) if (key !== 'FW_DEBUG' && value !== undefined) env[key] = value;
    return fwWithEnvironment(cwd, args, env);
  } finally {
    if (dir === undefined) fs.rmSync(cwd, { recursive: true, force: true });
  }
}

/** Splits the help into its family sections: family title -> the lines under it. */
function sections(help: string): Map<string, string[]> {
  const map = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of help.split('\n')) {
    if ((FAMILIES as readonly string[]).includes(line)) map.set(line, (current = []));
    else if (line.startsWith('  ')) current?.push(line);
    else current = undefined;
  }
  return map;
}

/**
 * Commands beyond that list (docs/decisions.md#commands-beyond-the-original-list: `auth:role:create` makes the
 * roles auth:user:role:add needs; `build:css` runs the project's `build:css` script without npm: docs/frontend.md;
 * `migration:lint` lists the destructive steps of the pending migrations: docs/entities.md; `deploy:release` and
 * `deploy:rollback` upgrade and roll back a server without losing a request: docs/deploy.md "Releases"; `build:assets`
 * fingerprints and precompresses `static/`: docs/runtime.md "Static files"; `backup:create` and `backup:restore` write
 * and restore a backup of the database and the uploads: docs/deploy.md "Backups"; the background jobs commands: docs/jobs.md "Commands").
 */
const BEYOND_SPEC = [
  'auth:role:create',
  'auth:role:list',
  'build:css',
  'build:assets',
  'migration:lint',
  'deploy:release',
  'deploy:rollback',
  'backup:create',
  'backup:restore',
  'make:job',
  'jobs:init',
  'jobs:list',
  'jobs:retry',
  'jobs:discard',
  'jobs:work',
];

test('the command table holds exactly the original commands and those added beyond them, each once', () => {
  const names = COMMANDS.map((entry) => entry.name);
  assert.equal([...names].sort(), [...SPEC_COMMANDS, ...BEYOND_SPEC].sort());
  assert.is(new Set(names).size, names.length);
});

test('fw, fw help, fw --help and fw -h print the same help, exit 0, nothing on stderr', () => {
  const runs = [fw(), fw('help'), fw('--help'), fw('-h')];
  for (const run of runs) {
    assert.is(run.status, 0);
    assert.is(run.stderr, '');
    assert.is(run.stdout, runs[0]!.stdout);
  }
  assert.ok(runs[0]!.stdout.length > 0);
});

test('the help lists the families in order, and every command in its family with usage and summary', () => {
  const help = fw('help').stdout;
  const lines = help.split('\n');
  const positions = FAMILIES.map((family) => lines.indexOf(family));
  assert.not.ok(positions.includes(-1), `missing family: ${FAMILIES.filter((_, i) => positions[i] === -1).join(', ')}`);
  assert.equal(
    positions,
    [...positions].sort((a, b) => a - b),
  );

  const bySection = sections(help);
  for (const entry of COMMANDS) {
    const usage = `  fw ${entry.name}${entry.usage ? ` ${entry.usage}` : ''}`;
    const section = bySection.get(entry.family) ?? [];
    const at = section.indexOf(usage);
    assert.ok(at !== -1, `${entry.name} is not listed under ${entry.family}`);
    assert.is(section[at + 1]?.trim(), entry.summary);
  }
  for (const name of SPEC_COMMANDS) assert.ok(help.includes(`  fw ${name}`), name);
});

/** `node bin/fw.js <args>` as a process of its own, in a fresh empty folder. */
function fwBinary(...args: string[]) {
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-'));
  try {
    const env = { ...process.env };
    delete env.FW_DEBUG;
    return spawnSync(process.execPath, [FW, ...args], { cwd, encoding: 'utf8', env });
  } finally {
    fs.rmSync(cwd, { recursive: true, force: true });
  }
}

test('fw --version prints the version of package.json', () => {
  for (const [flag, run] of [
    ['--version', fw('--version')],
    ['-V', fw('-V')],
    ['--version (bin/fw.js)', fwBinary('--version')],
  ] as const) {
    assert.is(run.status, 0, flag);
    assert.is(run.stdout, `${VERSION}\n`, flag);
    assert.is(run.stderr, '', flag);
  }
});

test('an unknown command: Erreur and Conseil on stderr, exit 1, nothing on stdout', () => {
  const run = fw('bogus');
  assert.is(run.status, 1);
  assert.is(run.stdout, '');
  assert.is(run.stderr, 'Erreur : commande inconnue « bogus ».\nConseil : lancez « fw help » pour la liste des commandes.\n');
});

test('an unknown command close to a real one suggests it', () => {
  for (const [typed, meant] of [
    ['make:entty', 'make:entity'],
    ['nwe', 'new'],
    ['migration:stats', 'migration:status'],
    ['doctr', 'doctor'],
  ] as const) {
    const run = fw(typed);
    assert.is(run.status, 1);
    const [error, advice, rest] = run.stderr.split('\n');
    assert.is(error, `Erreur : commande inconnue « ${typed} ».`);
    assert.is(advice, `Conseil : vouliez-vous dire « fw ${meant} » ? Sinon, lancez « fw help » pour la liste des commandes.`);
    assert.is(rest, '');
  }
});

test('nearest() suggests nothing for unrelated words and completes a unique prefix', () => {
  const names = COMMANDS.map((entry) => entry.name);
  assert.is(nearest('zzzzzz', names), undefined);
  assert.is(nearest('x', names), undefined);
  assert.is(nearest('starter:bu', names), 'starter:build');
  assert.is(nearest('auth:user', names), undefined); // the prefix of many commands
});

test('an unknown global option is a dispatch error', () => {
  const run = fw('--nope');
  assert.is(run.status, 1);
  assert.is(run.stderr, 'Erreur : option inconnue « --nope ».\nConseil : lancez « fw help » pour la liste des commandes.\n');
});

test('starter:build without its id: Erreur naming the argument and Conseil with a usage example, exit 1', () => {
  const run = fw('starter:build');
  assert.is(run.status, 1);
  assert.is(run.stdout, '');
  assert.is(run.stderr, "Erreur : il manque l'argument <id|alias> de « fw starter:build ».\nConseil : par exemple « fw starter:build contacts ».\n");
  // With its id (and its documented options) it parses, then refuses to run outside a project.
  const given = fw('starter:build', 'contacts', '--dry-run', '--init-db', '--force', '--public');
  assert.is(given.status, 1);
  assert.match(given.stderr, /^Erreur : le dossier « [^»]+ » n'est pas un projet fw \(aucun dossier mvc\/ ici ni au-dessus\)\.\nConseil : /);
  const unknownOption = fw('starter:build', 'contacts', '--bogus');
  assert.is(unknownOption.status, 1);
  assert.match(unknownOption.stderr, /^Erreur : option inconnue « --bogus » pour « fw starter:build »\.\nConseil : usage : fw starter:build <id\|alias>/);
});

test('project:check and project:audit outside a project: not a project, with advice, exit 1', () => {
  for (const name of ['project:check', 'project:audit']) {
    const outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fw-outside-')));
    try {
      const run = fwIn(outside, name);
      assert.is(run.status, 1, name);
      assert.is(run.stdout, '');
      const [error, advice, rest] = run.stderr.split('\n');
      assert.is(error, `Erreur : le dossier « ${outside} » n'est pas un projet fw (ni app.ts ni dossier mvc/) : « fw ${name} » n'a rien à contrôler.`);
      assert.is(
        advice,
        `Conseil : lancez « fw ${name} » depuis la racine du projet (le dossier qui contient app.ts et mvc/), ou créez-en un avec « fw new MonProjet ».`,
      );
      assert.is(rest, '');
      // Inside a project (app.ts or mvc/ here), the checks run: a bare mvc/ lacks the rest of the structure.
      fs.mkdirSync(path.join(outside, 'mvc'));
      const inside = fwIn(outside, name, '--json');
      assert.is(inside.status, 1, name);
      assert.is(inside.stderr, '');
      const report = JSON.parse(inside.stdout);
      assert.is(report.command, name);
      assert.ok(report.checks.some((check: { id: string; status: string }) => check.id === 'FW-STRUCT-002' && check.status === 'FAIL'));
      fs.rmdirSync(path.join(outside, 'mvc'));
      fs.writeFileSync(path.join(outside, 'app.ts'), '');
      const appOnly = fwIn(outside, name);
      assert.is(appOnly.status, 1, `${name}: app.ts alone marks a project`);
      assert.match(appOnly.stdout, /\[FAIL\] FW-STRUCT-001 Dossier mvc\/ — mvc\/ : absent/);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  }
});

test('a listed command that is not implemented yet says so and exits 1', () => {
  // The dispatcher treats every entry without `load` alike: one pending command per family is enough.
  const pending = FAMILIES.map((family) => COMMANDS.find((entry) => entry.family === family && !entry.load)?.name);
  for (const name of pending) {
    if (name === undefined) continue;
    const run = fw(name, 'Contact', '--dry-run');
    assert.is(run.status, 1, name);
    assert.is(run.stdout, '');
    assert.is(run.stderr, `Erreur : la commande « ${name} » n'est pas encore disponible dans cette version.\n`);
  }
});

test('fw <command> --help and fw help <command> print the usage of that command', () => {
  const a = fw('new', '--help');
  const b = fw('help', 'new');
  assert.is(a.status, 0);
  assert.is(a.stdout, b.stdout);
  assert.ok(a.stdout.startsWith('Usage : fw new <Nom> [--ref <ref>] [--profile standard|auth-mfa] [--no-install]\n'));
  const unknown = fw('help', 'nope');
  assert.is(unknown.status, 1);
  assert.match(unknown.stderr, /^Erreur : commande inconnue « nope »\.\nConseil : /);
});

test('fw help help (and fw help --help) print the help of help, exit 0', () => {
  for (const args of [
    ['help', 'help'],
    ['help', '--help'],
  ]) {
    const run = fw(...args);
    assert.is(run.status, 0, run.stderr);
    assert.is(run.stderr, '');
    assert.ok(run.stdout.startsWith('Usage : fw help [<commande>]\n'), run.stdout);
  }
});

test('an unexpected exception prints Erreur : <message>, with the stack only under FW_DEBUG=1', () => {
  // A copy of the CLI with no package.json above it: reading the version fails unexpectedly.
  const broken = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-broken-'));
  try {
    fs.cpSync(path.join(REPO, 'bin'), path.join(broken, 'bin'), { recursive: true });
    fs.cpSync(path.join(REPO, 'dist', 'cli'), path.join(broken, 'dist', 'cli'), { recursive: true });
    const bin = path.join(broken, 'bin', 'fw.js');
    const env = { ...process.env };
    delete env.FW_DEBUG;
    const quiet = spawnSync(process.execPath, [bin, '--version'], { encoding: 'utf8', env });
    assert.is(quiet.status, 1);
    assert.match(quiet.stderr, /^Erreur : package\.json de fw-mvc introuvable au-dessus de .+\n$/);
    const debug = spawnSync(process.execPath, [bin, '--version'], { encoding: 'utf8', env: { ...env, FW_DEBUG: '1' } });
    assert.is(debug.status, 1);
    assert.ok(debug.stderr.startsWith(quiet.stderr));
    assert.match(debug.stderr, /\n {4}at packageInfo \(/);
  } finally {
    fs.rmSync(broken, { recursive: true, force: true });
  }
});

test.run();
