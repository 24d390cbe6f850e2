// fw-mvc: generated file, do not edit (regenerate with: fw sync:entity Contact)
// The CRUD pages of Contact as mvc/entities/contact/contact.json describes them: the list's columns and allow-lists, the SQL of the
// fields, the choices of the relations, the CSV and detail columns. contact_model.ts and contact_controller.ts
// (yours) use it; `fw sync:entity Contact` and `fw build:model` rewrite it when the entity changes.
import { CHOICES_MAX, fetchAll, formatDate, formatNumber, linkDetails, linkRowKeys, linkRows, missingChoiceKeys, placeholders, saveLinkRows, textOrder, trans, userCan, userHasRole, type Choice, type LinkSpec, type ListSpec, type PivotLink, type ReferenceSpec, type Request, type Row, type Transaction } from 'fw-mvc';
import { Contact } from '../entities/contact/index.js';

/** Title of the pages (the list's heading, the browser tab), a record's name (detail and form headings), the CSV file's name. */
export const TITLE = 'Contacts';
export const LABEL = 'Contact';
export const CSV_FILE = 'contacts.csv';

/** The table, its key column, and the key as the list's SELECT names it. */
export const TABLE = 'contact';
export const KEY_COLUMN = 'Id';
export const KEY = 't.Id';

/** A row of the list and of the detail page: the entity and the labels of its many-to-one targets. */
export type ListRow = Contact & { ville_id_label: string | null };

/** Many-to-many links saved with the record, by form field: the other side's ids, with their pivot values (absent: left as they are). */
export interface Links {
  readonly tag_ids?: readonly PivotLink[] | null | undefined;
}

/** The allow-lists of the list page: sort keys, searched columns, equality filters. */
export const LIST: ListSpec = {
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
    tag_ids: { column: 't.Id', kind: 'relation', match: 'EXISTS (SELECT 1 FROM contact_tag p WHERE p.ContactId = t.Id AND p.TagId = ?)' },
  },
};

export const SELECT = 'SELECT t.Id, t.Nom, t.Prenom, t.Email, t.DateNaissance, t.Solde, t.NbVisites, t.Actif, t.VilleId, t.CodeClient, r_ville_id.Nom AS ville_id_label FROM contact t LEFT JOIN ville r_ville_id ON r_ville_id.Id = t.VilleId';
export const COUNT = 'SELECT COUNT(*) AS total FROM contact t';
export const INSERT = 'INSERT INTO contact (Nom, Prenom, Email, DateNaissance, Solde, NbVisites, Actif, VilleId, CodeClient) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)';
export const UPDATE = 'UPDATE contact SET Nom = ?, Prenom = ?, Email = ?, DateNaissance = ?, Solde = ?, NbVisites = ?, Actif = ?, VilleId = ?, CodeClient = ? WHERE Id = ?';

/** Unique fields by the names the servers give them (MariaDB: the key; SQLite: table.column): a DuplicateError becomes a message on the field. */
export const UNIQUE_KEYS: Readonly<Record<string, string>> = {
  'uq_contact_email': 'email',
  'contact.Email': 'email',
  'Email': 'email',
};

/**
 * The foreign keys of other tables that keep a record from being deleted (their `on_delete` is RESTRICT or NO ACTION):
 * the model counts their rows before a delete, and the refusal names them (docs/crud.md "Deleting a record that
 * others refer to").
 */
export const REFERENCES: readonly ReferenceSpec[] = [];

/** The list's total as users read it: `1 contact`, `2 contacts`. */
export function countLabel(count: number): string {
  return `${count} ${count === 1 ? 'contact' : 'contacts'}`;
}

/** The pivot tables of the many-to-many relations, by form field. */
export const LINKS = {
  tag_ids: { table: 'contact_tag', ownColumn: 'ContactId', otherColumn: 'TagId', fields: { ajoute_le: 'AjouteLe' } },
} as const satisfies Record<string, LinkSpec>;

/** The actions of the pages, as the role block names them. */
export type Permission = 'index' | 'show' | 'create' | 'update' | 'delete' | 'export';

/** Roles allowed per permission (mvc/entities/contact/contact.json has no role block: every action is open). */
export const ROLES: Readonly<Partial<Record<Permission, readonly string[]>>> = {};

/**
 * Whether the signed-in user may do `permission`: one of its roles, or the `contact.<permission>` permission (the
 * `admin` role holds them all). A permission the role block does not name is open to every signed-in user (or to
 * anyone, on public routes).
 */
export function allowed(request: Request, permission: Permission): boolean {
  const roles = ROLES[permission];
  if (!roles) return true;
  return userCan(request, `contact.${permission}`) || roles.some((role) => userHasRole(request, role));
}

/**
 * The actions the pages offer to the signed-in user (`allowed` in the views' context): the list and the detail page
 * hide the others. The CSV export holds the list's rows: it needs `index` as well as `export`.
 */
export function allowedActions(request: Request): Record<Permission, boolean> {
  const index = allowed(request, 'index');
  return {
    index,
    show: allowed(request, 'show'),
    create: allowed(request, 'create'),
    update: allowed(request, 'update'),
    delete: allowed(request, 'delete'),
    export: index && allowed(request, 'export'),
  };
}

/** The values of INSERT, in its column order. */
export function insertValues(record: Contact): unknown[] {
  const row = record.toRow();
  return [row.Nom, row.Prenom, row.Email, row.DateNaissance, row.Solde, row.NbVisites, row.Actif, row.VilleId, row.CodeClient];
}

/** The values of UPDATE, in its column order, the key last. */
export function updateValues(record: Contact, id: number): unknown[] {
  const row = record.toRow();
  return [row.Nom, row.Prenom, row.Email, row.DateNaissance, row.Solde, row.NbVisites, row.Actif, row.VilleId, row.CodeClient, id];
}

/** Saves the record's many-to-many links given by the form, in the record's transaction. */
export async function saveLinks(id: number, links: Links, tx: Transaction): Promise<void> {
  if (links.tag_ids) await saveLinkRows(LINKS.tag_ids, id, links.tag_ids, tx);
}

export function toListRow(row: Row): ListRow {
  return Object.assign(Contact.fromRow(row), {
    ville_id_label: row['ville_id_label'] === null || row['ville_id_label'] === undefined ? null : String(row['ville_id_label']),
  });
}

/** The edit form's values: the record and its links. */
export async function formValues(row: ListRow): Promise<Record<string, unknown>> {
  const id = row.id as number;
  return { ...row, tag_ids: await linkRows(LINKS.tag_ids, id) };
}

/** What the detail page shows, in field order, then the many-to-many links. */
export async function details(row: ListRow): Promise<Array<{ label: string; value: unknown }>> {
  const id = row.id as number;
  return [
    { label: 'Nom', value: row.nom },
    { label: 'Prenom', value: row.prenom },
    { label: 'Email', value: row.email },
    { label: 'Date naissance', value: formatDate(row.date_naissance) },
    { label: 'Solde', value: formatNumber(row.solde) },
    { label: 'Nb visites', value: row.nb_visites },
    { label: 'Actif', value: row.actif ? trans('crud.yes') : trans('crud.no') },
    { label: 'Ville', value: row.ville_id_label ?? row.ville_id },
    { label: 'Code client', value: row.code_client },
    linkDetails('Tags', await fetchAll(`SELECT o.Libelle AS label, p.AjouteLe AS v0 FROM contact_tag p JOIN tag o ON o.Id = p.TagId WHERE p.ContactId = ? ORDER BY ${textOrder('o.Libelle')}, o.Id`, [id]), [
      { label: 'Ajoute le', show: (v: unknown) => formatDate(v) },
    ]),
  ];
}

/** The CSV export's header (the fields' labels, as on the pages) and the cells of a row. */
export const CSV_HEADER: readonly string[] = ['Nom', 'Prenom', 'Email', 'Date naissance', 'Solde', 'Nb visites', 'Actif', 'Ville', 'Code client'];

export function csvRow(row: ListRow): unknown[] {
  return [row.nom, row.prenom, row.email, row.date_naissance, row.solde, row.nb_visites, row.actif, row.ville_id_label, row.code_client];
}

/** How a record is named on the bulk-delete confirmation page. */
export function rowLabel(row: ListRow): string {
  return `#${String(row.id)} ${String(row.nom ?? '')}`;
}

/**
 * The choices of the form's selects. `keep` gives, by field, the values a select must offer whatever their rank
 * among the targets: the record edited, the values posted, the active filters.
 */
export async function formChoices(keep: Readonly<Record<string, unknown>> = {}): Promise<Record<string, readonly Choice[]>> {
  return {
    ville_id: await villeIdChoices([keep['ville_id']]),
    tag_ids: await tagIdsChoices(linkRowKeys(keep, 'tag_ids')),
  };
}

/** The options of the list's many-to-one and many-to-many filters. */
export async function filterChoices(filters: Readonly<Record<string, string>>): Promise<Record<string, Array<{ value: string; label: string }>>> {
  return {
    ville_id: options(await villeIdChoices([filters['ville_id']])),
    tag_ids: options(await tagIdsChoices([filters['tag_ids']])),
  };
}

function options(choices: readonly Choice[]): Array<{ value: string; label: string }> {
  return choices.map(([value, label]) => ({ value: String(value), label }));
}

/**
 * Choices of the ville_id select: the first CHOICES_MAX Ville by nom, then those of `keep` that come
 * further down (the record's value, the value posted, the active filter), so that a valid id is never refused nor
 * dropped on save. An unknown id finds no row: it stays out, and the form refuses it.
 */
export async function villeIdChoices(keep: readonly unknown[] = []): Promise<Choice[]> {
  const order = `ORDER BY ${textOrder('Nom')}, Id`;
  const rows = await fetchAll<{ id: unknown; label: unknown }>(`SELECT Id AS id, Nom AS label FROM ville ${order} LIMIT ?`, [CHOICES_MAX]);
  const missing = missingChoiceKeys(rows, keep, 'int');
  if (missing.length > 0) {
    // Past the first rows in the same order, hence after them.
    rows.push(...(await fetchAll<{ id: unknown; label: unknown }>(`SELECT Id AS id, Nom AS label FROM ville WHERE Id IN (${placeholders(missing.length)}) ${order}`, missing)));
  }
  return rows.map((row) => [String(row.id), String(row.label ?? row.id)] as const);
}

/**
 * Choices of the tag_ids multiple select: the first CHOICES_MAX Tag by libelle, then the linked or posted
 * ids of `keep` that come further down, so that a link is never dropped on save.
 */
export async function tagIdsChoices(keep: readonly unknown[] = []): Promise<Choice[]> {
  const order = `ORDER BY ${textOrder('Libelle')}, Id`;
  const rows = await fetchAll<{ id: unknown; label: unknown }>(`SELECT Id AS id, Libelle AS label FROM tag ${order} LIMIT ?`, [CHOICES_MAX]);
  const missing = missingChoiceKeys(rows, keep, 'int');
  if (missing.length > 0) {
    // Past the first rows in the same order, hence after them.
    rows.push(...(await fetchAll<{ id: unknown; label: unknown }>(`SELECT Id AS id, Libelle AS label FROM tag WHERE Id IN (${placeholders(missing.length)}) ${order}`, missing)));
  }
  return rows.map((row) => [String(row.id), String(row.label ?? row.id)] as const);
}
