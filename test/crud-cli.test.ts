// `fw make:crud` run as a real process in projects made by `fw new`: the files and routes it reports and writes,
// --dry-run and the lines it would insert, idempotence, the user's edits kept, refusals that write nothing and the
// second run after pasting the lines they print, --public seen by the real router (`fw routes:list`). The generated
// code type-checked and its role block: crud-cli-typecheck.test.ts.
import fs from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fateLine, lines, newProject, type CliProject } from './helpers/cli.js';
import { CONTACT, CONTACT_VILLE, CRUD_ROUTES, VILLE, crudRouteLine, linkPackages, ok, writeEntity } from './helpers/crud-cli-project.js';

const projects: CliProject[] = [];
let project: CliProject;

test.after(async () => {
  for (const made of projects) await made.cleanup();
});

function fresh(): CliProject {
  const made = newProject('Carnet');
  projects.push(made);
  return made;
}

const ROUTES = 'mvc/routes.ts';
const MANUAL = 'fichier manuel : jamais réécrit';

/** The lines make:crud writes into registerRoutes for an entity. */
function routeLines(entity: string, plural: string, isPublic = false): string[] {
  return CRUD_ROUTES.map((route) => `  ${crudRouteLine(entity, plural, route, isPublic)}`);
}

/** The list's entry of the application's menu (docs/crud.md "The menu"), as make:crud writes it in routes.ts. */
function menuLine(plural: string, label: string): string {
  return `  router.menu('/${plural}', '${label}');`;
}

/** make:crud's line for the menu entry it adds. */
function menuReport(plural: string, label: string, dryRun = false): string {
  return `Menu ${dryRun ? 'à compléter' : 'complété'} : ${label} (/${plural}) dans ${ROUTES}.`;
}

/** make:crud's list of the routes it adds. */
function addedReport(plural: string, dryRun = false): string[] {
  return [
    `Routes ${dryRun ? 'à ajouter' : 'ajoutées'} à ${ROUTES} (10) :`,
    ...CRUD_ROUTES.map(([method, suffix]) => `  ${method.padEnd(5)} /${plural}${suffix}`),
  ];
}

function entityFiles(snake: string): string[] {
  const dir = `mvc/entities/${snake}`;
  return [`${dir}/${snake}.sql`, `${dir}/${snake}.sqlite.sql`, `${dir}/${snake}_base.ts`, `${dir}/${snake}.ts`, `${dir}/index.ts`];
}

/**
 * The 11 manual files of docs/crud.md "What it writes" (and the bulk-delete page), then the regenerable ones (what derives from the
 * entity, docs/crud.md), in make:crud's order.
 */
function crudFiles(snake: string): string[] {
  const views = ['index', 'show', 'form', '_table', '_pagination', '_results'].map((v) => `mvc/views/${snake}/${v}.html`);
  const regenerable = [
    `mvc/models/${snake}_crud.ts`,
    `mvc/forms/${snake}_fields.ts`,
    ...['_fields', '_filters', '_list_head', '_list_cells'].map((v) => `mvc/views/${snake}/${v}.html`),
  ];
  return [
    `mvc/controllers/${snake}_controller.ts`,
    `mvc/models/${snake}_model.ts`,
    `mvc/forms/${snake}_form.ts`,
    'mvc/views/layouts/app.html',
    ...views,
    ...regenerable,
  ];
}

const PROTECTED = '(routes protégées : connexion requise ; --public pour une application sans connexion)';

// --- one project, step by step ---

let template = '';

test('make:crud Contact --dry-run lists the files and the routes, and writes nothing', () => {
  project = fresh();
  writeEntity(project, VILLE);
  writeEntity(project, CONTACT);
  ok(project, CONTACT_VILLE);
  template = project.read(ROUTES);
  const before = project.snapshot();
  const run = project.run(['make:crud', 'Contact', '--dry-run']);
  assert.is(run.status, 0, run.stderr);
  assert.is(run.stderr, '');
  assert.equal(lines(run.stdout), [
    "Simulation (--dry-run) : aucun fichier n'est écrit.",
    ...[...entityFiles('contact'), ...crudFiles('contact')].map((f) => fateLine('créé', f)),
    fateLine('mis à jour', ROUTES),
    'Résumé (simulation) : 21 créés, 1 mis à jour.',
    ...addedReport('contacts', true),
    menuReport('contacts', 'Contacts', true),
    // Every line routes.ts would get, the import included, where it would go (git diff -U0).
    `Modifications de ${ROUTES} :`,
    '@@ -3,0 +4 @@',
    "+import { ContactController } from './controllers/contact_controller.js';",
    '@@ -6,0 +8,12 @@',
    '+  // Contact (fw make:crud Contact)',
    ...routeLines('Contact', 'contacts').map((line) => `+${line}`),
    `+${menuLine('contacts', 'Contacts')}`,
  ]);
  assert.equal(project.snapshot(), before);
});

test('make:crud Contact creates the CRUD files and adds the 10 routes inside registerRoutes', () => {
  const run = project.run(['make:crud', 'Contact']);
  assert.is(run.status, 0, run.stderr);
  assert.is(run.stderr, '');
  assert.equal(lines(run.stdout), [
    ...[...entityFiles('contact'), ...crudFiles('contact')].map((f) => fateLine('créé', f)),
    fateLine('mis à jour', ROUTES),
    'Résumé : 21 créés, 1 mis à jour.',
    ...addedReport('contacts'),
    menuReport('contacts', 'Contacts'),
    `Liste : /contacts ${PROTECTED}`,
  ]);
  for (const file of crudFiles('contact')) assert.ok(project.read(file).length > 0, file);
  assert.is(
    project.read(ROUTES),
    template
      .replace("home_controller.js';\n", "home_controller.js';\nimport { ContactController } from './controllers/contact_controller.js';\n")
      .replace(/\n}\n$/, `\n  // Contact (fw make:crud Contact)\n${routeLines('Contact', 'contacts').join('\n')}\n${menuLine('contacts', 'Contacts')}\n}\n`),
  );
});

test('a second make:crud Contact changes nothing and adds no route', () => {
  const before = project.snapshot();
  const run = project.run(['make:crud', 'Contact']);
  assert.is(run.status, 0, run.stderr);
  assert.equal(lines(run.stdout), [
    ...[...entityFiles('contact'), ...crudFiles('contact'), ROUTES].map((f) => fateLine('inchangé', f)),
    'Résumé : 22 inchangés.',
    `Routes déjà présentes dans ${ROUTES} : 10.`,
  ]);
  assert.equal(project.snapshot(), before);
});

test("the user's edits of generated files are kept: reported ignoré, never rewritten", () => {
  const view = 'mvc/views/contact/index.html';
  const controller = 'mvc/controllers/contact_controller.ts';
  const edited = `{# ma liste #}\n${project.read(view)}`;
  project.write(view, edited);
  project.write(controller, `${project.read(controller)}\n// mon ajout\n`);
  const before = project.snapshot();
  const run = project.run(['make:crud', 'Contact']);
  assert.is(run.status, 0, run.stderr);
  const fates = lines(run.stdout);
  assert.ok(fates.includes(fateLine('ignoré', view, MANUAL)), run.stdout);
  assert.ok(fates.includes(fateLine('ignoré', controller, MANUAL)), run.stdout);
  assert.ok(fates.includes('Résumé : 20 inchangés, 2 ignorés.'), run.stdout);
  assert.equal(project.snapshot(), before);
  assert.is(project.read(view), edited);
});

test('make:crud Ville --public: public routes for the router (fw routes:list), the shared layout left alone', () => {
  const afterContact = project.read(ROUTES);
  const run = project.run(['make:crud', 'Ville', '--public']);
  assert.is(run.status, 0, run.stderr);
  const layout = 'mvc/views/layouts/app.html';
  assert.equal(lines(run.stdout), [
    ...[...entityFiles('ville'), ...crudFiles('ville')].map((f) => fateLine(f === layout ? 'inchangé' : 'créé', f)),
    fateLine('mis à jour', ROUTES),
    'Résumé : 20 créés, 1 mis à jour, 1 inchangé.',
    ...addedReport('villes'),
    menuReport('villes', 'Villes'),
    'Liste : /villes',
  ]);
  assert.is(
    project.read(ROUTES),
    afterContact
      .replace("contact_controller.js';\n", "contact_controller.js';\nimport { VilleController } from './controllers/ville_controller.js';\n")
      .replace(/\n}\n$/, `\n  // Ville (fw make:crud Ville)\n${routeLines('Ville', 'villes', true).join('\n')}\n${menuLine('villes', 'Villes')}\n}\n`),
  );

  linkPackages(project);
  const listed = project.run(['routes:list', '--json']);
  assert.is(listed.status, 0, listed.stderr);
  const routes = JSON.parse(listed.stdout) as Array<{ method: string; path: string; name: string; public: boolean; csrf: boolean; handler: string }>;
  const expected = (entity: string, plural: string, isPublic: boolean) =>
    CRUD_ROUTES.map(([method, suffix, action, name]) => ({
      method,
      path: `/${plural}${suffix}`,
      name: `${plural}.${name}`,
      public: isPublic,
      csrf: true,
      handler: `${entity}Controller.${action}`,
    }));
  assert.equal(
    routes.map(({ method, path, name, public: isPublic, csrf, handler }) => ({ method, path, name, public: isPublic, csrf, handler })),
    [
      { method: 'GET', path: '/', name: 'home', public: true, csrf: true, handler: 'HomeController.index' },
      ...expected('Contact', 'contacts', false),
      ...expected('Ville', 'villes', true),
    ],
  );
});

test('an unknown entity: exit 1, the known entities named, nothing written', () => {
  const before = project.snapshot();
  const run = project.run(['make:crud', 'Personne']);
  assert.is(run.status, 1);
  assert.is(run.stdout, '');
  assert.equal(lines(run.stderr), [
    'Erreur : entité « Personne » introuvable dans mvc/entities/ (entités connues : Contact, Ville).',
    'Conseil : créez-la avec « fw make:entity Personne », puis relancez « fw make:crud Personne ».',
  ]);
  assert.equal(project.snapshot(), before);
});

test('an entity typed in lower case: the advice names the entity as it is spelt (contact → Contact), a new one in PascalCase (ligne_commande → LigneCommande)', () => {
  const before = project.snapshot();
  const known = project.run(['make:crud', 'contact']);
  assert.is(known.status, 1);
  assert.is(lines(known.stderr)[1], "Conseil : le nom d'une entité s'écrit en PascalCase : « fw make:crud Contact ».");
  const unknown = project.run(['sync:entity', 'ligne_commande']);
  assert.is(unknown.status, 1);
  assert.is(lines(unknown.stderr)[1], 'Conseil : créez-la avec « fw make:entity LigneCommande », puis relancez « fw sync:entity LigneCommande ».');
  assert.equal(project.snapshot(), before);
  // The advice works: that name is one make:entity accepts (its folder removed again).
  const made = project.run(['make:entity', 'LigneCommande', '--no-input']);
  assert.is(made.status, 0, made.stderr);
  fs.rmSync(project.path('mvc/entities/ligne_commande'), { recursive: true });
  assert.equal(project.snapshot(), before);
});

test('an invalid entity file (broken JSON, or a filter on TEXT): exit 1, nothing written', () => {
  const file = 'mvc/entities/contact/contact.json';
  const good = project.read(file);
  fs.rmSync(project.path('mvc/views/contact/show.html'));

  project.write(file, good.replace(/\n}\n$/, '\n'));
  let before = project.snapshot();
  let run = project.run(['make:crud', 'Contact']);
  assert.is(run.status, 1);
  assert.is(run.stdout, '');
  assert.match(run.stderr, /^\[ERREUR\] mvc\/entities\/contact\/contact\.json# : JSON invalide/m);
  assert.match(run.stderr, /^Erreur : 1 erreur dans les définitions d'entités : aucun fichier n'a été écrit\.$/m);
  assert.equal(project.snapshot(), before);

  project.write(file, JSON.stringify({ ...CONTACT, fields: CONTACT.fields.map((f) => (f.name === 'notes' ? { ...f, list: { filter: true } } : f)) }, null, 2));
  before = project.snapshot();
  run = project.run(['make:crud', 'Contact']);
  assert.is(run.status, 1);
  assert.is(run.stdout, '');
  assert.match(run.stderr, /filtre de liste impossible sur le type TEXT/);
  assert.equal(project.snapshot(), before);
  assert.not.ok(project.exists('mvc/views/contact/show.html'));

  project.write(file, good);
});

const RERUN = (entity: string): string => `puis relancez « fw make:crud ${entity} » : elle créera alors les fichiers et reconnaîtra les routes collées :`;

test('routes.ts without registerRoutes: exit 1, nothing written, the lines to paste; pasted, a second run creates the files and adds nothing', () => {
  const routes = project.read(ROUTES);
  const renamed = template.replace('export function registerRoutes', 'export function mesRoutes');
  project.write(ROUTES, renamed);
  const before = project.snapshot();
  const run = project.run(['make:crud', 'Contact']);
  assert.is(run.status, 1);
  assert.is(run.stdout, '');
  const pasted = [
    "import { ContactController } from './controllers/contact_controller.js';",
    '',
    'export function registerRoutes(router: Router): void {',
    ...routeLines('Contact', 'contacts'),
    menuLine('contacts', 'Contacts'),
    '}',
  ];
  assert.equal(lines(run.stderr), [
    `Erreur : ${ROUTES} : la fonction « export function registerRoutes(router: Router) » est introuvable, les routes ne peuvent pas y être ajoutées automatiquement. Aucun fichier n'a été écrit.`,
    `Conseil : collez ces lignes dans ${ROUTES} (les imports en tête avec les autres, la fonction registerRoutes avec ses routes à la suite), ${RERUN('Contact')}`,
    ...pasted,
  ]);
  assert.equal(project.snapshot(), before);
  assert.not.ok(project.exists('mvc/views/contact/show.html'), 'the missing view was not written either');

  // Pasted as told: the import with the others, the function after the rest. The second run writes the missing view,
  // recognises the 10 routes by method and path, and leaves routes.ts as pasted; a third changes nothing.
  const withLines = `${renamed.replace("home_controller.js';\n", `home_controller.js';\n${pasted[0]}\n`)}\n${pasted.slice(2).join('\n')}\n`;
  project.write(ROUTES, withLines);
  const again = project.run(['make:crud', 'Contact']);
  assert.is(again.status, 0, again.stderr);
  const fates = lines(again.stdout);
  assert.ok(fates.includes(fateLine('créé', 'mvc/views/contact/show.html')), again.stdout);
  assert.ok(fates.includes(fateLine('inchangé', ROUTES)), again.stdout);
  assert.ok(fates.includes(`Routes déjà présentes dans ${ROUTES} : 10.`), again.stdout);
  assert.not.ok(again.stdout.includes('Routes ajoutées'), again.stdout);
  assert.is(project.read(ROUTES), withLines);
  const settled = project.snapshot();
  const third = project.run(['make:crud', 'Contact']);
  assert.is(third.status, 0, third.stderr);
  assert.equal(project.snapshot(), settled);

  project.write(ROUTES, routes);
  // The next test expects the view to be missing, as the failed runs above left it.
  fs.rmSync(project.path('mvc/views/contact/show.html'));
});

test('no routes.ts at all: exit 1, nothing written, a routes.ts to create; created from those lines, the second run works', () => {
  const bare = fresh();
  writeEntity(bare, VILLE);
  fs.rmSync(bare.path(ROUTES));
  const before = bare.snapshot();
  const run = bare.run(['make:crud', 'Ville', '--public']);
  assert.is(run.status, 1);
  assert.is(run.stdout, '');
  const file = [
    "import type { Router } from 'fw-mvc';",
    "import { VilleController } from './controllers/ville_controller.js';",
    '',
    'export function registerRoutes(router: Router): void {',
    ...routeLines('Ville', 'villes', true),
    menuLine('villes', 'Villes'),
    '}',
  ];
  assert.equal(lines(run.stderr), [
    `Erreur : ${ROUTES} est introuvable : les routes ne peuvent pas être ajoutées (aucun fichier n'a été écrit).`,
    `Conseil : créez ${ROUTES} avec ces lignes (les imports, les routes et le menu), ${RERUN('Ville')}`,
    ...file,
  ]);
  assert.equal(bare.snapshot(), before);
  bare.write(ROUTES, `${file.join('\n')}\n`);
  const again = bare.run(['make:crud', 'Ville', '--public']);
  assert.is(again.status, 0, again.stderr);
  assert.equal(lines(again.stdout), [
    ...[...entityFiles('ville'), ...crudFiles('ville')].map((f) => fateLine('créé', f)),
    fateLine('inchangé', ROUTES),
    'Résumé : 21 créés, 1 inchangé.',
    `Routes déjà présentes dans ${ROUTES} : 10.`,
  ]);
  // The router sees each route once, wired to the generated controller.
  linkPackages(bare);
  const listed = bare.run(['routes:list', '--json']);
  assert.is(listed.status, 0, listed.stderr);
  const routes = (JSON.parse(listed.stdout) as Array<{ method: string; path: string; handler: string }>).map((r) => `${r.method} ${r.path} ${r.handler}`);
  assert.equal(
    routes,
    CRUD_ROUTES.map(([method, suffix, action]) => `${method} /villes${suffix} VilleController.${action}`),
  );
});

test('routes.ts that does not parse: exit 1 with the line of the error, nothing written', () => {
  const routes = project.read(ROUTES);
  const broken = "router.add('GET', '/contacts', ContactController.index,";
  const line = routes.split('\n').findIndex((text) => text.includes(broken)) + 1;
  project.write(ROUTES, routes.replace(broken, "router.add('GET', '/contacts' ContactController.index,"));
  const before = project.snapshot();
  const run = project.run(['make:crud', 'Contact']);
  assert.is(run.status, 1);
  assert.is(run.stdout, '');
  const [error, advice] = lines(run.stderr);
  assert.match(
    error!,
    new RegExp(
      `^Erreur : ${ROUTES.replace(/\./g, '\\.')} ne se lit pas \\(ligne ${line}, colonne \\d+ : .+\\) : corrigez-le, puis relancez la commande\\. Aucun fichier n'a été écrit\\.$`,
    ),
  );
  assert.is(advice, `Conseil : corrigez ${ROUTES}, puis relancez « fw make:crud Contact ».`);
  assert.equal(project.snapshot(), before);
  project.write(ROUTES, routes);
  // Back to a good routes.ts: the missing view comes back, nothing else changes.
  const again = project.run(['make:crud', 'Contact']);
  assert.is(again.status, 0, again.stderr);
  assert.ok(lines(again.stdout).includes(fateLine('créé', 'mvc/views/contact/show.html')), again.stdout);
  assert.ok(lines(again.stdout).includes(`Routes déjà présentes dans ${ROUTES} : 10.`), again.stdout);
});

test('no entity argument: exit 1 with a usage example', () => {
  const before = project.snapshot();
  const run = project.run(['make:crud']);
  assert.is(run.status, 1);
  assert.is(run.stdout, '');
  assert.equal(lines(run.stderr), ["Erreur : il manque l'argument <Entité> de « fw make:crud ».", 'Conseil : par exemple « fw make:crud Contact ».']);
  assert.equal(project.snapshot(), before);
});

test.run();
