// A project made by `fw make:crud Produit --media` before fw-mvc/media held the media pages keeps working with this
// framework (docs/upgrading.md "Media pages (crud_media.ts)"): its files, as that version wrote them, are in
// test/fixtures/media-before-runtime/ (the snapshot of that time, its own 372-line mvc/models/crud_media.ts among
// them). Laid over a project served for real, they type-check (strict) and their pages store, show, edit and delete
// media over HTTP. Then `fw sync:entity Produit` rewrites crud_media.ts as a re-export of fw-mvc/media and leaves the
// user's controller and model as they are: the project type-checks and runs again; build:model would keep its CRUD files.
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { REPO, fateLine, lines, type CliProject } from './helpers/cli.js';
import { HttpClient, serveProject } from './helpers/crud-app.js';
import { ok } from './helpers/crud-cli-project.js';
import { buildMediaApp } from './helpers/crud-media-app.js';
import { PDF, filesUnder, jpeg } from './helpers/crud-media.js';
import { openDatabase, type Database } from '../runtime/db/index.js';
import { runTsc } from './helpers/typecheck.js';

const BEFORE = path.join(REPO, 'test', 'fixtures', 'media-before-runtime');
const OLD_FILES = ['mvc/models/crud_media.ts', 'mvc/models/produit_media.ts', 'mvc/models/produit_model.ts', 'mvc/controllers/produit_controller.ts'];

let project: CliProject;
let served: Awaited<ReturnType<typeof serveProject>> | null = null;
let db: Database;

interface MediaRow {
  entity_id: unknown;
  path: string;
  role: string;
}

test.before(() => {
  project = buildMediaApp('sqlite');
  // Every file of the old make:crud --media but routes.ts (the project's routes are public: no sign-in needed here).
  for (const file of filesUnder(path.join(BEFORE, 'mvc'))) {
    if (file !== 'routes.ts') fs.cpSync(path.join(BEFORE, 'mvc', file), project.path(`mvc/${file}`));
  }
  db = openDatabase({ driver: 'sqlite', file: project.path('storage/database.sqlite') });
});

test.after(async () => {
  await stop();
  await db?.close();
  await project?.cleanup();
});

async function stop(): Promise<void> {
  const child = served?.child;
  served = null;
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

function typeCheck(): void {
  const result = runTsc(project.root, ['--noEmit', '-p', 'tsconfig.json']);
  assert.is(result.stdout + result.stderr, '');
  assert.is(result.status, 0);
}

const mediaRows = async (): Promise<MediaRow[]> => db.fetchAll<MediaRow>("SELECT entity_id, path, role FROM media WHERE entity_name = 'Produit' ORDER BY id");

/** Creates a product with a photo and a PDF notice through the form; returns its id. */
async function create(client: HttpClient, reference: string): Promise<number> {
  const res = await client.postMultipart(
    '/produits',
    [
      ['nom', `Produit ${reference}`],
      ['reference', reference],
      ['photo.alt', `Photo ${reference}`],
    ],
    [
      ['photo', 'bleu.jpg', await jpeg(800, 600, { r: 40, g: 90, b: 160 }), 'image/jpeg'],
      ['notice', 'notice.pdf', PDF, 'application/pdf'],
    ],
    '/produits/new',
  );
  assert.is(res.status, 302, res.text.slice(0, 500));
  const found = await db.fetchOne<{ id: unknown }>('SELECT Id AS id FROM produits WHERE Reference = ?', [reference]);
  return Number(found!.id);
}

test('the old files are those of the media code copied into the project', () => {
  const old = project.read('mvc/models/crud_media.ts');
  assert.ok(old.includes('export class MediaPages {'));
  assert.ok(old.includes('export class MediaSubmission {'));
  assert.ok(project.read('mvc/models/produit_media.ts').includes("import { MediaPages } from './crud_media.js';"));
  assert.ok(project.read('mvc/controllers/produit_controller.ts').includes("import type { MediaSubmission } from '../models/crud_media.js';"));
});

test('they type-check against this framework (every name the old crud_media.ts imports is still exported)', () => {
  typeCheck();
});

test('their pages work: create with a photo and a notice, the detail page and the list thumbnail, remove the photo, delete', async () => {
  served = await serveProject(project);
  const client = new HttpClient(served.url);
  const id = await create(client, 'OLD-1');
  const rows = (await mediaRows()).filter((row) => String(row.entity_id) === String(id));
  assert.equal(
    rows.map((row) => [row.role, row.path.split('/')[0]]),
    [
      ['cover', 'images'],
      ['notice', 'documents'],
    ],
  );
  const cover = rows[0]!.path;
  const show = await client.get(`/produits/${id}`);
  assert.is(show.status, 200);
  assert.ok(show.text.includes(`src="/media/${cover.replace('images/', 'images/medium/')}" alt="Photo OLD-1"`), show.text);
  assert.ok(show.text.includes('>notice.pdf</a>'));
  const list = await client.get('/produits');
  assert.ok(list.text.includes(`/media/${cover.replace('images/', 'images/thumbnail/')}`));
  const coverId = (await db.fetchOne<{ id: unknown }>('SELECT id FROM media WHERE path = ?', [cover]))!.id;
  const edit = await client.postMultipart(
    `/produits/${id}`,
    [
      ['nom', 'Produit OLD-1'],
      ['reference', 'OLD-1'],
      ['photo.remove', String(coverId)],
    ],
    [],
    `/produits/${id}/edit`,
  );
  assert.is(edit.status, 302, edit.text.slice(0, 500));
  assert.equal(
    (await mediaRows()).map((row) => row.role),
    ['notice'],
  );
  assert.not.ok(filesUnder(project.path('storage/uploads')).includes(cover));
  assert.is((await client.post(`/produits/${id}/delete`, [], {})).status, 302);
  assert.equal(await mediaRows(), []);
  await stop();
});

test('sync:entity rewrites crud_media.ts as a re-export of fw-mvc/media; the user files stay; it type-checks and runs', async () => {
  const controller = project.read('mvc/controllers/produit_controller.ts');
  const model = project.read('mvc/models/produit_model.ts');
  const out = lines(ok(project, ['sync:entity', 'Produit']));
  assert.ok(out.includes(fateLine('mis à jour', 'mvc/models/crud_media.ts')), out.join('\n'));
  const reexport = project.read('mvc/models/crud_media.ts');
  assert.match(reexport, /^export \{$/m);
  assert.match(reexport, /\} from 'fw-mvc\/media';\n$/);
  assert.not.match(reexport, /class /);
  assert.ok(project.read('mvc/models/produit_media.ts').includes("import { MediaPages } from 'fw-mvc/media';"));
  assert.is(project.read('mvc/controllers/produit_controller.ts'), controller);
  assert.is(project.read('mvc/models/produit_model.ts'), model);
  typeCheck();
  // make:crud (the pages exist) keeps the re-export as it is.
  assert.ok(lines(ok(project, ['make:crud', 'Produit', '--public'])).includes(fateLine('inchangé', 'mvc/models/crud_media.ts')));
  // build:model would write the same CRUD files again (the relations' SQL, which sync:entity does not write, aside).
  const check = project.run(['build:model', '--check']);
  assert.equal(
    lines(check.stdout).filter((line) => line.includes('/models/') || line.includes('/produit/')),
    [],
    check.stdout,
  );
  served = await serveProject(project);
  const client = new HttpClient(served.url);
  const id = await create(client, 'OLD-2');
  assert.is((await client.get(`/produits/${id}`)).status, 200);
  assert.is((await mediaRows()).length, 2);
  await stop();
});

test('once the user files import fw-mvc/media, deleting crud_media.ts leaves a project that type-checks, and no command writes it again', () => {
  for (const file of OLD_FILES.slice(2)) {
    const text = project.read(file);
    project.write(file, text.replace(/from '(\.\.\/models|\.)\/crud_media\.js'/, "from 'fw-mvc/media'"));
  }
  fs.rmSync(project.path('mvc/models/crud_media.ts'));
  typeCheck();
  ok(project, ['build:model']);
  assert.not.ok(project.exists('mvc/models/crud_media.ts'));
});

test.run();
