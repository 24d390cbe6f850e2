/**
 * Static includes written in place (runtime/templates/inline-includes.ts): every page renders byte for byte as with
 * nunjucks' own include, whitespace control and loop variables included; what would behave differently in place
 * (`set`, macros, blocks, relative or dynamic names, `ignore missing`, raw text) stays an include; a failed render
 * names the file that holds the fault; and the generated CRUD views of the snapshots render the same both ways.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { flattenExtends, inlineIncludes, mergeExtends } from '../runtime/templates/inline-includes.js';
import { NunjucksRenderer } from '../runtime/templates/nunjucks.js';
import { formQuery } from '../runtime/http/url-encoded.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const test = suite('templates: static includes inlined');

const FILES: Record<string, string> = {
  'page.html': 'A\n  {% include "cells.html" %}\nB {%- include "cells.html" -%} C\n{% for row in rows %}<tr>{% include "row.html" %}</tr>\n{% endfor %}',
  'cells.html': '{#- generated, do not edit -#}\n<td>{{ who }}</td>\n{%- if who %} yes{% endif -%}\n',
  'row.html': '<td>{{ loop.index }}/{{ loop.length }} {{ row.name }}{% if loop.last %} last{% endif %}</td>{% include "nested.html" %}',
  'nested.html': '<i>{{ row.id * 2 }}{{ " %} not a tag end" }}</i>',
  'setter.html': '{% set who = "changed" %}<b>{{ who }}</b>',
  'uses-setter.html': '{% include "setter.html" %}[{{ who }}]',
  'macro.html': '{% macro m(x) %}<u>{{ x }}</u>{% endmacro %}{{ m(who) }}',
  'uses-macro.html': '{% include "macro.html" %}',
  'dynamic.html': '{% include name %}|{% include "missing.html" ignore missing %}|{% include "./cells.html" %}',
  'raw.html': '{% raw %}{% include "cells.html" %}{% endraw %}{% verbatim %}{% include "cells.html" %}{% endverbatim %}',
  'loop-a.html': 'a{% include "loop-b.html" %}',
  'loop-b.html': 'b{% if deep %}{% include "loop-a.html" %}{% endif %}',
  'faulty.html': '<p>{% include "faulty-part.html" %}</p>',
  'faulty-part.html': 'line 1\nline 2 {{ nothing_here() }}\n',
  'child.html': '{% extends "base.html" %}{% block body %}[{% include "cells.html" %}]{% endblock %}',
  'base.html': '<body>{% block body %}{% endblock %}</body>',
  'table.html':
    '<t>{% for row in rows %}\n<r>{% block cells %}<c>default {{ row.id }}</c>{% endblock %}\n  {%- block actions -%} <a>{{ row.id }}</a> {%- endblock -%}  </r>{% endfor %}</t>\n',
  'entity-table.html':
    '{#- an entity\'s table -#}\n{% extends "table.html" %}\n{% block cells -%}\n  {% include "cells.html" %}{{ loop.index }}{% endblock cells %}\n',
  'results.html': '[{% include "entity-table.html" %}]\n{% include "entity-table.html" %}',
  'nested-parent.html': '<a>{% block outer %}<o>{% block inner %}i{% endblock %}</o>{% endblock %}</a>',
  'nested-child.html': '{% extends "nested-parent.html" %}{% block inner %}I{{ who }}{% endblock %}',
  'nested-outer.html': '{% extends "nested-parent.html" %}{% block outer %}O{% endblock %}{% block inner %}never{% endblock %}',
  'deep-child.html': '{% extends "child.html" %}{% block body %}deep{% endblock %}',
  'set-child.html': '{% extends "table.html" %}{% block cells %}{% set who = 1 %}{{ who }}{% endblock %}',
  'text-child.html': '{% extends "table.html" %}outside{% block cells %}x{% endblock %}',
  'super-child.html': '{% extends "table.html" %}{% block cells %}[{{ super() }}]{% endblock %}',
  'uses-children.html': '{% include "set-child.html" %}|{% include "text-child.html" %}|{% include "super-child.html" %}|{% include "deep-child.html" %}',
  'extends-merged.html': '{% extends "deep-child.html" %}{% block body %}again{% endblock %}',
  'title-child.html': '{% extends "titled-parent.html" %}{% block title %}<title>T</title>{% endblock %}',
  'titled-parent.html': '{% extends "titled-root.html" %}{% block body %}[{% include "cells.html" %}]{% endblock %}',
  'titled-root.html': '<body>{% block body %}{% endblock %}</body>{% block title %}{% endblock %}',
  'layout-root.html':
    '<html>{% block head %}<t>{{ who }}</t>{% endblock %}<b>{% block body %}<main>{% block content %}{% endblock %}</main>{% endblock %}</b></html>\n',
  'layout-app.html':
    '{#- the application -#}\n{% extends "layout-root.html" %}\n{% block body %}<nav>{% block nav %}n{% endblock %}</nav>\n<main>{%- block content -%}{% endblock -%}</main>{% endblock %}\n',
  'layout-page.html': '{% extends "layout-app.html" %}{% block content %}\n{% for row in rows %}{% include "row.html" %}{% endfor %}\n{% endblock %}',
  'layout-page2.html': '{% extends "layout-page.html" %}{% block nav %}N{{ super() }}{% endblock %}',
};

let dir: string;
const read = (name: string): string | undefined => FILES[name];

test.before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-inline-'));
  for (const [name, text] of Object.entries(FILES)) fs.writeFileSync(path.join(dir, name), text);
});
test.after(() => fs.rmSync(dir, { recursive: true, force: true }));

const CONTEXT = {
  who: 'Zoé & <co>',
  rows: [
    { id: 1, name: 'un' },
    { id: 2, name: 'deux' },
  ],
  name: 'cells.html',
  deep: false,
};

function both(template: string, context: Record<string, unknown> = CONTEXT): { inlined: string; plain: string } {
  const inlined = new NunjucksRenderer({ searchPaths: [dir] }).render(template, context);
  const plain = new NunjucksRenderer({ searchPaths: [dir], inlineIncludes: false }).render(template, context);
  return { inlined, plain };
}

test('a static include is written in place, inside a wrapper that keeps both sides of whitespace control', () => {
  const out = inlineIncludes(FILES['page.html']!, read);
  assert.not.ok(out.includes('include "cells.html"'));
  assert.not.ok(out.includes('include "row.html"'));
  assert.not.ok(out.includes('include "nested.html"'), 'nested includes are inlined too');
  assert.ok(out.includes('{%- if true %}{#- generated'), out);
  assert.ok(out.includes('{% endif -%} C'), out);
});

test('the output is the same byte for byte: whitespace control, loop variables, nested includes, quotes holding %}', () => {
  const { inlined, plain } = both('page.html');
  assert.is(inlined, plain);
  assert.ok(plain.includes('<td>2/2 deux last</td><i>4 %} not a tag end</i>'), plain);
  assert.ok(plain.includes('Zoé &amp; &lt;co&gt;'), 'autoescape applies in place too');
});

test('what would behave differently in place stays an include, with the same output', () => {
  for (const name of ['uses-setter.html', 'uses-macro.html', 'dynamic.html', 'raw.html', 'child.html']) {
    const { inlined, plain } = both(name);
    assert.is(inlined, plain, name);
  }
  assert.ok(inlineIncludes(FILES['uses-setter.html']!, read).includes('{% include "setter.html" %}'), 'a file with set keeps its own frame');
  assert.ok(inlineIncludes(FILES['uses-macro.html']!, read).includes('{% include "macro.html" %}'));
  assert.is(inlineIncludes(FILES['dynamic.html']!, read), FILES['dynamic.html']);
  assert.is(inlineIncludes(FILES['raw.html']!, read), FILES['raw.html'], 'an include written in raw text is text');
  assert.is(both('uses-setter.html').plain, '<b>changed</b>[Zoé &amp; &lt;co&gt;]');
});

test('a partial that only extends another and fills its blocks is written as its parent, blocks in place, byte for byte', () => {
  const flat = flattenExtends(FILES['entity-table.html']!, read);
  assert.ok(flat !== undefined && !flat.includes('block') && !flat.includes('extends'), flat);
  assert.ok(flat.includes('{% if true -%}\n  {% include "cells.html" %}{{ loop.index }}{% endif %}'), flat);
  assert.ok(flat.includes('{%- if true -%} <a>{{ row.id }}</a> {%- endif -%}'), 'a block the child leaves keeps its own text and whitespace control');
  for (const name of ['results.html', 'entity-table.html', 'nested-child.html', 'nested-outer.html']) {
    const { inlined, plain } = both(name);
    assert.is(inlined, plain, name);
  }
  assert.ok(inlineIncludes(FILES['results.html']!, read).includes('<c>') === false, 'the filled block replaces the default');
  assert.not.ok(inlineIncludes(FILES['results.html']!, read).includes('include "entity-table.html"'), 'the flattened partial is inlined');
  assert.is(both('nested-child.html').plain, '<a><o>IZoé &amp; &lt;co&gt;</o></a>');
  assert.is(both('nested-outer.html').plain, '<a>O</a>');
});

test('a child two levels down is written as one too; a page merged with its parent keeps its blocks for whoever extends it', () => {
  assert.is(flattenExtends(FILES['deep-child.html']!, read), '<body>{% if true %}deep{% endif %}</body>');
  assert.is(mergeExtends(FILES['deep-child.html']!, read), '<body>{% block body %}deep{% endblock %}</body>');
  assert.is(mergeExtends(FILES['nested-child.html']!, read), '<a>{% block outer %}<o>{% block inner %}I{{ who }}{% endblock %}</o>{% endblock %}</a>');
  for (const name of ['deep-child.html', 'nested-child.html', 'nested-outer.html', 'entity-table.html', 'extends-merged.html', 'title-child.html']) {
    const { inlined, plain } = both(name);
    assert.is(inlined, plain, name);
  }
  // Extending a merged page overrides its blocks as it would the page's own.
  assert.is(both('extends-merged.html').plain, '<body>again</body>');
  // A block its parent does not hold, but the parent's parent does, still reaches it.
  assert.is(both('title-child.html').plain, '<body>[<td>Zoé &amp; &lt;co&gt;</td> yes]</body><title>T</title>');
});

test('a page rendered is written as one template with its layouts, no block left; extended, it keeps its blocks', () => {
  const flat = flattenExtends(FILES['layout-page.html']!, read);
  assert.ok(flat !== undefined && !flat.includes('block') && !flat.includes('extends'), flat);
  const merged = mergeExtends(FILES['layout-page.html']!, read)!;
  assert.ok(merged.includes('{% block nav %}n{% endblock %}') && !merged.includes('extends'), merged);
  for (const name of ['layout-page.html', 'layout-page2.html', 'layout-app.html']) {
    const { inlined, plain } = both(name);
    assert.is(inlined, plain, name);
  }
  assert.match(both('layout-page2.html').plain, '<nav>Nn</nav>');
  // The layout's `-%}` trims its own text, not the page's (nunjucks' rule, kept).
  assert.match(both('layout-page.html').plain, '<nav>n</nav>\n<main>\n<td>1/2 un</td>');
});

test('a child that would behave otherwise is left to nunjucks: a set, text outside its blocks, super()', () => {
  for (const name of ['set-child.html', 'text-child.html', 'super-child.html']) {
    assert.is(flattenExtends(FILES[name]!, read), undefined, name);
  }
  assert.is(mergeExtends(FILES['super-child.html']!, read), undefined);
  const { inlined, plain } = both('uses-children.html');
  assert.is(inlined, plain);
  assert.ok(plain.includes('<c>default 1</c>'), 'super() gives the default block');
});

test('a cycle of includes is left to nunjucks; the inlining itself ends', () => {
  const out = inlineIncludes(FILES['loop-a.html']!, read);
  assert.ok(out.includes('include "loop-b.html"'), 'the file that comes back stays an include');
  const { inlined, plain } = both('loop-a.html');
  assert.is(inlined, plain);
  assert.is(plain, 'ab');
});

function renderError(renderer: NunjucksRenderer, template: string): Error | undefined {
  try {
    renderer.render(template, {});
  } catch (err) {
    return err as Error;
  }
  return undefined;
}

test('a failed render names the included file and its line, as without inlining', () => {
  const error = renderError(new NunjucksRenderer({ searchPaths: [dir] }), 'faulty.html');
  const plain = renderError(new NunjucksRenderer({ searchPaths: [dir], inlineIncludes: false }), 'faulty.html');
  assert.ok(error && plain, 'the render fails');
  assert.match(error.message, /faulty-part\.html\) \[Line \d+, Column \d+\]/);
  assert.is(error.message, plain.message);
});

test('the generated CRUD views of the snapshots render the same with and without inlining', () => {
  const views = path.join(REPO, 'snapshots', '2-make-crud-contact', 'mvc', 'views');
  const framework = path.join(REPO, 'runtime', 'views');
  const context = {
    title: 'Contacts',
    base: '/contacts',
    layout: 'layouts/app.html',
    rows: [
      { id: 2, nom: 'Durand & fils', prenom: '<b>', email: 'a@b.fr', actif: true, ville_id_label: 'Lyon' },
      { id: 1, nom: 'Martin', prenom: 'Zoé', email: null, actif: false, ville_id_label: null },
    ],
    pagination: {
      pageCount: 3,
      hasPrev: true,
      hasNext: true,
      prevUrl: '?page=1',
      nextUrl: '?page=3',
      links: [
        { page: 1, url: '?page=1' },
        { page: 2, url: '?page=2', current: true },
        { page: null, url: null },
      ],
      total: 41,
    },
    total_label: '41 contacts',
    q: 'a"b',
    sort: 'nom',
    direction: 'asc',
    filters: { actif: '1' },
    filter_choices: { ville_id: [{ value: '1', label: 'Lyon' }] },
    sort_urls: { id: '/contacts?sort=id', nom: '/contacts?sort=nom&direction=desc' },
    sort_states: { nom: 'asc' },
    is_filtered: true,
    state: { q: 'a"b', page: '2' },
    allowed: { show: true, update: true, delete: true, export: true, create: true },
    export_url: '/contacts/export.csv',
    reset_url: '/contacts',
    partial: false,
    key: 'id',
  };
  let compared = 0;
  for (const entry of fs.readdirSync(views, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.html') || entry.name.startsWith('_')) continue;
    const name = path.relative(views, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
    if (name.startsWith('errors/') || name.startsWith('layouts/') || name.startsWith('components/')) continue;
    const inlined = new NunjucksRenderer({ searchPaths: [views, framework] }).render(name, context);
    const plain = new NunjucksRenderer({ searchPaths: [views, framework], inlineIncludes: false }).render(name, context);
    assert.is(inlined, plain, name);
    compared++;
  }
  assert.ok(compared >= 3, `${compared} pages compared`);
});

test('formQuery writes what URLSearchParams writes, names sorted, empty values left out', () => {
  // A fixed pseudo-random sequence: every code unit class (ASCII, Latin-1, BMP, lone and paired surrogates).
  let seed = 42;
  const next = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let i = 0; i < 5000; i++) {
    const text = String.fromCharCode(...Array.from({ length: 1 + Math.floor(next() * 6) }, () => Math.floor(next() * (next() < 0.5 ? 0x80 : 0x10000))));
    const reference = new URLSearchParams();
    reference.append('k', text);
    assert.is(formQuery({ k: text }), reference.toString(), JSON.stringify(text));
  }
  assert.is(formQuery({ z: 'a b', a: ['1', 2], m: '', n: null, page: '3' }, 'page'), 'a=1&a=2&z=a+b');
  assert.is(formQuery({ q: "!'()~*-._" }), 'q=%21%27%28%29%7E*-._');
});

test.run();
