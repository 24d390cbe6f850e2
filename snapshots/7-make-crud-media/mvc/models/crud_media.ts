// fw-mvc: generated file, do not edit (regenerate with: fw build:model)
// The media of the CRUD pages made by `fw make:crud <Entity> --media`, shared by every such entity: what a form sends
// for the media (new files, alternative texts, order, removals) and its checks, the files stored with the record, what
// the pages show. Each entity's <snake>_media.ts declares its entries (the "media" key of its entity file).
// `fw build:model` rewrites this file.
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
  /** The file input; the current files' inputs are `<name>.alt.<id>`, `<name>.position.<id>` and `<name>.remove`. */
  readonly name: string;
  readonly label: string;
  /** `image`: stored under `images` (a medium and a thumbnail too with `variants`); `file`: under `documents`. */
  readonly kind: 'image' | 'file';
  /** The `role` of its rows in the `media` table. */
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

/** A client file name without its folder (`C:\\fakepath\\a.jpg` → `a.jpg`), within the column's size. */
function baseName(filename: string): string {
  return filename.slice(Math.max(filename.lastIndexOf('/'), filename.lastIndexOf('\\')) + 1).slice(0, MEDIA_LIMITS.originalName);
}

function itemName(item: MediaItem): string {
  return item.originalName ?? item.path.slice(item.path.lastIndexOf('/') + 1);
}

/**
 * What a form sent for the media of a record, read by `MediaPages.read`: refused as a whole (`refusal`), or
 * checked (`errors` by entry), then stored (`store`), written in the record's transaction (`apply`), and
 * completed once it committed (`finish`) or undone when it failed (`discard`).
 */
export class MediaSubmission {
  /** 400 (a media id that is not a number) or 403 (the id of a media that is not one of the record's, of that entry): nothing may change. */
  refusal: 400 | 403 | null = null;
  /** Messages by entry name. */
  readonly errors: Record<string, string[]> = {};
  /** What was typed in the inputs of the current files, by input name (shown again on a page sent back). */
  readonly typed: Record<string, string> = {};
  /** Current files ticked for removal. */
  readonly removed = new Set<number>();
  readonly altTexts = new Map<number, string | null>();
  readonly positions = new Map<number, number>();
  readonly files: NewFile[] = [];
  /** The rows removed by `apply`, whose files `finish` deletes once the transaction committed. */
  private readonly removals: MediaRemoval[] = [];

  constructor(readonly pages: MediaPages, readonly current: readonly MediaItem[]) {}

  get isValid(): boolean {
    return this.refusal === null && Object.keys(this.errors).length === 0;
  }

  addError(entry: MediaEntry, message: string): void {
    (this.errors[entry.name] ??= []).push(message);
  }

  /**
   * Stores the new files (after every check passed). A file that cannot be stored (an image sharp cannot read) puts
   * its message on its entry and returns false, with every file of this submission removed; any other failure too.
   */
  async store(): Promise<boolean> {
    for (const item of this.files) {
      try {
        item.stored = await saveUpload(item.file, { category: item.entry.kind === 'image' ? 'images' : 'documents', variants: item.entry.variants });
      } catch (err) {
        await this.discard();
        if (!(err instanceof UploadError) || err.status >= 500) throw err;
        this.addError(item.entry, err.message);
        item.refused = true;
        return false;
      }
    }
    return true;
  }

  /**
   * In the record's transaction: removes the rows of the files ticked (and of a single file replaced), saves the
   * alternative texts and the order (as typed, ties and blanks in the current order, renumbered from 0), then inserts
   * the rows of the stored files after them. Every change is checked against the record by fw-mvc/media: another
   * record's media is never reached.
   */
  async apply(recordId: number, tx: Transaction): Promise<void> {
    const name = this.pages.entityName;
    for (const entry of this.pages.entries) {
      const items = this.current.filter((item) => item.role === entry.role);
      const incoming = this.files.filter((file) => file.entry === entry);
      const replaced = !entry.multiple && incoming.length > 0;
      const kept = items.filter((item) => !replaced && !this.removed.has(item.id));
      const dropped = items.filter((item) => !kept.includes(item)).map((item) => item.id);
      if (dropped.length > 0) this.removals.push(await deleteOwnedMediaRows(name, recordId, dropped, tx));
      const ordered = kept
        .map((item, rank) => ({ item, rank, key: this.positions.get(item.id) ?? item.position + 1 }))
        .sort((a, b) => a.key - b.key || a.rank - b.rank)
        .map(({ item }) => item);
      for (const [position, item] of ordered.entries()) {
        const altText = this.altTexts.has(item.id) ? (this.altTexts.get(item.id) ?? null) : item.altText;
        if (position !== item.position || altText !== item.altText) await updateOwnedMedia(name, recordId, item.id, { position, altText }, tx);
      }
      for (const [index, file] of incoming.entries()) {
        if (!file.stored) throw new Error(`MediaSubmission.apply : « ${file.file.filename} » n'a pas été enregistré (store() d'abord).`);
        const options = { role: entry.role, position: ordered.length + index, altText: file.altText, originalName: baseName(file.file.filename) };
        await attachMediaToEntity(file.stored, name, recordId, options, tx);
      }
    }
  }

  /** After a failed save: removes the files `store` wrote (nothing stays without its row). */
  async discard(): Promise<void> {
    for (const item of this.files) {
      const stored = item.stored;
      if (!stored) continue;
      item.stored = undefined;
      try {
        await deleteUpload(stored);
      } catch (err) {
        log.error('fichier déposé non supprimé après un échec', { path: stored.path, error: (err as Error).message });
      }
    }
  }

  /** Once the transaction committed: removes the files of the rows `apply` removed (a failure is logged by fw-mvc/media; the rows are gone). */
  async finish(): Promise<void> {
    for (const removal of this.removals.splice(0)) await removal.removeFiles();
  }
}

/** The media entries of an entity and what its pages do with them. */
export class MediaPages {
  /** The image of the list's thumbnail column: the first image entry without `multiple`, or null. */
  readonly listImage: MediaEntry | null;
  private readonly fields: ReadonlyMap<string, FileField<false>>;

  /**
   * `read`: who may read a record's detail page; its files in private categories (documents…) at /media follow the
   * same rule, checked on every request (docs/uploads.md "Who may read a private file").
   */
  constructor(readonly entityName: string, readonly entries: readonly MediaEntry[], read?: RecordReadAccess) {
    if (read) registerMediaReadRule(entityName, recordReadRule(read), 'pages');
    this.listImage = entries.find((entry) => entry.kind === 'image' && !entry.multiple) ?? null;
    this.fields = new Map(
      entries.map((entry) => [entry.name, entry.kind === 'image' ? new ImageField<false>({ label: entry.label, required: false }) : new FileField<false>({ label: entry.label, required: false })]),
    );
  }

  /** The upload limit (requests carrying a file, per address): null, or the 429 page. A request without a file is not counted. */
  guard(request: Request): Promise<Response | null> {
    return guardUpload(request);
  }

  /**
   * Reads what the form sends for the media of the record `recordId` (its edit form), or of a new record (null).
   * Every media id named by an input must be one of the record's media, of that entry: otherwise `refusal` is set
   * and the request must change nothing. Then each new file's metadata (extension, size, type) and each text is
   * checked; nothing is stored here.
   */
  async read(request: Request, recordId: number | null): Promise<MediaSubmission> {
    const current = recordId === null ? [] : await listMediaForEntity(this.entityName, recordId);
    const sent = new MediaSubmission(this, current);
    const byId = new Map(current.map((item) => [item.id, item]));
    const own = (entry: MediaEntry, text: string): number | null => {
      if (!MEDIA_ID.test(text)) {
        sent.refusal = sent.refusal ?? 400;
        return null;
      }
      const id = Number(text);
      if (byId.get(id)?.role !== entry.role) {
        sent.refusal = 403;
        return null;
      }
      return id;
    };
    for (const entry of this.entries) {
      const prefix = `${entry.name}.`;
      for (const [key, values] of Object.entries(request.body)) {
        if (!key.startsWith(prefix)) continue;
        const rest = key.slice(prefix.length);
        if (rest === 'remove') {
          for (const value of values) {
            const id = own(entry, value.trim());
            if (id !== null) sent.removed.add(id);
          }
          continue;
        }
        const match = /^(alt|position)\.(.*)$/.exec(rest);
        if (rest !== 'alt' && !match) continue;
        const value = values[0] ?? '';
        sent.typed[key] = value;
        const id = match ? own(entry, match[2] ?? '') : null;
        if (match && id === null) continue;
        const text = value.trim();
        if (rest === 'alt' || match?.[1] === 'alt') {
          if (text.length > MEDIA_LIMITS.altText) sent.addError(entry, trans('media.alt_too_long', { label: entry.label, max: MEDIA_LIMITS.altText }));
          else if (id !== null) sent.altTexts.set(id, text === '' ? null : text);
        } else if (text !== '' && id !== null) {
          if (POSITION.test(text)) sent.positions.set(id, Number(text));
          else sent.addError(entry, trans('media.position_invalid', { label: entry.label, value: text.slice(0, 20) }));
        }
      }
      const files = request.getFiles(entry.name).filter((file) => file.filename !== '' || file.size > 0);
      if (!entry.multiple && files.length > 1) sent.addError(entry, trans('media.single_file', { label: entry.label, count: files.length }));
      const alt = (sent.typed[`${entry.name}.alt`] ?? '').trim();
      for (const file of files) {
        const message = this.check(entry, file);
        if (message) sent.addError(entry, message);
        else sent.files.push({ entry, file, altText: alt === '' || entry.kind !== 'image' ? null : alt });
      }
    }
    return sent;
  }

  /** The message refusing a new file of `entry` (extension, size, type), or null. */
  private check(entry: MediaEntry, file: UploadedFile): string | null {
    try {
      this.field(entry).clean({ value: undefined, values: [], file }, entry.label);
      validateUploadMetadata(file.filename, file.size, file.contentType);
      return null;
    } catch (err) {
      if (err instanceof FormValidationError || err instanceof UploadError) return err.message;
      throw err;
    }
  }

  private field(entry: MediaEntry): FileField<false> {
    const field = this.fields.get(entry.name);
    if (!field) throw new Error(`Média inconnu : ${entry.name}`);
    return field;
  }

  /** The form page's media: the current files of the record (none for a new one), with what was typed when `sent` comes back. */
  async formContext(recordId: number | null, sent?: MediaSubmission): Promise<Record<string, MediaFieldContext>> {
    const current = sent ? sent.current : recordId === null ? [] : await listMediaForEntity(this.entityName, recordId);
    const typed = (key: string, fallback: string): string => sent?.typed[key] ?? fallback;
    const out: Record<string, MediaFieldContext> = {};
    for (const entry of this.entries) {
      const field = this.field(entry);
      const limits = { extensions: field.allowedExtensions().join(', '), size: formatSize(field.maxSize ?? get('upload_max_size')) };
      out[entry.name] = {
        label: entry.label,
        accept: String(field.attrs()['accept'] ?? ''),
        hint: entry.multiple ? trans('media.hint_each', limits) : trans('media.hint', limits),
        errors: sent?.errors[entry.name] ?? [],
        again: sent ? sent.files.filter((file) => file.entry === entry && !file.refused).map((file) => baseName(file.file.filename)) : [],
        alt: typed(`${entry.name}.alt`, ''),
        items: current
          .filter((item) => item.role === entry.role)
          .map((item) => ({
            id: item.id,
            url: item.url,
            thumbnail_url: item.isImage ? (item.thumbnailUrl ?? item.mediumUrl ?? item.url) : null,
            name: itemName(item),
            alt: typed(`${entry.name}.alt.${item.id}`, item.altText ?? ''),
            position: typed(`${entry.name}.position.${item.id}`, String(item.position + 1)),
            remove: sent?.removed.has(item.id) ?? false,
          })),
      };
    }
    return out;
  }

  /** The detail page's media, by entry: an image without alternative text is named by its entry's label (and rank). */
  async showContext(recordId: number): Promise<Record<string, MediaShowContext>> {
    const current = await listMediaForEntity(this.entityName, recordId);
    const out: Record<string, MediaShowContext> = {};
    for (const entry of this.entries) {
      const items = current.filter((item) => item.role === entry.role);
      out[entry.name] = {
        label: entry.label,
        items: items.map((item, index) => ({
          id: item.id,
          url: item.url,
          thumbnail_url: item.isImage ? (item.thumbnailUrl ?? item.mediumUrl ?? item.url) : null,
          medium_url: item.isImage ? (item.mediumUrl ?? item.url) : null,
          name: itemName(item),
          alt: item.altText ?? (items.length > 1 ? `${entry.label} ${index + 1}` : entry.label),
          size: item.size === null ? '' : formatSize(item.size),
        })),
      };
    }
    return out;
  }

  /** The list's thumbnails by record id (its first image of `listImage`), read in one query for the page's ids. */
  async thumbnails(ids: readonly number[]): Promise<Record<string, MediaThumbnail>> {
    const image = this.listImage;
    if (!image || ids.length === 0) return {};
    const out: Record<string, MediaThumbnail> = {};
    for (const [key, item] of await getCoverMediaForEntities(this.entityName, ids, { role: image.role })) {
      const url = item.thumbnailUrl ?? item.mediumUrl ?? item.url;
      if (url) out[key] = { url, alt: item.altText ?? image.label };
    }
    return out;
  }

  /** After records are deleted: their media rows and files (variants included); the number of rows removed. */
  deleteFor(ids: readonly number[]): Promise<number> {
    return deleteMediaForEntities(this.entityName, ids);
  }
}
