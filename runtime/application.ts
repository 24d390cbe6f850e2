/** Application: dispatch in the documented order, static files, sessions and API route loading (docs/runtime.md "Request flow"). */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { configure, get, getPath } from './config.js';
import { errorPage } from './controller.js';
import { databaseUnavailableResponse } from './app/database-unavailable.js';
import { healthResponse } from './app/health.js';
import { metricsResponse } from './app/metrics.js';
import { CONFIGURED_BODY_LIMITS } from './app/limits.js';
import { HttpError } from './http/errors.js';
import { unwritableHeader } from './http/header-values.js';
import { noStore } from './http/helpers.js';
import type { Request } from './http/request.js';
import { Response } from './http/response.js';
import { isPromise } from './http/promise.js';
import { UNSAFE_METHODS, type RouteEntry, type Router } from './http/router.js';

/** Methods a POST may turn into through its `_method` field. */
const OVERRIDABLE_METHODS: ReadonlySet<string> = new Set(['PUT', 'PATCH', 'DELETE']);
import { serveStatic } from './http/static.js';
import { staticCacheControl } from './templates/asset-url.js';
import { MEDIA_PREFIX, isPublicMediaCategory, mediaPathFromUrl, serveMediaFile } from './uploads/serve.js';
import { mayReadMedia } from './media/access.js';
import { getLogger, pathForLog } from './logger.js';
import { AuthMiddleware, CsrfMiddleware, type Middleware } from './middleware.js';
import { FRAMEWORK_STATIC } from './paths.js';
import { generateNonce, isNonceEnabled, runWithNonce } from './security/headers.js';
import { existingSession, getSessionStore, loadRequestSession } from './session/session.js';
import { templateManager } from './templates/manager.js';
import { appTimeZone } from './templates/format-date.js';
import { NunjucksRenderer } from './templates/nunjucks.js';

const log = getLogger('fw.http');

/** The API routes module failed to load (an `ImportError` under the old Python name; docs/api-mapping.md). */
export class ApiRoutesImportError extends Error {
  constructor(file: string, cause: unknown) {
    super(`Impossible de charger les routes API « ${file} » : ${(cause as Error)?.message ?? String(cause)}`);
    this.name = 'ApiRoutesImportError';
  }
}

export interface ApplicationOptions {
  /** Run for non-public routes; default: one AuthMiddleware on `loginUrl`. */
  middlewares?: Middleware[];
  loginUrl?: string;
  csrfMiddleware?: CsrfMiddleware;
  /** Module path from the project root, without extension; `null` disables loading. */
  apiRoutesModule?: string | null;
  /** Serve `/static/*` from these folders (default: the app's static_dir, then the framework's). */
  staticDirs?: string[] | null;
  /** Serve `GET /media/<path>` from the upload root (default true; docs/uploads.md "`/media/<path>`"). */
  media?: boolean;
}

const API_EXTENSIONS = ['.js', '.mjs', '.ts', '.mts'];

/** Loads `registerApiRoutes` from a module into the router (the four cases of docs/runtime.md "API routes"). Returns true when routes were added. */
export async function loadApiRoutes(router: Router, modulePath = 'mvc/api_routes'): Promise<boolean> {
  const base = path.resolve(get('project_root'), modulePath);
  const file = API_EXTENSIONS.map((ext) => base + ext).find((candidate) => fs.existsSync(candidate)) ?? (fs.existsSync(base) ? base : undefined);
  if (!file) return false;
  let mod: Record<string, unknown>;
  try {
    mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (err) {
    throw new ApiRoutesImportError(file, err);
  }
  const register = mod.registerApiRoutes;
  if (typeof register !== 'function') {
    log.warning(`Le module ${file} n'exporte pas registerApiRoutes(router) : aucune route API ajoutée.`);
    return false;
  }
  (register as (router: Router) => unknown)(router);
  return true;
}

export class Application {
  readonly middlewares: Middleware[];
  readonly csrf: CsrfMiddleware;
  private readonly apiRoutesModule: string | null;
  private readonly staticDirs: string[];
  private readonly nonceEnabled: boolean;
  private readonly serveMedia: boolean;
  private initialised: Promise<void> | undefined;

  constructor(
    readonly router: Router,
    options: ApplicationOptions = {},
  ) {
    this.middlewares = options.middlewares ?? [new AuthMiddleware(options.loginUrl ?? '/login')];
    this.csrf = options.csrfMiddleware ?? new CsrfMiddleware();
    this.apiRoutesModule = options.apiRoutesModule === undefined ? 'mvc/api_routes' : options.apiRoutesModule;
    this.staticDirs = options.staticDirs === undefined ? [getPath('static_dir'), FRAMEWORK_STATIC] : (options.staticDirs ?? []);
    this.nonceEnabled = isNonceEnabled();
    this.serveMedia = options.media !== false;
    // Builds the configured session store now: an unknown SESSION_STORE stops the start, not the first request.
    getSessionStore();
    // Same for an unknown APP_TIMEZONE (docs/runtime.md "Templates and i18n").
    appTimeZone();
    configure({ router });
    if (!templateManager.hasRenderer) templateManager.register(new NunjucksRenderer());
  }

  /** Loads the API routes once (serve() calls it). */
  init(): Promise<void> {
    this.initialised ??= (async () => {
      if (this.apiRoutesModule !== null) await loadApiRoutes(this.router, this.apiRoutesModule);
    })();
    return this.initialised;
  }

  /** Everything a request needs: static files, session load, dispatch, session persistence. */
  async handle(request: Request): Promise<Response> {
    return this.respond(request);
  }

  /**
   * handle() without a promise when nothing on the way is asynchronous (the server's path): a Response when the
   * handler answered synchronously and no session was involved, else a promise of it.
   */
  respond(request: Request): Response | Promise<Response> {
    let response: Response | Promise<Response>;
    if (this.nonceEnabled) {
      request.nonce = generateNonce();
      response = runWithNonce(request.nonce, () => this.respondInner(request));
    } else {
      response = this.respondInner(request);
    }
    // A session store on the database fails outside the handler: same 503 as a handler's query.
    return isPromise(response) ? response.then(undefined, (err: unknown) => databaseUnavailableOr(err, request)) : response;
  }

  private respondInner(request: Request): Response | Promise<Response> {
    // The health routes first: no body, no session, no middleware (docs/deploy.md "Health routes").
    const health = healthResponse(request) ?? metricsResponse(request);
    if (health) return health;
    const staticResponse = this.tryStatic(request) ?? this.tryFavicon(request) ?? this.tryMedia(request);
    if (staticResponse) return staticResponse;
    if (request.bodyPending) {
      // Route before reading: an unknown path or a refused method never costs the body's upload or parsing.
      const refused = this.refuseBeforeBody(request);
      if (refused) return refused;
      return request.readBody(CONFIGURED_BODY_LIMITS).then(
        () => this.respondRouted(request),
        (err: unknown) => this.bodyRefused(request, err),
      );
    }
    return this.respondRouted(request);
  }

  private respondRouted(request: Request): Response | Promise<Response> {
    // Without a cookie there is no session to load (one created by the handler is still persisted below).
    if (request.headers.cookie !== undefined) return this.respondWithSession(request);
    const response = this.route(request);
    return isPromise(response) ? response.then((r) => this.persistSession(request, r)) : this.persistSession(request, response);
  }

  /**
   * The 404 or 405 of a request whose body is not read yet, or null when a route may take it. A POST may become
   * PUT, PATCH or DELETE through its `_method` field, so it goes on when the path has a route of one of those.
   */
  private refuseBeforeBody(request: Request): Response | null {
    const allowed = this.router.allowedMethods(request.path);
    if (allowed.includes(request.method)) return null;
    if (request.method === 'POST' && allowed.some((verb) => OVERRIDABLE_METHODS.has(verb))) return null;
    return this.noRoute(request, allowed);
  }

  /** A body over a limit or malformed: its page (the server closes the connection, the body being unread). */
  private bodyRefused(request: Request, err: unknown): Response {
    if (!(err instanceof HttpError)) throw err;
    return errorPage(err.status, request, { detail: err.message }, { code: err.code, message: err.message });
  }

  private async respondWithSession(request: Request): Promise<Response> {
    await loadRequestSession(request);
    return this.persistSession(request, await this.route(request));
  }

  /**
   * Writes the request's session, once the response is known to be writable: a header node would refuse turns
   * the answer into a 500 before the session is committed, so that a login's new session (and the deletion of the
   * old one) never happens for a response the client does not get.
   */
  private persistSession(request: Request, response: Response): Response | Promise<Response> {
    const unwritable = unwritableHeader(response.headers);
    if (unwritable !== null) {
      log.error(
        `Réponse de ${request.method} ${pathForLog(request.path)} impossible à écrire (en-tête ${unwritable}) : la session n'est pas enregistrée, 500 à la place.`,
      );
      return errorPage(500, request);
    }
    const session = existingSession(request);
    return session ? session.persist(response).then(() => response) : response;
  }

  /** The seven steps of docs/runtime.md "Request flow": route, 404, params, CSRF, middlewares, handler, 500. */
  async dispatch(request: Request): Promise<Response> {
    return this.route(request);
  }

  /** dispatch(), synchronous as long as the middlewares and the handler are. */
  private route(request: Request): Response | Promise<Response> {
    const match = this.router.match(request.method, request.path);
    if (!match) return this.noRoute(request);
    const [route, params] = match;
    request.routeParams = params;
    request.routePattern = route.pattern;
    try {
      if (route.csrf && UNSAFE_METHODS.has(request.method)) {
        const refused = this.csrf.check(request, route.api);
        if (refused) return refused;
      }
      const response = route.public ? route.handler(request) : privatePage(this.guarded(request, route, 0));
      return isPromise(response) ? Promise.resolve(response).then(undefined, (err: unknown) => this.failure(request, route, err)) : response;
    } catch (err) {
      return this.failure(request, route, err);
    }
  }

  /** The middlewares from `from` on, then the handler; waits only for a middleware that returns a promise. */
  private guarded(request: Request, route: RouteEntry, from: number): Response | Promise<Response> {
    for (let i = from; i < this.middlewares.length; i++) {
      const stop = this.middlewares[i]!.check(request);
      if (isPromise(stop)) return Promise.resolve(stop).then((s) => s || this.guarded(request, route, i + 1));
      if (stop) return stop;
    }
    return route.handler(request);
  }

  /**
   * An error of a handler or a middleware: its page for an HttpError below 500 or a 507 (the upload folder full or
   * read-only, docs/uploads.md "Errors"), else logged and a 500.
   */
  private failure(request: Request, route: RouteEntry, err: unknown): Response {
    // An HttpError's message is written for the user (it names the limit or the culprit, never a secret): shown on the page too.
    if (err instanceof HttpError && (err.status < 500 || err.status === 507)) {
      // The disk's own words (which name folders) are for the log only.
      if (err.status === 507)
        log.error(`Stockage impossible sur ${request.method} ${pathForLog(request.path)} : ${(err as { detail?: string }).detail ?? err.message}`);
      return errorPage(err.status, request, { detail: err.message }, { api: route.api, code: err.code, message: err.message });
    }
    const unavailable = databaseUnavailableResponse(err, request, route.api);
    if (unavailable) return unavailable;
    log.error(`Erreur non gérée sur ${request.method} ${pathForLog(request.path)}`, { stack: (err as Error)?.stack ?? String(err) });
    return errorPage(500, request, {}, { api: route.api });
  }

  private noRoute(request: Request, allowed = this.router.allowedMethods(request.path)): Response {
    if (allowed.length === 0) return errorPage(404, request);
    const allow = [...allowed, 'OPTIONS'].sort().join(', ');
    if (request.method === 'OPTIONS') return new Response(204, '', 'text/plain; charset=utf-8', { Allow: allow });
    const response = errorPage(405, request);
    response.headers.Allow = allow;
    return response;
  }

  /**
   * `GET /media/<path>` before routing (docs/uploads.md "`/media/<path>`"): 404 for an unsafe path; a category of
   * `media_public_categories` to anyone; any other after the session is loaded and the middlewares let the request
   * through (as a private route: anonymous, the login redirect or the 401 envelope, whether the file exists or not),
   * then only when the record that owns it may be read (runtime/media/access.ts; else 403).
   */
  private tryMedia(request: Request): Response | Promise<Response> | null {
    if (!this.serveMedia || !request.path.startsWith(MEDIA_PREFIX)) return null;
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      const response = errorPage(405, request);
      response.headers.Allow = 'GET, HEAD';
      return response;
    }
    const mediaPath = mediaPathFromUrl(request.path.slice(MEDIA_PREFIX.length));
    if (mediaPath === null) return errorPage(404, request);
    if (isPublicMediaCategory(mediaPath.slice(0, mediaPath.indexOf('/')))) return serveMediaFile(mediaPath, request);
    return this.privateMedia(request, mediaPath);
  }

  private async privateMedia(request: Request, mediaPath: string): Promise<Response> {
    await loadRequestSession(request);
    for (const middleware of this.middlewares) {
      const stop = await middleware.check(request);
      if (stop) return this.persistSession(request, stop);
    }
    // The record that owns the file decides, as its page does (403 like the page), before any 304 or range.
    if (!(await mayReadMedia(request, mediaPath))) return this.persistSession(request, noStore(errorPage(403, request)));
    // Not kept by the browser or a shared cache: after logout the document cannot be read again from a cache.
    return this.persistSession(request, serveMediaFile(mediaPath, request, { cacheControl: 'no-store' }));
  }

  private tryStatic(request: Request): Response | null {
    if (!request.path.startsWith('/static/') || this.staticDirs.length === 0) return null;
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      const response = errorPage(405, request);
      response.headers.Allow = 'GET, HEAD';
      return response;
    }
    return serveStatic(request, this.staticDirs, request.path.slice('/static/'.length), staticCacheControl, true) ?? errorPage(404, request);
  }

  /**
   * `GET /favicon.ico`, which browsers ask for on their own: the project's `static/favicon.ico` when it has one, else
   * the framework's, kept a week by the browser (docs/runtime.md "Static files"). No session is read or written.
   */
  private tryFavicon(request: Request): Response | null {
    if (request.path !== '/favicon.ico' || (request.method !== 'GET' && request.method !== 'HEAD')) return null;
    return serveStatic(request, this.staticDirs, 'favicon.ico', FAVICON_CACHE);
  }
}

/** How long a browser keeps the icon without asking again: a week (its address never changes, so no `immutable`). */
const FAVICON_CACHE = 'public, max-age=604800';

/**
 * A page behind the login is never stored by the browser or a shared cache (`Cache-Control: no-store`): after
 * logout, the back button cannot show it again (docs/auth.md). A handler that sets its own Cache-Control keeps it.
 */
function privatePage(response: Response | Promise<Response>): Response | Promise<Response> {
  if (isPromise(response)) return response.then(noStore);
  return noStore(response);
}

/** The 503 of a DatabaseUnavailableError (app/database-unavailable.ts); any other error is thrown on. */
function databaseUnavailableOr(err: unknown, request: Request): Response {
  const response = databaseUnavailableResponse(err, request);
  if (!response) throw err;
  return response;
}
