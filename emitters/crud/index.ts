/**
 * `fw make:crud`: the files of an entity's CRUD pages and the routes to add to `mvc/routes.ts` (spec "Generated files
 * per entity", "Generated CRUD routes"). Controller, model, form class and views are manual (created when absent,
 * never overwritten); what derives from the entity (form fields, list / CSV / detail columns, filters, the form's
 * fields partial) is regenerable, rewritten by make:crud, sync:entity and build:model (docs/crud.md).
 */
import type { ModelNode } from '../../compiler/ir.js';
import type { PlannedFile } from '../planned-file.js';
import { emitCrudController } from './controller.js';
import { emitCrudModule } from './crud-module.js';
import { emitCrudForm, emitCrudFormFields } from './form.js';
import { emitCrudModel } from './model.js';
import { crudPlan, type CrudPlan } from './plan.js';
import type { ImportToAdd, RouteToAdd } from './routes-edit.js';
import { emitFiltersView, emitIndexView, emitListCellsView, emitListHeadView, emitPaginationView, emitResultsView, emitTableView } from './views-list.js';
import { emitAppLayout, emitBulkDeleteView, emitFieldsView, emitFormView, emitShowView } from './views-record.js';

export { crudPlan, humanLabel, labelField, type CrudPlan, type CrudField, type CrudLink, type CrudRelation, type CrudRoute, type InputKind } from './plan.js';
export { addRoutes, declaredRoutes, manualLines, RoutesEditError, ROUTES_FUNCTION, type RouteToAdd, type ImportToAdd, type RoutesEdit } from './routes-edit.js';
export { unifiedDiff } from './line-diff.js';

export const ROUTES_FILE = 'mvc/routes.ts';

export interface CrudOptions {
  /** `--public`: the routes need no login (CSRF stays on). */
  readonly isPublic?: boolean;
}

/** The regenerable files of the entity's CRUD pages: what derives from the entity file. */
export function crudRegenerableFiles(plan: CrudPlan): PlannedFile[] {
  const snake = plan.entity.snake;
  const views = `mvc/views/${plan.viewDir}`;
  const regenerable = (path: string, content: string): PlannedFile => ({ path, content, kind: 'regenerable' });
  return [
    regenerable(`mvc/models/${plan.crudModule}.ts`, emitCrudModule(plan)),
    regenerable(`mvc/forms/${snake}_fields.ts`, emitCrudFormFields(plan)),
    regenerable(`${views}/_fields.html`, emitFieldsView(plan)),
    regenerable(`${views}/_filters.html`, emitFiltersView(plan)),
    regenerable(`${views}/_list_head.html`, emitListHeadView(plan)),
    regenerable(`${views}/_list_cells.html`, emitListCellsView(plan)),
  ];
}

/** Where the crud module of an entity lives: its presence tells sync:entity and build:model that the CRUD exists. */
export function crudModulePath(entitySnake: string): string {
  return `mvc/models/${entitySnake}_crud.ts`;
}

/** The controller, model, form, layout and views of the entity's CRUD pages (manual), then the regenerable files. */
export function crudFiles(plan: CrudPlan): PlannedFile[] {
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
    ...crudRegenerableFiles(plan),
  ];
}

/** The routes of the spec's table for this entity, and the controller import they need. */
export function crudRoutes(plan: CrudPlan): { import: ImportToAdd; routes: RouteToAdd[] } {
  return {
    import: { name: plan.controllerClass, from: `./controllers/${plan.entity.snake}_controller.js` },
    routes: plan.routes.map((route) => ({
      method: route.method,
      path: route.path,
      handler: `${plan.controllerClass}.${route.action}`,
      options: `{ name: '${route.name}'${plan.isPublic ? ', public: true' : ''} }`,
    })),
  };
}

/** The plan of `fw make:crud <Entity>` for a compiled model. */
export function planCrud(model: ModelNode, entity: string, options: CrudOptions = {}): CrudPlan {
  return crudPlan(model, entity, { isPublic: options.isPublic === true });
}
