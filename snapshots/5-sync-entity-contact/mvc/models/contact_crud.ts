// fw-mvc: generated file, do not edit (regenerate with: fw sync:entity Contact)
// The CRUD pages of Contact as mvc/entities/contact/contact.json describes them, as data that fw-mvc/crud reads
// (docs/crud.md "The description" says what each key means). contact_controller.ts and contact_model.ts (yours)
// hand it to the framework; `fw sync:entity Contact` and `fw build:model` rewrite it when the entity changes.
import { defineCrud } from 'fw-mvc/crud';
import { Contact } from '../entities/contact/index.js';

/** A row of the list and of the detail page: the entity and the labels of its many-to-one targets. */
export type ContactListRow = Contact & { ville_id_label: string | null };

export const CONTACT_CRUD = defineCrud({
  entity: Contact,
  name: 'Contact',
  base: '/contacts',
  views: 'contact',
  permission: 'contact',
  title: 'Contacts',
  label: 'Contact',
  count: { one: 'contact', many: 'contacts' },
  table: 'contact',
  key: { name: 'id', column: 'Id' },
  // The allow-lists of the list page: sort keys, searched columns, equality filters (docs/crud.md "The list page").
  list: {
    sortable: {
      id: 't.Id',
      nom: 't.Nom',
      prenom: 't.Prenom',
      email: 't.Email',
      date_naissance: 't.DateNaissance',
      solde: 't.Solde',
      nb_visites: 't.NbVisites',
      actif: 't.Actif',
      ville_id: 't.VilleId',
      code_client: 't.CodeClient',
    },
    defaultSort: 'id',
    searchable: ['t.Nom', 't.Prenom', 't.Email', 't.CodeClient'],
    decimalSorts: ['solde'],
    filters: {
      actif: { column: 't.Actif', kind: 'bool' },
      ville_id: { column: 't.VilleId', kind: 'relation' },
      tag_ids: {
        column: 't.Id',
        kind: 'relation',
        match: 'EXISTS (SELECT 1 FROM contact_tag p WHERE p.ContactId = t.Id AND p.TagId = ?)',
      },
    },
  },
  // The SQL of the list (its joins), of its count, of a new record and of a change; every value is a `?`.
  sql: {
    select: 'SELECT t.Id, t.Nom, t.Prenom, t.Email, t.DateNaissance, t.Solde, t.NbVisites, t.Actif, t.VilleId, t.CodeClient, r_ville_id.Nom AS ville_id_label FROM contact t LEFT JOIN ville r_ville_id ON r_ville_id.Id = t.VilleId',
    count: 'SELECT COUNT(*) AS total FROM contact t',
    insert: 'INSERT INTO contact (Nom, Prenom, Email, DateNaissance, Solde, NbVisites, Actif, VilleId, CodeClient) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    update: 'UPDATE contact SET Nom = ?, Prenom = ?, Email = ?, DateNaissance = ?, Solde = ?, NbVisites = ?, Actif = ?, VilleId = ?, CodeClient = ? WHERE Id = ?',
  },
  columns: ['Nom', 'Prenom', 'Email', 'DateNaissance', 'Solde', 'NbVisites', 'Actif', 'VilleId', 'CodeClient'],
  labels: ['ville_id_label'],
  unique: { 'uq_contact_email': 'email', 'contact.Email': 'email', 'Email': 'email' },
  // Foreign keys of other tables that refuse a delete (docs/crud.md "Deleting a record that others refer to").
  references: [],
  links: {
    tag_ids: {
      table: 'contact_tag',
      ownColumn: 'ContactId',
      otherColumn: 'TagId',
      rows: true,
      fields: { ajoute_le: 'AjouteLe' },
    },
  },
  // The role block of the entity file: roles per permission; a permission it does not name is open.
  roles: {},
  details: [
    { label: 'Nom', field: 'nom' },
    { label: 'Prenom', field: 'prenom' },
    { label: 'Email', field: 'email' },
    { label: 'Date naissance', field: 'date_naissance', show: 'date' },
    { label: 'Solde', field: 'solde', show: 'number' },
    { label: 'Nb visites', field: 'nb_visites' },
    { label: 'Actif', field: 'actif', show: 'bool' },
    { label: 'Ville', field: 'ville_id', labelKey: 'ville_id_label' },
    { label: 'Code client', field: 'code_client' },
    {
      label: 'Tags',
      link: 'tag_ids',
      sql: 'SELECT o.Libelle AS label, p.AjouteLe AS v0 FROM contact_tag p JOIN tag o ON o.Id = p.TagId WHERE p.ContactId = ?',
      order: { column: 'o.Libelle', key: 'o.Id', text: true },
      values: [{ label: 'Ajoute le', show: 'date' }],
    },
  ],
  csv: {
    file: 'contacts.csv',
    header: ['Nom', 'Prenom', 'Email', 'Date naissance', 'Solde', 'Nb visites', 'Actif', 'Ville', 'Code client'],
    fields: ['nom', 'prenom', 'email', 'date_naissance', 'solde', 'nb_visites', 'actif', 'ville_id_label', 'code_client'],
  },
  display: { fields: ['nom'] },
  // The selects of the form and of the filters: their records, by label (docs/crud.md "Many-to-one selects").
  choices: {
    ville_id: {
      select: 'SELECT Id AS id, Nom AS label FROM ville',
      key: 'Id',
      order: { column: 'Nom', key: 'Id', text: true },
      keys: 'int',
      keep: 'value',
    },
    tag_ids: {
      select: 'SELECT Id AS id, Libelle AS label FROM tag',
      key: 'Id',
      order: { column: 'Libelle', key: 'Id', text: true },
      keys: 'int',
      keep: 'rows',
    },
  },
  filters: ['ville_id', 'tag_ids'],
});
