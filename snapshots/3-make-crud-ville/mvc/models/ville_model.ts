// Model of the entity Ville: the queries of its CRUD pages. This file is yours: `fw make:crud Ville`
// created it once and never overwrites it. The columns, joins and allow-lists come from ville_crud.ts, which
// `fw sync:entity Ville` keeps in step with the entity. Every value goes through a `?` placeholder; column
// names only come from those allow-lists, never from the request.
import { CSV_MAX_ROWS, assertUnreferenced, execute, fetchAll, fetchOne, forgetListCounts, insert, listPage, placeholders, transaction, type ListQuery, type Pagination, type Request } from 'fw-mvc';
import type { Ville } from '../entities/ville/index.js';
import * as crud from './ville_crud.js';

/** A row of the list and of the detail page. */
export type VilleListRow = crud.ListRow;

/** The allow-lists of the list page (sort keys, searched columns, equality filters). */
export const VILLE_LIST = crud.LIST;

export class VilleModel {
  static readonly perPage = 20;

  /**
   * One page of the list for the request's `q`, filters, `sort`, `direction` and `page`: `SELECT … WHERE … ORDER BY …
   * LIMIT ? OFFSET ?` and, when the rows cannot tell the total, `COUNT(*)` kept a few seconds for the same query
   * (docs/crud.md "What a list page costs").
   */
  static async page(request: Pick<Request, 'params'>): Promise<{ query: ListQuery; rows: VilleListRow[]; pagination: Pagination }> {
    const { query, rows, pagination } = await listPage(request, VILLE_LIST, { select: crud.SELECT, count: crud.COUNT, perPage: VilleModel.perPage });
    return { query, rows: rows.map(crud.toListRow), pagination };
  }

  /** The rows of the CSV export: the same search, filters and sort, no pagination, at most CSV_MAX_ROWS. */
  static async exportRows(query: ListQuery): Promise<VilleListRow[]> {
    const where = query.where();
    const rows = await fetchAll(`${crud.SELECT} ${where.sql} ${query.orderBy()} LIMIT ?`, [...where.params, CSV_MAX_ROWS]);
    return rows.map(crud.toListRow);
  }

  static async find(id: number): Promise<VilleListRow | null> {
    const row = await fetchOne(`${crud.SELECT} WHERE ${crud.KEY} = ?`, [id]);
    return row ? crud.toListRow(row) : null;
  }

  /** The rows of these ids (the bulk-delete confirmation page). */
  static async findMany(ids: readonly number[]): Promise<VilleListRow[]> {
    if (ids.length === 0) return [];
    const rows = await fetchAll(`${crud.SELECT} WHERE ${crud.KEY} IN (${placeholders(ids.length)}) ORDER BY ${crud.KEY}`, ids);
    return rows.map(crud.toListRow);
  }

  /** Inserts the record and its many-to-many links in one transaction; returns its new id. A unique violation throws DuplicateError. */
  static async create(record: Ville, links: crud.Links = {}): Promise<number> {
    const id = await transaction(async (tx) => {
      const id = await insert(crud.INSERT, crud.insertValues(record), tx);
      await crud.saveLinks(id, links, tx);
      return id;
    });
    forgetListCounts();
    return id;
  }

  /** Updates the record and its many-to-many links in one transaction; returns the number of rows changed. */
  static async update(id: number, record: Ville, links: crud.Links = {}): Promise<number> {
    const changed = await transaction(async (tx) => {
      const changed = await execute(crud.UPDATE, crud.updateValues(record, id), tx);
      await crud.saveLinks(id, links, tx);
      return changed;
    });
    forgetListCounts();
    return changed;
  }

  /**
   * Deletes the record (its many-to-many links go with it: the pivot's foreign keys cascade).
   * Rows of other tables that still refer to it (ON DELETE RESTRICT) throw InUseError: nothing is deleted.
   */
  static async delete(id: number): Promise<number> {
    return VilleModel.deleteMany([id]);
  }

  /**
   * Deletes these ids with one `?` per id, all or none, in one transaction; returns the number
   * of rows deleted. When rows of other tables still refer to some of them, InUseError names those ids and nothing
   * is deleted.
   */
  static async deleteMany(ids: readonly number[]): Promise<number> {
    if (ids.length === 0) return 0;
    const deleted = await transaction(async (tx) => {
      await assertUnreferenced(crud.TABLE, crud.KEY_COLUMN, crud.REFERENCES, ids, tx);
      return execute(`DELETE FROM ${crud.TABLE} WHERE ${crud.KEY_COLUMN} IN (${placeholders(ids.length)})`, ids, tx);
    });
    forgetListCounts();
    return deleted;
  }
}
