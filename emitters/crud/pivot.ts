/**
 * The extra fields of a many-to-many pivot in the CRUD pages (docs/crud.md "Many-to-many links"): a relation whose
 * pivot has fields the form can edit becomes a LinkRowsField (one row per link: the other side's select and the
 * pivot's inputs), saved by `saveLinkRows`, shown with its values on the detail page. A relation without such
 * fields stays a multiple select (RelatedIdsField).
 */
import type { FieldNode } from '../../compiler/ir.js';
import { tsString } from '../text.js';
import { declaration } from './field-declaration.js';
import { inputKind, isTextual, type CrudField, type CrudLink } from './plan.js';
import { INPUT } from './views-common.js';

/** The pivot fields the form edits: all but binary ones (those keep a default on insert). */
export function pivotInputs(l: CrudLink): CrudField[] {
  return l.pivotFields
    .filter((field) => field.logicalType !== 'bytes')
    .map((field) => ({ field, label: field.label, input: inputKind(field, null), relation: null, inList: false, inForm: true }));
}

/** True when the link is edited as rows with pivot inputs. */
export function hasPivotInputs(l: CrudLink): boolean {
  return pivotInputs(l).length > 0;
}

/** The form field of a link with pivot inputs: `new LinkRowsField({ … fields: { date_injection: new DateField(…) } })`. */
export function linkRowsDeclaration(l: CrudLink): { className: string; classes: string[]; code: string } {
  const inputs = pivotInputs(l).map((f) => ({ name: f.field.name, ...declaration(f) }));
  const fields = inputs.map((d) => `${d.name}: ${d.code}`).join(', ');
  const code = `new LinkRowsField({ name: '${l.name}', label: ${tsString(l.label)}, rowLabel: ${tsString(l.target.label)}, required: false, fields: { ${fields} } })`;
  return { className: 'LinkRowsField', classes: inputs.map((d) => d.className), code };
}

/** The value a new pivot row gets for an extra column the form does not edit. */
export function pivotDefault(field: FieldNode): string {
  if (field.nullable) return 'null';
  switch (field.logicalType) {
    case 'datetime':
      return 'formatUtcDateTime(new Date())';
    case 'date':
      return 'formatUtcDateTime(new Date()).slice(0, 10)';
    case 'time':
      return 'formatUtcDateTime(new Date()).slice(11)';
    case 'int':
    case 'bool':
    case 'float':
      return '0';
    case 'decimal':
      return "'0'";
    case 'bytes':
      return 'Buffer.alloc(0)';
    default:
      return "''";
  }
}

/** The pivot fields that get a default on insert: every one of a link without inputs, the binary ones otherwise. */
export function defaultedPivotFields(l: CrudLink): FieldNode[] {
  const edited = new Set(hasPivotInputs(l) ? pivotInputs(l).map((f) => f.field.name) : []);
  return l.pivotFields.filter((f) => !edited.has(f.name));
}

/** The LINKS entry: the pivot table, its two key columns, the columns the form edits, the defaults of the others. */
export function linkSpec(l: CrudLink): string {
  const extra = defaultedPivotFields(l).map((f) => `${f.column}: () => ${pivotDefault(f)}`);
  const fields = hasPivotInputs(l) ? pivotInputs(l).map((f) => `${f.field.name}: '${f.field.column}'`) : [];
  return `  ${l.name}: { table: '${l.pivotTable}', ownColumn: '${l.ownColumn}', otherColumn: '${l.otherColumn}'${fields.length ? `, fields: { ${fields.join(', ')} }` : ''}${extra.length ? `, extra: { ${extra.join(', ')} }` : ''} },`;
}

/** How the detail page shows one pivot value (`v`): dates as users read them, booleans as Oui / Non, decimals with the locale's separator. */
function showCode(f: CrudField): string {
  if (f.input === 'date' || f.input === 'datetime') return 'formatDate(v)';
  if (f.input === 'bool') return "Number(v) ? trans('crud.yes') : trans('crud.no')";
  if (f.input === 'decimal' || f.input === 'float') return 'formatNumber(v)';
  return 'v';
}

/** `ORDER BY <label>, <key>` as code: a text label in MariaDB's order on SQLite too (`textOrder`). */
function orderCode(label: FieldNode, key: string, prefix: string): string {
  const column = `${prefix}${label.column}`;
  return isTextual(label) ? `ORDER BY \${textOrder('${column}')}, ${prefix}${key}` : `ORDER BY ${column}, ${prefix}${key}`;
}

/** The detail page's entry of a link with pivot inputs: the linked labels with their values (`linkDetails`). */
export function linkDetailsEntry(l: CrudLink): string {
  const inputs = pivotInputs(l);
  const columns = [`o.${l.targetLabel.column} AS label`, ...inputs.map((f, i) => `p.${f.field.column} AS v${i}`)];
  const sql = `SELECT ${columns.join(', ')} FROM ${l.pivotTable} p JOIN ${l.target.table} o ON o.${l.targetKey.column} = p.${l.otherColumn} WHERE p.${l.ownColumn} = ? ${orderCode(l.targetLabel, l.targetKey.column, 'o.')}`;
  const shows = inputs.map((f) => `      { label: ${tsString(f.label)}, show: (v: unknown) => ${showCode(f)} },`);
  return `    linkDetails(${tsString(l.label)}, await fetchAll(\`${sql}\`, [id]), [\n${shows.join('\n')}\n    ]),`;
}

/** True when a link of the plan needs `formatDate` on the detail page. */
export function pivotShowsDates(links: readonly CrudLink[]): boolean {
  return links.some((l) => hasPivotInputs(l) && pivotInputs(l).some((f) => f.input === 'date' || f.input === 'datetime'));
}

/** True when a link of the plan needs `formatNumber` on the detail page. */
export function pivotShowsNumbers(links: readonly CrudLink[]): boolean {
  return links.some((l) => hasPivotInputs(l) && pivotInputs(l).some((f) => f.input === 'decimal' || f.input === 'float'));
}

/** One pivot input of a row, as `_fields.html` writes it (a checkbox, a textarea or an input). */
function rowInput(): string {
  const describe = `{% if input.error %} aria-invalid="true" aria-describedby="{{ input.id }}-error"{% endif %}`;
  return `        {% for input in row.inputs %}
        <div>
          {% if input.type == 'checkbox' %}
          <div class="flex items-center gap-2 sm:mt-6">
            <input type="checkbox" id="{{ input.id }}" name="{{ input.name }}" value="1" class="h-4 w-4"{% if input.value %} checked{% endif %}${describe}>
            <label for="{{ input.id }}" class="text-xs font-medium text-gray-600">{{ input.label }}</label>
          </div>
          {% else %}
          <label for="{{ input.id }}" class="mb-1 block text-xs font-medium text-gray-600">{{ input.label }}{% if not input.required %} <span class="font-normal text-gray-500">({{ trans('crud.optional') }})</span>{% endif %}</label>
          {% if input.type == 'textarea' %}<textarea id="{{ input.id }}" name="{{ input.name }}" rows="2" class="${INPUT}"${describe}>{{ input.value }}</textarea>
          {% else %}<input type="{{ input.type }}" id="{{ input.id }}" name="{{ input.name }}" value="{{ input.value }}" class="${INPUT}"${describe}{% for attr, value in input.attrs %} {{ attr }}="{{ value }}"{% endfor %}>{% endif %}
          {% endif %}
          {% if input.error %}<p id="{{ input.id }}-error" class="mt-1 text-sm text-red-600">{{ input.error }}</p>{% endif %}
        </div>
        {% endfor %}`;
}

/**
 * A link with pivot inputs in `_fields.html`: a fieldset, one row per link (the other side's select, then the pivot
 * inputs, each with its message), and empty rows to add links. Works without script; the rows stack on a phone.
 */
export function linkRowsInput(l: CrudLink): string {
  const name = l.name;
  const ctx = `form.${name}`;
  const columns = Math.min(4, pivotInputs(l).length + 1);
  const grid = columns >= 4 ? 'sm:grid-cols-2 lg:grid-cols-4' : columns === 3 ? 'sm:grid-cols-3' : 'sm:grid-cols-2';
  return `  <fieldset id="field-${name}" tabindex="-1" class="mb-4" aria-describedby="field-${name}-hint{% if ${ctx}.error %} field-${name}-error{% endif %}">
    <legend class="mb-1 block text-sm font-medium text-gray-700">{{ ${ctx}.label }}</legend>
    <p id="field-${name}-hint" class="mb-2 text-xs text-gray-500">{{ trans('crud.link_rows_hint') }}</p>
    {% if ${ctx}.error %}<p id="field-${name}-error" class="mb-2 text-sm text-red-600">{{ ${ctx}.error }}</p>{% endif %}
    <div class="space-y-3">
      {% for row in ${ctx}.rows %}
      <div class="grid gap-3 rounded-md border border-gray-200 p-3 ${grid}">
        <div>
          <label for="{{ row.id }}" class="mb-1 block text-xs font-medium text-gray-600">{{ ${ctx}.row_label }}</label>
          <select id="{{ row.id }}" name="{{ row.name }}" class="${INPUT}"{% if row.error %} aria-invalid="true" aria-describedby="{{ row.id }}-error"{% endif %}>
            <option value="">—</option>
            {% for choice in row.options %}<option value="{{ choice.value }}"{% if choice.selected %} selected{% endif %}>{{ choice.label }}</option>{% endfor %}
          </select>
          {% if row.error %}<p id="{{ row.id }}-error" class="mt-1 text-sm text-red-600">{{ row.error }}</p>{% endif %}
        </div>
${rowInput()}
      </div>
      {% endfor %}
    </div>
  </fieldset>`;
}
