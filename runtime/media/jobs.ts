/**
 * `fw-mvc/media/jobs` (docs/uploads.md "Variants made by a job"): the job that makes the medium and the thumbnail of
 * a stored image after its upload answered, for the media entries whose `variants` is `'job'`. Importing this module
 * defines the job in the process (and, through `fw-mvc/jobs`, lets `serve()` start a worker): the generated
 * `<snake>_media.ts` imports it and hands it to its `MediaPages`, which enqueues one job per new image in the
 * transaction of the record's write; `mvc/jobs/index.ts` imports it so that `fw jobs:work` runs it too.
 */
import fs from 'node:fs';
import path from 'node:path';
import { lastExtension } from '../forms/fields-file.js';
import { defineJob, type JobContext, type JobDefinition } from '../jobs/index.js';
import { getLogger } from '../logger.js';
import { imageVariants } from '../uploads/image-jobs.js';
import { makeDirInside, mediaPathToStoragePath, normalizeMediaPath, uploadRoot } from '../uploads/paths.js';
import { UploadStorageError } from '../uploads/errors.js';
import { VARIANT_NAMES, isVariantSource, variantPaths, type VariantName } from '../uploads/variants.js';
import { writeNewFile } from '../uploads/write.js';
import { getMediaRecord } from './records.js';

const log = getLogger('fw.media');

/** The job's name in `fw_jobs`. */
export const MEDIA_VARIANTS_JOB_NAME = 'media_variants';
/** Its queue: image work does not hold up the application's other jobs. */
export const MEDIA_VARIANTS_QUEUE = 'media';

/** What the job receives: the id of the `media` row whose image gets its variants. */
export interface MediaVariantsPayload {
  readonly mediaId: number;
}

/** What a run did: both variants written (or the missing one), nothing to do, or the media gone (nothing kept). */
export type MediaVariantsOutcome = 'made' | 'present' | 'gone' | 'none';

function isFile(target: string): boolean {
  try {
    return fs.statSync(target).isFile();
  } catch {
    return false;
  }
}

/**
 * Makes the variants of the media `mediaId` that are not on disk yet. Idempotent (a job runs at least once): a
 * variant already there is kept; each one is written whole through a temporary file of its folder, never over an
 * existing file, so a page never links a half-written image. A media removed meanwhile (or never committed) makes
 * nothing; one removed while its variants were being made takes them with it. A file that cannot be decoded throws
 * `UploadInvalidImageError` (the job is retried, then dead; the original stays and is still shown).
 */
export async function makeMediaVariants(payload: MediaVariantsPayload, context?: Pick<JobContext, 'signal'>): Promise<MediaVariantsOutcome> {
  const mediaId = Number(payload?.mediaId);
  if (!Number.isSafeInteger(mediaId) || mediaId <= 0) throw new TypeError(`media_variants : identifiant de média invalide (${JSON.stringify(payload)}).`);
  const record = await getMediaRecord(mediaId);
  if (!record) return 'gone';
  const relative = normalizeMediaPath(record.path);
  if (!isVariantSource(relative)) return 'none';
  const root = path.resolve(uploadRoot());
  const paths = variantPaths(relative);
  const target = (name: VariantName): string => mediaPathToStoragePath(paths[name], { root });
  const missing = VARIANT_NAMES.filter((name) => !isFile(target(name)));
  if (missing.length === 0) return 'present';
  let data: Buffer;
  try {
    data = await fs.promises.readFile(mediaPathToStoragePath(relative, { root }));
  } catch (err) {
    throw new UploadStorageError(`Lecture de « ${relative} » impossible : ${(err as Error).message}`, { cause: err });
  }
  const buffers = await imageVariants(data, path.posix.basename(relative), lastExtension(relative));
  context?.signal.throwIfAborted();
  const written: string[] = [];
  for (const name of missing) {
    makeDirInside(root, `images/${name}`);
    try {
      await writeNewFile(target(name), buffers[name]);
      written.push(target(name));
    } catch (err) {
      // Another run of the same job wrote it first (at least once): it is whole, keep it.
      if (!isFile(target(name))) throw err;
    }
  }
  if (!(await getMediaRecord(mediaId))) {
    for (const file of written) await fs.promises.rm(file, { force: true }).catch(() => {});
    return 'gone';
  }
  log.info(`Variantes de « ${relative} » faites (média ${mediaId}).`);
  return 'made';
}

/**
 * The job: 3 attempts, 5 to 10 s then 10 to 20 s apart (backoff with jitter), 2 minutes per run, one job at a time per media.
 * `enqueue({ mediaId }, { tx })` in the transaction that inserts the row.
 */
export const MEDIA_VARIANTS_JOB: JobDefinition<MediaVariantsPayload> = defineJob<MediaVariantsPayload>(
  MEDIA_VARIANTS_JOB_NAME,
  async (payload, context) => {
    await makeMediaVariants(payload, context);
  },
  { queue: MEDIA_VARIANTS_QUEUE, attempts: 3, backoff: { baseMs: 10_000 }, timeoutMs: 120_000, uniqueKey: (payload) => String(payload.mediaId) },
);
