/**
 * The scripts `fw js:init` prepares (docs/frontend.md): the npm package, the major version we support, the built file
 * inside the package and where the project serves it from (`static/vendor/<lib>/`, docs/frontend.md "fw js:init
 * htmx|alpine|htmx-alpine"). Alpine is its CSP build: the standard build evaluates expressions with `new Function`,
 * which needs `unsafe-eval`, and the framework's Content-Security-Policy forbids it.
 */

export interface JsLib {
  /** The name on the command line and the vendor folder: `htmx`, `alpine`. */
  readonly name: 'htmx' | 'alpine';
  readonly label: string;
  readonly packageName: string;
  /** The range written to the project's `dependencies`. */
  readonly range: string;
  /** The minified build inside the package. */
  readonly distFile: string;
  /** Where the project serves it, relative to the project root. */
  readonly vendorFile: string;
}

/** The script tag of a vendor file, deferred and nonce-aware like `layouts/base.html`'s own `app.js`. */
export function scriptTag(lib: JsLib): string {
  return `<script src="/${lib.vendorFile}" defer{% if csp_nonce() %} nonce="{{ csp_nonce() }}"{% endif %}></script>`;
}

export const HTMX: JsLib = {
  name: 'htmx',
  label: 'htmx',
  packageName: 'htmx.org',
  range: '^2',
  distFile: 'dist/htmx.min.js',
  vendorFile: 'static/vendor/htmx/htmx.min.js',
  // htmx would insert a <style> for its loading indicators, which the CSP (style-src 'self') refuses: the framework's
  // layouts/base.html turns that off (htmx-config) and the stylesheet carries those two rules (static/src/input.css).
};

export const ALPINE: JsLib = {
  name: 'alpine',
  label: 'Alpine.js (build CSP)',
  packageName: '@alpinejs/csp',
  range: '^3',
  distFile: 'dist/cdn.min.js',
  vendorFile: 'static/vendor/alpine/alpine.min.js',
};

/** The libraries of each `fw js:init` argument, in loading order (htmx first, Alpine last). */
export const JS_INIT_CHOICES: Readonly<Record<string, readonly JsLib[]>> = {
  htmx: [HTMX],
  alpine: [ALPINE],
  'htmx-alpine': [HTMX, ALPINE],
};
