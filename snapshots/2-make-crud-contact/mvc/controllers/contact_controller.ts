// fw-mvc make:crud Contact sha256:e50d5e243d0c6148 (your file: fw make:crud Contact --upgrade merges a newer version into it)
// Controller of the Contact pages (fw make:crud Contact): the actions of the Contact routes of mvc/routes.ts
// are fw-mvc/crud's, read from CONTACT_CRUD (contact_crud.ts, which `fw sync:entity Contact` keeps in step).
// This file is yours: fw make:crud Contact created it once and never overwrites it (docs/crud.md "The controller").
import { crudController, type Request, type Response, type SqlFragment } from 'fw-mvc/crud';
import type { Contact } from '../entities/contact/index.js';
import { ContactForm } from '../forms/contact_form.js';
import { CONTACT_CRUD } from '../models/contact_crud.js';
import { ContactModel } from '../models/contact_model.js';

export class ContactController extends crudController(CONTACT_CRUD, { form: ContactForm, model: ContactModel }) {
  // What the Contact pages do differently goes here, as a hook of fw-mvc/crud. Before a Contact is created or
  // updated, once its checks passed (form.addError('nom', '…') sends the Contact form back, 422):
  // static override async beforeSave(request: Request, record: Contact, form: ContactForm): Promise<void> {}
  // After Contact records were deleted (one, or a bulk delete), with their ids:
  // static override async afterDelete(request: Request, ids: readonly number[]): Promise<void> {}
  // The Contact records a user may see and change (list, CSV, detail, edit, deletes), a condition on `t`:
  // static override scope(request: Request): SqlFragment | null { return { sql: 't.Nom <> ?', params: [''] }; }
  // An action of your own for Contact: a static method, and its route in mvc/routes.ts (ContactController.card).
  // static async card(request: Request): Promise<Response> { return ContactController.render('contact/card.html', { request }); }
}
