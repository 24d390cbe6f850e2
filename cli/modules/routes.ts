/**
 * What `fw module:routes` reads (docs/decisions.md#local-modules; docs/modules.md): the module's `routes.json` (checked by
 * `schemas/module-routes.schema.json`), each route's controller found among the module's controller files (an
 * exported class) with its action (a static method), read through the syntax tree. Nothing here writes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DiagnosticList, pointerTo } from '../../compiler/diagnostics.js';
import { parseRoutePattern } from '../../runtime/http/router.js';
import type { ModuleRoute, ModuleRoutesPlan } from '../../emitters/modules/routes-file.js';
import { CliError } from '../errors.js';
import { problemsError, readModuleJson, type LocalModule } from './manifest.js';
import { walkFiles } from './source.js';

export const ROUTES_JSON = 'routes.json';

interface ControllerClass {
  /** Posix, relative to the module's controllers folder: `blog_controller.ts`. */
  readonly file: string;
  readonly statics: ReadonlySet<string>;
}

/** Exported classes of the module's controller files, by name, with their static members (ts-morph, in memory). */
async function controllerClasses(module: LocalModule): Promise<Map<string, ControllerClass[]>> {
  const folder = module.manifest.paths.controllers;
  const found = new Map<string, ControllerClass[]>();
  if (folder === undefined) return found;
  const { parse } = await import('../../emitters/codemods/routes-edit.js');
  const absolute = path.join(module.absoluteDir, ...folder.split('/'));
  for (const file of walkFiles(absolute, `${module.dir}/${folder}`)) {
    if (!file.endsWith('.ts') || file.endsWith('.d.ts')) continue;
    const source = parse(fs.readFileSync(path.join(absolute, ...file.split('/')), 'utf8'));
    for (const declaration of source.getClasses()) {
      const name = declaration.getName();
      if (!name || !declaration.isExported()) continue;
      const statics = new Set([...declaration.getStaticMethods(), ...declaration.getStaticProperties()].map((member) => member.getName()));
      found.set(name, [...(found.get(name) ?? []), { file, statics }]);
    }
  }
  return found;
}

/**
 * The route names the project's own route files already declare (`mvc/routes.ts` and every `mvc/routes_*.ts` but
 * the module's own), each with its file: a literal `name: '…'` in the options of an `add(…)` call, read through the
 * syntax tree. The router refuses a second route of the same name when the application starts.
 */
async function declaredRouteNames(root: string, module: string): Promise<Map<string, string>> {
  const mvc = path.join(root, 'mvc');
  let files: string[];
  try {
    files = fs
      .readdirSync(mvc)
      .filter((file) => file === 'routes.ts' || (/^routes_.+\.ts$/.test(file) && file !== `routes_${module}.ts`))
      .sort();
  } catch {
    return new Map();
  }
  const { parse } = await import('../../emitters/codemods/routes-edit.js');
  const { Node, SyntaxKind } = await import('ts-morph');
  const names = new Map<string, string>();
  for (const file of files) {
    let text: string;
    try {
      text = fs.readFileSync(path.join(mvc, file), 'utf8');
    } catch {
      continue;
    }
    for (const call of parse(text).getDescendantsOfKind(SyntaxKind.CallExpression)) {
      const callee = call.getExpression();
      const options = call.getArguments()[3];
      if (!Node.isPropertyAccessExpression(callee) || callee.getName() !== 'add' || !Node.isObjectLiteralExpression(options)) continue;
      const property = options.getProperty('name');
      const value = Node.isPropertyAssignment(property) ? property.getInitializer() : undefined;
      if (value && (Node.isStringLiteral(value) || Node.isNoSubstitutionTemplateLiteral(value)) && !names.has(value.getLiteralText())) {
        names.set(value.getLiteralText(), `mvc/${file}`);
      }
    }
  }
  return names;
}

/** The router's refusal of a pattern (runtime/http/router.ts, the rule applied at start), or null. */
function patternProblem(pattern: string): string | null {
  try {
    parseRoutePattern(pattern);
    return null;
  } catch (error) {
    return (error as Error).message.replace(/\.$/, '');
  }
}

const ADVICE = `corrigez le fichier des routes du module (son format est décrit dans docs/modules.md), puis relancez la commande.`;

/** The routes of the module and the controllers they use; a CliError naming every problem. */
export async function readModuleRoutes(root: string, module: LocalModule): Promise<ModuleRoutesPlan> {
  const { name } = module.manifest;
  const folder = module.manifest.paths.routes;
  if (folder === undefined) {
    throw new CliError(
      `le module « ${name} » ne fournit pas de routes (« routes » absent de « provides » dans ${module.dir}/module.json) : rien n'a été écrit.`,
      `ajoutez "routes" à provides et un fichier ${ROUTES_JSON} dans le dossier routes du module (docs/modules.md), puis relancez « fw module:routes ${name} ».`,
    );
  }
  walkFiles(path.join(module.absoluteDir, ...folder.split('/')), `${module.dir}/${folder}`);
  const file = `${module.dir}/${folder}/${ROUTES_JSON}`;
  const diags = new DiagnosticList();
  const value = readModuleJson(root, file, 'module-routes', diags) as { routes: ModuleRoute[] } | null;
  if (!value) throw problemsError(diags.sorted(), ADVICE);

  const classes = await controllerClasses(module);
  const taken = await declaredRouteNames(root, name);
  const controllers = new Map<string, string>();
  const keys = new Map<string, number>();
  const names = new Map<string, number>();
  value.routes.forEach((route, index) => {
    const at = (key: string): string => pointerTo('#/routes', index, key);
    const key = `${route.method} ${route.path}`;
    const invalid = patternProblem(route.path);
    if (invalid !== null) diags.add(file, at('path'), 'path', `la route ${key} ferait échouer le démarrage de l'application : ${invalid}`);
    if (keys.has(key)) diags.add(file, at('path'), 'duplicate', `la route ${key} est déjà déclarée en routes[${keys.get(key)!}] : retirez le doublon`);
    else keys.set(key, index);
    if (route.name !== undefined) {
      if (names.has(route.name))
        diags.add(file, at('name'), 'duplicate', `le nom de route « ${route.name} » est déjà pris par routes[${names.get(route.name)!}] : un nom est unique`);
      else if (taken.has(route.name))
        diags.add(
          file,
          at('name'),
          'duplicate',
          `le nom « ${route.name} » de la route ${key} est déjà déclaré dans ${taken.get(route.name)!} : un nom de route est unique dans l'application, choisissez-en un autre`,
        );
      else names.set(route.name, index);
    }
    const candidates = classes.get(route.controller) ?? [];
    if (candidates.length !== 1) {
      const why =
        candidates.length > 1
          ? `plusieurs fichiers du module l'exportent (${candidates.map((c) => c.file).join(', ')})`
          : module.manifest.paths.controllers === undefined
            ? 'le module ne fournit pas de contrôleurs (« controllers » absent de provides)'
            : `aucun fichier de ${module.dir}/${module.manifest.paths.controllers}/ n'exporte cette classe`;
      diags.add(file, at('controller'), 'controller', `contrôleur « ${route.controller} » introuvable : ${why}`);
      return;
    }
    const controller = candidates[0]!;
    if (!controller.statics.has(route.action)) {
      diags.add(file, at('action'), 'action', `« ${route.controller} » (${controller.file}) n'a pas de méthode statique « ${route.action} »`);
    }
    controllers.set(route.controller, `./controllers/${controller.file.replace(/\.ts$/, '.js')}`);
  });
  if (diags.items.length > 0) throw problemsError(diags.sorted(), ADVICE);
  return { module: name, source: file, controllers, routes: value.routes };
}
