/**
 * `MediaPages`: the media entries of an entity and what the pages of `fw make:crud <Entity> --media` do with them
 * (docs/crud.md "Media"): read what a form sends (a `MediaSubmission`, submission.ts), the form, detail and list
 * contexts, the upload limit, the deletion of a record's media. Each entity's generated `<snake>_media.ts` makes one.
 */
import { get } from '../config.js';
import { FormValidationError } from '../forms/errors.js';
import { FileField, ImageField } from '../forms/fields-file.js';
import { formatSize } from '../forms/messages.js';
import type { Request, UploadedFile } from '../http/request.js';
import type { Response } from '../http/response.js';
import { trans } from '../translations.js';
import { UploadError } from '../uploads/errors.js';
import { guardUpload } from '../uploads/rate-limit.js';
import { validateUploadMetadata } from '../uploads/storage.js';
import { recordReadRule, registerMediaReadRule, type RecordReadAccess } from './access.js';
import { getCoverMediaForEntities } from './lists.js';
import {
  baseName,
  itemName,
  thumbnailUrl,
  type MediaEntry,
  type MediaFieldContext,
  type MediaShowContext,
  type MediaThumbnail,
  type MediaVariantsJob,
} from './page-types.js';
import { deleteMediaForEntities, listMediaForEntity } from './records.js';
import { MEDIA_LIMITS } from './schema.js';
import { MediaSubmission } from './submission.js';

const MEDIA_ID = /^[1-9][0-9]{0,15}$/;
const POSITION = /^-?[0-9]{1,9}$/;

/** The media entries of an entity and what its pages do with them. */
export class MediaPages {
  /** The image of the list's thumbnail column: the first image entry without `multiple`, or null. */
  readonly listImage: MediaEntry | null;
  /** The job that makes the variants of the entries with `variants: 'job'` (null when none has it). */
  readonly variantsJob: MediaVariantsJob | null;
  private readonly fields: ReadonlyMap<string, FileField<false>>;

  /**
   * `read`: who may read a record's detail page; its files in private categories (documents…) at /media follow the
   * same rule, checked on every request (docs/uploads.md "Who may read a private file"). `variantsJob`: the job of
   * the entries whose variants are made after the upload (`MEDIA_VARIANTS_JOB` of `fw-mvc/media/jobs`), required
   * when an entry has `variants: 'job'` (docs/uploads.md "Variants made by a job").
   */
  constructor(
    readonly entityName: string,
    readonly entries: readonly MediaEntry[],
    read?: RecordReadAccess & { readonly variantsJob?: MediaVariantsJob },
  ) {
    const byJob = entries.filter((entry) => entry.variants === 'job');
    for (const entry of byJob) {
      if (entry.kind !== 'image') throw new TypeError(`MediaPages ${entityName} : « ${entry.name} » n'est pas une image, il n'a pas de variantes.`);
    }
    this.variantsJob = read?.variantsJob ?? null;
    if (byJob.length > 0 && !this.variantsJob)
      throw new TypeError(
        `MediaPages ${entityName} : « ${byJob[0]!.name} » a ses variantes faites par une tâche : passez variantsJob: MEDIA_VARIANTS_JOB (fw-mvc/media/jobs).`,
      );
    if (read) registerMediaReadRule(entityName, recordReadRule(read), 'pages');
    this.listImage = entries.find((entry) => entry.kind === 'image' && !entry.multiple) ?? null;
    this.fields = new Map(
      entries.map((entry) => [
        entry.name,
        entry.kind === 'image' ? new ImageField<false>({ label: entry.label, required: false }) : new FileField<false>({ label: entry.label, required: false }),
      ]),
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
        accept: String(field.attrs().accept ?? ''),
        hint: entry.multiple ? trans('media.hint_each', limits) : trans('media.hint', limits),
        errors: sent?.errors[entry.name] ?? [],
        again: sent ? sent.files.filter((file) => file.entry === entry && !file.refused).map((file) => baseName(file.file.filename)) : [],
        alt: typed(`${entry.name}.alt`, ''),
        items: current
          .filter((item) => item.role === entry.role)
          .map((item) => ({
            id: item.id,
            url: item.url,
            thumbnail_url: thumbnailUrl(item),
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
          thumbnail_url: thumbnailUrl(item),
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
