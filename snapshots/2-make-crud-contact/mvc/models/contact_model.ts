// Model of the entity Contact: the SQL of its CRUD pages. This file is yours: `fw make:crud Contact`
// created it once and never overwrites it. Every value goes through a `?` placeholder; column names only come
// from the allow-lists below, never from the request.
import { CHOICES_MAX, CSV_MAX_ROWS, ListQuery, Pagination, execute, fetchAll, fetchOne, insert, missingChoiceKeys, placeholders, type ListSpec, type Request, type Row, type Choice } from 'fw-mvc';
import { Contact } from '../entities/contact/index.js';

/** A row of the list and of the detail page: the entity and the labels of its many-to-one targets. */
export type ContactListRow = Contact & { ville_id_label: string | null };

/** The allow-lists of the list page: sort keys, searched columns, equality filters. */
export const CONTACT_LIST: ListSpec = {
  sortable: {
    id: 't.Id',
    nom: 't.Nom',
    prenom: 't.Prenom',
    email: 't.Email',
    telephone: 't.Telephone',
    date_naissance: 't.DateNaissance',
    solde: 't.Solde',
    nb_visites: 't.NbVisites',
    actif: 't.Actif',
    ville_id: 't.VilleId',
  },
  defaultSort: 'id',
  searchable: ['t.Nom', 't.Prenom', 't.Email', 't.Telephone'],
  filters: {
    actif: { column: 't.Actif', kind: 'bool' },
    ville_id: { column: 't.VilleId', kind: 'relation' },
  },
};

const SELECT = 'SELECT t.Id, t.Nom, t.Prenom, t.Email, t.Telephone, t.DateNaissance, t.Solde, t.NbVisites, t.Actif, t.VilleId, r_ville_id.Nom AS ville_id_label FROM contact t LEFT JOIN ville r_ville_id ON r_ville_id.Id = t.VilleId';
const COUNT = 'SELECT COUNT(*) AS total FROM contact t';

export class ContactModel {
  static readonly perPage = 20;

  /** One page of the list for the request's `q`, filters, `sort`, `direction` and `page`. */
  static async page(request: Pick<Request, 'params'>): Promise<{ query: ListQuery; rows: ContactListRow[]; pagination: Pagination }> {
    const query = ListQuery.fromRequest(request, CONTACT_LIST);
    const where = query.where();
    const count = await fetchOne<{ total: unknown }>(`${COUNT} ${where.sql}`, where.params);
    const pagination = new Pagination(request, Number(count?.total ?? 0), ContactModel.perPage, { params: query.linkParams() });
    // Nothing matches: no second query (a sorted LIMIT over no match would read the whole table).
    const rows = pagination.total === 0 ? [] : await fetchAll(`${SELECT} ${where.sql} ${query.orderBy()} LIMIT ? OFFSET ?`, [...where.params, pagination.limit, pagination.offset]);
    return { query, rows: rows.map(toListRow), pagination };
  }

  /** The rows of the CSV export: the same search, filters and sort, no pagination, at most CSV_MAX_ROWS. */
  static async exportRows(query: ListQuery): Promise<ContactListRow[]> {
    const where = query.where();
    const rows = await fetchAll(`${SELECT} ${where.sql} ${query.orderBy()} LIMIT ?`, [...where.params, CSV_MAX_ROWS]);
    return rows.map(toListRow);
  }

  static async find(id: number): Promise<ContactListRow | null> {
    const row = await fetchOne(`${SELECT} WHERE t.Id = ?`, [id]);
    return row ? toListRow(row) : null;
  }

  /** The rows of these ids (the bulk-delete confirmation page). */
  static async findMany(ids: readonly number[]): Promise<ContactListRow[]> {
    if (ids.length === 0) return [];
    const rows = await fetchAll(`${SELECT} WHERE t.Id IN (${placeholders(ids.length)}) ORDER BY t.Id`, ids);
    return rows.map(toListRow);
  }

  /** Inserts the record; returns its new id. A unique violation throws DuplicateError. */
  static async create(record: Contact): Promise<number> {
    const row = record.toRow();
    return insert('INSERT INTO contact (Nom, Prenom, Email, Telephone, DateNaissance, Solde, NbVisites, Actif, VilleId) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)', [row.Nom, row.Prenom, row.Email, row.Telephone, row.DateNaissance, row.Solde, row.NbVisites, row.Actif, row.VilleId]);
  }

  /** Updates the record; returns the number of rows changed. A unique violation throws DuplicateError. */
  static async update(id: number, record: Contact): Promise<number> {
    const row = record.toRow();
    return execute('UPDATE contact SET Nom = ?, Prenom = ?, Email = ?, Telephone = ?, DateNaissance = ?, Solde = ?, NbVisites = ?, Actif = ?, VilleId = ? WHERE Id = ?', [row.Nom, row.Prenom, row.Email, row.Telephone, row.DateNaissance, row.Solde, row.NbVisites, row.Actif, row.VilleId, id]);
  }

  static async delete(id: number): Promise<number> {
    return execute('DELETE FROM contact WHERE Id = ?', [id]);
  }

  /** Deletes these ids with one `?` per id; returns the number of rows deleted. */
  static async deleteMany(ids: readonly number[]): Promise<number> {
    if (ids.length === 0) return 0;
    return execute(`DELETE FROM contact WHERE Id IN (${placeholders(ids.length)})`, ids);
  }

  /**
   * Choices of the ville_id select: the first CHOICES_MAX Ville by nom, then those of `keep` that come
   * further down (the record's value, the value posted, the active filter), so that a valid id is never refused nor
   * dropped on save. An unknown id finds no row: it stays out, and the form refuses it.
   */
  static async villeIdChoices(keep: readonly unknown[] = []): Promise<Choice[]> {
    const rows = await fetchAll<{ id: unknown; label: unknown }>('SELECT Id AS id, Nom AS label FROM ville ORDER BY Nom, Id LIMIT ?', [CHOICES_MAX]);
    const missing = missingChoiceKeys(rows, keep, 'int');
    if (missing.length > 0) {
      // Past the first rows in the same order, hence after them.
      rows.push(...(await fetchAll<{ id: unknown; label: unknown }>(`SELECT Id AS id, Nom AS label FROM ville WHERE Id IN (${placeholders(missing.length)}) ORDER BY Nom, Id`, missing)));
    }
    return rows.map((row) => [String(row.id), String(row.label ?? row.id)] as const);
  }
}

function toListRow(row: Row): ContactListRow {
  return Object.assign(Contact.fromRow(row), {
    ville_id_label: row['ville_id_label'] === null || row['ville_id_label'] === undefined ? null : String(row['ville_id_label']),
  });
}
