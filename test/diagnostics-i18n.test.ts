// Corpus of the `i18n` family (the rules of `fw i18n:check`, run by doctor and project:audit): one defect per rule.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { corpusBase, corpusTests, expectCase, type CorpusCase } from './helpers/diagnostics.js';

const test = suite<{ base: ReturnType<typeof corpusBase> }>('diagnostics: i18n');

test.before((context) => {
  context.base = corpusBase('I18nCorpus');
});
test.after(async ({ base }) => {
  await base?.cleanup();
});

const FR = 'translations/fr.json';
const HOME = 'mvc/views/home/index.html';
const editFr = (edit: (data: Record<string, unknown>) => void) => (c: { read(r: string): string; write(r: string, t: string): void }) => {
  const data = JSON.parse(c.read(FR));
  edit(data);
  c.write(FR, JSON.stringify(data, null, 2));
};

const CASES: CorpusCase[] = [
  { name: 'a catalogue that is not JSON', command: 'doctor', defect: (c) => c.write(FR, '{ "a": '), id: 'FW-I18N-001', status: 'FAIL', exit: 1, detail: FR },
  {
    name: 'a key used but missing',
    command: 'doctor',
    defect: (c) => c.write(HOME, `${c.read(HOME)}\n{{ trans('corpus.absente') }}\n`),
    id: 'FW-I18N-002',
    status: 'FAIL',
    exit: 1,
    detail: 'corpus.absente',
  },
  {
    name: 'a key of fr.json missing from en.json',
    command: 'project:audit',
    defect: (c) => {
      c.write('translations/en.json', c.read(FR));
      editFr((d) => (d['corpus.seule'] = 'Seule'))(c);
    },
    id: 'FW-I18N-003',
    status: 'FAIL',
    exit: 1,
    detail: 'corpus.seule',
  },
  {
    name: 'an empty value',
    command: 'doctor',
    defect: editFr((d) => (d['corpus.vide'] = '')),
    id: 'FW-I18N-004',
    status: 'FAIL',
    exit: 1,
    detail: 'corpus.vide',
  },
  {
    name: 'a key nothing uses',
    command: 'project:audit',
    defect: editFr((d) => (d['corpus.inutile'] = 'Inutile')),
    id: 'FW-I18N-005',
    status: 'WARN',
    exit: 0,
    detail: 'corpus.inutile',
  },
];

corpusTests(test, CASES);

test('the good project: i18n OK; without translations/ it is one SKIP', ({ base }) => {
  expectCase(base.project.root, base.scratch, { name: 'good', command: 'doctor', defect: () => {}, id: 'FW-I18N-002', status: 'OK', exit: 0 });
  const { report } = expectCase(base.project.root, base.scratch, {
    name: 'no catalogues',
    command: 'doctor',
    defect: (c) => c.remove('translations'),
    id: 'FW-I18N-001',
    status: 'SKIP',
    exit: 0,
  });
  assert.is(report.checks.filter((c) => c.family === 'i18n').length, 1);
});

test.run();
