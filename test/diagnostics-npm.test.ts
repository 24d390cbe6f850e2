// Corpus of the `npm` family (optional; npm is never run): package.json readable, dependencies installed.
import fs from 'node:fs';
import { suite } from 'uvu';
import { corpusBase, corpusTests, expectCase, type CorpusCase } from './helpers/diagnostics.js';

const test = suite<{ base: ReturnType<typeof corpusBase> }>('diagnostics: npm');

test.before((context) => {
  context.base = corpusBase('NpmCorpus');
});
test.after(async ({ base }) => {
  await base?.cleanup();
});

const CASES: CorpusCase[] = [
  {
    name: 'package.json not JSON',
    command: 'doctor',
    defect: (c) => c.write('package.json', '{ "name": '),
    id: 'FW-NPM-001',
    status: 'FAIL',
    exit: 1,
    detail: 'package.json : JSON invalide',
  },
  {
    name: 'package.json absent',
    command: 'project:audit',
    defect: (c) => c.remove('package.json'),
    id: 'FW-NPM-001',
    status: 'FAIL',
    exit: 1,
    detail: 'introuvable',
  },
  {
    name: 'dependencies not installed (fw new --no-install)',
    command: 'doctor',
    defect: () => {},
    id: 'FW-NPM-002',
    status: 'WARN',
    exit: 0,
    detail: 'node_modules/ absent',
  },
  {
    name: 'node_modules without fw-mvc',
    command: 'doctor',
    defect: (c) => fs.mkdirSync(c.path('node_modules')),
    id: 'FW-NPM-002',
    status: 'WARN',
    exit: 0,
    detail: 'node_modules/fw-mvc absent',
  },
];

corpusTests(test, CASES);

test('installed dependencies: NPM OK', ({ base }) => {
  expectCase(base.project.root, base.scratch, {
    name: 'good',
    command: 'doctor',
    defect: (c) => fs.mkdirSync(c.path('node_modules/fw-mvc'), { recursive: true }),
    id: 'FW-NPM-002',
    status: 'OK',
    exit: 0,
  });
});

test.run();
