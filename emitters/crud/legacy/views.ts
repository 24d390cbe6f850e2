/**
 * The manual views and the form class the previous fw-mvc wrote (`index.html`, `_results.html`, `_table.html`,
 * `_pagination.html`, `show.html`, `form.html`, `bulk_delete.html`, `<snake>_form.ts`), kept as they were, with the
 * classes they used, so that `fw make:crud <Entity> --upgrade` knows what it wrote for an entity (docs/decisions.md
 * "Upgrading an entity's files"). Frozen: never change their output, even when the current views change.
 */
import { hasPivotInputs } from '../pivot.js';
import type { CrudPlan } from '../plan.js';

/** The attributes of a link or GET form that refreshes the results and pushes the URL. */
const HX_NAV = 'hx-target="#crud-results" hx-swap="innerHTML" hx-push-url="true"';
const BUTTON = 'inline-flex items-center rounded-md px-3 py-2 text-sm font-medium';
const PRIMARY = `${BUTTON} bg-blue-600 text-white hover:bg-blue-700`;
const SECONDARY = `${BUTTON} border border-gray-300 bg-white text-gray-700 hover:bg-gray-50`;
const DANGER = `${BUTTON} bg-red-600 text-white hover:bg-red-700`;
/** A field the server refused (`aria-invalid`) gets a red border and ring. */
const INPUT =
  'block w-full rounded-md border border-gray-300 bg-white px-3 py-2 text-sm text-gray-900 aria-invalid:border-red-600 aria-invalid:ring-1 aria-invalid:ring-red-600';
const CSRF = `<input type="hidden" name="csrf_token" value="{{ csrf_token() }}">`;

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

export function legacyIndexView(plan: CrudPlan): string {
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

export function legacyResultsView(plan: CrudPlan): string {
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

export function legacyTableView(plan: CrudPlan): string {
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

export function legacyPaginationView(plan: CrudPlan): string {
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

/** The links of a many-to-many with pivot values (`crud.linkDetails`): one item per link, its values after its label. */
const LINK_DETAILS = `<ul class="space-y-1">{% for link in field.links %}<li><span class="font-medium">{{ link.label }}</span>{% for item in link.values %}<span class="text-gray-600"> · {{ item.label }}&nbsp;:&nbsp;{{ item.value }}</span>{% endfor %}</li>{% endfor %}</ul>`;

export function legacyShowView(plan: CrudPlan): string {
  const pk = plan.primaryKey.name;
  return `{#- Detail of a ${plan.entityClass}. -#}
{% extends "layouts/app.html" %}
{% block content %}
<div class="mb-6 flex flex-wrap items-center justify-between gap-4">
  <h1 class="text-2xl font-semibold text-gray-900">{{ label or title }} #{{ row.${pk} }}</h1>
  <div class="flex gap-2">
    {#- Only the actions the signed-in user's roles allow (\`allowed\`, from the role block). -#}
    {% if allowed.update %}<a href="{{ base }}/{{ row.${pk} }}/edit" class="${PRIMARY}">{{ trans('crud.edit') }}</a>{% endif %}
    {% if allowed.delete %}
    {#- Without script, a plain POST. With htmx, hx-post is what makes htmx ask hx-confirm (it confirms only the requests
    it sends); the answer sends the page to the list (HX-Redirect, see the controller's destroy). -#}
    <form method="post" action="{{ base }}/{{ row.${pk} }}/delete" id="crud-delete" hx-post="{{ base }}/{{ row.${pk} }}/delete" hx-confirm="{{ trans('crud.confirm_delete') }}">
      ${CSRF}
      <input type="hidden" name="from" value="show">
      <button type="submit" class="${DANGER}">{{ trans('crud.delete') }}</button>
    </form>
    {% endif %}
  </div>
</div>
<dl class="divide-y divide-gray-100 rounded-lg border border-gray-200 bg-white">
  {% for field in fields %}
  <div class="grid gap-2 px-4 py-3 md:grid-cols-3">
    <dt class="text-sm font-medium text-gray-600">{{ field.label }}</dt>
    {#- pre-line: the line breaks of a long text (TEXT, MEDIUMTEXT) show as they were typed. -#}
    <dd class="text-sm text-gray-900 md:col-span-2 whitespace-pre-line break-words">${plan.links.some(hasPivotInputs) ? `{% if field.links %}${LINK_DETAILS}{% else %}{{ field.value }}{% endif %}` : '{{ field.value }}'}</dd>
  </div>
  {% endfor %}
</dl>${plan.media ? `\n{% include "${plan.viewDir}/_media_show.html" %}` : ''}
<p class="mt-6"><a href="{{ base }}" class="font-medium text-blue-700 hover:underline">{{ trans('crud.back') }}</a></p>
{% endblock %}
`;
}

export function legacyFormView(plan: CrudPlan): string {
  // With media, the form sends files: multipart, and the media partial after the fields.
  const enctype = plan.media ? ' enctype="multipart/form-data"' : '';
  const media = plan.media ? `{% include "${plan.viewDir}/_media_fields.html" %}\n` : '';
  return `{#- Create and edit form of a ${plan.entityClass}: an invalid submission comes back with status 422, its messages and the values entered${plan.media ? ' (files must be chosen again)' : ''}. -#}
{% extends "layouts/app.html" %}
{% block content %}
<h1 class="mb-6 text-2xl font-semibold text-gray-900">{{ label or title }} · {{ trans('crud.edit_title') if row else trans('crud.new_title') }}</h1>
{% if form.non_field_errors | length %}
<div role="alert" class="mb-4 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-700">{% for message in form.non_field_errors %}<p>{{ message }}</p>{% endfor %}</div>
{% endif %}
<form method="post" action="{{ action }}"${enctype} novalidate class="rounded-lg border border-gray-200 bg-white p-6">
  ${CSRF}
{% include "${plan.viewDir}/_fields.html" %}
${media}  <div class="flex gap-2">
    <button type="submit" class="${PRIMARY}">{{ trans('crud.save') }}</button>
    <a href="{{ base }}" class="${SECONDARY}">{{ trans('crud.cancel') }}</a>
  </div>
</form>
{% endblock %}
`;
}

export function legacyBulkDeleteView(plan: CrudPlan): string {
  const pk = plan.primaryKey.name;
  return `{#- Confirmation of a bulk delete of ${plan.entityClass} records. -#}
{% extends "layouts/app.html" %}
{% block content %}
<h1 class="mb-6 text-2xl font-semibold text-gray-900">{{ trans('crud.bulk_confirm_title') }}</h1>
<div class="rounded-lg border border-gray-200 bg-white p-6">
  <p class="mb-4 text-gray-700">{{ trans('crud.bulk_confirm_intro') }}</p>
  <ul class="mb-6 list-disc pl-6 text-sm text-gray-900">
    {% for label in labels %}<li>{{ label }}</li>{% endfor %}
  </ul>
  <form method="post" action="{{ base }}/bulk-delete/confirm" class="flex flex-wrap gap-2">
    ${CSRF}
    {% for row in rows %}<input type="hidden" name="ids" value="{{ row.${pk} }}">{% endfor %}
    <button type="submit" class="${DANGER}">{{ trans('crud.delete') }}</button>
    <a href="{{ base }}" class="${SECONDARY}">{{ trans('crud.cancel') }}</a>
  </form>
</div>
{% endblock %}
`;
}

/** `mvc/forms/<snake>_form.ts` (manual): the form class, on the regenerable fields. */
export function legacyForm(plan: CrudPlan): string {
  return `// Form of the entity ${plan.entityClass}. This file is yours: \`fw make:crud ${plan.entityClass}\` created it once and never
// overwrites it. Its fields come from ${plan.entity.snake}_fields.ts, which \`fw sync:entity ${plan.entityClass}\` keeps in step with
// the entity. Add rules in clean(); the entity's own checks (${plan.entity.snake}_base.ts) run after these. To add a field
// of your own: \`static fields = { ...${plan.fieldsConst}, extra: new StringField() }\` and \`Form<typeof ${plan.formClass}.fields>\`.
import { Form } from 'fw-mvc';
import { ${plan.fieldsConst} } from './${plan.entity.snake}_fields.js';

export class ${plan.formClass} extends Form<typeof ${plan.fieldsConst}> {
  static fields = ${plan.fieldsConst};
}
`;
}
