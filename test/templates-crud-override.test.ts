// A project's template wins over the framework's of the same name (docs/crud.md "Views"): one file replaces a partial
// of every CRUD list (`mvc/views/crud/_pagination.html`), one file of the entity's folder that of one list, and a
// project's file can extend the framework's own (`fw-mvc/crud/_table.html`) to change one block. Rendered from the
// generated views of the snapshot (Contact) and the framework's, with the renderer's inlining and without.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { NunjucksRenderer } from '../runtime/templates/nunjucks.js';
import { REPO } from './helpers/cli.js';

const test = suite('templates: a project overrides the CRUD templates');
const SNAPSHOT_VIEWS = path.join(REPO, 'snapshots', '2-make-crud-contact', 'mvc', 'views');
const FRAMEWORK = path.join(REPO, 'runtime', 'views');

const CONTEXT = {
  title: 'Contacts',
  base: '/contacts',
  key: 'id',
  rows: [
    { id: 2, nom: 'Durand', prenom: 'Zoé', ville_id_label: 'Lyon', actif: true },
    { id: 1, nom: 'Martin', prenom: 'Léa', ville_id_label: null, actif: false },
  ],
  pagination: { pageCount: 2, hasPrev: false, hasNext: true, nextUrl: '?page=2', links: [{ page: 1, url: '?page=1', current: true }], total: 21 },
  total_label: '21 contacts',
  filters: {},
  filter_choices: { ville_id: [], tag_ids: [] },
  sort_urls: {},
  sort_states: {},
  state: {},
  allowed: { index: true, show: true, update: true, delete: true, export: true, create: true },
  export_url: '/contacts/export.csv',
  reset_url: '/contacts',
  partial: false,
};

let dir: string;

/** A project's views: the snapshot's, and `files` on top. */
function project(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(dir, 'views-'));
  fs.cpSync(SNAPSHOT_VIEWS, root, { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), text);
  }
  return root;
}

/** The page rendered with the renderer's inlining, checked against nunjucks' own includes and inheritance. */
function render(views: string, template: string, context: Record<string, unknown> = CONTEXT): string {
  const inlined = new NunjucksRenderer({ searchPaths: [views, FRAMEWORK] }).render(template, context);
  const plain = new NunjucksRenderer({ searchPaths: [views, FRAMEWORK], inlineIncludes: false }).render(template, context);
  assert.is(inlined, plain, template);
  return inlined;
}

test.before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-override-'));
});
test.after(() => fs.rmSync(dir, { recursive: true, force: true }));

test('without a file of its own, the list is the framework’s: its pagination, its actions', () => {
  const page = render(project({}), 'contact/index.html');
  assert.match(page, 'id="crud-total">21 contacts</p>');
  assert.match(page, '<a href="/contacts/2/edit" class="font-medium text-blue-700 hover:underline">');
  assert.match(page, 'aria-label="Sélectionner #2"');
});

test('one file, mvc/views/crud/_pagination.html, replaces the pages of every list, on the page and in the htmx results', () => {
  const views = project({ 'crud/_pagination.html': '<nav id="my-pages">{{ total_label }} en tout</nav>\n' });
  for (const [template, context] of [
    ['contact/index.html', CONTEXT],
    ['contact/_results.html', { ...CONTEXT, partial: true }],
  ] as const) {
    const page = render(views, template, context);
    assert.match(page, '<nav id="my-pages">21 contacts en tout</nav>', template);
    assert.not.match(page, 'id="crud-total"', template);
  }
});

test("the entity's own _pagination.html replaces that of its list only", () => {
  const views = project({ 'contact/_pagination.html': '<p>Pages des contacts</p>\n' });
  assert.match(render(views, 'contact/index.html'), '<p>Pages des contacts</p>');
  assert.match(render(project({}), 'contact/index.html'), 'id="crud-total"');
});

test("a project's crud/_table.html extends the framework's own (fw-mvc/crud/_table.html) and changes one block", () => {
  const views = project({
    'crud/_table.html': '{% extends "fw-mvc/crud/_table.html" %}\n{% block actions %}<a href="{{ base }}/{{ row[key] }}">Ouvrir</a>{% endblock %}\n',
  });
  const page = render(views, 'contact/index.html');
  assert.match(page, '<a href="/contacts/2">Ouvrir</a>');
  assert.match(page, '<a href="/contacts/1">Ouvrir</a>');
  assert.not.match(page, '/contacts/2/edit');
  // The rest is the framework's: the selection boxes, the Contact columns of _list_cells.html.
  assert.match(page, 'aria-label="Sélectionner #2"');
  assert.match(page, '>Durand</td>');
});

test.run();
