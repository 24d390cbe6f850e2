// The three diagnostics as a whole: read-only and inert (a hash of the whole tree, mtimes of files and folders
// included, before and after each command, on good and broken projects; project code never imported), the JSON
// report valid for schemas/diagnostics-report.schema.json, silencing by fw.config.json and --skip, bad options,
// doctor outside a project, auth reused when installed, and every id documented in docs/diagnostics.md.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { allDefinitions } from '../cli/checks/registry.js';
import { fw, REPO } from './helpers/cli.js';
import { copyOf, corpusBase, diagnose, resultsOf, type Copy, type DiagnosticCommand, type Report } from './helpers/diagnostics.js';

const test = suite<{ base: ReturnType<typeof corpusBase> }>('diagnostics: read-only, report, silencing');

const COMMANDS: readonly DiagnosticCommand[] = ['doctor', 'project:check', 'project:audit'];

test.before((context) => {
  context.base = corpusBase('Core');
});
test.after(async ({ base }) => {
  await base?.cleanup();
});

/** Every entry under `root`: path, kind, mode, size, mtime (files AND folders) and the content's hash or the link's target. */
function treeState(root: string): string[] {
  const out: string[] = [];
  const walk = (relative: string): void => {
    const full = path.join(root, relative);
    const stat = fs.lstatSync(full);
    const base = `${relative || '.'} ${stat.mode.toString(8)} ${stat.mtimeMs} ${stat.size}`;
    if (stat.isSymbolicLink()) out.push(`${base} -> ${fs.readlinkSync(full)}`);
    else if (stat.isDirectory()) {
      out.push(`${base} dir`);
      for (const name of fs.readdirSync(full).sort()) walk(relative ? `${relative}/${name}` : name);
    } else {
      let hash = 'unreadable';
      try {
        hash = createHash('sha256').update(fs.readFileSync(full)).digest('hex');
      } catch {
        // chmod 000 when not root: the mode and mtime above are what can change.
      }
      out.push(`${base} ${hash}`);
    }
  };
  walk('');
  return out;
}

const newCopy = (base: ReturnType<typeof corpusBase>): Copy => copyOf(base.project.root, fs.mkdtempSync(path.join(base.scratch, 'ro-')));

/** The broken projects of the read-only test, each with its defect. */
const BROKEN: Record<string, (copy: Copy) => void> = {
  good: () => {},
  'SQLite project whose database file does not exist yet, with auth wired': (c) => {
    c.remove('storage/database.sqlite');
    c.write('mvc/routes.ts', `${c.read('mvc/routes.ts')}\n// registerAuthRoutes(router) will be called here\n`);
  },
  'routes.ts and a controller that write a file when imported': (c) => {
    const writer = "import fs from 'node:fs';\nfs.writeFileSync(new URL('../IMPORTED', import.meta.url), 'x');\nthrow new Error('importé');\n";
    c.write('mvc/routes.ts', `${writer}export function registerRoutes(): void {}\n`);
    c.write('mvc/controllers/home_controller.ts', writer);
  },
  'binary entity, symlink loop, broken env, bad template, bad fw.config.json': (c) => {
    c.write('mvc/entities/x/x.json', Buffer.from([0, 1, 2, 3]));
    fs.symlinkSync('.', c.path('mvc/views/boucle'));
    c.write('env/dev', 'APP_NAME="ouvert\n');
    c.write('mvc/views/home/bad.html', '{% if %}');
    c.write('fw.config.json', '{');
  },
  'no env file, no mvc/views': (c) => {
    c.remove('env/dev');
    c.remove('mvc/views');
  },
};

for (const [name, defect] of Object.entries(BROKEN)) {
  test(`read-only and inert: ${name}`, ({ base }) => {
    const copy = newCopy(base);
    defect(copy);
    for (const command of COMMANDS) {
      const before = treeState(copy.root);
      const json = fw(copy.root, [command, '--json']);
      const text = fw(copy.root, [command, '--env', 'prod']);
      assert.ok(json.status === 0 || json.status === 1, `${command}: exit 0 or 1 (${json.stderr})`);
      assert.is(text.status === 0 || text.status === 1, true);
      assert.not.match(json.stderr + text.stderr, /\n\s+at /, `${command}: no stack trace`);
      assert.equal(treeState(copy.root), before, `${name}: ${command} changed nothing`);
      assert.not.ok(fs.existsSync(copy.path('IMPORTED')), 'project code never imported');
      assert.not.ok(fs.existsSync(copy.path('storage/database.sqlite')), 'no SQLite file created');
    }
  });
}

test('no import of a project path: every import() of cli/checks and the commands names a module of the framework', () => {
  const files = [
    ...fs
      .readdirSync(path.join(REPO, 'cli', 'checks'))
      .filter((f) => f.endsWith('.ts'))
      .map((f) => path.join(REPO, 'cli', 'checks', f)),
    ...['doctor.ts', 'project-check.ts', 'project-audit.ts'].map((f) => path.join(REPO, 'cli', 'commands', 'project', f)),
    path.join(REPO, 'cli', 'project', 'diagnostic-options.ts'),
  ];
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    for (const match of text.matchAll(/\bimport\(([^)]*)\)/g)) {
      assert.match(match[1]!, /^'(\.\.?\/[^']+|[a-z@][^']*)'$/, `${path.basename(file)}: import(${match[1]}) is a literal module`);
    }
    // One process is allowed: git, asked which env files it tracks (sec-git.ts), with the repository's fsmonitor
    // program disabled so that no program named by the project runs.
    if (path.basename(file) === 'sec-git.ts') assert.match(text, /core\.fsmonitor=/, 'git runs with core.fsmonitor disabled');
    else assert.not.match(text, /child_process|\btsx\b/, `${path.basename(file)}: runs no process`);
  }
});

const ajv = new Ajv({ strict: true, allErrors: true });
const validate = ajv.compile(JSON.parse(fs.readFileSync(path.join(REPO, 'schemas', 'diagnostics-report.schema.json'), 'utf8')));

test('the JSON of the three commands, on a good and a broken project, is valid for the schema; the text matches it', ({ base }) => {
  const broken = newCopy(base);
  BROKEN['binary entity, symlink loop, broken env, bad template, bad fw.config.json']!(broken);
  for (const root of [base.project.root, broken.root]) {
    for (const command of COMMANDS) {
      const { json, report, text } = diagnose(root, command);
      assert.ok(validate(report), `${command}: ${ajv.errorsText(validate.errors)}`);
      assert.is(report.ok, json.status === 0);
      assert.is(report.summary.fail > 0, json.status === 1);
      const lines = text.stdout.trimEnd().split('\n');
      assert.is(lines.length, report.checks.length + 1);
      assert.is(lines[lines.length - 1], `${report.summary.warn} avertissement(s), ${report.summary.fail} erreur(s).`);
      report.checks.forEach((check, index) => {
        const detail = [check.detail, check.hint].filter(Boolean).join(' : ');
        assert.is(lines[index], `  ${`[${check.status}]`.padEnd(7)}${check.id} ${check.label}${detail ? ` — ${detail}` : ''}`);
      });
    }
  }
  // mail:doctor and deploy:check print the same report: their JSON follows the same schema.
  for (const command of ['mail:doctor', 'deploy:check']) {
    const run = fw(base.project.root, [command, '--json']);
    const report = JSON.parse(run.stdout) as Report;
    assert.ok(validate(report), `${command}: ${ajv.errorsText(validate.errors)}`);
    assert.is(report.command, command);
  }
  const statuses = (report: Report) => new Set(report.checks.map((c) => c.status));
  assert.not.ok(statuses(diagnose(base.project.root, 'project:check').report).has('INFO'));
});

test('silencing: fw.config.json and --skip turn the results of an id into SKIP with the reason, never drop them', ({ base }) => {
  const copy = newCopy(base);
  copy.remove('app.ts');
  copy.write('fw.config.json', JSON.stringify({ silenced_checks: ['FW-STRUCT-005', 'FW-NPM-002'] }));
  const { json, report, text } = diagnose(copy.root, 'doctor');
  assert.is(json.status, 0, 'the silenced FAIL no longer fails the command');
  const [entry] = resultsOf(report, 'FW-STRUCT-005');
  assert.is(entry!.status, 'SKIP');
  assert.ok(entry!.detail.startsWith('réduit au silence par fw.config.json (FAIL : app.ts : absent'), entry!.detail);
  assert.is(resultsOf(report, 'FW-NPM-002')[0]!.status, 'SKIP');
  assert.is(resultsOf(report, 'FW-STRUCT-007')[0]!.status, 'OK');
  assert.match(text.stdout, /\[SKIP\] FW-STRUCT-005 Point d'entrée app\.ts — réduit au silence par fw\.config\.json/);
  const skipped = diagnose(copy.root, 'project:audit', ['--skip', 'FW-AUDIT-002', '--skip', 'FW-AUDIT-001']);
  assert.is(skipped.json.status, 0);
  assert.ok(resultsOf(skipped.report, 'FW-AUDIT-002')[0]!.detail.startsWith('réduit au silence par --skip (WARN : '));
  assert.equal(
    skipped.report.checks.filter((c) => c.family === 'audit' && c.status === 'WARN'),
    [],
    'no audit warning left',
  );
});

test('bad options: a malformed --skip id or --env name is an error with advice, exit 1, nothing on stdout', ({ base }) => {
  const badSkip = fw(base.project.root, ['project:check', '--skip', 'ENV2']);
  assert.is(badSkip.status, 1);
  assert.is(badSkip.stdout, '');
  assert.match(badSkip.stderr, /^Erreur : identifiant de contrôle invalide pour --skip : « ENV2 »\.\nConseil : /);
  const badEnv = fw(base.project.root, ['doctor', '--env', '../etc']);
  assert.is(badEnv.status, 1);
  assert.match(badEnv.stderr, /^Erreur : nom d'environnement invalide : « \.\.\/etc »\.\nConseil : /);
});

test('doctor outside a project: the not-a-project error, exit 1; from a sub-folder it finds the project', ({ base }) => {
  const outside = fs.mkdtempSync(path.join(base.scratch, 'outside-'));
  const run = fw(outside, ['doctor']);
  assert.is(run.status, 1);
  assert.is(run.stdout, '');
  assert.match(run.stderr, /^Erreur : le dossier « [^»]+ » n'est pas un projet fw \(aucun dossier mvc\/ ici ni au-dessus\)\.\nConseil : /);
  const below = fw(path.join(base.project.root, 'mvc', 'views'), ['doctor', '--json']);
  assert.is(below.status, 0, below.stdout);
  assert.is(JSON.parse(below.stdout).checks[0].id, 'FW-ENV-001');
});

test('auth: one SKIP when not installed; the auth:doctor checks when registerAuthRoutes is wired', ({ base }) => {
  const plain = diagnose(base.project.root, 'doctor').report;
  assert.equal(
    plain.checks.filter((c) => c.family === 'auth').map((c) => `${c.id} ${c.status}`),
    ['FW-AUTH-001 SKIP'],
  );
  const copy = newCopy(base);
  copy.write('mvc/routes.ts', `${copy.read('mvc/routes.ts')}\n// registerAuthRoutes(router)\n`);
  const wired = diagnose(copy.root, 'doctor').report;
  assert.equal(
    wired.checks.filter((c) => c.family === 'auth').map((c) => c.id),
    Array.from({ length: 9 }, (_, i) => `FW-AUTH-00${i + 1}`),
  );
});

test('every id the families can produce is documented in docs/diagnostics.md, once, with the family file', () => {
  const doc = fs.readFileSync(path.join(REPO, 'docs', 'diagnostics.md'), 'utf8');
  const ids = allDefinitions().map((d) => d.id);
  assert.is(new Set(ids).size, ids.length, 'ids unique');
  for (const id of ids) assert.match(doc, new RegExp(`^\\| \`${id}\` \\|`, 'm'), `${id} documented`);
});

test.run();
