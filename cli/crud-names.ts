/**
 * Whether a project still imports the names a crud module exported before it became a description (`import * as crud
 * from '../models/contact_crud.js'`, `import { LIST, SELECT } from './contact_crud.js'`): a controller or a model of
 * an older `fw make:crud`, or a file of the user's. While one does, the regenerated `<snake>_crud.ts` exports them
 * too (docs/upgrading.md "The CRUD in the runtime").
 */
import fs from 'node:fs';
import path from 'node:path';

const SKIPPED = new Set(['node_modules', 'dist']);

/** The `.ts` files under `mvc/`, the crud and media modules themselves left out. */
function projectFiles(root: string, snake: string): string[] {
  const own = new Set([`${snake}_crud.ts`, `${snake}_media.ts`]);
  const out: string[] = [];
  const walk = (dir: string): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED.has(entry.name)) walk(full);
      } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') && !own.has(entry.name)) out.push(full);
    }
  };
  walk(path.join(root, 'mvc'));
  return out;
}

/** An import of the entity's crud module: what it binds, and from where. */
const IMPORT = /import\s+(type\s+)?([^'";]*?)\s+from\s+['"]([^'"]+)['"]/g;

/** True when a file of the project imports from `<snake>_crud.js` a name that is not one of the description's (`CONSTANT`, `RowType`). */
export function importsLegacyCrudNames(
  root: string,
  snake: string,
  current: readonly string[],
  replaced: ReadonlyMap<string, string | null> = new Map(),
): boolean {
  const module = new RegExp(`(?:^|/)${snake}_crud(?:\\.js)?$`);
  // `replaced`: files (relative paths) about to be written (null: deleted), read as they will be (make:crud --upgrade).
  const files = new Map(projectFiles(root, snake).map((file) => [file, null as string | null]));
  for (const [file, text] of replaced) files.set(path.join(root, file), text);
  for (const [file, planned] of files) {
    if (replaced.has(path.relative(root, file).split(path.sep).join('/')) && planned === null) continue;
    const text = planned ?? fs.readFileSync(file, 'utf8');
    if (!text.includes(`${snake}_crud`)) continue;
    for (const match of text.matchAll(IMPORT)) {
      if (!module.test(match[3]!)) continue;
      const clause = match[2]!.trim();
      if (clause.startsWith('*')) return true;
      const names = clause
        .replace(/^\{|\}$/g, '')
        .split(',')
        .map((item) =>
          item
            .trim()
            .replace(/^type\s+/, '')
            .split(/\s+as\s+/)[0]!
            .trim(),
        )
        .filter((name) => name !== '');
      if (names.some((name) => !current.includes(name))) return true;
    }
  }
  return false;
}
