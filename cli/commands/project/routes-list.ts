/**
 * `fw routes:list [--json]`: the routes the application registers, read by running the project's own
 * `mvc/routes.ts` (and `mvc/api_routes.ts` when present) against a fresh Router, through tsx. One line per route:
 * `METHOD  PATH  NAME  PUBLIC  CSRF  API  HANDLER` with `oui` / `non` (docs/decisions.md#command-output-reports-and-tables). Handlers are named
 * `Controller.method` when they are static methods of a class exported by `mvc/controllers/*.ts`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Command } from 'commander';
import type { RouteEntry } from '../../../runtime/http/router.js';
import type { CommandInput } from '../../command-module.js';
import { CliError } from '../../errors.js';
import { projectRoot } from '../../current-project.js';

export function configure(command: Command): void {
  command.option('--json', 'sortie JSON (une entrée par route)');
}

const HEADERS = ['METHOD', 'PATH', 'NAME', 'PUBLIC', 'CSRF', 'API', 'HANDLER'] as const;

/** The table: columns padded to their widest cell, two spaces apart, no trailing spaces. */
export function formatRoutes(rows: ReadonlyArray<readonly string[]>): string {
  const all = [HEADERS as readonly string[], ...rows];
  const widths = HEADERS.map((_, i) => Math.max(...all.map((row) => (row[i] ?? '').length)));
  return (
    all
      .map((row) =>
        row
          .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!)))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
}

/** `static` functions of the classes (and plain functions) exported by the controller modules → their names. */
async function handlerNames(root: string): Promise<Map<unknown, string>> {
  const names = new Map<unknown, string>();
  const dir = path.join(root, 'mvc', 'controllers');
  const files = fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
        .sort()
    : [];
  for (const file of files) {
    let mod: Record<string, unknown>;
    try {
      mod = (await import(pathToFileURL(path.join(dir, file)).href)) as Record<string, unknown>;
    } catch {
      continue; // A controller that does not load only loses its names; routes.ts reports real errors.
    }
    for (const [exported, value] of Object.entries(mod)) {
      if (typeof value !== 'function') continue;
      if (!names.has(value)) names.set(value, exported);
      // Its own statics, then those it inherits (the actions of fw-mvc/crud's class, read through the class they are
      // bound to: the same function the routes hold).
      for (let owner: object | null = value; owner && owner !== Function.prototype; owner = Object.getPrototypeOf(owner) as object | null) {
        for (const key of Object.getOwnPropertyNames(owner)) {
          if (['length', 'name', 'prototype'].includes(key)) continue;
          let member: unknown;
          try {
            member = (value as unknown as Record<string, unknown>)[key];
          } catch {
            continue; // A getter that throws names nothing.
          }
          if (typeof member === 'function' && !names.has(member)) names.set(member, `${exported}.${key}`);
        }
      }
    }
  }
  return names;
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message.split('\n')[0]! : String(err);
}

export async function run({ options }: CommandInput): Promise<number> {
  const root = projectRoot();
  const routesFile = path.join(root, 'mvc', 'routes.ts');
  if (!fs.existsSync(routesFile)) {
    throw new CliError(
      'mvc/routes.ts est introuvable : aucune route à lister.',
      'créez mvc/routes.ts avec « export function registerRoutes(router: Router): void { … } ».',
    );
  }
  if (!fs.existsSync(path.join(root, 'node_modules', 'fw-mvc'))) {
    throw new CliError(
      'les dépendances du projet ne sont pas installées (node_modules/fw-mvc est absent) : les routes ne peuvent pas être chargées.',
      'lancez « npm install » dans le projet, puis relancez « fw routes:list ».',
    );
  }
  const [{ register }, { Router }, { configure }] = await Promise.all([
    import('tsx/esm/api'),
    import('../../../runtime/http/router.js'),
    import('../../../runtime/config.js'),
  ]);
  const unregister = register();
  const router = new Router();
  try {
    configure({ project_root: root });
    let mod: Record<string, unknown>;
    try {
      mod = (await import(pathToFileURL(routesFile).href)) as Record<string, unknown>;
    } catch (err) {
      throw new CliError(
        `mvc/routes.ts ne se charge pas : ${describe(err)}`,
        "corrigez l'erreur indiquée (« npm run typecheck » dans le projet la localise), puis relancez la commande.",
      );
    }
    if (typeof mod.registerRoutes !== 'function') {
      throw new CliError(
        "mvc/routes.ts n'exporte pas registerRoutes(router).",
        'ajoutez « export function registerRoutes(router: Router): void { … } » à mvc/routes.ts.',
      );
    }
    try {
      (mod.registerRoutes as (r: unknown) => void)(router);
      const { loadApiRoutes } = await import('../../../runtime/application.js');
      await loadApiRoutes(router);
    } catch (err) {
      if (err instanceof CliError) throw err;
      throw new CliError(
        `l'enregistrement des routes a échoué : ${describe(err)}`,
        'corrigez mvc/routes.ts (ou mvc/api_routes.ts), puis relancez la commande.',
      );
    }
    const names = await handlerNames(root);
    const entries: RouteEntry[] = router.iterRoutes();
    const handler = (entry: RouteEntry): string => names.get(entry.handler) ?? (entry.handler.name || '(anonyme)');
    if (options.json === true) {
      const json = entries.map((e) => ({
        method: e.method,
        path: e.pattern,
        name: e.name ?? null,
        public: e.public,
        csrf: e.csrf,
        api: e.api,
        handler: handler(e),
      }));
      process.stdout.write(JSON.stringify(json, null, 2) + '\n');
      return 0;
    }
    const yes = (value: boolean): string => (value ? 'oui' : 'non');
    const rows = entries.map((e) => [e.method, e.pattern, e.name ?? '-', yes(e.public), yes(e.csrf), yes(e.api), handler(e)]);
    // The table of docs/decisions.md#command-output-reports-and-tables and nothing else, so that a script can read it line by line.
    process.stdout.write(formatRoutes(rows));
    return 0;
  } finally {
    await unregister();
  }
}
