/**
 * What is left of an entity whose definition was removed (docs/entities.md "Removing an entity"): its regenerable
 * files (their marker names `fw sync:entity <Entity>`), its manual files (controller, model, form, pages, entity
 * class) and the lines of `mvc/routes.ts` that name its controller. `fw build:model` removes the regenerable ones
 * and reports the others, `--check` and `fw project:check` report them all. Read-only here.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pascalCase, snakeCase } from '../../compiler/naming.js';
import { GENERATED_MARKER } from '../../emitters/marker.js';

export interface RemovedEntity {
  readonly name: string;
  /** Files with the generated marker of this entity, relative to the root, sorted. */
  readonly regenerable: readonly string[];
  /** The entity's manual files still there, sorted. */
  readonly manual: readonly string[];
  /** Lines of mvc/routes.ts naming `<Entity>Controller`: number and text. */
  readonly routes: ReadonlyArray<{ readonly line: number; readonly text: string }>;
}

const ROUTES_FILE = 'mvc/routes.ts';
const MARKED = new RegExp(`${GENERATED_MARKER.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(regenerate with: fw sync:entity ([A-Z][A-Za-z0-9]*)\\)`);

function walk(root: string, relative: string, out: string[]): void {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(path.join(root, relative), { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const child = `${relative}/${entry.name}`;
    if (entry.isDirectory()) walk(root, child, out);
    else if (entry.isFile()) out.push(child);
  }
}

/** The first line of a file (at most 400 bytes read). */
function firstLine(file: string): string {
  const handle = fs.openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(400);
    const read = fs.readSync(handle, buffer, 0, buffer.length, 0);
    return buffer.subarray(0, read).toString('utf8').split(/\r?\n/)[0] ?? '';
  } finally {
    fs.closeSync(handle);
  }
}

/** The manual files `fw make:entity` and `fw make:crud` write for an entity, those still there. */
function manualFiles(root: string, snake: string, all: readonly string[], regenerable: ReadonlySet<string>): string[] {
  const own = [
    `mvc/controllers/${snake}_controller.ts`,
    `mvc/models/${snake}_model.ts`,
    `mvc/models/${snake}_media.ts`,
    `mvc/forms/${snake}_form.ts`,
    `mvc/entities/${snake}/${snake}.ts`,
    `mvc/entities/${snake}/index.ts`,
  ].filter((file) => fs.existsSync(path.join(root, file)));
  const pages = all.filter((file) => file.startsWith(`mvc/views/${snake}/`) && !regenerable.has(file));
  return [...own, ...pages].sort();
}

/**
 * The removed entities of a project whose model has the entities `known`: named by a regenerable file's marker, or
 * by a model (`mvc/models/<snake>_model.ts`) with no entity of that snake name (after its regenerable files went).
 */
export function removedEntities(root: string, known: readonly string[]): RemovedEntity[] {
  const all: string[] = [];
  walk(root, 'mvc', all);
  const knownNames = new Set(known);
  const knownSnakes = new Set(known.map(snakeCase));
  const marked = new Map<string, string[]>();
  for (const file of all) {
    if (!/\.(ts|sql|html|json)$/.test(file)) continue;
    const name = MARKED.exec(firstLine(path.join(root, file)))?.[1];
    if (name === undefined || knownNames.has(name)) continue;
    marked.set(name, [...(marked.get(name) ?? []), file]);
  }
  for (const file of all) {
    const snake = /^mvc\/models\/([a-z][a-z0-9_]*)_model\.ts$/.exec(file)?.[1];
    if (snake === undefined || knownSnakes.has(snake)) continue;
    const name = pascalCase(snake);
    if (![...marked.keys()].some((m) => snakeCase(m) === snake)) marked.set(name, []);
  }
  const routesPath = path.join(root, ROUTES_FILE);
  const routeLines = fs.existsSync(routesPath) ? fs.readFileSync(routesPath, 'utf8').split(/\r?\n/) : [];
  return [...marked.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, files]) => {
      const regenerable = new Set(files);
      const controller = new RegExp(`\\b${name}Controller\\b`);
      return {
        name,
        regenerable: [...files].sort(),
        manual: manualFiles(root, snakeCase(name), all, regenerable),
        routes: routeLines.flatMap((text, i) => (controller.test(text) ? [{ line: i + 1, text: text.trim() }] : [])),
      };
    });
}

/** What is left of each removed entity, as lines (`  mvc/…`, `  mvc/routes.ts:12 : router.add(…)`). */
export function describeRemoved(removed: RemovedEntity, withRegenerable: boolean): string[] {
  return [
    ...(withRegenerable ? removed.regenerable.map((file) => `  ${file} (généré)`) : []),
    ...removed.manual.map((file) => `  ${file} (manuel)`),
    ...removed.routes.map((route) => `  ${ROUTES_FILE}:${route.line} : ${route.text}`),
  ];
}
