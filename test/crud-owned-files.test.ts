// What `fw make:crud` gives the user to own, measured on the snapshots of Contact and Ville (snapshots/2-make-crud-contact,
// 3-make-crud-ville; docs/architecture.md "The CRUD of an entity"): the files docs/crud.md "What it writes" lists (controller, model, form,
// index.html, show.html, form.html, _table.html, _pagination.html, _results.html) hold at most 120 lines per entity,
// and no line of one entity's file is found in the other's but imports and declarations: nothing is copied from entity
// to entity, what both would hold is the framework's.
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { REPO } from './helpers/cli.js';

const ENTITIES = [
  { snapshot: '2-make-crud-contact', snake: 'contact' },
  { snapshot: '3-make-crud-ville', snake: 'ville' },
] as const;

/** The user's files of an entity's CRUD pages, as docs/crud.md "What it writes" lists them. */
function ownedFiles(snake: string): string[] {
  const views = ['index', 'show', 'form', '_table', '_pagination', '_results'].map((view) => `mvc/views/${snake}/${view}.html`);
  return [`mvc/controllers/${snake}_controller.ts`, `mvc/models/${snake}_model.ts`, `mvc/forms/${snake}_form.ts`, ...views];
}

function read(snapshot: string, file: string): string[] {
  return fs
    .readFileSync(path.join(REPO, 'snapshots', snapshot, file), 'utf8')
    .replace(/\n$/, '')
    .split('\n');
}

/**
 * An import or a declaration: an `import`, a class, a static member's signature (commented or not) and the brace that
 * ends it; a template's `extends`, an include of a framework template (`crud/…`), the end of a block.
 */
function importOrDeclaration(line: string): boolean {
  const code = line
    .trim()
    .replace(/^\/\/\s?/, '')
    .trim();
  if (code === '' || code === '}' || code === '{') return true;
  if (/^(import |export class |static )/.test(code)) return true;
  return /^\{% (extends "[^"]+"|include "crud\/[^"]+"|endblock) %\}$/.test(code);
}

test('every file docs/crud.md lists is written, and an entity owns at most 120 lines of them', () => {
  for (const { snapshot, snake } of ENTITIES) {
    const counts = ownedFiles(snake).map((file) => [file, read(snapshot, file).length] as const);
    const total = counts.reduce((sum, [, lines]) => sum + lines, 0);
    assert.ok(total <= 120, `${snake}: ${total} lines (${counts.map(([file, lines]) => `${path.basename(file)} ${lines}`).join(', ')})`);
    // Short, and not empty: each one says what is the entity's.
    for (const [file, lines] of counts) assert.ok(lines >= 3, `${file}: ${lines} lines`);
  }
});

test("no line of one entity's files is in the other's but imports and declarations", () => {
  const [contact, ville] = ENTITIES;
  const pairs = ownedFiles(contact.snake).map((file, i) => [file, ownedFiles(ville.snake)[i]!] as const);
  for (const [contactFile, villeFile] of pairs) {
    const villeLines = new Set(read(ville.snapshot, villeFile));
    const shared = read(contact.snapshot, contactFile).filter((line) => villeLines.has(line) && !importOrDeclaration(line));
    assert.equal(shared, [], `${contactFile} and ${villeFile}`);
  }
});

test('the measure tells: the files of before would fail it', () => {
  // The controller of the make:crud before fw-mvc/crud (test/fixtures/crud-before-runtime/): 245 lines on its own.
  const before = fs.readFileSync(path.join(REPO, 'test', 'fixtures', 'crud-before-runtime', 'mvc', 'controllers', 'contact_controller.ts'), 'utf8');
  const lines = before.replace(/\n$/, '').split('\n');
  assert.ok(lines.length > 120, String(lines.length));
  const renamed = new Set(
    lines.map((line) =>
      line
        .replace(/Contact/g, 'Ville')
        .replace(/contact/g, 'ville')
        .replace(/CONTACT/g, 'VILLE'),
    ),
  );
  assert.ok(lines.filter((line) => renamed.has(line) && !importOrDeclaration(line)).length > 100, 'most lines are the same for every entity');
});

test.run();
