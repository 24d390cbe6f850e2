// Corpus of the `struct` family (MVC structure, the walk of mvc/, fw.config.json): one defect per case in a copy
// of a real `fw new` project; id, status and exit code in `--json` and in text.
import fs from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { corpusBase, corpusTests, expectCase, type CorpusCase } from './helpers/diagnostics.js';

const test = suite<{ base: ReturnType<typeof corpusBase> }>('diagnostics: struct');

test.before((context) => {
  context.base = corpusBase('StructCorpus');
});
test.after(async ({ base }) => {
  await base?.cleanup();
});

const CASES: CorpusCase[] = [
  {
    name: 'mvc/ absent (app.ts marks the project)',
    command: 'project:check',
    defect: (c) => c.remove('mvc'),
    id: 'FW-STRUCT-001',
    status: 'FAIL',
    exit: 1,
    detail: 'mvc/ : absent',
  },
  { name: 'mvc/controllers/ absent', command: 'project:check', defect: (c) => c.remove('mvc/controllers'), id: 'FW-STRUCT-002', status: 'FAIL', exit: 1 },
  { name: 'mvc/views/ absent', command: 'project:check', defect: (c) => c.remove('mvc/views'), id: 'FW-STRUCT-003', status: 'FAIL', exit: 1 },
  {
    name: 'mvc/views is a file',
    command: 'doctor',
    defect: (c) => (c.remove('mvc/views'), c.write('mvc/views', '')),
    id: 'FW-STRUCT-003',
    status: 'FAIL',
    exit: 1,
    detail: "c'est un fichier",
  },
  { name: 'mvc/routes.ts absent', command: 'project:check', defect: (c) => c.remove('mvc/routes.ts'), id: 'FW-STRUCT-004', status: 'FAIL', exit: 1 },
  {
    name: 'mvc/routes.ts is a folder',
    command: 'doctor',
    defect: (c) => (c.remove('mvc/routes.ts'), c.write('mvc/routes.ts/x', '')),
    id: 'FW-STRUCT-004',
    status: 'FAIL',
    exit: 1,
    detail: "c'est un dossier",
  },
  { name: 'app.ts absent', command: 'project:check', defect: (c) => c.remove('app.ts'), id: 'FW-STRUCT-005', status: 'FAIL', exit: 1 },
  {
    name: 'a symbolic link loop under mvc/ (a link to its own folder)',
    command: 'project:check',
    defect: (c) => fs.symlinkSync('.', c.path('mvc/views/boucle')),
    id: 'FW-STRUCT-006',
    status: 'FAIL',
    exit: 1,
    detail: 'mvc/views/boucle',
    more: (check) => assert.is(check.file, 'mvc/views/boucle'),
  },
  {
    name: 'a link to itself under mvc/ (ELOOP)',
    command: 'doctor',
    defect: (c) => fs.symlinkSync('soi', c.path('mvc/soi')),
    id: 'FW-STRUCT-006',
    status: 'FAIL',
    exit: 1,
    detail: 'mvc/soi : boucle de liens symboliques',
  },
  {
    name: 'a dangling link under mvc/',
    command: 'project:audit',
    defect: (c) => fs.symlinkSync('nulle-part', c.path('mvc/perdu')),
    id: 'FW-STRUCT-006',
    status: 'FAIL',
    exit: 1,
    detail: 'mvc/perdu',
  },
  {
    name: 'fw.config.json not JSON',
    command: 'project:check',
    defect: (c) => c.write('fw.config.json', '{ silenced'),
    id: 'FW-STRUCT-007',
    status: 'FAIL',
    exit: 1,
    detail: 'fw.config.json : JSON invalide',
  },
  {
    name: 'fw.config.json with a bad id',
    command: 'doctor',
    defect: (c) => c.write('fw.config.json', JSON.stringify({ silenced_checks: ['ENV-2'] })),
    id: 'FW-STRUCT-007',
    status: 'FAIL',
    exit: 1,
    detail: '"ENV-2"',
  },
];

corpusTests(test, CASES);

test('the good project: structure OK; fw.config.json absent gives no result', ({ base }) => {
  const { report } = expectCase(base.project.root, base.scratch, {
    name: 'good',
    command: 'project:check',
    defect: () => {},
    id: 'FW-STRUCT-006',
    status: 'OK',
    exit: 0,
  });
  assert.equal(
    report.checks.filter((c) => c.family === 'struct').map((c) => `${c.id} ${c.status}`),
    ['FW-STRUCT-001 OK', 'FW-STRUCT-002 OK', 'FW-STRUCT-003 OK', 'FW-STRUCT-004 OK', 'FW-STRUCT-005 OK', 'FW-STRUCT-006 OK', 'FW-STRUCT-008 OK'],
  );
});

test.run();
