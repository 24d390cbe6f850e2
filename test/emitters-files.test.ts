// The file list of an entity and of the relations: paths, kinds, marker line, final newline, determinism.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { modelNode } from '../compiler/ir.js';
import { entityFiles, GENERATED_MARKER, hasGeneratedMarker, modelFiles, relationFiles } from '../emitters/index.js';
import { fixtureModel } from './helpers/fixture-project.js';

test('entityFiles: the five files of an entity, with their kind', () => {
  const model = fixtureModel();
  const contact = model.entities.find((e) => e.name === 'Contact');
  if (!contact) throw new Error('fixture');
  assert.equal(
    entityFiles(model, contact).map((f) => [f.path, f.kind]),
    [
      ['mvc/entities/contact/contact.sql', 'regenerable'],
      ['mvc/entities/contact/contact.sqlite.sql', 'regenerable'],
      ['mvc/entities/contact/contact_base.ts', 'regenerable'],
      ['mvc/entities/contact/contact.ts', 'manual'],
      ['mvc/entities/contact/index.ts', 'manual'],
    ],
  );
});

test('relationFiles: both relation files and the SQLite table of every entity (its foreign keys are inline)', () => {
  assert.equal(
    relationFiles(fixtureModel()).map((f) => [f.path, f.kind]),
    [
      ['mvc/entities/relations.sql', 'regenerable'],
      ['mvc/entities/relations.sqlite.sql', 'regenerable'],
      ['mvc/entities/contact/contact.sqlite.sql', 'regenerable'],
      ['mvc/entities/tag/tag.sqlite.sql', 'regenerable'],
      ['mvc/entities/ville/ville.sqlite.sql', 'regenerable'],
    ],
  );
});

test('a relation removed: relationFiles gives the SQLite table without its inline foreign key', () => {
  const model = fixtureModel();
  const without = modelNode({ entities: model.entities, relations: model.relations.filter((r) => r.type !== 'many_to_one') });
  const contactSqlite = (m: typeof model) => relationFiles(m).find((f) => f.path === 'mvc/entities/contact/contact.sqlite.sql')?.content ?? '';
  assert.match(contactSqlite(model), /FOREIGN KEY \("VilleId"\)/);
  assert.not.match(contactSqlite(without), /FOREIGN KEY/);
});

test('regenerable files start with the marker naming their command; manual files do not', () => {
  const model = fixtureModel();
  const entityOfFolder = new Map(model.entities.map((e) => [e.snake, e.name]));
  for (const file of modelFiles(model)) {
    const first = file.content.split('\n')[0] ?? '';
    if (file.kind === 'manual') {
      assert.not.ok(hasGeneratedMarker(file.content), file.path);
      continue;
    }
    const comment = file.path.endsWith('.ts') ? '//' : '--';
    const folder = file.path.split('/')[2] ?? '';
    const command = file.path.startsWith('mvc/entities/relations') ? 'fw sync:relations' : `fw sync:entity ${entityOfFolder.get(folder)}`;
    assert.is(first, `${comment} ${GENERATED_MARKER} (regenerate with: ${command})`, file.path);
  }
});

test('every file ends with exactly one newline, has no CR, and is the same at every call', () => {
  const first = modelFiles(fixtureModel());
  const second = modelFiles(fixtureModel());
  assert.equal(first, second);
  for (const file of first) {
    assert.ok(file.content.endsWith('\n') && !file.content.endsWith('\n\n'), file.path);
    assert.not.match(file.content, /\r/, file.path);
    assert.not.match(file.content, /[ \t]$/m, `${file.path}: trailing blank`);
  }
  assert.is(new Set(first.map((f) => f.path)).size, first.length, 'each path once');
});

const markerCases: Array<{ name: string; given: string; want: boolean }> = [
  { name: 'SQL line', given: `-- ${GENERATED_MARKER} (regenerate with: fw sync:relations)\nSELECT 1;\n`, want: true },
  { name: 'TypeScript line', given: `// ${GENERATED_MARKER} (regenerate with: fw sync:entity A)\n`, want: true },
  { name: 'with a BOM and CRLF', given: `\uFEFF// ${GENERATED_MARKER}\r\nx\r\n`, want: true },
  { name: 'marker removed', given: '// my own file now\n', want: false },
  { name: 'marker on the second line', given: `\n// ${GENERATED_MARKER}\n`, want: false },
  { name: 'marker text inside code, not a comment', given: `const s = '${GENERATED_MARKER}';\n`, want: false },
  { name: 'empty file', given: '', want: false },
];

for (const c of markerCases) {
  test(`hasGeneratedMarker: ${c.name}`, () => assert.is(hasGeneratedMarker(c.given), c.want));
}

test.run();
