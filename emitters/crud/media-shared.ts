/**
 * `mvc/models/crud_media.ts` (regenerable, the same bytes for every entity): the media part of the pages of
 * `fw make:crud <Entity> --media` (docs/decisions.md#uploads-and-media, docs/crud.md "Media"). What a form sends for the media (new files,
 * alternative texts, order, removals), the checks (every media id against the record, every file's metadata), the
 * files stored with the record's transaction and removed when it fails, the context of the form, detail and list
 * pages. Each entity's `<snake>_media.ts` declares its entries as a `MediaPages`. This file holds the module's head
 * (imports, types, helpers); its two classes come from media-submission.ts and media-pages.ts.
 */
import { tsMarkerLine } from '../marker.js';
import { MEDIA_PAGES_CLASS } from './media-pages.js';
import { MEDIA_SUBMISSION_CLASS } from './media-submission.js';

/** Its marker names the command that rewrites every entity's CRUD files, since the file is shared. */
export const CRUD_MEDIA_COMMAND = 'fw build:model';
export const CRUD_MEDIA_PATH = 'mvc/models/crud_media.ts';

export function emitCrudMediaShared(): string {
  return `${tsMarkerLine(CRUD_MEDIA_COMMAND)}
// The media of the CRUD pages made by \`fw make:crud <Entity> --media\`, shared by every such entity: what a form sends
// for the media (new files, alternative texts, order, removals) and its checks, the files stored with the record, what
// the pages show. Each entity's <snake>_media.ts declares its entries (the "media" key of its entity file).
// \`fw build:model\` rewrites this file.
import {
  FileField, FormValidationError, ImageField, UploadError, deleteUpload, formatSize, get, getLogger, guardUpload, saveUpload, trans,
  validateUploadMetadata, type Request, type Response, type SavedUpload, type Transaction, type UploadedFile,
} from 'fw-mvc';
import {
  MEDIA_LIMITS, attachMediaToEntity, deleteMediaForEntities, deleteOwnedMediaRows, getCoverMediaForEntities, listMediaForEntity,
  recordReadRule, registerMediaReadRule, updateOwnedMedia, type MediaItem, type MediaRemoval, type RecordReadAccess,
} from 'fw-mvc/media';

/** A media entry of an entity file. */
export interface MediaEntry {
  /** The file input; the current files' inputs are \`<name>.alt.<id>\`, \`<name>.position.<id>\` and \`<name>.remove\`. */
  readonly name: string;
  readonly label: string;
  /** \`image\`: stored under \`images\` (a medium and a thumbnail too with \`variants\`); \`file\`: under \`documents\`. */
  readonly kind: 'image' | 'file';
  /** The \`role\` of its rows in the \`media\` table. */
  readonly role: string;
  /** Several files in an order (a gallery, a file list); else one, which a new upload replaces. */
  readonly multiple: boolean;
  readonly variants: boolean;
}

/** One current file of an entry on the form page. */
export interface MediaFormItem {
  readonly id: number;
  readonly url: string | null;
  /** An image's thumbnail (else its medium, else itself); null for a document. */
  readonly thumbnail_url: string | null;
  readonly name: string;
  /** The alternative text and the order (from 1) shown: as typed on a page sent back, else as stored. */
  readonly alt: string;
  readonly position: string;
  readonly remove: boolean;
}

/** What the form page shows for one entry (\`media.<name>\` in the templates). */
export interface MediaFieldContext {
  readonly label: string;
  readonly accept: string;
  readonly hint: string;
  readonly errors: string[];
  /** On a page sent back: the accepted files of the entry, which were not kept (a browser cannot refill a file input). */
  readonly again: string[];
  /** The alternative text typed for a new single image. */
  readonly alt: string;
  readonly items: MediaFormItem[];
}

/** One file of an entry on the detail page. */
export interface MediaShowItem {
  readonly id: number;
  readonly url: string | null;
  readonly thumbnail_url: string | null;
  readonly medium_url: string | null;
  readonly name: string;
  readonly alt: string;
  readonly size: string;
}

/** What the detail page shows for one entry. */
export interface MediaShowContext {
  readonly label: string;
  readonly items: MediaShowItem[];
}

/** A file of the list's thumbnail column. */
export interface MediaThumbnail {
  readonly url: string;
  readonly alt: string;
}

/** A new file, checked, and once stored its paths. */
interface NewFile {
  readonly entry: MediaEntry;
  readonly file: UploadedFile;
  readonly altText: string | null;
  stored?: SavedUpload;
  /** Refused when stored (not a readable image). */
  refused?: boolean;
}

const log = getLogger('crud.media');
const MEDIA_ID = /^[1-9][0-9]{0,15}$/;
const POSITION = /^-?[0-9]{1,9}$/;

/** A client file name without its folder (\`C:\\\\fakepath\\\\a.jpg\` → \`a.jpg\`), within the column's size. */
function baseName(filename: string): string {
  return filename.slice(Math.max(filename.lastIndexOf('/'), filename.lastIndexOf('\\\\')) + 1).slice(0, MEDIA_LIMITS.originalName);
}

function itemName(item: MediaItem): string {
  return item.originalName ?? item.path.slice(item.path.lastIndexOf('/') + 1);
}

${MEDIA_SUBMISSION_CLASS}
${MEDIA_PAGES_CLASS}`;
}
