// Corpus of the `tpl` family: every .html under mvc/views parsed by nunjucks (never rendered): file and line of a
// syntax error, a template that cannot be read, no template at all.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { corpusBase, corpusTests, expectCase, type CorpusCase } from './helpers/diagnostics.js';
import { walkFiles } from '../cli/checks/files.js';

const test = suite<{ base: ReturnType<typeof corpusBase> }>('diagnostics: tpl');

test.before((context) => {
  context.base = corpusBase('TplCorpus');
});
test.after(async ({ base }) => {
  await base?.cleanup();
});

const HOME = 'mvc/views/home/index.html';

const CASES: CorpusCase[] = [
  {
    name: 'a template with an unclosed variable',
    command: 'project:check',
    defect: (c) => c.write(HOME, `${c.read(HOME)}\n{{ titre }\n`),
    id: 'FW-TPL-002',
    status: 'FAIL',
    exit: 1,
    detail: HOME,
    more: (check) => {
      assert.is(check.file, HOME);
      assert.type(check.line, 'number');
      assert.ok(check.detail.startsWith(`${HOME}:${check.line}`));
    },
  },
  {
    name: 'a template with an unknown tag',
    command: 'doctor',
    defect: (c) => c.write('mvc/views/home/extra.html', '<p>\n{% endfor %}\n'),
    id: 'FW-TPL-002',
    status: 'FAIL',
    exit: 1,
    detail: 'mvc/views/home/extra.html:2',
    more: (check) => assert.is(check.line, 2),
  },
  {
    name: 'a binary template',
    command: 'project:audit',
    defect: (c) => c.write('mvc/views/home/image.html', Buffer.from([0, 1, 2])),
    id: 'FW-TPL-002',
    status: 'FAIL',
    exit: 1,
    detail: 'fichier binaire',
  },
  {
    name: 'no .html under mvc/views',
    command: 'project:check',
    defect: (c) => {
      for (const file of walkFiles(c.root, 'mvc/views').files) c.remove(file);
    },
    id: 'FW-TPL-001',
    status: 'WARN',
    exit: 0,
  },
];

corpusTests(test, CASES);

test('the good project: templates OK', ({ base }) => {
  expectCase(base.project.root, base.scratch, { name: 'good', command: 'project:check', defect: () => {}, id: 'FW-TPL-002', status: 'OK', exit: 0 });
});

test.run();
