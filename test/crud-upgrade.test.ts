// `fw make:crud <Entity> --upgrade` (docs/upgrading.md "Upgrading an entity's files"): a project whose Contact pages
// were made by the previous release (its files, as that release wrote them: test/fixtures/crud-before-runtime/, which
// the frozen emitters of emitters/crud/legacy/ give byte for byte), with the user's action in the controller and their
// title in the list view, is brought to the thin files: the diff is shown first, nothing is written without --yes, a
// conflicting edit writes nothing and names its lines, the untouched files are replaced by what make:crud writes
// now, the edited ones keep the edits; the project type-checks and serves, and running the generators again changes
// no byte. The terminal case runs the command under `script` (util-linux) for a pseudo-terminal.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compileProject } from '../compiler/index.js';
import { planCrud } from '../emitters/crud/files.js';
import { legacyManualFiles } from '../emitters/crud/legacy/index.js';
import { manualHash, readManualMarker } from '../emitters/marker.js';
import { FW, REPO, childEnv, fateLine, lines, newProject, type CliProject } from './helpers/cli.js';
import { HttpClient, linkFramework, serveProject } from './helpers/crud-app.js';
import { ok } from './helpers/crud-cli-project.js';
import { filesUnder } from './helpers/crud-media.js';
import { FIXTURE_PROJECT, copyFixtureEntities } from './helpers/fixture-project.js';
import { runTsc } from './helpers/typecheck.js';

const BEFORE = path.join(REPO, 'test', 'fixtures', 'crud-before-runtime', 'mvc');
const CONTROLLER = 'mvc/controllers/contact_controller.ts';
const INDEX = 'mvc/views/contact/index.html';
const TABLE = 'mvc/views/contact/_table.html';
const OWN = [
  CONTROLLER,
  'mvc/models/contact_model.ts',
  'mvc/forms/contact_form.ts',
  INDEX,
  'mvc/views/contact/show.html',
  'mvc/views/contact/form.html',
  TABLE,
  'mvc/views/contact/_pagination.html',
  'mvc/views/contact/_results.html',
];
const ACTION = `
  /** GET /contacts/carte: a page of mine, written as the actions above it. */
  static async card(request: Request): Promise<Response> {
    if (!allowed(request, 'index')) return errorPage(403, request);
    return BaseController.render('contact/card.html', { request, context: { title: crud.TITLE, base: BASE } });
  }
`;

let project: CliProject;
/** What make:crud writes now for Contact, read before the older files were laid over. */
const fresh = new Map<string, string>();

test.before(() => {
  project = newProject('Carnet');
  project.useSqlite();
  copyFixtureEntities(project.root);
  for (const entity of ['Ville', 'Tag', 'Contact']) ok(project, ['make:crud', entity, '--public']);
  for (const args of [['sync:relations'], ['db:init'], ['db:apply']]) ok(project, args);
  for (const file of OWN) fresh.set(file, project.read(file));
  // The previous release's files of Contact, then the user's edits: an action at the end of the controller's class
  // (with its route and its view), a title in the list.
  for (const file of filesUnder(BEFORE)) fs.cpSync(path.join(BEFORE, file), project.path(`mvc/${file}`));
  const controller = project.read(CONTROLLER).split('\n');
  const classEnd = controller.indexOf('}');
  project.write(
    CONTROLLER,
    [...controller.slice(0, classEnd), ACTION.slice(1, -1), ...controller.slice(classEnd)]
      .join('\n')
      .replace('\nexport class', '\n// Mon contrôleur.\nexport class'),
  );
  project.write(INDEX, project.read(INDEX).replace('>{{ title }}</h1>', '>Mon carnet</h1>'));
  project.write(
    'mvc/views/contact/card.html',
    '{% extends "layouts/app.html" %}\n{% block content %}<p id="carte">Carte : {{ title }} ({{ base }})</p>{% endblock %}\n',
  );
  const routes = project.read('mvc/routes.ts').split('\n');
  const index = routes.findIndex((line) => line.includes("name: 'contacts.index'"));
  routes.splice(index, 0, "  router.add('GET', '/contacts/carte', ContactController.card, { name: 'contacts.card', public: true });");
  project.write('mvc/routes.ts', routes.join('\n'));
  linkFramework(project);
});

test.after(async () => {
  await project?.cleanup();
});

function typeCheck(): void {
  const result = runTsc(project.root, ['--noEmit', '-p', 'tsconfig.json']);
  assert.is(result.stdout + result.stderr, '');
  assert.is(result.status, 0);
}

/** The project's files but its database and logs. */
function files(): Record<string, string> {
  return Object.fromEntries(Object.entries(project.snapshot()).filter(([file]) => !file.startsWith('storage/')));
}

test('the frozen emitters give the files of the previous release byte for byte', () => {
  const { model } = compileProject(FIXTURE_PROJECT);
  const legacy = legacyManualFiles(planCrud(model!, 'Contact', { isPublic: true }));
  assert.is(legacy.size, 10);
  for (const [file, text] of legacy) assert.is(text, fs.readFileSync(path.join(BEFORE, file.slice('mvc/'.length)), 'utf8'), file);
});

test('every file make:crud writes for the user records the hash of what it wrote', () => {
  for (const [file, text] of fresh) {
    const marker = readManualMarker(text);
    assert.ok(marker, file);
    assert.is(marker.command, 'make:crud Contact');
    assert.is(manualHash(marker.body), marker.hash, file);
  }
});

test('a conflicting edit writes nothing and names its file and lines', () => {
  const before = files();
  const table = project.read(TABLE);
  project.write(TABLE, table.replace('text-right whitespace-nowrap', 'text-left'));
  const run = project.run(['make:crud', 'Contact', '--public', '--upgrade', '--yes']);
  assert.is(run.status, 1, run.stdout + run.stderr);
  assert.match(
    run.stderr,
    /^Erreur : la mise à niveau de Contact est en conflit, aucun fichier n'a été écrit : mvc\/views\/contact\/_table\.html : lignes 1-32 /m,
  );
  project.write(TABLE, table);
  assert.equal(files(), before);
});

test('without a terminal and without --yes, the diff is shown and nothing is written', () => {
  const before = files();
  const run = project.run(['make:crud', 'Contact', '--public', '--upgrade']);
  assert.is(run.status, 1, run.stdout + run.stderr);
  assert.match(run.stdout, `--- a/${CONTROLLER}\n+++ b/${CONTROLLER}\n@@ `);
  assert.match(run.stdout, '\n-  static async index(request: Request): Promise<Response> {\n');
  assert.match(run.stdout, '\n+export class ContactController extends crudController(');
  assert.ok(lines(run.stdout).includes(fateLine('fusionné', INDEX)), run.stdout);
  assert.match(run.stderr, "Erreur : rien n'a été écrit");
  assert.match(run.stderr, '--upgrade --yes');
  assert.is(project.run(['make:crud', 'Contact', '--public', '--upgrade', '--dry-run']).status, 0);
  assert.equal(files(), before);
});

test('in a terminal, the question comes after the diff; any answer but « o » writes nothing', () => {
  const before = files();
  const run = spawnSync('script', ['-qec', `${process.execPath} ${FW} make:crud Contact --public --upgrade`, '/dev/null'], {
    cwd: project.root,
    input: 'n\n',
    encoding: 'utf8',
    env: childEnv(),
  });
  assert.is(run.status, 0, run.stdout + run.stderr);
  const diff = run.stdout.indexOf(`--- a/${CONTROLLER}`);
  const question = run.stdout.indexOf('Écrire ces fichiers ? [o/N] ');
  assert.ok(diff !== -1 && question > diff, run.stdout);
  assert.match(run.stdout, "Rien n'a été écrit.");
  assert.equal(files(), before);
});

test('--yes: untouched files replaced, edited ones merged with the edits kept; it type-checks and serves', async () => {
  const out = lines(ok(project, ['make:crud', 'Contact', '--public', '--upgrade', '--yes']));
  assert.ok(out.includes(fateLine('fusionné', CONTROLLER)), out.join('\n'));
  assert.ok(out.includes(fateLine('supprimé', 'mvc/views/contact/bulk_delete.html')), out.join('\n'));
  for (const file of OWN.filter((f) => f !== CONTROLLER && f !== INDEX)) {
    assert.ok(out.includes(fateLine('remplacé', file)), file);
    assert.is(project.read(file), fresh.get(file), file);
  }
  assert.not.ok(project.exists('mvc/views/contact/bulk_delete.html'));
  const controller = project.read(CONTROLLER);
  assert.ok(controller.startsWith(fresh.get(CONTROLLER)!.split('\n')[0]!), 'the new text is the base of the next upgrade');
  assert.match(
    controller,
    '// Mon contrôleur.\nexport class ContactController extends crudController(CONTACT_CRUD, { form: ContactForm, model: ContactModel }) {',
  );
  assert.match(controller, ACTION);
  // What the action uses of the older file stays: its imports, and the two constants it reads.
  assert.match(controller, "import { BaseController, errorPage } from 'fw-mvc';");
  assert.match(controller, "const BASE = '/contacts';");
  assert.match(controller, 'const allowed = crud.allowed;');
  assert.not.match(controller, 'function listUrl(');
  assert.match(controller, "import * as crud from '../models/contact_crud.js';");
  assert.not.match(controller, 'static async index(');
  const index = project.read(INDEX);
  assert.match(index, '{% extends "crud/index.html" %}');
  assert.match(index, '>Mon carnet</h1>');
  // The description keeps the older names the kept action reads (crud.TITLE).
  assert.match(project.read('mvc/models/contact_crud.ts'), 'legacyCrudNames(CONTACT_CRUD)');
  typeCheck();
  const served = await serveProject(project);
  try {
    const client = new HttpClient(served.url);
    const list = await client.get('/contacts');
    assert.is(list.status, 200);
    assert.match(list.text, 'Mon carnet');
    assert.match(list.text, 'id="crud-results"');
    const card = await client.get('/contacts/carte');
    assert.is(card.status, 200);
    assert.match(card.text, /<p id="carte">Carte : [^<]+ \(\/contacts\)<\/p>/);
  } finally {
    const exited = new Promise((resolve) => served.child.once('exit', resolve));
    served.child.kill('SIGTERM');
    await exited;
  }
});

test('running the generators again changes no byte', () => {
  const before = files();
  const again = lines(ok(project, ['make:crud', 'Contact', '--public', '--upgrade', '--yes']));
  for (const file of OWN) assert.ok(again.includes(fateLine('inchangé', file)), file);
  assert.equal(files(), before);
  // Up to date, without --yes and without a terminal: nothing to ask.
  const idle = project.run(['make:crud', 'Contact', '--public', '--upgrade']);
  assert.is(idle.status, 0, idle.stdout + idle.stderr);
  assert.match(idle.stdout, 'Fichiers de Contact déjà à jour.');
  ok(project, ['make:crud', 'Contact', '--public']);
  ok(project, ['sync:entity', 'Contact']);
  ok(project, ['build:model']);
  assert.equal(files(), before);
});

test("a file of this version's make:crud that the user edited keeps the edit", () => {
  const file = 'mvc/controllers/ville_controller.ts';
  const edited = project.read(file).replace(/\n}\n$/, '\n  // Mes villes.\n}\n');
  project.write(file, edited);
  const out = lines(ok(project, ['make:crud', 'Ville', '--public', '--upgrade', '--yes']));
  assert.ok(out.includes(fateLine('inchangé', file)), out.join('\n'));
  assert.is(project.read(file), edited);
});

test('the entity changed since: the base is what the stubs wrote for it then, and the edit merges into the new text', () => {
  const file = 'mvc/controllers/ville_controller.ts';
  const edited = project.read(file);
  // A text field before nom: the comments of a new controller take it as their example.
  project.editJson<{ fields: object[] }>('mvc/entities/ville/ville.json', (ville) => {
    ville.fields.unshift({ name: 'region', sql_type: 'VARCHAR(50)', list: { filter: true } });
  });
  const out = lines(ok(project, ['make:crud', 'Ville', '--public', '--upgrade', '--yes']));
  assert.ok(out.includes(fateLine('fusionné', file)), out.join('\n'));
  const merged = project.read(file);
  assert.match(merged, "form.addError('region', '…')");
  assert.match(merged, '  // Mes villes.\n}\n');
  assert.is.not(merged.split('\n')[0], edited.split('\n')[0], 'the marker records the new text');
});

test('a recorded hash that matches no known version: refused, named, nothing written', () => {
  const file = 'mvc/controllers/ville_controller.ts';
  project.write(
    file,
    project
      .read(file)
      .replace(/sha256:[0-9a-f]{16}/, 'sha256:0000000000000000')
      .replace(/\n}\n$/, '\n  // Encore.\n}\n'),
  );
  const before = files();
  const run = project.run(['make:crud', 'Ville', '--public', '--upgrade', '--yes']);
  assert.is(run.status, 1, run.stdout + run.stderr);
  assert.match(run.stderr, `Erreur : ${file} : la version écrite par fw make:crud est introuvable`);
  assert.equal(files(), before);
});

test.run();
