// `fw js:init`, `fw build:css` and `fw sync:landing` run as processes in one project made by `fw new`: what they
// write (and that a second run writes nothing), the refusals that write nothing, the packages found in the
// project's node_modules (linked to this repository's, as `npm install` would have installed them).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { REPO, fw, lines, newProject, type CliProject } from './helpers/cli.js';
import { linkPackages } from './helpers/crud-app.js';

let project: CliProject;

test.before(() => {
  project = newProject('Vitrine');
});

test.after(async () => {
  await project?.cleanup();
});

const SCRIPT_HTMX = '<script src="/static/vendor/htmx/htmx.min.js" defer{% if csp_nonce() %} nonce="{{ csp_nonce() }}"{% endif %}></script>';
const SCRIPT_ALPINE = '<script src="/static/vendor/alpine/alpine.min.js" defer{% if csp_nonce() %} nonce="{{ csp_nonce() }}"{% endif %}></script>';

function dependencies(): Record<string, string> {
  return (JSON.parse(project.read('package.json')) as { dependencies: Record<string, string> }).dependencies;
}

/** Runs `fw args`, expects a refusal (exit 1, Erreur then Conseil on stderr) and that no file changed. */
function refused(args: readonly string[], message: RegExp, advice: RegExp): void {
  const before = project.snapshot();
  const run = project.run(args);
  assert.is(run.status, 1, run.stdout + run.stderr);
  const [error, conseil] = lines(run.stderr);
  assert.match(error!, /^Erreur : /);
  assert.match(error!, message);
  assert.match(conseil!, /^Conseil : /);
  assert.match(conseil!, advice);
  assert.equal(project.snapshot(), before, 'rien n’a été écrit');
}

test('js:init: an unknown library, or outside a project, is refused with advice and nothing is written', () => {
  refused(['js:init', 'jquery'], /bibliothèque inconnue « jquery »/, /fw js:init htmx.*fw js:init alpine.*fw js:init htmx-alpine/);
  const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-front-'));
  try {
    const run = fw(outside, ['js:init', 'htmx']);
    assert.is(run.status, 1);
    assert.match(run.stderr, /^Erreur : .*n'est pas un projet fw/);
    assert.equal(fs.readdirSync(outside), []);
  } finally {
    fs.rmSync(outside, { recursive: true, force: true });
  }
});

test('js:init: a package.json that is not JSON is refused, nothing written', () => {
  const original = project.read('package.json');
  project.write('package.json', '{ "name": ');
  try {
    refused(['js:init', 'htmx'], /package\.json n'est pas un JSON valide/, /rien n'a été écrit/);
  } finally {
    project.write('package.json', original);
  }
});

test('js:init htmx-alpine without the packages installed: the dependencies, static/vendor/<lib>/ made, and the advice to npm install', () => {
  const run = project.run(['js:init', 'htmx-alpine']);
  assert.is(run.status, 0, run.stderr);
  assert.is(dependencies()['htmx.org'], '^2');
  assert.is(dependencies()['@alpinejs/csp'], '^3', 'the CSP build of Alpine, never the standard one');
  assert.is(dependencies()['alpinejs'], undefined);
  assert.equal(Object.keys(dependencies()), [...Object.keys(dependencies())].sort(), 'dependencies stay sorted as npm keeps them');
  // The folders exist before the package is installed: the project shows where the builds go.
  assert.ok(fs.statSync(project.path('static/vendor/htmx')).isDirectory());
  assert.ok(fs.statSync(project.path('static/vendor/alpine')).isDirectory());
  assert.equal(fs.readdirSync(project.path('static/vendor/htmx')), []);
  assert.ok(lines(run.stdout).includes('Dossier créé : static/vendor/htmx/'), run.stdout);
  assert.ok(lines(run.stdout).includes('Dossier créé : static/vendor/alpine/'), run.stdout);
  assert.ok(
    lines(run.stdout).includes(
      'htmx.org et @alpinejs/csp ne sont pas installés dans node_modules : lancez « npm install », puis relancez « fw js:init htmx-alpine » pour copier static/vendor/htmx/htmx.min.js et static/vendor/alpine/alpine.min.js.',
    ),
    run.stdout,
  );
  assert.ok(run.stdout.includes(`  ${SCRIPT_HTMX}\n  ${SCRIPT_ALPINE}\n`), run.stdout);
  assert.match(project.read('mvc/views/layouts/base.html'), /<\/body>/);
  assert.not.match(project.read('mvc/views/layouts/base.html'), /vendor/, 'layouts are not modified');

  const before = project.snapshot();
  const again = project.run(['js:init', 'htmx-alpine']);
  assert.is(again.status, 0, again.stderr);
  assert.equal(project.snapshot(), before, 'a second run changes nothing');
  assert.match(again.stdout, /Résumé : aucun fichier\./);
  assert.not.match(again.stdout, /Dossier créé/);
});

test('js:init with the packages installed copies their minified builds; a re-run changes nothing', () => {
  linkPackages(project, ['htmx.org', '@alpinejs/csp']);
  const packageJson = project.read('package.json');
  const run = project.run(['js:init', 'htmx-alpine']);
  assert.is(run.status, 0, run.stderr);
  assert.is(project.read('package.json'), packageJson, 'the dependencies were already there');
  const htmx = fs.readFileSync(path.join(REPO, 'node_modules', 'htmx.org', 'dist', 'htmx.min.js'));
  const alpine = fs.readFileSync(path.join(REPO, 'node_modules', '@alpinejs', 'csp', 'dist', 'cdn.min.js'));
  assert.ok(fs.readFileSync(project.path('static/vendor/htmx/htmx.min.js')).equals(htmx));
  assert.ok(fs.readFileSync(project.path('static/vendor/alpine/alpine.min.js')).equals(alpine));
  assert.match(run.stdout, /^ {2}créé {8}static\/vendor\/htmx\/htmx\.min\.js$/m);
  assert.match(run.stdout, /^htmx 2\.\d+\.\d+ : static\/vendor\/htmx\/htmx\.min\.js$/m);
  assert.match(run.stdout, /^Alpine\.js \(build CSP\) 3\.\d+\.\d+ : static\/vendor\/alpine\/alpine\.min\.js$/m);
  assert.not.match(run.stdout, /block head|htmx-config/, 'layouts/base.html already turns the indicator styles off');
  assert.not.match(run.stdout, /npm install/);

  const before = project.snapshot();
  const again = project.run(['js:init', 'htmx']);
  assert.is(again.status, 0, again.stderr);
  assert.equal(project.snapshot(), before);
  assert.match(again.stdout, /^ {2}inchangé {4}static\/vendor\/htmx\/htmx\.min\.js$/m);
  assert.not.match(again.stdout, /alpine/, 'js:init htmx is about htmx only');
});

test('js:init adds only what is missing and keeps the indentation of package.json', () => {
  project.editJson<{ dependencies: Record<string, string> }>('package.json', (data) => {
    delete data.dependencies['htmx.org'];
  });
  const tabbed = JSON.stringify(JSON.parse(project.read('package.json')), null, '\t') + '\n';
  project.write('package.json', tabbed);
  const run = project.run(['js:init', 'htmx']);
  assert.is(run.status, 0, run.stderr);
  const text = project.read('package.json');
  assert.match(text, /^\t"dependencies": \{\n(\t\t"[^\n]+\n)*\t\t"htmx\.org": "\^2"/m);
  assert.is(dependencies()['@alpinejs/csp'], '^3');
  assert.match(run.stdout, /^ {2}mis à jour {2}package\.json$/m);
});

test('js:init edits package.json as text: CRLF, escapes, big numbers and every other byte kept, one line inserted', () => {
  const original = project.read('package.json');
  const crlf = [
    '{',
    '    "name": "vitrine",',
    '    "description": "caf\\u00e9 \\"ouvert\\"",',
    '    "config": { "port": 12345678901234567890, "ratio": 1.50 },',
    '    "dependencies": {',
    '        "@alpinejs/csp": "^3",',
    '        "fw-mvc": "file:../fw",',
    '        "kysely": "^0.27"',
    '    },',
    '    "files": [ "a", { "b": [] } ]',
    '}',
    '',
  ];
  project.write('package.json', crlf.join('\r\n'));
  try {
    const run = project.run(['js:init', 'htmx']);
    assert.is(run.status, 0, run.stderr);
    const want = [...crlf.slice(0, 7), '        "htmx.org": "^2",', ...crlf.slice(7)].join('\r\n');
    assert.is(project.read('package.json'), want);
    assert.match(run.stdout, /^ {2}mis à jour {2}package\.json$/m);
    assert.equal(project.run(['js:init', 'htmx']).status, 0);
    assert.is(project.read('package.json'), want, 'a second run changes nothing');
  } finally {
    project.write('package.json', original);
  }
});

test('js:init leaves a package declared anywhere alone, even with an empty range; creates dependencies when absent', () => {
  const original = project.read('package.json');
  try {
    for (const field of ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies']) {
      const text = `{\n  "name": "vitrine",\n  "${field}": {\n    "htmx.org": ""\n  }\n}\n`;
      project.write('package.json', text);
      const run = project.run(['js:init', 'htmx']);
      assert.is(run.status, 0, run.stderr);
      assert.is(project.read('package.json'), text, field);
      assert.not.match(run.stdout, /package\.json/, field);
    }
    project.write('package.json', '{\n\t"name": "vitrine",\n\t"private": true\n}\n');
    assert.is(project.run(['js:init', 'htmx-alpine']).status, 0);
    assert.is(
      project.read('package.json'),
      '{\n\t"name": "vitrine",\n\t"private": true,\n\t"dependencies": {\n\t\t"@alpinejs/csp": "^3",\n\t\t"htmx.org": "^2"\n\t}\n}\n',
    );
  } finally {
    project.write('package.json', original);
  }
});

test('build:css without the Tailwind CLI in node_modules: Erreur, Conseil npm install, nothing written', () => {
  refused(['build:css'], /@tailwindcss\/cli.*n'est pas installé/, /npm install/);
});

test('build:css runs the project’s Tailwind CLI: static/tailwind.css gets the classes of the project’s views', () => {
  linkPackages(project, ['@tailwindcss/cli', 'tailwindcss', 'fw-mvc']);
  project.write('mvc/views/home/promo.html', '<p class="text-fuchsia-700 tracking-widest">promo</p>\n');
  assert.not.match(project.read('static/tailwind.css'), /\.text-fuchsia-700/);
  const run = project.run(['build:css']);
  assert.is(run.status, 0, run.stdout + run.stderr);
  const css = project.read('static/tailwind.css');
  assert.match(css, /\.text-fuchsia-700\{/);
  assert.match(css, /\.tracking-widest\{/);
  assert.match(css, /\.htmx-indicator\{opacity:0\}/, 'the rules that replace htmx’s inline <style>');
  assert.not.match(css, /\n {2}/, 'minified');
});

test('build:css passes the tool’s exit code on', () => {
  const input = project.read('static/src/input.css');
  project.write('static/src/input.css', `${input}\n@import "./absent.css";\n`);
  try {
    const direct = spawnSync(
      process.execPath,
      [
        path.join(REPO, 'node_modules', '@tailwindcss', 'cli', 'dist', 'index.mjs'),
        '-i',
        'static/src/input.css',
        '-o',
        path.join(os.tmpdir(), `fw-front-${process.pid}.css`),
      ],
      { cwd: project.root },
    );
    assert.ok(direct.status !== 0, 'the tool itself fails');
    const run = project.run(['build:css']);
    assert.is(run.status, direct.status);
  } finally {
    project.write('static/src/input.css', input);
    fs.rmSync(path.join(os.tmpdir(), `fw-front-${process.pid}.css`), { force: true });
  }
});

// sync:landing

const LANDING = `{% extends "layouts/public.html" %}
{% block title %}{{ trans('landing.title') }}{% endblock %}
{% block content %}
<h1 class="text-3xl font-bold text-gray-900">{{ trans('landing.title') }}</h1>
<img src="/static/img/logo.png" alt="" width="10" height="10">
<p style="background-image: url('/static/img/logo.png')">{{ trans('app.home') }}</p>
{% endblock %}
`;
/** A few bytes that are not UTF-8: the mirror must copy them as they are. */
const LOGO = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0xfe, 0x80]);

test('sync:landing without mvc/views/landing/index.html: Erreur, Conseil fw make:public-page landing, nothing written', () => {
  refused(['sync:landing'], /mvc\/views\/landing\/index\.html introuvable/, /fw make:public-page landing/);
  refused(['sync:landing', '--check'], /mvc\/views\/landing\/index\.html introuvable/, /fw make:public-page landing/);
});

test('sync:landing renders the page to docs/index.html with static/ mirrored, relative URLs, no nonce nor token', () => {
  project.write('mvc/views/landing/index.html', LANDING);
  project.editJson('translations/fr.json', (data) => {
    data['landing.title'] = 'Notre vitrine';
  });
  fs.mkdirSync(project.path('static/img'), { recursive: true });
  fs.writeFileSync(project.path('static/img/logo.png'), LOGO);
  const run = project.run(['sync:landing']);
  assert.is(run.status, 0, run.stderr);
  const html = project.read('docs/index.html');
  assert.match(html, /<title>Notre vitrine<\/title>/);
  assert.match(html, /<h1 class="text-3xl font-bold text-gray-900">Notre vitrine<\/h1>/, 'the project’s translations');
  assert.match(html, /<a href="\.\/" class="[^"]*">Vitrine<\/a>/, 'the framework’s public layout, the application name, a relative home link');
  assert.match(html, /<link rel="stylesheet" href="static\/tailwind\.css">/);
  assert.match(html, /<script src="static\/js\/app\.js" defer><\/script>/);
  assert.match(html, /<img src="static\/img\/logo\.png"/);
  assert.match(html, /url\('static\/img\/logo\.png'\)/);
  assert.not.match(html, /"\/static\//);
  assert.not.match(html, /nonce|csrf_token/);
  for (const file of ['tailwind.css', 'js/app.js', 'vendor/htmx/htmx.min.js', 'vendor/alpine/alpine.min.js', 'img/logo.png', 'src/input.css']) {
    assert.ok(fs.readFileSync(project.path(`docs/static/${file}`)).equals(fs.readFileSync(project.path(`static/${file}`))), file);
  }
  assert.match(run.stdout, /^ {2}créé {8}docs\/static\/img\/logo\.png$/m);

  const check = project.run(['sync:landing', '--check']);
  assert.is(check.status, 0, check.stdout + check.stderr);
  assert.match(check.stdout, /^Page d'accueil statique à jour/);
  const before = project.snapshot();
  const again = project.run(['sync:landing']);
  assert.is(again.status, 0, again.stderr);
  assert.equal(project.snapshot(), before, 'a second run changes nothing');
});

test('sync:landing --check exits 1 and names what is stale, writing nothing; a sync brings it up to date', () => {
  project.write('mvc/views/landing/index.html', LANDING.replace('</h1>', '</h1>\n<p>Nouveau paragraphe.</p>'));
  fs.writeFileSync(project.path('static/img/logo.png'), Buffer.concat([LOGO, Buffer.from([1])]));
  fs.writeFileSync(project.path('docs/static/old.txt'), 'ancien');
  const before = project.snapshot();
  const check = project.run(['sync:landing', '--check']);
  assert.is(check.status, 1, check.stdout + check.stderr);
  assert.equal(project.snapshot(), before, '--check writes nothing');
  assert.equal(lines(check.stdout), [
    "Page d'accueil statique périmée (3 fichier(s)) :",
    '  docs/index.html (différent)',
    '  docs/static/img/logo.png (différent)',
    '  docs/static/old.txt (en trop : absent de static/)',
    'Mettez-la à jour avec « fw sync:landing ».',
  ]);

  const run = project.run(['sync:landing']);
  assert.is(run.status, 0, run.stderr);
  assert.match(run.stdout, /^ {2}supprimé {4}docs\/static\/old\.txt$/m);
  assert.match(run.stdout, /^ {2}mis à jour {2}docs\/index\.html$/m);
  assert.match(project.read('docs/index.html'), /<p>Nouveau paragraphe\.<\/p>/);
  assert.not.ok(project.exists('docs/static/old.txt'));
  assert.is(project.run(['sync:landing', '--check']).status, 0);
});

test('sync:landing refuses a page naming a static file with a « .. », « . » or empty segment, writing nothing', () => {
  const landing = project.read('mvc/views/landing/index.html');
  try {
    for (const name of ['../fw_modules.json', 'img/../../package.json', './tailwind.css', 'img//logo.png', 'img\\logo.png']) {
      project.write('mvc/views/landing/index.html', landing.replace('</h1>', `</h1><a href="/static/${name}">x</a>`));
      for (const args of [['sync:landing'], ['sync:landing', '--check']]) {
        const shown = `/static/${name}`.replace(/[.\\]/g, '\\$&');
        refused(
          args,
          new RegExp(
            `^Erreur : mvc/views/landing/index\\.html nomme « ${shown} » : un fichier statique se nomme par son chemin dans static/, sans segment « \\.\\. », « \\. » ni vide`,
          ),
          /^Conseil : écrivez le chemin du fichier tel qu'il est sous static\/ \(par exemple \/static\/img\/logo\.png\), puis relancez « fw sync:landing »\.$/,
        );
      }
    }
  } finally {
    project.write('mvc/views/landing/index.html', landing);
  }
});

test('sync:landing refuses a page that needs a request (url_for), with advice, writing nothing', () => {
  const landing = project.read('mvc/views/landing/index.html');
  project.write('mvc/views/landing/index.html', landing.replace('</h1>', `</h1><a href="{{ url_for('home') }}">x</a>`));
  try {
    refused(
      ['sync:landing'],
      /le rendu de mvc\/views\/landing\/index\.html a échoué : .*url_for/,
      /url_for n'y est pas disponible, écrivez ces liens en clair/,
    );
  } finally {
    project.write('mvc/views/landing/index.html', landing);
  }
});

test.run();
