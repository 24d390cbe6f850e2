/**
 * File fields: FileField and ImageField. They check the metadata of an UploadedFile (docs/uploads.md
 * "The chain") and save nothing: storing the file is the upload chain's job.
 */
import { get } from '../config.js';
import type { UploadedFile } from '../http/request.js';
import { FormDefinitionError, FormValidationError } from './errors.js';
import { checkCount, Field, type Cleaned, type FieldInput, type FieldOptions, type HtmlAttrs } from './field.js';
import { messages } from './messages.js';

export interface FileFieldOptions<R extends boolean = boolean> extends FieldOptions<R> {
  /** Allowed extensions, without the dot, any case; default: the `upload_allowed_extensions` setting. */
  extensions?: readonly string[];
  /** Maximum size in bytes; default: the `upload_max_size` setting, which also bounds it (the body reader keeps no more). */
  maxSize?: number;
  /** Allowed MIME types (the client's Content-Type, parameters ignored, any case); default: not checked. */
  mimeTypes?: readonly string[];
}

const normalizeExtension = (ext: string): string => ext.trim().replace(/^\./, '').toLowerCase();
const normalizeMime = (mime: string): string => (mime.split(';')[0] ?? '').trim().toLowerCase();

/** The file name without any client-side folder (`C:\fakepath\a.jpg` → `a.jpg`). */
function baseName(filename: string): string {
  return filename.slice(Math.max(filename.lastIndexOf('/'), filename.lastIndexOf('\\')) + 1);
}

/** The last extension, lower-cased; '' when there is none (`README`, `.env`, `a.`). */
export function lastExtension(filename: string): string {
  const name = baseName(filename);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

function checkList(name: string, list: readonly string[] | undefined): void {
  if (list !== undefined && (!Array.isArray(list) || list.length === 0 || !list.every((v) => typeof v === 'string' && v.trim() !== ''))) {
    throw new FormDefinitionError(`Option ${name} invalide : une liste non vide de textes est attendue.`);
  }
}

/**
 * An uploaded file, checked on its metadata: the last extension against a whitelist (`a.php.jpg` passes
 * when jpg is allowed, `a.jpg.php` does not), the size (an empty file is accepted), and the MIME type when
 * a list is given. A part sent without a file name (nothing chosen) counts as absent. Cleaned to the
 * UploadedFile itself.
 */
export class FileField<R extends boolean = true> extends Field<UploadedFile, R> {
  override readonly isFile = true;
  readonly extensions: readonly string[] | undefined;
  readonly maxSize: number | undefined;
  readonly mimeTypes: readonly string[] | undefined;

  constructor(options: FileFieldOptions<R> = {}) {
    super(options, 'file');
    checkList('extensions', options.extensions);
    checkList('mimeTypes', options.mimeTypes);
    checkCount('maxSize', options.maxSize);
    this.extensions = options.extensions?.map(normalizeExtension);
    this.maxSize = options.maxSize;
    this.mimeTypes = options.mimeTypes?.map(normalizeMime);
  }

  /** The extensions in force (the setting is read at each call, so `configure()` applies at once). */
  allowedExtensions(): readonly string[] {
    return this.extensions ?? get('upload_allowed_extensions').map(normalizeExtension);
  }

  clean(input: FieldInput, label: string): Cleaned<UploadedFile, R> {
    const file = input.file;
    if (!file || file.filename === '') {
      if (this.required) throw new FormValidationError(messages.required(label));
      return null as Cleaned<UploadedFile, R>; // not required, so R is not `true`
    }
    const name = baseName(file.filename);
    const allowed = this.allowedExtensions();
    if (!allowed.includes(lastExtension(name))) throw new FormValidationError(messages.fileExtension(label, name, allowed));
    // A file the body reader truncated (over upload_max_size) is refused whatever a larger maxSize says.
    const maxSize = file.truncated ? Math.min(this.maxSize ?? Infinity, get('upload_max_size')) : (this.maxSize ?? get('upload_max_size'));
    if (file.truncated || file.size > maxSize) throw new FormValidationError(messages.fileSize(label, name, maxSize));
    if (this.mimeTypes && !this.mimeTypes.includes(normalizeMime(file.contentType))) {
      throw new FormValidationError(messages.fileType(label, name, normalizeMime(file.contentType)));
    }
    return file;
  }

  /** A file input cannot be pre-filled. */
  override format(): string {
    return '';
  }

  override attrs(): HtmlAttrs {
    return {
      accept: this.allowedExtensions()
        .map((e) => `.${e}`)
        .join(','),
    };
  }
}

export const IMAGE_EXTENSIONS: readonly string[] = ['jpg', 'jpeg', 'png', 'webp'];
export const IMAGE_MIME_TYPES: readonly string[] = ['image/jpeg', 'image/png', 'image/webp'];

/**
 * A FileField for images: extensions among jpg, jpeg, png, webp and MIME types among image/jpeg, image/png,
 * image/webp (both checked). The options may narrow these lists, never widen them (no SVG: it carries scripts).
 */
export class ImageField<R extends boolean = true> extends FileField<R> {
  constructor(options: FileFieldOptions<R> = {}) {
    const extensions = options.extensions ?? IMAGE_EXTENSIONS;
    const mimeTypes = options.mimeTypes ?? IMAGE_MIME_TYPES;
    super({ ...options, extensions, mimeTypes });
    const wider = [...this.extensions!.filter((e) => !IMAGE_EXTENSIONS.includes(e)), ...this.mimeTypes!.filter((m) => !IMAGE_MIME_TYPES.includes(m))];
    if (wider.length > 0) {
      throw new FormDefinitionError(`ImageField n’accepte que ${[...IMAGE_EXTENSIONS, ...IMAGE_MIME_TYPES].join(', ')} ; refusé : ${wider.join(', ')}.`);
    }
  }
}
