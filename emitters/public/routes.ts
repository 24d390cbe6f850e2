/**
 * The routes of the public pages and the check that none of them is already answered by another page: the same
 * METHOD + path in `mvc/routes.ts` with another name and handler (make:crud's `GET /contacts`, a route of the user)
 * would either shadow the new page or be shadowed by it, so the generator refuses. Read from the syntax tree.
 */
import { Node } from 'ts-morph';
import { declaredRoute, parse, parseErrors, type RouteToAdd } from '../codemods/routes-edit.js';

/** A route of routes.ts that answers the METHOD + path of a route to add. */
export interface RouteConflict {
  readonly wanted: RouteToAdd;
  readonly line: number;
  /** The existing route's `name` option (a literal), or null. */
  readonly name: string | null;
  readonly handler: string;
  /** Its first line, as written. */
  readonly text: string;
}

/** The literal `name` of a route's options object, or null. */
function routeName(options: Node | undefined): string | null {
  if (!options || !Node.isObjectLiteralExpression(options)) return null;
  const property = options.getProperty('name');
  if (!property || !Node.isPropertyAssignment(property)) return null;
  const value = property.getInitializer();
  return value && (Node.isStringLiteral(value) || Node.isNoSubstitutionTemplateLiteral(value)) ? value.getLiteralText() : null;
}

/** The literal `name` in a RouteToAdd's options text (`{ name: 'x', public: true }`). */
export function wantedName(route: RouteToAdd): string | null {
  return /name:\s*'([^']*)'/.exec(route.options)?.[1] ?? null;
}

/**
 * The routes of `text` that answer one of `routes` and that `isForeign` says belong to another page. A file that does
 * not parse gives none (the routes editor reports it).
 */
export function routeConflicts(
  text: string,
  routes: readonly RouteToAdd[],
  isForeign: (existing: { name: string | null; handler: string }, wanted: RouteToAdd) => boolean,
): RouteConflict[] {
  const source = parse(text);
  if (parseErrors(source).length) return [];
  const out: RouteConflict[] = [];
  for (const wanted of routes) {
    const found = declaredRoute(source, wanted.method, wanted.path);
    if (!found) continue;
    const args = found.call.getArguments();
    const existing = { name: routeName(args[3]), handler: args[2]?.getText() ?? '' };
    if (isForeign(existing, wanted)) {
      out.push({ wanted, line: found.call.getStartLineNumber(), ...existing, text: found.call.getText().split(/\r?\n/)[0]!.trim() });
    }
  }
  return out;
}

/** For a public generator: a route is its own when it carries the same name or the same handler. */
export function notOurs(existing: { name: string | null; handler: string }, wanted: RouteToAdd): boolean {
  return existing.name !== wantedName(wanted) && existing.handler !== wanted.handler;
}

/** For make:crud: a route made by a public generator (named `public.…`) is another page's. */
export function isPublicPageRoute(existing: { name: string | null; handler: string }): boolean {
  return existing.name !== null && existing.name.startsWith('public.');
}

/** The conflicts as lines of a message: `GET /contacts (ligne 8 : router.add('GET', '/contacts', …), nommée contacts.index)`. */
export function describeConflicts(file: string, conflicts: readonly RouteConflict[]): string {
  return conflicts
    .map((c) => `${c.wanted.method} ${c.wanted.path} est déjà déclarée dans ${file} (ligne ${c.line}${c.name ? `, route « ${c.name} »` : ''} : ${c.text})`)
    .join(' ; ');
}
