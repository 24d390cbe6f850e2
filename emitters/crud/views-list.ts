/**
 * The list's partials that derive from the entity (regenerable): `_filters.html`, `_list_head.html`,
 * `_list_cells.html`, which the user's `index.html` and `_table.html` put into the framework's `crud/index.html` and
 * `crud/_table.html` (runtime/views/crud/). Every action works without a script; the `hx-*` attributes only add
 * partial updates when the page loads htmx (docs/crud.md "Partial updates (htmx, optional)").
 */
import { syncEntityCommand, templateMarkerLine } from '../marker.js';
import type { CrudField, CrudLink, CrudPlan } from './plan.js';
import { HX_NAV, INPUT, escape } from './views-common.js';

function filterInput(f: CrudField): string {
  const name = f.field.name;
  const label = escape(f.label);
  const id = `filter-${name}`;
  const labelTag = `<label for="${id}" class="mb-1 block text-xs font-medium text-gray-600">${label}</label>`;
  if (f.relation) {
    return `    <div>
      ${labelTag}
      <select id="${id}" name="${name}" class="${INPUT}">
        <option value="">{{ trans('crud.filter_all') }}</option>
        {% for choice in filter_choices.${name} %}<option value="{{ choice.value }}"{% if filters.${name} == choice.value %} selected{% endif %}>{{ choice.label }}</option>{% endfor %}
      </select>
    </div>`;
  }
  if (f.field.logicalType === 'bool') {
    return `    <div>
      ${labelTag}
      <select id="${id}" name="${name}" class="${INPUT}">
        <option value="">{{ trans('crud.filter_all') }}</option>
        <option value="1"{% if filters.${name} == '1' %} selected{% endif %}>{{ trans('crud.yes') }}</option>
        <option value="0"{% if filters.${name} == '0' %} selected{% endif %}>{{ trans('crud.no') }}</option>
      </select>
    </div>`;
  }
  return `    <div>
      ${labelTag}
      <input type="text" id="${id}" name="${name}" value="{{ filters.${name} }}" class="${INPUT}">
    </div>`;
}

function cell(f: CrudField): string {
  const name = f.field.name;
  if (f.relation) return `{{ row.${f.relation.labelKey} }}`;
  if (f.field.logicalType === 'bool') return `{{ trans('crud.yes') if row.${name} else trans('crud.no') }}`;
  // Dates as users read them (10/03/2025 08:40); the CSV keeps the stored text.
  if (f.input === 'date' || f.input === 'datetime') return `{{ row.${name} | format_date }}`;
  // Decimals with the locale's separator (0,50 in French); the CSV and the form keep the point.
  if (f.input === 'decimal' || f.input === 'float') return `{{ row.${name} | format_number }}`;
  return `{{ row.${name} }}`;
}

/** A many-to-many filter: the rows linked to the record chosen. */
function linkFilterInput(l: CrudLink): string {
  const id = `filter-${l.name}`;
  return `    <div>
      <label for="${id}" class="mb-1 block text-xs font-medium text-gray-600">${escape(l.label)}</label>
      <select id="${id}" name="${l.name}" class="${INPUT}">
        <option value="">{{ trans('crud.filter_all') }}</option>
        {% for choice in filter_choices.${l.name} %}<option value="{{ choice.value }}"{% if filters.${l.name} == choice.value %} selected{% endif %}>{{ choice.label }}</option>{% endfor %}
      </select>
    </div>`;
}

/** `_filters.html` (regenerable): the list's filter inputs, inside the search form's grid. */
export function emitFiltersView(plan: CrudPlan): string {
  const filters = [...plan.filterFields.map(filterInput), ...plan.links.map(linkFilterInput)];
  return `${templateMarkerLine(syncEntityCommand(plan.entityClass))}
{#- Filters of the ${plan.entityClass} list (the entity's list.filter fields, many-to-one and many-to-many relations), included by index.html. -#}
${filters.length ? filters.join('\n') + '\n' : ''}`;
}

/** `_list_head.html` (regenerable): the sortable column headers of the entity's fields, included by _table.html. */
export function emitListHeadView(plan: CrudPlan): string {
  const header = (key: string, label: string): string =>
    `<th scope="col" class="px-3 py-2 text-left font-medium text-gray-700"{% if sort_states.${key} %} aria-sort="{{ 'ascending' if sort_states.${key} == 'asc' else 'descending' }}"{% endif %}><a href="{{ sort_urls.${key} }}" hx-get="{{ sort_urls.${key} }}" ${HX_NAV} class="hover:underline">${escape(label)}{% if sort_states.${key} == 'asc' %} ▲{% elif sort_states.${key} == 'desc' %} ▼{% endif %}</a></th>`;
  // The list image's column (make:crud --media): not sortable.
  const image = plan.listImage ? [`<th scope="col" class="px-3 py-2 text-left font-medium text-gray-700">${escape(plan.listImage.label)}</th>`] : [];
  return `${templateMarkerLine(syncEntityCommand(plan.entityClass))}
${[header(plan.primaryKey.name, '#'), ...image, ...plan.listFields.map((f) => header(f.field.name, f.label))].join('\n')}
`;
}

/** `_list_cells.html` (regenerable): the cells of one row (\`row\`), in the order of _list_head.html. */
export function emitListCellsView(plan: CrudPlan): string {
  const pk = plan.primaryKey.name;
  const cells = plan.listFields.map((f) => `<td class="max-w-xs truncate px-3 py-2">${cell(f)}</td>`);
  // The thumbnail of the list image (\`thumbnails\`, by record id: one query for the page, see the controller).
  const image = plan.listImage
    ? [
        `<td class="px-3 py-2">{% set thumbnail = thumbnails[row.${pk}] %}{% if thumbnail %}<img src="{{ thumbnail.url }}" alt="{{ thumbnail.alt }}" loading="lazy" class="h-12 w-12 max-w-none rounded-md bg-gray-100 object-cover">{% endif %}</td>`,
      ]
    : [];
  return `${templateMarkerLine(syncEntityCommand(plan.entityClass))}
<td class="px-3 py-2 whitespace-nowrap text-gray-500">{{ row.${pk} }}</td>
${[...image, ...cells].join('\n')}
`;
}
