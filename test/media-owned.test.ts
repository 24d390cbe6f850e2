/**
 * `fw-mvc/media` for list pages and edit forms, on both dialects against the real databases: the media of many
 * records grouped by record and their covers (one query per page), the owner-checked removal of media (rows in the
 * caller's transaction, files once it committed, nothing touched for another record's id) and the owner-checked
 * update of one media (position, alternative text).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  UploadedFile,
  closeDatabase,
  configure,
  getDatabase,
  resetConfig,
  saveUpload,
  setLogSink,
  transaction,
  uploadRoot,
  type LogRecord,
} from '../runtime/index.js';
import {
  MediaNotAttachedError,
  attachMediaToEntity,
  createMediaRecord,
  deleteOwnedMedia,
  deleteOwnedMediaRows,
  getCoverMediaForEntities,
  getMediaRecord,
  listMediaForEntities,
  listMediaForEntity,
  updateOwnedMedia,
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
  const t = suite(`fw-mvc/media, many records and owned changes (${dialect})`);
  let database: AuthDatabase;
  let dir: string;
  let root: string;
  let jpeg: Buffer;

  const image = (name = 'photo.jpg') => saveUpload(new UploadedFile(name, 'image/jpeg', jpeg), { category: 'images', variants: true });
  const document = () => saveUpload(new UploadedFile('notice.pdf', 'application/pdf', Buffer.from('%PDF-1.4')), { category: 'documents' });
  const ids = (items: ReadonlyArray<{ id: number }> | undefined) => (items ?? []).map((item) => item.id);

  t.before(async () => {
    database = await openMediaDatabase(dialect);
    jpeg = await makeJpeg(400, 300);
  });
  t.after(async () => {
    await closeDatabase();
    resetConfig();
    await database?.close();
  });
  t.before.each(async () => {
    await database.reset();
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fw-media-owned-')));
    resetConfig();
    configure({ project_root: dir, ...database.config });
    root = uploadRoot();
  });
  t.after.each(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  t('listMediaForEntities: every id a key, its media by position then id, of one role when asked, other entities apart', async () => {
    const b = await attachMediaToEntity(await image(), 'Produit', 1, { role: 'gallery', position: 2 });
    const a = await attachMediaToEntity(await image(), 'Produit', 1, { role: 'gallery', position: 1 });
    const doc = await attachMediaToEntity(await document(), 'Produit', 1, { role: 'notice' });
    const c = await attachMediaToEntity(await image(), 'Produit', 2, { role: 'gallery' });
    await attachMediaToEntity(await image(), 'Article', 1, { role: 'gallery' });
    await attachMediaToEntity(await image(), 'Produit', 9, { role: 'gallery' });
    const all = await listMediaForEntities('Produit', [1, '2', 3, 1]);
    assert.equal([...all.keys()], ['1', '2', '3']);
    assert.equal(ids(all.get('1')), [doc.id, a.id, b.id]);
    assert.equal(ids(all.get('2')), [c.id]);
    assert.equal(all.get('3'), []);
    assert.equal(all.get('1'), await listMediaForEntity('Produit', 1), 'the same items as listMediaForEntity');
    const gallery = await listMediaForEntities('Produit', [1, 2], 'gallery');
    assert.equal(ids(gallery.get('1')), [a.id, b.id]);
    assert.equal((await listMediaForEntities('Produit', [])).size, 0);
    assert.ok((await failure(listMediaForEntities('Produit', [' 1']))) instanceof TypeError);
    assert.ok((await failure(listMediaForEntities(' Produit', [1]))) instanceof TypeError);
  });

  t('getCoverMediaForEntities: the first of a role per record, with its URLs; the gallery as fallback; more ids than one query takes', async () => {
    const late = await attachMediaToEntity(await image(), 'Produit', 1, { role: 'photo', position: 3, altText: 'Tard' });
    const first = await attachMediaToEntity(await image(), 'Produit', 1, { role: 'photo', position: 0, altText: 'Face' });
    const tie = await attachMediaToEntity(await image(), 'Produit', 2, { role: 'photo', position: 5 });
    await attachMediaToEntity(await image(), 'Produit', 2, { role: 'photo', position: 5 });
    const gallery = await attachMediaToEntity(await image(), 'Produit', 3, { role: 'gallery', position: 4 });
    await attachMediaToEntity(await image(), 'Produit', 3, { role: 'gallery', position: 7 });
    const covers = await getCoverMediaForEntities('Produit', [1, 2, 3, 4], { role: 'photo' });
    assert.equal([...covers.keys()].sort(), ['1', '2']);
    assert.equal([covers.get('1')?.id, covers.get('1')?.altText, covers.get('2')?.id], [first.id, 'Face', tie.id]);
    const item = covers.get('1')!;
    assert.is(item.thumbnailUrl, `/media/images/thumbnail/${first.path.slice('images/'.length)}`);
    assert.is(item.url, `/media/${first.path}`);
    assert.not.equal(late.id, first.id);
    assert.equal(await getCoverMediaForEntities('Produit', [3]), new Map(), 'role cover by default: none');
    const withGallery = await getCoverMediaForEntities('Produit', [1, 3], { role: 'photo', fallbackToGallery: true });
    assert.equal([withGallery.get('1')?.id, withGallery.get('3')?.id], [first.id, gallery.id]);
    await createMediaRecord('Produit', 1500, 'images/loin.jpg', { role: 'cover' });
    const many = await getCoverMediaForEntities(
      'Produit',
      Array.from({ length: 1500 }, (_, i) => i + 1),
    );
    assert.equal([...many.keys()], ['1500'], 'ids past the first chunk are read too');
  });

  t('deleteOwnedMediaRows: rows in the transaction, files only when removeFiles() runs after the commit; a rollback touches nothing', async () => {
    const keep = listFiles(root);
    const a = await attachMediaToEntity(await image(), 'Produit', 1, { role: 'gallery' });
    const b = await attachMediaToEntity(await document(), 'Produit', 1, { role: 'notice' });
    const withFiles = listFiles(root);
    const removal = await transaction(async (tx) => {
      const removed = await deleteOwnedMediaRows('Produit', 1, [String(a.id), b.id], tx);
      assert.equal(ids(removed.records), [a.id, b.id]);
      assert.equal(await listMediaForEntity('Produit', 1, null, tx), [], 'rows gone inside the transaction');
      assert.equal(listFiles(root), withFiles, 'files kept until the commit');
      return removed;
    });
    assert.equal(listFiles(root), withFiles);
    assert.equal(await removal.removeFiles(), []);
    assert.equal(listFiles(root), keep, 'original, variants and document removed');
    assert.equal(await removal.removeFiles(), [], 'a second call removes nothing');

    const c = await attachMediaToEntity(await image(), 'Produit', 1);
    const files = listFiles(root);
    const err = await failure(
      transaction(async (tx) => {
        await deleteOwnedMediaRows('Produit', 1, [c.id], tx);
        throw new Error('échec du formulaire');
      }),
    );
    assert.is((err as Error).message, 'échec du formulaire');
    assert.ok(await getMediaRecord(c.id), 'rolled back: the row is back');
    assert.equal(listFiles(root), files, 'and its files are there');
  });

  t('deleteOwnedMediaRows and deleteOwnedMedia refuse another record’s id, a bad id or an unknown one: no row, no file touched', async () => {
    const mine = await attachMediaToEntity(await image(), 'Produit', 1);
    const theirs = await attachMediaToEntity(await image(), 'Produit', 2);
    const other = await attachMediaToEntity(await image(), 'Article', 1);
    const files = listFiles(root);
    for (const foreign of [theirs.id, other.id, 'abc', '0', 999_999]) {
      const refused = await failure(transaction((tx) => deleteOwnedMediaRows('Produit', 1, [mine.id, foreign], tx)));
      assert.ok(refused instanceof MediaNotAttachedError && refused.status === 404, String(refused));
      assert.equal((refused as MediaNotAttachedError).mediaIds, [foreign]);
      const direct = await failure(deleteOwnedMedia('Produit', 1, [mine.id, foreign]));
      assert.ok(direct instanceof MediaNotAttachedError, String(direct));
    }
    assert.equal(listFiles(root), files);
    assert.equal(ids(await listMediaForEntity('Produit', 1)), [mine.id]);
    assert.ok(await getMediaRecord(theirs.id));
    assert.ok(await getMediaRecord(other.id));
  });

  t(
    'deleteOwnedMedia: its own transaction, then the files; refused inside a transaction; an unsafe stored path loses its row, never a file outside',
    async () => {
      const keep = listFiles(root);
      const a = await attachMediaToEntity(await image(), 'Produit', 1, { role: 'gallery' });
      const b = await attachMediaToEntity(await image(), 'Produit', 1, { role: 'gallery' });
      assert.equal(ids(await deleteOwnedMedia('Produit', '1', [a.id, a.id, String(b.id)])), [a.id, b.id]);
      assert.equal(listFiles(root), keep);
      assert.equal(await deleteOwnedMedia('Produit', 1, []), []);

      const c = await attachMediaToEntity(await image(), 'Produit', 1);
      const inside = await failure(transaction(() => deleteOwnedMedia('Produit', 1, [c.id])));
      assert.ok(inside instanceof TypeError && /deleteOwnedMediaRows/.test(inside.message), String(inside));
      assert.ok(await getMediaRecord(c.id));
      assert.equal(ids(await getDatabase().withConnection((connection) => deleteOwnedMedia('Produit', 1, [c.id], connection))), [c.id], 'a plain connection');

      fs.writeFileSync(path.join(dir, 'secret.txt'), 'secret');
      const d = await createMediaRecord('Produit', 1, 'documents/x.pdf');
      await database.db.execute('UPDATE media SET path = ? WHERE id = ?', ['../../secret.txt', d.id]);
      const logged: LogRecord[] = [];
      const previous = setLogSink((record) => logged.push(record));
      try {
        const removal = await transaction((tx) => deleteOwnedMediaRows('Produit', 1, [d.id], tx));
        assert.equal(await removal.removeFiles(), ['../../secret.txt']);
      } finally {
        setLogSink(previous);
      }
      assert.equal(
        logged.map((r) => [r.logger, r.level, r.message]),
        [['fw.media', 'ERROR', 'fichier de média non supprimé']],
      );
      assert.is(await getMediaRecord(d.id), null, 'the row is gone');
      assert.is(fs.readFileSync(path.join(dir, 'secret.txt'), 'utf8'), 'secret');
    },
  );

  t('updateOwnedMedia: position and alternative text of one of the record’s media; another record’s id changes nothing', async () => {
    const mine = await attachMediaToEntity(await image(), 'Produit', 1, { role: 'gallery', altText: 'Avant' });
    const theirs = await attachMediaToEntity(await image(), 'Produit', 2, { role: 'gallery', altText: 'Autre' });
    await updateOwnedMedia('Produit', 1, String(mine.id), { position: 4, altText: '  Vue de dos ' });
    assert.equal([(await getMediaRecord(mine.id))?.position, (await getMediaRecord(mine.id))?.altText], [4, 'Vue de dos']);
    await updateOwnedMedia('Produit', 1, mine.id, { position: 4 }, getDatabase());
    await updateOwnedMedia('Produit', 1, mine.id, {});
    assert.equal([(await getMediaRecord(mine.id))?.position, (await getMediaRecord(mine.id))?.altText], [4, 'Vue de dos'], 'an unchanged value is still found');
    await transaction((tx) => updateOwnedMedia('Produit', 1, mine.id, { altText: '' }, tx));
    assert.is((await getMediaRecord(mine.id))?.altText, null);
    for (const id of [theirs.id, 'abc', 999_999]) {
      for (const changes of [{ position: 0, altText: 'pirate' }, {}]) {
        const refused = await failure(updateOwnedMedia('Produit', 1, id, changes));
        assert.ok(refused instanceof MediaNotAttachedError, `${id} ${JSON.stringify(changes)}`);
      }
    }
    assert.equal([(await getMediaRecord(theirs.id))?.position, (await getMediaRecord(theirs.id))?.altText], [0, 'Autre']);
    assert.ok((await failure(updateOwnedMedia('Produit', 1, mine.id, { position: 1.5 }))) instanceof TypeError);
    assert.ok((await failure(updateOwnedMedia('Produit', 1, mine.id, { altText: 'x'.repeat(256) }))) instanceof TypeError);
  });

  t.run();
}
