// `fw make:crud Contact --public` after `fw make:crud Contact`, as a real process in a project made by `fw new` with the
// fixture's entities: the existing protected routes are reported with the line each should become, routes.ts and
// every other file stay as they were, the exit code is 0; pasting the lines makes them public for the real router
// (`fw routes:list`), and the reverse (public routes, make:crud without --public) is reported the same way.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lines, newProject } from './helpers/cli.js';
import { CRUD_ROUTES, crudRouteLine, linkPackages, ok, type CrudRoute } from './helpers/crud-cli-project.js';
import { copyFixtureEntities } from './helpers/fixture-project.js';

const ROUTES = 'mvc/routes.ts';
const project = newProject('Carnet');
copyFixtureEntities(project.root);
linkPackages(project);
const protectedText = (() => {
  ok(project, ['make:crud', 'Contact']);
  return project.read(ROUTES);
})();

test.after(() => project.cleanup());

const line = (route: CrudRoute, isPublic: boolean): string => crudRouteLine('Contact', 'contacts', route, isPublic);

/** What make:crud prints about the 10 existing routes when their flag is not `wantedPublic`. */
function report(wantedPublic: boolean): string[] {
  const first = protectedText.split('\n').findIndex((l) => l.includes("'/contacts'")) + 1;
  return [
    `Routes déjà présentes dans mvc/routes.ts : 10, dont 10 ${wantedPublic ? 'protégées alors que --public est demandé' : "publiques alors que --public n'est pas demandé"} :`,
    ...CRUD_ROUTES.flatMap((route, i) => [`  ligne ${first + i} :`, `    - ${line(route, !wantedPublic)}`, `    + ${line(route, wantedPublic)}`]),
    wantedPublic
      ? "Conseil : fw make:crud ne modifie pas les routes existantes (c'est votre code) : dans mvc/routes.ts, remplacez ces lignes par les lignes « + » pour rendre ces routes publiques (sans connexion), ou relancez sans --public pour les garder protégées."
      : "Conseil : fw make:crud ne modifie pas les routes existantes (c'est votre code) : dans mvc/routes.ts, remplacez ces lignes par les lignes « + » pour que ces routes exigent une connexion, ou relancez avec --public pour les garder publiques.",
  ];
}

/** The lines after the writer's report (the fates and the summary). */
function afterSummary(stdout: string): string[] {
  const out = lines(stdout);
  return out.slice(out.findIndex((l) => l.startsWith('Résumé')) + 1);
}

function contactFlags(): boolean[] {
  const listed = project.run(['routes:list', '--json']);
  assert.is(listed.status, 0, listed.stderr);
  const routes = JSON.parse(listed.stdout) as Array<{ name: string; public: boolean }>;
  return routes.filter((r) => r.name.startsWith('contacts.')).map((r) => r.public);
}

test('make:crud Contact --public after make:crud Contact: the 10 protected routes and their lines, nothing written, exit 0', () => {
  assert.equal(
    contactFlags(),
    CRUD_ROUTES.map(() => false),
  );
  const before = project.snapshot();
  const run = project.run(['make:crud', 'Contact', '--public']);
  assert.is(run.status, 0, run.stderr);
  assert.is(run.stderr, '');
  assert.equal(afterSummary(run.stdout), report(true));
  assert.equal(project.snapshot(), before, 'routes.ts and every other file as they were');
});

test('the --dry-run prints the same report', () => {
  const run = project.run(['make:crud', 'Contact', '--public', '--dry-run']);
  assert.is(run.status, 0, run.stderr);
  assert.equal(afterSummary(run.stdout), report(true));
});

test('the « + » lines pasted: public for the router, and make:crud --public only counts them', () => {
  let text = protectedText;
  for (const route of CRUD_ROUTES) text = text.replace(line(route, false), line(route, true));
  project.write(ROUTES, text);
  assert.equal(
    contactFlags(),
    CRUD_ROUTES.map(() => true),
  );
  const run = project.run(['make:crud', 'Contact', '--public']);
  assert.is(run.status, 0, run.stderr);
  assert.equal(afterSummary(run.stdout), ['Routes déjà présentes dans mvc/routes.ts : 10.']);
});

test('the reverse: public routes, make:crud Contact without --public reports them; pasted, routes.ts is the protected one', () => {
  const run = project.run(['make:crud', 'Contact']);
  assert.is(run.status, 0, run.stderr);
  assert.equal(afterSummary(run.stdout), report(false));
  let text = project.read(ROUTES);
  for (const route of CRUD_ROUTES) text = text.replace(line(route, true), line(route, false));
  assert.is(text, protectedText);
});

test.run();
