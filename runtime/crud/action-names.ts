/**
 * The actions of the class `crudController()` returns (controller.ts), the handlers `mvc/routes.ts` names: here, on
 * their own, so that the CLI's route checks read them without loading the runtime (cli/checks/route-controllers.ts).
 */
export const CRUD_ACTIONS = ['index', 'create', 'store', 'show', 'edit', 'update', 'destroy', 'bulkDelete', 'bulkDeleteConfirm', 'exportCsv'] as const;
export type CrudActionName = (typeof CRUD_ACTIONS)[number];
