/**
 * The TypeScript files of a generated project that its tsconfig.json compiles (`include`: `app.ts`, `config.ts` and
 * every `.ts` under `mvc/`), declarations left out: what serveProject() compiles, and what the names test reads.
 */
import fs from 'node:fs';
import path from 'node:path';

export function projectSources(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(full);
    }
  };
  if (fs.existsSync(path.join(root, 'mvc'))) walk(path.join(root, 'mvc'));
  for (const top of ['app.ts', 'config.ts']) if (fs.existsSync(path.join(root, top))) out.push(path.join(root, top));
  return out;
}
