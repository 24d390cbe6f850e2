/**
 * The model the previous fw-mvc wrote (`mvc/models/<snake>_model.ts`), kept as it was for `fw make:crud --upgrade`
 * (docs/decisions.md "Upgrading an entity's files"). Frozen: never change its output.
 */
import type { CrudPlan } from '../plan.js';

export function legacyModel(plan: CrudPlan): string {
  const { entity, entityClass, modelClass, listConst } = plan;
  const rowType = `${entityClass}ListRow`;
  const media = plan.media !== null;
  const mediaParam = media ? ', media?: MediaSubmission' : '';
  const applyMedia = media ? '\n      await media?.apply(id, tx);' : '';
  return `// Model of the entity ${entityClass}: the queries of its CRUD pages. This file is yours: \`fw make:crud ${entityClass}\`
// created it once and never overwrites it. The columns, joins and allow-lists come from ${plan.crudModule}.ts, which
// \`fw sync:entity ${entityClass}\` keeps in step with the entity. Every value goes through a \`?\` placeholder; column
// names only come from those allow-lists, never from the request.
import { CSV_MAX_ROWS, assertUnreferenced, execute, fetchAll, fetchOne, forgetListCounts, insert, listPage, placeholders, transaction, type ListQuery, type Pagination, type Request } from 'fw-mvc';${media ? `\nimport type { MediaSubmission } from 'fw-mvc/media';` : ''}
import type { ${entityClass} } from '../entities/${entity.snake}/index.js';
import * as crud from './${plan.crudModule}.js';${media ? `\nimport { MEDIA } from './${plan.mediaModule}.js';` : ''}

/** A row of the list and of the detail page. */
export type ${rowType} = crud.ListRow;

/** The allow-lists of the list page (sort keys, searched columns, equality filters). */
export const ${listConst} = crud.LIST;

export class ${modelClass} {
  static readonly perPage = 20;

  /**
   * One page of the list for the request's \`q\`, filters, \`sort\`, \`direction\` and \`page\`: \`SELECT … WHERE … ORDER BY …
   * LIMIT ? OFFSET ?\` and, when the rows cannot tell the total, \`COUNT(*)\` kept a few seconds for the same query
   * (docs/crud.md "What a list page costs").
   */
  static async page(request: Pick<Request, 'params'>): Promise<{ query: ListQuery; rows: ${rowType}[]; pagination: Pagination }> {
    const { query, rows, pagination } = await listPage(request, ${listConst}, { select: crud.SELECT, count: crud.COUNT, perPage: ${modelClass}.perPage });
    return { query, rows: rows.map(crud.toListRow), pagination };
  }

  /** The rows of the CSV export: the same search, filters and sort, no pagination, at most CSV_MAX_ROWS. */
  static async exportRows(query: ListQuery): Promise<${rowType}[]> {
    const where = query.where();
    const rows = await fetchAll(\`\${crud.SELECT} \${where.sql} \${query.orderBy()} LIMIT ?\`, [...where.params, CSV_MAX_ROWS]);
    return rows.map(crud.toListRow);
  }

  static async find(id: number): Promise<${rowType} | null> {
    const row = await fetchOne(\`\${crud.SELECT} WHERE \${crud.KEY} = ?\`, [id]);
    return row ? crud.toListRow(row) : null;
  }

  /** The rows of these ids (the bulk-delete confirmation page). */
  static async findMany(ids: readonly number[]): Promise<${rowType}[]> {
    if (ids.length === 0) return [];
    const rows = await fetchAll(\`\${crud.SELECT} WHERE \${crud.KEY} IN (\${placeholders(ids.length)}) ORDER BY \${crud.KEY}\`, ids);
    return rows.map(crud.toListRow);
  }

  /** Inserts the record${media ? ', its many-to-many links and the rows of its stored media' : ' and its many-to-many links'} in one transaction; returns its new id. A unique violation throws DuplicateError. */
  static async create(record: ${entityClass}, links: crud.Links = {}${mediaParam}): Promise<number> {
    const id = await transaction(async (tx) => {
      const id = await insert(crud.INSERT, crud.insertValues(record), tx);
      await crud.saveLinks(id, links, tx);${applyMedia}
      return id;
    });
    forgetListCounts();
    return id;
  }

  /** Updates the record${media ? ', its many-to-many links and its media rows' : ' and its many-to-many links'} in one transaction; returns the number of rows changed. */
  static async update(id: number, record: ${entityClass}, links: crud.Links = {}${mediaParam}): Promise<number> {
    const changed = await transaction(async (tx) => {
      const changed = await execute(crud.UPDATE, crud.updateValues(record, id), tx);
      await crud.saveLinks(id, links, tx);${applyMedia}
      return changed;
    });
    forgetListCounts();
    return changed;
  }

  /**
   * Deletes the record (its many-to-many links go with it: the pivot's foreign keys cascade)${media ? ', then its media rows and files' : ''}.
   * Rows of other tables that still refer to it (ON DELETE RESTRICT) throw InUseError: nothing is deleted.
   */
  static async delete(id: number): Promise<number> {
    return ${modelClass}.deleteMany([id]);
  }

  /**
   * Deletes these ids with one \`?\` per id, all or none, in one transaction${media ? ', then their media rows and files' : ''}; returns the number
   * of rows deleted. When rows of other tables still refer to some of them, InUseError names those ids and nothing
   * is deleted.
   */
  static async deleteMany(ids: readonly number[]): Promise<number> {
    if (ids.length === 0) return 0;
    const deleted = await transaction(async (tx) => {
      await assertUnreferenced(crud.TABLE, crud.KEY_COLUMN, crud.REFERENCES, ids, tx);
      return execute(\`DELETE FROM \${crud.TABLE} WHERE \${crud.KEY_COLUMN} IN (\${placeholders(ids.length)})\`, ids, tx);
    });
    forgetListCounts();${media ? '\n    await MEDIA.deleteFor(ids);' : ''}
    return deleted;
  }
}
`;
}
