// fw-mvc make:crud Ville sha256:1285132a658dd2a1 (your file: fw make:crud Ville --upgrade merges a newer version into it)
// Model of the Ville pages (fw make:crud Ville): their queries (page, exportRows, find, findMany, create, update,
// delete, deleteMany) are fw-mvc/crud's, on the table, columns and joins of VILLE_CRUD (ville_crud.ts); every
// value goes through a `?`. This file is yours: fw make:crud Ville never overwrites it (docs/crud.md "The model").
import { fetchAll } from 'fw-mvc';
import { crudModel } from 'fw-mvc/crud';
import { VILLE_CRUD, type VilleListRow } from './ville_crud.js';

export class VilleModel extends crudModel(VILLE_CRUD) {
  // Override a query to change it for Ville, or add one. The Ville list shows 20 rows a page:
  // static override perPage = 50;
  // static async byNom(value: string): Promise<VilleListRow[]> {
  //   return (await fetchAll(`${VILLE_CRUD.sql.select} WHERE t.Nom = ?`, [value])).map((row) => VILLE_CRUD.listRow(row));
  // }
}
