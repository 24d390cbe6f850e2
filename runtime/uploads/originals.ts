/**
 * Image originals are stored without their metadata (docs/uploads.md "Metadata of originals"): EXIF (GPS position,
 * camera serial, dates), XMP, IPTC, comments and text chunks are removed in memory, before anything is written.
 *
 * - The metadata is cut out of the file without re-encoding (image-metadata.ts), the pixels stay identical. A JPEG or
 *   still PNG with an EXIF orientation of 2 to 8 keeps that tag alone, in a minimal EXIF block: browsers and sharp
 *   (the variants) show it turned, as before, with no decode nor encode here.
 * - A WebP with an EXIF orientation of 2 to 8 (Chromium ignores the tag in a WebP), or a file the byte parser does not
 *   understand: the picture is turned upright and re-encoded by sharp in its own format (JPEG and lossy WebP at
 *   quality REENCODE_QUALITY, PNG and lossless WebP lossless), without metadata; or refused (UploadInvalidImageError).
 * - The bytes kept without re-encoding are decoded once by sharp (a scaled-down decode), unless the caller decodes
 *   them itself right after (saveUpload making the variants): a file that is not a valid image is never stored.
 *
 * The ICC colour profile is kept in every case.
 */
import { UploadInvalidImageError } from './errors.js';
import { stripImageMetadataLossless } from './image-metadata.js';
import { prepareImage, type ImageFormat } from './image-jobs.js';
import { inspectImage, loadSharp } from './variants.js';

/** The quality of a re-encoded JPEG or lossy WebP original (sharp's default is 80). */
export const REENCODE_QUALITY = 92;

/**
 * The bytes of an image upload without its metadata, to be stored in place of the received ones: a JPEG, PNG or WebP
 * (whatever its name says) that decodes; anything else, a damaged file, an animation that would need turning:
 * UploadInvalidImageError. Loads sharp.
 */
export async function stripImageMetadata(data: Buffer | Uint8Array, filename = 'image'): Promise<Buffer> {
  return (await prepareImage(data, filename, null)).original.data;
}

/** A cleaned original and the format its bytes hold (not the one its name says). */
export interface CleanOriginal {
  data: Buffer;
  format: ImageFormat;
}

/** stripImageMetadata, with the detected format; `decodeCheck` false when the caller decodes the result itself (the variants). */
export async function cleanImageOriginal(data: Buffer | Uint8Array, filename: string, decodeCheck: boolean, maxPixels: number): Promise<CleanOriginal> {
  const stripped = stripImageMetadataLossless(data);
  // An animation keeps its frames: its orientation tag goes with the rest of the EXIF block, it is not applied.
  const turn = stripped !== null && stripped.orientation !== 1 && !stripped.orientationKept && !stripped.animated;
  if (!stripped || turn) return reencodeUpright(data, filename, stripped?.lossless === true, maxPixels);
  if (decodeCheck) await assertDecodable(stripped.data, filename, maxPixels);
  return { data: stripped.data, format: stripped.format };
}

/** A decodable JPEG, PNG or WebP of at most `maxPixels` (a scaled-down decode, cheap for JPEG and WebP). */
async function assertDecodable(data: Buffer, filename: string, maxPixels: number): Promise<void> {
  const sharp = await loadSharp();
  await inspectImage(sharp, data, filename, maxPixels);
  try {
    await sharp(data, { failOn: 'warning', limitInputPixels: maxPixels })
      .resize({ width: 256, height: 256, fit: 'inside', withoutEnlargement: true })
      .raw()
      .toBuffer();
  } catch {
    throw new UploadInvalidImageError(filename, 'décodage impossible, fichier tronqué ou endommagé');
  }
}

/** The picture turned upright from its EXIF orientation, re-encoded in its format with its ICC profile only. */
async function reencodeUpright(data: Buffer | Uint8Array, filename: string, lossless: boolean, maxPixels: number): Promise<CleanOriginal> {
  const sharp = await loadSharp();
  const metadata = await inspectImage(sharp, data, filename, maxPixels);
  if ((metadata.pages ?? 1) > 1) throw new UploadInvalidImageError(filename, 'image animée illisible');
  let image = sharp(data, { failOn: 'warning', limitInputPixels: maxPixels }).autoOrient().keepIccProfile();
  if (metadata.format === 'jpeg') {
    image = image.jpeg({
      quality: REENCODE_QUALITY,
      chromaSubsampling: metadata.chromaSubsampling === '4:4:4' ? '4:4:4' : '4:2:0',
      progressive: metadata.isProgressive === true,
    });
  } else if (metadata.format === 'png') {
    image = image.png();
  } else {
    image = image.webp(lossless ? { lossless: true } : { quality: REENCODE_QUALITY });
  }
  let output: Buffer;
  try {
    output = await image.toBuffer();
  } catch {
    throw new UploadInvalidImageError(filename, 'décodage impossible, fichier tronqué ou endommagé');
  }
  const check = await sharp(output).metadata();
  if (check.exif || check.xmp || check.iptc || (check.orientation ?? 1) !== 1) {
    throw new Error(`stripImageMetadata : des métadonnées restent dans « ${filename} » après réencodage.`);
  }
  return { data: output, format: metadata.format as CleanOriginal['format'] };
}
