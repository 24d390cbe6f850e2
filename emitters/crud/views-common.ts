/** What the CRUD views share: the Tailwind classes of buttons and inputs, the htmx navigation attributes, escaping. */

/** The attributes of a link or GET form that refreshes the results and pushes the URL. */
export const HX_NAV = 'hx-target="#crud-results" hx-swap="innerHTML" hx-push-url="true"';
export const BUTTON = 'inline-flex items-center rounded-md px-3 py-2 text-sm font-medium';
export const PRIMARY = `${BUTTON} bg-blue-600 text-white hover:bg-blue-700`;
export const SECONDARY = `${BUTTON} border border-gray-300 bg-white text-gray-700 hover:bg-gray-50`;
export const DANGER = `${BUTTON} bg-red-600 text-white hover:bg-red-700`;
/** A field the server refused (`aria-invalid`) gets a red border and ring. */
export const INPUT =
  'block w-full rounded-md border border-gray-300 bg-white px-3 py-2 text-sm text-gray-900 aria-invalid:border-red-600 aria-invalid:ring-1 aria-invalid:ring-red-600';
export const CSRF = `<input type="hidden" name="csrf_token" value="{{ csrf_token() }}">`;

/**
 * A definition's text (a label, a title) as HTML text of a generated template: HTML-escaped, and its braces written
 * as character references, so that Nunjucks never reads `{{`, `{%` or `{#` in it as its own syntax: the text is
 * shown as written, never run (docs/entities.md "Limits and reserved names").
 */
export function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/\{/g, '&#123;').replace(/\}/g, '&#125;');
}

/**
 * What a required field's label ends with (docs/crud.md "Required fields and the error summary"): a visible `*`
 * that screen readers skip, and « (obligatoire) » for them only. `ctx` is the field's context (`form.nom`).
 */
export function requiredMark(ctx: string): string {
  return `{% if ${ctx}.required %}<span class="text-red-700" aria-hidden="true"> *</span><span class="sr-only"> ({{ trans('crud.required') }})</span>{% endif %}`;
}
