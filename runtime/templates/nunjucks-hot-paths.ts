/**
 * Two of nunjucks' hottest functions made cheaper, with the same results (docs/decisions.md "Two nunjucks hot paths"):
 * - `Frame.set`: every iteration of a `{% for %}` sets eight variables (`row`, `loop.index`, `loop.first`…), and
 *   nunjucks 3 splits each dotted name with `name.split('.')` every time, an array per variable per iteration. This
 *   version keeps the parts of each name once (names come from compiled templates: a small, fixed set).
 * - `escape`, run on every `{{ }}` output with autoescape: nunjucks replaces through a callback even when nothing
 *   needs escaping, which is most values; this version tests first and returns the value as it is.
 * Each is installed once, on nunjucks 3 only, and only over the function it was written against; another version
 * keeps its own.
 */
import { createRequire } from 'node:module';

/**
 * The nunjucks whose `Frame.set` (src/runtime.js) and `escape` (src/lib.js) these replace, read line by line, as are
 * `Template.prototype.render` and `_prettifyError` for nunjucks-compile-errors.ts. package.json pins it, and
 * test/templates-nunjucks-hot-paths.test.ts fails when another version is installed (docs/decisions.md "Two nunjucks
 * hot paths").
 */
export const NUNJUCKS_CHECKED = '3.2.4';

interface FrameLike {
  variables: Record<string, unknown>;
  resolve(name: string, forWrite: boolean): FrameLike | null;
  /** A property, not a method: it is read off the prototype and replaced. */
  set: (this: FrameLike, name: string, value: unknown, resolveUp?: boolean) => void;
}

/** Names seen, split once; past this many (a template generating names?), new ones are split each time. */
const PARTS_KEPT = 10_000;
const partsOf = new Map<string, readonly string[]>();

function split(name: string): readonly string[] {
  let parts = partsOf.get(name);
  if (parts === undefined) {
    parts = name.split('.');
    if (partsOf.size < PARTS_KEPT) partsOf.set(name, parts);
  }
  return parts;
}

function set(this: FrameLike, name: string, value: unknown, resolveUp?: boolean): void {
  const parts = split(name);
  if (resolveUp) {
    const frame = this.resolve(parts[0]!, true);
    if (frame) {
      frame.set(name, value);
      return;
    }
  }
  let target = this.variables;
  for (let i = 0; i < parts.length - 1; i++) {
    const id = parts[i]!;
    if (!target[id]) target[id] = {};
    target = target[id] as Record<string, unknown>;
  }
  target[parts[parts.length - 1]!] = value;
}

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '"': '&quot;', "'": '&#39;', '<': '&lt;', '>': '&gt;', '\\': '&#92;' };
const NEEDS_ESCAPE = /[&"'<>\\]/;
const ESCAPED = /[&"'<>\\]/g;

/** nunjucks' escape (the same six characters, the same entities), without a replace when there is nothing to escape. */
export function nunjucksEscape(value: string): string {
  return NEEDS_ESCAPE.test(value) ? value.replace(ESCAPED, (ch) => ESCAPES[ch]!) : value;
}

let installed: { frameSet: boolean; escape: boolean } | undefined;

/** Installs both where nunjucks is the version they were written against; says which are in place. */
export function installHotPaths(): { frameSet: boolean; escape: boolean } {
  if (installed) return installed;
  const require = createRequire(import.meta.url);
  const v3 = (require('nunjucks/package.json') as { version: string }).version.startsWith('3.');
  const { Frame } = require('nunjucks/src/runtime') as { Frame: { prototype: FrameLike } };
  const lib = require('nunjucks/src/lib') as { escape: (value: string) => string };
  const currentSet = Frame.prototype.set;
  const frameSet = v3 && typeof currentSet === 'function' && currentSet.length === 3 && String(currentSet).includes("name.split('.')");
  const escape = v3 && typeof lib.escape === 'function' && String(lib.escape).includes('val.replace(escapeRegex, lookupEscape)');
  if (frameSet) Frame.prototype.set = set;
  if (escape) lib.escape = nunjucksEscape;
  installed = { frameSet, escape };
  return installed;
}
