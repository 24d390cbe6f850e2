/**
 * Where a project uses translation keys (docs/frontend.md "Translations: fw i18n:init, fw i18n:check"): `trans('…')` /
 * `trans("…")` with a literal key in its code (`app.ts`, `mvc/**\/*.ts`) and templates (`mvc/views/**\/*.html`), in the
 * framework's templates the project renders without a copy of its own, and in the framework's `MediaPages` when the
 * project uses it. A key built at run time (`trans(name)`, `trans('a.' ~ b)`) is not a literal and is ignored.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from '../../runtime/paths.js';

export interface KeyUse {
  readonly key: string;
  /** Display path: relative to the project, or `fw-mvc/runtime/views/…` for a framework template. */
  readonly file: string;
  readonly line: number;
}

export interface Usage {
  readonly uses: readonly KeyUse[];
  readonly templates: number;
  readonly codeFiles: number;
}

/** A literal key followed by the end of the call or its next argument (so `trans('a.' ~ b)` is left out). */
const TRANS_CALL = /\btrans\(\s*(?:'([^'\\\n]+)'|"([^"\\\n]+)")\s*[,)]/g;
/** `{% extends/include/import/from … "name.html" %}`: the first quoted template name of the tag. */
const TEMPLATE_TAG = /\{%-?\s*(?:extends|include|import|from)\b[^%]*?['"]([^'"]+\.html)['"]/g;
/** A template named in code: `render('home/index.html', …)`, `base: 'layouts/admin.html'`. */
const TEMPLATE_NAME = /['"`]([\w./-]+\.html)['"`]/g;

/** The framework the project runs: its own `node_modules/fw-mvc` when installed, else the one running this CLI. */
export function frameworkRoot(root: string): string {
  const installed = path.join(root, 'node_modules', 'fw-mvc');
  return fs.existsSync(path.join(installed, 'runtime', 'views')) ? fs.realpathSync(installed) : PACKAGE_ROOT;
}

/** Posix paths of the files under `dir` whose name ends with `ext`, sorted; `node_modules` and `dist` are skipped. */
export function listFiles(dir: string, ext: string, prefix = ''): string[] {
  if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) return [];
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    if (entry.isDirectory()) out.push(...listFiles(path.join(dir, entry.name), ext, `${prefix}${entry.name}/`));
    else if (entry.isFile() && entry.name.endsWith(ext)) out.push(`${prefix}${entry.name}`);
  }
  return out.sort();
}

/**
 * The 1-based line of offsets of `text` asked in increasing order: each newline is passed once, so a file with
 * tens of thousands of matches costs one pass over its text (recounting from the start for each match did not).
 */
export function lineCounter(text: string): (offset: number) => number {
  let line = 1;
  let nextNewline = text.indexOf('\n');
  let last = 0;
  return (offset) => {
    if (offset < last) throw new RangeError(`lineCounter : offset ${offset} avant ${last}`);
    last = offset;
    while (nextNewline !== -1 && nextNewline < offset) {
      line++;
      nextNewline = text.indexOf('\n', nextNewline + 1);
    }
    return line;
  };
}

/** The literal keys of `text` with their lines, in the order of the text. */
export function keysIn(text: string, file: string): KeyUse[] {
  const uses: KeyUse[] = [];
  const lineAt = lineCounter(text);
  for (const match of text.matchAll(TRANS_CALL)) uses.push({ key: (match[1] ?? match[2])!, file, line: lineAt(match.index) });
  return uses;
}

function namesIn(text: string, pattern: RegExp): string[] {
  return [...text.matchAll(pattern)].map((match) => match[1]!);
}

/** Every literal key the project's code and templates use, with the framework templates they reach. */
export function scanUsage(root: string): Usage {
  const viewsDir = path.join(root, 'mvc', 'views');
  const frameworkViews = path.join(frameworkRoot(root), 'runtime', 'views');
  const uses: KeyUse[] = [];
  const wanted: string[] = [];

  const code = [...(fs.existsSync(path.join(root, 'app.ts')) ? ['app.ts'] : []), ...listFiles(path.join(root, 'mvc'), '.ts').map((file) => `mvc/${file}`)];
  let importsAuth = false;
  let importsMfa = false;
  let usesMediaPages = false;
  for (const file of code) {
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    uses.push(...keysIn(text, file));
    wanted.push(...namesIn(text, TEMPLATE_NAME));
    importsAuth ||= text.includes("'fw-mvc/auth'") || text.includes('"fw-mvc/auth"');
    importsMfa ||= text.includes("'fw-mvc/mfa'") || text.includes('"fw-mvc/mfa"');
    usesMediaPages ||= /\bMediaPages\b/.test(text) && (text.includes("'fw-mvc/media'") || text.includes('"fw-mvc/media"'));
  }
  // The media of the CRUD pages (`MediaPages` of fw-mvc/media) speak through the catalogue from the framework's code.
  const mediaPages = path.join(frameworkRoot(root), 'dist', 'runtime', 'media', 'pages.js');
  if (usesMediaPages && fs.existsSync(mediaPages)) uses.push(...keysIn(fs.readFileSync(mediaPages, 'utf8'), 'fw-mvc/dist/runtime/media/pages.js'));

  const own = new Set(listFiles(viewsDir, '.html'));
  for (const name of own) {
    const text = fs.readFileSync(path.join(viewsDir, name), 'utf8');
    uses.push(...keysIn(text, `mvc/views/${name}`));
  }
  // The runtime renders the error pages itself, and the auth and MFA pages once their module is wired.
  const framework = new Set(listFiles(frameworkViews, '.html'));
  for (const name of framework) {
    if (name.startsWith('errors/') || (importsAuth && name.startsWith('auth/')) || (importsMfa && name.startsWith('mfa/'))) wanted.push(name);
  }
  for (const name of own) wanted.push(...namesIn(fs.readFileSync(path.join(viewsDir, name), 'utf8'), TEMPLATE_TAG));

  // The framework templates reached, and what they extend or include in turn (a project copy wins, as at run time).
  const seen = new Set<string>();
  let templates = own.size;
  while (wanted.length > 0) {
    const name = wanted.pop()!;
    if (seen.has(name) || own.has(name) || !framework.has(name)) continue;
    seen.add(name);
    templates++;
    const text = fs.readFileSync(path.join(frameworkViews, name), 'utf8');
    uses.push(...keysIn(text, `fw-mvc/runtime/views/${name}`));
    wanted.push(...namesIn(text, TEMPLATE_TAG));
  }
  return { uses, templates, codeFiles: code.length };
}
