/**
 * Changes to the media of one record, every media id checked against it (docs/uploads.md "Media records"): the rows
 * removed in a transaction with their files removed once it committed, the alternative text and position of one media,
 * the order of them all. An id that is not one of the record's media refuses the whole change (MediaNotAttachedError,
 * 404): nothing is changed, no file is touched.
 */
import { Connection, getDatabase, type Database, type Queryable, type Transaction } from '../db/database.js';
import { getLogger } from '../logger.js';
import { deleteMediaFile } from '../uploads/storage.js';
import { MEDIA_LIMITS } from './schema.js';
import {
  COLUMNS,
  MediaNotAttachedError,
  checkEntity,
  checkPosition,
  checkText,
  mediaDb,
  parseMediaId,
  toRecord,
  type EntityId,
  type MediaRecord,
  type MediaRow,
} from './records.js';

const log = getLogger('fw.media');

/** The rows `deleteOwnedMediaRows` removed; their files stay until `removeFiles()`, to call once the transaction committed. */
export interface MediaRemoval {
  /** The rows removed, as they were. */
  readonly records: readonly MediaRecord[];
  /**
   * Removes their files, variants included (an absent file is not an error). A file that cannot be removed (a
   * stored path outside the upload root, a disk error) is logged and named in the result: the rows are gone already.
   * A second call removes nothing.
   */
  removeFiles(): Promise<string[]>;
}

/** `mediaIds` as numbers, each one of the record's media, else MediaNotAttachedError naming the others. */
async function ownedRows(name: string, id: string, mediaIds: ReadonlyArray<number | string>, db: Queryable): Promise<MediaRow[]> {
  const ids = mediaIds.map(parseMediaId);
  const valid = [...new Set(ids.filter((v): v is number => v !== null))];
  const rows =
    valid.length === 0
      ? []
      : await db.fetchAll<MediaRow>(
          `SELECT ${COLUMNS} FROM media WHERE entity_name = ? AND entity_id = ? AND id IN (${valid.map(() => '?').join(', ')}) ORDER BY id`,
          [name, id, ...valid],
        );
  const owned = new Set(rows.map((row) => Number(row.id)));
  const foreign = mediaIds.filter((_, i) => ids[i] === null || !owned.has(ids[i]!));
  if (foreign.length > 0) throw new MediaNotAttachedError(foreign, name, id);
  return rows;
}

/**
 * Removes the rows of `mediaIds`, every one of them the record's (else MediaNotAttachedError and nothing removed), in
 * the transaction `tx`; their files stay until `removeFiles()` of the result, to call once `tx` committed (after a
 * rollback, call nothing: the rows are back and their files were never touched). A row another request removed in
 * the meantime is left out of the result, so its files are that request's to remove. Ids may be text (a form's).
 */
export async function deleteOwnedMediaRows(
  entityName: string,
  entityId: EntityId,
  mediaIds: ReadonlyArray<number | string>,
  tx?: Transaction,
): Promise<MediaRemoval> {
  const [name, id] = checkEntity(entityName, entityId);
  const db = mediaDb(tx);
  const rows = await ownedRows(name, id, mediaIds, db);
  const records: MediaRecord[] = [];
  for (const row of rows) {
    if ((await db.execute('DELETE FROM media WHERE id = ? AND entity_name = ? AND entity_id = ?', [row.id, name, id])) > 0) records.push(toRecord(row));
  }
  let pending = [...records];
  return {
    records,
    async removeFiles(): Promise<string[]> {
      const failed: string[] = [];
      for (const record of pending) {
        try {
          await deleteMediaFile(record.path, { variants: true });
        } catch (err) {
          log.error('fichier de média non supprimé', { path: record.path, error: (err as Error).message });
          failed.push(record.path);
        }
      }
      pending = [];
      return failed;
    },
  };
}

/**
 * deleteOwnedMediaRows in a transaction of its own, then the files once it committed; returns the rows removed.
 * Inside another transaction it would remove files before that one commits: use deleteOwnedMediaRows(…, tx) there
 * (a TypeError says so).
 */
export async function deleteOwnedMedia(
  entityName: string,
  entityId: EntityId,
  mediaIds: ReadonlyArray<number | string>,
  db: Database | Connection = getDatabase(),
): Promise<MediaRecord[]> {
  checkEntity(entityName, entityId);
  const run = (connection: Connection): Promise<MediaRemoval> => {
    if (connection.inTransaction) {
      throw new TypeError(
        'deleteOwnedMedia dans une transaction : ses fichiers seraient supprimés avant le COMMIT. Utilisez deleteOwnedMediaRows(…, tx), puis removeFiles() une fois la transaction validée.',
      );
    }
    return connection.transaction((tx) => deleteOwnedMediaRows(entityName, entityId, mediaIds, tx));
  };
  const removal = db instanceof Connection ? await run(db) : await db.withConnection(run);
  await removal.removeFiles();
  return [...removal.records];
}

/** What `updateOwnedMedia` may change; a key left out keeps its value. */
export interface OwnedMediaChanges {
  /** Display order (an integer). */
  position?: number;
  /** Trimmed; empty or null clears it. */
  altText?: string | null;
}

/** Changes one of the record's media (position, alternative text); MediaNotAttachedError when it is not one, nothing changed. */
export async function updateOwnedMedia(
  entityName: string,
  entityId: EntityId,
  mediaId: number | string,
  changes: OwnedMediaChanges,
  db?: Queryable,
): Promise<void> {
  const [name, id] = checkEntity(entityName, entityId);
  const sets: string[] = [];
  const values: unknown[] = [];
  if (changes.position !== undefined) {
    sets.push('position = ?');
    values.push(checkPosition(changes.position));
  }
  if (changes.altText !== undefined) {
    const text = changes.altText === null || changes.altText.trim() === '' ? null : checkText('Texte alternatif', changes.altText.trim(), MEDIA_LIMITS.altText);
    sets.push('alt_text = ?');
    values.push(text);
  }
  const mid = parseMediaId(mediaId);
  let found = false;
  if (mid !== null && sets.length > 0) {
    // The number of rows matched (not changed) on both dialects: an unchanged value still counts as found.
    found =
      (await mediaDb(db).execute(`UPDATE media SET ${sets.join(', ')} WHERE id = ? AND entity_name = ? AND entity_id = ?`, [...values, mid, name, id])) > 0;
  } else if (mid !== null) {
    found = (await mediaDb(db).fetchOne('SELECT 1 AS found FROM media WHERE id = ? AND entity_name = ? AND entity_id = ?', [mid, name, id])) !== null;
  }
  if (!found) throw new MediaNotAttachedError([mediaId], name, id);
}

/** Sets the alternative text of one of the record's media (empty or null clears it); MediaNotAttachedError when it is not one. */
export function updateMediaAltText(entityName: string, entityId: EntityId, mediaId: number | string, altText: string | null, db?: Queryable): Promise<void> {
  return updateOwnedMedia(entityName, entityId, mediaId, { altText }, db);
}

/**
 * Sets `position` to 0, 1, 2… in the order of `mediaIds` (ids from a form accepted as text). Every id must belong
 * to the record, else MediaNotAttachedError naming the others and nothing is changed.
 */
export async function updateMediaOrder(entityName: string, entityId: EntityId, mediaIds: ReadonlyArray<number | string>, db?: Queryable): Promise<void> {
  const [name, id] = checkEntity(entityName, entityId);
  if (mediaIds.length === 0) return;
  await ownedRows(name, id, mediaIds, mediaDb(db));
  const ids = mediaIds.map((value) => parseMediaId(value)!);
  if (new Set(ids).size !== ids.length) throw new MediaNotAttachedError(mediaIds, name, id);
  for (const [position, mid] of ids.entries()) {
    await mediaDb(db).execute('UPDATE media SET position = ? WHERE id = ? AND entity_name = ? AND entity_id = ?', [position, mid, name, id]);
  }
}
