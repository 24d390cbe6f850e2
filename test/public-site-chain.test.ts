// From `fw new` to a working public site, as docs/generators.md shows it: the commands and the entity file of its
// walkthrough are read from the doc itself and run through the real CLI in one project (SQLite), then the two
// documented edits (the menu, `/` on the landing page), i18n:check, sync:landing and its --check, tsc, and the site
// served and used over HTTP; last, the same project's database part on MariaDB.
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnApp, stopApp, type AppProcess } from './helpers/app-process.js';
import { REPO, lines, newProject, readSchema, type CliProject } from './helpers/cli.js';
import { HttpClient, linkFramework } from './helpers/crud-app.js';
import { ok } from './helpers/crud-cli-project.js';
import { decode, fieldError, inputValue } from './helpers/crud-html.js';
import { runTsc } from './helpers/typecheck.js';

const t = suite('public-site-chain');
const SUCCESS = 'Merci, votre envoi a bien été enregistré.';

/** The walkthrough of docs/generators.md: its shell lines (comments dropped, `&&` split) and its entity file. */
function walkthrough(): { commands: string[]; entity: Record<string, unknown> } {
  const doc = fs.readFileSync(path.join(REPO, 'docs', 'generators.md'), 'utf8');
  const start = doc.indexOf('## From `fw new` to a public site');
  const section = doc.slice(start, doc.indexOf('\n## ', start + 1));
  const blocks = [...section.matchAll(/```(\w+)\n([\s\S]*?)```/g)];
  const commands = blocks
    .filter((block) => block[1] === 'bash')
    .flatMap((block) => lines(block[2]!))
    .flatMap((line) => line.replace(/#.*$/, '').split('&&'))
    .map((command) => command.trim())
    .filter(Boolean);
  const json = blocks.find((block) => block[1] === 'json');
  assert.ok(json, 'docs/generators.md : le fichier d’entité du parcours');
  return { commands, entity: JSON.parse(json[2]!) };
}

let project: CliProject;
let app: AppProcess | undefined;
let client: HttpClient;
const outputs = new Map<string, string>();

/** Serves the project (`npm run dev` without the watch), stopping the previous server if a failed test left it. */
async function serve(): Promise<HttpClient> {
  if (app) await stopApp(app.child);
  app = spawnApp({ cwd: project.root, tsx: project.path('node_modules/tsx/dist/cli.mjs'), env: process.env, timeoutMs: 30_000 });
  return new HttpClient(await app.url);
}

async function annonces(): Promise<Array<Record<string, unknown>>> {
  const db = project.open();
  try {
    return await db.fetchAll('SELECT Titre, Ville, Prix, Email, CreatedAt FROM annonce ORDER BY Id');
  } finally {
    await db.close();
  }
}

t.before(() => {
  project = newProject('Agence');
  project.useSqlite();
  linkFramework(project);
});

t.after(async () => {
  if (app) await stopApp(app.child);
  await project?.cleanup();
});

t('the walkthrough of docs/generators.md runs command by command, each with exit 0', async () => {
  const { commands, entity } = walkthrough();
  assert.equal(commands, [
    'fw new Agence',
    'cd Agence',
    'fw make:entity Annonce --no-input',
    'fw build:model',
    'fw db:init',
    'fw db:apply',
    'fw make:public-page landing',
    'fw make:public-page a-propos',
    'fw make:public-contact',
    'fw make:public-list Annonce',
    'fw make:public-show Annonce',
    'fw make:public-form Annonce',
    'fw routes:list',
    'fw i18n:check',
    'fw sync:landing',
    'npm run dev',
  ]);
  // `fw new` is newProject's (--no-install, the packages linked); `npm run dev` is the server of a later test.
  for (const command of commands.filter((c) => c.startsWith('fw ') && !c.startsWith('fw new'))) {
    const args = command.split(' ').slice(1);
    outputs.set(command, ok(project, args));
    if (command === 'fw make:entity Annonce --no-input') {
      assert.ok(project.exists('mvc/entities/annonce/annonce.json'));
      project.write('mvc/entities/annonce/annonce.json', `${JSON.stringify(entity, null, 2)}\n`);
    }
  }
  const schema = await readSchema(project);
  assert.equal(
    schema.tables['annonce']!.map((c) => c.name),
    ['Id', 'Titre', 'Ville', 'Prix', 'Email', 'Description', 'CreatedAt'],
  );
  for (const file of [
    'mvc/views/landing/index.html',
    'mvc/views/a-propos/index.html',
    'mvc/views/pages/contact.html',
    'mvc/views/annonce_public/list.html',
    'mvc/views/annonce_public/show.html',
    'mvc/views/annonce_public/form.html',
    'docs/index.html',
    'docs/static/tailwind.css',
  ]) {
    assert.ok(project.exists(file), file);
  }
  assert.match(outputs.get('fw make:public-page landing')!, 'fw sync:landing');
});

t('routes:list shows the public routes, with their names and public oui', () => {
  const rows = lines(outputs.get('fw routes:list')!).map((line) => line.split(/\s+/).slice(0, 4).join(' '));
  for (const row of [
    'GET /landing public.page.landing oui',
    'GET /a-propos public.page.a-propos oui',
    'GET /contact public.contact oui',
    'GET /annonces public.annonces.list oui',
    'GET /annonces/{id} public.annonces.show oui',
    'GET /annonces/new public.annonces.new oui',
    'POST /annonces public.annonces.create oui',
  ]) {
    assert.ok(rows.includes(row), `${row} dans :\n${outputs.get('fw routes:list')}`);
  }
});

t('the documented edits (menu, `/` on the landing page), i18n:check, sync:landing and --check, tsc', () => {
  const layout = project.read('mvc/views/layouts/public.html');
  const links = ['/annonces', '/annonces/new', '/a-propos', '/contact'].map(
    (href) => `<li><a href="${href}" class="text-gray-600 hover:text-gray-900">${href}</a></li>`,
  );
  // The block renders routes.ts's menu, which the static copy (no router) cannot: the links go in by hand.
  assert.match(layout, '{% block nav %}{% for item in menu() %}');
  project.write('mvc/views/layouts/public.html', layout.replace(/\{% block nav %\}[\s\S]*?\{% endblock %\}/, `{% block nav %}${links.join('')}{% endblock %}`));
  const routes = project.read('mvc/routes.ts');
  const home = "router.add('GET', '/', HomeController.index, { name: 'home', public: true });";
  assert.match(routes, home);
  project.write('mvc/routes.ts', routes.replace(home, home.replace('HomeController.index', 'PagesController.landing')));

  assert.is(project.run(['i18n:check']).status, 0);
  const stale = project.run(['sync:landing', '--check']);
  assert.is(stale.status, 1, 'the menu changed the landing page');
  assert.match(stale.stdout + stale.stderr, 'docs/index.html (différent)');
  ok(project, ['sync:landing']);
  assert.match(ok(project, ['sync:landing', '--check']), "Page d'accueil statique à jour");
  const page = project.read('docs/index.html');
  assert.match(page, 'href="static/tailwind.css"');
  assert.match(page, '<a href="/annonces" class="text-gray-600 hover:text-gray-900">');

  const tsc = runTsc(project.root, ['--noEmit', '-p', 'tsconfig.json']);
  assert.is(tsc.status, 0, tsc.stdout + tsc.stderr);
});

t('served: the landing page at / and /landing, the menu, the static pages', async () => {
  client = await serve();
  for (const url of ['/', '/landing']) {
    const res = await client.get(url);
    assert.is(res.status, 200, url);
    assert.match(res.text, /<h1[^>]*>Landing<\/h1>/, url);
    assert.match(res.text, '<a href="/annonces/new"', `${url}: the menu`);
  }
  const contact = await client.get('/contact');
  assert.is(contact.status, 200);
  assert.match(decode(contact.text), 'Nous contacter');
  assert.is((await client.get('/a-propos')).status, 200);
});

t('served: the empty list, the form, 422 on invalid input, 302 + row + flash on valid input, then list and detail', async () => {
  const empty = await client.get('/annonces');
  assert.is(empty.status, 200);
  assert.match(decode(empty.text), 'Aucun élément à afficher pour le moment.');
  const form = await client.get('/annonces/new');
  assert.is(form.status, 200);
  assert.match(form.text, 'name="csrf_token"');
  await client.csrfToken('/annonces/new');

  const invalid = await client.post('/annonces', [
    ['titre', ''],
    ['ville', 'Lyon'],
    ['email', 'pas-une-adresse'],
  ]);
  assert.is(invalid.status, 422);
  assert.match(fieldError(invalid.text, 'titre') ?? '', 'obligatoire');
  assert.ok(fieldError(invalid.text, 'email'), 'a message under email');
  assert.is(inputValue(invalid.text, 'email'), 'pas-une-adresse');
  assert.equal(await annonces(), []);

  const valid = await client.post('/annonces', [
    ['titre', 'T3 lumineux'],
    ['ville', 'Lyon'],
    ['prix', '245000.50'],
    ['email', 'agence@exemple.fr'],
    ['description', 'Balcon\nCave'],
  ]);
  assert.is(valid.status, 302);
  assert.is(valid.headers.get('location'), '/annonces/new');
  const saved = await annonces();
  assert.is(saved.length, 1);
  assert.equal(
    { ...saved[0], CreatedAt: typeof saved[0]!['CreatedAt'] },
    { Titre: 'T3 lumineux', Ville: 'Lyon', Prix: '245000.50', Email: 'agence@exemple.fr', CreatedAt: 'string' },
  );
  const flashed = await client.get('/annonces/new');
  assert.match(decode(flashed.text), SUCCESS);
  assert.not.match(decode((await client.get('/annonces/new')).text), SUCCESS, 'the flash is shown once');

  const list = await client.get('/annonces');
  const link = /<a href="\/annonces\/(\d+)"[^>]*>T3 lumineux<\/a>/.exec(list.text);
  assert.ok(link, 'the list links the record');
  const show = await client.get(`/annonces/${link[1]}`);
  assert.is(show.status, 200);
  assert.match(show.text, /<h1[^>]*>T3 lumineux<\/h1>/);
  assert.match(show.text, '245000,50');
  assert.is((await client.get('/annonces/999')).status, 404);
  await stopApp(app!.child);
  app = undefined;
});

t('the same project on MariaDB: db:init, db:apply, served, a submission stored', async () => {
  project.useMariaDb();
  ok(project, ['db:init']);
  ok(project, ['db:apply']);
  const maria = await serve();
  await maria.csrfToken('/annonces/new');
  const valid = await maria.post('/annonces', [
    ['titre', 'Maison'],
    ['ville', 'Villeurbanne'],
    ['email', 'maison@exemple.fr'],
  ]);
  assert.is(valid.status, 302);
  assert.equal(
    (await annonces()).map((row) => [row['Titre'], row['Prix']]),
    [['Maison', null]],
  );
  assert.match((await maria.get('/annonces')).text, '>Maison</a>');
});

t.run();
