/** Router (docs/runtime.md "Routing"; docs/decisions.md#routing-static-segments-first). */
import type { Request } from './request.js';
import type { Response } from './response.js';

export type Handler = (request: Request) => Response | Promise<Response>;

export const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);
export const UNSAFE_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** The methods `add` accepts (upper-cased first); `fw project:check` checks a route's method with it. */
export const METHODS: ReadonlySet<string> = new Set([...SAFE_METHODS, ...UNSAFE_METHODS]);

export interface RouteOptions {
  name?: string;
  public?: boolean;
  csrf?: boolean;
  api?: boolean;
}

export interface RouteEntry {
  readonly method: string;
  readonly pattern: string;
  readonly handler: Handler;
  readonly name: string | undefined;
  readonly public: boolean;
  readonly csrf: boolean;
  readonly api: boolean;
}

/** A compiled route: its segments, `null` where a `{param}` sits. */
interface Compiled {
  entry: RouteEntry;
  statics: Array<string | null>;
  paramNames: string[];
  order: number;
}

export type Match = [RouteEntry, Record<string, string>];

/** What a menu entry asks beyond its route (docs/runtime.md "The menu"): one of `roles`, or the `permission`. */
export interface MenuOptions {
  readonly roles?: readonly string[];
  readonly permission?: string;
}

/** An entry of the application's menu: the page at `path` (a GET route), named `label`. */
export interface MenuEntry extends MenuOptions {
  readonly path: string;
  readonly label: string;
}

/** Who may open a route, as its handler's wrapper checks it (`requireRole`, a CRUD action…): read by the menu. */
export type AccessCheck = (request: Request) => boolean;

const ACCESS = Symbol.for('fw-mvc.route-access');

/**
 * Marks `handler` with the check its wrapper makes before it answers (the role, the permission, the entity's role
 * block), so that the menu shows the page only to those it would answer. Returns the handler.
 * See docs/decisions.md "One menu, read from the routes".
 */
export function markAccess<H extends Handler>(handler: H, check: AccessCheck): H {
  Object.defineProperty(handler, ACCESS, { value: check, configurable: true });
  return handler;
}

/** The check a handler was marked with, or null (the route's login rule alone applies). */
export function accessOf(handler: Handler): AccessCheck | null {
  return ((handler as unknown as Record<symbol, unknown>)[ACCESS] as AccessCheck | undefined) ?? null;
}

/** Raised by urlFor and add on a bad name or pattern. */
export class RouteError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RouteError';
  }
}

const PARAM = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/;

/**
 * The segments of a route pattern (`null` where a `{param}` sits) and its parameter names; a RouteError for a pattern
 * the router refuses. `fw module:routes` checks a module's paths with it before writing them (docs/modules.md), and
 * `fw project:check` the paths of `mvc/routes.ts`.
 */
export function parseRoutePattern(pattern: string): { statics: Array<string | null>; paramNames: string[] } {
  if (!pattern.startsWith('/')) throw new RouteError(`Le motif de route « ${pattern} » doit commencer par « / ».`);
  const statics: Array<string | null> = [];
  const paramNames: string[] = [];
  for (const segment of pattern.split('/').slice(1)) {
    const param = PARAM.exec(segment);
    if (param) {
      statics.push(null);
      paramNames.push(param[1]!);
    } else if (segment.includes('{') || segment.includes('}')) {
      throw new RouteError(`Segment invalide « ${segment} » dans la route ${pattern} : écrivez {nom}.`);
    } else {
      statics.push(segment);
    }
  }
  return { statics, paramNames };
}

export class Router {
  private readonly entries: RouteEntry[] = [];
  /** `METHOD path` -> entry, for patterns without parameters. */
  private readonly staticRoutes = new Map<string, RouteEntry>();
  /** path -> methods, for patterns without parameters. */
  private readonly staticPaths = new Map<string, string[]>();
  /** Segment count -> routes with parameters, sorted so that a static segment beats a parameter. */
  private readonly dynamicRoutes = new Map<number, Compiled[]>();
  private readonly byName = new Map<string, RouteEntry>();
  private readonly menuList: MenuEntry[] = [];

  /** Adds a route; returns the router so calls can be chained. */
  add(method: string, pattern: string, handler: Handler, options: RouteOptions = {}): this {
    const verb = method.toUpperCase();
    if (!METHODS.has(verb)) throw new RouteError(`Méthode HTTP inconnue « ${method} » pour la route ${pattern}.`);
    const { statics, paramNames } = parseRoutePattern(pattern);
    if (typeof handler !== 'function') throw new RouteError(`Le contrôleur de la route ${verb} ${pattern} n'est pas une fonction.`);
    if (options.name && this.byName.has(options.name)) throw new RouteError(`Le nom de route « ${options.name} » est déjà utilisé.`);
    const entry: RouteEntry = Object.freeze({
      method: verb,
      pattern,
      handler,
      name: options.name,
      public: options.public ?? false,
      csrf: options.csrf ?? true,
      api: options.api ?? false,
    });
    this.entries.push(entry);
    if (entry.name) this.byName.set(entry.name, entry);
    if (paramNames.length === 0) {
      const key = `${verb} ${pattern}`;
      if (!this.staticRoutes.has(key)) this.staticRoutes.set(key, entry);
      const methods = this.staticPaths.get(pattern) ?? [];
      if (!methods.includes(verb)) methods.push(verb);
      this.staticPaths.set(pattern, methods);
    } else {
      const list = this.dynamicRoutes.get(statics.length) ?? [];
      list.push({ entry, statics, paramNames, order: this.entries.length });
      list.sort(compareSpecificity);
      this.dynamicRoutes.set(statics.length, list);
    }
    return this;
  }

  /**
   * Adds the page at `path` (a GET route of the router, declared before or after) to the application's menu, which
   * the layouts render for the users who may open it (docs/runtime.md "The menu"). A path is in the menu once.
   */
  menu(path: string, label: string, options: MenuOptions = {}): this {
    if (!path.startsWith('/')) throw new RouteError(`L'entrée de menu « ${label} » : le chemin « ${path} » doit commencer par « / ».`);
    if (typeof label !== 'string' || label.trim() === '') throw new RouteError(`L'entrée de menu ${path} : donnez-lui un libellé.`);
    if (this.menuList.some((entry) => entry.path === path)) throw new RouteError(`Le chemin ${path} est déjà dans le menu.`);
    const roles = options.roles ? Object.freeze([...options.roles]) : undefined;
    this.menuList.push(Object.freeze({ path, label, ...(roles ? { roles } : {}), ...(options.permission ? { permission: options.permission } : {}) }));
    return this;
  }

  /** The menu's entries in declaration order, for every user (the layouts show each user those it may open). */
  menuEntries(): readonly MenuEntry[] {
    return [...this.menuList];
  }

  /** A group of routes sharing a prefix and defaults; with a callback, the callback receives the group. */
  group(prefix: string, options: Omit<RouteOptions, 'name'> = {}, register?: (group: RouteGroup) => void): RouteGroup {
    const group = new RouteGroup(this, prefix, options);
    register?.(group);
    return group;
  }

  /** The route and its parameters for a method and path, or null. HEAD falls back to GET. */
  match(method: string, path: string): Match | null {
    const verb = method.toUpperCase();
    const found = this.find(verb, path);
    if (found || verb !== 'HEAD') return found;
    return this.find('GET', path);
  }

  /** The handler and its parameters, or null. */
  resolve(method: string, path: string): [Handler, Record<string, string>] | null {
    const match = this.match(method, path);
    return match ? [match[0].handler, match[1]] : null;
  }

  /**
   * The methods of a path (empty when the path is unknown), HEAD included when GET is. A path belongs to its most
   * specific pattern whatever the method (docs/decisions.md#routing-static-segments-first): `/contacts/export.csv` answers only the methods of that
   * static route, even when `POST /contacts/{id}` would match it.
   */
  allowedMethods(path: string): string[] {
    const methods = new Set<string>(this.winners(path).map((entry) => entry.method));
    if (methods.has('GET')) methods.add('HEAD');
    return [...methods];
  }

  /** True when the route for this path (and method, when given) is public. */
  isPublic(path: string, method?: string): boolean {
    if (method) return this.match(method, path)?.[0].public ?? false;
    return this.allowedMethods(path).some((verb) => this.match(verb, path)?.[0].public === true);
  }

  /** Every route in declaration order. */
  iterRoutes(): RouteEntry[] {
    return [...this.entries];
  }

  /** The URL of a named route; extra parameters become the query string. */
  urlFor(name: string, params: Record<string, string | number> = {}): string {
    const entry = this.byName.get(name);
    if (!entry) throw new RouteError(`Aucune route nommée « ${name} ».`);
    const used = new Set<string>();
    const path = entry.pattern.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, key: string) => {
      const value = params[key];
      if (value === undefined || value === null || value === '') {
        throw new RouteError(`La route « ${name} » (${entry.pattern}) demande le paramètre « ${key} ».`);
      }
      used.add(key);
      return encodeURIComponent(String(value));
    });
    const extra = Object.entries(params).filter(([key, value]) => !used.has(key) && value !== undefined && value !== null);
    if (extra.length === 0) return path;
    return `${path}?${new URLSearchParams(extra.map(([k, v]): [string, string] => [k, String(v)])).toString()}`;
  }

  private find(verb: string, path: string): Match | null {
    const fixed = this.staticRoutes.get(`${verb} ${path}`);
    if (fixed) return [fixed, {}];
    // A static path of other methods is theirs: no `{param}` route may take it.
    if (this.staticPaths.has(path)) return null;
    const segments = splitPath(path);
    if (!segments) return null;
    if (path.includes('%')) {
      // `/contacts/export%2Ecsv` is the static route `/contacts/export.csv`, never `{id}`.
      const decodedPath = `/${segments.join('/')}`;
      const decoded = this.staticRoutes.get(`${verb} ${decodedPath}`);
      if (decoded) return [decoded, {}];
      if (this.staticPaths.has(decodedPath)) return null;
    }
    let winner: Compiled | undefined;
    for (const compiled of this.dynamicRoutes.get(segments.length) ?? []) {
      // The list is sorted by specificity: past the winning shape, every route is less specific.
      if (winner && !sameShape(winner, compiled)) break;
      const params = matchSegments(compiled, segments);
      if (!params) continue;
      winner ??= compiled;
      if (compiled.entry.method === verb) return [compiled.entry, params];
    }
    return null;
  }

  /** The routes of the most specific pattern that matches the path, whatever their method. */
  private winners(path: string): RouteEntry[] {
    const segments = splitPath(path);
    const decodedPath = segments && path.includes('%') ? `/${segments.join('/')}` : path;
    const key = this.staticPaths.has(path) ? path : decodedPath;
    const statics = this.staticPaths.get(key);
    if (statics) return statics.map((verb) => this.staticRoutes.get(`${verb} ${key}`)!);
    if (!segments) return [];
    const out: RouteEntry[] = [];
    let winner: Compiled | undefined;
    for (const compiled of this.dynamicRoutes.get(segments.length) ?? []) {
      if (winner && !sameShape(winner, compiled)) break;
      if (!matchSegments(compiled, segments)) continue;
      winner ??= compiled;
      out.push(compiled.entry);
    }
    return out;
  }
}

/** Routes added through a group get its prefix and its defaults. */
export class RouteGroup {
  constructor(
    private readonly router: Router,
    readonly prefix: string,
    private readonly defaults: Omit<RouteOptions, 'name'>,
  ) {}

  add(method: string, pattern: string, handler: Handler, options: RouteOptions = {}): this {
    this.router.add(method, groupPattern(this.prefix, pattern), handler, { ...this.defaults, ...options });
    return this;
  }
}

/** The pattern a group with `prefix` gives to `pattern` (`fw project:check` joins a group's routes with it too). */
export function groupPattern(prefix: string, pattern: string): string {
  const base = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
  return pattern === '/' || pattern === '' ? base || '/' : `${base}${pattern.startsWith('/') ? '' : '/'}${pattern}`;
}

/** Decoded path segments, or null when the path is not valid percent-encoding. */
function splitPath(path: string): string[] | null {
  const raw = path.split('/').slice(1);
  try {
    return raw.map((segment) => (segment.includes('%') ? decodeURIComponent(segment) : segment));
  } catch {
    return null;
  }
}

function matchSegments(compiled: Compiled, segments: string[]): Record<string, string> | null {
  const params: Record<string, string> = {};
  let p = 0;
  for (let i = 0; i < segments.length; i++) {
    const expected = compiled.statics[i];
    const actual = segments[i]!;
    if (expected === null) {
      if (actual === '') return null;
      params[compiled.paramNames[p++]!] = actual;
    } else if (expected !== actual) {
      return null;
    }
  }
  return params;
}

/** True when two routes have their parameters at the same places (two such routes matching one path are the same pattern). */
function sameShape(a: Compiled, b: Compiled): boolean {
  for (let i = 0; i < a.statics.length; i++) if ((a.statics[i] === null) !== (b.statics[i] === null)) return false;
  return true;
}

/** Static segment before parameter at the first difference; declaration order among equals. */
function compareSpecificity(a: Compiled, b: Compiled): number {
  for (let i = 0; i < a.statics.length; i++) {
    const sa = a.statics[i] === null ? 1 : 0;
    const sb = b.statics[i] === null ? 1 : 0;
    if (sa !== sb) return sa - sb;
  }
  return a.order - b.order;
}
