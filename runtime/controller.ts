/** BaseController statics (docs/api-mapping.md "Helpers and controller"). */
import fs from 'node:fs';
import path from 'node:path';
import { get, getPath } from './config.js';
import { html } from './app/html.js';
import { apiError, jsonResponse, renderErrorsHtml } from './http/helpers.js';
import { RouteError, type Router } from './http/router.js';
import type { Request } from './http/request.js';
import { Response } from './http/response.js';
import { csrfToken } from './security/csrf.js';
import { getUser, setRequestFlash, takeRequestFlash } from './session/session.js';
import { templateManager } from './templates/manager.js';
import { REQUEST_KEY } from './templates/nunjucks.js';

export type Context = Record<string, unknown>;
export type ContextProvider = (request: Request) => Context;

const contextProviders: ContextProvider[] = [];

/** Adds a function whose result is merged into the context of every page rendered with a request. */
export function registerContextProvider(provider: ContextProvider): void {
  contextProviders.push(provider);
}

export interface RenderOptions {
  status?: number;
  context?: Context;
  base?: string;
  request?: Request;
  raw?: boolean;
}

export interface RedirectOptions {
  request?: Request;
  flash?: string;
  level?: string;
}

/** The current flash as HTML (consumed), rendered with `components/alert.html`. */
export function renderFlashHtml(request: Request): string {
  const flash = takeRequestFlash(request);
  if (!flash) return '';
  return templateManager.render('components/alert.html', { message: flash.message, type: flash.level, _request: request });
}

/** `csrf_token` in a template: callable (`csrf_token()`) and printable (`{{ csrf_token }}`); the session is created on first use. */
function lazyToken(request: Request): () => string {
  const token = (): string => csrfToken(request);
  token.toString = token;
  return token;
}

/**
 * The full context of a page rendered for a request. `layout` is the layout that page templates extend
 * (`{% extends layout or "layouts/base.html" %}`): the `base` option of render() picks it.
 */
export function pageContext(request: Request | undefined, context: Context, base: string, raw = false): Context {
  const full: Context = { app_name: get('app_name'), layout: base };
  if (request && !raw) {
    for (const provider of contextProviders) Object.assign(full, provider(request));
    full.request = request;
    full[REQUEST_KEY] = request;
    full.csrf_token = lazyToken(request);
    full.current_user = getUser(request);
    full.flash_html = renderFlashHtml(request);
  }
  return Object.assign(full, context);
}

/**
 * The layout of the framework's own pages (login, password reset, the second factor's pages, the error pages), so
 * that they carry the application's header: its own `layouts/app.html` (made by `fw make:crud` and the starters,
 * with its menu and logout button) when it has one, else `layouts/public.html` (the application's name and a link
 * home). docs/runtime.md "Templates and i18n".
 */
export function appLayout(): string {
  return fs.existsSync(path.join(getPath('views_dir'), 'layouts', 'app.html')) ? 'layouts/app.html' : 'layouts/public.html';
}

export class BaseController {
  /**
   * A rendered page. Second argument: a status, or an options object `{ status, context, base, request, raw }`.
   * `base` is the layout the page extends when its template says `{% extends layout or "layouts/base.html" %}`
   * (the framework's pages and the project's home page do).
   */
  static render(
    template: string,
    statusOrOptions: number | RenderOptions = 200,
    context: Context = {},
    base = 'layouts/base.html',
    options: { request?: Request; raw?: boolean } = {},
  ): Response {
    const o: RenderOptions = typeof statusOrOptions === 'number' ? { status: statusOrOptions, context, base, ...options } : statusOrOptions;
    const status = o.status ?? 200;
    if (o.raw) return html(template, status, {}, true);
    const layout = o.base ?? 'layouts/base.html';
    if (typeof layout !== 'string' || layout.trim() === '') {
      throw new TypeError(
        `BaseController.render('${template}') : « base » doit nommer un gabarit de mise en page (par exemple 'layouts/admin.html'), reçu ${JSON.stringify(layout)}.`,
      );
    }
    return html(template, status, pageContext(o.request, o.context ?? {}, layout));
  }

  /** A 302 redirect, with an optional flash stored on the request's session. */
  static redirect(location: string, options: RedirectOptions = {}): Response {
    if (options.flash && options.request) setRequestFlash(options.request, options.flash, options.level ?? 'success');
    return new Response(302, '', 'text/html; charset=utf-8', { Location: location });
  }

  static redirectWithFlash(request: Request, location: string, message: string, level = 'success'): Response {
    return BaseController.redirect(location, { request, flash: message, level });
  }

  /** A redirect to a named route; throws RouteError when no router is configured. */
  static redirectToRoute(name: string, options: RedirectOptions & { params?: Record<string, string | number> } = {}): Response {
    const router = get('router') as Router | null;
    if (!router) throw new RouteError(`redirectToRoute('${name}') : aucun routeur configuré (configure({ router })).`);
    return BaseController.redirect(router.urlFor(name, options.params ?? {}), options);
  }

  static notFound(context: Context = {}, request?: Request): Response {
    return errorPage(404, request, context);
  }
  static badRequest(context: Context = {}, request?: Request): Response {
    return errorPage(400, request, context);
  }
  static forbidden(context: Context = {}, request?: Request): Response {
    return errorPage(403, request, context);
  }
  static validationError(template = 'errors/422.html', context: Context = {}, options: { request?: Request } = {}): Response {
    return BaseController.render(template, { status: 422, context, request: options.request });
  }
  static serverError(context: Context = {}, request?: Request): Response {
    return errorPage(500, request, context);
  }

  /** A partial rendered to HTML text. */
  static include(partial: string, context: Context = {}): string {
    return templateManager.render(partial, context);
  }

  static json(data: unknown, status = 200): Response {
    return jsonResponse(data, status);
  }

  /** `request.body` flattened to field -> first value. */
  static body(request: Request): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [key, values] of Object.entries(request.body)) if (values.length > 0) out[key] = values[0]!;
    return out;
  }

  static jsonBody(request: Request): Record<string, unknown> {
    return request.jsonBody;
  }

  static formContext(request: Request, data: Context, errors: unknown = ''): Context {
    return { data, errors, errors_html: renderErrorsHtml(errors), csrf_token: lazyToken(request) };
  }

  static renderForm(template: string, request: Request, data: Context, status = 200, errors: unknown = ''): Response {
    return BaseController.render(template, { status, request, context: BaseController.formContext(request, data, errors) });
  }

  static setFlash(request: Request, message: string, level = 'success'): void {
    setRequestFlash(request, message, level);
  }

  static csrfToken(request: Request): string {
    return csrfToken(request);
  }

  /** @deprecated read the user with getUser(request). */
  static currentUser(request: Request): Record<string, unknown> | undefined {
    if (!deprecationShown) {
      deprecationShown = true;
      process.emitWarning('BaseController.currentUser() est obsolète : utilisez getUser(request).', 'DeprecationWarning');
    }
    return getUser(request);
  }
}
let deprecationShown = false;

/** True when the client should get a JSON envelope rather than a page. */
export function wantsJson(request: Request | undefined, api = false): boolean {
  if (api) return true;
  if (!request) return false;
  if (request.path === '/api' || request.path.startsWith('/api/')) return true;
  const accept = request.header('accept') ?? '';
  return accept.includes('application/json') && !accept.includes('text/html');
}

const ERROR_CODES: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  422: 'validation_error',
  429: 'rate_limited',
  500: 'server_error',
  503: 'database_unavailable',
  507: 'upload_storage_unavailable',
};

/**
 * The error page `errors/<status>.html` (or the error envelope for JSON clients). If the template itself
 * fails, a minimal built-in page is returned so an error never becomes a second error.
 */
export function errorPage(
  status: number,
  request?: Request,
  context: Context = {},
  options: { api?: boolean; code?: string; message?: string } = {},
): Response {
  if (wantsJson(request, options.api)) {
    return apiError(options.message ?? defaultMessage(status), status, options.code ?? ERROR_CODES[status] ?? 'error');
  }
  try {
    return html(`errors/${status}.html`, status, pageContext(request, context, appLayout()));
  } catch {
    // The application's layout failed (a template of its own): the bare layout, which needs nothing.
  }
  try {
    return html(`errors/${status}.html`, status, pageContext(request, context, 'layouts/base.html'));
  } catch {
    const text = defaultMessage(status);
    return new Response(
      status,
      `<!doctype html><html lang="fr"><head><meta charset="utf-8"><title>${status}</title></head><body><h1>${status}</h1><p>${text}</p></body></html>`,
    );
  }
}

function defaultMessage(status: number): string {
  switch (status) {
    case 400:
      return 'Requête invalide.';
    case 401:
      return 'Authentification requise.';
    case 403:
      return 'Accès refusé.';
    case 404:
      return 'Page introuvable.';
    case 405:
      return 'Méthode non autorisée.';
    case 413:
      return 'Requête trop volumineuse.';
    case 422:
      return 'Données invalides.';
    case 429:
      return 'Trop de requêtes : réessayez plus tard.';
    case 503:
      return 'Service momentanément indisponible : réessayez plus tard.';
    case 507:
      return 'Stockage des fichiers impossible : réessayez plus tard.';
    default:
      return 'Erreur interne du serveur.';
  }
}
