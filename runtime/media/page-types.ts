/**
 * What the media of the pages of `fw make:crud <Entity> --media` are made of (docs/crud.md "Media"): an entity's
 * entries (its `<snake>_media.ts` declares them), and what the form, detail and list pages receive for them. The
 * classes that use them: `MediaPages` (pages.ts) and `MediaSubmission` (submission.ts).
 */
import type { Transaction } from '../db/database.js';
import type { UploadedFile } from '../http/request.js';
import type { SavedUpload } from '../uploads/storage.js';
import type { MediaItem } from './records.js';
import { MEDIA_LIMITS } from './schema.js';

/** A media entry of an entity file. */
export interface MediaEntry {
  /** The file input; the current files' inputs are `<name>.alt.<id>`, `<name>.position.<id>` and `<name>.remove`. */
  readonly name: string;
  readonly label: string;
  /** `image`: stored under `images` (a medium and a thumbnail too with `variants`); `file`: under `documents`. */
  readonly kind: 'image' | 'file';
  /** The `role` of its rows in the `media` table. */
  readonly role: string;
  /** Several files in an order (a gallery, a file list); else one, which a new upload replaces. */
  readonly multiple: boolean;
  /**
   * Images: `true`, the medium and the thumbnail made during the upload; `'job'`, made afterwards by the job of
   * `fw-mvc/media/jobs` (the pages show the original until they exist; docs/uploads.md "Variants made by a job").
   */
  readonly variants: boolean | 'job';
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

/** What the form page shows for one entry (`media.<name>` in the templates). */
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

/** What enqueues the variants of a stored image (`MEDIA_VARIANTS_JOB` of `fw-mvc/media/jobs`). */
export interface MediaVariantsJob {
  readonly name: string;
  enqueue(payload: { readonly mediaId: number }, options: { readonly tx: Transaction }): Promise<unknown>;
}

/** The entity whose record a `MediaSubmission` writes, its entries and the job of their variants (a `MediaPages`). */
export interface MediaOwner {
  readonly entityName: string;
  readonly entries: readonly MediaEntry[];
  readonly variantsJob?: MediaVariantsJob | null;
}

/** A new file, checked, and once stored its paths. */
export interface NewMediaFile {
  readonly entry: MediaEntry;
  readonly file: UploadedFile;
  readonly altText: string | null;
  stored?: SavedUpload;
  /** Refused when stored (not a readable image). */
  refused?: boolean;
}

/** A client file name without its folder (`C:\\fakepath\\a.jpg` → `a.jpg`), within the column's size. */
export function baseName(filename: string): string {
  return filename.slice(Math.max(filename.lastIndexOf('/'), filename.lastIndexOf('\\')) + 1).slice(0, MEDIA_LIMITS.originalName);
}

/** The name a page shows for a file: its name on the client's disk, else its stored name. */
export function itemName(item: MediaItem): string {
  return item.originalName ?? item.path.slice(item.path.lastIndexOf('/') + 1);
}

/** The small picture of an image on the pages: its thumbnail, else its medium, else itself; null for a document. */
export function thumbnailUrl(item: MediaItem): string | null {
  return item.isImage ? (item.thumbnailUrl ?? item.mediumUrl ?? item.url) : null;
}
