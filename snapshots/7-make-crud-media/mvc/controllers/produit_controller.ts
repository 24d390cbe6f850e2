// fw-mvc make:crud Produit sha256:a66758438f37dbad (your file: fw make:crud Produit --upgrade merges a newer version into it)
// Controller of the Produit pages (fw make:crud Produit): the actions of the Produit routes of mvc/routes.ts
// are fw-mvc/crud's, read from PRODUIT_CRUD (produit_crud.ts, which `fw sync:entity Produit` keeps in step).
// This file is yours: fw make:crud Produit created it once and never overwrites it (docs/crud.md "The controller").
import { crudController, type Request, type Response, type SqlFragment } from 'fw-mvc/crud';
import type { Produit } from '../entities/produit/index.js';
import { ProduitForm } from '../forms/produit_form.js';
import { PRODUIT_CRUD } from '../models/produit_crud.js';
import { MEDIA } from '../models/produit_media.js';
import { ProduitModel } from '../models/produit_model.js';

export class ProduitController extends crudController(PRODUIT_CRUD, { form: ProduitForm, model: ProduitModel, media: MEDIA }) {
  // What the Produit pages do differently goes here, as a hook of fw-mvc/crud. Before a Produit is created or
  // updated, once its checks passed (form.addError('nom', '…') sends the Produit form back, 422):
  // static override async beforeSave(request: Request, record: Produit, form: ProduitForm): Promise<void> {}
  // After Produit records were deleted (one, or a bulk delete), with their ids:
  // static override async afterDelete(request: Request, ids: readonly number[]): Promise<void> {}
  // The Produit records a user may see and change (list, CSV, detail, edit, deletes), a condition on `t`:
  // static override scope(request: Request): SqlFragment | null { return { sql: 't.Nom <> ?', params: [''] }; }
  // An action of your own for Produit: a static method, and its route in mvc/routes.ts (ProduitController.card).
  // static async card(request: Request): Promise<Response> { return ProduitController.render('produit/card.html', { request }); }
}
