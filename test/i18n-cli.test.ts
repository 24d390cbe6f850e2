// `fw i18n:check` and `fw i18n:init` run as processes in one project made by `fw new`: a clean project passes (and
// still does after `fw make:crud`); each kind of problem fails (exit 1) or warns (exit 0) with the line that names
// the key and the file; i18n:init completes translations/fr.json without touching what is there, once.
import fs from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lines, newProject, type CliProject } from './helpers/cli.js';

let project: CliProject;
let catalogue: string;

test.before(() => {
  project = newProject('Langues');
  catalogue = project.read('translations/fr.json');
});

test.after(async () => {
  await project?.cleanup();
});

/** Puts the catalogues back as fw new made them and removes the files a test added. */
function reset(extra: readonly string[]): void {
  project.write('translations/fr.json', catalogue);
  for (const file of extra) fs.rmSync(project.path(file), { force: true });
}

function check(args: readonly string[] = []): { status: number | null; out: string[] } {
  const run = project.run(['i18n:check', ...args]);
  assert.is(run.stderr, '');
  return { status: run.status, out: lines(run.stdout) };
}

test('a project made by fw new passes: every key it and the framework templates it uses need is translated', () => {
  const { status, out } = check();
  assert.is(status, 0, out.join('\n'));
  assert.equal(
    out.map((line) => line.slice(0, 9)),
    ['  [OK]   ', '  [OK]   ', '  [OK]   ', '  [OK]   ', '0 avertis'],
  );
  assert.match(out[0]!, /^ {2}\[OK\] {3}Catalogues — translations\/fr\.json \(7 clés\) ; framework \(fr : \d+ clés\)$/);
  assert.match(out[1]!, /^ {2}\[OK\] {3}Clés utilisées — \d+ clé\(s\) dans \d+ gabarit\(s\) et 3 fichier\(s\) de code, toutes traduites \(fr\)$/);
  assert.is(out[out.length - 1], '0 avertissement(s), 0 erreur(s).');

  const json = project.run(['i18n:check', '--json']);
  assert.is(json.status, 0);
  const report = JSON.parse(json.stdout) as { ok: boolean; errors: number; warnings: number; checks: Array<{ code: string; status: string }> };
  assert.equal([report.ok, report.errors, report.warnings], [true, 0, 0]);
  assert.equal(
    report.checks.map((c) => c.code),
    ['catalogue', 'missing_key', 'empty_value', 'unused_key'],
  );
});

test('after fw make:crud the generated pages and code are covered by the framework’s catalogue', () => {
  project.write(
    'mvc/entities/produit/produit.json',
    JSON.stringify({
      format_version: 1,
      entity: 'Produit',
      table: 'produits',
      fields: [
        { name: 'id', sql_type: 'INT', primary_key: true, auto_increment: true },
        { name: 'nom', sql_type: 'VARCHAR(100)', list: { filter: true } },
        { name: 'actif', sql_type: 'BOOLEAN', list: { filter: true } },
      ],
    }),
  );
  const made = project.run(['make:crud', 'Produit']);
  assert.is(made.status, 0, made.stderr);
  const { status, out } = check();
  assert.is(status, 0, out.join('\n'));
  assert.match(out[1]!, /Clés utilisées — \d+ clé\(s\) dans \d+ gabarit\(s\) et \d+ fichier\(s\) de code/);
});

test('a key used in a template or in code and missing from the catalogue: FAIL naming the key, the file and the line', () => {
  project.write(
    'mvc/views/home/extra.html',
    `<p>{{ trans('home.absent') }}</p>\n<p>{{ trans("home.absent", { n: 1 }) }}</p>\n<p>{{ trans(dynamic) }} {{ trans('crud.' ~ kind) }}</p>\n`,
  );
  project.write('mvc/controllers/extra.ts', `import { trans } from 'fw-mvc';\n\nexport const message = (): string =>\n  trans("flash.absent");\n`);
  try {
    const { status, out } = check();
    assert.is(status, 1, out.join('\n'));
    assert.ok(out.includes('  [FAIL] Clé manquante — « flash.absent » (mvc/controllers/extra.ts:4) absente de translations/fr.json'), out.join('\n'));
    assert.ok(
      out.includes('  [FAIL] Clé manquante — « home.absent » (mvc/views/home/extra.html:1 et 1 autre(s) endroit(s)) absente de translations/fr.json'),
      out.join('\n'),
    );
    assert.is(out.filter((line) => line.includes('[FAIL]')).length, 2, 'dynamic keys are ignored');
    assert.is(out[out.length - 1], '0 avertissement(s), 2 erreur(s).');
  } finally {
    reset(['mvc/views/home/extra.html', 'mvc/controllers/extra.ts']);
  }
});

test('a template with 40 000 trans() calls: every use found, on its line; i18n:init adds each missing key once', () => {
  // 20 000 lines of two calls each, 100 keys in turn, then one more key on the last line. The line of each use is
  // counted in one pass over the file (cli/i18n/usage.ts lineCounter), not recounted from the start for each call.
  const body = Array.from({ length: 20_000 }, (_, i) => `<p>{{ trans('grand.k${i % 100}') }} {{ trans("grand.k${(i + 50) % 100}") }}</p>\n`).join('');
  project.write('mvc/views/home/grand.html', `${body}<p>{{ trans('grand.fin') }}</p>\n`);
  try {
    const { status, out } = check();
    assert.is(status, 1);
    const failures = out.filter((line) => line.includes('[FAIL]'));
    assert.is(failures.length, 101, failures.slice(0, 3).join('\n'));
    // grand.k7: lines 8, 108, … in the first column and 58, 158, … in the second: 400 uses, the first on line 8.
    assert.ok(
      failures.includes('  [FAIL] Clé manquante — « grand.k7 » (mvc/views/home/grand.html:8 et 399 autre(s) endroit(s)) absente de translations/fr.json'),
      failures.join('\n'),
    );
    assert.ok(
      failures.includes('  [FAIL] Clé manquante — « grand.k57 » (mvc/views/home/grand.html:8 et 399 autre(s) endroit(s)) absente de translations/fr.json'),
      failures.join('\n'),
    );
    assert.ok(
      failures.includes('  [FAIL] Clé manquante — « grand.fin » (mvc/views/home/grand.html:20001) absente de translations/fr.json'),
      failures.join('\n'),
    );

    const run = project.run(['i18n:init']);
    assert.is(run.status, 0, run.stderr);
    const data = JSON.parse(project.read('translations/fr.json')) as Record<string, string>;
    assert.is(Object.keys(data).filter((key) => key.startsWith('grand.')).length, 101);
  } finally {
    reset(['mvc/views/home/grand.html']);
  }
});

test('a key present in one catalogue and not in another: FAIL naming both files', () => {
  project.editJson('translations/fr.json', (data) => {
    data['home.seulement_fr'] = 'Seulement en français';
  });
  project.write('mvc/views/home/extra.html', `{{ trans('home.seulement_fr') }}\n`);
  const fr = JSON.parse(project.read('translations/fr.json')) as Record<string, string>;
  const en = Object.fromEntries(
    Object.keys(fr)
      .filter((key) => key !== 'home.seulement_fr')
      .map((key) => [key, `EN ${key}`]),
  );
  project.write('translations/en.json', JSON.stringify(en, null, 2));
  try {
    const { status, out } = check();
    assert.is(status, 1, out.join('\n'));
    assert.ok(out.includes('  [FAIL] Clé manquante — « home.seulement_fr » (mvc/views/home/extra.html:1) absente de translations/en.json'), out.join('\n'));
    assert.is(out.filter((line) => line.includes('[FAIL]')).length, 1, out.join('\n'));
    assert.not.ok(
      out.some((line) => line.includes('Concordance')),
      'no « same keys » line while a key is missing',
    );
    // An unused key of one catalogue missing from the other.
    project.write('mvc/views/home/extra.html', '');
    const unused = check();
    assert.is(unused.status, 1);
    assert.ok(
      unused.out.includes("  [FAIL] Clé absente d'un catalogue — « home.seulement_fr » est dans translations/fr.json, pas dans translations/en.json"),
      unused.out.join('\n'),
    );
    assert.ok(
      unused.out.includes("  [WARN] Clé inutilisée — « home.seulement_fr » de translations/fr.json : ni le code ni les gabarits ne l'utilisent"),
      unused.out.join('\n'),
    );
  } finally {
    reset(['mvc/views/home/extra.html', 'translations/en.json']);
  }
});

test('an empty value: FAIL; an unused key: WARN only (exit 0); a key overriding the framework’s is not unused', () => {
  project.editJson('translations/fr.json', (data) => {
    data['home.title'] = '  ';
  });
  try {
    const empty = check();
    assert.is(empty.status, 1);
    assert.ok(empty.out.includes('  [FAIL] Valeur vide — « home.title » dans translations/fr.json : à traduire'), empty.out.join('\n'));
    reset([]);
    project.editJson('translations/fr.json', (data) => {
      data['orphan.key'] = 'Personne ne m’utilise';
      data['app.name'] = 'Mon application';
    });
    const unused = check();
    assert.is(unused.status, 0, unused.out.join('\n'));
    assert.equal(
      unused.out.filter((line) => line.includes('[WARN]')),
      ["  [WARN] Clé inutilisée — « orphan.key » de translations/fr.json : ni le code ni les gabarits ne l'utilisent"],
    );
    assert.is(unused.out[unused.out.length - 1], '1 avertissement(s), 0 erreur(s).');
  } finally {
    reset([]);
  }
});

test('an unreadable catalogue is a FAIL', () => {
  project.write('translations/fr.json', '{ "home.title": ');
  try {
    const { status, out } = check();
    assert.is(status, 1);
    assert.match(out[0]!, /^ {2}\[FAIL\] Catalogue illisible — translations\/fr\.json : JSON invalide/);
  } finally {
    reset([]);
  }
});

test('i18n:init appends the missing keys with an empty value, keeps the file’s bytes, and a second run changes nothing', () => {
  project.write('mvc/views/home/extra.html', `{{ trans('zeta.last') }} {{ trans('alpha.first') }} {{ trans('home.title') }} {{ trans('app.name') }}\n`);
  try {
    const run = project.run(['i18n:init']);
    assert.is(run.status, 0, run.stderr);
    const text = project.read('translations/fr.json');
    assert.ok(text.startsWith(catalogue.trimEnd().slice(0, -1).trimEnd()), 'what was there is kept byte for byte');
    assert.ok(text.endsWith('",\n  "alpha.first": "",\n  "zeta.last": ""\n}\n'), text);
    const data = JSON.parse(text) as Record<string, string>;
    assert.is(data['home.title'], JSON.parse(catalogue)['home.title'], 'an existing value is never overwritten');
    assert.not.ok('app.name' in data, 'a key of the framework’s catalogue is not copied');
    assert.match(run.stdout, /^2 clé\(s\) ajoutée\(s\) à translations\/fr\.json avec une valeur vide, à traduire :$/m);

    const before = project.snapshot();
    const again = project.run(['i18n:init']);
    assert.is(again.status, 0);
    assert.equal(project.snapshot(), before);
    assert.match(again.stdout, /^Rien à ajouter/m);

    const { status, out } = check();
    assert.is(status, 1, 'the new keys wait for their translation');
    assert.equal(
      out.filter((line) => line.includes('[FAIL]')),
      [
        '  [FAIL] Valeur vide — « alpha.first » dans translations/fr.json : à traduire',
        '  [FAIL] Valeur vide — « zeta.last » dans translations/fr.json : à traduire',
      ],
    );
  } finally {
    reset(['mvc/views/home/extra.html']);
  }
});

test('i18n:init creates translations/fr.json when absent; refuses an unreadable one, writing nothing', () => {
  fs.rmSync(project.path('translations/fr.json'));
  project.write('mvc/views/home/extra.html', `{{ trans('alpha.first') }}\n`);
  try {
    const run = project.run(['i18n:init']);
    assert.is(run.status, 0, run.stderr);
    // The home page's keys are in the framework's catalogue too (a project without its own still shows text).
    assert.is(project.read('translations/fr.json'), '{\n  "alpha.first": ""\n}\n');
    project.write('translations/fr.json', '[1, ');
    const before = project.snapshot();
    const bad = project.run(['i18n:init']);
    assert.is(bad.status, 1);
    assert.match(bad.stderr, /^Erreur : translations\/fr\.json est illisible : JSON invalide/);
    assert.match(bad.stderr, /\nConseil : corrigez le fichier/);
    assert.equal(project.snapshot(), before);
  } finally {
    reset(['mvc/views/home/extra.html']);
  }
});

test.run();
