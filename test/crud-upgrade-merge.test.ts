// The parts of `fw make:crud --upgrade` that read no project (docs/decisions.md "Upgrading an entity's files"): the
// frozen emitters of the previous release (emitters/crud/legacy/) give its files byte for byte, for a plain entity
// and one with media (test/fixtures/crud-previous-release/, that release's snapshots); a file cut into sections is
// given back whole; the three-way merge keeps the user's additions, merges imports name by name, keeps a view block
// the new view no longer has, and names the user's lines where both sides changed the same part.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compileProject } from '../compiler/index.js';
import { fileSections } from '../emitters/codemods/file-sections.js';
import { mergeThreeWays } from '../emitters/codemods/three-way-merge.js';
import { planCrud } from '../emitters/crud/files.js';
import { legacyManualFiles } from '../emitters/crud/legacy/index.js';
import { REPO } from './helpers/cli.js';
import { PRODUIT } from './helpers/crud-media.js';
import { FIXTURE_PROJECT } from './helpers/fixture-project.js';
import { filesUnder } from './helpers/crud-media.js';

const PREVIOUS = path.join(REPO, 'test', 'fixtures', 'crud-previous-release');

test('the frozen emitters give the previous release files of Ville and of Produit (media) byte for byte', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-legacy-'));
  try {
    fs.cpSync(path.join(FIXTURE_PROJECT, 'mvc', 'entities'), path.join(root, 'mvc', 'entities'), { recursive: true });
    fs.mkdirSync(path.join(root, 'mvc', 'entities', 'produit'));
    fs.writeFileSync(path.join(root, 'mvc', 'entities', 'produit', 'produit.json'), JSON.stringify(PRODUIT, null, 2));
    const { model, diagnostics } = compileProject(root);
    assert.ok(model, JSON.stringify(diagnostics));
    const expected = new Map(filesUnder(PREVIOUS).map((file) => [file, fs.readFileSync(path.join(PREVIOUS, file), 'utf8')]));
    const produced = new Map([...legacyManualFiles(planCrud(model, 'Ville')), ...legacyManualFiles(planCrud(model, 'Produit', { media: true }))]);
    assert.equal([...produced.keys()].sort(), [...expected.keys()].sort());
    for (const [file, text] of produced) assert.is(text, expected.get(file), file);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('a file cut into sections is given back whole, and names its parts', () => {
  for (const file of filesUnder(PREVIOUS)) {
    const text = fs.readFileSync(path.join(PREVIOUS, file), 'utf8');
    assert.is(
      fileSections(file, text)
        .map((s) => s.text)
        .join(''),
      text,
      file,
    );
  }
  const keys = fileSections(
    'c.ts',
    "import { a } from 'x';\n\nexport class C extends B {\n  static one(): void {}\n  two = 2;\n}\nfunction f(): void {}\n",
  ).map((s) => s.key);
  assert.equal(keys, [
    'import x',
    'class C (comments)',
    'class C',
    'class C.static one (comments)',
    'class C.static one',
    'class C.two (comments)',
    'class C.two',
    'class C/trivia',
    'class C/end',
    'declaration f (comments)',
    'declaration f',
    'end of file',
  ]);
  const blocks = fileSections('v.html', '{% extends "a.html" %}\n{% block a %}{% block inner %}x{% endblock %}{% endblock %}\n{% block b %}y{% endblock %}\n');
  assert.equal(
    blocks.map((s) => s.key),
    ['prelude', 'block a', 'block b'],
  );
});

const BASE_TS = `import { A, B } from 'lib';
import { old } from './old.js';

export class C extends A {
  static first(): number {
    return old();
  }

  static second(): number {
    return 2;
  }
}
`;
const NEXT_TS = `import { A, D } from 'lib';

export class C extends D(A) {
  // Add your own members here.
}
`;

test('members and declarations the user added go into the new class, in their order, with the imports they use', () => {
  const user = BASE_TS.replace(
    '    return 2;\n  }\n}\n',
    '    return 2;\n  }\n\n  static mine(): number {\n    return B.x + old();\n  }\n\n  static mineToo = 3;\n}\n\nexport function helper(): number {\n  return 4;\n}\n',
  );
  const merged = mergeThreeWays('c.ts', BASE_TS, user, NEXT_TS);
  assert.is(
    merged.text,
    `import { A, D, B } from 'lib';
import { old } from './old.js';

export class C extends D(A) {
  // Add your own members here.

  static mine(): number {
    return B.x + old();
  }

  static mineToo = 3;
}

export function helper(): number {
  return 4;
}
`,
  );
});

test('a name only in a comment, a string or after a dot keeps no import', () => {
  const user = BASE_TS.replace(
    '    return 2;\n  }\n}\n',
    "    return 2;\n  }\n\n  /** Not old(), nor B. */\n  static mine(): string {\n    return 'B' + this.old;\n  }\n}\n",
  );
  const merged = mergeThreeWays('c.ts', BASE_TS, user, NEXT_TS).text ?? '';
  assert.match(merged, "import { A, D } from 'lib';\n\nexport class C");
  assert.not.match(merged, './old.js');
});

test('a declaration the new version drops stays while the kept code uses it, with what it uses in turn', () => {
  const base = BASE_TS.replace(
    '\nexport class C',
    "\nconst PREFIX = '/c';\n\nfunction where(): string {\n  return PREFIX;\n}\n\nfunction unused(): number {\n  return 0;\n}\n\nexport class C",
  );
  const user = base.replace('    return 2;\n  }\n}\n', '    return 2;\n  }\n\n  static mine(): string {\n    return where();\n  }\n}\n');
  const merged = mergeThreeWays('c.ts', base, user, NEXT_TS).text ?? '';
  assert.match(
    merged,
    "import { A, D } from 'lib';\n\nconst PREFIX = '/c';\n\nfunction where(): string {\n  return PREFIX;\n}\n\nexport class C extends D(A) {",
  );
  assert.not.match(merged, 'unused');
});

test('a comment the user wrote above a declaration the new version changed is kept above the new one', () => {
  const user = BASE_TS.replace('\nexport class C extends A {', '\n// Mon contrôleur.\nexport class C extends A {');
  assert.match(mergeThreeWays('c.ts', BASE_TS, user, NEXT_TS).text ?? '', "import { A, D } from 'lib';\n\n// Mon contrôleur.\nexport class C extends D(A) {\n");
});

test('an import whose names both sides changed: the new names, plus those the user added', () => {
  const user = BASE_TS.replace("import { A, B } from 'lib';", "import { A, B, E } from 'lib';");
  const merged = mergeThreeWays('c.ts', BASE_TS, user, NEXT_TS);
  assert.match(merged.text ?? '', "import { A, D, E } from 'lib';\n");
});

test('a member the user changed and the new version no longer has is a conflict on its lines', () => {
  const user = BASE_TS.replace('return 2;', 'return 3;');
  const merged = mergeThreeWays('c.ts', BASE_TS, user, NEXT_TS);
  assert.equal(
    merged.conflicts?.map((c) => [c.from, c.to]),
    [[9, 11]],
  );
});

test('a view: a block changed on one side is taken, a block the new view dropped is kept, the same lines changed on both sides conflict', () => {
  const base = '{#- old -#}\n{% extends "layouts/app.html" %}\n{% block content %}\n<h1>{{ title }}</h1>\n<hr>\n<p>list</p>\n{% endblock %}\n';
  const next = '{#- new -#}\n{% extends "crud/index.html" %}\n{% block filters %}{% include "c/_filters.html" %}{% endblock %}\n';
  const user = base.replace('{{ title }}', 'Mon titre');
  assert.is(
    mergeThreeWays('v.html', base, user, next).text,
    '{#- new -#}\n{% extends "crud/index.html" %}\n{% block content %}\n<h1>Mon titre</h1>\n<hr>\n<p>list</p>\n{% endblock %}\n{% block filters %}{% include "c/_filters.html" %}{% endblock %}\n',
  );
  // Both changed the same block: line by line, lines apart merge, the same line (or the next one) conflicts.
  const nextSame = base.replace('<p>list</p>', '<p>liste</p>');
  assert.is(mergeThreeWays('v.html', base, user, nextSame).text, user.replace('<p>list</p>', '<p>liste</p>'));
  const conflict = mergeThreeWays('v.html', base, user, base.replace('{{ title }}', '{{ heading }}'));
  assert.equal(
    conflict.conflicts?.map((c) => [c.from, c.to]),
    [[4, 4]],
  );
  // A partial without blocks that both changed: its lines in the user's file.
  const table = mergeThreeWays('t.html', '<table>\n<tr>\n</table>\n', '<table class="x">\n<tr>\n</table>\n', '{% extends "crud/_table.html" %}\n');
  assert.equal(
    table.conflicts?.map((c) => [c.from, c.to]),
    [[1, 3]],
  );
});

test('a part the user deleted and the new version changed is a conflict', () => {
  const user = BASE_TS.replace("import { A, B } from 'lib';\n", '');
  const merged = mergeThreeWays('c.ts', BASE_TS, user, NEXT_TS);
  assert.ok(merged.conflicts && merged.conflicts.length > 0);
});

test.run();
