// Reading the HTML and CSV of the generated CRUD pages in HTTP tests, like a browser without script would: tags and
// their decoded attributes, forms and their hidden fields, list rows, selects, field errors, CSV cells.
import * as assert from 'uvu/assert';

export function decode(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#0*39;|&#x0*27;/gi, "'")
    .replace(/&amp;/g, '&');
}

export interface Tag {
  readonly raw: string;
  readonly index: number;
  readonly attrs: Record<string, string>;
}

export function parseAttrs(tag: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  const inner = tag.replace(/^<[a-zA-Z0-9]+/, '').replace(/\/?>$/, '');
  for (const m of inner.matchAll(/([a-zA-Z_:][-a-zA-Z0-9_:.]*)(?:\s*=\s*"([^"]*)")?/g)) attrs[m[1]!.toLowerCase()] = decode(m[2] ?? '');
  return attrs;
}

/** Opening tags `<name …>` of the page, with their decoded attributes. */
export function tags(html: string, name: string): Tag[] {
  return [...html.matchAll(new RegExp(`<${name}\\b[^>]*>`, 'gi'))].map((m) => ({ raw: m[0], index: m.index!, attrs: parseAttrs(m[0]) }));
}

export interface FormTag extends Tag {
  readonly body: string;
}

export function forms(html: string): FormTag[] {
  return [...html.matchAll(/<form\b[^>]*>([\s\S]*?)<\/form>/gi)].map((m) => {
    const open = /^<form\b[^>]*>/i.exec(m[0])![0];
    return { raw: open, index: m.index!, attrs: parseAttrs(open), body: m[1]! };
  });
}

/** The hidden inputs of a form, as form pairs. */
export function hiddenFields(form: FormTag): Array<[string, string]> {
  return tags(form.body, 'input')
    .filter((t) => t.attrs['type'] === 'hidden')
    .map((t) => [t.attrs['name']!, t.attrs['value'] ?? '']);
}

/** Ids of the rows of a list page, in order (from the selection checkboxes). */
export function rowIds(html: string): number[] {
  return tags(html, 'input')
    .filter((t) => t.attrs['type'] === 'checkbox' && t.attrs['name'] === 'ids')
    .map((t) => Number(t.attrs['value']));
}

export function hxAttrs(tag: Tag): string[] {
  return Object.keys(tag.attrs).filter((name) => name.startsWith('hx-'));
}

export function parseLink(href: string): { path: string; params: URLSearchParams } {
  const url = new URL(href, 'http://x');
  return { path: url.pathname, params: url.searchParams };
}

/** The `data-empty` value of an empty state and its text, or null. */
export function emptyState(html: string): { context: string; message: string } | null {
  const m = /<p\b[^>]*data-empty="([^"]*)"[^>]*>([\s\S]*?)<\/p>/.exec(html);
  return m ? { context: m[1]!, message: decode(m[2]!.trim()) } : null;
}

export function inputValue(html: string, name: string): string | undefined {
  return tags(html, 'input').find((t) => t.attrs['name'] === name)?.attrs['value'];
}

export function textareaValue(html: string, name: string): string | undefined {
  const m = new RegExp(`<textarea\\b[^>]*name="${name}"[^>]*>([\\s\\S]*?)</textarea>`).exec(html);
  return m ? decode(m[1]!) : undefined;
}

/** The options of a select (by its id): value, label, selected. */
export function selectOptions(html: string, id: string): Array<{ value: string; label: string; selected: boolean }> {
  const m = new RegExp(`<select\\b[^>]*id="${id}"[^>]*>([\\s\\S]*?)</select>`).exec(html);
  assert.ok(m, `select #${id} présent`);
  return [...m![1]!.matchAll(/<option\b([^>]*)>([\s\S]*?)<\/option>/g)].map((o) => {
    const attrs = parseAttrs(`<option${o[1]}>`);
    return { value: attrs['value'] ?? '', label: decode(o[2]!), selected: 'selected' in attrs };
  });
}

/** The error message under a form field, or undefined. */
export function fieldError(html: string, name: string): string | undefined {
  const m = new RegExp(`<p id="field-${name}-error"[^>]*>([\\s\\S]*?)</p>`).exec(html);
  return m ? decode(m[1]!.trim()) : undefined;
}

export function isChecked(html: string, name: string): boolean {
  const tag = tags(html, 'input').find((t) => t.attrs['name'] === name && t.attrs['type'] === 'checkbox');
  assert.ok(tag, `case à cocher ${name}`);
  return 'checked' in tag!.attrs;
}

/**
 * The CSV lines (CRLF), without the trailing empty string. `text` is the body as `fetch`'s text() gives it: the
 * byte-order mark the file starts with is already taken off (docs/crud.md "CSV export").
 */
export function csvLines(text: string): string[] {
  assert.ok(text.endsWith('\r\n'), 'CSV terminé par CRLF');
  return text.slice(0, -2).split('\r\n');
}

/** One CSV line of a French page, whose every cell is quoted and split by `;`; returns the cells. */
export function csvCells(line: string): string[] {
  assert.match(line, /^"(?:[^"]|"")*"(?:;"(?:[^"]|"")*")*$/, `chaque cellule entre guillemets, séparées par « ; » : ${line}`);
  return [...line.matchAll(/"((?:[^"]|"")*)"/g)].map((m) => m[1]!.replace(/""/g, '"'));
}
