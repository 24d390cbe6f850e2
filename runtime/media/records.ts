/**
 * Media records (docs/decisions.md#uploads-and-media; docs/uploads.md "Media records"):
 * rows of the `media` table linking stored files to application records, kept consistent with the disk: a row
 * that cannot be inserted removes its files, deleting a media removes its files then its row, and every change
 * asked for a record checks that the media belongs to it. Each function takes an optional last `db` (a Database,
 * a connection or a transaction); without it, the application's default database.
 */
import fs from 'node:fs';
import { getDatabase, type Queryable } from '../db/database.js';
import { DuplicateError } from '../db/errors.js';
import { formatUtcDateTime } from '../db/params.js';
import { HttpError } from '../http/errors.js';
import { contentTypeFor } from '../http/static.js';
import { mediaPathToStoragePath, normalizeMediaPath } from '../uploads/paths.js';
import { mediaUrl } from '../uploads/serve.js';
import { deleteMediaFile, deleteUpload, type SavedUpload } from '../uploads/storage.js';
import { isVariantSource, variantPaths } from '../uploads/variants.js';
import { MEDIA_LIMITS } from './schema.js';

/** A row of `media`, as the application sees it. */
export interface MediaRecord {
  id: number;
  entityName: string;
  entityId: string;
  /** Relative to the upload root, normalized (`images/photo_<hex>.jpg`). */
  path: string;
  originalName: string | null;
  mimeType: string | null;
  size: number | null;
  role: string;
  position: number;
  altText: string | null;
  /** UTC, `YYYY-MM-DD HH:MM:SS`. */
  createdAt: string;
}

/** A record with its URLs, for pages: `mediumUrl` and `thumbnailUrl` when the image has that variant on disk, else null. */
export interface MediaItem extends MediaRecord {
  /** `/media/<path>`; null only for a row whose stored path is unsafe (never served). */
  url: string | null;
  isImage: boolean;
  mediumUrl: string | null;
  thumbnailUrl: string | null;
}

/** An id of a linked record: a number or a text (any primary key), stored as text. */
export type EntityId = string | number | bigint;

export interface MediaRecordOptions {
  originalName?: string | null;
  mimeType?: string | null;
  size?: number | null;
  /** Free text; `cover` and `gallery` are the ones the helpers read. Default `default`. */
  role?: string;
  /** Display order; default 0. */
  position?: number;
  altText?: string | null;
}

/** A media id that is not one of the record's (a form sent another record's media, or a deleted one): 404. */
export class MediaNotAttachedError extends HttpError {
  constructor(
    readonly mediaIds: readonly unknown[],
    entityName: string,
    entityId: string,
  ) {
    super(404, `Média introuvable pour ${entityName} ${entityId} : ${mediaIds.map(String).join(', ')}.`, 'not_found');
    this.name = 'MediaNotAttachedError';
  }
}

/** The columns of a full row, in the order of MediaRow (internal to runtime/media). */
export const COLUMNS = 'id, entity_name, entity_id, path, original_name, mime_type, size, role, position, alt_text, created_at';

/** A row as the drivers return it (internal to runtime/media). */
export interface MediaRow {
  id: unknown;
  entity_name: string;
  entity_id: unknown;
  path: string;
  original_name: string | null;
  mime_type: string | null;
  size: unknown;
  role: string;
  position: unknown;
  alt_text: string | null;
  created_at: unknown;
}

export function mediaDb(db?: Queryable): Queryable {
  return db ?? getDatabase();
}

export function toRecord(row: MediaRow): MediaRecord {
  const created =
    row.created_at instanceof Date
      ? formatUtcDateTime(row.created_at)
      : String(row.created_at ?? '')
          .replace('T', ' ')
          .slice(0, 19);
  return {
    id: Number(row.id),
    entityName: row.entity_name,
    entityId: String(row.entity_id),
    path: row.path,
    originalName: row.original_name ?? null,
    mimeType: row.mime_type ?? null,
    size: row.size === null || row.size === undefined ? null : Number(row.size),
    role: row.role,
    position: Number(row.position),
    altText: row.alt_text ?? null,
    createdAt: created,
  };
}

export function checkText(name: string, value: unknown, max: number, allowEmpty = false): string {
  if (typeof value !== 'string' || (!allowEmpty && value.trim() === '') || value.length > max) {
    throw new TypeError(`${name} invalide (${JSON.stringify(value)}) : un texte${allowEmpty ? '' : ' non vide'} de ${max} caractères au plus est attendu.`);
  }
  return value;
}

/** The entity name and id as stored; spaces around either are refused (MariaDB would ignore trailing ones, SQLite not). */
export function checkEntity(entityName: string, entityId: EntityId): [string, string] {
  const name = checkEntityName(entityName);
  const id =
    typeof entityId === 'number' ? (Number.isSafeInteger(entityId) ? String(entityId) : '') : typeof entityId === 'bigint' ? entityId.toString() : entityId;
  checkText('Identifiant d’enregistrement', id, MEDIA_LIMITS.entityId);
  return [name, noOuterSpaces('Identifiant d’enregistrement', id)];
}

/** The entity name as stored (see checkEntity). */
export function checkEntityName(entityName: string): string {
  return noOuterSpaces('Nom d’entité', checkText('Nom d’entité', entityName, MEDIA_LIMITS.entityName));
}

function noOuterSpaces(label: string, value: string): string {
  if (value.trim() !== value) throw new TypeError(`${label} invalide (${JSON.stringify(value)}) : pas d'espace au début ni à la fin.`);
  return value;
}

function optionalText(name: string, value: unknown, max: number): string | null {
  if (value === undefined || value === null) return null;
  return checkText(name, value, max, true);
}

/** A display order: an integer that fits the column (INT). */
export function checkPosition(position: number): number {
  if (!Number.isSafeInteger(position) || Math.abs(position) > 2_147_483_647)
    throw new TypeError(`Position invalide (${String(position)}) : un entier est attendu.`);
  return position;
}

/** A media id from code or from a form (`"12"`): a positive integer, or null when it cannot be one. */
export function parseMediaId(value: unknown): number | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^[1-9][0-9]{0,15}$/.test(value.trim()) ? Number(value.trim()) : NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

/** The URLs of a record (see MediaItem). */
export function mediaItem(record: MediaRecord): MediaItem {
  let url: string;
  let variantSource: boolean;
  try {
    url = mediaUrl(record.path);
    variantSource = isVariantSource(normalizeMediaPath(record.path));
  } catch {
    return { ...record, url: null, isImage: false, mediumUrl: null, thumbnailUrl: null };
  }
  const isImage = variantSource || (record.mimeType ?? '').startsWith('image/');
  let mediumUrl: string | null = null;
  let thumbnailUrl: string | null = null;
  if (variantSource) {
    const paths = variantPaths(record.path);
    const exists = (p: string): boolean => {
      try {
        return fs.statSync(mediaPathToStoragePath(p)).isFile();
      } catch {
        return false;
      }
    };
    if (exists(paths.medium)) mediumUrl = mediaUrl(paths.medium);
    if (exists(paths.thumbnail)) thumbnailUrl = mediaUrl(paths.thumbnail);
  }
  return { ...record, url, isImage, mediumUrl, thumbnailUrl };
}

/**
 * `create_media_record(entity_name, entity_id, path, ...)`: inserts a row for a stored file (the path is
 * normalized first; role `default` and position 0 by default) and returns it. Creates no file and removes none.
 */
export async function createMediaRecord(
  entityName: string,
  entityId: EntityId,
  path: string,
  options: MediaRecordOptions = {},
  db?: Queryable,
): Promise<MediaRecord> {
  const [name, id] = checkEntity(entityName, entityId);
  const normalized = normalizeMediaPath(path);
  checkText('Chemin', normalized, MEDIA_LIMITS.path);
  const role = checkText('Rôle', options.role ?? 'default', MEDIA_LIMITS.role);
  const position = checkPosition(options.position ?? 0);
  const size = options.size ?? null;
  if (size !== null && (!Number.isSafeInteger(size) || size < 0))
    throw new TypeError(`Taille invalide (${String(size)}) : un nombre d'octets positif ou nul est attendu.`);
  const originalName = optionalText('Nom d’origine', options.originalName, MEDIA_LIMITS.originalName);
  const mimeType = optionalText('Type MIME', options.mimeType, MEDIA_LIMITS.mimeType);
  const altText = optionalText('Texte alternatif', options.altText, MEDIA_LIMITS.altText);
  const createdAt = formatUtcDateTime(new Date());
  const newId = await mediaDb(db).insert(
    'INSERT INTO media (entity_name, entity_id, path, original_name, mime_type, size, role, position, alt_text, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [name, id, normalized, originalName, mimeType, size, role, position, altText, createdAt],
  );
  return { id: newId, entityName: name, entityId: id, path: normalized, originalName, mimeType, size, role, position, altText, createdAt };
}

/**
 * `attach_media_to_entity(saved_upload, entity_name, entity_id, ...)`: the row of a SavedUpload (size from it,
 * MIME type guessed from its name unless given). When the row cannot be inserted, the upload's files (original
 * and variants) are removed before the error goes on: no file without its row. A path that another row already
 * holds (DuplicateError) keeps its files: they are that row's.
 */
export async function attachMediaToEntity(
  savedUpload: SavedUpload,
  entityName: string,
  entityId: EntityId,
  options: MediaRecordOptions = {},
  db?: Queryable,
): Promise<MediaRecord> {
  try {
    return await createMediaRecord(
      entityName,
      entityId,
      savedUpload.path,
      {
        originalName: options.originalName ?? savedUpload.filename,
        mimeType: options.mimeType ?? contentTypeFor(savedUpload.path).split(';')[0]!,
        size: options.size ?? savedUpload.size,
        role: options.role,
        position: options.position,
        altText: options.altText,
      },
      db,
    );
  } catch (err) {
    // A path already recorded belongs to that row: its files stay. Any other failure leaves no file without a row.
    if (!(err instanceof DuplicateError)) await deleteUpload(savedUpload).catch(() => {});
    throw err;
  }
}

/** `get_media_record(media_id)`: the row, or null (also for an id that is not a positive integer). */
export async function getMediaRecord(mediaId: number | string, db?: Queryable): Promise<MediaRecord | null> {
  const id = parseMediaId(mediaId);
  if (id === null) return null;
  const row = await mediaDb(db).fetchOne<MediaRow>(`SELECT ${COLUMNS} FROM media WHERE id = ?`, [id]);
  return row ? toRecord(row) : null;
}

/** `list_media_for_entity(entity_name, entity_id, role=None)`: the record's media (of one role when given), by position then id. */
export async function listMediaForEntity(entityName: string, entityId: EntityId, role?: string | null, db?: Queryable): Promise<MediaItem[]> {
  const [name, id] = checkEntity(entityName, entityId);
  const byRole = role !== undefined && role !== null;
  const rows = await mediaDb(db).fetchAll<MediaRow>(
    `SELECT ${COLUMNS} FROM media WHERE entity_name = ? AND entity_id = ?${byRole ? ' AND role = ?' : ''} ORDER BY position, id`,
    byRole ? [name, id, role] : [name, id],
  );
  return rows.map((row) => mediaItem(toRecord(row)));
}

/** True when the media exists and belongs to that record. */
export async function mediaBelongsTo(mediaId: number | string, entityName: string, entityId: EntityId, db?: Queryable): Promise<boolean> {
  const [name, id] = checkEntity(entityName, entityId);
  const mid = parseMediaId(mediaId);
  if (mid === null) return false;
  const row = await mediaDb(db).fetchOne('SELECT 1 AS found FROM media WHERE id = ? AND entity_name = ? AND entity_id = ?', [mid, name, id]);
  return row !== null;
}

/** `delete_media_record(media_id)`: removes the row only (its files stay); true when there was one. */
export async function deleteMediaRecord(mediaId: number | string, db?: Queryable): Promise<boolean> {
  const id = parseMediaId(mediaId);
  if (id === null) return false;
  return (await mediaDb(db).execute('DELETE FROM media WHERE id = ?', [id])) > 0;
}

export interface DeleteMediaOptions {
  /** Remove the files too (default false: the row only). */
  deleteFiles?: boolean;
  /** With deleteFiles, the medium and thumbnail too (default true; an absent variant is not an error). */
  variants?: boolean;
  /** When given (with entityId), the media must belong to this record, else MediaNotAttachedError and nothing is deleted. */
  entityName?: string;
  entityId?: EntityId;
}

/**
 * `delete_media(media_id, delete_files=False, variants=...)`: the files first (refused with UploadPathError when the
 * stored path is unsafe), then the row. False when there is no such media.
 */
export async function deleteMedia(mediaId: number | string, options: DeleteMediaOptions = {}, db?: Queryable): Promise<boolean> {
  const owner = options.entityName !== undefined || options.entityId !== undefined ? checkEntity(options.entityName!, options.entityId!) : null;
  const record = await getMediaRecord(mediaId, db);
  if (owner && (!record || record.entityName !== owner[0] || record.entityId !== owner[1])) throw new MediaNotAttachedError([mediaId], owner[0], owner[1]);
  if (!record) return false;
  if (options.deleteFiles === true) {
    // Checked before anything is removed: a row pointing outside the upload root deletes nothing.
    normalizeMediaPath(record.path);
    mediaPathToStoragePath(record.path);
    await deleteMediaFile(record.path, { variants: options.variants !== false });
  }
  const where = owner ? 'id = ? AND entity_name = ? AND entity_id = ?' : 'id = ?';
  return (await mediaDb(db).execute(`DELETE FROM media WHERE ${where}`, owner ? [record.id, ...owner] : [record.id])) > 0;
}

/**
 * Every media of a record, files (with variants) then rows; returns how many rows were removed. For a record being
 * deleted: delete the record first, then its media (a failure then leaves files without a record, never a record
 * without its files).
 */
export async function deleteMediaForEntity(entityName: string, entityId: EntityId, db?: Queryable): Promise<number> {
  const [name, id] = checkEntity(entityName, entityId);
  const rows = await mediaDb(db).fetchAll<MediaRow>(`SELECT ${COLUMNS} FROM media WHERE entity_name = ? AND entity_id = ? ORDER BY id`, [name, id]);
  let removed = 0;
  for (const row of rows) {
    if (await deleteMedia(Number(row.id), { deleteFiles: true, variants: true, entityName: name, entityId: id }, db)) removed++;
  }
  return removed;
}

/** deleteMediaForEntity for several records (a bulk delete); returns the rows removed in all. */
export async function deleteMediaForEntities(entityName: string, entityIds: readonly EntityId[], db?: Queryable): Promise<number> {
  let removed = 0;
  for (const entityId of entityIds) removed += await deleteMediaForEntity(entityName, entityId, db);
  return removed;
}

/** `get_media_gallery(entity_name, entity_id)`: the media of role `gallery`, by position then id, with their URLs. */
export function getMediaGallery(entityName: string, entityId: EntityId, db?: Queryable): Promise<MediaItem[]> {
  return listMediaForEntity(entityName, entityId, 'gallery', db);
}

/**
 * `get_cover_media(entity_name, entity_id, fallback_to_gallery=False)`: the first media of role `cover`; without
 * one, the first of the gallery when `fallbackToGallery`; else null.
 */
export async function getCoverMedia(
  entityName: string,
  entityId: EntityId,
  options: { fallbackToGallery?: boolean } = {},
  db?: Queryable,
): Promise<MediaItem | null> {
  const cover = await listMediaForEntity(entityName, entityId, 'cover', db);
  if (cover.length > 0) return cover[0]!;
  if (options.fallbackToGallery !== true) return null;
  return (await getMediaGallery(entityName, entityId, db))[0] ?? null;
}
