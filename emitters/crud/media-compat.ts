/**
 * `mvc/models/crud_media.ts` of projects made before fw-mvc/media held the media of the CRUD pages (docs/upgrading.md
 * "Media pages (crud_media.ts)"). Such a project's controllers and models (the user's files) import
 * `MediaSubmission` from it: when the file is still there, `fw sync:entity`, `fw build:model` and `fw make:crud`
 * rewrite it as a re-export of fw-mvc/media, so that these imports and the regenerated `<snake>_media.ts` name the
 * same classes. A project without it gets none.
 */
import { tsMarkerLine } from '../marker.js';

/** Its marker names the command that rewrites every entity's CRUD files, since the file is shared. */
export const CRUD_MEDIA_COMMAND = 'fw build:model';
export const CRUD_MEDIA_PATH = 'mvc/models/crud_media.ts';

/** The re-export that replaces the media code an older `fw make:crud --media` copied into the project. */
export function emitCrudMediaReexport(): string {
  return `${tsMarkerLine(CRUD_MEDIA_COMMAND)}
// The media of the CRUD pages now live in fw-mvc/media (MediaPages, MediaSubmission and their types). This file only
// keeps the imports of files made before that working: once no file imports './crud_media.js' (import from
// 'fw-mvc/media' instead), delete it; no command writes it again.
export {
  MediaPages,
  MediaSubmission,
  type MediaEntry,
  type MediaFieldContext,
  type MediaFormItem,
  type MediaShowContext,
  type MediaShowItem,
  type MediaThumbnail,
} from 'fw-mvc/media';
`;
}
