/**
 * The media of an entity's CRUD pages (`make:crud --media`, docs/decisions.md#uploads-and-media), regenerable: `<snake>_media.ts`,
 * the entity's entries as a `MediaPages` (fw-mvc/media, runtime/media/pages.ts), and the partials `_media_fields.html`
 * (the form's file inputs and current files) and `_media_show.html` (the detail page's images and links). Everything
 * works without script; the texts are the catalogue's `media.*` keys.
 */
import { syncEntityCommand, templateMarkerLine, tsMarkerLine } from '../marker.js';
import { tsString } from '../text.js';
import { descriptionNames } from './description.js';
import type { CrudMedia, CrudPlan } from './plan.js';
import { INPUT, escape } from './views-common.js';

const LABEL = 'mb-1 block text-sm font-medium text-gray-700';
const SMALL_LABEL = 'mb-1 block text-xs font-medium text-gray-600';
const LINK = 'font-medium text-blue-700 hover:underline';
const FILE_INPUT =
  'block w-full text-sm text-gray-700 file:mr-3 file:rounded-md file:border-0 file:bg-gray-100 file:px-3 file:py-2 file:text-sm file:font-medium file:text-gray-700 hover:file:bg-gray-200';

function mediaOf(plan: CrudPlan): readonly CrudMedia[] {
  if (!plan.media) throw new Error(`${plan.entityClass} : pages générées sans --media`);
  return plan.media;
}

/**
 * `mvc/models/<snake>_media.ts` (regenerable): the entity's media entries, in its order, as a `MediaPages` of
 * fw-mvc/media. Who may read a record's private files is who may open its detail page: the description's own
 * `allowed(request, 'show')`, so that the role block is read in one place.
 */
export function emitMediaModule(plan: CrudPlan): string {
  const command = syncEntityCommand(plan.entityClass);
  const { constant } = descriptionNames(plan);
  const entries = mediaOf(plan).map(
    (m) =>
      `  { name: '${m.name}', label: ${tsString(m.label)}, kind: '${m.kind}', role: ${tsString(m.role)}, multiple: ${m.multiple}, variants: ${m.variants === 'job' ? "'job'" : m.variants} },`,
  );
  const byJob = mediaOf(plan).some((m) => m.variants === 'job');
  const jobImport = byJob ? `\nimport { MEDIA_VARIANTS_JOB } from 'fw-mvc/media/jobs';` : '';
  const jobOption = byJob
    ? `
  // The variants of the entries with variants: 'job' are made by this job once the upload answered (the pages show
  // the original until they exist); mvc/jobs/index.ts imports fw-mvc/media/jobs so that \`fw jobs:work\` runs it.
  variantsJob: MEDIA_VARIANTS_JOB,`
    : '';
  return `${tsMarkerLine(command)}
// The media of the ${plan.entityClass} pages as ${plan.entity.file} describes them (its "media" entries):
// ${plan.entity.snake}_controller.ts and ${plan.entity.snake}_model.ts (yours) use it; \`${command}\` and \`fw build:model\` rewrite it
// when the entity changes. The rows of the \`media\` table name the entity '${plan.entityClass}'.
import { MediaPages } from 'fw-mvc/media';${jobImport}
import { ${constant} } from './${plan.crudModule}.js';

export const MEDIA = new MediaPages('${plan.entityClass}', [${entries.length ? `\n${entries.join('\n')}\n` : ''}], {
  // Who may open a record's detail page (the role block, ${plan.crudModule}.ts): its files in private categories at
  // /media follow the same rule.
  mayShow: (request) => ${constant}.allowed(request, 'show'),
  table: ${constant}.table,
  keyColumn: ${constant}.key.column,${jobOption}
});
`;
}

/** The block of one current file on the form: preview or link, alternative text, order, removal. */
function currentItem(m: CrudMedia): string {
  const n = m.name;
  const id = (what: string): string => `media-${n}-${what}-{{ item.id }}`;
  const preview =
    m.kind === 'image'
      ? `<a href="{{ item.url }}" class="mb-2 block"><img src="{{ item.thumbnail_url }}" alt="{{ item.alt }}" class="h-32 w-full rounded-md bg-gray-100 object-contain"></a>`
      : `<a href="{{ item.url }}" class="mb-2 block truncate ${LINK}">{{ item.name }}</a>`;
  const alt =
    m.kind === 'image'
      ? `
        <label for="${id('alt')}" class="${SMALL_LABEL}">{{ trans('media.alt_text') }}</label>
        <input type="text" id="${id('alt')}" name="${n}.alt.{{ item.id }}" value="{{ item.alt }}" maxlength="255" class="mb-2 ${INPUT}">`
      : '';
  const position = m.multiple
    ? `
        <label for="${id('position')}" class="${SMALL_LABEL}">{{ trans('media.position') }}</label>
        <input type="number" id="${id('position')}" name="${n}.position.{{ item.id }}" value="{{ item.position }}" step="1" class="mb-2 ${INPUT}">`
    : '';
  return `      <li class="min-w-0 rounded-md border border-gray-200 p-3" data-media-id="{{ item.id }}">
        ${preview}${alt}${position}
        <div class="flex items-center gap-2">
          <input type="checkbox" id="${id('remove')}" name="${n}.remove" value="{{ item.id }}" class="h-4 w-4"{% if item.remove %} checked{% endif %}>
          <label for="${id('remove')}" class="text-sm text-gray-700">{{ trans('media.remove') }}{% if item.name %} <span class="sr-only">{{ item.name }}</span>{% endif %}</label>
        </div>
      </li>`;
}

/** One entry of the form: its messages, its current files (edit page), its file input. */
function fieldBlock(m: CrudMedia): string {
  const n = m.name;
  const ctx = `media.${n}`;
  // A single file: a new one replaces the current one.
  const what = m.multiple
    ? m.kind === 'image'
      ? "{{ trans('media.add_images') }}"
      : "{{ trans('media.add_files') }}"
    : m.kind === 'image'
      ? `{{ trans('media.replace_image') if ${ctx}.items | length else trans('media.choose_image') }}`
      : `{{ trans('media.replace_file') if ${ctx}.items | length else trans('media.choose_file') }}`;
  const grid = m.multiple ? 'mb-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3' : 'mb-4 grid gap-4 sm:grid-cols-2';
  const newAlt =
    m.kind === 'image' && !m.multiple
      ? `
    <label for="media-${n}-alt" class="mt-3 ${SMALL_LABEL}">{{ trans('media.new_alt_text') }}</label>
    <input type="text" id="media-${n}-alt" name="${n}.alt" value="{{ ${ctx}.alt }}" maxlength="255" class="${INPUT}">`
      : '';
  return `  <fieldset class="mb-4 min-w-0 rounded-md border border-gray-200 p-4" id="media-${n}">
    <legend class="px-1 text-sm font-medium text-gray-700">${escape(m.label)}</legend>
    {% if ${ctx}.errors | length %}<div id="media-${n}-error" class="mb-3 text-sm text-red-600">{% for message in ${ctx}.errors %}<p>{{ message }}</p>{% endfor %}</div>{% endif %}
    {% if ${ctx}.again | length %}<p id="media-${n}-again" class="mb-3 text-sm text-gray-700">{{ trans('media.choose_again', { files: ${ctx}.again | join(', ') }) }}</p>{% endif %}
    {% if ${ctx}.items | length %}
    <ul class="${grid}">
      {% for item in ${ctx}.items %}
${currentItem(m)}
      {% endfor %}
    </ul>
    {% endif %}
    <label for="media-${n}-file" class="${LABEL}">${what}</label>
    <input type="file" id="media-${n}-file" name="${n}"${m.multiple ? ' multiple' : ''} accept="{{ ${ctx}.accept }}" class="${FILE_INPUT}" aria-describedby="media-${n}-hint{% if ${ctx}.errors | length %} media-${n}-error{% endif %}"{% if ${ctx}.errors | length %} aria-invalid="true"{% endif %}>
    <p id="media-${n}-hint" class="mt-1 text-xs text-gray-500">{{ ${ctx}.hint }}</p>${newAlt}
  </fieldset>`;
}

/** `_media_fields.html` (regenerable): the media of the form, included by form.html inside its multipart <form>. */
export function emitMediaFieldsView(plan: CrudPlan): string {
  return `${templateMarkerLine(syncEntityCommand(plan.entityClass))}
{#- The media of the ${plan.entityClass} form (new files, and on the edit page the current ones with their alternative text, order and removal), included by form.html. -#}
${mediaOf(plan).map(fieldBlock).join('\n')}
`;
}

/** One entry on the detail page: an image, a grid of thumbnails, a link, a list of links. */
function showBlock(m: CrudMedia): string {
  const ctx = `media.${m.name}`;
  const none = m.kind === 'image' ? "{{ trans('media.no_image') }}" : "{{ trans('media.no_file') }}";
  const link = `<a href="{{ item.url }}" class="${LINK}">{{ item.name }}</a>{% if item.size %} <span class="text-gray-500">({{ item.size }})</span>{% endif %}`;
  let body: string;
  if (m.kind === 'image' && m.multiple) {
    body = `<ul class="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-4">
      {% for item in ${ctx}.items %}
      <li><a href="{{ item.medium_url }}" class="block"><img src="{{ item.thumbnail_url }}" alt="{{ item.alt }}" loading="lazy" class="aspect-square w-full rounded-md border border-gray-200 bg-gray-100 object-cover"></a></li>
      {% endfor %}
    </ul>`;
  } else if (m.kind === 'image') {
    body = `{% set item = ${ctx}.items[0] %}
    <a href="{{ item.url }}" class="inline-block"><img src="{{ item.medium_url }}" alt="{{ item.alt }}" class="max-h-96 max-w-full rounded-lg border border-gray-200 bg-gray-100"></a>`;
  } else if (m.multiple) {
    body = `<ul class="list-disc pl-6 text-sm break-words">
      {% for item in ${ctx}.items %}<li>${link}</li>{% endfor %}
    </ul>`;
  } else {
    body = `{% set item = ${ctx}.items[0] %}
    <p class="text-sm break-words">${link}</p>`;
  }
  return `<section class="mt-6 rounded-lg border border-gray-200 bg-white p-4" aria-labelledby="media-${m.name}-title">
  <h2 id="media-${m.name}-title" class="mb-3 text-lg font-semibold text-gray-900">${escape(m.label)}</h2>
  {% if ${ctx}.items | length %}
    ${body}
  {% else %}
    <p class="text-sm text-gray-500">${none}</p>
  {% endif %}
</section>`;
}

/** `_media_show.html` (regenerable): the media of the detail page, in the entity's order, included by show.html. */
export function emitMediaShowView(plan: CrudPlan): string {
  return `${templateMarkerLine(syncEntityCommand(plan.entityClass))}
{#- The media of a ${plan.entityClass} on its detail page (read-only, in the entity's order), included by show.html. -#}
${mediaOf(plan).map(showBlock).join('\n')}
`;
}
