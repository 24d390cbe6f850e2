/**
 * A template that fails to compile is an error of the render that uses it, never of the process
 * (docs/decisions.md "A template that does not compile"). nunjucks 3 renders synchronously, except for one path: the
 * compile error of an included (or extended, or imported) template is handed to the including template's callback
 * on a later tick (`callbackAsap`). By then the synchronous render has returned null, and the including callback,
 * which has no caller left, throws the error where nothing catches it: the process dies. Here the compile error
 * of a template rendered by another one is handed to that callback at once, so the render throws it to its caller,
 * which answers 500 for that page alone. Installed once, on nunjucks 3 only.
 */
import { createRequire } from 'node:module';

type Callback = (err: unknown, result?: unknown) => void;

interface TemplateLike {
  path: string;
  env: { opts: { dev?: boolean } };
  compile(): void;
  /** A property, not a method: it is read off the prototype, replaced, and called with `call`. */
  render: (this: TemplateLike, ctx: unknown, parentFrame?: unknown, cb?: Callback) => unknown;
}

let installed: boolean | undefined;

/** Installs the synchronous compile error of included templates; says whether it is in place. */
export function installCompileErrors(): boolean {
  if (installed !== undefined) return installed;
  const require = createRequire(import.meta.url);
  const v3 = (require('nunjucks/package.json') as { version: string }).version.startsWith('3.');
  const { Template } = require('nunjucks/src/environment') as { Template: { prototype: TemplateLike } };
  const lib = require('nunjucks/src/lib') as { _prettifyError: (path: string, dev: boolean | undefined, err: unknown) => unknown };
  const original = Template.prototype.render;
  installed = v3 && typeof original === 'function' && String(original).includes('callbackAsap(cb, err)');
  if (!installed) return installed;
  Template.prototype.render = function render(this: TemplateLike, ctx: unknown, parentFrame?: unknown, cb?: Callback): unknown {
    // Only the inner renders (a parent frame and a callback): the top-level ones keep nunjucks' own behaviour.
    if (typeof parentFrame === 'object' && parentFrame !== null && typeof cb === 'function') {
      try {
        this.compile();
      } catch (e) {
        cb(lib._prettifyError(this.path, this.env.opts.dev, e));
        return undefined;
      }
    }
    return original.call(this, ctx, parentFrame, cb);
  };
  return installed;
}
