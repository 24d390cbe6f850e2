// fw-mvc make:crud Ville sha256:c94148dacee2b7a6 (your file: fw make:crud Ville --upgrade merges a newer version into it)
// Controller of the Ville pages (fw make:crud Ville): the actions of the Ville routes of mvc/routes.ts
// are fw-mvc/crud's, read from VILLE_CRUD (ville_crud.ts, which `fw sync:entity Ville` keeps in step).
// This file is yours: fw make:crud Ville created it once and never overwrites it (docs/crud.md "The controller").
import { crudController, type Request, type Response, type SqlFragment } from 'fw-mvc/crud';
import type { Ville } from '../entities/ville/index.js';
import { VilleForm } from '../forms/ville_form.js';
import { VILLE_CRUD } from '../models/ville_crud.js';
import { VilleModel } from '../models/ville_model.js';

export class VilleController extends crudController(VILLE_CRUD, { form: VilleForm, model: VilleModel }) {
  // What the Ville pages do differently goes here, as a hook of fw-mvc/crud. Before a Ville is created or
  // updated, once its checks passed (form.addError('nom', '…') sends the Ville form back, 422):
  // static override async beforeSave(request: Request, record: Ville, form: VilleForm): Promise<void> {}
  // After Ville records were deleted (one, or a bulk delete), with their ids:
  // static override async afterDelete(request: Request, ids: readonly number[]): Promise<void> {}
  // The Ville records a user may see and change (list, CSV, detail, edit, deletes), a condition on `t`:
  // static override scope(request: Request): SqlFragment | null { return { sql: 't.Nom <> ?', params: [''] }; }
  // An action of your own for Ville: a static method, and its route in mvc/routes.ts (VilleController.card).
  // static async card(request: Request): Promise<Response> { return VilleController.render('ville/card.html', { request }); }
}
