// Model of the entity Ville: the SQL of its CRUD pages. This file is yours: `fw make:crud Ville`
// created it once and never overwrites it. Every value goes through a `?` placeholder; column names only come
// from the allow-lists below, never from the request.
import { CSV_MAX_ROWS, ListQuery, Pagination, execute, fetchAll, fetchOne, insert, placeholders, type ListSpec, type Request, type Row } from 'fw-mvc';
import { Ville } from '../entities/ville/index.js';

/** A row of the list and of the detail page: the entity. */
export type VilleListRow = Ville;

/** The allow-lists of the list page: sort keys, searched columns, equality filters. */
export const VILLE_LIST: ListSpec = {
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

const SELECT = 'SELECT t.Id, t.Nom, t.CodePostal FROM ville t';
const COUNT = 'SELECT COUNT(*) AS total FROM ville t';

export class VilleModel {
  static readonly perPage = 20;

  /** One page of the list for the request's `q`, filters, `sort`, `direction` and `page`. */
  static async page(request: Pick<Request, 'params'>): Promise<{ query: ListQuery; rows: VilleListRow[]; pagination: Pagination }> {
    const query = ListQuery.fromRequest(request, VILLE_LIST);
    const where = query.where();
    const count = await fetchOne<{ total: unknown }>(`${COUNT} ${where.sql}`, where.params);
    const pagination = new Pagination(request, Number(count?.total ?? 0), VilleModel.perPage, { params: query.linkParams() });
    // Nothing matches: no second query (a sorted LIMIT over no match would read the whole table).
    const rows = pagination.total === 0 ? [] : await fetchAll(`${SELECT} ${where.sql} ${query.orderBy()} LIMIT ? OFFSET ?`, [...where.params, pagination.limit, pagination.offset]);
    return { query, rows: rows.map(toListRow), pagination };
  }

  /** The rows of the CSV export: the same search, filters and sort, no pagination, at most CSV_MAX_ROWS. */
  static async exportRows(query: ListQuery): Promise<VilleListRow[]> {
    const where = query.where();
    const rows = await fetchAll(`${SELECT} ${where.sql} ${query.orderBy()} LIMIT ?`, [...where.params, CSV_MAX_ROWS]);
    return rows.map(toListRow);
  }

  static async find(id: number): Promise<VilleListRow | null> {
    const row = await fetchOne(`${SELECT} WHERE t.Id = ?`, [id]);
    return row ? toListRow(row) : null;
  }

  /** The rows of these ids (the bulk-delete confirmation page). */
  static async findMany(ids: readonly number[]): Promise<VilleListRow[]> {
    if (ids.length === 0) return [];
    const rows = await fetchAll(`${SELECT} WHERE t.Id IN (${placeholders(ids.length)}) ORDER BY t.Id`, ids);
    return rows.map(toListRow);
  }

  /** Inserts the record; returns its new id. A unique violation throws DuplicateError. */
  static async create(record: Ville): Promise<number> {
    const row = record.toRow();
    return insert('INSERT INTO ville (Nom, CodePostal) VALUES (?, ?)', [row.Nom, row.CodePostal]);
  }

  /** Updates the record; returns the number of rows changed. A unique violation throws DuplicateError. */
  static async update(id: number, record: Ville): Promise<number> {
    const row = record.toRow();
    return execute('UPDATE ville SET Nom = ?, CodePostal = ? WHERE Id = ?', [row.Nom, row.CodePostal, id]);
  }

  static async delete(id: number): Promise<number> {
    return execute('DELETE FROM ville WHERE Id = ?', [id]);
  }

  /** Deletes these ids with one `?` per id; returns the number of rows deleted. */
  static async deleteMany(ids: readonly number[]): Promise<number> {
    if (ids.length === 0) return 0;
    return execute(`DELETE FROM ville WHERE Id IN (${placeholders(ids.length)})`, ids);
  }
}

function toListRow(row: Row): VilleListRow {
  return Ville.fromRow(row);
}
