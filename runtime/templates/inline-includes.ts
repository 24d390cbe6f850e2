/**
 * Static includes written into the including template when it is loaded (docs/runtime.md "Includes are written in place"):
 * `{% include "contact/_list_cells.html" %}` in a loop costs nunjucks a template lookup, a copy of the context and
 * a frame per row; the same markup written in place costs nothing more than its own expressions. The output is the
 * same byte for byte:
 * - only includes of a literal name (not `./` or `../`, not `ignore missing`) are inlined;
 * - only files without a tag that would behave differently in place (`set`, `macro`, `import`, `from`, `extends`,
 *   `block`, `call`, `raw`, `verbatim`, `super()`, `caller()`): an include gives those their own frame and blocks;
 * - the inlined text sits in `{% if true %}…{% endif %}`, which keeps the include tag's whitespace control on the
 *   outside and the included file's own (a leading `{#-`, a trailing `-%}`) on the inside.
 * A failed render is rendered again without inlining, so that its error names the file and line that hold the
 * fault (runtime/templates/nunjucks.ts).
 */

/** Reads a template's source by its name, or undefined when no search path has it. */
export type SourceReader = (name: string) => string | undefined;

/** Includes nested deeper than this are left to nunjucks (a cycle is too). */
const MAX_DEPTH = 8;
const INCLUDE = /^(-?)\s*include\s+(?:"([^"\\]+)"|'([^'\\]+)')\s*(-?)$/;
const KEYWORD = /^-?\s*([a-zA-Z_]+)/;
const NOT_INLINED_TAGS = new Set(['set', 'macro', 'import', 'from', 'extends', 'block', 'call', 'raw', 'verbatim']);
const RAW_START = /^-?\s*(raw|verbatim)\s*-?$/;
const NOT_INLINED_CALLS = /\b(?:super|caller)\s*\(/;

interface Tag {
  readonly start: number;
  /** Just after the closing delimiter. */
  readonly end: number;
  /** `{%`, `{{` or `{#`. */
  readonly open: string;
  /** What lies between the delimiters. */
  readonly body: string;
}

/** The tags of a template in order, quotes inside `{% %}` and `{{ }}` respected; stops at the first unterminated one. */
function* tags(source: string): Generator<Tag> {
  let index = 0;
  while (index < source.length) {
    const start = source.indexOf('{', index);
    if (start < 0 || start + 1 >= source.length) return;
    const open = source.slice(start, start + 2);
    if (open !== '{%' && open !== '{{' && open !== '{#') {
      index = start + 1;
      continue;
    }
    const close = open === '{%' ? '%}' : open === '{{' ? '}}' : '#}';
    let cursor = start + 2;
    let quote = '';
    let end = -1;
    while (cursor < source.length) {
      const char = source[cursor]!;
      if (quote) {
        if (char === '\\') cursor++;
        else if (char === quote) quote = '';
      } else if (open !== '{#' && (char === '"' || char === "'")) quote = char;
      else if (source.startsWith(close, cursor)) {
        end = cursor + 2;
        break;
      }
      cursor++;
    }
    if (end < 0) return;
    const body = source.slice(start + 2, end - 2);
    yield { start, end, open, body };
    index = end;
    // The text of a raw or verbatim block is not template: an include written there is text.
    const raw = open === '{%' ? RAW_START.exec(body) : null;
    if (raw) {
      const closing = new RegExp(`\\{%-?\\s*end${raw[1]}\\s*-?%\\}`, 'g');
      closing.lastIndex = end;
      if (!closing.exec(source)) return;
      index = closing.lastIndex;
    }
  }
}

/** Whether `source` can be written in place of an include of it with the same output. */
function inlinable(source: string): boolean {
  for (const tag of tags(source)) {
    if (tag.open === '{#') continue;
    if (NOT_INLINED_CALLS.test(tag.body)) return false;
    if (tag.open === '{%') {
      const include = INCLUDE.exec(tag.body);
      const keyword = KEYWORD.exec(tag.body)?.[1];
      if (keyword === 'include' && (!include || (include[2] ?? include[3])!.startsWith('.'))) return false;
      if (keyword !== undefined && NOT_INLINED_TAGS.has(keyword)) return false;
    }
  }
  return true;
}

/** `source` with its static includes replaced by the included files (themselves inlined), as described above. */
export function inlineIncludes(source: string, read: SourceReader, within: readonly string[] = []): string {
  if (!source.includes('include')) return source;
  let out = '';
  let copied = 0;
  for (const tag of tags(source)) {
    if (tag.open !== '{%') continue;
    const match = INCLUDE.exec(tag.body);
    if (!match) continue;
    const name = (match[2] ?? match[3])!;
    if (name.startsWith('.') || within.includes(name) || within.length >= MAX_DEPTH) continue;
    const included = read(name);
    if (included === undefined || !inlinable(included)) continue;
    const body = inlineIncludes(included, read, [...within, name]);
    out += source.slice(copied, tag.start) + `{%${match[1]} if true %}${body}{% endif ${match[4]}%}`;
    copied = tag.end;
  }
  return copied === 0 ? source : out + source.slice(copied);
}
