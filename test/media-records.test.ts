/**
 * `fw-mvc/media` on both dialects, against the real databases (docs/uploads.md "Media records"): records created from
 * real uploads, lists by position then id with their URLs, gallery and cover, rows and files kept consistent (a
 * failed insert removes the files, a duplicate path keeps the other row's, deleting removes files then row, an
 * unsafe stored path deletes nothing), ownership checks for the ids a form sends, order and alternative text.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DuplicateError, UploadPathError, UploadedFile, closeDatabase, configure, resetConfig, saveUpload, uploadRoot } from '../runtime/index.js';
import {
  MediaNotAttachedError,
  attachMediaToEntity,
  createMediaRecord,
  deleteMedia,
  deleteMediaForEntities,
  deleteMediaForEntity,
  deleteMediaRecord,
  getCoverMedia,
  getMediaGallery,
  getMediaRecord,
  listMediaForEntity,
  mediaBelongsTo,
  updateMediaAltText,
  updateMediaOrder,
} from '../runtime/media/index.js';
import type { AuthDatabase } from './helpers/auth-client.js';
import { listFiles, makeJpeg, openMediaDatabase } from './helpers/uploads.js';
import { DIALECTS } from './helpers/dialects.js';

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  assert.unreachable('the promise should have been rejected');
  return undefined;
}

for (const dialect of DIALECTS) {
  const t = suite(`fw-mvc/media (${dialect})`);
  let database: AuthDatabase;
  let dir: string;
  let root: string;
  let jpeg: Buffer;

  const image = (name = 'photo.jpg') => saveUpload(new UploadedFile(name, 'image/jpeg', jpeg), { category: 'images', variants: true });
  const document = (name = 'contrat.pdf') => saveUpload(new UploadedFile(name, 'application/pdf', Buffer.from('%PDF-1.4')), { category: 'documents' });

  t.before(async () => {
    database = await openMediaDatabase(dialect);
    jpeg = await makeJpeg(1500, 1000);
  });
  t.after(async () => {
    await closeDatabase();
    resetConfig();
    await database?.close();
  });
  t.before.each(async () => {
    await database.reset();
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fw-media-')));
    resetConfig();
    configure({ project_root: dir, ...database.config });
    root = uploadRoot();
  });
  t.after.each(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  t('createMediaRecord normalizes the path and defaults role and position; getMediaRecord reads it back', async () => {
    const record = await createMediaRecord('Produit', 7, 'images//./a.jpg', { originalName: 'A.jpg', mimeType: 'image/jpeg', size: 12 });
    assert.ok(record.id > 0);
    assert.equal(
      { ...record, id: 0, createdAt: '' },
      {
        id: 0,
        entityName: 'Produit',
        entityId: '7',
        path: 'images/a.jpg',
        originalName: 'A.jpg',
        mimeType: 'image/jpeg',
        size: 12,
        role: 'default',
        position: 0,
        altText: null,
        createdAt: '',
      },
    );
    assert.match(record.createdAt, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    assert.equal(await getMediaRecord(record.id), record);
    assert.equal(await getMediaRecord(String(record.id)), record, 'an id from a form');
    for (const bad of [0, -1, 'abc', '1.5', '1e3', 99999]) assert.is(await getMediaRecord(bad), null, String(bad));
    assert.ok((await failure(createMediaRecord('Produit', 7, '../secret.txt'))) instanceof UploadPathError);
    assert.ok((await failure(createMediaRecord('', 7, 'images/a.jpg'))) instanceof TypeError);
    assert.ok((await failure(createMediaRecord('Produit', ' 7', 'images/b.jpg'))) instanceof TypeError);
    assert.ok((await failure(createMediaRecord('Produit', 7, 'images/c.jpg', { position: 1.5 }))) instanceof TypeError);
    assert.ok((await failure(createMediaRecord('Produit', 7, 'images/a.jpg'))) instanceof DuplicateError, 'one row per path');
  });

  t('attachMediaToEntity and the lists: by position then id, with URLs; gallery, cover and its fallback', async () => {
    const one = await attachMediaToEntity(await image('un.jpg'), 'Produit', 1, { role: 'gallery', position: 2, altText: 'Un' });
    const two = await attachMediaToEntity(await image('deux.jpg'), 'Produit', 1, { role: 'gallery', position: 1 });
    const three = await attachMediaToEntity(await image('trois.jpg'), 'Produit', 1, { role: 'gallery', position: 1 });
    const doc = await attachMediaToEntity(await document(), 'Produit', 1, { role: 'fichiers', originalName: 'Contrat signé.pdf', mimeType: 'application/pdf' });
    await attachMediaToEntity(await image('autre.jpg'), 'Produit', 2, { role: 'gallery' });
    await attachMediaToEntity(await image('casse.jpg'), 'produit', 1, { role: 'gallery' });
    assert.is(doc.originalName, 'Contrat signé.pdf');
    assert.is(one.mimeType, 'image/jpeg');
    assert.is(one.size, jpeg.length);
    const all = await listMediaForEntity('Produit', '1');
    assert.equal(
      all.map((m) => m.id),
      [doc.id, two.id, three.id, one.id],
    );
    const gallery = await getMediaGallery('Produit', 1);
    assert.equal(
      gallery.map((m) => m.id),
      [two.id, three.id, one.id],
    );
    const first = gallery[0]!;
    assert.is(first.url, `/media/${first.path}`);
    assert.is(first.isImage, true);
    assert.is(first.mediumUrl, `/media/images/medium/${first.path.slice('images/'.length)}`);
    assert.is(first.thumbnailUrl, `/media/images/thumbnail/${first.path.slice('images/'.length)}`);
    const files = await listMediaForEntity('Produit', 1, 'fichiers');
    assert.equal(
      files.map((m) => [m.id, m.isImage, m.mediumUrl, m.thumbnailUrl]),
      [[doc.id, false, null, null]],
    );
    assert.is(await getCoverMedia('Produit', 1), null);
    assert.is((await getCoverMedia('Produit', 1, { fallbackToGallery: true }))?.id, two.id);
    const cover = await attachMediaToEntity(await image('couverture.jpg'), 'Produit', 1, { role: 'cover' });
    assert.is((await getCoverMedia('Produit', 1, { fallbackToGallery: true }))?.id, cover.id);
    // Without its variant files, an image has no variant URLs (pages fall back to the original).
    fs.rmSync(path.join(root, 'images', 'thumbnail', cover.path.slice('images/'.length)));
    const bare = await getCoverMedia('Produit', 1);
    assert.equal([bare?.thumbnailUrl, bare?.mediumUrl === null], [null, false]);
  });

  t('a failed insert removes the files; a duplicate path keeps the other row and its files', async () => {
    const before = listFiles(root);
    const saved = await image();
    assert.is(listFiles(root).length, before.length + 3);
    assert.ok((await failure(attachMediaToEntity(saved, 'Produit', 'x'.repeat(65)))) instanceof TypeError);
    assert.equal(listFiles(root), before, 'record refused: files removed');

    const kept = await image();
    const row = await attachMediaToEntity(kept, 'Produit', 1);
    assert.ok((await failure(attachMediaToEntity(kept, 'Produit', 2))) instanceof DuplicateError);
    assert.ok(fs.existsSync(path.join(root, kept.path)), 'the first row keeps its file');
    assert.equal(
      (await listMediaForEntity('Produit', 1)).map((m) => m.id),
      [row.id],
    );

    const orphan = await document();
    await database.db.execute('ALTER TABLE media RENAME TO media_off');
    try {
      const err = await failure(attachMediaToEntity(orphan, 'Produit', 1));
      assert.ok(err instanceof Error);
      assert.not.ok(fs.existsSync(path.join(root, orphan.path)), 'the database refused: the file is gone');
    } finally {
      await database.db.execute('ALTER TABLE media_off RENAME TO media');
    }
    assert.equal((await listMediaForEntity('Produit', 1)).length, 1);
  });

  t('deleteMediaRecord keeps the files; deleteMedia removes files then row; an unsafe stored path deletes nothing', async () => {
    const a = await attachMediaToEntity(await image(), 'Produit', 1);
    assert.is(await deleteMediaRecord(a.id), true);
    assert.is(await deleteMediaRecord(a.id), false);
    assert.ok(fs.existsSync(path.join(root, a.path)));
    fs.rmSync(path.join(root, a.path));

    const b = await attachMediaToEntity(await image(), 'Produit', 1);
    assert.is(await deleteMedia(b.id), true, 'default: the row only');
    assert.ok(fs.existsSync(path.join(root, b.path)));

    const before = listFiles(root);
    const c = await attachMediaToEntity(await image(), 'Produit', 1);
    assert.is(await deleteMedia(String(c.id), { deleteFiles: true }), true);
    assert.equal(listFiles(root), before, 'original and both variants removed');
    assert.is(await getMediaRecord(c.id), null);
    assert.is(await deleteMedia(c.id, { deleteFiles: true }), false);

    const d = await attachMediaToEntity(await image(), 'Produit', 1);
    assert.is(await deleteMedia(d.id, { deleteFiles: true, variants: false }), true);
    assert.ok(fs.existsSync(path.join(root, 'images', 'medium', d.path.slice('images/'.length))), 'variants kept when asked');

    fs.writeFileSync(path.join(dir, 'secret.txt'), 'secret');
    const e = await createMediaRecord('Produit', 1, 'documents/x.pdf');
    await database.db.execute('UPDATE media SET path = ? WHERE id = ?', ['../../secret.txt', e.id]);
    assert.ok((await failure(deleteMedia(e.id, { deleteFiles: true }))) instanceof UploadPathError);
    assert.ok(await getMediaRecord(e.id), 'row kept');
    assert.is(fs.readFileSync(path.join(dir, 'secret.txt'), 'utf8'), 'secret');
    const unsafe = (await listMediaForEntity('Produit', 1)).find((m) => m.id === e.id)!;
    assert.equal([unsafe.url, unsafe.isImage], [null, false]);
  });

  t('ownership: deleteMedia with the record, mediaBelongsTo, order and alternative text refuse another record’s ids', async () => {
    const mine = await attachMediaToEntity(await image(), 'Produit', 1, { role: 'gallery' });
    const mine2 = await attachMediaToEntity(await image(), 'Produit', 1, { role: 'gallery' });
    const theirs = await attachMediaToEntity(await image(), 'Produit', 2, { role: 'gallery' });
    assert.is(await mediaBelongsTo(mine.id, 'Produit', 1), true);
    assert.is(await mediaBelongsTo(String(mine.id), 'Produit', '1'), true);
    assert.is(await mediaBelongsTo(theirs.id, 'Produit', 1), false);
    assert.is(await mediaBelongsTo('nope', 'Produit', 1), false);
    const files = listFiles(root);
    const refused = await failure(deleteMedia(theirs.id, { deleteFiles: true, entityName: 'Produit', entityId: 1 }));
    assert.ok(refused instanceof MediaNotAttachedError && refused.status === 404, String(refused));
    assert.equal(listFiles(root), files, 'nothing deleted');
    assert.ok(await getMediaRecord(theirs.id));

    await updateMediaOrder('Produit', 1, [String(mine2.id), mine.id]);
    assert.equal(
      (await getMediaGallery('Produit', 1)).map((m) => [m.id, m.position]),
      [
        [mine2.id, 0],
        [mine.id, 1],
      ],
    );
    for (const ids of [
      [mine.id, theirs.id],
      [mine.id, 'abc'],
      [mine.id, mine.id],
    ]) {
      assert.ok((await failure(updateMediaOrder('Produit', 1, ids))) instanceof MediaNotAttachedError, JSON.stringify(ids));
    }
    assert.equal(
      (await getMediaGallery('Produit', 1)).map((m) => m.id),
      [mine2.id, mine.id],
      'order unchanged after a refusal',
    );
    assert.is((await getMediaRecord(theirs.id))?.position, 0);

    await updateMediaAltText('Produit', 1, mine.id, '  Vue de face  ');
    assert.is((await getMediaRecord(mine.id))?.altText, 'Vue de face');
    await updateMediaAltText('Produit', 1, mine.id, '');
    assert.is((await getMediaRecord(mine.id))?.altText, null);
    assert.ok((await failure(updateMediaAltText('Produit', 1, theirs.id, 'pirate'))) instanceof MediaNotAttachedError);
    assert.is((await getMediaRecord(theirs.id))?.altText, null);
  });

  t('deleteMediaForEntity and deleteMediaForEntities: rows and files of those records only', async () => {
    const keep = await attachMediaToEntity(await image(), 'Produit', 3);
    const keepFiles = listFiles(root);
    for (const id of [1, 2]) {
      await attachMediaToEntity(await image(), 'Produit', id, { role: 'gallery' });
      await attachMediaToEntity(await document(), 'Produit', id, { role: 'fichiers' });
    }
    await attachMediaToEntity(await image(), 'Produit', 1, { role: 'cover' });
    assert.is(await deleteMediaForEntity('Produit', 1), 3);
    assert.equal(await listMediaForEntity('Produit', 1), []);
    assert.is(await deleteMediaForEntities('Produit', [2, 4]), 2);
    assert.equal(listFiles(root), keepFiles);
    assert.equal(
      (await listMediaForEntity('Produit', 3)).map((m) => m.id),
      [keep.id],
    );
    const count = await database.db.fetchOne<{ n: unknown }>('SELECT COUNT(*) AS n FROM media');
    assert.is(Number(count?.n), 1);
  });

  t.run();
}
