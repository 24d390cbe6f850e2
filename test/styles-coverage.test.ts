// Every class of the framework's templates and of the views the generators write exists in the stylesheet `fw new`
// ships (runtime/static/tailwind.css, built by the Tailwind CLI: docs/styles.md), and a project's own
// `npm run build:css` (a devDependency, no npx) covers its views, the CRUD pages of `fw make:crud` included.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { REPO, newProject, type CliProject } from './helpers/cli.js';
import { CONTACT, CONTACT_VILLE, ID, VILLE, linkPackages, ok, writeEntity } from './helpers/crud-cli-project.js';
import { classesOf, classesOfFiles, cssHasClass, filesUnder, missingClasses } from './helpers/view-classes.js';

/** Dates, money, times, and filters on a CHAR, a SMALLINT and a nullable boolean: the other widgets and filter kinds of the pages. */
const ARTICLE = {
  format_version: 1,
  entity: 'Article',
  table: 'articles',
  fields: [
    ID,
    { name: 'libelle', sql_type: 'VARCHAR(200)', constraints: { not_empty: true }, list: { filter: true } },
    { name: 'prix', sql_type: 'DECIMAL(10,2)' },
    { name: 'poids', sql_type: 'DOUBLE', nullable: true },
    { name: 'stock', sql_type: 'SMALLINT', list: { filter: true } },
    { name: 'parution', sql_type: 'DATE', nullable: true },
    { name: 'modifie', sql_type: 'DATETIME', nullable: true },
    { name: 'ouverture', sql_type: 'TIME', nullable: true },
    { name: 'code', sql_type: 'CHAR(5)', list: { filter: true } },
    { name: 'en_vente', sql_type: 'BOOLEAN', nullable: true, list: { filter: true } },
    { name: 'resume', sql_type: 'TEXT', nullable: true },
  ],
};

const SHIPPED_CSS = path.join(REPO, 'runtime', 'static', 'tailwind.css');
let project: CliProject | undefined;

test.after(async () => {
  await project?.cleanup();
});

function made(): CliProject {
  if (!project) throw new Error('le projet n’a pas été créé (premier test)');
  return project;
}

/** The classes of the project's views (framework copies and generated pages) and of the framework's templates and code. */
function usedClasses(): Map<string, string[]> {
  const root = made().root;
  const merged = classesOfFiles(filesUnder(made().path('mvc/views'), ['.html']), root);
  const framework = [
    ...filesUnder(path.join(REPO, 'runtime', 'views'), ['.html']),
    ...filesUnder(path.join(REPO, 'runtime'), ['.ts']).filter((file) => !file.endsWith('.d.ts')),
    ...filesUnder(path.join(REPO, 'cli', 'templates', 'project', 'mvc', 'views'), ['.html']),
  ];
  for (const [name, files] of classesOfFiles(framework, REPO)) merged.set(name, [...(merged.get(name) ?? []), ...files]);
  return merged;
}

// Set up in a test, not in before(): uvu reports a failing before() hook as zero tests run, exit code 0.
test('fw new --no-install, three entities, a relation and fw make:crud for each', () => {
  project = newProject('Vitrine');
  project.useSqlite();
  writeEntity(project, VILLE);
  writeEntity(project, CONTACT);
  writeEntity(project, ARTICLE);
  ok(project, CONTACT_VILLE);
  ok(project, ['make:crud', 'Ville', '--public']);
  ok(project, ['make:crud', 'Contact']);
  ok(project, ['make:crud', 'Article']);
  for (const page of ['index.html', 'form.html', 'show.html', '_table.html']) assert.ok(project.exists(`mvc/views/contact/${page}`), page);
});

test('the class reader lists every literal alternative and skips template expressions', () => {
  const text =
    '<a class="px-2 {{ extra }} {% if on %}bg-blue-50 text-blue-700{% else %}text-gray-600{% endif %}">x</a>\n' +
    '<td class="{{ \'text-right\' if numeric else \'text-left\' }} {% if x == "y" %}font-mono{% endif %} py-2">\n' +
    '{%- set _btn_class = "inline-flex md:grid-cols-4 focus:-outline-offset-1" -%}\n<p class="{{ _btn_class }}">';
  assert.equal([...classesOf(text)].sort(), [
    'bg-blue-50',
    'focus:-outline-offset-1',
    'font-mono',
    'inline-flex',
    'md:grid-cols-4',
    'px-2',
    'py-2',
    'text-blue-700',
    'text-gray-600',
    'text-left',
    'text-right',
  ]);
  assert.ok(cssHasClass('.md\\:grid-cols-4{grid-template-columns:repeat(4,minmax(0,1fr))}', 'md:grid-cols-4'));
  assert.not.ok(cssHasClass('.px-2\\.5{padding-inline:.625rem}', 'px-2'), 'px-2.5 is not px-2');
});

test('every class of the generated views and the framework templates is in the stylesheet fw new ships', () => {
  const classes = usedClasses();
  // What the issue saw unstyled: the reader must find them in the generated pages.
  for (const name of ['grid', 'md:grid-cols-4', 'p-4', 'p-6', 'text-red-700', 'whitespace-nowrap', 'divide-y']) {
    assert.ok(classes.has(name), `${name} absent des vues générées`);
  }
  assert.ok(classes.size > 100, `${classes.size} classes seulement`);
  const shipped = fs.readFileSync(SHIPPED_CSS, 'utf8');
  assert.equal(missingClasses(classes, shipped), [], 'classes absentes de runtime/static/tailwind.css (npm run build:css)');
  assert.is(made().read('static/tailwind.css'), shipped, 'fw new copie la feuille du framework');
});

test('the shipped stylesheet is the Tailwind CLI output of runtime/static/src/input.css, not a hand edit', () => {
  const out = made().path('framework-build.css');
  const cli = path.join(REPO, 'node_modules', '@tailwindcss', 'cli', 'dist', 'index.mjs');
  const run = spawnSync(process.execPath, [cli, '-i', path.join(REPO, 'runtime', 'static', 'src', 'input.css'), '-o', out, '--minify'], {
    cwd: REPO,
    encoding: 'utf8',
    timeout: 120_000,
  });
  assert.is(run.status, 0, run.stdout + run.stderr);
  assert.ok(fs.readFileSync(out, 'utf8') === fs.readFileSync(SHIPPED_CSS, 'utf8'), 'runtime/static/tailwind.css diffère de la sortie de npm run build:css');
});

test("the project's npm run build:css (a devDependency, no npx) covers its views and the generated CRUD pages", () => {
  const target = made();
  const scripts = JSON.parse(target.read('package.json')) as { scripts: Record<string, string>; devDependencies: Record<string, string> };
  assert.is(scripts.scripts['build:css'], 'tailwindcss -i static/src/input.css -o static/tailwind.css --minify');
  assert.ok(scripts.devDependencies['@tailwindcss/cli'], '@tailwindcss/cli en devDependency');
  // Stand-in for `npm install`: fw-mvc, the types and the Tailwind packages linked from this repository.
  linkPackages(target);
  for (const name of ['tailwindcss', '@tailwindcss']) fs.symlinkSync(path.join(REPO, 'node_modules', name), target.path(`node_modules/${name}`), 'dir');
  fs.mkdirSync(target.path('node_modules/.bin'));
  fs.symlinkSync('../@tailwindcss/cli/dist/index.mjs', target.path('node_modules/.bin/tailwindcss'));
  fs.rmSync(target.path('static/tailwind.css'));

  const run = spawnSync('npm', ['run', 'build:css'], { cwd: target.root, encoding: 'utf8', timeout: 120_000 });
  assert.is(run.status, 0, run.stdout + run.stderr);
  const built = target.read('static/tailwind.css');
  assert.equal(missingClasses(usedClasses(), built), [], 'classes absentes du static/tailwind.css du projet');
});

test.run();
