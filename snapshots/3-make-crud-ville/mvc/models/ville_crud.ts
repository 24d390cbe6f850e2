// fw-mvc: generated file, do not edit (regenerate with: fw sync:entity Ville)
// The CRUD pages of Ville as mvc/entities/ville/ville.json describes them, as data that fw-mvc/crud reads
// (docs/crud.md "The description" says what each key means). ville_controller.ts and ville_model.ts (yours)
// hand it to the framework; `fw sync:entity Ville` and `fw build:model` rewrite it when the entity changes.
import { defineCrud } from 'fw-mvc/crud';
import { Ville } from '../entities/ville/index.js';

/** A row of the list and of the detail page: the entity. */
export type VilleListRow = Ville;

export const VILLE_CRUD = defineCrud({
  entity: Ville,
  name: 'Ville',
  base: '/villes',
  views: 'ville',
  permission: 'ville',
  title: 'Villes',
  label: 'Ville',
  count: { one: 'ville', many: 'villes' },
  table: 'ville',
  key: { name: 'id', column: 'Id' },
  // The allow-lists of the list page: sort keys, searched columns, equality filters (docs/crud.md "The list page").
  list: {
    sortable: { id: 't.Id', nom: 't.Nom', code_postal: 't.CodePostal' },
    defaultSort: 'id',
    searchable: ['t.Nom', 't.CodePostal'],
    filters: { nom: { column: 't.Nom', kind: 'text' }, code_postal: { column: 't.CodePostal', kind: 'text' } },
  },
  // The SQL of the list (its joins), of its count, of a new record and of a change; every value is a `?`.
  sql: {
    select: 'SELECT t.Id, t.Nom, t.CodePostal FROM ville t',
    count: 'SELECT COUNT(*) AS total FROM ville t',
    insert: 'INSERT INTO ville (Nom, CodePostal) VALUES (?, ?)',
    update: 'UPDATE ville SET Nom = ?, CodePostal = ? WHERE Id = ?',
  },
  columns: ['Nom', 'CodePostal'],
  labels: [],
  unique: { 'uq_ville_codepostal': 'code_postal', 'ville.CodePostal': 'code_postal', 'CodePostal': 'code_postal' },
  // Foreign keys of other tables that refuse a delete (docs/crud.md "Deleting a record that others refer to").
  references: [{ table: 'contact', column: 'VilleId', target: 'Id', one: 'contact', many: 'contacts' }],
  links: {},
  // The role block of the entity file: roles per permission; a permission it does not name is open.
  roles: {},
  details: [{ label: 'Nom', field: 'nom' }, { label: 'Code postal', field: 'code_postal' }],
  csv: { file: 'villes.csv', header: ['Nom', 'Code postal'], fields: ['nom', 'code_postal'] },
  display: { fields: ['nom'] },
  // The selects of the form and of the filters: their records, by label (docs/crud.md "Many-to-one selects").
  choices: {},
  filters: [],
});
