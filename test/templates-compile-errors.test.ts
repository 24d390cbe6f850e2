// A template that does not compile fails the render that uses it, synchronously, and the server answers 500 for
// that page alone; the process keeps serving (docs/decisions.md "A template that does not compile"). nunjucks hands
// the compile error of an included, extended or imported template to a later tick, where nothing catches it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BaseController, NunjucksRenderer, type Router } from '../runtime/index.js';
import { startApp, type TestApp } from './helpers/server.js';

const BROKEN = '<p>Avant {% pas_une_balise %} après</p>';

const VIEWS: Record<string, string> = {
  'ok.html': '<p>Page {{ n }}</p>',
  'include.html': '<main>{% include "_broken.html" %}</main>',
  'include-loop.html': '<ul>{% for i in [1, 2] %}<li>{% include "_broken.html" %}</li>{% endfor %}</ul>',
  'extends.html': '{% extends "_broken_layout.html" %}{% block content %}x{% endblock %}',
  'import.html': '{% import "_broken.html" as m %}<p>{{ n }}</p>',
  '_broken.html': BROKEN,
  '_broken_layout.html': '<body>{% block content %}{% endblock %}{{ }}</body>',
};

const t = suite('templates-compile-errors');
let dir: string;
let renderer: NunjucksRenderer;

t.before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-h7-tpl-'));
  for (const [name, text] of Object.entries(VIEWS)) fs.writeFileSync(path.join(dir, name), text);
  renderer = new NunjucksRenderer({ searchPaths: [dir] });
});

t.after(() => fs.rmSync(dir, { recursive: true, force: true }));

for (const page of ['include.html', 'include-loop.html', 'extends.html', 'import.html']) {
  t(`a ${page.replace('.html', '')} of a template that does not compile throws from render(), at once`, () => {
    assert.throws(
      () => renderer.render(page, { n: 1 }),
      (error: unknown) => error instanceof Error && /Template render error/.test(error.message),
    );
  });
}

t('the template that does not compile is named in the error', () => {
  try {
    renderer.render('include.html', {});
    assert.unreachable('render a réussi');
  } catch (error) {
    assert.match(String((error as Error).message), /pas_une_balise/);
  }
});

t('the same renderer renders a good template afterwards', () => {
  assert.is(renderer.render('ok.html', { n: 2 }), '<p>Page 2</p>');
});

let app: TestApp | undefined;

t('over HTTP: the broken page answers 500 each time, and the other pages keep answering', async () => {
  const files = Object.fromEntries(Object.entries(VIEWS).map(([name, text]) => [`mvc/views/${name}`, text]));
  app = await startApp({
    files,
    routes: (router: Router) => {
      router.add('GET', '/broken', () => BaseController.render('include.html', {}), { public: true });
      router.add('GET', '/ok', () => BaseController.render('ok.html', { context: { n: 3 } }), { public: true });
    },
  });
  for (let i = 0; i < 3; i++) {
    const broken = await app.fetch('/broken');
    assert.is(broken.status, 500);
    const ok = await app.fetch('/ok');
    assert.is(ok.status, 200);
    assert.match(ok.text, '<p>Page 3</p>');
  }
  await app.close();
  app = undefined;
});

t.after(async () => {
  await app?.close();
});

t.run();
