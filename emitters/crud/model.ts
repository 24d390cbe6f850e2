/** `mvc/models/<snake>_model.ts`: the SQL of the CRUD pages, visible and editable (manual file). */
import type { CrudField, CrudPlan } from './plan.js';

function filterKind(f: CrudField): string {
  if (f.relation) return 'relation';
  if (f.field.logicalType === 'bool') return 'bool';
  if (f.field.logicalType === 'int') return 'int';
  return 'text';
}

export function emitCrudModel(plan: CrudPlan): string {
  const { entity, entityClass, modelClass, listConst, primaryKey: pk } = plan;
  const t = entity.table;
  const columns = entity.fields.map((f) => `t.${f.column}`);
  const labels = plan.relations.map((r) => `${r.alias}.${r.targetLabel.column} AS ${r.labelKey}`);
  const joins = plan.relations.map((r) => `LEFT JOIN ${r.target.table} ${r.alias} ON ${r.alias}.${r.targetKey.column} = t.${r.field.column}`);
  const select = `SELECT ${[...columns, ...labels].join(', ')} FROM ${t} t${joins.length ? ' ' + joins.join(' ') : ''}`;
  const writable = plan.formFields.map((f) => f.field);
  const insertColumns = writable.map((f) => f.column).join(', ');
  const insertMarks = writable.map(() => '?').join(', ');
  const updatable = writable.filter((f) => !f.primaryKey);
  const rowType = `${entityClass}ListRow`;
  const labelProps = plan.relations.map((r) => `${r.labelKey}: string | null`);
  const sortable = entity.fields.map((f) => `    ${f.name}: 't.${f.column}',`).join('\n');
  const filters = plan.filterFields.map((f) => `    ${f.field.name}: { column: 't.${f.field.column}', kind: '${filterKind(f)}' },`).join('\n');
  const choiceMethods = plan.relations
    .map((r) => {
      const select = `SELECT ${r.targetKey.column} AS id, ${r.targetLabel.column} AS label FROM ${r.target.table}`;
      const order = `ORDER BY ${r.targetLabel.column}, ${r.targetKey.column}`;
      return `
  /**
   * Choices of the ${r.field.name} select: the first CHOICES_MAX ${r.target.name} by ${r.targetLabel.name}, then those of \`keep\` that come
   * further down (the record's value, the value posted, the active filter), so that a valid id is never refused nor
   * dropped on save. An unknown id finds no row: it stays out, and the form refuses it.
   */
  static async ${r.choicesMethod}(keep: readonly unknown[] = []): Promise<Choice[]> {
    const rows = await fetchAll<{ id: unknown; label: unknown }>('${select} ${order} LIMIT ?', [CHOICES_MAX]);
    const missing = missingChoiceKeys(rows, keep, '${r.targetKey.logicalType === 'int' ? 'int' : 'text'}');
    if (missing.length > 0) {
      // Past the first rows in the same order, hence after them.
      rows.push(...(await fetchAll<{ id: unknown; label: unknown }>(\`${select} WHERE ${r.targetKey.column} IN (\${placeholders(missing.length)}) ${order}\`, missing)));
    }
    return rows.map((row) => [String(row.id), String(row.label ?? row.id)] as const);
  }
`;
    })
    .join('');
  const imports = ['CSV_MAX_ROWS', 'ListQuery', 'Pagination', 'execute', 'fetchAll', 'fetchOne', 'insert', 'placeholders', ...(plan.relations.length ? ['CHOICES_MAX', 'missingChoiceKeys'] : [])].sort();
  const typeImports = ['ListSpec', 'Request', 'Row', ...(plan.relations.length ? ['Choice'] : [])];
  const row = (v: string): string => v;
  const toListRow = plan.relations.length
    ? `return Object.assign(${entityClass}.fromRow(row), {\n${plan.relations.map((r) => `    ${r.labelKey}: row['${r.labelKey}'] === null || row['${r.labelKey}'] === undefined ? null : String(row['${r.labelKey}']),`).join('\n')}\n  });`
    : `return ${entityClass}.fromRow(row);`;
  return `// Model of the entity ${entityClass}: the SQL of its CRUD pages. This file is yours: \`fw make:crud ${entityClass}\`
// created it once and never overwrites it. Every value goes through a \`?\` placeholder; column names only come
// from the allow-lists below, never from the request.
import { ${imports.join(', ')}, type ${typeImports.join(', type ')} } from 'fw-mvc';
import { ${entityClass} } from '../entities/${entity.snake}/index.js';

/** A row of the list and of the detail page: the entity${plan.relations.length ? ' and the labels of its many-to-one targets' : ''}. */
export type ${rowType} = ${entityClass}${labelProps.length ? ` & { ${labelProps.join('; ')} }` : ''};

/** The allow-lists of the list page: sort keys, searched columns, equality filters. */
export const ${listConst}: ListSpec = {
  sortable: {
${sortable}
  },
  defaultSort: '${pk.name}',
  searchable: [${plan.searchColumns.map((c) => `'${c}'`).join(', ')}],
  filters: {
${filters}
  },
};

const SELECT = '${select}';
const COUNT = 'SELECT COUNT(*) AS total FROM ${t} t';

export class ${modelClass} {
  static readonly perPage = 20;

  /** One page of the list for the request's \`q\`, filters, \`sort\`, \`direction\` and \`page\`. */
  static async page(request: Pick<Request, 'params'>): Promise<{ query: ListQuery; rows: ${rowType}[]; pagination: Pagination }> {
    const query = ListQuery.fromRequest(request, ${listConst});
    const where = query.where();
    const count = await fetchOne<{ total: unknown }>(\`\${COUNT} \${where.sql}\`, where.params);
    const pagination = new Pagination(request, Number(count?.total ?? 0), ${modelClass}.perPage, { params: query.linkParams() });
    // Nothing matches: no second query (a sorted LIMIT over no match would read the whole table).
    const rows = pagination.total === 0 ? [] : await fetchAll(\`\${SELECT} \${where.sql} \${query.orderBy()} LIMIT ? OFFSET ?\`, [...where.params, pagination.limit, pagination.offset]);
    return { query, rows: rows.map(toListRow), pagination };
  }

  /** The rows of the CSV export: the same search, filters and sort, no pagination, at most CSV_MAX_ROWS. */
  static async exportRows(query: ListQuery): Promise<${rowType}[]> {
    const where = query.where();
    const rows = await fetchAll(\`\${SELECT} \${where.sql} \${query.orderBy()} LIMIT ?\`, [...where.params, CSV_MAX_ROWS]);
    return rows.map(toListRow);
  }

  static async find(id: number): Promise<${rowType} | null> {
    const row = await fetchOne(\`\${SELECT} WHERE t.${pk.column} = ?\`, [id]);
    return row ? toListRow(row) : null;
  }

  /** The rows of these ids (the bulk-delete confirmation page). */
  static async findMany(ids: readonly number[]): Promise<${rowType}[]> {
    if (ids.length === 0) return [];
    const rows = await fetchAll(\`\${SELECT} WHERE t.${pk.column} IN (\${placeholders(ids.length)}) ORDER BY t.${pk.column}\`, ids);
    return rows.map(toListRow);
  }

  /** Inserts the record; returns its new id. A unique violation throws DuplicateError. */
  static async create(record: ${entityClass}): Promise<number> {
    const row = record.toRow();
    return insert('INSERT INTO ${t} (${insertColumns}) VALUES (${insertMarks})', [${writable.map((f) => row(`row.${f.column}`)).join(', ')}]);
  }

  /** Updates the record; returns the number of rows changed. A unique violation throws DuplicateError. */
  static async update(id: number, record: ${entityClass}): Promise<number> {
    const row = record.toRow();
    return execute('UPDATE ${t} SET ${updatable.map((f) => `${f.column} = ?`).join(', ')} WHERE ${pk.column} = ?', [${[...updatable.map((f) => `row.${f.column}`), 'id'].join(', ')}]);
  }

  static async delete(id: number): Promise<number> {
    return execute('DELETE FROM ${t} WHERE ${pk.column} = ?', [id]);
  }

  /** Deletes these ids with one \`?\` per id; returns the number of rows deleted. */
  static async deleteMany(ids: readonly number[]): Promise<number> {
    if (ids.length === 0) return 0;
    return execute(\`DELETE FROM ${t} WHERE ${pk.column} IN (\${placeholders(ids.length)})\`, ids);
  }
${choiceMethods}}

function toListRow(row: Row): ${rowType} {
  ${toListRow}
}
`;
}
