/**
 * `crudController(resource, { form, model, media })`: the class an entity's `mvc/controllers/<snake>_controller.ts`
 * extends (docs/crud.md "The controller"). Its actions (`index`, `create`, `store`, `show`, `edit`, `update`,
 * `destroy`, `bulkDelete`, `bulkDeleteConfirm`, `exportCsv`: actions.ts) are static getters: `ContactController.index`,
 * read unbound by `mvc/routes.ts`, is a function bound to `ContactController`, the same every time, so that the hooks
 * the subclass overrides are the ones called (docs/decisions.md "The CRUD in the runtime").
 */
import { BaseController, type Context } from '../controller.js';
import type { Request } from '../http/request.js';
import { markAccess } from '../http/router.js';
import type { Response } from '../http/response.js';
import { CRUD_ACTIONS, type CrudActionName } from './action-names.js';
import * as actions from './actions.js';
import type { CrudFormClass, CrudPageName } from './actions.js';
import type { CrudEntityClass, CrudPermission, CrudRow } from './description.js';
import type { SqlFragment } from './list-query.js';
import type { CrudMediaPages } from './media.js';
import type { CrudModelClass } from './model.js';
import type { CrudResource } from './resource.js';

/** An action of the pages, as `mvc/routes.ts` registers it. */
export type CrudAction = (request: Request) => Promise<Response>;

export { CRUD_ACTIONS, type CrudActionName };

/** What each action asks of the role block, as its check in actions.ts does. */
const ACTION_PERMISSIONS: Readonly<Record<CrudActionName, readonly CrudPermission[]>> = {
  index: ['index'],
  create: ['create'],
  store: ['create'],
  show: ['show'],
  edit: ['update'],
  update: ['update'],
  destroy: ['delete'],
  bulkDelete: ['delete'],
  bulkDeleteConfirm: ['delete'],
  exportCsv: ['index', 'export'],
};

/** The bound actions of each class, made once per class and action. */
const bound = new WeakMap<object, Map<CrudActionName, CrudAction>>();

function boundAction(cls: object, name: CrudActionName): CrudAction {
  if (cls === undefined || cls === null) {
    throw new TypeError(
      `l'action « ${name} » a été lue sans sa classe (super.${name}() dans une méthode statique appelée seule) : écrivez l'action « static override ${name} = async (request) => { … super.${name}(request) … } » (docs/crud.md "The controller").`,
    );
  }
  let actionsOf = bound.get(cls);
  if (!actionsOf) {
    actionsOf = new Map();
    bound.set(cls, actionsOf);
  }
  let action = actionsOf.get(name);
  if (!action) {
    const run = actions[name];
    action = (request: Request) => run(cls as actions.CrudControllerShape, request);
    Object.defineProperty(action, 'name', { value: name });
    // The menu shows the page to those the action lets in: the entity's role block (docs/runtime.md "The menu").
    const needs = ACTION_PERMISSIONS[name];
    markAccess(action, (request) => needs.every((permission) => (cls as actions.CrudControllerShape).resource.allowed(request, permission)));
    actionsOf.set(name, action);
  }
  return action;
}

/** What the entity's constructor takes (`Partial<ContactData>`). */
type EntityData<C> = C extends abstract new (data?: infer D) => unknown ? NonNullable<D> : never;

/** The form values must fit the entity (`new Contact(form.cleanedData)`): tsc refuses a form whose cleaned values do not. */
type FormFits<FC extends CrudFormClass, C extends CrudEntityClass> =
  InstanceType<FC>['cleanedData'] extends EntityData<C>
    ? unknown
    : { readonly form: { readonly 'les valeurs du formulaire ne correspondent pas à l’entité': never } };

/** What an entity's controller gives `crudController()`: its form class, its model, and its media when it has some. */
export interface CrudControllerOptions<C extends CrudEntityClass, L extends string, FC extends CrudFormClass> {
  readonly form: FC;
  // NoInfer: the entity is the description's; the model and the form are checked against it.
  readonly model: NoInfer<CrudModelClass<CrudRow<C, L>, InstanceType<C>>>;
  readonly media?: CrudMediaPages | null;
}

/**
 * The CRUD pages of `resource` as a controller class: extend it, and override a hook (`scope`, `beforeSave`,
 * `afterSave`, `afterDelete`, `context`) or an action where the entity's pages differ.
 */
export function crudController<C extends CrudEntityClass, L extends string, FC extends CrudFormClass>(
  resource: CrudResource<C, L>,
  options: CrudControllerOptions<C, L, FC> & NoInfer<FormFits<FC, C>>,
) {
  type R = CrudRow<C, L>;
  type E = InstanceType<C>;
  type F = InstanceType<FC>;
  return class CrudController extends BaseController {
    static readonly resource = resource;
    static readonly model = options.model;
    static readonly form = options.form;
    static readonly media = options.media ?? null;

    /**
     * The records a user may see and change, as a condition on the list's `t` (`{ sql: 't.OwnerId = ?', params: [id] }`),
     * or null (all): the list, the CSV, the detail, the edit form, the update and the deletes keep to it; a record
     * outside it is a 404, a bulk id outside it is dropped.
     */
    static scope(_request: Request): SqlFragment | null {
      return null;
    }

    /** Before a record is created or updated, once the form and the entity's checks passed: `form.addError()` sends the form back (422). */
    static async beforeSave(_request: Request, _record: E, _form: F, _row: R | null): Promise<void> {}

    /** After a record was created (`created`) or updated, before the redirect to the list. */
    static async afterSave(_request: Request, _id: number, _created: boolean): Promise<void> {}

    /** After records were deleted (one, or a bulk delete), with their ids. */
    static async afterDelete(_request: Request, _ids: readonly number[]): Promise<void> {}

    /** The variables of a page (`index`, `results`, `show`, `form`, `bulk_delete`) before it is rendered: add or change some. */
    static context(_request: Request, _page: CrudPageName, context: Context): Context {
      return context;
    }

    /** GET /<plural>: the list; an `HX-Request` gets only the results (`_results.html`). */
    static get index(): CrudAction {
      return boundAction(this, 'index');
    }
    /** GET /<plural>/new: the empty form. */
    static get create(): CrudAction {
      return boundAction(this, 'create');
    }
    /** POST /<plural>: creates; an invalid form comes back with status 422, its messages and the values entered. */
    static get store(): CrudAction {
      return boundAction(this, 'store');
    }
    /** GET /<plural>/{id}: the detail page; an id that is not a positive integer, or unknown, gives 404. */
    static get show(): CrudAction {
      return boundAction(this, 'show');
    }
    /** GET /<plural>/{id}/edit: the form filled with the record. */
    static get edit(): CrudAction {
      return boundAction(this, 'edit');
    }
    /** POST /<plural>/{id}: updates; 422 with the messages when invalid. */
    static get update(): CrudAction {
      return boundAction(this, 'update');
    }
    /** POST /<plural>/{id}/delete: deletes; the list again (htmx) or a redirect to it; 409 when others refer to it. */
    static get destroy(): CrudAction {
      return boundAction(this, 'destroy');
    }
    /** POST /<plural>/bulk-delete: the selected `ids`, shown for confirmation. */
    static get bulkDelete(): CrudAction {
      return boundAction(this, 'bulkDelete');
    }
    /** POST /<plural>/bulk-delete/confirm: deletes the confirmed `ids` and goes back to the list. */
    static get bulkDeleteConfirm(): CrudAction {
      return boundAction(this, 'bulkDeleteConfirm');
    }
    /** GET /<plural>/export.csv: the list's search, filters and sort, without pagination, at most 1000 rows. */
    static get exportCsv(): CrudAction {
      return boundAction(this, 'exportCsv');
    }
  };
}
