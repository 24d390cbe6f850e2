/**
 * Image variants (docs/decisions.md#uploads-and-media; docs/uploads.md "Variants"): medium at
 * most 1280 × 1280 and thumbnail at most 300 × 300, proportions kept (`fit: inside`), never enlarged, turned upright
 * from the EXIF orientation, every metadata stripped, in the format of the file's extension. Only for
 * `images/<file>` in jpg, jpeg, png or webp. The decoding runs in the image process (image-jobs.ts): sharp (a native
 * addon) is loaded there on the first image, never in the server.
 */
import fs from 'node:fs';
import path from 'node:path';
import { lastExtension } from '../forms/fields-file.js';
import { UploadError, UploadInvalidImageError, UploadStorageError, UploadTooManyPixelsError } from './errors.js';
import { imageVariants } from './image-jobs.js';
import { makeDirInside, mediaPathToStoragePath, normalizeMediaPath, uploadRoot } from './paths.js';
import { writeNewFile } from './write.js';

export const VARIANT_NAMES = ['medium', 'thumbnail'] as const;
export type VariantName = (typeof VARIANT_NAMES)[number];
/** The largest width and height of each variant, in pixels. */
export const VARIANT_SIZES: Readonly<Record<VariantName, number>> = { medium: 1280, thumbnail: 300 };
/** The extensions that get variants. */
export const VARIANT_EXTENSIONS: readonly string[] = ['jpg', 'jpeg', 'png', 'webp'];
/** The default of `upload_max_pixels`: images with more pixels are refused before decoding (a small file can declare a huge image). */
export const VARIANT_MAX_INPUT_PIXELS = 50_000_000;

/** The decoded formats accepted (a GIF, SVG or TIFF renamed `.jpg` is refused). */
const DECODED_FORMATS = new Set(['jpeg', 'png', 'webp']);

type SharpModule = typeof import('sharp');
export type SharpFactory = SharpModule extends { default: infer D } ? D : SharpModule;
export type ImageMetadata = Awaited<ReturnType<ReturnType<SharpFactory>['metadata']>>;

let sharpLoading: Promise<SharpFactory> | undefined;

/**
 * sharp, imported on first use, in the image process only (image-jobs.ts): its operation cache is off (each upload
 * is decoded once) and each image uses one libvips thread (the jobs run side by side, as many as the cores).
 */
export function loadSharp(): Promise<SharpFactory> {
  sharpLoading ??= import('sharp').then((mod) => {
    const sharp = ((mod as { default?: SharpFactory }).default ?? mod) as SharpFactory;
    sharp.cache(false);
    sharp.concurrency(1);
    return sharp;
  });
  return sharpLoading;
}

/** True for `images/<file>` with a jpg, jpeg, png or webp extension: the paths that have variants. */
export function isVariantSource(relative: string): boolean {
  const segments = relative.split('/');
  return segments.length === 2 && segments[0] === 'images' && VARIANT_EXTENSIONS.includes(lastExtension(segments[1]!));
}

/** `images/<file>` → `{ medium: 'images/medium/<file>', thumbnail: 'images/thumbnail/<file>' }`. */
export function variantPaths(mediaPath: string): Record<VariantName, string> {
  const relative = normalizeMediaPath(mediaPath);
  if (!isVariantSource(relative)) {
    throw new UploadError(
      `« ${relative} » n'a pas de variantes : seules les images images/<fichier> en ${VARIANT_EXTENSIONS.join(', ')} en ont.`,
      'upload_no_variants',
    );
  }
  const file = relative.slice('images/'.length);
  return { medium: `images/medium/${file}`, thumbnail: `images/thumbnail/${file}` };
}

function outputFormat(extension: string): 'jpeg' | 'png' | 'webp' {
  return extension === 'png' ? 'png' : extension === 'webp' ? 'webp' : 'jpeg';
}

/**
 * The header of an upload read by sharp: a decodable JPEG, PNG or WebP of at most `maxPixels` pixels, or
 * UploadInvalidImageError (a GIF, SVG or TIFF renamed `.jpg`, a file that is no image), UploadTooManyPixelsError.
 */
export async function inspectImage(sharp: SharpFactory, data: Buffer | Uint8Array, filename: string, maxPixels: number): Promise<ImageMetadata> {
  let metadata: ImageMetadata;
  try {
    metadata = await sharp(data, { failOn: 'warning', limitInputPixels: false }).metadata();
  } catch {
    throw new UploadInvalidImageError(filename, 'format non reconnu ou fichier endommagé');
  }
  if (!metadata.format || !DECODED_FORMATS.has(metadata.format)) throw new UploadInvalidImageError(filename, `format ${metadata.format ?? 'inconnu'}`);
  if ((metadata.width ?? 0) * (metadata.height ?? 0) > maxPixels) {
    throw new UploadTooManyPixelsError(filename, metadata.width ?? 0, metadata.height ?? 0, maxPixels);
  }
  return metadata;
}

/**
 * The variants of an image, in memory: decoded once for the medium (upright, stripped), the thumbnail made from the
 * medium. A file that is not a decodable jpg, png or webp image throws UploadInvalidImageError.
 */
export async function makeVariantBuffers(
  data: Buffer | Uint8Array,
  filename: string,
  extension: string,
  maxPixels: number,
): Promise<Record<VariantName, Buffer>> {
  const sharp = await loadSharp();
  const format = outputFormat(extension);
  await inspectImage(sharp, data, filename, maxPixels);
  try {
    const resize = (size: number) => ({ width: size, height: size, fit: 'inside' as const, withoutEnlargement: true });
    const medium = await sharp(data, { failOn: 'warning', limitInputPixels: maxPixels })
      .autoOrient()
      .resize(resize(VARIANT_SIZES.medium))
      .toFormat(format)
      .toBuffer();
    const thumbnail = await sharp(medium).resize(resize(VARIANT_SIZES.thumbnail)).toFormat(format).toBuffer();
    return { medium, thumbnail };
  } catch {
    throw new UploadInvalidImageError(filename, 'décodage impossible, fichier tronqué ou endommagé');
  }
}

/**
 * Writes both variants of `relative` under `root`, each whole and never over an existing file; on failure the one
 * already written is removed.
 */
export async function writeVariants(root: string, relative: string, buffers: Record<VariantName, Buffer>): Promise<Record<VariantName, string>> {
  const paths = variantPaths(relative);
  const written: string[] = [];
  try {
    for (const name of VARIANT_NAMES) {
      makeDirInside(root, `images/${name}`);
      const target = mediaPathToStoragePath(paths[name], { root });
      await writeNewFile(target, buffers[name]);
      written.push(target);
    }
    return paths;
  } catch (err) {
    for (const target of written) await fs.promises.rm(target, { force: true }).catch(() => {});
    throw err;
  }
}

/**
 * `generate_image_variants(path, root=...)`: reads `images/<file>` under `root` (default: the upload root) and
 * writes `images/medium/<file>` and `images/thumbnail/<file>`; returns their relative paths. Both or none: an
 * image that cannot be decoded, or a variant that already exists, leaves nothing new behind (the original stays).
 */
export async function generateImageVariants(mediaPath: string, options: { root?: string } = {}): Promise<Record<VariantName, string>> {
  const root = path.resolve(options.root ?? uploadRoot());
  const relative = normalizeMediaPath(mediaPath);
  variantPaths(relative);
  const source = mediaPathToStoragePath(relative, { root });
  let data: Buffer;
  try {
    data = await fs.promises.readFile(source);
  } catch (err) {
    throw new UploadStorageError(`Lecture de « ${relative} » impossible : ${(err as Error).message}`, { cause: err });
  }
  const buffers = await imageVariants(data, path.posix.basename(relative), lastExtension(relative));
  return writeVariants(root, relative, buffers);
}
