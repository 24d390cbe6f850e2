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
 * An included partial that only extends another one and fills its blocks (an entity's `_table.html` on the
 * framework's `crud/_table.html`, docs/decisions.md "The CRUD in the runtime") is written as its parent with those
 * blocks in place (`flattenExtends`), when the parent extends nothing and the result holds none of the tags above:
 * the same output as nunjucks' own inheritance, without a block call per row. A template loaded to be extended that
 * only extends another and fills its blocks is merged with it, blocks kept (`mergeExtends`): one level of inheritance
 * less, the same output, still a template another can extend; one loaded to be rendered is written without blocks
 * when its whole chain can be (`flattenExtends`): a page of an entity, its layout and the base layout as one template.
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
const EXTENDS = /^-?\s*extends\s+(?:"([^"\\]+)"|'([^'\\]+)')\s*-?$/;
const BLOCK = /^(-?)\s*block\s+([A-Za-z_]\w*)\s*(-?)$/;
const END_BLOCK = /^(-?)\s*endblock(?:\s+[A-Za-z_]\w*)?\s*(-?)$/;
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

/** A block's text and the whitespace control of its tags (`{%-`, `-%}`): of its opening tag's right, of its closing tag's left. */
interface Filled {
  readonly body: string;
  readonly right: string;
  readonly left: string;
}

/**
 * The parent and the blocks of a template made only of `{% extends "<literal>" %}` and top-level blocks (comments and
 * whitespace between them; a block may hold blocks of its own, which go with it); null for any other template.
 */
function childOf(source: string): { parent: string; blocks: Map<string, Filled> } | null {
  let parent: string | null = null;
  const blocks = new Map<string, Filled>();
  let open: { name: string; bodyStart: number; right: string } | null = null;
  let depth = 0;
  let cursor = 0;
  for (const tag of tags(source)) {
    if (open) {
      const end = tag.open === '{%' ? END_BLOCK.exec(tag.body) : null;
      if (end && depth === 0) {
        blocks.set(open.name, { body: source.slice(open.bodyStart, tag.start), right: open.right, left: end[1]! });
        open = null;
      } else if (end) depth--;
      else if (tag.open === '{%' && BLOCK.test(tag.body)) depth++;
      cursor = tag.end;
      continue;
    }
    if (source.slice(cursor, tag.start).trim() !== '') return null;
    cursor = tag.end;
    if (tag.open === '{#') continue;
    if (tag.open !== '{%') return null;
    if (parent === null) {
      const match = EXTENDS.exec(tag.body);
      if (!match) return null;
      parent = (match[1] ?? match[2])!;
      continue;
    }
    const block = BLOCK.exec(tag.body);
    if (!block || blocks.has(block[2]!)) return null;
    open = { name: block[2]!, bodyStart: tag.end, right: block[3]! };
  }
  if (open || parent === null || source.slice(cursor).trim() !== '') return null;
  return { parent, blocks };
}

/** A name relative to the template that holds it (`./x.html`): it would name another file once the text moves. */
const RELATIVE_NAME = /\b(?:include|extends|import|from)\s+["']\.\.?\//;

/** True when `source` extends another template. */
function extendsOne(source: string): boolean {
  for (const tag of tags(source)) if (tag.open === '{%' && KEYWORD.exec(tag.body)?.[1] === 'extends') return true;
  return false;
}

/**
 * `source` with each of its blocks rewritten: the child's text where `blocks` fills it (its name added to `used`), its
 * own text otherwise (its inner blocks in turn). With `keepTags`, the block tags stay (the child's whitespace control
 * inside them, the parent's outside); without, the text sits in `{% if true %}…{% endif %}`. Null when a block name
 * repeats or a tag is unbalanced.
 */
function rewriteBlocks(source: string, blocks: ReadonlyMap<string, Filled>, keepTags: boolean, seen: Set<string>, used: Set<string>): string | null {
  let out = '';
  let copied = 0;
  let depth = 0;
  let open: { name: string; tag: Tag; left: string; right: string } | null = null;
  for (const tag of tags(source)) {
    if (tag.open !== '{%') continue;
    const block = BLOCK.exec(tag.body);
    if (block) {
      if (depth === 0) {
        if (seen.has(block[2]!)) return null;
        seen.add(block[2]!);
        open = { name: block[2]!, tag, left: block[1]!, right: block[3]! };
      }
      depth++;
      continue;
    }
    const end = END_BLOCK.exec(tag.body);
    if (!end) continue;
    if (depth === 0) return null;
    depth--;
    if (depth > 0 || !open) continue;
    const own = blocks.get(open.name);
    const body = source.slice(open.tag.end, tag.start);
    // A block the child fills hides the parent's inner blocks: their names are still checked, not filled.
    const inner = own
      ? rewriteBlocks(body, new Map(), keepTags, seen, new Set()) === null
        ? null
        : own.body
      : rewriteBlocks(body, blocks, keepTags, seen, used);
    if (inner === null) return null;
    if (own) used.add(open.name);
    const right = own ? own.right : open.right;
    const left = own ? own.left : end[1]!;
    const opening = keepTags ? `{%${open.left} block ${open.name} ${right}%}` : `{%${open.left} if true ${right}%}`;
    const closing = keepTags ? `{%${left} endblock ${end[2]!}%}` : `{%${left} endif ${end[2]!}%}`;
    out += `${source.slice(copied, open.tag.start)}${opening}${inner}${closing}`;
    copied = tag.end;
    open = null;
  }
  if (depth !== 0) return null;
  return out + source.slice(copied);
}

/**
 * One level of inheritance written as one template: when `source` only extends a literal parent and fills its blocks
 * (see childOf), the parent's text with the child's blocks in place, block tags kept, so that the result is what
 * nunjucks renders for `source` and can itself be extended; a child's block the parent does not hold (its own parent
 * may) follows as a block of the result when the parent extends one. Undefined when that could change the output:
 * a child block calls `super()` or `caller()`, a name is relative, a block name repeats.
 */
function mergeChild(source: string, read: SourceReader): string | undefined {
  const child = childOf(source);
  if (!child) return undefined;
  for (const filled of child.blocks.values()) if (NOT_INLINED_CALLS.test(filled.body) || RELATIVE_NAME.test(filled.body)) return undefined;
  const parent = read(child.parent);
  if (parent === undefined || RELATIVE_NAME.test(parent)) return undefined;
  const used = new Set<string>();
  const filled = rewriteBlocks(parent, child.blocks, true, new Set(), used);
  if (filled === null) return undefined;
  const rest = [...child.blocks].filter(([name]) => !used.has(name));
  const merged =
    rest.length === 0 || !extendsOne(parent)
      ? filled
      : filled + rest.map(([name, block]) => `{% block ${name} ${block.right}%}${block.body}{%${block.left} endblock %}`).join('');
  // The child's own inner blocks came with it: every name must still be one block's.
  return rewriteBlocks(merged, new Map(), true, new Set(), new Set()) === null ? undefined : merged;
}

/**
 * `source` with the templates it extends written into it, level by level, while each level only extends its parent
 * and fills blocks (mergeChild): the page renders with fewer levels of inheritance, the same bytes. Undefined when
 * not even one level can be.
 */
export function mergeExtends(source: string, read: SourceReader): string | undefined {
  if (!source.includes('extends')) return undefined;
  let current = source;
  let merged = false;
  for (let level = 0; level < MAX_DEPTH; level++) {
    const next = mergeChild(current, read);
    if (next === undefined) break;
    current = next;
    merged = true;
  }
  return merged ? current : undefined;
}

/**
 * A template as one text without blocks, for a render or an include (where its blocks render in place, as in a
 * template that extends nothing): the templates it extends merged into it (mergeExtends), then each block's text in
 * place of the block, if nothing extends any more and the result can stand in place of nunjucks' blocks (no `set`,
 * macro or `super()`); else undefined. Never for a template loaded to be extended: another's blocks would be lost.
 */
export function flattenExtends(source: string, read: SourceReader): string | undefined {
  if (!source.includes('block')) return undefined;
  const merged = mergeExtends(source, read) ?? source;
  if (extendsOne(merged)) return undefined;
  const flat = rewriteBlocks(merged, new Map(), false, new Set(), new Set());
  return flat !== null && flat !== merged && inlinable(flat) ? flat : undefined;
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
    const text = read(name);
    const included = text === undefined ? undefined : (flattenExtends(text, read) ?? text);
    if (included === undefined || !inlinable(included)) continue;
    const body = inlineIncludes(included, read, [...within, name]);
    out += source.slice(copied, tag.start) + `{%${match[1]} if true %}${body}{% endif ${match[4]}%}`;
    copied = tag.end;
  }
  return copied === 0 ? source : out + source.slice(copied);
}
