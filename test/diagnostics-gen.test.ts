// FW-GEN-001: a regenerable file edited by hand (its marker line kept) is what `npm run check` refuses
// (`fw build:model --check`); doctor, project:check and project:audit report it as a WARN naming the file, the manual
// file the edit belongs in, and the command that regenerates it. A file whose marker line was removed is the user's.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import { fw, lines } from './helpers/cli.js';
import { copyOf, corpusBase, diagnose, resultsOf, type Copy, type DiagnosticCommand } from './helpers/diagnostics.js';

const test = suite<{ base: ReturnType<typeof corpusBase> }>('diagnostics: generated files');

const COMMANDS: readonly DiagnosticCommand[] = ['doctor', 'project:check', 'project:audit'];
const BASE = 'mvc/entities/contact/contact_base.ts';
const CELLS = 'mvc/views/contact/_list_cells.html';

test.before((context) => {
  context.base = corpusBase('GenCorpus');
  for (const args of [
    ['make:entity', 'Contact', '--no-input'],
    ['make:crud', 'Contact', '--public'],
  ]) {
    const run = context.base.project.run(args);
    assert.is(run.status, 0, `fw ${args.join(' ')} : ${run.stdout}${run.stderr}`);
  }
});
test.after(async ({ base }) => {
  await base?.cleanup();
});

const copy = (base: ReturnType<typeof corpusBase>): Copy => copyOf(base.project.root, fs.mkdtempSync(path.join(base.scratch, 'case-')));

test('an untouched project: FW-GEN-001 OK in the three commands', ({ base }) => {
  for (const command of COMMANDS) {
    const run = diagnose(base.project.root, command);
    const found = resultsOf(run.report, 'FW-GEN-001');
    assert.equal(
      found.map((check) => check.status),
      ['OK'],
      `${command} : ${JSON.stringify(found)}`,
    );
  }
});

test('a base class and a list partial edited by hand: a WARN each, naming the file and both ways out', ({ base }) => {
  const c = copy(base);
  c.write(BASE, `${c.read(BASE)}\nexport const AJOUT = 1;\n`);
  c.write(CELLS, c.read(CELLS).replace('<td', '<td data-main="1"'));
  for (const command of COMMANDS) {
    const run = diagnose(c.root, command);
    assert.is(run.json.status, 0, `${command} : ${run.json.stdout}`);
    const found = resultsOf(run.report, 'FW-GEN-001');
    assert.equal(
      found.map((f) => `${f.status} ${f.file}`),
      [`WARN ${BASE}`, `WARN ${CELLS}`],
      `${command} : ${JSON.stringify(found)}`,
    );
    const [baseClass, cells] = found;
    assert.ok(baseClass!.detail.startsWith(`${BASE} : fichier généré qui diffère`), baseClass!.detail);
    assert.ok(baseClass!.hint!.includes('reportez-la dans mvc/entities/contact/contact.ts'), baseClass!.hint);
    assert.ok(baseClass!.hint!.includes('« fw sync:entity Contact » le régénère'), baseClass!.hint);
    assert.ok(cells!.hint!.includes('reportez-la dans mvc/views/contact/_table.html'), cells!.hint);
    assert.match(run.text.stdout, /\[WARN\]\s+FW-GEN-001 Fichiers générés à jour \(build:model --check\) — mvc\/entities\/contact\/contact_base\.ts/);
    assert.ok(run.text.stdout.trimEnd().endsWith('erreur(s).'));
  }
});

test('the same files as `fw build:model --check`; a file whose marker line was removed is the user\u2019s', ({ base }) => {
  const c = copy(base);
  c.write(BASE, `${c.read(BASE)}\nexport const AJOUT = 1;\n`);
  const kept = c.read(CELLS).split('\n').slice(1).join('\n');
  c.write(CELLS, `${kept}\n<!-- à moi -->\n`);
  const run = diagnose(c.root, 'project:check');
  const reported = resultsOf(run.report, 'FW-GEN-001').map((f) => f.file);
  assert.equal(reported, [BASE]);
  const checked = fw(c.root, ['build:model', '--check']);
  assert.is(checked.status, 2, checked.stdout);
  assert.equal(
    lines(checked.stdout)
      .filter((line) => line.startsWith('  '))
      .map((line) => line.trim()),
    reported,
  );
});

test.run();
