/** The bundled renderer: nunjucks with autoescape, the globals url_for, trans, csrf_token, can, menu, csp_nonce, asset_url and the filters format_date, format_instant and format_number. */
import nunjucks from 'nunjucks';
import { get, getPath, onConfigChange } from '../config.js';
import { trans } from '../translations.js';
import { FRAMEWORK_VIEWS } from '../paths.js';
import type { Request } from '../http/request.js';
import type { Router } from '../http/router.js';
import { csrfToken } from '../security/csrf.js';
import { getRequestNonce } from '../security/headers.js';
import { userCan } from '../session/session.js';
import { visibleMenu } from './menu.js';
import { assetUrl } from './asset-url.js';
import { formatDate, formatInstant } from './format-date.js';
import { formatNumber } from './format-number.js';
import { flattenExtends, inlineIncludes, mergeExtends } from './inline-includes.js';
import { installCompileErrors } from './nunjucks-compile-errors.js';
import { installHotPaths } from './nunjucks-hot-paths.js';

installHotPaths();
installCompileErrors();
import type { TemplateRenderer } from './manager.js';
import { labelFromPattern } from './record-label.js';

/** Context key under which the current request travels to the globals. */
export const REQUEST_KEY = '_request';

interface NunjucksThis {
  ctx?: Record<string, unknown>;
}

function currentRequest(self: unknown): Request | undefined {
  return (self as NunjucksThis | undefined)?.ctx?.[REQUEST_KEY] as Request | undefined;
}

export { userCan };

export interface NunjucksOptions {
  /** Folders searched in order; default: the app's views_dir, then the framework's views. */
  searchPaths?: string[];
  /** Re-read templates on every render (development). */
  noCache?: boolean;
  /** Write static includes into the including template (runtime/templates/inline-includes.ts); default true. */
  inlineIncludes?: boolean;
}

/**
 * Names under `fw-mvc/` are the framework's own templates, whatever the project holds: a project's
 * `crud/_table.html` can extend `fw-mvc/crud/_table.html` and change one block (docs/runtime.md "Templates and i18n").
 */
export const FRAMEWORK_TEMPLATES = 'fw-mvc/';

/** The search paths, and `fw-mvc/<name>` read from the framework's views only. */
class ViewsLoader extends nunjucks.FileSystemLoader {
  readonly #framework: nunjucks.FileSystemLoader;

  constructor(paths: string[], options: nunjucks.FileSystemLoaderOptions) {
    super(paths, options);
    this.#framework = new nunjucks.FileSystemLoader([FRAMEWORK_VIEWS], options);
  }

  override getSource(name: string): nunjucks.LoaderSource {
    return name.startsWith(FRAMEWORK_TEMPLATES) ? this.#framework.getSource(name.slice(FRAMEWORK_TEMPLATES.length)) : super.getSource(name);
  }
}

/**
 * The name under which the renderer asks for the template it renders (never one a template extends): that one may be
 * written without blocks, its layouts merged into it (inline-includes.ts `flattenExtends`).
 */
const RENDERED = 'fw-render:';

/**
 * A file loader whose templates come with their static includes (a partial that extends one with its blocks filled)
 * and the templates they extend written in place: merged, blocks kept, for a template another may extend; flat for the
 * one rendered.
 */
class InliningLoader extends ViewsLoader {
  override getSource(name: string): nunjucks.LoaderSource {
    const rendered = name.startsWith(RENDERED);
    const source = super.getSource(rendered ? name.slice(RENDERED.length) : name);
    // nunjucks' loader answers null for a name that no search path holds (its types say otherwise).
    if (!source) return source;
    const read = (included: string): string | undefined => (super.getSource(included) as nunjucks.LoaderSource | null)?.src;
    const whole = (rendered ? flattenExtends(source.src, read) : undefined) ?? mergeExtends(source.src, read) ?? source.src;
    return { ...source, src: inlineIncludes(whole, read) };
  }
}

export class NunjucksRenderer implements TemplateRenderer {
  private env: nunjucks.Environment | undefined;
  /** The same templates without inlining: a failed render is rendered again with it, for an error that names the right file and line. */
  private plainEnv: nunjucks.Environment | undefined;

  constructor(private readonly options: NunjucksOptions = {}) {
    onConfigChange((keys) => {
      if (keys.includes('views_dir') || keys.includes('project_root')) this.env = this.plainEnv = undefined;
    });
  }

  render(template: string, context: Record<string, unknown>): string {
    try {
      const name = this.options.inlineIncludes === false ? template : `${RENDERED}${template}`;
      return rendered(template, this.environment().render(name, context));
    } catch (err) {
      if (this.options.inlineIncludes === false) throw err;
      this.plainEnv ??= withAdditions(this.build(false), this.environment());
      return rendered(template, this.plainEnv.render(template, context));
    }
  }

  /** The nunjucks environment (built on first use, so configuration set after construction applies). */
  environment(): nunjucks.Environment {
    this.env ??= this.build(this.options.inlineIncludes ?? true);
    return this.env;
  }

  private build(inline: boolean): nunjucks.Environment {
    const paths = this.options.searchPaths ?? [getPath('views_dir'), FRAMEWORK_VIEWS];
    const loaderOptions = { noCache: this.options.noCache ?? false };
    const loader = inline ? new InliningLoader(paths, loaderOptions) : new ViewsLoader(paths, loaderOptions);
    const env = new nunjucks.Environment(loader, { autoescape: true, throwOnUndefined: false });
    env.addGlobal('url_for', (name: string, params?: Record<string, string | number>) => {
      const router = get('router') as Router | null;
      if (!router) throw new Error(`url_for('${name}') : aucun routeur configuré (configure({ router })).`);
      // Keyword arguments (`url_for('x', id=3)`) arrive as an object flagged `__keywords` by nunjucks.
      const { __keywords: _flag, ...rest } = params ?? {};
      return router.urlFor(name, rest);
    });
    env.addGlobal('trans', (key: string, params?: Record<string, unknown>) => trans(key, params));
    env.addGlobal('csrf_token', function (this: unknown) {
      const request = currentRequest(this);
      return request ? csrfToken(request) : '';
    });
    env.addGlobal('can', function (this: unknown, permission: string) {
      return userCan(currentRequest(this), permission);
    });
    // The menu entries the signed-in user may open (docs/runtime.md "The menu"): `{% for item in menu() %}`.
    env.addGlobal('menu', function (this: unknown) {
      return visibleMenu(get('router') as Router | null, currentRequest(this));
    });
    env.addGlobal('csp_nonce', function (this: unknown) {
      return currentRequest(this)?.nonce ?? getRequestNonce() ?? '';
    });
    env.addGlobal('asset_url', (name: string) => assetUrl(name));
    env.addFilter('format_date', (value: unknown) => formatDate(value));
    env.addFilter('format_number', (value: unknown) => formatNumber(value));
    env.addFilter('format_instant', (value: unknown) => formatInstant(value));
    // `{{ row | record_label('{prenom} {nom}') }}`: the record's name from its entity's `display` (the public pages).
    env.addFilter('record_label', (row: unknown, pattern: unknown) => (typeof pattern === 'string' ? labelFromPattern(pattern, row) : null));
    return env;
  }
}

/** The text of a synchronous render; nunjucks answers null when a part of it did not finish (a template bug). */
function rendered(template: string, text: string | null): string {
  if (typeof text !== 'string') throw new Error(`gabarit « ${template} » : le rendu n'a rien produit (une partie ne s'est pas terminée)`);
  return text;
}

interface EnvironmentInternals {
  globals: Record<string, unknown>;
  filters: Record<string, (...args: unknown[]) => unknown>;
  extensions: Record<string, nunjucks.Extension>;
}

/** `plain` with the globals, filters and extensions an app added to `from` after it was built. */
function withAdditions(plain: nunjucks.Environment, from: nunjucks.Environment): nunjucks.Environment {
  const source = from as unknown as EnvironmentInternals;
  const target = plain as unknown as EnvironmentInternals;
  for (const [name, value] of Object.entries(source.globals)) if (!(name in target.globals)) plain.addGlobal(name, value);
  for (const [name, filter] of Object.entries(source.filters)) if (!(name in target.filters)) plain.addFilter(name, filter);
  for (const [name, extension] of Object.entries(source.extensions)) if (!(name in target.extensions)) plain.addExtension(name, extension);
  return plain;
}
