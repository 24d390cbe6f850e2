// Corpus of the `mfa` family: hints of the second factor against the `mfa` module of fw_modules.json.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { corpusBase, corpusTests, expectCase, type CorpusCase } from './helpers/diagnostics.js';

const test = suite<{ base: ReturnType<typeof corpusBase> }>('diagnostics: mfa');

test.before((context) => {
  context.base = corpusBase('MfaCorpus');
});
test.after(async ({ base }) => {
  await base?.cleanup();
});

const withMfaModule = (c: { read(r: string): string; write(r: string, t: string): void }) => {
  const data = JSON.parse(c.read('fw_modules.json'));
  data.modules = [{ name: 'mfa' }];
  c.write('fw_modules.json', JSON.stringify(data, null, 2));
};

const CASES: CorpusCase[] = [
  {
    name: 'fw-mvc/mfa imported without the mfa module',
    command: 'doctor',
    defect: (c) =>
      c.write(
        'mvc/controllers/mfa_extra.ts',
        "import { registerMfaRoutes } from 'fw-mvc/mfa';\nexport const wire = (router: unknown) => registerMfaRoutes(router as never);\n",
      ),
    id: 'FW-MFA-001',
    status: 'WARN',
    exit: 0,
    detail: 'mvc/controllers/mfa_extra.ts',
  },
  { name: 'the mfa module without registerMfaRoutes', command: 'project:audit', defect: withMfaModule, id: 'FW-MFA-002', status: 'WARN', exit: 0 },
];

corpusTests(test, CASES);

test('no hint and no module: one OK result', ({ base }) => {
  const { report } = expectCase(base.project.root, base.scratch, {
    name: 'good',
    command: 'doctor',
    defect: () => {},
    id: 'FW-MFA-001',
    status: 'OK',
    exit: 0,
  });
  assert.is(report.checks.filter((c) => c.family === 'mfa').length, 1);
});

test.run();
