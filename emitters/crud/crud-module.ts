/**
 * `mvc/models/<snake>_crud.ts` (regenerable): what the CRUD pages derive from the entity file — the list's columns
 * and allow-lists, the SQL of the fields, the many-to-one and many-to-many choices, the links saved with a record,
 * the CSV and detail-page columns. The manual model and controller import it (`import * as crud`), so that
 * `fw sync:entity` and `fw build:model` bring an entity change into the pages without touching a file the user owns.
 */
import type { FieldNode } from '../../compiler/ir.js';
import { tsMarkerLine, syncEntityCommand } from '../marker.js';
import { keyName } from '../sql-table-spec.js';
import { tsString } from '../text.js';
import { defaultedPivotFields, hasPivotInputs, linkDetailsEntry, linkSpec, pivotShowsDates, pivotShowsNumbers } from './pivot.js';
import { inSentence, isTextual, type CrudField, type CrudLink, type CrudPlan, type CrudRelation } from './plan.js';

/** A DATE or DATETIME field: shown as users read dates (`formatDate`, the templates' `format_date` filter). */
function isDate(f: CrudField): boolean {
  return f.input === 'date' || f.input === 'datetime';
}

/** A DECIMAL, FLOAT or DOUBLE field: shown with the locale's decimal separator (\`formatNumber\`, the templates' \`format_number\` filter). */
function isDecimal(f: CrudField): boolean {
  return f.input === 'decimal' || f.input === 'float';
}

function filterKind(f: CrudField): string {
  if (f.relation) return 'relation';
  if (f.field.logicalType === 'bool') return 'bool';
  if (f.field.logicalType === 'int') return 'int';
  return 'text';
}

/** `ORDER BY <label>, <key>` as code: a text label in MariaDB's order on SQLite too (`textOrder`). */
function orderCode(label: FieldNode, key: string, prefix = ''): string {
  const column = `${prefix}${label.column}`;
  return isTextual(label) ? `ORDER BY \${textOrder('${column}')}, ${prefix}${key}` : `ORDER BY ${column}, ${prefix}${key}`;
}

function choicesFunction(name: string, comment: string, select: string, order: string, keyColumn: string, keyKind: 'int' | 'text'): string {
  return `
/**
 * ${comment}
 */
export async function ${name}(keep: readonly unknown[] = []): Promise<Choice[]> {
  const order = \`${order}\`;
  const rows = await fetchAll<{ id: unknown; label: unknown }>(\`${select} \${order} LIMIT ?\`, [CHOICES_MAX]);
  const missing = missingChoiceKeys(rows, keep, '${keyKind}');
  if (missing.length > 0) {
    // Past the first rows in the same order, hence after them.
    rows.push(...(await fetchAll<{ id: unknown; label: unknown }>(\`${select} WHERE ${keyColumn} IN (\${placeholders(missing.length)}) \${order}\`, missing)));
  }
  return rows.map((row) => [String(row.id), String(row.label ?? row.id)] as const);
}
`;
}

function relationChoices(r: CrudRelation): string {
  const select = `SELECT ${r.targetKey.column} AS id, ${r.targetLabel.column} AS label FROM ${r.target.table}`;
  const order = orderCode(r.targetLabel, r.targetKey.column);
  const comment = `Choices of the ${r.field.name} select: the first CHOICES_MAX ${r.target.name} by ${r.targetLabel.name}, then those of \`keep\` that come
 * further down (the record's value, the value posted, the active filter), so that a valid id is never refused nor
 * dropped on save. An unknown id finds no row: it stays out, and the form refuses it.`;
  return choicesFunction(r.choicesMethod, comment, select, order, r.targetKey.column, r.targetKey.logicalType === 'int' ? 'int' : 'text');
}

function linkChoices(l: CrudLink): string {
  const select = `SELECT ${l.targetKey.column} AS id, ${l.targetLabel.column} AS label FROM ${l.target.table}`;
  const order = orderCode(l.targetLabel, l.targetKey.column);
  const comment = `Choices of the ${l.name} multiple select: the first CHOICES_MAX ${l.target.name} by ${l.targetLabel.name}, then the linked or posted
 * ids of \`keep\` that come further down, so that a link is never dropped on save.`;
  return choicesFunction(l.choicesMethod, comment, select, order, l.targetKey.column, 'int');
}

/**
 * The role block of the entity file (`rbac`) as code: the roles per permission, the check the controller makes before
 * each action, and the actions the list and detail pages offer (docs/crud.md "Permissions"). Here rather than in the
 * controller (the user's file), so that a role block added or changed later reaches the pages with `fw sync:entity`.
 */
function permissionsCode(plan: CrudPlan): string {
  const { entity } = plan;
  const roles = entity.rbac ? Object.entries(entity.rbac.permissions).map(([permission, list]) => `  ${permission}: [${list.map(tsString).join(', ')}],`) : [];
  const source = entity.rbac ? `the role block of ${entity.file}` : `${entity.file} has no role block: every action is open`;
  return `
/** The actions of the pages, as the role block names them. */
export type Permission = 'index' | 'show' | 'create' | 'update' | 'delete' | 'export';

/** Roles allowed per permission (${source}). */
export const ROLES: Readonly<Partial<Record<Permission, readonly string[]>>> = {${roles.length ? `\n${roles.join('\n')}\n` : ''}};

/**
 * Whether the signed-in user may do \`permission\`: one of its roles, or the \`${entity.snake}.<permission>\` permission (the
 * \`admin\` role holds them all). A permission the role block does not name is open to every signed-in user (or to
 * anyone, on public routes).
 */
export function allowed(request: Request, permission: Permission): boolean {
  const roles = ROLES[permission];
  if (!roles) return true;
  return userCan(request, \`${entity.snake}.\${permission}\`) || roles.some((role) => userHasRole(request, role));
}

/**
 * The actions the pages offer to the signed-in user (\`allowed\` in the views' context): the list and the detail page
 * hide the others. The CSV export holds the list's rows: it needs \`index\` as well as \`export\`.
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
`;
}

export function emitCrudModule(plan: CrudPlan): string {
  const { entity, entityClass, primaryKey: pk, relations, links } = plan;
  const t = entity.table;
  const columns = entity.fields.map((f) => `t.${f.column}`);
  const labels = relations.map((r) => `${r.alias}.${r.targetLabel.column} AS ${r.labelKey}`);
  const joins = relations.map((r) => `LEFT JOIN ${r.target.table} ${r.alias} ON ${r.alias}.${r.targetKey.column} = t.${r.field.column}`);
  const select = `SELECT ${[...columns, ...labels].join(', ')} FROM ${t} t${joins.length ? ' ' + joins.join(' ') : ''}`;
  const writable = plan.formFields.filter((f) => !plan.links.some((l) => l.name === f.field.name)).map((f) => f.field);
  const updatable = writable.filter((f) => !f.primaryKey);
  const labelProps = relations.map((r) => `${r.labelKey}: string | null`);
  const sortable = entity.fields.map((f) => `    ${f.name}: 't.${f.column}',`).join('\n');
  const decimalSorts = entity.fields.filter((f) => f.logicalType === 'decimal').map((f) => f.name);
  const filters = [
    ...plan.filterFields.map((f) => `    ${f.field.name}: { column: 't.${f.field.column}', kind: '${filterKind(f)}' },`),
    // A many-to-many filter: the rows linked to the chosen record.
    ...plan.links.map(
      (l) =>
        `    ${l.name}: { column: 't.${pk.column}', kind: 'relation', match: ${tsString(`EXISTS (SELECT 1 FROM ${l.pivotTable} p WHERE p.${l.ownColumn} = t.${pk.column} AND p.${l.otherColumn} = ?)`)} },`,
    ),
  ].join('\n');
  const uniqueEntries = entity.fields
    .filter((f) => f.unique && !f.primaryKey)
    .flatMap((f) => [keyName('uq', t, f.column), `${t}.${f.column}`, f.column].map((name) => `  ${tsString(name)}: '${f.name}',`));
  const toListRow = relations.length
    ? `return Object.assign(${entityClass}.fromRow(row), {\n${relations.map((r) => `    ${r.labelKey}: row['${r.labelKey}'] === null || row['${r.labelKey}'] === undefined ? null : String(row['${r.labelKey}']),`).join('\n')}\n  });`
    : `return ${entityClass}.fromRow(row);`;
  const display = plan.fields.map((f) => {
    const value = f.relation
      ? `row.${f.relation.labelKey} ?? row.${f.field.name}`
      : f.input === 'bool'
        ? `row.${f.field.name} ? trans('crud.yes') : trans('crud.no')`
        : isDate(f)
          ? `formatDate(row.${f.field.name})`
          : isDecimal(f)
            ? `formatNumber(row.${f.field.name})`
            : `row.${f.field.name}`;
    return `    { label: ${tsString(f.label)}, value: ${value} },`;
  });
  const linkLabels = links.map((l) => {
    if (hasPivotInputs(l)) return linkDetailsEntry(l);
    const sql = `SELECT o.${l.targetLabel.column} AS label FROM ${l.pivotTable} p JOIN ${l.target.table} o ON o.${l.targetKey.column} = p.${l.otherColumn} WHERE p.${l.ownColumn} = ? ${orderCode(l.targetLabel, l.targetKey.column, 'o.')}`;
    return `    { label: ${tsString(l.label)}, value: (await fetchAll<{ label: unknown }>(\`${sql}\`, [id])).map((r) => String(r.label ?? '')).join(', ') },`;
  });
  // The header names each column as the pages do: the field's label (its `label`, else its humanised name).
  const csvColumns = plan.listFields.map((f) => f.label);
  const csvValues = plan.listFields.map((f) => (f.relation ? `row.${f.relation.labelKey}` : `row.${f.field.name}`));
  const labelField = plan.listFields.find((f) => f.input === 'text' || f.input === 'email') ?? plan.listFields[0];
  const choiceEntries = [
    ...relations.map((r) => `    ${r.field.name}: await ${r.choicesMethod}([keep['${r.field.name}']]),`),
    ...links.map((l) => `    ${l.name}: await ${l.choicesMethod}(${hasPivotInputs(l) ? `linkRowKeys(keep, '${l.name}')` : `relatedKeys(keep['${l.name}'])`}),`),
  ];
  const filterRelations = plan.filterFields.filter((f) => f.relation);
  const filterEntries = [
    ...filterRelations.map((f) => `    ${f.field.name}: options(await ${f.relation!.choicesMethod}([filters['${f.field.name}']])),`),
    ...links.map((l) => `    ${l.name}: options(await ${l.choicesMethod}([filters['${l.name}']])),`),
  ];
  const hasChoices = relations.length + links.length > 0;
  const fwValues = [
    ...(hasChoices ? ['CHOICES_MAX', 'fetchAll', 'missingChoiceKeys', 'placeholders'] : links.length ? ['fetchAll'] : []),
    ...links.flatMap((l) => (hasPivotInputs(l) ? ['linkDetails', 'linkRowKeys', 'linkRows', 'saveLinkRows'] : ['linkedIds', 'relatedKeys', 'replaceLinks'])),
    ...(links.some((l) => defaultedPivotFields(l).some((f) => ['datetime', 'date', 'time'].includes(f.logicalType) && !f.nullable))
      ? ['formatUtcDateTime']
      : []),
    ...([...relations.map((r) => r.targetLabel), ...links.map((l) => l.targetLabel)].some(isTextual) ? ['textOrder'] : []),
    ...(plan.fields.some(isDate) || pivotShowsDates(links) ? ['formatDate'] : []),
    ...(plan.fields.some(isDecimal) || pivotShowsNumbers(links) ? ['formatNumber'] : []),
    'trans',
    'userCan',
    'userHasRole',
  ];
  const fwTypes = [
    'Choice',
    ...(links.length ? ['LinkSpec'] : []),
    'ListSpec',
    ...(links.some(hasPivotInputs) ? ['PivotLink'] : []),
    'ReferenceSpec',
    'Request',
    'Row',
    'Transaction',
  ];
  const references = plan.references.map(
    (r) =>
      `  { table: '${r.table}', column: '${r.column}', target: '${r.target}',${r.selfKey ? ` selfKey: '${r.selfKey}',` : ''} one: ${tsString(r.one)}, many: ${tsString(r.many)} },`,
  );
  const fwImport = [...new Set(fwValues)].sort().join(', ') + ', ' + fwTypes.map((name) => `type ${name}`).join(', ');
  const linksInterface = links.length
    ? `export interface Links {\n${links.map((l) => `  readonly ${l.name}?: readonly ${hasPivotInputs(l) ? 'PivotLink' : 'number'}[] | null | undefined;`).join('\n')}\n}`
    : `export interface Links {}`;
  const linkSpecs = links.length
    ? `
/** The pivot tables of the many-to-many relations, by form field. */
export const LINKS = {
${links.map(linkSpec).join('\n')}
} as const satisfies Record<string, LinkSpec>;
`
    : '';
  const saveLinksBody = links.length
    ? links
        .map((l) => `  if (links.${l.name}) await ${hasPivotInputs(l) ? 'saveLinkRows' : 'replaceLinks'}(LINKS.${l.name}, id, links.${l.name}, tx);`)
        .join('\n')
    : '  // No many-to-many relation: nothing to save beside the record.';
  const formValuesBody = links.length
    ? `{ ...row, ${links.map((l) => `${l.name}: await ${hasPivotInputs(l) ? 'linkRows' : 'linkedIds'}(LINKS.${l.name}, id)`).join(', ')} }`
    : '{ ...row }';
  const command = syncEntityCommand(entityClass);
  return `${tsMarkerLine(command)}
// The CRUD pages of ${entityClass} as ${entity.file} describes them: the list's columns and allow-lists, the SQL of the
// fields, the choices of the relations, the CSV and detail columns. ${entity.snake}_model.ts and ${entity.snake}_controller.ts
// (yours) use it; \`${command}\` and \`fw build:model\` rewrite it when the entity changes.
import { ${fwImport} } from 'fw-mvc';
import { ${entityClass} } from '../entities/${entity.snake}/index.js';

/** Title of the pages (the list's heading, the browser tab), a record's name (detail and form headings), the CSV file's name. */
export const TITLE = ${tsString(plan.title)};
export const LABEL = ${tsString(plan.label)};
export const CSV_FILE = '${entity.plural}.csv';

/** The table, its key column, and the key as the list's SELECT names it. */
export const TABLE = '${t}';
export const KEY_COLUMN = '${pk.column}';
export const KEY = 't.${pk.column}';

/** A row of the list and of the detail page: the entity${relations.length ? ' and the labels of its many-to-one targets' : ''}. */
export type ListRow = ${entityClass}${labelProps.length ? ` & { ${labelProps.join('; ')} }` : ''};

/** Many-to-many links saved with the record, by form field: the other side's ids${links.some(hasPivotInputs) ? ', with their pivot values' : ''} (absent: left as they are). */
${linksInterface}

/** The allow-lists of the list page: sort keys, searched columns, equality filters. */
export const LIST: ListSpec = {
  sortable: {
${sortable}
  },
  defaultSort: '${pk.name}',
  searchable: [${plan.searchColumns.map((c) => `'${c}'`).join(', ')}],${decimalSorts.length ? `\n  decimalSorts: [${decimalSorts.map((n) => `'${n}'`).join(', ')}],` : ''}
  filters: {
${filters}
  },
};

export const SELECT = ${tsString(select)};
export const COUNT = 'SELECT COUNT(*) AS total FROM ${t} t';
export const INSERT = ${tsString(`INSERT INTO ${t} (${writable.map((f) => f.column).join(', ')}) VALUES (${writable.map(() => '?').join(', ')})`)};
export const UPDATE = ${tsString(`UPDATE ${t} SET ${updatable.map((f) => `${f.column} = ?`).join(', ')} WHERE ${pk.column} = ?`)};

/** Unique fields by the names the servers give them (MariaDB: the key; SQLite: table.column): a DuplicateError becomes a message on the field. */
export const UNIQUE_KEYS: Readonly<Record<string, string>> = {${uniqueEntries.length ? `\n${uniqueEntries.join('\n')}\n` : ''}};

/**
 * The foreign keys of other tables that keep a record from being deleted (their \`on_delete\` is RESTRICT or NO ACTION):
 * the model counts their rows before a delete, and the refusal names them (docs/crud.md "Deleting a record that
 * others refer to").
 */
export const REFERENCES: readonly ReferenceSpec[] = [${references.length ? `\n${references.join('\n')}\n` : ''}];

/** The list's total as users read it: \`1 ${commentText(inSentence(plan.label))}\`, \`2 ${commentText(inSentence(plan.title))}\`. */
export function countLabel(count: number): string {
  return \`\${count} \${count === 1 ? ${tsString(inSentence(plan.label))} : ${tsString(inSentence(plan.title))}}\`;
}
${linkSpecs}${permissionsCode(plan)}
/** The values of INSERT, in its column order. */
export function insertValues(record: ${entityClass}): unknown[] {
  const row = record.toRow();
  return [${writable.map((f) => `row.${f.column}`).join(', ')}];
}

/** The values of UPDATE, in its column order, the key last. */
export function updateValues(record: ${entityClass}, id: number): unknown[] {
  const row = record.toRow();
  return [${[...updatable.map((f) => `row.${f.column}`), 'id'].join(', ')}];
}

/** Saves the record's many-to-many links given by the form, in the record's transaction. */
export async function saveLinks(${links.length ? 'id: number, links: Links, tx: Transaction' : '_id: number, _links: Links, _tx: Transaction'}): Promise<void> {
${saveLinksBody}
}

export function toListRow(row: Row): ListRow {
  ${toListRow}
}

/** The edit form's values: the record${links.length ? ' and its links' : ''}. */
export async function formValues(row: ListRow): Promise<Record<string, unknown>> {
${links.length ? `  const id = row.${pk.name} as number;\n` : ''}  return ${formValuesBody};
}

/** What the detail page shows, in field order${links.length ? ', then the many-to-many links' : ''}. */
export async function details(row: ListRow): Promise<Array<{ label: string; value: unknown }>> {
${links.length ? `  const id = row.${pk.name} as number;\n` : ''}  return [
${[...display, ...linkLabels].join('\n')}
  ];
}

/** The CSV export's header (the fields' labels, as on the pages) and the cells of a row. */
export const CSV_HEADER: readonly string[] = [${csvColumns.map(tsString).join(', ')}];

export function csvRow(row: ListRow): unknown[] {
  return [${csvValues.join(', ')}];
}

/** How a record is named on the bulk-delete confirmation page. */
export function rowLabel(row: ListRow): string {
  return \`#\${String(row.${pk.name})}${labelField ? ` \${String(row.${labelField.field.name} ?? '')}` : ''}\`;
}

/**
 * The choices of the form's selects. \`keep\` gives, by field, the values a select must offer whatever their rank
 * among the targets: the record edited, the values posted, the active filters.
 */
export async function formChoices(${hasChoices ? 'keep' : '_keep'}: Readonly<Record<string, unknown>> = {}): Promise<Record<string, readonly Choice[]>> {
  return {${choiceEntries.length ? `\n${choiceEntries.join('\n')}\n  ` : ''}};
}

/** The options of the list's many-to-one and many-to-many filters. */
export async function filterChoices(${filterEntries.length ? 'filters' : '_filters'}: Readonly<Record<string, string>>): Promise<Record<string, Array<{ value: string; label: string }>>> {
  return {${filterEntries.length ? `\n${filterEntries.join('\n')}\n  ` : ''}};
}
${
  filterEntries.length
    ? `
function options(choices: readonly Choice[]): Array<{ value: string; label: string }> {
  return choices.map(([value, label]) => ({ value: String(value), label }));
}
`
    : ''
}${[...relations.map(relationChoices), ...links.map(linkChoices)].join('')}`;
}

/** A definition's text inside a generated comment: a star and a slash would end it, and the file would no longer compile. */
function commentText(text: string): string {
  return text.replace(/\*\//g, '*\\/').replace(/[\r\n]+/g, ' ');
}
