/**
 * The files of an entity's CRUD pages (manual and regenerable) and its plan, without the routes edit: sync:entity,
 * sync:relations and build:model import this module, which does not load ts-morph (docs/crud.md).
 */
import type { ModelNode } from '../../compiler/ir.js';
import type { PlannedFile } from '../planned-file.js';
import { emitCrudDescription } from './description.js';
export { descriptionNames } from './description.js';
import { emitCrudFormFields } from './form.js';
import { manualCrudFiles, type CrudStubs } from './manual.js';
import { CRUD_MEDIA_PATH, emitCrudMediaReexport } from './media-compat.js';
import { emitMediaFieldsView, emitMediaModule, emitMediaShowView } from './media-views.js';
import { crudPlan, type CrudPlan } from './plan.js';
import { emitFiltersView, emitListCellsView, emitListHeadView } from './views-list.js';
import { emitFieldsView } from './views-record.js';
import { emitAppLayout } from './app-layout.js';

export interface CrudOptions {
  /** `--public`: the routes need no login (CSRF stays on). */
  readonly isPublic?: boolean;
  /** `--media` (or a media module already there): the pages handle the entity's media entries. */
  readonly media?: boolean;
}

/** What the project holds that changes the regenerable files. */
export interface CrudProjectState {
  /** `mvc/models/crud_media.ts` is there (made before fw-mvc/media held the media pages): it is rewritten as a re-export. */
  readonly legacyCrudMedia?: boolean;
  /**
   * A file of the project imports the crud module's older names (`import * as crud`, a controller or a model of an
   * older make:crud): the description exports them too (docs/upgrading.md "The CRUD in the runtime").
   */
  readonly legacyCrudNames?: boolean;
}

/** The regenerable files of the entity's CRUD pages: what derives from the entity file. */
export function crudRegenerableFiles(plan: CrudPlan, state: CrudProjectState = {}): PlannedFile[] {
  const snake = plan.entity.snake;
  const views = `mvc/views/${plan.viewDir}`;
  const regenerable = (path: string, content: string): PlannedFile => ({ path, content, kind: 'regenerable' });
  return [
    regenerable(crudModulePath(snake), emitCrudDescription(plan, { legacyNames: state.legacyCrudNames === true })),
    regenerable(`mvc/forms/${snake}_fields.ts`, emitCrudFormFields(plan)),
    regenerable(`${views}/_fields.html`, emitFieldsView(plan)),
    regenerable(`${views}/_filters.html`, emitFiltersView(plan)),
    regenerable(`${views}/_list_head.html`, emitListHeadView(plan)),
    regenerable(`${views}/_list_cells.html`, emitListCellsView(plan)),
    ...(plan.media
      ? [
          regenerable(mediaModulePath(snake), emitMediaModule(plan)),
          ...(state.legacyCrudMedia ? [regenerable(CRUD_MEDIA_PATH, emitCrudMediaReexport())] : []),
          regenerable(`${views}/_media_fields.html`, emitMediaFieldsView(plan)),
          regenerable(`${views}/_media_show.html`, emitMediaShowView(plan)),
        ]
      : []),
  ];
}

/** Where the media module of an entity lives: its presence tells sync:entity and build:model that the pages handle media. */
export function mediaModulePath(entitySnake: string): string {
  return `mvc/models/${entitySnake}_media.ts`;
}

/** Where projects made before fw-mvc/media held the media pages keep their copy of them (media-compat.ts). */
export { CRUD_MEDIA_PATH };

/** Where the crud module of an entity lives: its presence tells sync:entity and build:model that the CRUD exists (cli/generate.ts). */
export function crudModulePath(entitySnake: string): string {
  return `mvc/models/${entitySnake}_crud.ts`;
}

/**
 * The controller, model, form, layout and views of the entity's CRUD pages (manual, from `stubs`, which the command
 * reads: cli/stubs.ts), then the regenerable files.
 */
export function crudFiles(plan: CrudPlan, stubs: CrudStubs, state: CrudProjectState = {}): PlannedFile[] {
  const [controller, model, form, ...views] = manualCrudFiles(plan, stubs);
  return [
    controller!,
    model!,
    form!,
    { path: 'mvc/views/layouts/app.html', content: emitAppLayout(), kind: 'manual' },
    ...views,
    ...crudRegenerableFiles(plan, state),
  ];
}

/** The plan of `fw make:crud <Entity>` for a compiled model. */
export function planCrud(model: ModelNode, entity: string, options: CrudOptions = {}): CrudPlan {
  return crudPlan(model, entity, { isPublic: options.isPublic === true, media: options.media === true });
}
