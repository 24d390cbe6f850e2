/** Application: dispatch in the spec's order, static files, sessions and API route loading (runtime spec, "Dispatch flow"). */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { configure, get, getPath } from './config.js';
import { errorPage } from './controller.js';
import { HttpError } from './http/errors.js';
import type { Request } from './http/request.js';
import { Response } from './http/response.js';
import { UNSAFE_METHODS, type Router } from './http/router.js';
import { serveStatic } from './http/static.js';
import { getLogger } from './logger.js';
import { AuthMiddleware, CsrfMiddleware, type Middleware } from './middleware.js';
import { FRAMEWORK_STATIC } from './paths.js';
import { generateNonce, isNonceEnabled, runWithNonce } from './security/headers.js';
import { existingSession, loadRequestSession } from './session/session.js';
import { templateManager } from './templates/manager.js';
import { NunjucksRenderer } from './templates/nunjucks.js';

const log = getLogger('fw.http');

/** The API routes module failed to load (spec: ImportError). */
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
}

const API_EXTENSIONS = ['.js', '.mjs', '.ts', '.mts'];

/** Loads `registerApiRoutes` from a module into the router (the four cases of the spec). Returns true when routes were added. */
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
  register(router);
  return true;
}

export class Application {
  readonly middlewares: Middleware[];
  readonly csrf: CsrfMiddleware;
  private readonly apiRoutesModule: string | null;
  private readonly staticDirs: string[];
  private readonly nonceEnabled: boolean;
  private initialised: Promise<void> | undefined;

  constructor(readonly router: Router, options: ApplicationOptions = {}) {
    this.middlewares = options.middlewares ?? [new AuthMiddleware(options.loginUrl ?? '/login')];
    this.csrf = options.csrfMiddleware ?? new CsrfMiddleware();
    this.apiRoutesModule = options.apiRoutesModule === undefined ? 'mvc/api_routes' : options.apiRoutesModule;
    this.staticDirs = options.staticDirs === undefined ? [getPath('static_dir'), FRAMEWORK_STATIC] : options.staticDirs ?? [];
    this.nonceEnabled = isNonceEnabled();
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
    if (this.nonceEnabled) {
      request.nonce = generateNonce();
      return runWithNonce(request.nonce, () => this.handleInner(request));
    }
    return this.handleInner(request);
  }

  private async handleInner(request: Request): Promise<Response> {
    const staticResponse = this.tryStatic(request);
    if (staticResponse) return staticResponse;
    if (request.headers.cookie !== undefined) await loadRequestSession(request);
    const response = await this.dispatch(request);
    const session = existingSession(request);
    if (session) await session.persist(response);
    return response;
  }

  /** The spec's seven steps: route, 404, params, CSRF, middlewares, handler, 500. */
  async dispatch(request: Request): Promise<Response> {
    const match = this.router.match(request.method, request.path);
    if (!match) return this.noRoute(request);
    const [route, params] = match;
    request.routeParams = params;
    try {
      if (route.csrf && UNSAFE_METHODS.has(request.method)) {
        const refused = this.csrf.check(request, route.api);
        if (refused) return refused;
      }
      if (!route.public) {
        for (const middleware of this.middlewares) {
          const stop = await middleware.check(request);
          if (stop) return stop;
        }
      }
      return await route.handler(request);
    } catch (err) {
      if (err instanceof HttpError && err.status < 500) return errorPage(err.status, request, {}, { api: route.api, code: err.code, message: err.message });
      log.error(`Erreur non gérée sur ${request.method} ${request.path}`, { stack: (err as Error)?.stack ?? String(err) });
      return errorPage(500, request, {}, { api: route.api });
    }
  }

  private noRoute(request: Request): Response {
    const allowed = this.router.allowedMethods(request.path);
    if (allowed.length === 0) return errorPage(404, request);
    const allow = [...allowed, 'OPTIONS'].sort().join(', ');
    if (request.method === 'OPTIONS') return new Response(204, '', 'text/plain; charset=utf-8', { Allow: allow });
    const response = errorPage(405, request);
    response.headers.Allow = allow;
    return response;
  }

  private tryStatic(request: Request): Response | null {
    if (!request.path.startsWith('/static/') || this.staticDirs.length === 0) return null;
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      const response = errorPage(405, request);
      response.headers.Allow = 'GET, HEAD';
      return response;
    }
    return serveStatic(request, this.staticDirs, request.path.slice('/static/'.length)) ?? errorPage(404, request);
  }
}
