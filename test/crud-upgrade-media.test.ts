// `fw make:crud Produit --media --upgrade` on the files of the previous release's `make:crud Produit --media`
// (test/fixtures/crud-previous-release/, the snapshot of that release), with the user's note on the detail page: the
// files become the thin ones with their media, the edit is kept, the project type-checks and its pages serve
// (docs/upgrading.md "Upgrading an entity's files").
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { REPO, fateLine, lines, type CliProject } from './helpers/cli.js';
import { HttpClient, serveProject } from './helpers/crud-app.js';
import { ok } from './helpers/crud-cli-project.js';
import { buildMediaApp } from './helpers/crud-media-app.js';
import { filesUnder } from './helpers/crud-media.js';
import { runTsc } from './helpers/typecheck.js';

const PREVIOUS = path.join(REPO, 'test', 'fixtures', 'crud-previous-release');
const SHOW = 'mvc/views/produit/show.html';

let project: CliProject;

test.before(() => {
  project = buildMediaApp('sqlite');
  for (const file of filesUnder(PREVIOUS).filter((f) => f.includes('produit'))) fs.cpSync(path.join(PREVIOUS, file), project.path(file));
  project.write(SHOW, project.read(SHOW).replace('{% endblock %}\n', '<p id="note">Livré sous 48 h.</p>\n{% endblock %}\n'));
});

test.after(async () => {
  await project?.cleanup();
});

test('the media pages of the previous release upgraded: the thin files with their media, the note kept', async () => {
  const out = lines(ok(project, ['make:crud', 'Produit', '--public', '--upgrade', '--yes']));
  assert.ok(out.includes(fateLine('fusionné', SHOW)), out.join('\n'));
  assert.ok(out.includes(fateLine('remplacé', 'mvc/controllers/produit_controller.ts')), out.join('\n'));
  assert.match(project.read('mvc/controllers/produit_controller.ts'), 'media: MEDIA })');
  assert.match(project.read(SHOW), '{% extends "crud/show.html" %}');
  assert.match(project.read(SHOW), '<p id="note">Livré sous 48 h.</p>');
  const result = runTsc(project.root, ['--noEmit', '-p', 'tsconfig.json']);
  assert.is(result.stdout + result.stderr, '');
  const served = await serveProject(project);
  try {
    const client = new HttpClient(served.url);
    assert.is((await client.get('/produits')).status, 200);
    const form = await client.get('/produits/new');
    assert.is(form.status, 200);
    assert.match(form.text, 'enctype="multipart/form-data"');
  } finally {
    const exited = new Promise((resolve) => served.child.once('exit', resolve));
    served.child.kill('SIGTERM');
    await exited;
  }
  // Up to date: nothing more to write.
  assert.match(ok(project, ['make:crud', 'Produit', '--public', '--upgrade']), 'Fichiers de Produit déjà à jour.');
});

test.run();
