// fw-mvc: generated file, do not edit (regenerate with: fw sync:entity Ville)
// The CRUD pages of Ville as mvc/entities/ville/ville.json describes them: the list's columns and allow-lists, the SQL of the
// fields, the choices of the relations, the CSV and detail columns. ville_model.ts and ville_controller.ts
// (yours) use it; `fw sync:entity Ville` and `fw build:model` rewrite it when the entity changes.
import { trans, userCan, userHasRole, type Choice, type ListSpec, type ReferenceSpec, type Request, type Row, type Transaction } from 'fw-mvc';
import { Ville } from '../entities/ville/index.js';

/** Title of the pages (the list's heading, the browser tab), a record's name (detail and form headings), the CSV file's name. */
export const TITLE = 'Villes';
export const LABEL = 'Ville';
export const CSV_FILE = 'villes.csv';

/** The table, its key column, and the key as the list's SELECT names it. */
export const TABLE = 'ville';
export const KEY_COLUMN = 'Id';
export const KEY = 't.Id';

/** A row of the list and of the detail page: the entity. */
export type ListRow = Ville;

/** Many-to-many links saved with the record, by form field: the other side's ids (absent: left as they are). */
export interface Links {}

/** The allow-lists of the list page: sort keys, searched columns, equality filters. */
export const LIST: ListSpec = {
  sortable: {
    id: 't.Id',
    nom: 't.Nom',
    code_postal: 't.CodePostal',
  },
  defaultSort: 'id',
  searchable: ['t.Nom', 't.CodePostal'],
  filters: {
    nom: { column: 't.Nom', kind: 'text' },
    code_postal: { column: 't.CodePostal', kind: 'text' },
  },
};

export const SELECT = 'SELECT t.Id, t.Nom, t.CodePostal FROM ville t';
export const COUNT = 'SELECT COUNT(*) AS total FROM ville t';
export const INSERT = 'INSERT INTO ville (Nom, CodePostal) VALUES (?, ?)';
export const UPDATE = 'UPDATE ville SET Nom = ?, CodePostal = ? WHERE Id = ?';

/** Unique fields by the names the servers give them (MariaDB: the key; SQLite: table.column): a DuplicateError becomes a message on the field. */
export const UNIQUE_KEYS: Readonly<Record<string, string>> = {
  'uq_ville_codepostal': 'code_postal',
  'ville.CodePostal': 'code_postal',
  'CodePostal': 'code_postal',
};

/**
 * The foreign keys of other tables that keep a record from being deleted (their `on_delete` is RESTRICT or NO ACTION):
 * the model counts their rows before a delete, and the refusal names them (docs/crud.md "Deleting a record that
 * others refer to").
 */
export const REFERENCES: readonly ReferenceSpec[] = [
  { table: 'contact', column: 'VilleId', target: 'Id', one: 'contact', many: 'contacts' },
];

/** The list's total as users read it: `1 ville`, `2 villes`. */
export function countLabel(count: number): string {
  return `${count} ${count === 1 ? 'ville' : 'villes'}`;
}

/** The actions of the pages, as the role block names them. */
export type Permission = 'index' | 'show' | 'create' | 'update' | 'delete' | 'export';

/** Roles allowed per permission (mvc/entities/ville/ville.json has no role block: every action is open). */
export const ROLES: Readonly<Partial<Record<Permission, readonly string[]>>> = {};

/**
 * Whether the signed-in user may do `permission`: one of its roles, or the `ville.<permission>` permission (the
 * `admin` role holds them all). A permission the role block does not name is open to every signed-in user (or to
 * anyone, on public routes).
 */
export function allowed(request: Request, permission: Permission): boolean {
  const roles = ROLES[permission];
  if (!roles) return true;
  return userCan(request, `ville.${permission}`) || roles.some((role) => userHasRole(request, role));
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
export function insertValues(record: Ville): unknown[] {
  const row = record.toRow();
  return [row.Nom, row.CodePostal];
}

/** The values of UPDATE, in its column order, the key last. */
export function updateValues(record: Ville, id: number): unknown[] {
  const row = record.toRow();
  return [row.Nom, row.CodePostal, id];
}

/** Saves the record's many-to-many links given by the form, in the record's transaction. */
export async function saveLinks(_id: number, _links: Links, _tx: Transaction): Promise<void> {
  // No many-to-many relation: nothing to save beside the record.
}

export function toListRow(row: Row): ListRow {
  return Ville.fromRow(row);
}

/** The edit form's values: the record. */
export async function formValues(row: ListRow): Promise<Record<string, unknown>> {
  return { ...row };
}

/** What the detail page shows, in field order. */
export async function details(row: ListRow): Promise<Array<{ label: string; value: unknown }>> {
  return [
    { label: 'Nom', value: row.nom },
    { label: 'Code postal', value: row.code_postal },
  ];
}

/** The CSV export's header (the fields' labels, as on the pages) and the cells of a row. */
export const CSV_HEADER: readonly string[] = ['Nom', 'Code postal'];

export function csvRow(row: ListRow): unknown[] {
  return [row.nom, row.code_postal];
}

/** How a record is named on the bulk-delete confirmation page. */
export function rowLabel(row: ListRow): string {
  return `#${String(row.id)} ${String(row.nom ?? '')}`;
}

/**
 * The choices of the form's selects. `keep` gives, by field, the values a select must offer whatever their rank
 * among the targets: the record edited, the values posted, the active filters.
 */
export async function formChoices(_keep: Readonly<Record<string, unknown>> = {}): Promise<Record<string, readonly Choice[]>> {
  return {};
}

/** The options of the list's many-to-one and many-to-many filters. */
export async function filterChoices(_filters: Readonly<Record<string, string>>): Promise<Record<string, Array<{ value: string; label: string }>>> {
  return {};
}
