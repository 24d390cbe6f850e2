/**
 * `_fields.html`, the form's fields as the entity describes them (regenerable), which the user's `form.html` puts
 * into the framework's `crud/form.html` (`layouts/app.html` is app-layout.ts's).
 */
import { syncEntityCommand, templateMarkerLine } from '../marker.js';
import { hasPivotInputs, linkRowsInput } from './pivot.js';
import type { CrudField, CrudLink, CrudPlan } from './plan.js';
import { INPUT, requiredMark } from './views-common.js';

// The tests and older callers name the layout here.
export { emitAppLayout } from './app-layout.js';

/** One form field's block (label, control, message); `extraAttrs` go on an input (the public form's `step`). */
export function formInput(f: CrudField, extraAttrs = ''): string {
  const name = f.field.name;
  const ctx = `form.${name}`;
  const errorAttrs = `{% if ${ctx}.error %} aria-invalid="true" aria-describedby="field-${name}-error"{% endif %}`;
  const required = `{% if ${ctx}.required %} required{% endif %}`;
  const label = `<label for="field-${name}" class="mb-1 block text-sm font-medium text-gray-700">{{ ${ctx}.label }}${requiredMark(ctx)}</label>`;
  const error = `{% if ${ctx}.error %}<p id="field-${name}-error" class="mt-1 text-sm text-red-600">{{ ${ctx}.error }}</p>{% endif %}`;
  let control: string;
  if (f.input === 'bool') {
    return `  <div class="mb-4">
    <div class="flex items-center gap-2">
      <input type="checkbox" id="field-${name}" name="${name}" value="1" class="h-4 w-4"{% if ${ctx}.value and ${ctx}.value != '0' and ${ctx}.value != 'false' %} checked{% endif %}${errorAttrs}>
      <label for="field-${name}" class="text-sm font-medium text-gray-700">{{ ${ctx}.label }}</label>
    </div>
    ${error}
  </div>`;
  }
  if (f.input === 'relation') {
    control = `<select id="field-${name}" name="${name}" class="${INPUT}"${required}${errorAttrs}>
      <option value="">—</option>
      {% for choice in ${ctx}.choices %}<option value="{{ choice.value }}"{% if choice.selected %} selected{% endif %}>{{ choice.label }}</option>{% endfor %}
    </select>`;
  } else if (f.input === 'textarea') {
    control = `<textarea id="field-${name}" name="${name}" rows="4" class="${INPUT}"${required}${errorAttrs}>{{ ${ctx}.value }}</textarea>`;
  } else {
    control = `<input type="{{ ${ctx}.type }}" id="field-${name}" name="${name}" value="{{ ${ctx}.value }}" class="${INPUT}"${required}${errorAttrs}${extraAttrs}{% for attr, value in ${ctx}.attrs %} {{ attr }}="{{ value }}"{% endfor %}>`;
  }
  return `  <div class="mb-4">
    ${label}
    ${control}
    ${error}
  </div>`;
}

/** A many-to-many link: a multiple select (works without script; Ctrl/Cmd+click picks several). */
function linkInput(l: CrudLink): string {
  const name = l.name;
  const ctx = `form.${name}`;
  return `  <div class="mb-4">
    {% set count = ${ctx}.choices | length %}
    <label for="field-${name}" class="mb-1 block text-sm font-medium text-gray-700">{{ ${ctx}.label }}${requiredMark(ctx)}</label>
    <select id="field-${name}" name="${name}" multiple size="{{ 8 if count > 8 else (count if count > 2 else 2) }}" class="${INPUT}" aria-describedby="field-${name}-hint{% if ${ctx}.error %} field-${name}-error{% endif %}"{% if ${ctx}.error %} aria-invalid="true"{% endif %}>
      {% for choice in ${ctx}.choices %}<option value="{{ choice.value }}"{% if choice.selected %} selected{% endif %}>{{ choice.label }}</option>{% endfor %}
    </select>
    <p id="field-${name}-hint" class="mt-1 text-xs text-gray-500">{{ trans('crud.multiple_hint') }}</p>
    {% if ${ctx}.error %}<p id="field-${name}-error" class="mt-1 text-sm text-red-600">{{ ${ctx}.error }}</p>{% endif %}
  </div>`;
}

/** `_fields.html` (regenerable): one block per form field, included by form.html inside its <form>. */
export function emitFieldsView(plan: CrudPlan): string {
  const blocks = [...plan.formFields.map((f) => formInput(f)), ...plan.links.map((l) => (hasPivotInputs(l) ? linkRowsInput(l) : linkInput(l)))];
  return `${templateMarkerLine(syncEntityCommand(plan.entityClass))}
{#- The fields of the ${plan.entityClass} form (label, control, message), included by form.html. -#}
${blocks.join('\n')}
`;
}
