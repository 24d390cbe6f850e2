// Corpus of the `audit` family (project:audit only): README, tests, modules not recorded, and the inventory (INFO).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fw } from './helpers/cli.js';
import { corpusBase, corpusTests, expectCase, type CorpusCase } from './helpers/diagnostics.js';

const test = suite<{ base: ReturnType<typeof corpusBase> }>('diagnostics: audit');

test.before((context) => {
  context.base = corpusBase('AuditCorpus');
});
test.after(async ({ base }) => {
  await base?.cleanup();
});

const CASES: CorpusCase[] = [
  { name: 'no README', command: 'project:audit', defect: (c) => c.remove('README.md'), id: 'FW-AUDIT-001', status: 'WARN', exit: 0 },
  {
    name: 'no tests folder (as fw new makes it)',
    command: 'project:audit',
    defect: () => {},
    id: 'FW-AUDIT-002',
    status: 'WARN',
    exit: 0,
    detail: 'aucun dossier test/',
  },
  {
    name: 'a tests folder without test files',
    command: 'project:audit',
    defect: (c) => c.write('test/notes.md', 'à faire\n'),
    id: 'FW-AUDIT-002',
    status: 'WARN',
    exit: 0,
    detail: 'sans fichier',
  },
  {
    name: 'a module under modules/ that fw_modules.json does not record',
    command: 'project:audit',
    defect: (c) =>
      c.write('modules/blog/module.json', JSON.stringify({ name: 'blog', label: 'Blog', version: '1.0.0', description: 'Un blog.', provides: [] })),
    id: 'FW-AUDIT-003',
    status: 'WARN',
    exit: 0,
    detail: 'modules/blog',
  },
];

corpusTests(test, CASES);

test('tests present: AUDIT-002 OK; the inventory is an INFO; doctor and project:check run no audit check', ({ base }) => {
  const { report } = expectCase(base.project.root, base.scratch, {
    name: 'good',
    command: 'project:audit',
    defect: (c) => c.write('test/app.test.ts', 'export {};\n'),
    id: 'FW-AUDIT-002',
    status: 'OK',
    exit: 0,
  });
  assert.ok(report.checks.some((c) => c.id === 'FW-AUDIT-004' && c.status === 'INFO'));
  for (const command of ['doctor', 'project:check'] as const) {
    const other = expectCase(base.project.root, base.scratch, { name: command, command, defect: () => {}, id: 'FW-ENV-001', status: 'OK', exit: 0 });
    assert.ok(!other.report.checks.some((c) => c.family === 'audit'), command);
  }
});

test('the inventory counts the entities, not mvc/entities/relations.json', ({ base }) => {
  const { report } = expectCase(base.project.root, base.scratch, {
    name: 'three entities and a relations file',
    command: 'project:audit',
    defect: (c) => {
      for (const name of ['Ville', 'Contact', 'Pays']) assert.is(fw(c.root, ['make:entity', name, '--no-input']).status, 0);
      assert.is(fw(c.root, ['build:model']).status, 0);
      c.write('mvc/entities/relations.json', '{ "format_version": 1, "relations": [] }\n');
    },
    id: 'FW-AUDIT-004',
    status: 'INFO',
    exit: 0,
  });
  const [inventory] = report.checks.filter((c) => c.id === 'FW-AUDIT-004');
  assert.ok(inventory!.detail.startsWith('3 entité(s), '), inventory!.detail);
});

test.run();
