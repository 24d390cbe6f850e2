// `fw make:crud` run as a real process in projects made by `fw new`: the files and routes it reports and writes,
// --dry-run, idempotence, the user's edits kept, refusals that write nothing, --public seen by the real router
// (`fw routes:list`), and a generated project with every field type that type-checks (`tsc --noEmit`) and whose
// role block is enforced by the generated controller.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { REPO, TSC, fateLine, lines, newProject, type CliProject } from './helpers/cli.js';

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

function ok(target: CliProject, args: string[]): string {
  const run = target.run(args);
  assert.is(run.status, 0, `fw ${args.join(' ')} : ${run.stdout}${run.stderr}`);
  return run.stdout;
}

/** `node_modules/fw-mvc` → this repository and `@types` → ours, as after `npm install` (no network). */
function linkPackages(target: CliProject): void {
  fs.mkdirSync(target.path('node_modules'), { recursive: true });
  fs.symlinkSync(REPO, target.path('node_modules/fw-mvc'), 'dir');
  fs.symlinkSync(path.join(REPO, 'node_modules', '@types'), target.path('node_modules/@types'), 'dir');
}

const ID = { name: 'id', sql_type: 'INT', primary_key: true, auto_increment: true };

const VILLE = {
  format_version: 1,
  entity: 'Ville',
  table: 'villes',
  fields: [ID, { name: 'nom', sql_type: 'VARCHAR(100)', constraints: { not_empty: true } }],
};

const CONTACT = {
  format_version: 1,
  entity: 'Contact',
  table: 'contacts',
  fields: [
    ID,
    { name: 'nom', sql_type: 'VARCHAR(100)', constraints: { not_empty: true }, list: { filter: true } },
    { name: 'prenom', sql_type: 'VARCHAR(100)' },
    { name: 'email', sql_type: 'VARCHAR(190)', unique: true },
    { name: 'telephone', sql_type: 'VARCHAR(30)', nullable: true },
    { name: 'actif', sql_type: 'BOOLEAN', list: { filter: true } },
    { name: 'notes', sql_type: 'TEXT', nullable: true },
    { name: 'ville_id', sql_type: 'INT', nullable: true },
  ],
};

const CONTACT_VILLE = ['make:relation', '--name', 'contact_ville', '--type', 'many_to_one', '--from', 'Contact.ville_id', '--to', 'Ville.id', '--on-delete', 'SET NULL', '--on-update', 'CASCADE', '--no-input'];

function writeEntity(target: CliProject, definition: { entity: string }): void {
  const snake = definition.entity.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
  target.write(`mvc/entities/${snake}/${snake}.json`, `${JSON.stringify(definition, null, 2)}\n`);
}

const ROUTES = 'mvc/routes.ts';
const MANUAL = 'fichier manuel : jamais réécrit';

/** The routes of the spec's table, in the order make:crud adds them: [method, path suffix, action, name]. */
const CRUD_ROUTES: ReadonlyArray<readonly [string, string, string, string]> = [
  ['GET', '', 'index', 'index'],
  ['GET', '/new', 'create', 'new'],
  ['POST', '', 'store', 'store'],
  ['GET', '/export.csv', 'exportCsv', 'export'],
  ['POST', '/bulk-delete', 'bulkDelete', 'bulk_delete'],
  ['POST', '/bulk-delete/confirm', 'bulkDeleteConfirm', 'bulk_delete_confirm'],
  ['GET', '/{id}', 'show', 'show'],
  ['GET', '/{id}/edit', 'edit', 'edit'],
  ['POST', '/{id}', 'update', 'update'],
  ['POST', '/{id}/delete', 'destroy', 'delete'],
];

/** The lines make:crud writes into registerRoutes for an entity. */
function routeLines(entity: string, plural: string, isPublic = false): string[] {
  return CRUD_ROUTES.map(
    ([method, suffix, action, name]) => `  router.add('${method}', '/${plural}${suffix}', ${entity}Controller.${action}, { name: '${plural}.${name}'${isPublic ? ', public: true' : ''} });`,
  );
}

/** make:crud's list of the routes it adds. */
function addedReport(plural: string, dryRun = false): string[] {
  return [`Routes ${dryRun ? 'à ajouter' : 'ajoutées'} à ${ROUTES} (10) :`, ...CRUD_ROUTES.map(([method, suffix]) => `  ${method.padEnd(5)} /${plural}${suffix}`)];
}

function entityFiles(snake: string): string[] {
  const dir = `mvc/entities/${snake}`;
  return [`${dir}/${snake}.sql`, `${dir}/${snake}.sqlite.sql`, `${dir}/${snake}_base.ts`, `${dir}/${snake}.ts`, `${dir}/index.ts`];
}

/** The 11 files of the spec's list (and the bulk-delete page), in make:crud's order. */
function crudFiles(snake: string): string[] {
  const views = ['index', 'show', 'form', '_table', '_pagination', '_results', 'bulk_delete'].map((v) => `mvc/views/${snake}/${v}.html`);
  return [`mvc/controllers/${snake}_controller.ts`, `mvc/models/${snake}_model.ts`, `mvc/forms/${snake}_form.ts`, 'mvc/views/layouts/app.html', ...views];
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
    'Résumé (simulation) : 16 créés, 1 mis à jour.',
    ...addedReport('contacts', true),
    // Every line routes.ts would get, the import included, where it would go (git diff -U0).
    `Modifications de ${ROUTES} :`,
    '@@ -3,0 +4 @@',
    "+import { ContactController } from './controllers/contact_controller.js';",
    '@@ -6,0 +8,11 @@',
    '+  // Contact (fw make:crud Contact)',
    ...routeLines('Contact', 'contacts').map((line) => `+${line}`),
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
    'Résumé : 16 créés, 1 mis à jour.',
    ...addedReport('contacts'),
    `Liste : /contacts ${PROTECTED}`,
  ]);
  for (const file of crudFiles('contact')) assert.ok(project.read(file).length > 0, file);
  assert.is(
    project.read(ROUTES),
    template
      .replace("home_controller.js';\n", "home_controller.js';\nimport { ContactController } from './controllers/contact_controller.js';\n")
      .replace(/\n}\n$/, `\n  // Contact (fw make:crud Contact)\n${routeLines('Contact', 'contacts').join('\n')}\n}\n`),
  );
});

test('a second make:crud Contact changes nothing and adds no route', () => {
  const before = project.snapshot();
  const run = project.run(['make:crud', 'Contact']);
  assert.is(run.status, 0, run.stderr);
  assert.equal(lines(run.stdout), [
    ...[...entityFiles('contact'), ...crudFiles('contact'), ROUTES].map((f) => fateLine('inchangé', f)),
    'Résumé : 17 inchangés.',
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
  assert.ok(fates.includes('Résumé : 15 inchangés, 2 ignorés.'), run.stdout);
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
    'Résumé : 15 créés, 1 mis à jour, 1 inchangé.',
    ...addedReport('villes'),
    'Liste : /villes',
  ]);
  assert.is(
    project.read(ROUTES),
    afterContact
      .replace("contact_controller.js';\n", "contact_controller.js';\nimport { VilleController } from './controllers/ville_controller.js';\n")
      .replace(/\n}\n$/, `\n  // Ville (fw make:crud Ville)\n${routeLines('Ville', 'villes', true).join('\n')}\n}\n`),
  );

  linkPackages(project);
  const listed = project.run(['routes:list', '--json']);
  assert.is(listed.status, 0, listed.stderr);
  const routes = JSON.parse(listed.stdout) as Array<{ method: string; path: string; name: string; public: boolean; csrf: boolean; handler: string }>;
  const expected = (entity: string, plural: string, isPublic: boolean) =>
    CRUD_ROUTES.map(([method, suffix, action, name]) => ({ method, path: `/${plural}${suffix}`, name: `${plural}.${name}`, public: isPublic, csrf: true, handler: `${entity}Controller.${action}` }));
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
    'Conseil : créez-la avec « fw make:entity Personne ».',
  ]);
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
    '}',
  ];
  assert.equal(lines(run.stderr), [
    `Erreur : ${ROUTES} est introuvable : les routes ne peuvent pas être ajoutées (aucun fichier n'a été écrit).`,
    `Conseil : créez ${ROUTES} avec ces lignes (les imports et les routes), ${RERUN('Ville')}`,
    ...file,
  ]);
  assert.equal(bare.snapshot(), before);
  bare.write(ROUTES, `${file.join('\n')}\n`);
  const again = bare.run(['make:crud', 'Ville', '--public']);
  assert.is(again.status, 0, again.stderr);
  assert.equal(lines(again.stdout), [
    ...[...entityFiles('ville'), ...crudFiles('ville')].map((f) => fateLine('créé', f)),
    fateLine('inchangé', ROUTES),
    'Résumé : 16 créés, 1 inchangé.',
    `Routes déjà présentes dans ${ROUTES} : 10.`,
  ]);
  // The router sees each route once, wired to the generated controller.
  linkPackages(bare);
  const listed = bare.run(['routes:list', '--json']);
  assert.is(listed.status, 0, listed.stderr);
  const routes = (JSON.parse(listed.stdout) as Array<{ method: string; path: string; handler: string }>).map((r) => `${r.method} ${r.path} ${r.handler}`);
  assert.equal(routes, CRUD_ROUTES.map(([method, suffix, action]) => `${method} /villes${suffix} VilleController.${action}`));
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
  assert.match(error!, new RegExp(`^Erreur : ${ROUTES.replace(/\./g, '\\.')} ne se lit pas \\(ligne ${line}, colonne \\d+ : .+\\) : corrigez-le, puis relancez la commande\\. Aucun fichier n'a été écrit\\.$`));
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

// --- a project with every field type ---

const FICHE = {
  format_version: 1,
  entity: 'Fiche',
  table: 'fiches',
  description: 'Une fiche avec tous les types',
  fields: [
    ID,
    { name: 'quantite', sql_type: 'INT', list: { filter: true } },
    { name: 'grand', sql_type: 'BIGINT UNSIGNED' },
    { name: 'petit', sql_type: 'TINYINT', nullable: true },
    { name: 'prix', sql_type: 'DECIMAL(10,2)' },
    { name: 'remise', sql_type: 'DECIMAL(5,2)', nullable: true },
    { name: 'ratio', sql_type: 'FLOAT', nullable: true },
    { name: 'jour', sql_type: 'DATE' },
    { name: 'rappel', sql_type: 'DATE', nullable: true },
    { name: 'moment', sql_type: 'DATETIME', nullable: true },
    { name: 'heure', sql_type: 'TIME', nullable: true },
    { name: 'resume', sql_type: 'TEXT', nullable: true },
    { name: 'code', sql_type: 'CHAR(5)', list: { filter: true } },
    { name: 'courriel', sql_type: 'VARCHAR(190)', nullable: true },
    { name: 'site_url', sql_type: 'VARCHAR(255)', nullable: true },
    { name: 'telephone', sql_type: 'VARCHAR(30)' },
    { name: 'publie', sql_type: 'BOOLEAN', list: { filter: true } },
    { name: 'archive', sql_type: 'BOOLEAN', nullable: true },
    { name: 'contact_id', sql_type: 'INT' },
  ],
  // export names a role that index does not (comptable): the export needs both.
  rbac: { permissions: { index: ['admin', 'editeur'], delete: ['admin'], export: ['admin', 'comptable'] } },
};

/** No relation at all, and a primary key that is entered (not auto-increment). */
const ETIQUETTE = {
  format_version: 1,
  entity: 'Etiquette',
  table: 'etiquettes',
  fields: [
    { name: 'code', sql_type: 'INT', primary_key: true },
    { name: 'libelle', sql_type: 'VARCHAR(50)', unique: true, constraints: { not_empty: true } },
    { name: 'couleur', sql_type: 'CHAR(7)', nullable: true },
  ],
};

let typed: CliProject;

function tsc(target: CliProject): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, [TSC, '--noEmit', '-p', 'tsconfig.json'], { cwd: target.root, encoding: 'utf8' });
  return { status: result.status, output: result.stdout + result.stderr };
}

test('a project with every field type, a role block and an entity without relations type-checks after make:crud', () => {
  typed = fresh();
  for (const definition of [VILLE, CONTACT, FICHE, ETIQUETTE]) writeEntity(typed, definition);
  ok(typed, CONTACT_VILLE);
  ok(typed, ['make:relation', '--name', 'fiche_contact', '--type', 'many_to_one', '--from', 'Fiche.contact_id', '--to', 'Contact.id', '--no-input']);
  for (const entity of ['Ville', 'Contact', 'Fiche', 'Etiquette']) ok(typed, ['make:crud', entity]);
  linkPackages(typed);
  const checked = tsc(typed);
  assert.is(checked.output, '');
  assert.is(checked.status, 0);
});

/** Calls actions of the generated FicheController for signed-in users with given roles (no database: the role check comes first). */
const RBAC_PROBE = `import { Request } from 'fw-mvc';
import { FicheController } from './controllers/fiche_controller.js';

type Action = (request: Request) => Promise<{ status: number }>;

/** The status an action answers, or 'passed' when it went past the role check (and then failed without a database). */
async function status(action: Action, roles: string[], method = 'GET'): Promise<number | 'passed'> {
  const request = new Request({ method, body: { ids: ['1'] } });
  request.routeParams['id'] = '1';
  request.state['session'] = { get: (key: string) => (key === 'user' ? { id: 1, roles } : undefined) };
  try {
    return (await action(request)).status;
  } catch {
    return 'passed';
  }
}

const c = FicheController;
console.log(JSON.stringify({
  index: { lecteur: await status(c.index, ['lecteur']), editeur: await status(c.index, ['editeur']) },
  exportCsv: {
    lecteur: await status(c.exportCsv, ['lecteur']),
    editeur: await status(c.exportCsv, ['editeur']),
    comptable: await status(c.exportCsv, ['comptable']),
    admin: await status(c.exportCsv, ['admin']),
    'editeur+comptable': await status(c.exportCsv, ['editeur', 'comptable']),
  },
  indexComptable: await status(c.index, ['comptable']),
  bulkDelete: { editeur: await status(c.bulkDelete, ['editeur'], 'POST') },
  bulkDeleteConfirm: { editeur: await status(c.bulkDeleteConfirm, ['editeur'], 'POST') },
  destroy: { editeur: await status(c.destroy, ['editeur'], 'POST') },
  show: { lecteur: await status(c.show, ['lecteur']) },
}));
`;

test('the role block is enforced by the generated controller: index, delete need their roles; export needs index and export', () => {
  typed.write('mvc/rbac_probe.ts', RBAC_PROBE);
  const loader = pathToFileURL(path.join(REPO, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
  const result = spawnSync(process.execPath, ['--import', loader, 'mvc/rbac_probe.ts'], { cwd: typed.root, encoding: 'utf8', timeout: 60_000 });
  assert.is(result.status, 0, result.stderr);
  assert.equal(JSON.parse(result.stdout), {
    index: { lecteur: 403, editeur: 'passed' },
    // The export needs `index` (spec: "<entity>.index for export") and, declared here, `export` too: an editeur may see the
    // list but not download it; a comptable may export but not see the list, so not download it either.
    exportCsv: { lecteur: 403, editeur: 403, comptable: 403, admin: 'passed', 'editeur+comptable': 'passed' },
    indexComptable: 403,
    bulkDelete: { editeur: 403 },
    bulkDeleteConfirm: { editeur: 403 },
    destroy: { editeur: 403 },
    // No `show` roles: open to every signed-in user.
    show: { lecteur: 'passed' },
  });
});

test.run();
