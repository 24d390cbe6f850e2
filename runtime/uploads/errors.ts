/**
 * The upload exceptions (docs/uploads.md "Errors"). Each is an HttpError: thrown out of a
 * handler it becomes the 422 page or envelope with its message (UploadStorageError: a logged 500, its message never
 * shown). Every message names the file and the limit or the allowed list.
 */
import { formatSize } from '../forms/messages.js';
import { HttpError } from '../http/errors.js';

/** A client text as shown in a message: no control character, at most `max` characters. */
export function displayText(value: string, max = 120): string {
  const clean = String(value ?? '').replace(/[\u0000-\u001f\u007f]/g, '');
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}

/** A client file name as shown in a message: without its folder (`C:\\fakepath\\a.jpg` → `a.jpg`). */
export function displayName(filename: string): string {
  const text = String(filename ?? '');
  return displayText(text.slice(Math.max(text.lastIndexOf('/'), text.lastIndexOf('\\')) + 1));
}

/** Base class of every upload failure (`UploadError`, docs/uploads.md "Errors"). */
export class UploadError extends HttpError {
  constructor(message: string, code = 'upload_error', status = 422) {
    super(status, message, code);
    this.name = 'UploadError';
  }
}

/** A file over `upload_max_size` (or a size that is not a byte count). */
export class UploadTooLargeError extends UploadError {
  constructor(
    readonly filename: string,
    readonly size: number,
    readonly maxSize: number,
  ) {
    super(
      `Le fichier « ${displayName(filename)} » pèse ${formatSize(size)} (${size} octets) : la taille maximale est ${formatSize(maxSize)} (${maxSize} octets).`,
      'upload_too_large',
    );
    this.name = 'UploadTooLargeError';
  }
}

/** A last extension outside the whitelist (`upload_allowed_extensions`, or the image formats for variants). */
export class UploadInvalidExtensionError extends UploadError {
  constructor(
    readonly filename: string,
    readonly extension: string,
    readonly allowed: readonly string[],
  ) {
    const what = extension === '' ? "n'a pas d'extension" : `a une extension non autorisée (« ${extension} »)`;
    super(`Le fichier « ${displayName(filename)} » ${what} : extensions acceptées : ${allowed.join(', ')}.`, 'upload_invalid_extension');
    this.name = 'UploadInvalidExtensionError';
  }
}

/** A declared Content-Type outside `upload_allowed_mime_types`. */
export class UploadInvalidMimeTypeError extends UploadError {
  constructor(
    readonly filename: string,
    readonly mimeType: string,
    readonly allowed: readonly string[],
  ) {
    const what = mimeType === '' ? 'est envoyé sans type MIME' : `est de type « ${mimeType} », non autorisé`;
    super(`Le fichier « ${displayName(filename)} » ${what} : types acceptés : ${allowed.join(', ')}.`, 'upload_invalid_mime_type');
    this.name = 'UploadInvalidMimeTypeError';
  }
}

/** The disk refused: a folder that cannot be created, a write or a deletion that failed. Nothing is left half-written. */
export class UploadStorageError extends UploadError {
  constructor(message: string, options?: { cause?: unknown }, code = 'upload_storage_error', status = 500) {
    super(message, code, status);
    this.name = 'UploadStorageError';
    if (options?.cause !== undefined) (this as { cause?: unknown }).cause = options.cause;
  }
}

/** The errors of a disk that refuses to store: full, over quota, read-only, not writable, a folder that is not one. */
const STORAGE_REFUSED = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EACCES', 'EPERM', 'ENOTDIR', 'EIO']);

/**
 * The upload folder refuses to store the file (full, read-only, not writable): 507 `upload_storage_unavailable`
 * (docs/uploads.md "Errors"). Its message is the user's (it names the file and says the entries are kept, never a
 * folder); `detail` is the disk's, for the log. Nothing of the file is left.
 */
export class UploadStorageUnavailableError extends UploadStorageError {
  constructor(
    readonly filename: string,
    readonly detail: string,
    options?: { cause?: unknown },
  ) {
    super(
      `Le fichier « ${displayName(filename)} » n'a pas pu être enregistré : l'espace de stockage des fichiers est plein ou protégé en écriture. ` +
        "Vos saisies sont conservées : réessayez plus tard, ou prévenez l'administrateur du site.",
      options,
      'upload_storage_unavailable',
      507,
    );
    this.name = 'UploadStorageUnavailableError';
  }
}

/** The error for a failed write or folder creation: UploadStorageUnavailableError when the disk refused, else `fallback`. */
export function storageFailure(err: unknown, filename: string, detail: string, fallback: () => UploadStorageError): UploadStorageError {
  if (err instanceof UploadStorageError) return err;
  return STORAGE_REFUSED.has(String((err as NodeJS.ErrnoException)?.code)) ? new UploadStorageUnavailableError(filename, detail, { cause: err }) : fallback();
}

/**
 * A path that must never reach the disk (docs/uploads.md "Paths and categories"): absolute, UNC, URL or URI scheme, `..`,
 * backslash, null byte or control character, a category outside `^[A-Za-z0-9_-]+$`, or a path whose real location
 * (symbolic links resolved) leaves the upload root.
 */
export class UploadPathError extends UploadError {
  constructor(
    readonly value: string,
    reason: string,
  ) {
    super(`Chemin de média refusé « ${displayText(value, 80)} » : ${reason}.`, 'upload_unsafe_path');
    this.name = 'UploadPathError';
  }
}

/** A file of category `images` whose variants were asked for but that is not a decodable jpg, png or webp image. */
export class UploadInvalidImageError extends UploadError {
  constructor(
    readonly filename: string,
    readonly detail: string,
  ) {
    super(
      `Le fichier « ${displayName(filename)} » n'est pas une image lisible (${detail}) : envoyez une image jpg, png ou webp valide.`,
      'upload_invalid_image',
    );
    this.name = 'UploadInvalidImageError';
  }
}

/** An image with more pixels than `upload_max_pixels`, refused before it is decoded (a small file can declare a huge image). */
export class UploadTooManyPixelsError extends UploadError {
  constructor(
    readonly filename: string,
    readonly width: number,
    readonly height: number,
    readonly maxPixels: number,
  ) {
    super(
      `L'image « ${displayName(filename)} » mesure ${width} × ${height} pixels (${millions(width * height)}) : ${millions(maxPixels)} de pixels au plus. Réduisez-la puis envoyez-la de nouveau.`,
      'upload_too_many_pixels',
    );
    this.name = 'UploadTooManyPixelsError';
  }
}

/** A pixel count in millions, French style: `1,3 million`, `48,8 millions`. */
function millions(pixels: number): string {
  const value = Math.round(pixels / 1e5) / 10;
  return `${value.toLocaleString('fr-FR')} million${value >= 2 ? 's' : ''}`;
}
