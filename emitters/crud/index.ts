/**
 * `fw make:crud`: the files of an entity's CRUD pages and the routes to add to `mvc/routes.ts` (docs/crud.md "What it
 * writes", "Routes"). Controller, model, form class and views are manual (created when absent,
 * never overwritten); what derives from the entity (form fields, list / CSV / detail columns, filters, the form's
 * fields partial) is regenerable, rewritten by make:crud, sync:entity and build:model (docs/crud.md).
 */
import type { CrudPlan } from './plan.js';
import type { ImportToAdd, MenuToAdd, RouteToAdd } from '../codemods/routes-edit.js';

export {
  crudPlan,
  humanLabel,
  labelField,
  type CrudPlan,
  type CrudField,
  type CrudLink,
  type CrudMedia,
  type CrudRelation,
  type CrudRoute,
  type InputKind,
} from './plan.js';
export {
  addRoutes,
  declaredRoutes,
  manualLines,
  RoutesEditError,
  ROUTES_FUNCTION,
  type RouteToAdd,
  type ImportToAdd,
  type MenuToAdd,
  type RoutesEdit,
} from '../codemods/routes-edit.js';
export { unifiedDiff } from '../codemods/line-diff.js';
export { CRUD_STUBS, type CrudStubName, type CrudStubs } from './manual.js';
export {
  CRUD_MEDIA_PATH,
  crudFiles,
  descriptionNames,
  crudModulePath,
  crudRegenerableFiles,
  mediaModulePath,
  planCrud,
  type CrudOptions,
  type CrudProjectState,
} from './files.js';

export const ROUTES_FILE = 'mvc/routes.ts';

/**
 * The generated CRUD routes of this entity (docs/crud.md "Routes"), the controller import they need, and the list's
 * menu entry (docs/crud.md "The menu"): its roles are the list route's, read at each request from the role block.
 */
export function crudRoutes(plan: CrudPlan): { import: ImportToAdd; routes: RouteToAdd[]; menu: MenuToAdd[] } {
  return {
    menu: [{ path: plan.prefix, label: plan.title }],
    import: { name: plan.controllerClass, from: `./controllers/${plan.entity.snake}_controller.js` },
    routes: plan.routes.map((route) => ({
      method: route.method,
      path: route.path,
      handler: `${plan.controllerClass}.${route.action}`,
      options: `{ name: '${route.name}'${plan.isPublic ? ', public: true' : ''} }`,
    })),
  };
}
