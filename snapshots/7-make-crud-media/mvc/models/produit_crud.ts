// fw-mvc: generated file, do not edit (regenerate with: fw sync:entity Produit)
// The CRUD pages of Produit as mvc/entities/produit/produit.json describes them, as data that fw-mvc/crud reads
// (docs/crud.md "The description" says what each key means). produit_controller.ts and produit_model.ts (yours)
// hand it to the framework; `fw sync:entity Produit` and `fw build:model` rewrite it when the entity changes.
import { defineCrud } from 'fw-mvc/crud';
import { Produit } from '../entities/produit/index.js';

/** A row of the list and of the detail page: the entity. */
export type ProduitListRow = Produit;

export const PRODUIT_CRUD = defineCrud({
  entity: Produit,
  name: 'Produit',
  base: '/produits',
  views: 'produit',
  permission: 'produit',
  title: 'Produits',
  label: 'Produit',
  count: { one: 'produit', many: 'produits' },
  table: 'produits',
  key: { name: 'id', column: 'Id' },
  // The allow-lists of the list page: sort keys, searched columns, equality filters (docs/crud.md "The list page").
  list: {
    sortable: { id: 't.Id', nom: 't.Nom', reference: 't.Reference' },
    defaultSort: 'id',
    searchable: ['t.Nom', 't.Reference'],
    filters: {},
  },
  // The SQL of the list (its joins), of its count, of a new record and of a change; every value is a `?`.
  sql: {
    select: 'SELECT t.Id, t.Nom, t.Reference FROM produits t',
    count: 'SELECT COUNT(*) AS total FROM produits t',
    insert: 'INSERT INTO produits (Nom, Reference) VALUES (?, ?)',
    update: 'UPDATE produits SET Nom = ?, Reference = ? WHERE Id = ?',
  },
  columns: ['Nom', 'Reference'],
  labels: [],
  unique: { 'uq_produits_reference': 'reference', 'produits.Reference': 'reference', 'Reference': 'reference' },
  // Foreign keys of other tables that refuse a delete (docs/crud.md "Deleting a record that others refer to").
  references: [],
  links: {},
  // The role block of the entity file: roles per permission; a permission it does not name is open.
  roles: {},
  details: [{ label: 'Nom', field: 'nom' }, { label: 'Reference', field: 'reference' }],
  csv: { file: 'produits.csv', header: ['Nom', 'Reference'], fields: ['nom', 'reference'] },
  display: { fields: ['nom'] },
  // The selects of the form and of the filters: their records, by label (docs/crud.md "Many-to-one selects").
  choices: {},
  filters: [],
});
