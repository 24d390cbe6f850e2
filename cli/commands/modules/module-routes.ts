/**
 * `fw module:routes <name> [--dry-run]` (docs/decisions.md#local-modules; docs/modules.md): writes `mvc/routes_<name>.ts`, which exports
 * `register<Name>Routes(router)`, from the routes of an installed module, through the one writer. `mvc/routes.ts` is
 * never edited: the command prints the import and the call to add there (and says when they are already there).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import { projectRoot } from '../../current-project.js';

export function configure(command: Command): void {
  command.argument('<nom>', 'nom du module installé').option('--dry-run', 'affiche ce qui changerait sans rien écrire');
}

const ROUTES_FILE = 'mvc/routes.ts';

export async function run({ args, options }: CommandInput): Promise<number> {
  const { checkModuleName, folderInProject, readModule } = await import('../../modules/manifest.js');
  const { installedEntry, readRegistry } = await import('../../modules/registry.js');
  const { readModuleRoutes } = await import('../../modules/routes.js');
  const emitter = await import('../../../emitters/modules/routes-file.js');
  const { applyPlan, formatPlan, planWrites } = await import('../../writer.js');
  const name = checkModuleName(String(args[0]));
  const dryRun = options.dryRun === true;
  const root = projectRoot();
  const entry = installedEntry(readRegistry(root), name, 'module:routes');
  const module = readModule(root, folderInProject(root, entry.path, `le dossier enregistré pour « ${name} »`));
  const routes = await readModuleRoutes(root, module);
  const plan = planWrites(root, [emitter.emitModuleRoutes(routes)]);
  if (!dryRun) applyPlan(plan);
  const out = process.stdout;
  out.write(`Routes du module « ${name} » (${routes.routes.length}) :\n`);
  for (const route of routes.routes)
    out.write(`  ${route.method.padEnd(6)} ${route.path}  ${route.controller}.${route.action}${route.public ? ' (publique)' : ''}\n`);
  out.write(formatPlan(plan, { dryRun }));

  const missing = [...new Set(routes.controllers.values())]
    .map((from) => `mvc/${from.slice(2).replace(/\.js$/, '.ts')}`)
    .filter((file) => !fs.existsSync(path.join(root, file)));
  if (missing.length > 0) {
    out.write(
      `Attention : ${missing.join(', ')} ${missing.length > 1 ? 'manquent' : 'manque'} encore : « fw module:files ${name} » copie les contrôleurs du module.\n`,
    );
  }
  const wired = await wiring(
    root,
    name,
    routes.routes.map((route) => `${route.method} ${route.path}`),
  );
  const { importLine, callLine } = emitter.moduleRoutesLines(name);
  for (const clash of wired.clashes) out.write(`Attention : ${ROUTES_FILE} déclare déjà ${clash}, que le module déclare aussi.\n`);
  if (wired.imported && wired.called) {
    out.write(`${ROUTES_FILE} importe et appelle déjà ${emitter.moduleRoutesFunction(name)} : rien à y ajouter.\n`);
  } else {
    out.write(`\nAjoutez à ${ROUTES_FILE} (fw module:routes ne le modifie jamais) :\n`);
    if (!wired.imported) out.write(`  en tête, avec les autres imports :\n    ${importLine}\n`);
    if (!wired.called) out.write(`  dans la fonction registerRoutes(router) :\n    ${callLine}\n`);
  }
  return 0;
}

interface Wiring {
  readonly imported: boolean;
  readonly called: boolean;
  /** Routes (`GET /path`) of the module that routes.ts declares itself. */
  readonly clashes: readonly string[];
}

/** What mvc/routes.ts already holds of the module, read through its syntax tree (never changed). */
async function wiring(root: string, name: string, keys: readonly string[]): Promise<Wiring> {
  let text: string;
  try {
    text = fs.readFileSync(path.join(root, ...ROUTES_FILE.split('/')), 'utf8');
  } catch {
    return { imported: false, called: false, clashes: [] };
  }
  const { declaredRoutes, parse } = await import('../../../emitters/codemods/routes-edit.js');
  const { SyntaxKind } = await import('ts-morph');
  const { moduleRoutesFunction } = await import('../../../emitters/modules/routes-file.js');
  const source = parse(text);
  const fn = moduleRoutesFunction(name);
  const local = source
    .getImportDeclarations()
    .filter((declaration) => declaration.getModuleSpecifierValue() === `./routes_${name}.js`)
    .flatMap((declaration) => declaration.getNamedImports())
    .find((named) => named.getName() === fn);
  const localName = local ? (local.getAliasNode()?.getText() ?? fn) : null;
  const called = localName !== null && source.getDescendantsOfKind(SyntaxKind.CallExpression).some((call) => call.getExpression().getText() === localName);
  const declared = declaredRoutes(source);
  return { imported: localName !== null, called, clashes: keys.filter((key) => declared.has(key)) };
}
