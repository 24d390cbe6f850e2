/**
 * `fw-mvc/crud`: the CRUD pages of an entity (docs/crud.md, docs/decisions.md "The CRUD in the runtime"). The
 * regenerable `<snake>_crud.ts` describes the entity (`defineCrud`); the entity's controller extends
 * `crudController()`, its model `crudModel()`. The building blocks under them are exported here and by `fw-mvc`.
 */
export * from './blocks.js';
export { defineCrud, CrudResource, type CrudDetailValue, type CrudFilterOption, type CrudLinks } from './resource.js';
export {
  type CrudChoices,
  type CrudDescription,
  type CrudDetail,
  type CrudDetailField,
  type CrudDetailLinks,
  type CrudEntityClass,
  type CrudLinkDescription,
  type CrudOrder,
  type CrudPermission,
  type CrudPivotDefault,
  type CrudRecord,
  type CrudRow,
  type CrudShow,
} from './description.js';
export { crudController, CRUD_ACTIONS, type CrudAction, type CrudActionName, type CrudControllerOptions } from './controller.js';
export { type CrudControllerShape, type CrudFormClass, type CrudPageName } from './actions.js';
export { crudModel, type CrudModelClass, type CrudModelOptions, type CrudPage } from './model.js';
export { type CrudMediaPages, type CrudMediaSubmission } from './media.js';
export { legacyCrudNames, type LegacyCrudNames } from './legacy-names.js';
// What a controller's hooks name: the request and the answer, a form, the variables of a page.
export { Request } from '../http/request.js';
export { Response } from '../http/response.js';
export { Form } from '../forms/form.js';
export { type Context } from '../controller.js';
