// `fw make:crud --media` as a real process (docs/decisions.md#uploads-and-media, docs/crud.md "Media"): the media files it writes and what it
// tells next, its refusals (no media entry; pages made earlier without media) that write nothing, the media kept by a
// later run without the flag, and `fw sync:entity` / `fw build:model` bringing a change of the media entries into the
// regenerable files without touching the user's files.
import fs from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fateLine, lines, newProject, type CliProject } from './helpers/cli.js';
import { ok, writeEntity } from './helpers/crud-cli-project.js';
import { PRODUIT, produitWith } from './helpers/crud-media.js';

const projects: CliProject[] = [];

test.after(async () => {
  for (const made of projects) await made.cleanup();
});

function fresh(): CliProject {
  const made = newProject('Boutique');
  projects.push(made);
  return made;
}

const MEDIA_FILES = ['mvc/models/produit_media.ts', 'mvc/views/produit/_media_fields.html', 'mvc/views/produit/_media_show.html'];

let project: CliProject;

test('make:crud Produit --media writes the media files, a multipart form, and says what to run next', () => {
  project = fresh();
  writeEntity(project, PRODUIT);
  const out = lines(ok(project, ['make:crud', 'Produit', '--media']));
  for (const file of MEDIA_FILES) assert.ok(out.includes(fateLine('créé', file)), file);
  assert.is(out.at(-1), 'Médias : « fw upload:init » et « fw media:init » (dossiers et table media), puis « fw db:apply ».');
  // The framework's form is multipart when its page has media: this one fills its media block.
  assert.match(project.read('mvc/views/produit/form.html'), '{% block media %}{% include "produit/_media_fields.html" %}{% endblock %}');
  assert.ok(project.read('mvc/controllers/produit_controller.ts').includes("import { MEDIA } from '../models/produit_media.js';"));
});

test('the media partials and fw-mvc/media speak through the catalogue: i18n:check passes, and sees their media.* keys', () => {
  for (const file of ['mvc/views/produit/_media_fields.html', 'mvc/views/produit/_media_show.html']) {
    // No French text left outside trans(): between the tags, only expressions and the entries' labels (from the entity file).
    const text = project.read(file).replace(/\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}|\{#[\s\S]*?#\}/g, '');
    const texts = [...text.matchAll(/>([^<]*[A-Za-zÀ-ÿ][^<]*)</g)].map((m) => m[1]);
    assert.equal(
      [...new Set(texts)],
      PRODUIT.media.map((m) => m.label),
      file,
    );
  }
  const passed = project.run(['i18n:check']);
  assert.is(passed.status, 0, passed.stdout + passed.stderr);
  // A locale without any catalogue of the framework's: every key the pages use is missing, the media ones among them.
  project.write('translations/de.json', '{}\n');
  try {
    const failed = project.run(['i18n:check']);
    assert.is(failed.status, 1, failed.stdout);
    assert.match(failed.stdout, /« media\.remove » \(mvc\/views\/produit\/_media_fields\.html:\d+/);
    assert.match(failed.stdout, /« media\.no_image » \(mvc\/views\/produit\/_media_show\.html:\d+/);
    // The form's hints come from MediaPages, in the framework's code.
    assert.match(failed.stdout, /« media\.hint_each » \(fw-mvc\/dist\/runtime\/media\/pages\.js:\d+/);
  } finally {
    fs.rmSync(project.path('translations/de.json'));
  }
});

test('a second run, without --media: the media stay (the media module is there), everything unchanged, no advice', () => {
  const before = project.snapshot();
  const out = lines(ok(project, ['make:crud', 'Produit']));
  for (const file of MEDIA_FILES) assert.ok(out.includes(fateLine('inchangé', file)), file);
  assert.ok(out.includes(fateLine('inchangé', 'mvc/controllers/produit_controller.ts')));
  assert.not.ok(
    out.some((line) => line.startsWith('Médias')),
    out.join('\n'),
  );
  assert.equal(project.snapshot(), before);
});

test('a change of the media entries reaches the regenerable files through sync:entity; the user files stay as they are', () => {
  const controller = project.read('mvc/controllers/produit_controller.ts');
  const form = project.read('mvc/views/produit/form.html');
  project.write(
    'mvc/entities/produit/produit.json',
    `${JSON.stringify(produitWith([...PRODUIT.media.slice(0, 3), { name: 'plan', field: 'file', label: 'Plan de montage' }]), null, 2)}\n`,
  );
  const check = project.run(['build:model', '--check']);
  assert.is(check.status, 2, check.stdout + check.stderr);
  const stale = lines(check.stdout).filter((line) => line.includes('/produit/') || line.includes('/models/'));
  assert.equal(stale, ['  mvc/models/produit_media.ts', '  mvc/views/produit/_media_fields.html', '  mvc/views/produit/_media_show.html']);
  const out = lines(ok(project, ['sync:entity', 'Produit']));
  for (const file of ['mvc/models/produit_media.ts', 'mvc/views/produit/_media_fields.html', 'mvc/views/produit/_media_show.html']) {
    assert.ok(out.includes(fateLine('mis à jour', file)), `${file}\n${out.join('\n')}`);
  }
  assert.not.ok(project.exists('mvc/models/crud_media.ts'));
  assert.ok(
    project
      .read('mvc/models/produit_media.ts')
      .includes("{ name: 'plan', label: 'Plan de montage', kind: 'file', role: 'plan', multiple: false, variants: false },"),
  );
  assert.not.ok(project.read('mvc/views/produit/_media_fields.html').includes('pieces_jointes'));
  assert.ok(project.read('mvc/views/produit/_media_show.html').includes('Plan de montage'));
  assert.is(project.read('mvc/controllers/produit_controller.ts'), controller);
  assert.is(project.read('mvc/views/produit/form.html'), form);
  const after = project.run(['make:crud', 'Produit', '--check']);
  assert.is(after.status, 0, after.stdout);
});

test('--media on an entity without media entries: exit 1, the way out, nothing written', () => {
  const target = fresh();
  writeEntity(target, produitWith([]));
  const before = target.snapshot();
  const run = target.run(['make:crud', 'Produit', '--media']);
  assert.is(run.status, 1);
  assert.is(run.stdout, '');
  assert.equal(lines(run.stderr), [
    'Erreur : Produit ne déclare aucun média : --media génère les pages de ses entrées « media » (mvc/entities/produit/produit.json).',
    'Conseil : ajoutez-en, par exemple « "media": [{ "name": "photo", "field": "image", "variants": true }] », ou relancez sans --media.',
  ]);
  assert.equal(target.snapshot(), before);
});

test('pages made without --media: a hint names the media; --media afterwards is refused (the controller is the user’s) and writes nothing', () => {
  const target = fresh();
  writeEntity(target, PRODUIT);
  const out = lines(ok(target, ['make:crud', 'Produit']));
  assert.is(
    out.at(-1),
    'Médias : Produit en déclare (photo, galerie, notice, pieces_jointes) ; « fw make:crud Produit --media » génère les pages qui les gèrent.',
  );
  for (const file of MEDIA_FILES) assert.not.ok(target.exists(file), file);
  assert.not.match(target.read('mvc/views/produit/form.html'), /_media_fields/);

  const before = target.snapshot();
  const run = target.run(['make:crud', 'Produit', '--media']);
  assert.is(run.status, 1);
  assert.equal(lines(run.stderr), [
    "Erreur : les pages de Produit existent déjà sans médias : mvc/controllers/produit_controller.ts (votre fichier) n'importe pas mvc/models/produit_media.ts. Aucun fichier n'a été écrit.",
    'Conseil : supprimez (ou renommez) mvc/controllers/produit_controller.ts, mvc/models/produit_model.ts, mvc/views/produit/form.html et mvc/views/produit/show.html, puis relancez « fw make:crud Produit --media » : ils seront recréés avec les médias (reportez-y vos modifications).',
  ]);
  assert.equal(target.snapshot(), before);
  // sync:entity does not add media to pages made without them.
  ok(target, ['sync:entity', 'Produit']);
  for (const file of MEDIA_FILES) assert.not.ok(target.exists(file), file);

  // The advice works.
  for (const file of ['mvc/controllers/produit_controller.ts', 'mvc/models/produit_model.ts', 'mvc/views/produit/form.html', 'mvc/views/produit/show.html'])
    fs.rmSync(target.path(file));
  const again = lines(ok(target, ['make:crud', 'Produit', '--media']));
  assert.ok(again.includes(fateLine('créé', 'mvc/controllers/produit_controller.ts')));
  assert.match(target.read('mvc/views/produit/form.html'), '{% include "produit/_media_fields.html" %}');
});

test('--media --public with file entries: documents are served to signed-in sessions only, and the output says how to open them', () => {
  const target = fresh();
  writeEntity(target, PRODUIT);
  const out = lines(ok(target, ['make:crud', 'Produit', '--media', '--public']));
  assert.is(
    out.at(-1),
    "Documents (notice, pieces_jointes) : /media/documents/… ne les sert qu'aux sessions connectées ; sans connexion, ajoutez 'documents' à media_public_categories (config.ts).",
  );
});

test.run();
