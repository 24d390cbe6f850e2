/**
 * Every reference to a documentation page resolves. Comments, messages, templates and the docs themselves point at
 * a page as `docs/<page>.md "Section title"` (or « Section title » in French text) or `docs/<page>.md#anchor`,
 * and inside a page at `(#anchor)`: the page must exist, the title must be one of its headings (`#` to `######`,
 * compared without case) and the anchor the GitHub slug of one of them. Fixtures are not scanned: they are inputs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

const ROOT = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
const SELF = path.join('test', 'docs-references.test.ts');

/** The folders scanned, from the repository's root, and the files at the root. */
const FOLDERS = ['compiler', 'runtime', 'emitters', 'cli', 'scripts', 'bench', 'test', 'docs'];
const ROOT_FILES = ['README.md', path.join('snapshots', 'README.md')];
const SKIPPED_FOLDERS = new Set(['fixtures', 'node_modules', 'dist']);
const TEXT_EXTENSIONS = new Set(['.ts', '.mts', '.js', '.mjs', '.md', '.html', '.css', '.sql', '.json', '.txt']);

/** The text files scanned, as paths from the root. */
function scannedFiles(): string[] {
  const files: string[] = [];
  const walk = (folder: string): void => {
    for (const entry of fs.readdirSync(path.join(ROOT, folder), { withFileTypes: true })) {
      const relative = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name)) walk(relative);
      } else if (TEXT_EXTENSIONS.has(path.extname(entry.name)) && relative !== SELF) {
        files.push(relative);
      }
    }
  };
  for (const folder of FOLDERS) walk(folder);
  for (const file of ROOT_FILES) if (fs.existsSync(path.join(ROOT, file))) files.push(file);
  return files;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped (letters, digits, `_`, `-` and spaces stay), spaces to `-`. */
function githubSlug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

interface Page {
  readonly titles: ReadonlySet<string>;
  readonly anchors: ReadonlySet<string>;
}

/** The headings of a Markdown page (outside fenced code), as lower-case titles and as anchors (repeats get `-1`…). */
function pageHeadings(markdown: string): Page {
  const titles = new Set<string>();
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fence: string | null = null;
  for (const line of markdown.split('\n')) {
    const fenceMark = /^\s*(```|~~~)/.exec(line)?.[1];
    if (fenceMark) {
      if (fence === null) fence = fenceMark;
      else if (fence === fenceMark) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const heading = /^#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    titles.add(normalTitle(heading));
    const slug = githubSlug(heading);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return { titles, anchors };
}

/**
 * A title as compared: lower case, without code marks (the page shows none), runs of white space as one space (a
 * comment may wrap it: `*`, `//` and `#` at the start of the next line dropped).
 */
function normalTitle(title: string): string {
  return title
    .replace(/\n\s*(?:\*|\/\/|#)?\s*/g, ' ')
    .replace(/`/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

interface Reference {
  readonly from: string;
  readonly line: number;
  readonly page: string;
  readonly title?: string;
  readonly anchor?: string;
}

/**
 * A quoted section title after a page ("…", « … » or “…”, after a comma or not), the title possibly wrapped onto the
 * next comment line.
 */
const TITLED = /docs\/([a-z0-9-]+\.md),?[ \t]*(?:\n[ \t]*(?:\*|\/\/|#)?[ \t]*)?(?:"([^"\n]{1,80}(?:\n[^"\n]{1,80})?)"|«\s*([^»]{1,120}?)\s*»|“([^”]{1,120})”)/g;
const ANCHORED = /docs\/([a-z0-9-]+\.md)#([\p{L}\p{N}_-]+)/gu;
const IN_PAGE = /\]\(#([\p{L}\p{N}_-]+)\)/gu;

/** Every reference of a file's text. */
function references(from: string, text: string): Reference[] {
  const found: Reference[] = [];
  const lineOf = (index: number): number => text.slice(0, index).split('\n').length;
  for (const match of text.matchAll(TITLED)) {
    const title = match[2] ?? match[3] ?? match[4] ?? '';
    found.push({ from, line: lineOf(match.index), page: match[1]!, title });
  }
  for (const match of text.matchAll(ANCHORED)) {
    found.push({ from, line: lineOf(match.index), page: match[1]!, anchor: match[2]! });
  }
  if (from.startsWith(`docs${path.sep}`) && from.endsWith('.md')) {
    for (const match of text.matchAll(IN_PAGE)) {
      found.push({ from, line: lineOf(match.index), page: path.basename(from), anchor: match[1]! });
    }
  }
  return found;
}

const pages = new Map<string, Page | null>();
function page(name: string): Page | null {
  if (!pages.has(name)) {
    const file = path.join(ROOT, 'docs', name);
    pages.set(name, fs.existsSync(file) ? pageHeadings(fs.readFileSync(file, 'utf8')) : null);
  }
  return pages.get(name)!;
}

/** What is wrong with a reference, or null when it resolves. */
function problem(reference: Reference): string | null {
  const target = page(reference.page);
  const where = `${reference.from}:${reference.line}: docs/${reference.page}`;
  if (target === null) return `${where}: no such page`;
  if (reference.title !== undefined && !target.titles.has(normalTitle(reference.title))) {
    return `${where} "${normalTitle(reference.title)}": no such heading`;
  }
  if (reference.anchor !== undefined && !target.anchors.has(reference.anchor)) {
    return `${where}#${reference.anchor}: no heading has this anchor`;
  }
  return null;
}

const FILES = scannedFiles();
const ALL = FILES.flatMap((file) => references(file, fs.readFileSync(path.join(ROOT, file), 'utf8')));

const S = suite('docs-references: comments and docs point at sections that exist');

S('the scanner reads the three forms, wrapped titles included', () => {
  const text = [
    '// see docs/crud.md "Permissions" and docs/decisions.md#cli-errors-and-exit-codes',
    ' * (docs/entities.md',
    ' * "Generated files"), « voir docs/crud.md, « Permissions » »',
    ' * docs/auth.md "Login',
    ' * limits"',
  ].join('\n');
  const found = references(path.join('cli', 'x.ts'), text).map((r) => [r.page, r.title ?? `#${r.anchor}`, r.line]);
  assert.equal(found, [
    ['crud.md', 'Permissions', 1],
    ['entities.md', 'Generated files', 2],
    ['crud.md', 'Permissions', 3],
    ['auth.md', 'Login\n * limits', 4],
    ['decisions.md', '#cli-errors-and-exit-codes', 1],
  ]);
  assert.equal(normalTitle('Login\n * limits'), 'login limits');
  const inPage = references(path.join('docs', 'x.md'), 'see [below](#the-rule)');
  assert.equal(
    inPage.map((r) => [r.page, r.anchor]),
    [['x.md', 'the-rule']],
  );
});

S('headings and their GitHub anchors (code fences skipped, repeats numbered)', () => {
  const found = pageHeadings(
    ['# Title', '## `fw make:crud`: the list', '```sh', '# not a heading', '```', '### Dates', '## Dates', '#### Déjà vu #'].join('\n'),
  );
  assert.equal([...found.titles], ['title', 'fw make:crud: the list', 'dates', 'déjà vu']);
  assert.equal([...found.anchors], ['title', 'fw-makecrud-the-list', 'dates', 'dates-1', 'déjà-vu']);
});

S('the tree is scanned and holds references of both forms', () => {
  assert.ok(FILES.includes(path.join('docs', 'architecture.md')), 'docs/ is scanned');
  assert.ok(FILES.some((file) => file.startsWith(path.join('runtime', 'views')) && file.endsWith('.html')));
  assert.ok(!FILES.some((file) => file.split(path.sep).includes('fixtures')), 'fixtures are not scanned');
  assert.ok(ALL.filter((r) => r.title !== undefined).length > 20, `${ALL.length} references`);
  assert.ok(ALL.filter((r) => r.anchor !== undefined).length > 10, `${ALL.length} references`);
});

S('every referenced page exists, every quoted title is a heading, every anchor is a heading’s', () => {
  const broken = ALL.map(problem).filter((text): text is string => text !== null);
  assert.equal(broken, [], `\n${broken.join('\n')}\n`);
});

S.run();
