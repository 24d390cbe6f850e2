// The files of `fw make:crud --media` (docs/decisions.md#uploads-and-media): which files, of which kind, and what the media parts of the form,
// detail and list views, the controller and the model hold for the four kinds of entry; the pages without --media are
// those of plain make:crud. The generated code is type-checked by crud-cli-typecheck.test.ts and run over HTTP by
// crud-media-http.test.ts; its whole text is compared by pipeline-snapshots.test.ts.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import { crudFiles, planCrud } from '../emitters/crud/index.js';
import { readCrudStubs } from '../cli/stubs.js';
import { GENERATED_MARKER } from '../emitters/marker.js';
import { REPO } from './helpers/cli.js';
import { PRODUIT, compileEntities, produitWith } from './helpers/crud-media.js';

const STUBS = readCrudStubs();
/** The actions and queries every entity's pages run (fw-mvc/crud), where the order of the media steps lives. */
const ACTIONS = fs.readFileSync(path.join(REPO, 'runtime', 'crud', 'actions.ts'), 'utf8');
const QUERIES = fs.readFileSync(path.join(REPO, 'runtime', 'crud', 'model.ts'), 'utf8');

const model = compileEntities([PRODUIT]);
const withMedia = crudFiles(planCrud(model, 'Produit', { media: true }), STUBS);
const without = crudFiles(planCrud(model, 'Produit'), STUBS);
const file = (files: typeof withMedia, path: string): string => {
  const found = files.find((f) => f.path === path);
  if (!found) throw new Error(`${path} absent`);
  return found.content;
};
const media = (path: string): string => file(withMedia, path);

/** The lines of `text` that contain `needle`. */
const linesWith = (text: string, needle: string): string[] => text.split('\n').filter((line) => line.includes(needle));

test('--media adds three regenerable files (the entity media module, two partials); the manual files are the same', () => {
  const paths = (files: typeof withMedia, kind: string) => files.filter((f) => f.kind === kind).map((f) => f.path);
  assert.equal(paths(withMedia, 'manual'), paths(without, 'manual'));
  assert.equal(
    paths(withMedia, 'regenerable').filter((p) => !paths(without, 'regenerable').includes(p)),
    ['mvc/models/produit_media.ts', 'mvc/views/produit/_media_fields.html', 'mvc/views/produit/_media_show.html'],
  );
  for (const f of withMedia.filter((x) => x.kind === 'regenerable')) assert.ok(f.content.split('\n')[0]!.includes(GENERATED_MARKER), f.path);
  // The media code is fw-mvc/media's: the media module makes its MediaPages, which the controller and the model hand
  // to fw-mvc/crud.
  for (const file of ['mvc/controllers/produit_controller.ts', 'mvc/models/produit_model.ts']) {
    assert.ok(
      media(file).includes("import { MEDIA } from '../models/produit_media.js';") || media(file).includes("import { MEDIA } from './produit_media.js';"),
      file,
    );
  }
  assert.ok(media('mvc/controllers/produit_controller.ts').includes('{ form: ProduitForm, model: ProduitModel, media: MEDIA }'));
  assert.ok(media('mvc/models/produit_model.ts').includes('extends crudModel(PRODUIT_CRUD, { media: MEDIA })'));
  assert.not.ok(
    withMedia.some((f) => f.content.includes('crud_media')),
    'nothing names crud_media.ts',
  );
});

test('a project that still has crud_media.ts (made before fw-mvc/media held the media pages) gets it as a re-export of fw-mvc/media', () => {
  const legacy = crudFiles(planCrud(model, 'Produit', { media: true }), STUBS, { legacyCrudMedia: true });
  const found = legacy.find((f) => f.path === 'mvc/models/crud_media.ts');
  assert.is(found?.kind, 'regenerable');
  const text = found!.content;
  // It names the command that rewrites every entity's files, since it is shared.
  assert.match(text.split('\n')[0]!, /regenerate with: fw build:model\)$/);
  assert.match(text, /export \{\n {2}MediaPages,\n {2}MediaSubmission,[\s\S]*\} from 'fw-mvc\/media';\n$/);
  assert.equal(
    legacy.filter((f) => f.path !== 'mvc/models/crud_media.ts'),
    withMedia,
  );
  // Pages without media do not get it.
  assert.not.ok(crudFiles(planCrud(model, 'Produit'), STUBS, { legacyCrudMedia: true }).some((f) => f.path === 'mvc/models/crud_media.ts'));
});

test('without --media, the entity media entries change nothing: no file input, no media call', () => {
  for (const f of without) {
    assert.not.match(f.content, /MEDIA|crud_media|multipart|_media_/, f.path);
  }
});

test('the media module lists the entries in the entity order: kind, role (the name when not given), label, multiple, variants', () => {
  const text = media('mvc/models/produit_media.ts');
  assert.ok(text.includes("import { MediaPages } from 'fw-mvc/media';"));
  // Who may read the private files is who may open the detail page: the description's check, not a copy of its roles.
  assert.ok(text.includes("import { PRODUIT_CRUD } from './produit_crud.js';"));
  assert.ok(text.includes("  mayShow: (request) => PRODUIT_CRUD.allowed(request, 'show'),"));
  assert.not.match(text, /roles|permission/);
  assert.equal(linesWith(text, "{ name: '"), [
    "  { name: 'photo', label: 'Photo', kind: 'image', role: 'cover', multiple: false, variants: true },",
    "  { name: 'galerie', label: 'Galerie', kind: 'image', role: 'gallery', multiple: true, variants: true },",
    "  { name: 'notice', label: 'Notice', kind: 'file', role: 'notice', multiple: false, variants: false },",
    "  { name: 'pieces_jointes', label: 'Pièces jointes', kind: 'file', role: 'pieces_jointes', multiple: true, variants: false },",
  ]);
  assert.ok(text.includes("export const MEDIA = new MediaPages('Produit', ["));
});

test('the form is multipart and includes the media partial: a file input per entry, multiple for a gallery and a file list', () => {
  const form = media('mvc/views/produit/form.html');
  assert.ok(form.includes('{% block media %}{% include "produit/_media_fields.html" %}{% endblock %}'));
  // The framework's form is multipart when the page has media (the controller passes their context).
  const frame = fs.readFileSync(path.join(REPO, 'runtime', 'views', 'crud', 'form.html'), 'utf8');
  assert.match(frame, /<form method="post" action="\{\{ action \}\}"\{% if media %\} enctype="multipart\/form-data"\{% endif %\} novalidate/);
  const fields = media('mvc/views/produit/_media_fields.html');
  const inputs = linesWith(fields, 'type="file"').map((line) => /name="([a-z_]+)"( multiple)? accept="\{\{ media\.\1\.accept \}\}"/.exec(line)?.slice(1, 3));
  assert.equal(inputs, [
    ['photo', undefined],
    ['galerie', ' multiple'],
    ['notice', undefined],
    ['pieces_jointes', ' multiple'],
  ]);
});

test('the current files on the edit form: a thumbnail for images, a link for files, alt text for images, order for multiple entries, a removal checkbox each', () => {
  const fields = media('mvc/views/produit/_media_fields.html');
  const names = [...fields.matchAll(/name="([a-z_]+\.[a-z]+(?:\.\{\{ item\.id \}\})?)"/g)].map((m) => m[1]);
  assert.equal(names, [
    'photo.alt.{{ item.id }}',
    'photo.remove',
    'photo.alt',
    'galerie.alt.{{ item.id }}',
    'galerie.position.{{ item.id }}',
    'galerie.remove',
    'notice.remove',
    'pieces_jointes.position.{{ item.id }}',
    'pieces_jointes.remove',
  ]);
  assert.is(linesWith(fields, '<img src="{{ item.thumbnail_url }}"').length, 2, 'a thumbnail for each image entry');
  assert.is(linesWith(fields, '<a href="{{ item.url }}" class="mb-2 block truncate').length, 2, 'a link for each file entry');
  assert.is(linesWith(fields, 'value="{{ item.id }}"').length, 4, 'a removal checkbox valued with the media id');
  // Each input has its label (works without script, and for screen readers).
  for (const [, id] of fields.matchAll(/<input[^>]* id="([^"]+)"/g)) assert.ok(fields.includes(`for="${id}"`), id);
});

test('the detail page: a single image as its medium, a gallery as a grid of thumbnails, a file as a link, a file list as links', () => {
  assert.ok(media('mvc/views/produit/show.html').includes('{% include "produit/_media_show.html" %}'));
  const show = media('mvc/views/produit/_media_show.html');
  const section = (name: string): string =>
    show.slice(show.indexOf(`aria-labelledby="media-${name}-title"`), show.indexOf('</section>', show.indexOf(`media-${name}-title`)));
  assert.match(section('photo'), /<img src="\{\{ item\.medium_url \}\}" alt="\{\{ item\.alt \}\}"/);
  assert.match(section('galerie'), /\{% for item in media\.galerie\.items %\}[\s\S]*<img src="\{\{ item\.thumbnail_url \}\}"/);
  assert.match(section('notice'), /\{% set item = media\.notice\.items\[0\] %\}[\s\S]*<a href="\{\{ item\.url \}\}"[^>]*>\{\{ item\.name \}\}<\/a>/);
  assert.match(section('pieces_jointes'), /\{% for item in media\.pieces_jointes\.items %\}<li><a href="\{\{ item\.url \}\}"/);
});

test('the list gets a thumbnail column for the first single image (not for a gallery), filled from one lookup per page', () => {
  const head = media('mvc/views/produit/_list_head.html');
  const cells = media('mvc/views/produit/_list_cells.html');
  assert.ok(head.includes('>Photo</th>'));
  assert.match(cells, /\{% set thumbnail = thumbnails\[row\.id\] %\}\{% if thumbnail %\}<img src="\{\{ thumbnail\.url \}\}"/);
  // One lookup for the page's rows, when the media have a list image (MediaPages.listImage: none for a gallery alone).
  assert.ok(ACTIONS.includes('if (ctl.media?.listImage) context.thumbnails = await ctl.media.thumbnails(rows.map((row) => resource.idOf(row)));'));
  // A gallery alone: no column.
  const gallery = crudFiles(planCrud(compileEntities([produitWith([PRODUIT.media[1]!])]), 'Produit', { media: true }), STUBS);
  assert.not.ok(file(gallery, 'mvc/views/produit/_list_head.html').includes('Galerie'));
  assert.not.ok(file(gallery, 'mvc/views/produit/_list_cells.html').includes('thumbnail'));
});

test('the actions: limit, ids checked, files checked before any is stored, stored then written in the transaction, removed when it fails', () => {
  const save = ACTIONS.slice(ACTIONS.indexOf('async function save('), ACTIONS.indexOf('export async function store('));
  const order = [
    'media.guard(request)',
    'media.read(request, id)',
    'sent.refusal',
    'ctl.form.fromRequest',
    'validRecord(ctl, request, form, row)',
    'sent.isValid',
    'sent.store()',
    'ctl.model.create(record, form.cleanedData, sent)',
    'ctl.model.update(id, record, form.cleanedData, sent)',
    'sent?.discard()',
    'sent?.finish()',
  ];
  const positions = order.map((step) => save.indexOf(step));
  assert.ok(
    positions.every((p, i) => p > 0 && (i === 0 || p > positions[i - 1]!)),
    `save: ${JSON.stringify(Object.fromEntries(order.map((s, i) => [s, positions[i]])))}`,
  );
  // The removed files go once the transaction committed: finish() only after an update that did not throw.
  assert.ok(save.includes('if (id !== null) await sent?.finish();'));
  assert.is(linesWith(QUERIES, 'await submission?.apply(id, tx);').length, 2, 'create and update write the media rows in their transaction');
  assert.is(linesWith(QUERIES, 'media.deleteFor(').length, 1, 'bulk delete removes the media');
  assert.ok(QUERIES.includes('return this.deleteMany([id]);'), 'single delete goes through the bulk delete (and its media removal)');
});

test('the emitters are pure', () => {
  assert.equal(crudFiles(planCrud(compileEntities([PRODUIT]), 'Produit', { media: true }), STUBS), withMedia);
});

test('an entity without media entries, with --media: the media files are written, empty, so that the pages keep compiling', () => {
  const files = crudFiles(planCrud(compileEntities([produitWith([])]), 'Produit', { media: true }), STUBS);
  assert.ok(file(files, 'mvc/models/produit_media.ts').includes("export const MEDIA = new MediaPages('Produit', [], {"));
  assert.not.match(file(files, 'mvc/views/produit/_media_fields.html'), /<fieldset/);
});

test.run();
