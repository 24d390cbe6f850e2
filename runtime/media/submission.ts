/**
 * What a form of the pages of `fw make:crud <Entity> --media` sent for the media of a record (docs/crud.md "Media"),
 * read and checked by `MediaPages.read` (pages.ts), then stored with the record's transaction, completed once it
 * committed, or undone when it failed.
 */
import type { Transaction } from '../db/database.js';
import { getLogger } from '../logger.js';
import { UploadError, UploadStorageUnavailableError } from '../uploads/errors.js';
import { deleteUpload, saveUpload } from '../uploads/storage.js';
import { deleteOwnedMediaRows, updateOwnedMedia, type MediaRemoval } from './owned.js';
import { baseName, type MediaEntry, type MediaOwner, type NewMediaFile } from './page-types.js';
import { attachMediaToEntity, type MediaItem } from './records.js';

const log = getLogger('crud.media');

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
  readonly files: NewMediaFile[] = [];
  /**
   * The status of the form sent back when `store` returned false: 422 (a file refused), 507 (the upload folder full
   * or read-only: the form comes back with what was typed, docs/uploads.md "Errors").
   */
  failureStatus: 422 | 507 = 422;
  /** The rows removed by `apply`, whose files `finish` deletes once the transaction committed. */
  private readonly removals: MediaRemoval[] = [];

  /** `pages`: the `MediaPages` that read it; `current`: the record's media when it was read (none for a new record). */
  constructor(
    readonly pages: MediaOwner,
    readonly current: readonly MediaItem[],
  ) {}

  get isValid(): boolean {
    return this.refusal === null && Object.keys(this.errors).length === 0;
  }

  addError(entry: MediaEntry, message: string): void {
    (this.errors[entry.name] ??= []).push(message);
  }

  /**
   * Stores the new files (after every check passed). A file that cannot be stored (an image sharp cannot read, the
   * upload folder full or read-only: `failureStatus` 507) puts its message on its entry and returns false, with every
   * file of this submission removed; any other failure too.
   */
  async store(): Promise<boolean> {
    for (const item of this.files) {
      try {
        item.stored = await saveUpload(item.file, { category: item.entry.kind === 'image' ? 'images' : 'documents', variants: item.entry.variants === true });
      } catch (err) {
        await this.discard();
        if (err instanceof UploadStorageUnavailableError) {
          log.error(`Dépôt de « ${item.file.filename} » impossible, formulaire renvoyé (507) : ${err.detail}`);
          this.failureStatus = 507;
        } else if (!(err instanceof UploadError) || err.status >= 500) {
          throw err;
        }
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
   * the rows of the stored files after them. Every change is checked against the record (owned.ts): another record's
   * media is never reached.
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
        const record = await attachMediaToEntity(file.stored, name, recordId, options, tx);
        // Its variants made by a job, which exists if and only if this transaction commits (docs/uploads.md "Variants made by a job").
        if (entry.variants === 'job' && entry.kind === 'image') await this.pages.variantsJob!.enqueue({ mediaId: record.id }, { tx });
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

  /** Once the transaction committed: removes the files of the rows `apply` removed (a failure is logged by owned.ts; the rows are gone). */
  async finish(): Promise<void> {
    for (const removal of this.removals.splice(0)) await removal.removeFiles();
  }
}
