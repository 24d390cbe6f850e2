/**
 * `fw-mvc/media`: the `media` table and its records (docs/uploads.md "Media records"). Files are stored by the
 * upload chain of `fw-mvc` (saveUpload); this module links them to application records and keeps rows and files
 * consistent. It also holds the media of the pages of `fw make:crud --media` (`MediaPages`, `MediaSubmission`,
 * docs/crud.md "Media"), which each entity's generated `<snake>_media.ts` uses. The job that makes image variants
 * after the upload is `fw-mvc/media/jobs` (jobs.ts), apart so that only the projects that use it load `fw-mvc/jobs`.
 */
export {
  createMediaRecord,
  attachMediaToEntity,
  getMediaRecord,
  listMediaForEntity,
  deleteMediaRecord,
  deleteMedia,
  getMediaGallery,
  getCoverMedia,
  deleteMediaForEntity,
  deleteMediaForEntities,
  mediaBelongsTo,
  mediaItem,
  parseMediaId,
  MediaNotAttachedError,
  type MediaRecord,
  type MediaItem,
  type MediaRecordOptions,
  type DeleteMediaOptions,
  type EntityId,
} from './records.js';
export { listMediaForEntities, getCoverMediaForEntities, type CoverMediaOptions } from './lists.js';
export {
  deleteOwnedMediaRows,
  deleteOwnedMedia,
  updateOwnedMedia,
  updateMediaOrder,
  updateMediaAltText,
  type MediaRemoval,
  type OwnedMediaChanges,
} from './owned.js';
export { MEDIA_TABLE, MEDIA_TABLE_PURPOSE, MEDIA_LIMITS, mediaTableSql, mediaTableStatements } from './schema.js';
export { registerMediaReadRule, recordReadRule, mayReadMedia, type MediaReadRule, type RecordReadAccess, type RecordTable } from './access.js';
export { MediaPages } from './pages.js';
export { MediaSubmission } from './submission.js';
export {
  type MediaEntry,
  type MediaFormItem,
  type MediaFieldContext,
  type MediaShowItem,
  type MediaShowContext,
  type MediaThumbnail,
  type MediaOwner,
  type MediaVariantsJob,
  type NewMediaFile,
} from './page-types.js';
