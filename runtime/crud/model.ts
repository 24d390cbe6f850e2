/**
 * `crudModel(resource)`: the queries of an entity's CRUD pages, as static methods of a class the entity's
 * `mvc/models/<snake>_model.ts` extends (docs/crud.md "The model"). Every value goes through a `?`; table and column
 * names come from the description, never from the request. A subclass overrides one to change it: the controller
 * calls the class it was given.
 */
import { execute, fetchAll, fetchOne, insert, transaction, type Row } from '../db/database.js';
import type { Request } from '../http/request.js';
import type { Pagination } from '../pagination.js';
import { CSV_MAX_ROWS } from './csv.js';
import type { CrudEntityClass, CrudRow } from './description.js';
import { placeholders } from './ids.js';
import { listPage } from './list-page.js';
import type { ListQuery, SqlFragment } from './list-query.js';
import type { CrudMediaPages, CrudMediaSubmission } from './media.js';
import { assertUnreferenced } from './references.js';
import type { CrudLinks, CrudResource } from './resource.js';

/** One page of a list: its state, its rows, its pages. */
export interface CrudPage<R> {
  readonly query: ListQuery;
  readonly rows: R[];
  readonly pagination: Pagination;
}

/** The queries the actions call (what `crudModel()` gives, or a class of one's own with the same statics). */
export interface CrudModelClass<R = object, E = object> {
  page(request: Pick<Request, 'params'>, scope?: SqlFragment | null): Promise<CrudPage<R>>;
  exportRows(query: ListQuery): Promise<R[]>;
  find(id: number, scope?: SqlFragment | null): Promise<R | null>;
  findMany(ids: readonly number[], scope?: SqlFragment | null): Promise<R[]>;
  create(record: E, links?: CrudLinks, media?: CrudMediaSubmission): Promise<number>;
  update(id: number, record: E, links?: CrudLinks, media?: CrudMediaSubmission): Promise<number>;
  delete(id: number): Promise<number>;
  deleteMany(ids: readonly number[]): Promise<number>;
}

/** ` AND (<scope>)` and its parameters, or nothing. */
function scoped(scope: SqlFragment | null | undefined): SqlFragment {
  return scope ? { sql: ` AND (${scope.sql})`, params: scope.params } : { sql: '', params: [] };
}

/** The options of `crudModel()`: the entity's media (`<snake>_media.ts`), written with the record and deleted with it. */
export interface CrudModelOptions {
  readonly media?: CrudMediaPages | null;
}

/**
 * The class of the queries of `resource`'s pages. `perPage` (20, docs/crud.md "The list page") may be overridden
 * by a subclass, as any of the methods.
 */
export function crudModel<C extends CrudEntityClass, L extends string>(resource: CrudResource<C, L>, options: CrudModelOptions = {}) {
  type R = CrudRow<C, L>;
  type E = InstanceType<C>;
  const media = options.media ?? null;
  const { select, count } = resource.sql;
  const key = `t.${resource.key.column}`;
  const toRows = (rows: Row[]): R[] => rows.map((row) => resource.listRow(row));

  return class CrudModel {
    /** The description the queries read. */
    static readonly resource = resource;
    /** Rows per page of the list. */
    static perPage = 20;

    /**
     * One page of the list for the request's `q`, filters, `sort`, `direction` and `page`, within `scope`: `SELECT …
     * WHERE … ORDER BY … LIMIT ? OFFSET ?` and, when the rows cannot tell the total, `COUNT(*)` kept a few seconds for
     * the same query (docs/crud.md "What a list page costs").
     */
    static async page(request: Pick<Request, 'params'>, scope: SqlFragment | null = null): Promise<CrudPage<R>> {
      const { query, rows, pagination } = await listPage(request, resource.list, { select, count, perPage: this.perPage, scope });
      return { query, rows: toRows(rows), pagination };
    }

    /** The rows of the CSV export: the query's search, filters, scope and sort, no pagination, at most CSV_MAX_ROWS. */
    static async exportRows(query: ListQuery): Promise<R[]> {
      const where = query.where();
      return toRows(await fetchAll(`${select} ${where.sql} ${query.orderBy()} LIMIT ?`, [...where.params, CSV_MAX_ROWS]));
    }

    /** The record of this id within `scope`, or null. */
    static async find(id: number, scope: SqlFragment | null = null): Promise<R | null> {
      const within = scoped(scope);
      const row = await fetchOne(`${select} WHERE ${key} = ?${within.sql}`, [id, ...within.params]);
      return row ? resource.listRow(row) : null;
    }

    /** The records of these ids within `scope`, in key order (the bulk-delete confirmation page). */
    static async findMany(ids: readonly number[], scope: SqlFragment | null = null): Promise<R[]> {
      if (ids.length === 0) return [];
      const within = scoped(scope);
      return toRows(await fetchAll(`${select} WHERE ${key} IN (${placeholders(ids.length)})${within.sql} ORDER BY ${key}`, [...ids, ...within.params]));
    }

    /**
     * Inserts the record, its many-to-many links and the rows of its stored media in one transaction; returns its new
     * id. A unique violation throws DuplicateError.
     */
    static async create(record: E, links: CrudLinks = {}, submission?: CrudMediaSubmission): Promise<number> {
      return transaction(async (tx) => {
        const id = await insert(resource.sql.insert, resource.insertValues(record), tx);
        await resource.saveLinks(id, links, tx);
        await submission?.apply(id, tx);
        return id;
      });
    }

    /** Updates the record, its many-to-many links and its media rows in one transaction; returns the number of rows changed. */
    static async update(id: number, record: E, links: CrudLinks = {}, submission?: CrudMediaSubmission): Promise<number> {
      return transaction(async (tx) => {
        const changed = await execute(resource.sql.update, resource.updateValues(record, id), tx);
        await resource.saveLinks(id, links, tx);
        await submission?.apply(id, tx);
        return changed;
      });
    }

    /** Deletes the record (see deleteMany). */
    static async delete(id: number): Promise<number> {
      return this.deleteMany([id]);
    }

    /**
     * Deletes these ids with one `?` per id, all or none, in one transaction, then their media rows and files;
     * returns the number of rows deleted. Many-to-many links go with them (the pivots' foreign keys cascade). When
     * rows of other tables still refer to some of them (ON DELETE RESTRICT), InUseError names those ids and nothing
     * is deleted (docs/crud.md "Deleting a record that others refer to").
     */
    static async deleteMany(ids: readonly number[]): Promise<number> {
      if (ids.length === 0) return 0;
      const deleted = await transaction(async (tx) => {
        await assertUnreferenced(resource.table, resource.key.column, resource.description.references, ids, tx);
        return execute(`DELETE FROM ${resource.table} WHERE ${resource.key.column} IN (${placeholders(ids.length)})`, ids, tx);
      });
      if (media) await media.deleteFor(ids);
      return deleted;
    }
  };
}
