/**
 * The files of an entity's CRUD pages (manual and regenerable) and its plan, without the routes edit: sync:entity,
 * sync:relations and build:model import this module, which does not load ts-morph (docs/crud.md).
 */
import type { ModelNode } from '../../compiler/ir.js';
import type { PlannedFile } from '../planned-file.js';
import { emitCrudController } from './controller.js';
import { emitCrudModule } from './crud-module.js';
import { emitCrudForm, emitCrudFormFields } from './form.js';
import { CRUD_MEDIA_PATH, emitCrudMediaReexport } from './media-compat.js';
import { emitMediaFieldsView, emitMediaModule, emitMediaShowView } from './media-views.js';
import { emitCrudModel } from './model.js';
import { crudPlan, type CrudPlan } from './plan.js';
import { emitFiltersView, emitIndexView, emitListCellsView, emitListHeadView, emitPaginationView, emitResultsView, emitTableView } from './views-list.js';
import { emitAppLayout, emitBulkDeleteView, emitFieldsView, emitFormView, emitShowView } from './views-record.js';

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
}

/** The regenerable files of the entity's CRUD pages: what derives from the entity file. */
export function crudRegenerableFiles(plan: CrudPlan, state: CrudProjectState = {}): PlannedFile[] {
  const snake = plan.entity.snake;
  const views = `mvc/views/${plan.viewDir}`;
  const regenerable = (path: string, content: string): PlannedFile => ({ path, content, kind: 'regenerable' });
  return [
    regenerable(crudModulePath(snake), emitCrudModule(plan)),
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

/** The controller, model, form, layout and views of the entity's CRUD pages (manual), then the regenerable files. */
export function crudFiles(plan: CrudPlan, state: CrudProjectState = {}): PlannedFile[] {
  const snake = plan.entity.snake;
  const views = `mvc/views/${plan.viewDir}`;
  const manual = (path: string, content: string): PlannedFile => ({ path, content, kind: 'manual' });
  return [
    manual(`mvc/controllers/${snake}_controller.ts`, emitCrudController(plan)),
    manual(`mvc/models/${snake}_model.ts`, emitCrudModel(plan)),
    manual(`mvc/forms/${snake}_form.ts`, emitCrudForm(plan)),
    manual('mvc/views/layouts/app.html', emitAppLayout()),
    manual(`${views}/index.html`, emitIndexView(plan)),
    manual(`${views}/show.html`, emitShowView(plan)),
    manual(`${views}/form.html`, emitFormView(plan)),
    manual(`${views}/_table.html`, emitTableView(plan)),
    manual(`${views}/_pagination.html`, emitPaginationView(plan)),
    manual(`${views}/_results.html`, emitResultsView(plan)),
    manual(`${views}/bulk_delete.html`, emitBulkDeleteView(plan)),
    ...crudRegenerableFiles(plan, state),
  ];
}

/** The plan of `fw make:crud <Entity>` for a compiled model. */
export function planCrud(model: ModelNode, entity: string, options: CrudOptions = {}): CrudPlan {
  return crudPlan(model, entity, { isPublic: options.isPublic === true, media: options.media === true });
}
