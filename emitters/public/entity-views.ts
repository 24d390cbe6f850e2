/**
 * The templates of an entity's public pages (`mvc/views/<snake>_public/`, manual): list, detail, form. They extend the
 * public layout and use the `public.*` i18n keys (docs/generators.md).
 */
import { formInput } from '../crud/views-record.js';
import { CSRF, PRIMARY, escape } from '../crud/views-common.js';
import { displayPattern, type CrudField, type CrudMedia } from '../crud/plan.js';
import { PUBLIC_LIST_LIMIT } from './entity-controller.js';
import type { PublicPlan } from './plan.js';

const LINK = 'font-medium text-blue-700 hover:underline';
/** Values that may wrap in a table cell; numbers, dates, telephone numbers and yes/no stay on one line. */
const WRAPS = new Set(['text', 'textarea', 'email', 'url']);

/** A value as the pages show it: Oui / Non for a boolean, dates as users read them (10/03/2025 08:40). */
function display(f: CrudField): string {
  const value = `row.${f.field.name}`;
  switch (f.input) {
    case 'bool':
      return `{{ trans('crud.yes') if ${value} else trans('crud.no') }}`;
    case 'date':
    case 'datetime':
      return `{{ ${value} | format_date }}`;
    case 'decimal':
    case 'float':
      // The locale's decimal separator (0,50 in French), as on the CRUD pages.
      return `{{ ${value} | format_number }}`;
    default:
      return `{{ ${value} }}`;
  }
}

function header(title: string): string {
  return `{% extends "layouts/public.html" %}
{% block title %}${title}{% endblock %}
{% block content %}`;
}

export function emitPublicListView(plan: PublicPlan): string {
  const pk = plan.entity.primaryKey.name;
  const fields = plan.listFields;
  // Rows are named by their label field, else (nothing shown fits: the key) by a first column `#<id>`.
  const byKey = fields.length === 0 || plan.labelField.primaryKey;
  const first = byKey ? null : (fields.find((f) => f.field === plan.labelField) ?? fields[0]);
  const cell = 'px-4 py-3 align-middle text-gray-700';
  const th = 'px-4 py-3 text-left text-xs font-semibold uppercase tracking-wide text-gray-600';
  const link = (content: string): string =>
    `{% if linked %}<a href="${plan.prefix}/{{ row.${pk} }}" class="${LINK}">${content}</a>{% else %}${content}{% endif %}`;
  const heads = [
    ...(plan.listImage ? [`<th scope="col" class="${th}"><span class="sr-only">${escape(plan.listImage.label)}</span></th>`] : []),
    ...(byKey ? [`<th scope="col" class="${th}">#</th>`] : []),
    ...fields.map((f) => `<th scope="col" class="${th}">${escape(f.label)}</th>`),
  ];
  const cells = [
    ...(plan.listImage
      ? [
          `<td class="w-16 px-4 py-2">{% set thumb = thumbnails[row.${pk}] %}{% if thumb %}<img src="{{ thumb.url }}" alt="{{ thumb.alt }}" loading="lazy" class="h-12 w-12 rounded-md border border-gray-200 bg-gray-100 object-cover">{% else %}<span class="block h-12 w-12 rounded-md bg-gray-100" aria-hidden="true"></span>{% endif %}</td>`,
        ]
      : []),
    ...(byKey ? [`<td class="${cell} whitespace-nowrap font-medium text-gray-900">${link(`#{{ row.${pk} }}`)}</td>`] : []),
    ...fields.map(
      (f) =>
        `<td class="${cell}${f === first ? ' font-medium text-gray-900' : ''}${WRAPS.has(f.input) ? '' : ' whitespace-nowrap'}">${f === first ? link(display(f)) : display(f)}</td>`,
    ),
  ];
  return `{#- Public list of ${plan.entity.name}: the latest ${PUBLIC_LIST_LIMIT}, newest first (fw make:public-list ${plan.entity.name}). This file is yours. -#}
${header('{{ title }}')}
<div class="mb-6 flex flex-wrap items-center justify-between gap-3">
  <h1 class="text-2xl font-semibold text-gray-900">{{ title }}</h1>
  {% if new_url %}<a href="{{ new_url }}" class="${PRIMARY}">{{ trans('crud.new') }}</a>{% endif %}
</div>
{% if rows | length %}
<div class="overflow-x-auto rounded-lg border border-gray-200 bg-white">
  <table class="min-w-full divide-y divide-gray-200 text-sm">
    <thead class="bg-gray-50">
      <tr>
        ${heads.join('\n        ')}
      </tr>
    </thead>
    <tbody class="divide-y divide-gray-100">
      {% for row in rows %}
      <tr>
        ${cells.join('\n        ')}
      </tr>
      {% endfor %}
    </tbody>
  </table>
</div>
{% else %}
<p class="rounded-lg border border-dashed border-gray-300 bg-white px-4 py-10 text-center text-gray-600">{{ trans('public.list.empty') }}</p>
{% endif %}
{% endblock %}
`;
}

/** One media entry on the detail page, hidden when empty: an image, a grid, a link or a list of links. */
function mediaSection(m: CrudMedia): string {
  const items = `media.${m.name}`;
  let body: string;
  if (m.kind === 'image' && !m.multiple) {
    body = `{% set item = ${items}[0] %}
  <a href="{{ item.url }}" class="inline-block"><img src="{{ item.medium_url }}" alt="{{ item.alt }}" class="max-h-96 max-w-full rounded-lg border border-gray-200 bg-gray-100"></a>`;
  } else if (m.kind === 'image') {
    body = `<ul class="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
    {% for item in ${items} %}<li><a href="{{ item.medium_url }}" class="block"><img src="{{ item.thumbnail_url }}" alt="{{ item.alt }}" loading="lazy" class="aspect-square w-full rounded-md border border-gray-200 bg-gray-100 object-cover"></a></li>{% endfor %}
  </ul>`;
  } else if (!m.multiple) {
    body = `<p class="text-sm break-words"><a href="{{ ${items}[0].url }}" class="${LINK}">{{ ${items}[0].name }}</a></p>`;
  } else {
    body = `<ul class="list-disc space-y-1 pl-6 text-sm break-words">
    {% for item in ${items} %}<li><a href="{{ item.url }}" class="${LINK}">{{ item.name }}</a></li>{% endfor %}
  </ul>`;
  }
  return `{% if ${items} | length %}
<section class="mt-6" aria-labelledby="media-${m.name}-title">
  <h2 id="media-${m.name}-title" class="mb-3 text-lg font-semibold text-gray-900">${escape(m.label)}</h2>
  ${body}
</section>
{% endif %}`;
}

export function emitPublicShowView(plan: PublicPlan): string {
  const pk = plan.entity.primaryKey.name;
  const named = displayPattern(plan.entity);
  // With `display`, the title is the record's name (docs/entities.md "How a record is named"), the key when it is empty.
  const label = named
    ? `{{ row | record_label(${JSON.stringify(named.pattern)}) or ('#' ~ row.${pk}) }}`
    : plan.labelField.primaryKey
      ? `#{{ row.${plan.labelField.name} }}`
      : `{{ row.${plan.labelField.name} }}`;
  const rows = plan.shownFields
    .filter((f) => named !== null || f.field !== plan.labelField)
    .map(
      (f) => `  <div class="grid gap-1 px-4 py-3 sm:grid-cols-3 sm:gap-4">
    <dt class="text-sm font-medium text-gray-600">${escape(f.label)}</dt>
    <dd class="text-sm text-gray-900 sm:col-span-2${f.input === 'textarea' ? ' whitespace-pre-line' : ''} break-words">${display(f)}</dd>
  </div>`,
    );
  return `{#- Public page of one ${plan.entity.name} (fw make:public-show ${plan.entity.name}). This file is yours. -#}
${header(`${label} · {{ title }}`)}
<p class="mb-2 text-sm text-gray-500">{{ title }}</p>
<h1 class="mb-6 text-2xl font-semibold text-gray-900 break-words">${label}</h1>
${rows.length ? `<dl class="divide-y divide-gray-100 rounded-lg border border-gray-200 bg-white">\n${rows.join('\n')}\n</dl>` : ''}
${plan.media.map(mediaSection).join('\n')}
<p class="mt-8"><a href="{{ list }}" class="${LINK}">← {{ trans('public.show.back') }}</a></p>
{% endblock %}
`;
}

/** The step of a number input: the DECIMAL's scale (docs/decisions.md#public-pages), any for a float. */
function stepAttr(f: CrudField): string {
  if (f.input === 'float') return ' step="any"';
  if (f.input !== 'decimal') return '';
  const scale = Number(f.field.sqlType.args[1] ?? 0);
  return ` step="${scale > 0 ? `0.${'0'.repeat(scale - 1)}1` : '1'}"`;
}

export function emitPublicFormView(plan: PublicPlan): string {
  return `{#- Public form of ${plan.entity.name} (fw make:public-form ${plan.entity.name}): an invalid submission comes back with status 422, its messages and the values entered. This file is yours. -#}
${header('{{ label or title }}')}
<h1 class="mb-6 text-2xl font-semibold text-gray-900">{{ label or title }}</h1>
{% if form.non_field_errors | length %}
<div role="alert" class="mb-4 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-700">{% for message in form.non_field_errors %}<p>{{ message }}</p>{% endfor %}</div>
{% endif %}
{% include "components/error_summary.html" %}
<form method="post" action="{{ action }}" novalidate class="max-w-2xl rounded-lg border border-gray-200 bg-white p-6">
  ${CSRF}
{% include "components/required_legend.html" %}
${plan.formFields.map((f) => formInput(f, stepAttr(f))).join('\n')}
  <button type="submit" class="${PRIMARY}">{{ trans('public.form.submit') }}</button>
</form>
{% endblock %}
`;
}
