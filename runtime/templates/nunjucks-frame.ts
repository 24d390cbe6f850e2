/**
 * A cheaper `Frame.set` for nunjucks (docs/decisions.md "A cheaper Frame.set"). Every iteration of a `{% for %}`
 * sets eight variables (`row`, `loop.index`, `loop.first`…), and nunjucks 3 splits each dotted name with
 * `name.split('.')` every time: an array per variable per iteration, a third of a list page's rendering. This
 * version keeps the parts of each name once (names come from compiled templates: a small, fixed set) and otherwise
 * does exactly what nunjucks does. It is installed once, on nunjucks 3 only, and only over the method it was written
 * against (three parameters); another version keeps its own.
 */
import { createRequire } from 'node:module';

interface FrameLike {
  variables: Record<string, unknown>;
  resolve(name: string, forWrite: boolean): FrameLike | null;
  set(name: string, value: unknown, resolveUp?: boolean): void;
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

let installed: boolean | undefined;

/** Installs the cheaper `set` on nunjucks' Frame; true when it is in place. */
export function installFrameSet(): boolean {
  if (installed !== undefined) return installed;
  const require = createRequire(import.meta.url);
  const version = (require('nunjucks/package.json') as { version: string }).version;
  const { Frame } = require('nunjucks/src/runtime') as { Frame: { prototype: FrameLike } };
  const current = Frame.prototype.set;
  installed = /^3\./.test(version) && typeof current === 'function' && current.length === 3 && /name\.split\('\.'\)/.test(String(current));
  if (installed) Frame.prototype.set = set;
  return installed;
}
