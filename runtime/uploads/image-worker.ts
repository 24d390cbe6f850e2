/**
 * The image process (image-jobs.ts starts it): runs the jobs its parent sends, with sharp, side by side, and answers
 * each with its buffers or its refusal. It exits when the parent lets it go (disconnect) or exits.
 */
import { serializeImageError, type ImageJob, type PreparedImage } from './image-jobs.js';
import { cleanImageOriginal } from './originals.js';
import { makeVariantBuffers } from './variants.js';

async function run(job: ImageJob): Promise<unknown> {
  const data = Buffer.from(job.data.buffer, job.data.byteOffset, job.data.byteLength);
  if (job.op === 'variants') return makeVariantBuffers(data, job.filename, job.extension, job.maxPixels);
  // With variants the decode that makes them checks the bytes too: the original is not decoded a second time.
  const original = await cleanImageOriginal(data, job.filename, !job.variants, job.maxPixels);
  const prepared: PreparedImage = { original };
  if (job.variants) prepared.variants = await makeVariantBuffers(original.data, job.filename, original.format, job.maxPixels);
  return prepared;
}

process.on('message', (message: { id: number; job: ImageJob }) => {
  run(message.job).then(
    (result) => process.send?.({ id: message.id, result }),
    (err: unknown) => process.send?.({ id: message.id, error: serializeImageError(err) }),
  );
});
process.on('disconnect', () => process.exit(0));
