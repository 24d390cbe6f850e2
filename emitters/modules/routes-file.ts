/**
 * `mvc/routes_<name>.ts`, the routes of a local module (`fw module:routes`, docs/decisions.md#local-modules; docs/modules.md): the
 * imports of the module's controllers and one exported `register<Name>Routes(router)` that adds each route of its
 * `routes.json`. A regenerable file; `mvc/routes.ts` is never edited, the user adds the two printed lines.
 */
import { pascalCase } from '../../compiler/naming.js';
import { tsMarkerLine } from '../marker.js';
import type { PlannedFile } from '../planned-file.js';
import { byCodeUnits, commentText, fileText, tsString } from '../text.js';

export interface ModuleRoute {
  readonly method: string;
  readonly path: string;
  /** The exported controller class. */
  readonly controller: string;
  /** Its static method. */
  readonly action: string;
  readonly name?: string;
  readonly public?: boolean;
}

export interface ModuleRoutesPlan {
  /** The module's name (snake_case). */
  readonly module: string;
  /** Where the routes come from, for the header comment: `modules/blog/routes/routes.json`. */
  readonly source: string;
  /** Controller class → its module specifier from `mvc/` (`./controllers/blog_controller.js`). */
  readonly controllers: ReadonlyMap<string, string>;
  readonly routes: readonly ModuleRoute[];
}

/** `registerBlogRoutes` for `blog`. */
export function moduleRoutesFunction(module: string): string {
  return `register${pascalCase(module)}Routes`;
}

/** `mvc/routes_blog.ts`. */
export function moduleRoutesPath(module: string): string {
  return `mvc/routes_${module}.ts`;
}

/** The two lines the user adds to `mvc/routes.ts`: the import, and the call inside `registerRoutes`. */
export function moduleRoutesLines(module: string): { readonly importLine: string; readonly callLine: string } {
  const fn = moduleRoutesFunction(module);
  return { importLine: `import { ${fn} } from './routes_${module}.js';`, callLine: `${fn}(router);` };
}

function routeOptions(route: ModuleRoute): string {
  const parts = [...(route.name === undefined ? [] : [`name: ${tsString(route.name)}`]), ...(route.public === true ? ['public: true'] : [])];
  return parts.length === 0 ? '' : `, { ${parts.join(', ')} }`;
}

/** The file `fw module:routes <name>` writes. */
export function emitModuleRoutes(plan: ModuleRoutesPlan): PlannedFile {
  const { importLine, callLine } = moduleRoutesLines(plan.module);
  const used = [...new Set(plan.routes.map((route) => route.controller))].sort(byCodeUnits);
  const imports = used.map((name) => `import { ${name} } from ${tsString(plan.controllers.get(name)!)};`);
  const lines = [
    tsMarkerLine(`fw module:routes ${plan.module}`),
    `// Routes du module « ${commentText(plan.module)} », lues dans ${commentText(plan.source)}. À brancher dans mvc/routes.ts :`,
    `//   ${importLine}`,
    `//   ${callLine}  (dans registerRoutes)`,
    "import type { Router } from 'fw-mvc';",
    ...imports,
    '',
    `export function ${moduleRoutesFunction(plan.module)}(router: Router): void {`,
    ...plan.routes.map(
      (route) => `  router.add(${tsString(route.method)}, ${tsString(route.path)}, ${route.controller}.${route.action}${routeOptions(route)});`,
    ),
    '}',
  ];
  return { path: moduleRoutesPath(plan.module), content: fileText(lines), kind: 'regenerable' };
}
