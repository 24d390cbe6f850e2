/**
 * The list views of the CRUD pages: `index.html` with the partials `_results.html`, `_table.html`, `_pagination.html`
 * (manual), and the partials that derive from the entity, `_filters.html`, `_list_head.html`, `_list_cells.html`
 * (regenerable). Every action works without a script; the `hx-*` attributes only add partial updates when the page
 * loads htmx (docs/crud.md "Partial updates (htmx, optional)").
 */
import { syncEntityCommand, templateMarkerLine } from '../marker.js';
import type { CrudField, CrudLink, CrudPlan } from './plan.js';
import { CSRF, DANGER, HX_NAV, INPUT, PRIMARY, SECONDARY, escape } from './views-common.js';

/**
 * The CSV link: the list's search, filters and sort, not its page; no hx-* attribute (a download). Only for the users
 * the role block lets export (\`allowed\`: the controller's \`crud.allowedActions\`); its box stays, for the out-of-band swap.
 */
function exportLink(): string {
  return `{% if allowed.export %}<a href="{{ export_url }}" class="${SECONDARY}" id="crud-export">{{ trans('crud.export_csv') }}</a>{% endif %}`;
}

/** The bulk-delete button: only when the list shows rows to select. */
function bulkButton(): string {
  return `{% if allowed.delete and rows | length %}<button type="submit" class="${DANGER} mb-4">{{ trans('crud.bulk_delete') }}</button>{% endif %}`;
}

/** The sort kept by the search form, so that a new search keeps the column chosen. */
function sortFields(): string {
  return `{% if sort %}<input type="hidden" name="sort" value="{{ sort }}"><input type="hidden" name="direction" value="{{ direction }}">{% endif %}`;
}

/** The hidden fields that carry the list's state (search, filters, sort, page) in a POST form. */
function stateFields(): string {
  return `{% for name, value in state %}{% if value %}<input type="hidden" name="{{ name }}" value="{{ value }}">{% endif %}{% endfor %}`;
}

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

export function emitIndexView(plan: CrudPlan): string {
  const v = plan.viewDir;
  return `{#- List of ${plan.entityClass} (fw make:crud). The results live in _results.html, which partial updates replace. -#}
{% extends "layouts/app.html" %}
{% block content %}
<div class="mb-6 flex flex-wrap items-center justify-between gap-4">
  <h1 class="text-2xl font-semibold text-gray-900">{{ title }}</h1>
  <div class="flex flex-wrap gap-2">
    <span id="crud-export-box">${exportLink()}</span>
    {% if allowed.create %}<a href="{{ base }}/new" class="${PRIMARY}">{{ trans('crud.new') }}</a>{% endif %}
  </div>
</div>

<form method="get" action="{{ base }}" hx-get="{{ base }}" ${HX_NAV} role="search" class="mb-6 rounded-lg border border-gray-200 bg-white p-4">
  <div class="grid gap-4 md:grid-cols-4">
    <div class="md:col-span-2">
      <label for="crud-q" class="mb-1 block text-xs font-medium text-gray-600">{{ trans('crud.search') }}</label>
      <input type="search" id="crud-q" name="q" value="{{ q }}" placeholder="{{ trans('crud.search_placeholder') }}" class="${INPUT}">
    </div>
{% include "${v}/_filters.html" %}
  </div>
  <span id="crud-sort-fields">${sortFields()}</span>
  <div class="mt-4 flex gap-2">
    <button type="submit" class="${PRIMARY}">{{ trans('crud.filter') }}</button>
  </div>
</form>

{#- The bulk-delete form sits outside the table; the row checkboxes join it through their form attribute. Only for the
users the role block lets delete, as the checkboxes. -#}
{% if allowed.delete %}
<form id="bulk-delete-form" method="post" action="{{ base }}/bulk-delete">
  ${CSRF}
  <span id="crud-bulk-box">${bulkButton()}</span>
</form>
{% endif %}

<div id="crud-results">
{% include "${v}/_results.html" %}
</div>
{% endblock %}
`;
}

export function emitResultsView(plan: CrudPlan): string {
  const v = plan.viewDir;
  return `{#- Results of the ${plan.entityClass} list: what partial updates (HX-Request) receive, without the layout. -#}
{% if partial %}
{#- Out of the swapped area, the export link and the search form's sort fields follow the new state (htmx out-of-band swap). -#}
<span id="crud-export-box" hx-swap-oob="true">${exportLink()}</span>
<span id="crud-sort-fields" hx-swap-oob="true">${sortFields()}</span>
<span id="crud-bulk-box" hx-swap-oob="true">${bulkButton()}</span>
{% if flash_html %}<div class="mb-4">{{ flash_html | safe }}</div>{% endif %}
{% endif %}
{% if is_filtered %}
{#- A full load (no hx-get): the search form above the results must empty too. -#}
<p class="mb-4 text-sm"><a href="{{ reset_url }}" class="font-medium text-blue-700 hover:underline" id="crud-reset">{{ trans('crud.reset') }}</a></p>
{% endif %}
{% if rows | length %}
{% include "${v}/_table.html" %}
{% include "${v}/_pagination.html" %}
{% else %}
<p class="rounded-lg border border-dashed border-gray-300 bg-white p-8 text-center text-gray-600" data-empty="{{ empty_context }}">{{ empty_message }}</p>
{% endif %}
`;
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

export function emitTableView(plan: CrudPlan): string {
  const pk = plan.primaryKey.name;
  const v = plan.viewDir;
  return `{#- Table of the ${plan.entityClass} list. The columns come from _list_head.html and _list_cells.html, which fw sync:entity keeps in step with the entity. -#}
<div class="overflow-x-auto rounded-lg border border-gray-200 bg-white">
<table class="min-w-full divide-y divide-gray-200 text-sm">
  <thead class="bg-gray-50">
    <tr>
      {% if allowed.delete %}<th scope="col" class="px-3 py-2"><span class="sr-only">{{ trans('crud.select') }}</span></th>{% endif %}
      {% include "${v}/_list_head.html" %}
      <th scope="col" class="px-3 py-2 text-right font-medium text-gray-700">{{ trans('crud.actions') }}</th>
    </tr>
  </thead>
  <tbody class="divide-y divide-gray-100">
    {% for row in rows %}
    <tr>
      {% if allowed.delete %}<td class="px-3 py-2"><input type="checkbox" name="ids" value="{{ row.${pk} }}" form="bulk-delete-form" aria-label="{{ trans('crud.select') }} #{{ row.${pk} }}"></td>{% endif %}
      {% include "${v}/_list_cells.html" %}
      <td class="px-3 py-2 text-right whitespace-nowrap">
        {#- Only the actions the signed-in user's roles allow (\`allowed\`, from the role block). -#}
        {% if allowed.show %}<a href="{{ base }}/{{ row.${pk} }}" class="font-medium text-blue-700 hover:underline">{{ trans('crud.show') }}</a>{% endif %}
        {% if allowed.update %}<a href="{{ base }}/{{ row.${pk} }}/edit" class="ml-3 font-medium text-blue-700 hover:underline">{{ trans('crud.edit') }}</a>{% endif %}
        {% if allowed.delete %}
        <form method="post" action="{{ base }}/{{ row.${pk} }}/delete" hx-post="{{ base }}/{{ row.${pk} }}/delete" hx-target="#crud-results" hx-swap="innerHTML" hx-confirm="{{ trans('crud.confirm_delete') }}" class="ml-3 inline">
          ${CSRF}
          ${stateFields()}
          <button type="submit" class="font-medium text-red-700 hover:underline">{{ trans('crud.delete') }}</button>
        </form>
        {% endif %}
      </td>
    </tr>
    {% endfor %}
  </tbody>
</table>
</div>
`;
}

export function emitPaginationView(plan: CrudPlan): string {
  const link = (url: string, label: string, extra = ''): string =>
    `<a href="${url}" hx-get="${url}" ${HX_NAV}${extra} class="rounded-md border border-gray-300 bg-white px-3 py-2 text-gray-700 hover:bg-gray-50">${label}</a>`;
  return `{#- Pages of the ${plan.entityClass} list: links keep the search, filters and sort. -#}
<div class="mt-4 flex flex-wrap items-center gap-1 text-sm">
{% if pagination.pageCount > 1 %}
<nav aria-label="{{ trans('pagination.label') }}" class="flex flex-wrap items-center gap-1">
  {% if pagination.hasPrev %}${link('{{ base }}{{ pagination.prevUrl }}', "{{ trans('pagination.previous') }}", ' rel="prev"')}{% endif %}
  {% for link in pagination.links %}
  {% if not link.url %}<span class="px-2 text-gray-500">…</span>
  {% elif link.current %}<span aria-current="page" class="rounded-md border border-blue-600 bg-blue-600 px-3 py-2 font-medium text-white">{{ link.page }}</span>
  {% else %}${link('{{ base }}{{ link.url }}', '{{ link.page }}')}{% endif %}
  {% endfor %}
  {% if pagination.hasNext %}${link('{{ base }}{{ pagination.nextUrl }}', "{{ trans('pagination.next') }}", ' rel="next"')}{% endif %}
</nav>
{% endif %}
  {#- The total, on one page too: « 26 contacts » (countLabel of the crud module). -#}
  <p class="ml-auto text-gray-500" id="crud-total">{{ total_label }}</p>
</div>
`;
}
