// `fw new`: argument checks, atomic creation, the project layout, fw_modules.json and npm install.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fwWithEnvironment } from './helpers/cli.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const FW = path.join(REPO, 'bin', 'fw.js');
const VERSION: string = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')).version;
const FRAMEWORK_VIEWS = path.join(REPO, 'runtime', 'views');

/** The `.ts` project layout (docs/decisions.md#names-in-typescript), framework views aside. */
const LAYOUT = [
  '.gitignore',
  '.prebuild-installrc',
  'README.md',
  'app.ts',
  'config.ts',
  'env/dev',
  'env/example',
  'fw_modules.json',
  'mvc/controllers/home_controller.ts',
  'mvc/entities/.gitkeep',
  'mvc/forms/.gitkeep',
  'mvc/migrations/.gitkeep',
  'mvc/models/sql/dev/.gitkeep',
  'mvc/routes.ts',
  'mvc/views/home/index.html',
  'mvc/views/layouts/base.html',
  'package.json',
  'scripts/check.mjs',
  'static/js/app.js',
  'storage/sessions/.gitkeep',
  'storage/uploads/.gitkeep',
  'translations/fr.json',
  'tsconfig.build.json',
  'tsconfig.json',
  `vendor/fw-mvc-${VERSION}.tgz`,
  `vendor/fw-mvc-cli-${VERSION}.tgz`,
];

const ENV_KEYS = [
  'APP_ENV',
  'APP_NAME',
  'HOST',
  'PORT',
  'DB_DRIVER',
  'DB_FILE',
  'DB_NAME',
  'DB_APP_HOST',
  'DB_APP_PORT',
  'DB_APP_LOGIN',
  'DB_APP_PWD',
  'DB_ADMIN_HOST',
  'DB_ADMIN_PORT',
  'DB_ADMIN_LOGIN',
  'DB_ADMIN_PWD',
  'API_TOKEN',
  'APP_CSP_NONCE_ENABLED',
  'SSL_CERTFILE',
  'SSL_KEYFILE',
];

const made: string[] = [];

/** A fresh, empty working folder, removed after the suite. */
function workdir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-'));
  made.push(dir);
  return dir;
}

/**
 * `fw <args>` in `cwd`: in the file's command runner (docs/testing.md "How `fw` runs in tests"), or as a process of
 * `bin` when it is another copy of the CLI (a framework folder of the test's own).
 */
function fw(cwd: string, args: string[], extraEnv: Record<string, string> = {}, bin = FW) {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && !['FW_DEBUG', 'HOST', 'PORT'].includes(key)) env[key] = value;
  Object.assign(env, extraEnv);
  if (bin === FW) return fwWithEnvironment(cwd, args, env);
  const result = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8', env });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Relative paths (with `/`) of every file under `dir`. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (sub: string): void => {
    for (const entry of fs.readdirSync(path.join(dir, sub), { withFileTypes: true })) {
      const relative = sub ? `${sub}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(relative);
      else out.push(relative);
    }
  };
  walk('');
  return out.sort();
}

/** Non-comment, non-blank lines of an env file. */
function envLines(file: string): string[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'));
}

/** A `fake npm` folder for PATH: the script runs `body` in sh. */
function fakeNpm(body: string): string {
  const dir = workdir();
  fs.writeFileSync(path.join(dir, 'npm'), `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return dir;
}

function assertRefused(cwd: string, args: string[], error: RegExp, advice: RegExp): void {
  const run = fw(cwd, args);
  assert.is(run.status, 1, `${args.join(' ')}: ${run.stderr}`);
  const [first, second, rest] = run.stderr.split('\n');
  assert.match(first ?? '', error);
  assert.match(second ?? '', advice);
  assert.is(rest, '');
  assert.equal(fs.readdirSync(cwd), [], `${args.join(' ')} wrote something`);
}

test.after(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

test('a missing name: Erreur, Conseil with an example, nothing written', () => {
  const cwd = workdir();
  assertRefused(cwd, ['new'], /^Erreur : il manque l'argument <Nom> de « fw new »\.$/, /^Conseil : par exemple « fw new MonProjet »\.$/);
  assertRefused(cwd, ['new', '--no-install'], /^Erreur : il manque l'argument/, /« fw new MonProjet »/);
});

test('bad names are refused before anything is written', () => {
  const cwd = workdir();
  for (const name of ['1Projet', 'mon.projet', 'mon projet', '_x', 'é', `A${'b'.repeat(64)}`]) {
    assertRefused(
      cwd,
      ['new', name, '--no-install'],
      new RegExp(`^Erreur : nom de projet invalide « ${name.replace('.', '\\.')} »\\.$`),
      /^Conseil : le nom commence par une lettre/,
    );
  }
  assertRefused(cwd, ['new', 'FW-MVC', '--no-install'], /^Erreur : nom de projet réservé « FW-MVC »/, /^Conseil : choisissez un autre nom/);
});

test('the longest valid name (64 characters) is accepted', () => {
  const cwd = workdir();
  const name = `A${'b'.repeat(63)}`;
  const run = fw(cwd, ['new', name, '--no-install']);
  assert.is(run.status, 0, run.stderr);
  assert.ok(fs.existsSync(path.join(cwd, name, 'app.ts')));
});

test('a folder that exists and is not empty is left untouched, and no temporary folder remains', () => {
  const cwd = workdir();
  fs.mkdirSync(path.join(cwd, 'Demo'));
  fs.writeFileSync(path.join(cwd, 'Demo', 'notes.txt'), 'à garder');
  const run = fw(cwd, ['new', 'Demo', '--no-install']);
  assert.is(run.status, 1);
  assert.is(
    run.stderr,
    "Erreur : le dossier « Demo » existe déjà et n'est pas vide.\nConseil : choisissez un autre nom de projet, ou videz ou déplacez ce dossier.\n",
  );
  assert.equal(fs.readdirSync(cwd), ['Demo']);
  assert.equal(fs.readdirSync(path.join(cwd, 'Demo')), ['notes.txt']);
  assert.is(fs.readFileSync(path.join(cwd, 'Demo', 'notes.txt'), 'utf8'), 'à garder');
});

test('a file of the same name is refused; an empty folder of the same name is used', () => {
  const cwd = workdir();
  fs.writeFileSync(path.join(cwd, 'Demo'), '');
  const file = fw(cwd, ['new', 'Demo', '--no-install']);
  assert.is(file.status, 1);
  assert.match(file.stderr, /^Erreur : « Demo » existe déjà et n'est pas un dossier\.\nConseil : /);
  assert.equal(fs.readdirSync(cwd), ['Demo']);

  const other = workdir();
  fs.mkdirSync(path.join(other, 'Demo'));
  const empty = fw(other, ['new', 'Demo', '--no-install']);
  assert.is(empty.status, 0, empty.stderr);
  assert.ok(fs.existsSync(path.join(other, 'Demo', 'app.ts')));
  assert.equal(fs.readdirSync(other), ['Demo']);
});

test('--ref: an unknown value names the ref and lists the accepted values', () => {
  const cwd = workdir();
  for (const ref of ['v9.9.9', 'latest', 'Main']) {
    assertRefused(
      cwd,
      ['new', 'Demo', '--ref', ref, '--no-install'],
      new RegExp(`^Erreur : référence inconnue « ${ref.replaceAll('.', '\\.')} » pour --ref\\.$`),
      new RegExp(`^Conseil : valeurs acceptées : stable \\(par défaut\\), main, v${VERSION.replaceAll('.', '\\.')} `),
    );
  }
});

test('--ref or --profile without a value: Erreur and Conseil', () => {
  const cwd = workdir();
  const refAdvice = new RegExp(`^Conseil : --ref : stable \\(par défaut\\), main ou v${VERSION.replaceAll('.', '\\.')}\\.$`);
  assertRefused(cwd, ['new', 'Demo', '--ref'], /^Erreur : l'option « --ref » de « fw new » attend une valeur\.$/, refAdvice);
  assertRefused(cwd, ['new', 'Demo', '--ref', '--no-install'], /^Erreur : l'option « --ref » de « fw new » attend une valeur\.$/, refAdvice);
  assertRefused(cwd, ['new', '--ref'], /^Erreur : l'option « --ref »/, refAdvice);
  const profileAdvice = /^Conseil : --profile : standard \(par défaut\) ou auth-mfa\.$/;
  assertRefused(cwd, ['new', 'Demo', '--profile'], /^Erreur : l'option « --profile » de « fw new » attend une valeur\.$/, profileAdvice);
  assertRefused(cwd, ['new', 'Demo', '--profile', '--ref', 'main'], /^Erreur : l'option « --profile »/, /^Conseil : --profile : /);
});

test('--profile: an unknown profile lists standard and auth-mfa', () => {
  const cwd = workdir();
  assertRefused(
    cwd,
    ['new', 'Demo', '--profile', 'admin', '--no-install'],
    /^Erreur : profil inconnu « admin » pour --profile\.$/,
    /^Conseil : profils acceptés : standard, auth-mfa\.$/,
  );
});

test('extra arguments and unknown options give the usage as advice', () => {
  const cwd = workdir();
  const usage = /^Conseil : usage : fw new <Nom> \[--ref <ref>\] \[--profile standard\|auth-mfa\] \[--no-install\]\.$/;
  assertRefused(cwd, ['new', 'Demo', 'Autre', '--no-install'], /^Erreur : trop d'arguments pour « fw new »\.$/, usage);
  assertRefused(cwd, ['new', 'Demo', '--force'], /^Erreur : option inconnue « --force » pour « fw new »\.$/, usage);
});

test('fw new Demo --no-install creates the whole layout, with every placeholder filled', () => {
  const cwd = workdir();
  const run = fw(cwd, ['new', 'Demo', '--no-install']);
  assert.is(run.status, 0, run.stderr);
  assert.is(run.stderr, '');
  assert.equal(fs.readdirSync(cwd), ['Demo'], 'a temporary folder was left behind');
  const project = path.join(cwd, 'Demo');
  const files = filesUnder(project);
  for (const file of LAYOUT) assert.ok(files.includes(file), `missing ${file}`);
  assert.is(fs.statSync(path.join(project, 'storage', 'sessions')).mode & 0o777, 0o700, 'the sessions folder is private');
  assert.not.ok(
    files.some((file) => /^_(git|vscode|prebuild)/.test(path.basename(file))),
    'a template dotfile was not renamed',
  );

  for (const file of files.filter((name) => !name.endsWith('.tgz'))) {
    const text = fs.readFileSync(path.join(project, file), 'utf8');
    assert.not.match(text, /__[A-Z][A-Z_]*__/, `placeholder left in ${file}`);
  }

  // The stdout summary names every created file, then the next steps.
  for (const file of files) assert.ok(run.stdout.includes(`  créé  ${file}\n`), `${file} not in the summary`);
  assert.match(run.stdout, /Prochaines étapes :\n {2}cd Demo\n {2}npm install\n {2}npm start\npuis ouvrez http:\/\/127\.0\.0\.1:8000\n/);

  const manifest = JSON.parse(fs.readFileSync(path.join(project, 'package.json'), 'utf8'));
  assert.is(manifest.name, 'demo');
  assert.is(manifest.type, 'module');
  assert.is(manifest.private, true);
  // The framework comes from the project's own vendor/ folder: no path outside the project (docs/decisions.md#projects-install-from-any-folder);
  // the runtime is a dependency, the fw command a development one (docs/decisions.md#the-runtime-ships-alone).
  assert.is(manifest.dependencies['fw-mvc'], `file:vendor/fw-mvc-${VERSION}.tgz`);
  assert.is(manifest.devDependencies['fw-mvc-cli'], `file:vendor/fw-mvc-cli-${VERSION}.tgz`);
  assert.not.ok(fs.readFileSync(path.join(project, 'package.json'), 'utf8').includes(REPO.replace(/[\\/]$/, '')));
  // Production path (docs/deploy.md): npm start compiles to dist/ first, then runs Node alone on the JavaScript.
  assert.is(manifest.scripts.build, 'tsc -p tsconfig.build.json && fw build:assets');
  assert.is(manifest.scripts.prestart, 'npm run build');
  assert.is(manifest.scripts.start, 'node --max-semi-space-size=8 dist/app.js');
  assert.match(manifest.scripts.dev, /^tsx watch .* app\.ts$/);
  assert.is(manifest.scripts.typecheck, 'tsc --noEmit');
  // npm run check: what CI verifies (docs/ci.md), a script of the project that needs only its own dependencies.
  assert.is(manifest.scripts.check, 'node scripts/check.mjs');
  // A deployed project installs the runtime alone (npm ci --omit=dev).
  assert.equal(Object.keys(manifest.dependencies).sort(), ['fw-mvc']);
  // The stylesheet is rebuilt by the Tailwind CLI of the project's devDependencies (never npx: docs/styles.md);
  // tsx serves the app in development (npm run dev) and runs the project's code for fw (routes:list).
  assert.equal(Object.keys(manifest.devDependencies).sort(), ['@tailwindcss/cli', '@types/node', 'fw-mvc-cli', 'tailwindcss', 'tsx', 'typescript']);
  assert.is(manifest.scripts['build:css'], 'tailwindcss -i static/src/input.css -o static/tailwind.css --minify');

  assert.equal(JSON.parse(fs.readFileSync(path.join(project, 'fw_modules.json'), 'utf8')), {
    framework: { ref: 'stable', version: VERSION },
    modules: [],
  });

  const gitignore = fs.readFileSync(path.join(project, '.gitignore'), 'utf8').split('\n');
  for (const line of ['node_modules/', 'env/dev', 'env/prod', '/storage/**', '!/storage/**/', '!/storage/**/.gitkeep']) {
    assert.ok(gitignore.includes(line), `.gitignore lacks ${line}`);
  }

  const example = envLines(path.join(project, 'env', 'example'));
  // env/dev is env/example's active lines, with the file session store that survives `npm run dev`'s restarts.
  assert.equal(
    envLines(path.join(project, 'env', 'dev')).filter((line) => line !== 'SESSION_STORE=file'),
    example,
  );
  assert.ok(envLines(path.join(project, 'env', 'dev')).includes('SESSION_STORE=file'));
  assert.not.ok(
    example.some((line) => line.startsWith('SESSION_STORE=')),
    'the runtime default stays memory in env/example',
  );
  assert.equal(
    example.map((line) => line.split('=')[0]),
    ENV_KEYS,
  );
  assert.ok(example.includes('APP_NAME=Demo'));
  assert.ok(example.includes('DB_DRIVER=sqlite'));

  const translations = JSON.parse(fs.readFileSync(path.join(project, 'translations', 'fr.json'), 'utf8'));
  for (const key of ['home.title', 'home.welcome', 'home.next_steps']) assert.type(translations[key], 'string', key);
});

test('the framework layouts, components and error pages are copied byte for byte into mvc/views/', () => {
  const cwd = workdir();
  assert.is(fw(cwd, ['new', 'Vues', '--no-install']).status, 0);
  let count = 0;
  for (const folder of ['layouts', 'components', 'errors']) {
    const source = path.join(FRAMEWORK_VIEWS, folder);
    const copy = path.join(cwd, 'Vues', 'mvc', 'views', folder);
    assert.equal(filesUnder(copy), filesUnder(source), folder);
    for (const file of filesUnder(source)) {
      assert.ok(fs.readFileSync(path.join(copy, file)).equals(fs.readFileSync(path.join(source, file))), `${folder}/${file}`);
      count++;
    }
  }
  assert.ok(count > 0);
});

test('the address to open is the one npm start will use: HOST and PORT of the environment win', () => {
  const cwd = workdir();
  const run = fw(cwd, ['new', 'Port', '--no-install'], { PORT: '18100', HOST: '127.0.0.2' });
  assert.is(run.status, 0, run.stderr);
  assert.match(run.stdout, /\npuis ouvrez http:\/\/127\.0\.0\.2:18100\n/);
});

test("storage/sessions of a new project is mode 0700 (the file store keeps an existing folder's mode)", () => {
  if (process.platform === 'win32') return;
  const cwd = workdir();
  const previous = process.umask(0o022);
  try {
    assert.is(fw(cwd, ['new', 'Sessions', '--no-install']).status, 0);
  } finally {
    process.umask(previous);
  }
  assert.is(fs.statSync(path.join(cwd, 'Sessions', 'storage', 'sessions')).mode & 0o777, 0o700);
  assert.ok(fs.existsSync(path.join(cwd, 'Sessions', 'storage', 'sessions', '.gitkeep')));
});

test('the npm package name is the lower-cased project name', () => {
  const cwd = workdir();
  assert.is(fw(cwd, ['new', 'Mon_Projet-2', '--no-install']).status, 0);
  const manifest = JSON.parse(fs.readFileSync(path.join(cwd, 'Mon_Projet-2', 'package.json'), 'utf8'));
  assert.is(manifest.name, 'mon_projet-2');
});

test('--ref main --profile auth-mfa: the mfa starter built in, recorded in fw_modules.json, the README and next steps say how to run it', () => {
  const cwd = workdir();
  const run = fw(cwd, ['new', 'Secure', '--ref', 'main', '--profile', 'auth-mfa', '--no-install']);
  assert.is(run.status, 0, run.stderr);
  const root = path.join(cwd, 'Secure');
  assert.equal(JSON.parse(fs.readFileSync(path.join(root, 'fw_modules.json'), 'utf8')), {
    framework: { ref: 'main', version: VERSION },
    profile: 'auth-mfa',
    modules: [{ name: 'mfa' }],
  });
  const files = filesUnder(root);
  for (const file of [
    'mvc/controllers/dashboard_controller.ts',
    'mvc/controllers/profile_controller.ts',
    'mvc/views/account/_mfa.html',
    'mvc/models/sql/auth/auth_mfa_factors.sqlite.sql',
  ]) {
    assert.ok(files.includes(file), file);
  }
  // The listing names every file of the project, the starter's included.
  assert.match(run.stdout, `Projet « Secure » créé dans ${fs.realpathSync(root)} (${files.length} fichiers).\n`);
  assert.match(run.stdout, '  créé  mvc/controllers/dashboard_controller.ts\n');
  const routes = fs.readFileSync(path.join(root, 'mvc', 'routes.ts'), 'utf8');
  assert.match(routes, "import { registerMfaRoutes } from 'fw-mvc/mfa';");
  assert.match(routes, '  registerMfaRoutes(router);\n');
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  assert.match(readme, /## Profil auth-mfa/);
  assert.match(readme, /fw db:init[^\n]*\nfw db:apply[^\n]*\nfw auth:user:create --email vous@example\.com --password-prompt[^\n]*\nnpm start\n/);
  assert.match(readme, '`/account/mfa`');
  assert.not.match(readme, /prochaine version/);
  assert.match(
    run.stdout,
    '\nProchaines étapes :\n  cd Secure\n  npm install\n  fw db:init\n  fw db:apply\n  fw auth:user:create --email vous@example.com --password-prompt\n  npm start\n' +
      'puis ouvrez http://127.0.0.1:8000, connectez-vous et activez le second facteur sur http://127.0.0.1:8000/account/mfa (voir README.md)\n',
  );
  // Nothing left beside the project (the temporary folder is renamed or removed).
  assert.equal(fs.readdirSync(cwd), ['Secure']);
});

test('--ref v<running version> is accepted', () => {
  const cwd = workdir();
  const run = fw(cwd, ['new', 'Pinned', `--ref=v${VERSION}`, '--no-install']);
  assert.is(run.status, 0, run.stderr);
  assert.is(JSON.parse(fs.readFileSync(path.join(cwd, 'Pinned', 'fw_modules.json'), 'utf8')).framework.ref, `v${VERSION}`);
});

test('without --no-install, npm install runs inside the new project', () => {
  const cwd = workdir();
  const bin = fakeNpm('pwd > npm-ran.txt; echo "$@" >> npm-ran.txt');
  const run = fw(cwd, ['new', 'Demo'], { PATH: `${bin}${path.delimiter}${process.env.PATH}` });
  assert.is(run.status, 0, run.stderr);
  const [where, args] = fs.readFileSync(path.join(cwd, 'Demo', 'npm-ran.txt'), 'utf8').split('\n');
  assert.is(fs.realpathSync(where!), fs.realpathSync(path.join(cwd, 'Demo')));
  assert.is(args, 'install');
  assert.not.match(run.stdout, /\n {2}npm install\n/, 'npm install should not be a next step any more');
  assert.match(run.stdout, / {2}cd Demo\n {2}npm start\n/);
});

test('a failed npm install keeps the project, exits 1 and says to run npm install by hand', () => {
  const cwd = workdir();
  const bin = fakeNpm('exit 3');
  const run = fw(cwd, ['new', 'Demo'], { PATH: `${bin}${path.delimiter}${process.env.PATH}` });
  assert.is(run.status, 1);
  const [error, advice, rest] = run.stderr.split('\n');
  assert.is(error, 'Erreur : npm install a échoué (code 3) ; le projet « Demo » est créé mais ses dépendances ne sont pas installées.');
  assert.is(advice, 'Conseil : lancez « cd Demo » puis « npm install » à la main, puis « npm start ».');
  assert.is(rest, '');
  assert.ok(fs.existsSync(path.join(cwd, 'Demo', 'app.ts')));
});

test('Ctrl+C exits with 130', async () => {
  const cwd = workdir();
  // The fake npm says when it runs (a file written), then waits: the signal is sent once npm is running.
  const started = path.join(workdir(), 'npm-started');
  const bin = fakeNpm(`: > '${started}'\nsleep 20`);
  const child = spawn(process.execPath, [FW, 'new', 'Demo'], {
    cwd,
    env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH}` },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group, so that the signal reaches fw and npm as in a terminal
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const deadline = Date.now() + 10_000;
  while (!fs.existsSync(started)) {
    assert.ok(Date.now() < deadline, `npm install never started: ${stdout}${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  process.kill(-child.pid!, 'SIGINT');
  assert.is(await exited, 130);
  assert.match(stderr, /Erreur : opération interrompue\./);
});

/** The repository's dependencies, whose ranges the packed manifests take. */
const DEPENDENCIES: Record<string, string> = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')).dependencies;

/** A copy of the framework's repository whose template is given, with the compiled CLI and commander. */
function fakeFramework(template: Record<string, string>, views: Record<string, string> | undefined): string {
  const root = workdir();
  fs.writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'fw-mvc', version: VERSION, type: 'module', dependencies: DEPENDENCIES }));
  fs.cpSync(path.join(REPO, 'bin'), path.join(root, 'bin'), { recursive: true });
  fs.cpSync(path.join(REPO, 'dist', 'cli'), path.join(root, 'dist', 'cli'), { recursive: true });
  fs.mkdirSync(path.join(root, 'node_modules'));
  fs.symlinkSync(path.join(REPO, 'node_modules', 'commander'), path.join(root, 'node_modules', 'commander'), 'dir');
  const write = (base: string, files: Record<string, string>): void => {
    for (const [file, content] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(base, file)), { recursive: true });
      fs.writeFileSync(path.join(base, file), content);
    }
  };
  write(path.join(root, 'cli', 'templates', 'project'), template);
  if (views) {
    write(path.join(root, 'runtime', 'views'), views);
    write(path.join(root, 'runtime', 'static'), { 'tailwind.css': '/* css */\n' });
  }
  return root;
}

test('without the framework views, fw new fails clearly and writes nothing', () => {
  const framework = fakeFramework({ 'app.ts': '// __PROJECT_NAME__\n' }, undefined);
  const cwd = workdir();
  const run = fw(cwd, ['new', 'Demo', '--no-install'], {}, path.join(framework, 'bin', 'fw.js'));
  assert.is(run.status, 1);
  assert.match(run.stderr, /^Erreur : vues du framework introuvables : le dossier .*runtime.views.layouts n'existe pas\.\nConseil : /);
  assert.equal(fs.readdirSync(cwd), []);
});

test('a framework whose compiled runtime is missing is not packed: fw new fails clearly and writes nothing', () => {
  const views = { 'layouts/base.html': 'base', 'components/button.html': 'b', 'errors/404.html': '404' };
  const framework = fakeFramework({ 'app.ts': '// __PROJECT_NAME__\n' }, views);
  const manifest = { name: 'fw-mvc', version: VERSION, type: 'module', dependencies: DEPENDENCIES, exports: { '.': { default: './dist/runtime/index.js' } } };
  fs.writeFileSync(path.join(framework, 'package.json'), JSON.stringify(manifest));
  const cwd = workdir();
  const run = fw(cwd, ['new', 'Demo', '--no-install'], {}, path.join(framework, 'bin', 'fw.js'));
  assert.is(run.status, 1);
  const [error, advice, rest] = run.stderr.split('\n');
  assert.is(error, 'Erreur : empaquetage de fw-mvc impossible : fichiers annoncés par « exports » absents (paquet non compilé ?) : dist/runtime/index.js');
  assert.match(advice ?? '', /^Conseil : .*npm run build/);
  assert.is(rest, '');
  assert.equal(fs.readdirSync(cwd), []);
});

test('a failure in the middle of writing removes everything that was written', () => {
  // The template holds a file where a framework view folder must go: the second write fails.
  const views = { 'layouts/base.html': 'base', 'components/button.html': 'b', 'errors/404.html': '404' };
  const framework = fakeFramework({ 'a.txt': 'a', 'mvc/views/layouts': 'not a folder' }, views);
  const cwd = workdir();
  const run = fw(cwd, ['new', 'Demo', '--no-install'], {}, path.join(framework, 'bin', 'fw.js'));
  assert.is(run.status, 1);
  assert.match(run.stderr, /^Erreur : la création du projet a échoué : .*\nConseil : rien n'a été écrit/);
  assert.equal(fs.readdirSync(cwd), []);
});

test.run();
