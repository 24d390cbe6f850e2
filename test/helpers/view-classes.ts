/**
 * The CSS classes a set of templates uses, and which of them a stylesheet lacks (docs/styles.md).
 *
 * Classes are read from `class="…"` attributes (nunjucks `{{ … }}` and `{# … #}` are dropped, the literal text
 * between `{% if %}` / `{% else %}` tags is kept: every alternative is listed, as is every quoted literal inside
 * an expression such as `{{ 'a' if x else 'b' }}`) and from `{% set <name>class = "…" %}` (the components keep
 * their variants in such variables).
 */
import fs from 'node:fs';
import path from 'node:path';

/** Every file under `dir` whose name ends with one of `extensions` (absolute paths, sorted). */
export function filesUnder(dir: string, extensions: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (folder: string): void => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (extensions.some((ext) => entry.name.endsWith(ext))) out.push(full);
    }
  };
  walk(dir);
  return out.sort();
}

const QUOTED = /'([^']*)'|"([^"]*)"/g;
const SET_CLASS = /\{%-?\s*set\s+\w*class\w*\s*=\s*(?:"([^"]*)"|'([^']*)')\s*-?%\}/g;

/** The class tokens of one template text. */
export function classesOf(text: string): Set<string> {
  const out = new Set<string>();
  const addTokens = (value: string): void => {
    for (const token of value.split(/\s+/)) if (token && !/[{}%#<>'"]/.test(token)) out.add(token);
  };
  for (const attribute of classAttributes(text)) {
    // Literal text with the template tags dropped, then the quoted literals inside the tags.
    addTokens(attribute.replace(/\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}|\{#[\s\S]*?#\}/g, ' '));
    for (const tag of attribute.match(/\{\{[\s\S]*?\}\}/g) ?? []) {
      for (const match of tag.matchAll(QUOTED)) addTokens(match[1] ?? match[2] ?? '');
    }
  }
  for (const match of text.matchAll(SET_CLASS)) addTokens(match[1] ?? match[2] ?? '');
  return out;
}

/** The raw values of the `class="…"` attributes of a text: template tags inside are skipped whole, quotes included. */
function classAttributes(text: string): string[] {
  const out: string[] = [];
  const opener = /\bclass="/g;
  let match: RegExpExecArray | null;
  while ((match = opener.exec(text)) !== null) {
    let i = match.index + match[0].length;
    const start = i;
    while (i < text.length && text[i] !== '"') {
      const pair = text.slice(i, i + 2);
      const closer = pair === '{{' ? '}}' : pair === '{%' ? '%}' : pair === '{#' ? '#}' : '';
      if (closer) {
        const end = text.indexOf(closer, i + 2);
        i = end < 0 ? text.length : end + 2;
      } else i += 1;
    }
    out.push(text.slice(start, i));
    opener.lastIndex = i + 1;
  }
  return out;
}

/** The classes of every file given, with the files that use each one (relative to `root`). */
export function classesOfFiles(files: readonly string[], root: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const file of files) {
    for (const name of classesOf(fs.readFileSync(file, 'utf8'))) {
      const users = out.get(name) ?? [];
      users.push(path.relative(root, file).split(path.sep).join('/'));
      out.set(name, users);
    }
  }
  return out;
}

/** A class as a CSS selector, escaped as Tailwind writes it: `md:grid-cols-4` → `.md\:grid-cols-4`. */
export function classSelector(name: string): string {
  return `.${name.replace(/[^a-zA-Z0-9_-]/g, (c) => `\\${c}`)}`;
}

/** Whether `css` has a rule whose selector names the class (not merely a longer class that starts the same). */
export function cssHasClass(css: string, name: string): boolean {
  const selector = classSelector(name);
  let at = css.indexOf(selector);
  while (at >= 0) {
    const next = css[at + selector.length] ?? '';
    if (!/[a-zA-Z0-9_\\-]/.test(next)) return true;
    at = css.indexOf(selector, at + 1);
  }
  return false;
}

/** The classes of `classes` that `css` lacks, sorted, each with the files that use it. */
export function missingClasses(classes: ReadonlyMap<string, readonly string[]>, css: string): string[] {
  return [...classes.keys()]
    .filter((name) => !cssHasClass(css, name))
    .sort()
    .map((name) => `${name}  (${classes.get(name)!.slice(0, 3).join(', ')}${classes.get(name)!.length > 3 ? ', …' : ''})`);
}
