// Symbolic links that lead out of the project: the diagnostics report each one (FW-STRUCT-008) and read none of
// them, so that nothing of the target reaches the report. The target is a file outside the project holding a
// secret-looking string that would break the parser reading it (a template, fw_modules.json, an entity, routes.ts):
// the string must never appear in the output of doctor, project:check or project:audit, in JSON or in text.
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { copyOf, corpusBase, diagnose, resultsOf, type Copy, type DiagnosticCommand } from './helpers/diagnostics.js';

const test = suite<{ base: ReturnType<typeof corpusBase>; outside: string }>('diagnostics: links out of the project');

const SECRET = 'sk_live_h4_5e3b9c1d7a';
/** Breaks nunjucks, JSON, TypeScript and an env file alike: a parser's message would quote it. */
const LEAKY = `{{ ${SECRET} }\n{"cle": ${SECRET}\nconst = ${SECRET};\nA="x" ${SECRET}\n`;
const COMMANDS: readonly DiagnosticCommand[] = ['doctor', 'project:check', 'project:audit'];

test.before((context) => {
  context.base = corpusBase('LinksCorpus');
  // Outside every copy: a file and a folder holding the secret.
  context.outside = fs.mkdtempSync(path.join(context.base.scratch, 'outside-'));
  fs.writeFileSync(path.join(context.outside, 'secret.txt'), LEAKY);
  fs.mkdirSync(path.join(context.outside, 'views'));
  fs.writeFileSync(path.join(context.outside, 'views', 'bad.html'), LEAKY);
});
test.after(async ({ base }) => {
  await base?.cleanup();
});

function copy(base: ReturnType<typeof corpusBase>): Copy {
  return copyOf(base.project.root, fs.mkdtempSync(path.join(base.scratch, 'case-')));
}

function link(c: Copy, relative: string, target: string): void {
  fs.mkdirSync(path.dirname(c.path(relative)), { recursive: true });
  fs.rmSync(c.path(relative), { recursive: true, force: true });
  fs.symlinkSync(target, c.path(relative));
}

/** Runs the three commands (JSON and text): the secret never appears; FW-STRUCT-008 names each link. */
function assertReportedNotRead(root: string, links: readonly string[]): Map<DiagnosticCommand, ReturnType<typeof diagnose>> {
  const runs = new Map<DiagnosticCommand, ReturnType<typeof diagnose>>();
  for (const command of COMMANDS) {
    const run = diagnose(root, command);
    runs.set(command, run);
    const output = `${run.json.stdout}${run.json.stderr}${run.text.stdout}${run.text.stderr}`;
    assert.not.ok(output.includes(SECRET), `${command} : le contenu de la cible apparaît\n${output}`);
    assert.not.ok(/\n\s+at /.test(output), `${command} : pas de trace de pile`);
    const reported = resultsOf(run.report, 'FW-STRUCT-008').filter((check) => check.status === 'WARN');
    assert.equal(
      reported.map((check) => check.file),
      [...links].sort(),
      `${command} : ${JSON.stringify(reported)}`,
    );
    for (const check of reported) assert.ok(check.detail.includes('hors du projet'), check.detail);
    assert.match(run.text.stdout, /\[WARN\]\s+FW-STRUCT-008 Liens symboliques hors du projet — /);
  }
  return runs;
}

test('a template linked to a file outside the project: reported, not parsed', ({ base, outside }) => {
  const c = copy(base);
  link(c, 'mvc/views/home/leak.html', path.join(outside, 'secret.txt'));
  const runs = assertReportedNotRead(c.root, ['mvc/views/home/leak.html']);
  for (const [command, run] of runs) {
    assert.is(run.json.status, 0, `${command} : ${run.json.stdout}`);
    assert.ok(
      resultsOf(run.report, 'FW-TPL-002').every((check) => check.status === 'OK'),
      command,
    );
  }
});

test('a views folder linked outside the project: not walked into', ({ base, outside }) => {
  const c = copy(base);
  link(c, 'mvc/views/ailleurs', path.join(outside, 'views'));
  const runs = assertReportedNotRead(c.root, ['mvc/views/ailleurs']);
  for (const [command, run] of runs) assert.is(run.json.status, 0, `${command} : ${run.json.stdout}`);
});

test('fw_modules.json linked outside the project: a FAIL of FW-MOD-001 that does not read it', ({ base, outside }) => {
  const c = copy(base);
  link(c, 'fw_modules.json', path.join(outside, 'secret.txt'));
  const runs = assertReportedNotRead(c.root, ['fw_modules.json']);
  for (const [command, run] of runs) {
    assert.is(run.json.status, 1, command);
    const [registry] = resultsOf(run.report, 'FW-MOD-001');
    assert.is(registry!.status, 'FAIL');
    assert.is(registry!.detail, 'fw_modules.json : lien symbolique qui mène hors du projet : non lu (voir FW-STRUCT-008)');
  }
});

test('an entity, mvc/routes.ts, env/dev and env/example linked outside the project: refused, never quoted', ({ base, outside }) => {
  const c = copy(base);
  const secret = path.join(outside, 'secret.txt');
  link(c, 'mvc/entities/fuite/fuite.json', secret);
  link(c, 'mvc/routes.ts', secret);
  link(c, 'env/dev', secret);
  link(c, 'env/example', secret);
  const runs = assertReportedNotRead(c.root, ['env/dev', 'env/example', 'mvc/entities/fuite/fuite.json', 'mvc/routes.ts']);
  for (const [command, run] of runs) {
    assert.is(run.json.status, 1, command);
    const entity = resultsOf(run.report, 'FW-ENTITY-001').find((check) => check.file === 'mvc/entities/fuite/fuite.json');
    assert.is(entity?.status, 'FAIL', command);
    assert.ok(resultsOf(run.report, 'FW-ROUTE-001')[0]!.detail.includes('hors du projet'), command);
  }
});

test('a link inside the project is followed as before, and no link at all is OK', ({ base }) => {
  const c = copy(base);
  fs.symlinkSync('index.html', c.path('mvc/views/home/alias.html'));
  const run = diagnose(c.root, 'project:check');
  assert.is(run.json.status, 0, run.json.stdout);
  assert.equal(
    resultsOf(run.report, 'FW-STRUCT-008').map((check) => `${check.status} ${check.detail}`),
    ['OK aucun lien ne sort du projet'],
  );
  assert.ok(
    resultsOf(run.report, 'FW-TPL-001')[0]!.detail.startsWith(
      `${fs.readdirSync(c.path('mvc/views'), { recursive: true }).filter((f) => String(f).endsWith('.html')).length} gabarit(s)`,
    ),
  );
});

test.run();
