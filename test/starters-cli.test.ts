// `fw starter:list` and `fw starter:build` through the real CLI in projects made by `fw new --no-install` (SQLite):
// the table, refusals that write nothing (unknown id, --public on a login starter, a conflicting project, a starter
// already built), --dry-run, --force that rewrites only the starter's files and keeps the data, and starters built on
// top of each other (docs/starters.md).
import fs from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fateLine, newProject, type CliProject } from './helpers/cli.js';

const projects: CliProject[] = [];

test.after(async () => {
  for (const made of projects) await made.cleanup();
});

function fresh(): CliProject {
  const made = newProject('Demarrage');
  made.useSqlite();
  projects.push(made);
  return made;
}

/** Runs fw and expects a refusal: exit 1, an `Erreur` line matching `error`, a `Conseil` line, nothing written. */
function refused(project: CliProject, args: string[], error: RegExp, advice: RegExp): string {
  const before = project.snapshot();
  const run = project.run(args);
  assert.is(run.status, 1, `fw ${args.join(' ')}:\n${run.stdout}${run.stderr}`);
  const [first, second, rest] = run.stderr.split('\n');
  assert.match(first ?? '', error);
  assert.match(second ?? '', advice);
  assert.is(rest, '');
  assert.equal(project.snapshot(), before, `fw ${args.join(' ')} wrote something`);
  return run.stdout;
}

function ok(project: CliProject, args: string[]): string {
  const run = project.run(args);
  assert.is(run.status, 0, `fw ${args.join(' ')}:\n${run.stdout}${run.stderr}`);
  return run.stdout;
}

test('starter:list: id, aliases and description of each starter, in a table', () => {
  const project = fresh();
  const out = ok(project, ['starter:list']);
  assert.is(
    out,
    [
      'ID  ALIAS                             DESCRIPTION',
      '1   contacts, contact-simple          Contacts : nom, prénom, e-mail unique, téléphone ; liste, fiche, formulaires, export CSV.',
      '2   auth, utilisateurs-auth           Connexion : utilisateurs, tableau de bord, profil et changement de mot de passe.',
      "3   carnet, carnet-contacts           Carnet d'adresses : villes et contacts (chaque contact dans une ville) ; pages CRUD des deux.",
      '4   suivi, suivi-comportement-eleves  Suivi du comportement : élèves, cours, observations (participation, bavardage, retard…, remarque) ; tableau de bord.',
      '6   mfa, auth-mfa                     Connexion avec second facteur (TOTP, codes de secours) : tout le starter auth, et /account/mfa.',
      'Construire : « fw starter:build <id ou alias> » dans un projet créé par « fw new » (--dry-run pour voir avant).',
      '',
    ].join('\n'),
  );
});

test('an unknown id, and --public on a starter about login, are refused with nothing written', () => {
  const project = fresh();
  refused(
    project,
    ['starter:build', 'inventaire'],
    /^Erreur : application de démarrage inconnue « inventaire » \(connues : 1 \(contacts, contact-simple\), 2 \(auth, utilisateurs-auth\), 3 \(carnet, carnet-contacts\), 4 \(suivi, suivi-comportement-eleves\), 6 \(mfa, auth-mfa\)\)\.$/,
    /^Conseil : « fw starter:list » les décrit ; par exemple « fw starter:build contacts »\.$/,
  );
  for (const [key, name] of [
    ['auth', 'auth'],
    ['utilisateurs-auth', 'auth'],
    ['6', 'mfa'],
    ['AUTH-MFA', 'mfa'],
  ] as const) {
    refused(
      project,
      ['starter:build', key, '--public'],
      new RegExp(`^Erreur : --public ne s'applique pas à l'application de démarrage « ${name} » : elle porte sur la connexion`),
      new RegExp(`^Conseil : lancez « fw starter:build ${name} » sans --public`),
    );
  }
});

test('a project without mvc/routes.ts, or whose entities do not compile, is refused with nothing written', () => {
  const project = fresh();
  fs.rmSync(project.path('mvc/routes.ts'));
  refused(project, ['starter:build', 'contacts'], /^Erreur : mvc\/routes\.ts est introuvable/, /^Conseil : créez mvc\/routes\.ts/);
  project.write('mvc/routes.ts', "import type { Router } from 'fw-mvc';\nexport function registerRoutes(router: Router): void {}\n");
  project.write('mvc/entities/produit/produit.json', '{ "entity": ');
  const before = project.snapshot();
  const run = project.run(['starter:build', 'carnet']);
  assert.is(run.status, 1);
  const [diagnostic, error, advice, rest] = run.stderr.split('\n');
  assert.match(diagnostic ?? '', /^\[ERREUR\] mvc\/entities\/produit\/produit\.json/);
  assert.match(
    error ?? '',
    /^Erreur : les définitions d'entités du projet ont 1 erreur\(s\) : l'application de démarrage « carnet » n'est pas construite, rien n'a été écrit\.$/,
  );
  assert.match(advice ?? '', /^Conseil : corrigez les fichiers indiqués/);
  assert.is(rest, '');
  assert.equal(project.snapshot(), before);
});

test('an entity of the same name with another definition is a conflict: refused, then replaced under --force', () => {
  const project = fresh();
  ok(project, ['make:entity', 'Contact', '--no-input']);
  refused(
    project,
    ['starter:build', 'contact-simple'],
    /^Erreur : le projet a déjà 1 fichier\(s\) que l'application de démarrage « contacts » écrirait, avec un autre contenu : mvc\/entities\/contact\/contact\.json \(entité Contact, autre définition\) ; rien n'a été écrit\.$/,
    /^Conseil : « fw starter:build contacts --force » les remplace par ceux de l'application de démarrage \(les autres fichiers et les données de la base ne sont pas touchés\)/,
  );
  const run = project.run(['starter:build', 'contacts', '--force']);
  assert.is(run.status, 0, run.stderr);
  assert.ok(run.stdout.split('\n').includes(fateLine('écrasé', 'mvc/entities/contact/contact.json', 'fichier modifié, réécrit à cause de --force')));
  assert.match(run.stderr, /^Attention : la définition de Contact a été remplacée ; si la table contacts existe déjà, « fw db:apply » ne la modifie pas/);
  assert.equal(
    JSON.parse(project.read('mvc/entities/contact/contact.json')).fields.map((f: { name: string }) => f.name),
    ['nom', 'prenom', 'email', 'telephone'],
  );
});

test('contacts: --dry-run writes nothing; the build; a rerun changes nothing; a changed file is a conflict; --force keeps data and user files', async () => {
  const project = fresh();
  const pristine = project.snapshot();
  const dry = project.run(['starter:build', 'contacts', '--dry-run', '--init-db']);
  assert.is(dry.status, 0, dry.stderr);
  assert.equal(project.snapshot(), pristine, '--dry-run wrote something');
  const dryLines = dry.stdout.split('\n');
  assert.is(
    dryLines[0],
    'Application de démarrage « contacts » (1) : Contacts : nom, prénom, e-mail unique, téléphone ; liste, fiche, formulaires, export CSV.',
  );
  assert.is(dryLines[1], "Simulation (--dry-run) : aucun fichier n'est écrit.");
  for (const file of ['mvc/entities/contact/contact.json', 'mvc/controllers/contact_controller.ts', 'mvc/models/sql/auth/users.sqlite.sql'])
    assert.ok(dryLines.includes(fateLine('créé', file)), file);
  assert.ok(dryLines.includes(fateLine('mis à jour', 'mvc/views/home/index.html')));
  assert.ok(dryLines.includes("+  router.add('GET', '/contacts', ContactController.index, { name: 'contacts.index' });"));
  assert.ok(dryLines.includes("+import { registerAuthRoutes } from 'fw-mvc/auth';"));
  assert.ok(dryLines.includes("--init-db : la base n'est pas touchée pendant une simulation."));

  const built = ok(project, ['starter:build', 'contacts', '--init-db']);
  assert.match(built, /Résumé : 42 créés, 2 mis à jour\.\n/);
  assert.match(built, 'Routes ajoutées à mvc/routes.ts :\n  registerAuthRoutes(router)\n  GET   /contacts\n');
  assert.match(built, /\nfw db:init\n[\s\S]*\nfw db:apply\n[\s\S]*Schéma appliqué : 11 fichier\(s\)\.\n/);
  assert.ok(
    built.endsWith(
      '\nEnsuite :\n  fw auth:user:create --email vous@example.com --password-prompt\n  npm run dev\npuis ouvrez http://127.0.0.1:8000/contacts (connectez-vous avec cet utilisateur)\n',
    ),
    built,
  );
  // The entity file is the one make:entity writes, with the starter's labels.
  const contact = JSON.parse(project.read('mvc/entities/contact/contact.json'));
  assert.equal(contact.primary_key, { name: 'id', sql: 'Id', python_type: 'int', sql_type: 'INT', auto_increment: true });
  assert.equal(contact.fields, [
    { name: 'nom', sql_type: 'VARCHAR(100)', nullable: false, unique: false, constraints: { not_empty: true, max_length: 100 } },
    { name: 'prenom', label: 'Prénom', sql_type: 'VARCHAR(100)', nullable: false, unique: false, constraints: { not_empty: true, max_length: 100 } },
    { name: 'email', label: 'E-mail', sql_type: 'VARCHAR(190)', nullable: false, unique: true, constraints: { not_empty: true, max_length: 190 } },
    { name: 'telephone', label: 'Téléphone', sql_type: 'VARCHAR(30)', nullable: true, unique: false, constraints: { not_empty: false, max_length: 30 } },
  ]);
  // The generators agree: make:crud and auth:init find everything in place, the layout included: its menu is
  // read from routes.ts, so the starter's layout is make:crud's.
  const crudAgain = ok(project, ['make:crud', 'Contact']);
  assert.match(crudAgain, /Résumé : \d+ inchangés\.\n/);
  assert.match(crudAgain, /\n {2}inchangé +mvc\/views\/layouts\/app\.html/);
  assert.match(ok(project, ['auth:init']), /Rien à faire/);

  const afterBuild = project.snapshot();
  refused(
    project,
    ['starter:build', '1'],
    /^Erreur : l'application de démarrage « contacts » est déjà construite dans ce projet : aucun fichier ne changerait, rien n'a été écrit\.$/,
    /^Conseil : elle est prête .* « fw starter:build contacts --force » la reconstruit\.$/,
  );
  assert.equal(project.snapshot(), afterBuild);

  await project.sql(["INSERT INTO contacts (Nom, Prenom, Email, Telephone) VALUES ('Durand', 'Alice', 'alice@example.test', NULL)"]);
  const controller = project.read('mvc/controllers/contact_controller.ts');
  project.write('mvc/controllers/contact_controller.ts', `${controller}// changed by the user\n`);
  project.write('mvc/views/contact/mine.html', '<p>mine</p>\n');
  refused(
    project,
    ['starter:build', 'contacts'],
    /^Erreur : le projet a déjà 1 fichier\(s\) que l'application de démarrage « contacts » écrirait, avec un autre contenu : mvc\/controllers\/contact_controller\.ts ; rien n'a été écrit\.$/,
    /--force/,
  );

  const forced = ok(project, ['starter:build', 'contacts', '--force', '--init-db']);
  assert.ok(forced.split('\n').includes(fateLine('écrasé', 'mvc/controllers/contact_controller.ts', 'fichier modifié, réécrit à cause de --force')));
  assert.match(forced, /Résumé : 1 écrasé, \d+ inchangés\.\n/);
  assert.is(project.read('mvc/controllers/contact_controller.ts'), controller);
  assert.is(project.read('mvc/views/contact/mine.html'), '<p>mine</p>\n');
  const db = project.open();
  try {
    assert.equal(await db.fetchAll('SELECT Nom AS nom FROM contacts'), [{ nom: 'Durand' }], 'no data dropped');
  } finally {
    await db.close();
  }
  assert.match(
    ok(project, ['starter:build', 'contacts', '--force']),
    /^Rien à faire : l'application de démarrage « contacts » est déjà construite, aucun fichier ne change\.\n/m,
  );
});

test('starter:build mfa prints the address env/dev gives (its HOST and PORT), not 127.0.0.1:8000', () => {
  const project = fresh();
  project.write(
    'env/dev',
    project
      .read('env/dev')
      .replace(/^PORT=.*$/m, 'PORT=18123')
      .replace(/^HOST=.*$/m, 'HOST=0.0.0.0'),
  );
  const built = ok(project, ['starter:build', 'mfa']);
  assert.not.match(built, ':8000');
  assert.match(
    built,
    /\npuis ouvrez http:\/\/127\.0\.0\.1:18123, connectez-vous et activez le second facteur sur http:\/\/127\.0\.0\.1:18123\/account\/mfa\n$/,
  );
});

test('starters build on each other: auth after contacts adds its pages and keeps the links; mfa after auth only adds files', () => {
  const project = fresh();
  ok(project, ['starter:build', 'contacts']);
  /** The paths of routes.ts's menu entries (`router.menu()`), which the layout's nav block renders: the application's one menu. */
  const menu = (): string[] => [...project.read('mvc/routes.ts').matchAll(/router\.menu\('([^']+)'/g)].map((m) => m[1]!);
  const layout = project.read('mvc/views/layouts/app.html');
  assert.match(layout, '{% block nav %}{% include "components/menu.html" %}{% endblock %}');
  assert.equal(menu(), ['/contacts']);
  const auth = ok(project, ['starter:build', 'auth']);
  assert.not.match(auth, /écrasé/);
  // The menu gets the new pages, the layout stays as it was; the pages themselves leave the nav block to it.
  assert.equal(menu(), ['/contacts', '/dashboard', '/profile']);
  assert.is(project.read('mvc/views/layouts/app.html'), layout);
  assert.match(auth, '\nMenu complété dans mvc/routes.ts : Tableau de bord (/dashboard), Mon profil (/profile).\n');
  for (const view of ['mvc/views/dashboard/index.html', 'mvc/views/profile/show.html']) assert.not.match(project.read(view), 'block nav', view);
  // The home page lists the menu entries the visitor may open, with the descriptions of the starters' pages.
  const home = project.read('mvc/views/home/index.html');
  assert.match(home, '{%- set pages = menu() %}');
  for (const href of ['/contacts', '/dashboard', '/profile']) assert.match(home, `\n  "${href}": "`);
  assert.not.match(home, '/account/mfa');
  refused(project, ['starter:build', 'contacts'], /est déjà construite/, /--force/);

  const mfa = ok(project, ['starter:build', 'mfa']);
  assert.not.match(mfa, /écrasé|ignoré/);
  assert.equal(menu(), ['/contacts', '/dashboard', '/profile', '/account/mfa']);
  assert.match(mfa, '\nMenu complété dans mvc/routes.ts : Second facteur (/account/mfa).\n');
  assert.ok(mfa.split('\n').includes(fateLine('créé', 'mvc/views/account/_mfa.html')));
  assert.match(project.read('mvc/views/home/index.html'), '\n  "/account/mfa": "Codes d’une application');
  assert.match(
    project.read('mvc/routes.ts'),
    /\n {2}registerAuthRoutes\(router\);\n[\s\S]*\n {2}registerMfaRoutes\(router\);\n {2}\/\/ Menu : second facteur \(fw starter:build mfa\)\n {2}router\.menu\('\/account\/mfa', 'Second facteur'\);\n\}\n$/,
  );
  assert.equal(JSON.parse(project.read('fw_modules.json')).modules, [{ name: 'mfa' }]);
  // mfa holds auth: building auth again changes nothing.
  refused(project, ['starter:build', 'utilisateurs-auth'], /« auth » est déjà construite/, /--force/);
  // A home page the user took over (marker line removed) is theirs: a conflict.
  project.write('mvc/views/home/index.html', '{% extends "layouts/app.html" %}\n');
  refused(
    project,
    ['starter:build', 'mfa'],
    /^Erreur : le projet a déjà 1 fichier\(s\) que l'application de démarrage « mfa » écrirait, avec un autre contenu : mvc\/views\/home\/index\.html ; rien n'a été écrit\.$/,
    /--force/,
  );
});

test('a layout the user changed stays theirs: the build asks for the menu only when the layout no longer renders it', () => {
  const project = fresh();
  ok(project, ['starter:build', 'contacts']);
  const include = '{% include "components/menu.html" %}';
  // A link of the user's beside the menu: nothing to say.
  const beside = project.read('mvc/views/layouts/app.html').replace(include, `${include}<a href="/aide">Aide</a>`);
  project.write('mvc/views/layouts/app.html', beside);
  const first = ok(project, ['starter:build', 'auth']);
  assert.is(project.read('mvc/views/layouts/app.html'), beside);
  assert.not.match(first, 'Attention : mvc/views/layouts/app.html');
  // A menu of the user's own, without the include: the build says how to show routes.ts's.
  const instead = beside.replace(include, '');
  project.write('mvc/views/layouts/app.html', instead);
  const out = ok(project, ['starter:build', 'mfa']);
  assert.is(project.read('mvc/views/layouts/app.html'), instead);
  assert.match(
    out,
    `Attention : mvc/views/layouts/app.html est à vous, il n'est pas modifié ; pour qu'il affiche le menu de mvc/routes.ts, mettez dans son bloc nav : ${include}\n`,
  );
});

test.run();
