/**
 * The media of many records at once (docs/uploads.md "Media records"): a list page reads its thumbnails in one query
 * for the page's ids, not one per row.
 */
import type { Queryable } from '../db/database.js';
import { MEDIA_LIMITS } from './schema.js';
import { COLUMNS, checkEntity, checkEntityName, checkText, mediaDb, mediaItem, toRecord, type EntityId, type MediaItem, type MediaRow } from './records.js';

/** Ids per query: far below the placeholder limits of both dialects; a list page fits in one. */
const IDS_PER_QUERY = 1000;

/** The entity name and the ids as stored (text), without repeats, in chunks of IDS_PER_QUERY. */
function entityChunks(entityName: string, entityIds: readonly EntityId[]): { name: string; ids: string[]; chunks: string[][] } {
  const name = checkEntityName(entityName);
  const ids = [...new Set(entityIds.map((entityId) => checkEntity(name, entityId)[1]))];
  const chunks: string[][] = [];
  for (let i = 0; i < ids.length; i += IDS_PER_QUERY) chunks.push(ids.slice(i, i + IDS_PER_QUERY));
  return { name, ids, chunks };
}

const marks = (count: number): string => Array.from({ length: count }, () => '?').join(', ');

/**
 * listMediaForEntity for many records, in one query: every id given is a key (its id as stored, text: `'7'`) of
 * the result, its media (of one role when given) by position then id; an empty list when it has none.
 */
export async function listMediaForEntities(
  entityName: string,
  entityIds: readonly EntityId[],
  role?: string | null,
  db?: Queryable,
): Promise<Map<string, MediaItem[]>> {
  const { name, ids, chunks } = entityChunks(entityName, entityIds);
  const byRole = role !== undefined && role !== null;
  const out = new Map(ids.map((id): [string, MediaItem[]] => [id, []]));
  for (const chunk of chunks) {
    const rows = await mediaDb(db).fetchAll<MediaRow>(
      `SELECT ${COLUMNS} FROM media WHERE entity_name = ?${byRole ? ' AND role = ?' : ''} AND entity_id IN (${marks(chunk.length)}) ORDER BY position, id`,
      byRole ? [name, role, ...chunk] : [name, ...chunk],
    );
    for (const row of rows) out.get(String(row.entity_id))?.push(mediaItem(toRecord(row)));
  }
  return out;
}

export interface CoverMediaOptions {
  /** The role of the covers (default `cover`): a list's image entry names its own. */
  role?: string;
  /** Without a cover, the first media of role `gallery` (as getCoverMedia). */
  fallbackToGallery?: boolean;
}

/**
 * getCoverMedia for many records, in one query (a list's thumbnails): the first media of `role` of each record, by
 * position then id; without one, the first of its gallery when `fallbackToGallery`. Keys are the ids as stored
 * (text); a record without a cover has no key. Only the rows shown are read (a window function, not every gallery).
 */
export async function getCoverMediaForEntities(
  entityName: string,
  entityIds: readonly EntityId[],
  options: CoverMediaOptions = {},
  db?: Queryable,
): Promise<Map<string, MediaItem>> {
  const { name, chunks } = entityChunks(entityName, entityIds);
  const role = checkText('Rôle', options.role ?? 'cover', MEDIA_LIMITS.role);
  const roles = options.fallbackToGallery === true && role !== 'gallery' ? [role, 'gallery'] : [role];
  const out = new Map<string, MediaItem>();
  for (const chunk of chunks) {
    const rows = await mediaDb(db).fetchAll<MediaRow>(
      `SELECT ${COLUMNS} FROM (SELECT ${COLUMNS}, ROW_NUMBER() OVER (PARTITION BY entity_id ORDER BY CASE WHEN role = ? THEN 0 ELSE 1 END, position, id) AS media_rank` +
        ` FROM media WHERE entity_name = ? AND role IN (${marks(roles.length)}) AND entity_id IN (${marks(chunk.length)})) ranked WHERE media_rank = 1 ORDER BY id`,
      [role, name, ...roles, ...chunk],
    );
    for (const row of rows) out.set(String(row.entity_id), mediaItem(toRecord(row)));
  }
  return out;
}
