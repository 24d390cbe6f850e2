// Corpus of the `entity` family: entity and relation files compiled by the compiler of `build:model`, and the bad
// input each file can be (binary, 2 MB, a folder in its place, no read permission, a link loop): a FAIL naming it.
import fs from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { corpusBase, corpusTests, expectCase, readsEverything, type CorpusCase } from './helpers/diagnostics.js';

const test = suite<{ base: ReturnType<typeof corpusBase> }>('diagnostics: entity');

test.before((context) => {
  context.base = corpusBase('EntityCorpus');
  const project = context.base.project;
  const made = project.run(['make:entity', 'Produit', '--no-input']);
  if (made.status !== 0) throw new Error(made.stderr);
});
test.after(async ({ base }) => {
  await base?.cleanup();
});

const ENTITY = 'mvc/entities/produit/produit.json';

const CASES: CorpusCase[] = [
  {
    name: 'entity JSON with a syntax error',
    command: 'project:check',
    defect: (c) => c.write(ENTITY, '{\n  "entity": "Produit",\n  oops\n}\n'),
    id: 'FW-ENTITY-002',
    status: 'FAIL',
    exit: 1,
    detail: `${ENTITY}`,
    more: (check) => {
      assert.is(check.file, ENTITY);
      assert.is(check.line, 3);
    },
  },
  {
    name: 'entity with an unknown SQL type',
    command: 'doctor',
    defect: (c) => c.write(ENTITY, c.read(ENTITY).replace(/"sql_type": "[^"]+"/, '"sql_type": "BLOBBY(3)"')),
    id: 'FW-ENTITY-002',
    status: 'FAIL',
    exit: 1,
    detail: ENTITY,
  },
  {
    name: 'a generated file of an entity whose definition is gone',
    command: 'project:check',
    defect: (c) => c.write('mvc/models/fantome_crud.ts', '// fw-mvc: generated file, do not edit (regenerate with: fw sync:entity Fantome)\nexport {};\n'),
    id: 'FW-ENTITY-004',
    status: 'FAIL',
    exit: 1,
    detail: "l'entité « Fantome » n'a plus de définition, mais mvc/models/fantome_crud.ts (généré)",
  },
  {
    name: 'relations.json naming an unknown entity',
    command: 'project:check',
    defect: (c) =>
      c.write(
        'mvc/entities/relations.json',
        JSON.stringify({
          format_version: 1,
          relations: [{ name: 'x', type: 'many_to_one', from_entity: 'Produit', to_entity: 'Fantome', from_field: 'fantome_id' }],
        }),
      ),
    id: 'FW-ENTITY-003',
    status: 'FAIL',
    exit: 1,
    detail: 'mvc/entities/relations.json',
  },
  {
    name: 'a binary entity file',
    command: 'project:check',
    defect: (c) => c.write(ENTITY, Buffer.from([0x7b, 0x00, 0xff, 0x01])),
    id: 'FW-ENTITY-001',
    status: 'FAIL',
    exit: 1,
    detail: `${ENTITY} : fichier binaire`,
  },
  {
    name: 'a 2 MB entity file',
    command: 'doctor',
    defect: (c) => c.write(ENTITY, `{"entity":"Produit","x":"${'a'.repeat(2 * 1024 * 1024)}"}`),
    id: 'FW-ENTITY-001',
    status: 'FAIL',
    exit: 1,
    detail: `${ENTITY} : fichier trop volumineux`,
  },
  {
    name: 'a folder where the entity file is expected',
    command: 'project:check',
    defect: (c) => (c.remove(ENTITY), c.write(`${ENTITY}/x`, '')),
    id: 'FW-ENTITY-001',
    status: 'FAIL',
    exit: 1,
    detail: `${ENTITY} : un dossier`,
    more: (check) => assert.is(check.file, ENTITY),
  },
  {
    name: 'an entity file that is a link loop',
    command: 'project:audit',
    defect: (c) => (c.remove(ENTITY), fs.symlinkSync('produit.json', c.path(ENTITY))),
    id: 'FW-ENTITY-001',
    status: 'FAIL',
    exit: 1,
    detail: ENTITY,
  },
];

if (!readsEverything()) {
  CASES.push({
    name: 'an unreadable entity file (chmod 000)',
    command: 'project:check',
    defect: (c) => fs.chmodSync(c.path(ENTITY), 0),
    id: 'FW-ENTITY-001',
    status: 'FAIL',
    exit: 1,
    detail: 'lecture refusée',
  });
}

corpusTests(test, CASES);

test('the good project with one entity: ENTITY OK', ({ base }) => {
  const { report } = expectCase(base.project.root, base.scratch, {
    name: 'good',
    command: 'project:check',
    defect: () => {},
    id: 'FW-ENTITY-002',
    status: 'OK',
    exit: 0,
    detail: '1 entité(s) valide(s)',
  });
  assert.equal(
    report.checks.filter((c) => c.family === 'entity').map((c) => c.status),
    ['OK', 'OK', 'OK', 'OK'],
  );
});

test.run();
