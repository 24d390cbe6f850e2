// The public page generators through the real CLI in temporary projects (docs/generators.md): files and routes, re-runs that change nothing, --dry-run, refusals (names,
// entities, a route another page answers, in both orders with make:crud), controllers edited through their syntax tree
// keeping the user's methods, and `tsc --noEmit` over the generated project.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lines, newProject, type CliProject } from './helpers/cli.js';
import { linkFramework } from './helpers/crud-app.js';
import { ID, ok, writeEntity } from './helpers/crud-cli-project.js';
import { ANNONCE, PUBLIC_COMMANDS, generatePublicSite } from './helpers/public-project.js';
import { runTsc } from './helpers/typecheck.js';

const projects: CliProject[] = [];
function fresh(): CliProject {
  const made = newProject('Vitrine');
  projects.push(made);
  return made;
}
test.after(async () => {
  for (const made of projects) await made.cleanup();
});

/** A refusal: exit 1, `Erreur : …` then `Conseil : …` on stderr, nothing on stdout, no file changed. */
function refused(project: CliProject, args: string[], message: RegExp): string {
  const before = project.snapshot();
  const run = project.run(args);
  assert.is(run.status, 1, `fw ${args.join(' ')} : ${run.stdout}${run.stderr}`);
  assert.is(run.stdout, '');
  const [first, second] = lines(run.stderr);
  assert.match(first!, /^Erreur : /);
  assert.match(first!, message);
  assert.match(second ?? '', /^Conseil : /, run.stderr);
  assert.equal(project.snapshot(), before, `fw ${args.join(' ')} n'écrit rien`);
  return run.stderr;
}

let site: CliProject;

test('every generator writes its controller, views and public routes, named public.*', () => {
  site = fresh();
  generatePublicSite(site);
  for (const file of [
    'mvc/controllers/pages_controller.ts',
    'mvc/views/landing/index.html',
    'mvc/views/a-propos/index.html',
    'mvc/views/pages/contact.html',
    'mvc/controllers/annonce_public_controller.ts',
    'mvc/views/annonce_public/list.html',
    'mvc/views/annonce_public/show.html',
    'mvc/views/annonce_public/form.html',
    'mvc/entities/annonce/annonce_base.ts',
  ]) {
    assert.ok(site.exists(file), file);
  }
  linkFramework(site);
  const routes = JSON.parse(ok(site, ['routes:list', '--json'])) as Array<{
    method: string;
    path: string;
    name: string;
    public: boolean;
    csrf: boolean;
    handler: string;
  }>;
  const made = routes.filter((r) => r.name.startsWith('public.')).map((r) => [r.method, r.path, r.name, r.handler, r.public, r.csrf]);
  assert.equal(made, [
    ['GET', '/landing', 'public.page.landing', 'PagesController.landing', true, true],
    ['GET', '/a-propos', 'public.page.a-propos', 'PagesController.aPropos', true, true],
    ['GET', '/contact', 'public.contact', 'PagesController.contact', true, true],
    ['GET', '/annonces', 'public.annonces.list', 'AnnoncePublicController.list', true, true],
    ['GET', '/annonces/{id}', 'public.annonces.show', 'AnnoncePublicController.show', true, true],
    ['GET', '/annonces/new', 'public.annonces.new', 'AnnoncePublicController.new', true, true],
    ['POST', '/annonces', 'public.annonces.create', 'AnnoncePublicController.create', true, true],
    ['GET', '/cles', 'public.cles.list', 'ClePublicController.list', true, true],
    ['GET', '/cles/{id}', 'public.cles.show', 'ClePublicController.show', true, true],
    ['GET', '/comptes', 'public.comptes.list', 'ComptePublicController.list', true, true],
    ['GET', '/comptes/{id}', 'public.comptes.show', 'ComptePublicController.show', true, true],
    ['GET', '/comptes/new', 'public.comptes.new', 'ComptePublicController.new', true, true],
    ['POST', '/comptes', 'public.comptes.create', 'ComptePublicController.create', true, true],
  ]);
  const controller = site.read('mvc/controllers/annonce_public_controller.ts');
  // The visible SQL: the latest 100, newest first; the INSERT of the form's fields and the NOT NULL ones it leaves out.
  assert.match(
    controller,
    "const SELECT_PUBLIC_LIST = 'SELECT Id, Titre, Email, Telephone, SiteWeb, Prix, Surface, Pieces, Disponible, Debut, Visite FROM annonces ORDER BY Id DESC LIMIT 100';",
  );
  assert.match(
    controller,
    "export const INSERT_PUBLIC_FORM = 'INSERT INTO annonces (Titre, Email, Telephone, SiteWeb, Prix, Surface, Pieces, Disponible, Debut, Visite, Description, PasswordHash, IsActive, CreatedAt) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)';",
  );
  const fields = /export const FORM_FIELDS = \{\n([\s\S]*?)\n\};/
    .exec(controller)![1]!
    .split('\n')
    .map((line) => line.trim().split(':')[0]);
  assert.equal(fields, ['titre', 'email', 'telephone', 'site_web', 'prix', 'surface', 'pieces', 'disponible', 'debut', 'visite', 'description']);
  assert.match(controller, "prix: new DecimalField({ label: 'Prix', inputType: 'number', required: false, maxDigits: 8, decimalPlaces: 2 })");
  assert.match(site.read('mvc/views/annonce_public/form.html'), /name="prix"[^>]* step="0\.01"/);
  const pages = site.read('mvc/controllers/pages_controller.ts');
  assert.match(pages, "static landing(request: Request): Response {\n    return BaseController.render('landing/index.html', { request });");
  assert.match(
    site.read('mvc/views/landing/index.html'),
    /\{% extends "layouts\/public.html" %\}[\s\S]*<h1[^>]*>Landing<\/h1>[\s\S]*trans\('public.page.generated'\)/,
  );
  // The title derived from the name gets its accents back.
  const about = site.read('mvc/views/a-propos/index.html');
  assert.match(about, '{% block title %}À propos{% endblock %}');
  assert.match(about, /<h1[^>]*>À propos<\/h1>/);
  // The public form leaves checking to the server, whose messages are in French (no browser bubbles).
  assert.match(site.read('mvc/views/annonce_public/form.html'), /<form method="post" action="\{\{ action \}\}" novalidate /);
});

test('the generated project type-checks (tsc --noEmit, strict)', () => {
  const result = runTsc(site.root, ['--noEmit', '-p', 'tsconfig.json']);
  assert.is(result.status, 0, result.stdout + result.stderr);
});

test('a second run of every generator changes nothing (« inchangé »)', () => {
  const before = site.snapshot();
  for (const args of PUBLIC_COMMANDS) {
    const out = ok(site, args);
    const fates = lines(out).filter((line) => /^ {2}\S/.test(line));
    assert.ok(fates.length > 0, out);
    for (const line of fates) assert.match(line, /^ {2}inchangé /, `fw ${args.join(' ')} : ${line}`);
    assert.not.match(out, /Routes ajoutées/);
    assert.not.match(out, /gardé tel quel/, `fw ${args.join(' ')} : rien ne diffère`);
  }
  assert.equal(site.snapshot(), before);
});

test('invalid page names, reserved names and unknown entities: Erreur, exit 1, nothing written', () => {
  for (const name of ['A_B', 'Ma-page', 'a--b', '-x', 'x-', 'été', 'a/b'])
    refused(site, ['make:public-page', ...(name.startsWith('-') ? ['--'] : []), name], /nom de page invalide/);
  refused(site, ['make:public-page', 'static'], /réservé/);
  for (const command of ['make:public-list', 'make:public-show', 'make:public-form']) refused(site, [command, 'Inconnu'], /entité « Inconnu » introuvable/);
});

let other: CliProject;

test('--dry-run prints the plan and writes nothing', () => {
  other = fresh();
  writeEntity(other, ANNONCE);
  const before = other.snapshot();
  const out = ok(other, ['make:public-list', 'Annonce', '--dry-run']);
  assert.match(out, /Simulation \(--dry-run\)/);
  assert.match(out, /créé {2,}mvc\/controllers\/annonce_public_controller.ts/);
  assert.match(out, /^\+ {2}router.add\('GET', '\/annonces', AnnoncePublicController.list, \{ name: 'public.annonces.list', public: true \}\);$/m);
  assert.equal(other.snapshot(), before);
});

test('an existing controller keeps its methods: the generators add theirs through the syntax tree', () => {
  const custom = `import { BaseController, type Request, type Response } from 'fw-mvc';
import { helper } from '../lib/helper.js';

/** Mine. */
export class PagesController extends BaseController {
  static accueil(request: Request): Response {
    return BaseController.render('accueil.html', { request, context: { x: helper() } });
  }
}
`;
  other.write('mvc/controllers/pages_controller.ts', custom);
  ok(other, ['make:public-page', 'landing']);
  const pages = other.read('mvc/controllers/pages_controller.ts');
  assert.ok(pages.startsWith(custom.slice(0, custom.lastIndexOf('}'))), pages);
  assert.match(pages, /static accueil\(request: Request\): Response \{\n[\s\S]*static landing\(request: Request\): Response \{/);

  ok(other, ['make:public-list', 'Annonce']);
  const file = 'mvc/controllers/annonce_public_controller.ts';
  const mine = other
    .read(file)
    .replace('const rows = (await fetchAll(SELECT_PUBLIC_LIST))', '// my change\n    const rows = (await fetchAll(SELECT_PUBLIC_LIST))');
  other.write(file, mine);
  const out = ok(other, ['make:public-form', 'Annonce']);
  assert.match(
    out,
    /Ajoutés à mvc\/controllers\/annonce_public_controller.ts : INSERT_PUBLIC_FORM, FORM_FIELDS, AnnoncePublicForm, AnnoncePublicController.new, AnnoncePublicController.create, publicFormPage/,
  );
  const edited = other.read(file);
  assert.match(edited, '// my change\n    const rows = (await fetchAll(SELECT_PUBLIC_LIST))');
  for (const part of [
    'static async list(',
    'static new(request: Request): Response',
    'static async create(request: Request)',
    'export const INSERT_PUBLIC_FORM =',
    'export const FORM_FIELDS =',
  ])
    assert.match(edited, part);
  // Named imports added to the file's own import of fw-mvc.
  assert.match(edited, /^import \{ BaseController, type Request, type Response, fetchAll, Form, insert, trans, DuplicateError, [^}]*\} from 'fw-mvc';$/m);
});

test('a unique column the form leaves out gets no shared default: the command names it', () => {
  const invitation = {
    format_version: 1,
    entity: 'Invitation',
    table: 'invitations',
    fields: [
      ID,
      { name: 'nom', sql_type: 'VARCHAR(80)' },
      { name: 'api_key', sql_type: 'VARCHAR(64)', unique: true },
      { name: 'note', sql_type: 'VARCHAR(80)' },
      { name: 'password_hash', sql_type: 'VARCHAR(255)' },
    ],
  };
  writeEntity(other, invitation);
  const out = ok(other, ['make:public-form', 'Invitation']);
  assert.match(
    out,
    /^Attention : api_key \(NOT NULL\) n'a pas de valeur dans INSERT_PUBLIC_FORM : ajoutez-la dans mvc\/controllers\/invitation_public_controller.ts \(create\(\)\)/m,
  );
  const controller = other.read('mvc/controllers/invitation_public_controller.ts');
  assert.match(controller, "export const INSERT_PUBLIC_FORM = 'INSERT INTO invitations (Nom, Note, PasswordHash) VALUES (?, ?, ?)';");
  assert.match(controller, "form.addError(null, trans('public.form.duplicate'));");
});

test('a route make:crud declared is refused by the public generators, and the reverse', () => {
  const crud = fresh();
  writeEntity(crud, ANNONCE);
  ok(crud, ['make:crud', 'Annonce']);
  const list = refused(crud, ['make:public-list', 'Annonce'], /GET \/annonces est déjà déclarée dans mvc\/routes.ts \(ligne \d+, route « annonces.index »/);
  assert.match(list, /Aucun fichier n'a été écrit/);
  refused(crud, ['make:public-show', 'Annonce'], /GET \/annonces\/\{id\} est déjà déclarée[^;]*annonces.show/);
  refused(
    crud,
    ['make:public-form', 'Annonce'],
    /GET \/annonces\/new est déjà déclarée[^;]*annonces.new.* ; POST \/annonces est déjà déclarée[^;]*annonces.store/,
  );
  // The reverse: the public list first (project `other`), then make:crud.
  const reverse = refused(other, ['make:crud', 'Annonce'], /GET \/annonces est déjà déclarée dans mvc\/routes.ts \(ligne \d+, route « public.annonces.list »/);
  assert.match(reverse, /par une page publique/);
});

test('a template or a constant kept although the entity changed since: a warning names it, with the lines that differ', () => {
  const changed = fresh();
  writeEntity(changed, ANNONCE);
  ok(changed, ['make:public-form', 'Annonce']);
  ok(changed, ['make:public-list', 'Annonce']);
  const withVille = { ...ANNONCE, fields: [...ANNONCE.fields, { name: 'ville', sql_type: 'VARCHAR(80)' }] };
  writeEntity(changed, withVille);
  const before = changed.snapshot();
  const out = ok(changed, ['make:public-form', 'Annonce']);
  assert.match(out, /^ {2}ignoré +mvc\/views\/annonce_public\/form.html/m);
  assert.match(
    out,
    /^Attention : mvc\/views\/annonce_public\/form.html est gardé tel quel \(ignoré\), mais « fw make:public-form Annonce » l'écrirait autrement aujourd'hui/m,
  );
  assert.match(out, /^ {4}\+ {4}<label for="field-ville"/m);
  assert.match(out, /^Attention : INSERT_PUBLIC_FORM \(mvc\/controllers\/annonce_public_controller.ts\) est gardé tel quel/m);
  assert.match(out, /^Attention : FORM_FIELDS \(mvc\/controllers\/annonce_public_controller.ts\) est gardé tel quel/m);
  assert.match(out, /^ {4}\+ {2}ville: new StringField\(\{ label: 'Ville', maxLength: 80 \}\),$/m);
  assert.match(out, /Pour la version générée : renommez mvc\/views\/annonce_public\/form.html/);
  // The list shows the new column too: its SELECT and template are named the same way; nothing of the user's is changed.
  assert.match(ok(changed, ['make:public-list', 'Annonce']), /Attention : SELECT_PUBLIC_LIST \(mvc\/controllers\/annonce_public_controller.ts\)/);
  const after = changed.snapshot();
  for (const file of ['mvc/views/annonce_public/form.html', 'mvc/views/annonce_public/list.html', 'mvc/controllers/annonce_public_controller.ts'])
    assert.is(after[file], before[file], file);
});

test('make:public-page --title: the title of the page, HTML-escaped; derived titles; a title opening a template tag is refused', () => {
  const titled = fresh();
  const out = ok(titled, ['make:public-page', 'qui-sommes-nous', '--title', 'Qui sommes-nous ? L’équipe & <nos> "valeurs"']);
  assert.match(out, /Page : \/qui-sommes-nous « Qui sommes-nous \? L’équipe & <nos> "valeurs" »/);
  const view = titled.read('mvc/views/qui-sommes-nous/index.html');
  const escaped = 'Qui sommes-nous ? L’équipe &amp; &lt;nos&gt; &quot;valeurs&quot;';
  assert.match(view, `{% block title %}${escaped}{% endblock %}`);
  assert.match(view, `>${escaped}</h1>`);
  ok(titled, ['make:public-page', 'mentions-legales']);
  assert.match(titled.read('mvc/views/mentions-legales/index.html'), '>Mentions légales</h1>');
  ok(titled, ['make:public-page', 'equipe']);
  assert.match(titled.read('mvc/views/equipe/index.html'), '>Équipe</h1>');
  ok(titled, ['make:public-page', 'tarifs-2026']);
  assert.match(titled.read('mvc/views/tarifs-2026/index.html'), '>Tarifs 2026</h1>');
  refused(titled, ['make:public-page', 'promo', '--title', 'Promo {{ prix }}'], /titre refusé pour « fw make:public-page promo » : le titre contient « \{\{ »/);
  refused(titled, ['make:public-page', 'promo', '--title', '   '], /le titre est vide/);
  refused(titled, ['make:public-page', 'promo', '--title', 'Deux\nlignes'], /saut de ligne/);
  const help = titled.run(['help', 'make:public-page']);
  assert.match(help.stdout + help.stderr, /--title <titre>/);
});

test('make:public-page refuses a path that registerAuthRoutes / registerMfaRoutes already answers', () => {
  const auth = fresh();
  const routes = auth.read('mvc/routes.ts');
  auth.write(
    'mvc/routes.ts',
    `import { registerAuthRoutes } from 'fw-mvc/auth';\n${routes.replace(/(export function registerRoutes\(router: Router\)[^{]*\{\n)/, '$1  registerAuthRoutes(router);\n')}`,
  );
  assert.match(auth.read('mvc/routes.ts'), /\{\n {2}registerAuthRoutes\(router\);\n/);
  const login = refused(
    auth,
    ['make:public-page', 'login'],
    /^Erreur : \/login appartient aux routes d'authentification \(registerAuthRoutes\(router\) dans mvc\/routes.ts\) : la page ne serait jamais affichée/,
  );
  assert.match(login, /Conseil : ces adresses sont réservées au module fw-mvc\/auth/);
  refused(auth, ['make:public-page', 'logout'], /\/logout appartient aux routes d'authentification/);
  ok(auth, ['make:public-page', 'connexion-aide']);
});

test.run();
