/** The upload chain, image variants, the upload limit and the media route (docs/uploads.md), exported by `fw-mvc`. */
export {
  UploadError,
  UploadTooLargeError,
  UploadInvalidExtensionError,
  UploadInvalidMimeTypeError,
  UploadStorageError,
  UploadStorageUnavailableError,
  UploadPathError,
  UploadInvalidImageError,
  UploadTooManyPixelsError,
} from './errors.js';
export {
  uploadRoot,
  safeCategory,
  normalizeMediaPath,
  secureFilename,
  generateUniqueFilename,
  mediaPathToStoragePath,
  getUploadPath,
  categoryDir,
  ensureUploadDirs,
  UPLOAD_DIRS,
  CATEGORY_MAX_LENGTH,
} from './paths.js';
export {
  validateUploadMetadata,
  saveBytes,
  saveUpload,
  deleteFile,
  deleteMediaFile,
  deleteUpload,
  normalizeMimeType,
  type SavedUpload,
  type SaveUploadOptions,
  type UploadMetadata,
} from './storage.js';
export {
  generateImageVariants,
  variantPaths,
  isVariantSource,
  VARIANT_NAMES,
  VARIANT_SIZES,
  VARIANT_EXTENSIONS,
  VARIANT_MAX_INPUT_PIXELS,
  type VariantName,
} from './variants.js';
export {
  isUploadRateLimited,
  recordUploadAttempt,
  uploadLimitStatus,
  guardUpload,
  hasUploadedFile,
  UPLOAD_MAX_PER_WINDOW,
  UPLOAD_RATE_LIMIT_WINDOW,
  UPLOAD_ACTION,
} from './rate-limit.js';
export { stripImageMetadata, REENCODE_QUALITY } from './originals.js';
export { IMAGE_PROCESS_IDLE_MS } from './image-jobs.js';
export { serveMediaFile, mediaUrl, mediaPathFromUrl, isPublicMediaCategory, MEDIA_PREFIX, type ServeMediaOptions } from './serve.js';
