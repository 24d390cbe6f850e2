// fw-mvc make:crud Produit sha256:1b56b27a0ae4b9d8 (your file: fw make:crud Produit --upgrade merges a newer version into it)
// Model of the Produit pages (fw make:crud Produit): their queries (page, exportRows, find, findMany, create, update,
// delete, deleteMany) are fw-mvc/crud's, on the table, columns and joins of PRODUIT_CRUD (produit_crud.ts); every
// value goes through a `?`. This file is yours: fw make:crud Produit never overwrites it (docs/crud.md "The model").
import { fetchAll } from 'fw-mvc';
import { crudModel } from 'fw-mvc/crud';
import { PRODUIT_CRUD, type ProduitListRow } from './produit_crud.js';
import { MEDIA } from './produit_media.js';

export class ProduitModel extends crudModel(PRODUIT_CRUD, { media: MEDIA }) {
  // Override a query to change it for Produit, or add one. The Produit list shows 20 rows a page:
  // static override perPage = 50;
  // static async byNom(value: string): Promise<ProduitListRow[]> {
  //   return (await fetchAll(`${PRODUIT_CRUD.sql.select} WHERE t.Nom = ?`, [value])).map((row) => PRODUIT_CRUD.listRow(row));
  // }
}
