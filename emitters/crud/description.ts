/**
 * `mvc/models/<snake>_crud.ts` (regenerable): the entity's CRUD pages as data, one object passed to `defineCrud()` of
 * fw-mvc/crud (runtime/crud/description.ts says what each key means): the list's allow-lists, the SQL of the fields,
 * unique keys, references, links, roles, the detail and CSV columns, the sources of the choices. The manual
 * controller and model hand it to the framework, so that `fw sync:entity` and `fw build:model` bring an entity change
 * into the pages without touching a file the user owns (docs/decisions.md "The CRUD in the runtime").
 */
import type { FieldNode } from '../../compiler/ir.js';
import { syncEntityCommand, tsMarkerLine } from '../marker.js';
import { keyName } from '../sql-table-spec.js';
import { Code, literal, type Literal } from './literal.js';
import { defaultedPivotFields, hasPivotInputs, pivotInputs } from './pivot.js';
import { displayPattern, inSentence, labelSql, type CrudField, type CrudLink, type CrudPlan, type LabelSql } from './plan.js';

/** The description's constant (`CONTACT_CRUD`) and the type of its rows (`ContactListRow`). */
export function descriptionNames(plan: CrudPlan): { constant: string; rowType: string } {
  return { constant: `${plan.entity.snake.toUpperCase()}_CRUD`, rowType: `${plan.entityClass}ListRow` };
}

function filterKind(f: CrudField): string {
  if (f.relation) return 'relation';
  if (f.field.logicalType === 'bool') return 'bool';
  if (f.field.logicalType === 'int') return 'int';
  return 'text';
}

/** How the detail page shows a value of this kind (runtime `CrudShow`); undefined: as it is. */
function showOf(f: CrudField): string | undefined {
  if (f.input === 'bool') return 'bool';
  if (f.input === 'date' || f.input === 'datetime') return 'date';
  if (f.input === 'decimal' || f.input === 'float') return 'number';
  return undefined;
}

function order(label: LabelSql, key: FieldNode, prefix = ''): Literal {
  return { column: label.sql, key: `${prefix}${key.column}`, text: label.text };
}

/** The value a new pivot row gets for a column the form does not edit (runtime `CrudPivotDefault`). */
function pivotDefault(field: FieldNode): Literal {
  if (field.nullable) return { value: null };
  switch (field.logicalType) {
    case 'datetime':
    case 'date':
    case 'time':
      return { now: field.logicalType };
    case 'int':
    case 'bool':
    case 'float':
      return { value: 0 };
    case 'decimal':
      return { value: '0' };
    case 'bytes':
      return { bytes: 0 };
    default:
      return { value: '' };
  }
}

function linkDescription(l: CrudLink): Literal {
  const defaults = defaultedPivotFields(l);
  const rows = hasPivotInputs(l);
  return {
    table: l.pivotTable,
    ownColumn: l.ownColumn,
    otherColumn: l.otherColumn,
    rows,
    fields: rows ? Object.fromEntries(pivotInputs(l).map((f) => [f.field.name, f.field.column])) : undefined,
    defaults: defaults.length ? Object.fromEntries(defaults.map((f) => [f.column, pivotDefault(f)])) : undefined,
  };
}

function linkDetail(l: CrudLink): Literal {
  const inputs = hasPivotInputs(l) ? pivotInputs(l) : [];
  const label = labelSql(l.target, 'o.');
  const columns = [`${label.sql} AS label`, ...inputs.map((f, i) => `p.${f.field.column} AS v${i}`)];
  return {
    label: l.label,
    link: l.name,
    sql: `SELECT ${columns.join(', ')} FROM ${l.pivotTable} p JOIN ${l.target.table} o ON o.${l.targetKey.column} = p.${l.otherColumn} WHERE p.${l.ownColumn} = ?`,
    order: order(label, l.targetKey, 'o.'),
    values: inputs.length ? inputs.map((f) => ({ label: f.label, show: showOf(f) })) : undefined,
  };
}

/** The description, key by key, in the order of runtime/crud/description.ts. */
function description(plan: CrudPlan): Array<[string, Literal]> {
  const { entity, primaryKey: pk, relations, links } = plan;
  const t = entity.table;
  const columns = entity.fields.map((f) => `t.${f.column}`);
  const labels = relations.map((r) => `${labelSql(r.target, `${r.alias}.`).sql} AS ${r.labelKey}`);
  const joins = relations.map((r) => `LEFT JOIN ${r.target.table} ${r.alias} ON ${r.alias}.${r.targetKey.column} = t.${r.field.column}`);
  const writable = plan.formFields.filter((f) => !links.some((l) => l.name === f.field.name)).map((f) => f.field);
  const updatable = writable.filter((f) => !f.primaryKey);
  const decimalSorts = entity.fields.filter((f) => f.logicalType === 'decimal').map((f) => f.name);
  const filters: Record<string, Literal> = {};
  for (const f of plan.filterFields) filters[f.field.name] = { column: `t.${f.field.column}`, kind: filterKind(f) };
  // A many-to-many filter: the rows linked to the chosen record.
  for (const l of links) {
    filters[l.name] = {
      column: `t.${pk.column}`,
      kind: 'relation',
      match: `EXISTS (SELECT 1 FROM ${l.pivotTable} p WHERE p.${l.ownColumn} = t.${pk.column} AND p.${l.otherColumn} = ?)`,
    };
  }
  const unique: Record<string, Literal> = {};
  for (const f of entity.fields.filter((field) => field.unique && !field.primaryKey)) {
    for (const name of [keyName('uq', t, f.column), `${t}.${f.column}`, f.column]) unique[name] = f.name;
  }
  const choices: Record<string, Literal> = {};
  for (const r of relations) {
    const label = labelSql(r.target);
    choices[r.field.name] = {
      select: `SELECT ${r.targetKey.column} AS id, ${label.sql} AS label FROM ${r.target.table}`,
      key: r.targetKey.column,
      order: order(label, r.targetKey),
      keys: r.targetKey.logicalType === 'int' ? 'int' : 'text',
      keep: 'value',
    };
  }
  for (const l of links) {
    const label = labelSql(l.target);
    choices[l.name] = {
      select: `SELECT ${l.targetKey.column} AS id, ${label.sql} AS label FROM ${l.target.table}`,
      key: l.targetKey.column,
      order: order(label, l.targetKey),
      keys: 'int',
      keep: hasPivotInputs(l) ? 'rows' : 'ids',
    };
  }
  // Without `display`, the bulk-delete confirmation names a record by its first text field, as before `display`.
  const display = plan.listFields.find((f) => f.input === 'text' || f.input === 'email') ?? plan.listFields[0];
  const named = displayPattern(entity);
  return [
    ['entity', new Code(plan.entityClass)],
    ['name', plan.entityClass],
    ['base', plan.prefix],
    ['views', plan.viewDir],
    ['permission', entity.snake],
    ['title', plan.title],
    ['label', plan.label],
    ['count', { one: inSentence(plan.label), many: inSentence(plan.title) }],
    ['table', t],
    ['key', { name: pk.name, column: pk.column }],
    [
      'list',
      {
        sortable: Object.fromEntries(entity.fields.map((f) => [f.name, `t.${f.column}`])),
        defaultSort: pk.name,
        searchable: [...plan.searchColumns],
        decimalSorts: decimalSorts.length ? decimalSorts : undefined,
        filters,
      },
    ],
    [
      'sql',
      {
        select: `SELECT ${[...columns, ...labels].join(', ')} FROM ${t} t${joins.length ? ' ' + joins.join(' ') : ''}`,
        count: `SELECT COUNT(*) AS total FROM ${t} t`,
        insert: `INSERT INTO ${t} (${writable.map((f) => f.column).join(', ')}) VALUES (${writable.map(() => '?').join(', ')})`,
        update: `UPDATE ${t} SET ${updatable.map((f) => `${f.column} = ?`).join(', ')} WHERE ${pk.column} = ?`,
      },
    ],
    ['columns', writable.map((f) => f.column)],
    ['labels', relations.map((r) => r.labelKey)],
    ['unique', unique],
    [
      'references',
      plan.references.map((r) => ({ table: r.table, column: r.column, target: r.target, selfKey: r.selfKey ?? undefined, one: r.one, many: r.many })),
    ],
    ['links', Object.fromEntries(links.map((l) => [l.name, linkDescription(l)]))],
    ['roles', entity.rbac ? Object.fromEntries(Object.entries(entity.rbac.permissions).map(([permission, roles]) => [permission, [...roles]])) : {}],
    [
      'details',
      [
        ...plan.fields.map((f) => ({ label: f.label, field: f.field.name, show: f.relation ? undefined : showOf(f), labelKey: f.relation?.labelKey })),
        ...links.map(linkDetail),
      ],
    ],
    // The header names each column as the pages do: the field's label (its `label`, else its humanised name).
    [
      'csv',
      { file: `${entity.plural}.csv`, header: plan.listFields.map((f) => f.label), fields: plan.listFields.map((f) => f.relation?.labelKey ?? f.field.name) },
    ],
    ['display', named ?? { fields: display ? [display.field.name] : [] }],
    ['choices', choices],
    ['filters', [...plan.filterFields.filter((f) => f.relation).map((f) => f.field.name), ...links.map((l) => l.name)]],
  ];
}

/** Comments above some keys of the description: where a reader looks first. */
const KEY_NOTES: Readonly<Record<string, string>> = {
  list: 'The allow-lists of the list page: sort keys, searched columns, equality filters (docs/crud.md "The list page").',
  sql: 'The SQL of the list (its joins), of its count, of a new record and of a change; every value is a `?`.',
  references: 'Foreign keys of other tables that refuse a delete (docs/crud.md "Deleting a record that others refer to").',
  roles: 'The role block of the entity file: roles per permission; a permission it does not name is open.',
  choices: 'The selects of the form and of the filters: their records, by label (docs/crud.md "Many-to-one selects").',
};

/**
 * The names a crud module exported before it was a description, which an older controller or model imports
 * (`import * as crud`): exported again, computed from the description, while the project has such a file.
 */
function legacyNames(plan: CrudPlan): string {
  const { constant, rowType } = descriptionNames(plan);
  const names = [
    'TITLE, LABEL, CSV_FILE, TABLE, KEY_COLUMN, KEY, LIST, SELECT, COUNT, INSERT, UPDATE, UNIQUE_KEYS, REFERENCES, LINKS, ROLES,',
    'CSV_HEADER, countLabel, allowed, allowedActions, insertValues, updateValues, saveLinks, toListRow, formValues, details,',
    'csvRow, rowLabel, formChoices, filterChoices,',
  ];
  return `
// The names this file exported before it was a description: a controller or a model of this project made by an older
// \`fw make:crud\` imports them (\`import * as crud\`). They go once no file does (docs/upgrading.md "The CRUD in the runtime").
export type ListRow = ${rowType};
export type Links = CrudLinks;
export type Permission = CrudPermission;
export const {
${names.map((line) => `  ${line}`).join('\n')}
} = legacyCrudNames(${constant});
`;
}

/** What the project holds that changes the description's file. */
export interface DescriptionState {
  /** A file of the project still imports the crud module's older names: they are exported too (legacyNames). */
  readonly legacyNames?: boolean;
}

export function emitCrudDescription(plan: CrudPlan, state: DescriptionState = {}): string {
  const { entity, entityClass, relations } = plan;
  const { constant, rowType } = descriptionNames(plan);
  const command = syncEntityCommand(entityClass);
  const labelProps = relations.map((r) => `${r.labelKey}: string | null`);
  const entries = description(plan).map(([name, value]) => {
    const note = KEY_NOTES[name];
    return `${note ? `  // ${note}\n` : ''}  ${name}: ${literal(value, 2)},`;
  });
  const legacy = state.legacyNames === true;
  const imports = legacy ? 'defineCrud, legacyCrudNames, type CrudLinks, type CrudPermission' : 'defineCrud';
  return `${tsMarkerLine(command)}
// The CRUD pages of ${entityClass} as ${entity.file} describes them, as data that fw-mvc/crud reads
// (docs/crud.md "The description" says what each key means). ${entity.snake}_controller.ts and ${entity.snake}_model.ts (yours)
// hand it to the framework; \`${command}\` and \`fw build:model\` rewrite it when the entity changes.
import { ${imports} } from 'fw-mvc/crud';
import { ${entityClass} } from '../entities/${entity.snake}/index.js';

/** A row of the list and of the detail page: the entity${relations.length ? ' and the labels of its many-to-one targets' : ''}. */
export type ${rowType} = ${entityClass}${labelProps.length ? ` & { ${labelProps.join('; ')} }` : ''};

export const ${constant} = defineCrud({
${entries.join('\n')}
});
${legacy ? legacyNames(plan) : ''}`;
}
