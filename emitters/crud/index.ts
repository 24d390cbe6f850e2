/**
 * `fw make:crud`: the files of an entity's CRUD pages (all manual: created when absent, never overwritten) and the
 * routes to add to `mvc/routes.ts` (spec "Generated files per entity", "Generated CRUD routes").
 */
import type { ModelNode } from '../../compiler/ir.js';
import type { PlannedFile } from '../planned-file.js';
import { emitCrudController } from './controller.js';
import { emitCrudForm } from './form.js';
import { emitCrudModel } from './model.js';
import { crudPlan, type CrudPlan } from './plan.js';
import type { ImportToAdd, RouteToAdd } from './routes-edit.js';
import { emitAppLayout, emitBulkDeleteView, emitFormView, emitIndexView, emitPaginationView, emitResultsView, emitShowView, emitTableView } from './views.js';

export { crudPlan, humanLabel, labelField, type CrudPlan, type CrudField, type CrudRelation, type CrudRoute, type InputKind } from './plan.js';
export { addRoutes, declaredRoutes, manualLines, RoutesEditError, ROUTES_FUNCTION, type RouteToAdd, type ImportToAdd, type RoutesEdit } from './routes-edit.js';
export { unifiedDiff } from './line-diff.js';

export const ROUTES_FILE = 'mvc/routes.ts';

export interface CrudOptions {
  /** `--public`: the routes need no login (CSRF stays on). */
  readonly isPublic?: boolean;
}

/** The controller, model, form, layout and views of the entity's CRUD pages, in the order they are reported. */
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
