// fw-mvc make:crud Contact sha256:5e6ff2f5af1e8e7f (your file: fw make:crud Contact --upgrade merges a newer version into it)
// Model of the Contact pages (fw make:crud Contact): their queries (page, exportRows, find, findMany, create, update,
// delete, deleteMany) are fw-mvc/crud's, on the table, columns and joins of CONTACT_CRUD (contact_crud.ts); every
// value goes through a `?`. This file is yours: fw make:crud Contact never overwrites it (docs/crud.md "The model").
import { fetchAll } from 'fw-mvc';
import { crudModel } from 'fw-mvc/crud';
import { CONTACT_CRUD, type ContactListRow } from './contact_crud.js';

export class ContactModel extends crudModel(CONTACT_CRUD) {
  // Override a query to change it for Contact, or add one. The Contact list shows 20 rows a page:
  // static override perPage = 50;
  // static async byNom(value: string): Promise<ContactListRow[]> {
  //   return (await fetchAll(`${CONTACT_CRUD.sql.select} WHERE t.Nom = ?`, [value])).map((row) => CONTACT_CRUD.listRow(row));
  // }
}
