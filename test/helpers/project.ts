/** A throw-away project root for HTTP tests: `static/`, `mvc/views/` and any extra files. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface TempProject {
  readonly root: string;
  readonly staticDir: string;
  readonly viewsDir: string;
  /** Writes a file relative to the root (folders created); returns its absolute path. */
  write(relative: string, content: string | Buffer): string;
  /** Removes the whole folder. */
  cleanup(): void;
}

/** Creates `<tmp>/fw-http-XXXX/` with `static/` and `mvc/views/`, plus the given files. */
export function makeProject(files: Record<string, string | Buffer> = {}): TempProject {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fw-http-')));
  const staticDir = path.join(root, 'static');
  const viewsDir = path.join(root, 'mvc', 'views');
  fs.mkdirSync(staticDir, { recursive: true });
  fs.mkdirSync(viewsDir, { recursive: true });
  const write = (relative: string, content: string | Buffer): string => {
    const file = path.join(root, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
    return file;
  };
  for (const [relative, content] of Object.entries(files)) write(relative, content);
  return {
    root,
    staticDir,
    viewsDir,
    write,
    cleanup: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}
