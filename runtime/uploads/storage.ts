/**
 * The upload chain (docs/uploads.md "The chain"):
 * validateUploadMetadata → saveBytes → normalizeMediaPath, then saveUpload, which runs them and makes the image
 * variants. Each step fails without partial state: a file is written under a temporary name then linked to its
 * final name (never over an existing file), and a failure removes whatever the step had written.
 */
import fs from 'node:fs';
import path from 'node:path';
import { get } from '../config.js';
import { lastExtension } from '../forms/fields-file.js';
import type { UploadedFile } from '../http/request.js';
import {
  UploadError,
  UploadInvalidExtensionError,
  UploadInvalidMimeTypeError,
  UploadStorageError,
  UploadStorageUnavailableError,
  UploadTooLargeError,
  displayName,
} from './errors.js';
import { categoryDir, generateUniqueFilename, mediaPathToStoragePath, normalizeMediaPath, safeCategory, uploadRoot } from './paths.js';
import { prepareImage, type ImageFormat } from './image-jobs.js';
import { writeNewFile } from './write.js';
import { VARIANT_EXTENSIONS, isVariantSource, variantPaths, writeVariants, type VariantName } from './variants.js';

/** What `saveUpload` returns (docs/uploads.md "The chain"). */
export interface SavedUpload {
  /** The stored file name (secure name + random suffix). */
  filename: string;
  /** The original's path, relative to the upload root (`images/photo_<hex>.jpg`). */
  path: string;
  /** Size in bytes of the stored file (for an image, without its metadata: see docs/uploads.md). */
  size: number;
  /** Relative paths of the variants; present only when they were asked for. */
  variants?: Record<VariantName, string>;
}

/** What validateUploadMetadata found. */
export interface UploadMetadata {
  /** The last extension, lower-cased. */
  extension: string;
  /** The declared Content-Type without parameters, lower-cased. */
  mimeType: string;
}

/** The client's Content-Type without its parameters, lower-cased (docs/uploads.md "The chain"). */
export function normalizeMimeType(contentType: string): string {
  return (String(contentType ?? '').split(';')[0] ?? '').trim().toLowerCase();
}

/**
 * `validate_upload_metadata(filename, size, content_type)`: a file name, a size from 0 (an empty file is accepted)
 * to `upload_max_size`, a last extension in `upload_allowed_extensions` (`a.php.jpg` passes when jpg does,
 * `a.jpg.php` does not) and a declared MIME type in `upload_allowed_mime_types` (parameters ignored, any case).
 * Binary signatures are not checked. Throws the matching UploadError.
 */
export function validateUploadMetadata(filename: string, size: number, contentType: string): UploadMetadata {
  if (typeof filename !== 'string' || filename.trim() === '' || displayName(filename) === '') {
    throw new UploadError('Aucun fichier reçu : le nom du fichier est vide. Choisissez un fichier puis renvoyez le formulaire.', 'upload_missing');
  }
  const maxSize = get('upload_max_size');
  if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0) {
    throw new UploadError(
      `La taille du fichier « ${displayName(filename)} » est invalide (${String(size)}) : un nombre d'octets positif ou nul est attendu.`,
      'upload_invalid_size',
    );
  }
  if (size > maxSize) throw new UploadTooLargeError(filename, size, maxSize);
  const allowedExtensions = get('upload_allowed_extensions').map((e) => e.trim().replace(/^\./, '').toLowerCase());
  const extension = lastExtension(filename);
  if (extension === '' || !allowedExtensions.includes(extension)) throw new UploadInvalidExtensionError(filename, extension, allowedExtensions);
  const allowedMimeTypes = get('upload_allowed_mime_types').map(normalizeMimeType);
  const mimeType = normalizeMimeType(contentType);
  if (!allowedMimeTypes.includes(mimeType)) throw new UploadInvalidMimeTypeError(filename, mimeType, allowedMimeTypes);
  return { extension, mimeType };
}

/**
 * `save_bytes(data, filename, category)`: stores the bytes under `<category>/<secure name>_<uuid>.<ext>` and
 * returns that path, relative to the upload root and normalized. The category must match `^[A-Za-z0-9_-]+$`.
 */
export async function saveBytes(data: Buffer | Uint8Array, filename: string, category: string): Promise<string> {
  const dir = categoryDir(safeCategory(category));
  const stored = generateUniqueFilename(filename);
  const relative = normalizeMediaPath(`${category}/${stored}`);
  const target = path.join(dir, stored);
  await writeNewFile(target, data);
  return relative;
}

export interface SaveUploadOptions {
  /** Default `documents`. */
  category?: string;
  /** Make the medium and thumbnail variants (category `images` only, jpg, jpeg, png or webp). Default false. */
  variants?: boolean;
}

/**
 * `save_upload(file, category='documents', variants=False)`: validateUploadMetadata; for a jpg, jpeg, png or webp
 * file (any category), its metadata removed in memory (stripImageMetadata: a file that is not a decodable image fails
 * here);
 * with variants, the variants computed in memory from those bytes (a file that is not a decodable image fails here,
 * before anything is written); then saveBytes and the variants written beside it. A failure removes every file this
 * call wrote. The size returned is the stored one.
 */
export async function saveUpload(file: UploadedFile, options: SaveUploadOptions = {}): Promise<SavedUpload> {
  const category = safeCategory(options.category ?? 'documents');
  const wantVariants = options.variants === true;
  if (wantVariants && category !== 'images') {
    throw new TypeError(`saveUpload : les variantes ne se font que pour la catégorie images (catégorie demandée : « ${category} »).`);
  }
  // Its bytes were dropped by the body reader (over upload_max_size when it was read): it can only be refused.
  if (file.truncated) throw new UploadTooLargeError(file.filename, file.size, get('upload_max_size'));
  const { extension } = validateUploadMetadata(file.filename, file.size, file.contentType);
  const image = VARIANT_EXTENSIONS.includes(extension);
  if (wantVariants && !image) throw new UploadInvalidExtensionError(file.filename, extension, VARIANT_EXTENSIONS);
  // The metadata removed and the variants made in the image process (image-jobs.ts), before anything is written.
  const prepared = image ? await prepareImage(file.data, file.filename, { variants: wantVariants }) : null;
  const original = prepared?.original ?? null;
  const data = original?.data ?? file.data;
  // Stored under the extension of what the bytes are (JPEG bytes named `.png` are stored as `.jpg`), so that the
  // file is served with its real type; the variants are in that format too.
  const storedExtension = original ? extensionOf(original.format, extension, file.filename) : extension;
  const buffers = prepared?.variants ?? null;
  const storedName = storedExtension === extension ? file.filename : `${stemOf(file.filename)}.${storedExtension}`;
  const relative = await saveBytes(data, storedName, category).catch((err: unknown) => {
    throw namingTheFile(err, file.filename);
  });
  const saved: SavedUpload = { filename: path.posix.basename(relative), path: relative, size: data.length };
  if (!buffers) return saved;
  try {
    saved.variants = await writeVariants(uploadRoot(), relative, buffers);
    return saved;
  } catch (err) {
    await removeQuietly(relative);
    throw namingTheFile(err, file.filename);
  }
}

/** A disk that refused, said of the file the client sent (not of the folder or the stored name). */
function namingTheFile(err: unknown, filename: string): unknown {
  return err instanceof UploadStorageUnavailableError ? new UploadStorageUnavailableError(filename, err.detail, { cause: err.cause }) : err;
}

/** The extensions that name each decoded image format, the usual one first. */
const FORMAT_EXTENSIONS: Readonly<Record<ImageFormat, readonly string[]>> = { jpeg: ['jpg', 'jpeg'], png: ['png'], webp: ['webp'] };

/**
 * The extension an image is stored under: the one it was sent with when it names its format, else the first allowed
 * extension of the format found in its bytes; none allowed: UploadError naming the format and the allowed list.
 */
function extensionOf(format: ImageFormat, sent: string, filename: string): string {
  const names = FORMAT_EXTENSIONS[format];
  if (names.includes(sent)) return sent;
  const allowed = get('upload_allowed_extensions').map((e) => e.trim().replace(/^\./, '').toLowerCase());
  const usable = names.find((name) => allowed.includes(name));
  if (usable) return usable;
  throw new UploadError(
    `Le fichier « ${displayName(filename)} » contient une image ${format.toUpperCase()}, dont l'extension (${names.join(', ')}) n'est pas acceptée : extensions acceptées : ${allowed.join(', ')}.`,
    'upload_invalid_extension',
  );
}

/** A client file name without its last extension (`photo.final.png` → `photo.final`). */
function stemOf(filename: string): string {
  const name = String(filename);
  const dot = name.lastIndexOf('.');
  return dot > Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) ? name.slice(0, dot) : name;
}

/** Removes a stored file, ignoring any error (clean-up after a failure that is already being reported). */
async function removeQuietly(relative: string): Promise<void> {
  try {
    await fs.promises.rm(mediaPathToStoragePath(relative), { force: true });
  } catch {
    // the original error is the one that matters
  }
}

/**
 * `delete_file(relative_path)`: removes one file under the upload root; true when it was there, false when it was
 * not. An unsafe path throws UploadPathError; a folder, or a file the disk refuses to remove, UploadStorageError.
 */
export async function deleteFile(relativePath: string, options: { root?: string } = {}): Promise<boolean> {
  const target = mediaPathToStoragePath(relativePath, options);
  let stat: fs.Stats;
  try {
    stat = await fs.promises.lstat(target);
  } catch {
    return false;
  }
  if (!stat.isFile()) throw new UploadStorageError(`« ${relativePath} » n'est pas un fichier : rien n'a été supprimé.`);
  try {
    await fs.promises.unlink(target);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw new UploadStorageError(`Suppression de « ${relativePath} » impossible : ${(err as Error).message}`, { cause: err });
  }
}

/**
 * `delete_media_file(path, variants=False)`: removes the file and, with `variants`, its medium and thumbnail
 * (for an `images/<file>` path); returns path → true (removed) or false (absent, not an error). The path is checked
 * before anything is removed.
 */
export async function deleteMediaFile(mediaPath: string, options: { variants?: boolean; root?: string } = {}): Promise<Record<string, boolean>> {
  const relative = normalizeMediaPath(mediaPath);
  const targets = [relative];
  if (options.variants === true && isVariantSource(relative)) targets.push(...Object.values(variantPaths(relative)));
  for (const target of targets) mediaPathToStoragePath(target, { root: options.root });
  const result: Record<string, boolean> = {};
  for (const target of targets) result[target] = await deleteFile(target, { root: options.root });
  return result;
}

/** `delete_upload(path_or_saved_upload)`: a SavedUpload's file and the variants it lists, or a path and its variants. */
export async function deleteUpload(pathOrSavedUpload: string | SavedUpload): Promise<Record<string, boolean>> {
  if (typeof pathOrSavedUpload === 'string') return deleteMediaFile(pathOrSavedUpload, { variants: true });
  const saved = pathOrSavedUpload;
  const targets = [normalizeMediaPath(saved.path), ...Object.values(saved.variants ?? {}).map(normalizeMediaPath)];
  for (const target of targets) mediaPathToStoragePath(target);
  const result: Record<string, boolean> = {};
  for (const target of targets) result[target] = await deleteFile(target);
  return result;
}
