/**
 * The job of `fw-mvc/media/jobs` in one process, on SQLite and MariaDB (docs/uploads.md "Variants made by a job"):
 * an image stored without variants and its job enqueued in the row's transaction; until the job ran the pages'
 * context points at the original, after it at the medium and the thumbnail, each written whole (no temporary file
 * left); a run that finds one variant there makes only the other; a file that cannot be decoded is retried then
 * dead, the original kept and no variant written; a media deleted before its job makes nothing; `MediaPages`
 * refuses a `'job'` entry without the job or on a document.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { UploadedFile, closeDatabase, configure, getDatabase, resetConfig, saveUpload, uploadRoot } from '../runtime/index.js';
import { JobWorker, jobsTablesStatements, listJobs } from '../runtime/jobs/index.js';
import { MediaPages, attachMediaToEntity, deleteMedia, getMediaRecord, mediaItem, type MediaEntry } from '../runtime/media/index.js';
import { MEDIA_VARIANTS_JOB, MEDIA_VARIANTS_QUEUE, makeMediaVariants } from '../runtime/media/jobs.js';
import type { AuthDatabase } from './helpers/auth-client.js';
import { DIALECTS } from './helpers/dialects.js';
import { listFiles, makeJpeg, openMediaDatabase } from './helpers/uploads.js';

const PHOTO: MediaEntry = { name: 'photo', label: 'Photo', kind: 'image', role: 'cover', multiple: false, variants: 'job' };

for (const dialect of DIALECTS) {
  const t = suite(`fw-mvc/media/jobs (${dialect})`);
  let database: AuthDatabase;
  let dir: string;
  let jpeg: Buffer;

  /** A stored original (no variants) and its row, with its job enqueued in the same transaction. */
  const upload = async (name = 'photo.jpg', data = jpeg): Promise<{ mediaId: number; path: string; jobId: number }> => {
    const saved = await saveUpload(new UploadedFile(name, 'image/jpeg', data), { category: 'images' });
    return getDatabase().transaction(async (tx) => {
      const record = await attachMediaToEntity(saved, 'Produit', 1, { role: 'cover' }, tx);
      const job = await MEDIA_VARIANTS_JOB.enqueue({ mediaId: record.id }, { tx });
      return { mediaId: record.id, path: record.path, jobId: job.id };
    });
  };
  const worker = (): JobWorker => new JobWorker({ database: getDatabase(), queues: { [MEDIA_VARIANTS_QUEUE]: 1 }, recurring: false });
  const files = (): string[] => listFiles(uploadRoot());
  const item = async (mediaId: number) => mediaItem((await getMediaRecord(mediaId))!);

  t.before(async () => {
    database = await openMediaDatabase(dialect);
    for (const statement of jobsTablesStatements(dialect)) await database.db.execute(statement);
    jpeg = await makeJpeg(2400, 1600);
  });
  t.after(async () => {
    await closeDatabase();
    resetConfig();
    await database?.close();
  });
  t.before.each(async () => {
    await database.db.execute('DELETE FROM fw_jobs');
    await database.reset();
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fw-media-job-')));
    await closeDatabase();
    resetConfig();
    configure({ project_root: dir, ...database.config });
  });
  t.after.each(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  t('the job makes both variants: until then the record points at the original, after it at the medium and the thumbnail', async () => {
    const { mediaId, path: original, jobId } = await upload();
    assert.equal(files(), [original]);
    const before = await item(mediaId);
    assert.is(before.mediumUrl, null);
    assert.is(before.thumbnailUrl, null);
    assert.is(before.url, `/media/${original}`);
    assert.equal(
      (await listJobs(getDatabase(), { ids: [jobId] })).map((job) => [job.name, job.queue, job.status]),
      [['media_variants', 'media', 'queued']],
    );

    assert.is(await worker().runOnce(), 1);
    const file = original.slice('images/'.length);
    assert.equal(files(), [original, `images/medium/${file}`, `images/thumbnail/${file}`].sort());
    const after = await item(mediaId);
    assert.is(after.mediumUrl, `/media/images/medium/${file}`);
    assert.is(after.thumbnailUrl, `/media/images/thumbnail/${file}`);
    const [job] = await listJobs(getDatabase(), { ids: [jobId] });
    assert.is(job?.status, 'done');
    assert.is(job?.attempts, 1);
    const sharp = (await import('sharp')).default;
    const medium = await sharp(fs.readFileSync(path.join(uploadRoot(), 'images/medium', file))).metadata();
    const thumbnail = await sharp(fs.readFileSync(path.join(uploadRoot(), 'images/thumbnail', file))).metadata();
    assert.equal([medium.width, medium.height, thumbnail.width, thumbnail.height], [1280, 853, 300, 200]);
  });

  t('a run that finds one variant makes only the other (at least once); a third run finds both and writes nothing', async () => {
    const { mediaId, path: original } = await upload();
    assert.is(await makeMediaVariants({ mediaId }), 'made');
    const file = original.slice('images/'.length);
    const medium = path.join(uploadRoot(), 'images/medium', file);
    const thumbnail = path.join(uploadRoot(), 'images/thumbnail', file);
    const mediumInode = fs.statSync(medium).ino;
    fs.rmSync(thumbnail);
    assert.is(await makeMediaVariants({ mediaId }), 'made');
    assert.is(fs.statSync(medium).ino, mediumInode, 'the medium already there is kept');
    assert.ok(fs.statSync(thumbnail).size > 0);
    assert.is(await makeMediaVariants({ mediaId }), 'present');
    assert.equal(
      files().filter((name) => name.includes('.upload-')),
      [],
    );
  });

  t('an original that cannot be decoded: retried, then dead with its error; the original stays, no variant is written', async () => {
    const { mediaId, path: original, jobId } = await upload();
    fs.writeFileSync(path.join(uploadRoot(), original), Buffer.from('plus une image'));
    const run = worker();
    for (let attempt = 1; attempt <= MEDIA_VARIANTS_JOB.attempts; attempt++) {
      assert.is(await run.runOnce(), 1, `essai ${attempt}`);
      const [job] = await listJobs(getDatabase(), { ids: [jobId] });
      assert.is(job?.attempts, attempt);
      assert.match(job?.lastError ?? '', "n'est pas une image lisible");
      assert.is(job?.status, attempt < MEDIA_VARIANTS_JOB.attempts ? 'queued' : 'dead');
      // Due now, so that the next look runs it.
      await getDatabase().execute("UPDATE fw_jobs SET run_at = '2000-01-01 00:00:00' WHERE id = ?", [jobId]);
    }
    assert.equal(files(), [original]);
    const record = await item(mediaId);
    assert.is(record.url, `/media/${original}`);
    assert.is(record.mediumUrl, null);
  });

  t('a media deleted before its job ran: the job ends done and writes nothing', async () => {
    const { mediaId, jobId } = await upload();
    assert.is(await deleteMedia(mediaId, { deleteFiles: true }), true);
    assert.is(await worker().runOnce(), 1);
    assert.is((await listJobs(getDatabase(), { ids: [jobId] }))[0]?.status, 'done');
    assert.equal(files(), []);
  });

  t.run();
}

const pages = suite('MediaPages with variants made by a job');

pages("an entry with variants: 'job' needs the job; a document cannot have it", () => {
  assert.throws(() => new MediaPages('Produit', [PHOTO]), /passez variantsJob: MEDIA_VARIANTS_JOB \(fw-mvc\/media\/jobs\)/);
  assert.throws(
    () => new MediaPages('Produit', [{ ...PHOTO, kind: 'file' }], { variantsJob: MEDIA_VARIANTS_JOB } as never),
    /« photo » n'est pas une image, il n'a pas de variantes/,
  );
  assert.is(
    new MediaPages('Produit', [PHOTO], { mayShow: () => true, table: 'produits', keyColumn: 'id', variantsJob: MEDIA_VARIANTS_JOB }).variantsJob,
    MEDIA_VARIANTS_JOB,
  );
});

pages.run();
