// Starter 4 (`suivi`) through the real CLI, in a project made by `fw new --no-install`, on SQLite and on MariaDB
// (`fw starter:build suivi --init-db`): the refusals that write nothing (--public, a rebuild), --dry-run, the entity
// files, `tsc --noEmit`, then served: anonymous visitors are sent to /login; a teacher made by `fw auth:user:create`
// adds pupils, courses and observations through the CRUD forms, and the dashboard shows the counts, the latest
// observations and the per-pupil totals of each flag (a GROUP BY on both databases); deleting a pupil deletes
// their observations (docs/starters.md).
import type { ChildProcess } from 'node:child_process';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { DialectName } from '../runtime/db/index.js';
import { fateLine, newProject, type CliProject } from './helpers/cli.js';
import { linkFramework, serveProject } from './helpers/crud-app.js';
import { SessionClient } from './helpers/auth-client.js';
import { fwOk, stopServer } from './helpers/auth-app.js';
import { runTsc } from './helpers/typecheck.js';

const EMAIL = 'prof@example.test';
const PASSWORD = 'Motdepasse-solide-42';
const FLAGS = ['participation', 'bavardage', 'retard', 'travail_non_fait', 'oubli_materiel'] as const;

interface Context {
  project: CliProject;
  served: { url: string; child: ChildProcess };
}

/** The project's files, but the database and the sessions (a running server writes there). */
function files(project: CliProject): Record<string, string> {
  return Object.fromEntries(Object.entries(project.snapshot()).filter(([file]) => !file.startsWith('storage/')));
}

function refused(project: CliProject, args: string[], error: RegExp): void {
  const before = files(project);
  const run = project.run(args);
  assert.is(run.status, 1, `fw ${args.join(' ')}:\n${run.stdout}${run.stderr}`);
  assert.match(run.stderr, error);
  assert.match(run.stderr, /\nConseil : /);
  assert.equal(files(project), before, `fw ${args.join(' ')} wrote something`);
}

/** A project made by `fw new`, on `dialect`. */
function fresh(context: Context, dialect: DialectName): CliProject {
  context.project = newProject('Suivi');
  context.project.useDialect(dialect);
  return context.project;
}

async function buildAndServe(context: Context, project: CliProject, typecheck: boolean): Promise<void> {
  const out = fwOk(project, ['starter:build', 'suivi', '--init-db']);
  assert.match(out, 'Routes ajoutées à mvc/routes.ts :\n  registerAuthRoutes(router)\n  GET   /eleves\n');
  assert.match(out, /\n {2}GET {3}\/observations\/new\n/);
  assert.match(out, /Schéma appliqué : \d+ fichier\(s\)\.\n/);
  assert.match(out, `appliqué   mvc/entities/observation_cours/observation_cours${project.dialect === 'sqlite' ? '.sqlite' : ''}.sql`);
  assert.ok(out.endsWith('puis ouvrez http://127.0.0.1:8000/dashboard (connectez-vous avec cet utilisateur)\n'), out);
  fwOk(project, ['auth:user:create', '--email', EMAIL, '--password', PASSWORD]);
  linkFramework(project);
  if (typecheck) {
    const checked = runTsc(project.root, ['--noEmit', '-p', 'tsconfig.json']);
    assert.is(checked.stdout + checked.stderr, '', 'tsc --noEmit');
    assert.is(checked.status, 0);
  }
  context.served = await serveProject(project);
}

async function teardown({ project, served }: Context): Promise<void> {
  await stopServer(served);
  await project?.cleanup();
}

/** The per-pupil table of the dashboard: pupil id → observations and each flag. */
function totals(html: string): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const row of html.matchAll(/<tr [^>]*data-eleve="(\d+)">([\s\S]*?)<\/tr>/g)) {
    const cells: Record<string, number> = {};
    for (const cell of row[2]!.matchAll(/data-flag="([a-z_]+)">([\s\S]*?)<\/td>/g)) cells[cell[1]!] = Number(cell[2]!.replace(/<[^>]+>/g, '').trim());
    out[row[1]!] = cells;
  }
  return out;
}

/** The pupils of that table, in its order. */
function pupils(html: string): string[] {
  return [...html.matchAll(/data-eleve="(\d+)"/g)].map((m) => m[1]!);
}

function counts(html: string): Record<string, string> {
  return Object.fromEntries([...html.matchAll(/id="count-([a-z]+)">(\d+)</g)].map((m) => [m[1]!, m[2]!]));
}

function flagsOf(set: readonly string[]): Array<[string, string]> {
  return set.map((flag) => [flag, '1']);
}

/** A teacher signs in, fills the three CRUD forms and reads the dashboard; then a pupil leaves with their observations. */
async function teacherJourney(url: string): Promise<void> {
  const client = new SessionClient(url);
  for (const page of ['/dashboard', '/eleves', '/cours', '/observations', '/observations/new']) {
    const anonymous = await client.get(page);
    assert.is(anonymous.status, 302, page);
    assert.is(anonymous.headers.get('location'), `/login?next=${encodeURIComponent(page)}`);
  }
  assert.is((await client.login(EMAIL, PASSWORD, '/dashboard')).headers.get('location'), '/dashboard');
  const empty = await client.get('/dashboard');
  assert.is(empty.status, 200);
  assert.equal(counts(empty.text), { eleves: '0', cours: '0', observations: '0' });
  assert.match(empty.text, 'Aucune observation pour l’instant.');
  assert.match(empty.text, '<a href="/observations/new"');

  const created = async (path: string, form: Array<[string, string]>): Promise<void> => {
    const page = await client.post(path, form, `${path}/new`);
    assert.is(page.status, 302, `${path}: ${page.text.slice(0, 600)}`);
    assert.is(page.headers.get('location'), path);
  };
  await created('/eleves', [
    ['nom', 'Durand'],
    ['prenom', 'Alice'],
    ['classe', '4e B'],
  ]);
  await created('/eleves', [
    ['nom', 'Martin'],
    ['prenom', 'Émile'],
    ['classe', '4e B'],
  ]);
  await created('/eleves', [
    ['nom', 'Lefèvre'],
    ['prenom', 'Jules'],
    ['classe', '3e A'],
  ]);
  await created('/cours', [
    ['intitule', 'Mathématiques 4e B'],
    ['matiere', 'Mathématiques'],
    ['classe', '4e B'],
    ['date_cours', '2025-03-10'],
  ]);
  await created('/cours', [
    ['intitule', 'Physique 3e A'],
    ['matiere', 'Physique-chimie'],
    ['classe', '3e A'],
    ['date_cours', '2025-03-11'],
  ]);

  const form = await client.get('/observations/new');
  assert.is(form.status, 200);
  assert.match(form.text, /<option value="2"[^>]*>Martin<\/option>/);
  assert.match(form.text, /<option value="1"[^>]*>Mathématiques 4e B<\/option>/);
  for (const flag of FLAGS) assert.match(form.text, `<input type="checkbox" id="field-${flag}" name="${flag}" value="1"`);
  assert.match(form.text, 'Oubli de matériel');
  const observe = (eleve: string, cours: string, at: string, set: readonly string[], remark = '') =>
    created('/observations', [['eleve_id', eleve], ['cours_id', cours], ['observe_le', at], ...flagsOf(set), ['remarque', remark]]);
  await observe('1', '1', '2025-03-10T08:35', ['participation'], 'Très bonne participation.');
  await observe('2', '1', '2025-03-10T08:40', ['bavardage', 'retard', 'oubli_materiel'], 'Arrivé en retard, sans cahier.');
  await observe('2', '1', '2025-03-10T09:10', ['bavardage', 'travail_non_fait']);
  await observe('3', '2', '2025-03-11T10:05', []);
  const invalid = await client.post(
    '/observations',
    [
      ['eleve_id', '1'],
      ['cours_id', '1'],
      ['observe_le', ''],
      ['remarque', ''],
    ],
    '/observations/new',
  );
  assert.is(invalid.status, 422, 'the date and time are required');

  const dashboard = await client.get('/dashboard');
  assert.is(dashboard.status, 200);
  assert.is(dashboard.headers.get('cache-control'), 'no-store');
  assert.match(dashboard.text, `<strong id="dashboard-user">${EMAIL}</strong>`);
  assert.equal(counts(dashboard.text), { eleves: '3', cours: '2', observations: '4' });
  const latest = dashboard.text.slice(dashboard.text.indexOf('id="latest-observations"'), dashboard.text.indexOf('id="totals-title"'));
  const order = ['Jules Lefèvre', 'Émile Martin', 'Alice Durand'].map((name) => latest.indexOf(name));
  assert.ok(
    order.every((at, i) => at > 0 && (i === 0 || at > order[i - 1]!)),
    'latest first',
  );
  assert.match(latest, '11/03/2025 10:05');
  assert.match(latest, /Arrivé en retard, sans cahier\./);
  assert.match(latest, /<li class="[^"]*bg-green-100[^"]*">Participation<\/li>/);
  assert.match(latest, /<li class="[^"]*bg-amber-100[^"]*">Oubli de matériel<\/li>/);
  const zero = { participation: 0, bavardage: 0, retard: 0, travail_non_fait: 0, oubli_materiel: 0 };
  assert.equal(totals(dashboard.text), {
    1: { ...zero, observations: 1, participation: 1 },
    2: { ...zero, observations: 2, bavardage: 2, retard: 1, travail_non_fait: 1, oubli_materiel: 1 },
    3: { ...zero, observations: 1 },
  });
  assert.equal(pupils(dashboard.text), ['1', '3', '2'], 'by name: Durand, Lefèvre, Martin');
  const oneClass = await client.get(`/dashboard?classe=${encodeURIComponent('3e A')}`);
  assert.equal(pupils(oneClass.text), ['3']);
  assert.match(oneClass.text, '<option value="3e A" selected>3e A</option>');
  assert.equal(pupils((await client.get('/dashboard?classe=inconnue')).text), ['1', '3', '2'], 'an unknown class shows every class');

  for (const page of ['/eleves', '/cours', '/observations', '/observations/1', '/profile', '/']) assert.is((await client.get(page)).status, 200, page);
  const list = await client.get('/observations');
  assert.match(list.text, 'Travail non fait');
  assert.match(list.text, 'Lefèvre');
  // The entities' labels as titles, dates as a teacher reads them (the form keeps the ISO value its input needs).
  assert.match(list.text, /<h1[^>]*>Observations<\/h1>/);
  assert.match(list.text, />10\/03\/2025 08:40</);
  assert.match((await client.get('/eleves')).text, /<h1[^>]*>Élèves<\/h1>/);
  assert.match((await client.get('/observations/2')).text, /<h1[^>]*>Observation #2<\/h1>[\s\S]*>10\/03\/2025 08:40</);
  assert.match((await client.get('/observations/2/edit')).text, /name="observe_le" value="2025-03-10T08:40/);
  assert.match((await client.get('/cours')).text, />10\/03\/2025</);
  // The home page's cards: the menu entries of the signed-in teacher (a visitor gets none, and the sign-in button).
  const cards = (html: string): string[] =>
    [...(/id="home-links"[^>]*>([\s\S]*?)<\/ul>/.exec(html)?.[1] ?? '').matchAll(/<a href="([^"]+)"/g)].map((m) => m[1]!);
  assert.equal(cards((await client.get('/')).text).sort(), ['/cours', '/dashboard', '/eleves', '/observations', '/profile']);
  const visitor = await (await fetch(`${url}/`)).text();
  assert.match(visitor, 'id="home-login"');
  assert.equal(cards(visitor), []);
  for (const href of ['/dashboard', '/observations', '/eleves', '/cours', '/profile']) assert.not.match(visitor, `href="${href}"`, href);

  // Jules leaves: his observation goes with him (ON DELETE CASCADE), the dashboard follows.
  const deleted = await client.post('/eleves/3/delete', [], '/eleves');
  assert.is(deleted.status, 302, deleted.text.slice(0, 400));
  const after = await client.get('/dashboard');
  assert.equal(counts(after.text), { eleves: '2', cours: '2', observations: '3' });
  assert.equal(pupils(after.text), ['1', '2']);
}

// --- SQLite: the CLI's refusals and dry run, the files, tsc, then the journey ---

const sqlite = suite<Context>('starter suivi on SQLite: refusals, dry run, files, tsc, served');

sqlite.before(async (context) => {
  const project = fresh(context, 'sqlite');
  const pristine = files(project);
  refused(
    project,
    ['starter:build', 'suivi-comportement-eleves', '--public'],
    /^Erreur : --public ne s'applique pas à l'application de démarrage « suivi » : ses pages montrent des données d'élèves/,
  );
  const dry = project.run(['starter:build', '4', '--dry-run', '--init-db']);
  assert.is(dry.status, 0, dry.stderr);
  assert.equal(files(project), pristine, '--dry-run wrote something');
  for (const file of [
    'mvc/entities/observation_cours/observation_cours.json',
    'mvc/models/dashboard_model.ts',
    'mvc/controllers/observation_cours_controller.ts',
  ]) {
    assert.ok(dry.stdout.split('\n').includes(fateLine('créé', file)), file);
  }
  await buildAndServe(context, project, true);
});
sqlite.after(teardown);

sqlite('the entities are make:entity JSON with French labels and the route plural; the generators agree', ({ project }) => {
  const observation = JSON.parse(project.read('mvc/entities/observation_cours/observation_cours.json'));
  assert.is(observation.entity, 'ObservationCours');
  assert.is(observation.table, 'observations_cours');
  assert.is(observation.plural, 'observations');
  assert.equal([observation.label, observation.label_plural], ['Observation', 'Observations']);
  assert.equal(
    [JSON.parse(project.read('mvc/entities/eleve/eleve.json')).label_plural, JSON.parse(project.read('mvc/entities/cours/cours.json')).label],
    ['Élèves', 'Cours'],
  );
  assert.equal(
    observation.fields.map((f: { name: string; sql_type: string; nullable: boolean }) => `${f.name} ${f.sql_type}${f.nullable ? ' NULL' : ''}`),
    ['eleve_id INT', 'cours_id INT', 'observe_le DATETIME', ...FLAGS.map((flag) => `${flag} BOOLEAN`), 'remarque TEXT NULL'],
  );
  assert.equal(
    JSON.parse(project.read('mvc/entities/relations.json')).relations.map((r: { name: string; on_delete: string }) => `${r.name} ${r.on_delete}`),
    ['observation_eleve CASCADE', 'observation_cours CASCADE'],
  );
  assert.match(project.read('mvc/routes.ts'), "router.add('GET', '/dashboard', DashboardController.index, { name: 'dashboard' });");
  // Everything in place, the layout included: its menu is read from routes.ts, so make:crud's layout is the starter's.
  const crudAgain = fwOk(project, ['make:crud', 'ObservationCours']);
  assert.match(crudAgain, /Résumé : \d+ inchangés\.\n/);
  assert.match(crudAgain, /\n {2}inchangé +mvc\/views\/layouts\/app\.html/);
  assert.match(project.read('mvc/views/layouts/app.html'), '{% block nav %}{% include "components/menu.html" %}{% endblock %}');
  assert.equal(
    [...project.read('mvc/routes.ts').matchAll(/router\.menu\('([^']+)'/g)].map((m) => m[1]),
    ['/eleves', '/cours', '/observations', '/dashboard', '/profile'],
    'the one menu, in routes.ts',
  );
  assert.not.match(project.read('mvc/views/dashboard/index.html'), 'block nav');
  assert.match(fwOk(project, ['auth:init']), /Rien à faire/);
});

sqlite('a rebuild is refused with nothing written', ({ project }) => {
  refused(project, ['starter:build', 'suivi'], /^Erreur : l'application de démarrage « suivi » est déjà construite dans ce projet/);
});

sqlite('a teacher records observations; the dashboard counts and totals them', async ({ served }) => {
  await teacherJourney(served.url);
});

sqlite('built on suivi, auth changes nothing and mfa only adds the second factor; suivi on auth is a conflict', async ({ project }) => {
  refused(project, ['starter:build', 'auth'], /^Erreur : l'application de démarrage « auth » est déjà construite dans ce projet/);
  const dashboard = ['mvc/controllers/dashboard_controller.ts', 'mvc/views/dashboard/index.html'].map((file) => project.read(file));
  const mfa = fwOk(project, ['starter:build', 'mfa']);
  assert.not.match(mfa, /écrasé|ignoré/);
  assert.ok(mfa.split('\n').includes(fateLine('créé', 'mvc/views/account/_mfa.html')));
  assert.equal(
    ['mvc/controllers/dashboard_controller.ts', 'mvc/views/dashboard/index.html'].map((file) => project.read(file)),
    dashboard,
  );
  assert.match(project.read('mvc/views/home/index.html'), '"/account/mfa": "Codes d’une application');

  const other = newProject('Comptes');
  try {
    other.useSqlite();
    fwOk(other, ['starter:build', 'auth']);
    refused(
      other,
      ['starter:build', 'suivi'],
      /^Erreur : le projet a déjà 2 fichier\(s\) que l'application de démarrage « suivi » écrirait, avec un autre contenu : mvc\/controllers\/dashboard_controller\.ts, mvc\/views\/dashboard\/index\.html ; rien n'a été écrit\.$/m,
    );
  } finally {
    await other.cleanup();
  }
});

sqlite.run();

// --- MariaDB: the same journey, the aggregate and the cascade on the server ---

const mariadb = suite<Context>('starter suivi on MariaDB: served, the dashboard aggregates');
mariadb.before((context) => buildAndServe(context, fresh(context, 'mariadb'), false));
mariadb.after(teardown);

mariadb('a teacher records observations; the dashboard counts and totals them', async ({ served }) => {
  await teacherJourney(served.url);
});

mariadb.run();
