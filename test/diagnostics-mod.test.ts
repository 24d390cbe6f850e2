// Corpus of the `mod` family: fw_modules.json read as `fw module:install` reads it, each local module it records
// checked as `fw module:list` checks it.
import { suite } from 'uvu';
import { corpusBase, corpusTests, expectCase, type CorpusCase } from './helpers/diagnostics.js';

const test = suite<{ base: ReturnType<typeof corpusBase> }>('diagnostics: mod');

test.before((context) => {
  context.base = corpusBase('ModCorpus');
});
test.after(async ({ base }) => {
  await base?.cleanup();
});

const registry = (modules: unknown[]) => JSON.stringify({ framework: { ref: 'stable', version: '0.1.0' }, modules }, null, 2);
const MANIFEST = { name: 'blog', label: 'Blog', version: '1.0.0', description: 'Un blog.', provides: ['views'] };

const CASES: CorpusCase[] = [
  {
    name: 'fw_modules.json not JSON',
    command: 'project:check',
    defect: (c) => c.write('fw_modules.json', '{'),
    id: 'FW-MOD-001',
    status: 'FAIL',
    exit: 1,
    detail: 'fw_modules.json',
  },
  {
    name: 'fw_modules.json modules not a list',
    command: 'doctor',
    defect: (c) => c.write('fw_modules.json', '{"modules": {}}'),
    id: 'FW-MOD-001',
    status: 'FAIL',
    exit: 1,
    detail: 'fw_modules.json#/modules',
  },
  {
    name: 'a recorded local module whose folder is missing',
    command: 'project:check',
    defect: (c) => c.write('fw_modules.json', registry([{ name: 'blog', version: '1.0.0', path: 'modules/blog' }])),
    id: 'FW-MOD-002',
    status: 'FAIL',
    exit: 1,
    detail: 'modules/blog',
  },
  {
    name: 'a recorded local module whose manifest names a missing folder',
    command: 'project:check',
    defect: (c) => {
      c.write('modules/blog/module.json', JSON.stringify(MANIFEST));
      c.write('fw_modules.json', registry([{ name: 'blog', version: '1.0.0', path: 'modules/blog' }]));
    },
    id: 'FW-MOD-002',
    status: 'FAIL',
    exit: 1,
    detail: 'modules/blog/module.json',
  },
];

corpusTests(test, CASES);

test('a consistent local module: MOD OK', ({ base }) => {
  expectCase(base.project.root, base.scratch, {
    name: 'good module',
    command: 'project:check',
    defect: (c) => {
      c.write('modules/blog/module.json', JSON.stringify(MANIFEST));
      c.write('modules/blog/views/index.html', '<p>blog</p>\n');
      c.write('fw_modules.json', registry([{ name: 'blog', version: '1.0.0', path: 'modules/blog' }]));
    },
    id: 'FW-MOD-002',
    status: 'OK',
    exit: 0,
  });
});

test.run();
