/**
 * The lines the routes codemods write into `mvc/routes.ts`, or print for the user to paste: imports, routes
 * (`router.add(…)`), menu entries (`router.menu(…)`, docs/crud.md "The menu"), a whole `registerRoutes`; and how an
 * existing menu entry is recognised: by the path of its `*.menu('/path', …)` call, never by comparing text.
 */
import { Node, SyntaxKind, type SourceFile } from 'ts-morph';

/** The function that generators add routes to. */
export const ROUTES_FUNCTION = 'registerRoutes';

export interface RouteToAdd {
  readonly method: string;
  readonly path: string;
  /** The handler expression, e.g. `ContactController.index`. */
  readonly handler: string;
  /** The options object literal, e.g. `{ name: 'contacts.index', public: true }`. */
  readonly options: string;
}

export interface ImportToAdd {
  /** Named import, e.g. `ContactController`. */
  readonly name: string;
  /** Module specifier, e.g. `./controllers/contact_controller.js`. */
  readonly from: string;
  /** The local name when `name` is taken in the file: `import { name as alias }`. */
  readonly alias?: string;
}

/** An entry of the application's menu: `router.menu(path, label, options)`. */
export interface MenuToAdd {
  /** The page, a GET route's path: `/contacts`. */
  readonly path: string;
  readonly label: string;
  /** The options object literal when the entry asks more than its route: `{ roles: ['admin'] }`. */
  readonly options?: string;
}

/** A TypeScript string literal in single quotes. */
function quoted(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

export function menuLine(variable: string, entry: MenuToAdd): string {
  return `${variable}.menu(${quoted(entry.path)}, ${quoted(entry.label)}${entry.options ? `, ${entry.options}` : ''});`;
}

/** The paths of the file's menu entries: every `*.menu('/path', …)` call whose first argument is a string literal. */
export function declaredMenuPaths(source: SourceFile): Set<string> {
  const paths = new Set<string>();
  for (const call of source.getDescendantsOfKind(SyntaxKind.CallExpression)) {
    const callee = call.getExpression();
    if (!Node.isPropertyAccessExpression(callee) || callee.getName() !== 'menu') continue;
    const first = call.getArguments()[0];
    if (first && (Node.isStringLiteral(first) || Node.isNoSubstitutionTemplateLiteral(first))) paths.add(first.getLiteralText());
  }
  return paths;
}

export function importLine(imp: ImportToAdd): string {
  return `import { ${imp.name}${imp.alias ? ` as ${imp.alias}` : ''} } from '${imp.from}';`;
}

export function routeLine(variable: string, route: RouteToAdd): string {
  return `${variable}.add('${route.method}', '${route.path}', ${route.handler}, ${route.options});`;
}

/** The import of the Router type that a pasted `registerRoutes(router: Router)` needs. */
export const ROUTER_IMPORT = "import type { Router } from 'fw-mvc';";

/**
 * What to paste by hand when the file has no usable anchor (or does not exist): the imports (the controller's, unless
 * the file already has it; the Router type's when asked) and the whole `registerRoutes` function.
 */
export function manualLines(
  imp: ImportToAdd | null,
  routes: readonly RouteToAdd[],
  options: { routerImport?: boolean; menu?: readonly MenuToAdd[] } = {},
): string {
  const imports = [...(options.routerImport === false ? [] : [ROUTER_IMPORT]), ...(imp ? [importLine(imp)] : [])];
  return [
    ...imports,
    ...(imports.length ? [''] : []),
    `export function ${ROUTES_FUNCTION}(router: Router): void {`,
    ...routes.map((r) => `  ${routeLine('router', r)}`),
    ...(options.menu ?? []).map((entry) => `  ${menuLine('router', entry)}`),
    '}',
  ].join('\n');
}

/** What to paste by hand inside an existing `registerRoutes`: the imports (the file lacks), then the route and menu lines. */
export function pasteLines(
  imp: ImportToAdd | null,
  routes: readonly RouteToAdd[],
  variable: string,
  otherImports: readonly string[] = [],
  menu: readonly MenuToAdd[] = [],
): string {
  const imports = [...otherImports, ...(imp ? [importLine(imp)] : [])];
  const lines = [...routes.map((r) => routeLine(variable, r)), ...menu.map((entry) => menuLine(variable, entry))];
  return [...imports, ...(imports.length ? [''] : []), ...lines.map((line) => `  ${line}`)].join('\n');
}
