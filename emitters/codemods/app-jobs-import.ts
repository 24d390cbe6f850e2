/**
 * The import of the jobs index in `app.ts` (docs/jobs.md "Commands"): `serve()` runs the project's jobs only when
 * the application loads their definitions, so `fw make:job` adds `import './mvc/jobs/index.js';` after the file's
 * last import. Read from the syntax tree: an import of that module written any way (with or without `index`, `.js`
 * or `.ts`, side-effect or named, an `export … from` or a dynamic `import()`) counts as present and the file is left
 * as it is; otherwise only that line is added, the rest of the file kept byte for byte.
 */
import { Node, Project, SyntaxKind, type SourceFile } from 'ts-morph';

export const APP_FILE = 'app.ts';
export const JOBS_IMPORT_SPECIFIER = './mvc/jobs/index.js';
const JOBS_IMPORT = `import '${JOBS_IMPORT_SPECIFIER}';`;

/** `./mvc/jobs/index.js`, `./mvc/jobs/index`, `./mvc/jobs/` and `./mvc/jobs` → `mvc/jobs`. */
function moduleKey(specifier: string): string {
  return specifier
    .replace(/^\.\//, '')
    .replace(/\/+$/, '')
    .replace(/\.(?:[cm]?[jt]s)$/, '')
    .replace(/\/index$/, '');
}

function isJobsIndex(specifier: string | undefined): boolean {
  return specifier !== undefined && moduleKey(specifier) === 'mvc/jobs';
}

function parse(text: string): SourceFile {
  const project = new Project({ useInMemoryFileSystem: true, skipFileDependencyResolution: true });
  return project.createSourceFile('/app.ts', text, { overwrite: true });
}

/** True when `text` (an `app.ts`) already loads the jobs index. */
export function importsJobsIndex(text: string): boolean {
  const source = parse(text);
  if (source.getImportDeclarations().some((decl) => isJobsIndex(decl.getModuleSpecifierValue()))) return true;
  if (source.getExportDeclarations().some((decl) => isJobsIndex(decl.getModuleSpecifierValue()))) return true;
  return source.getDescendants().some((node) => {
    if (!Node.isCallExpression(node) || node.getExpression().getKind() !== SyntaxKind.ImportKeyword) return false;
    const [first] = node.getArguments();
    return first !== undefined && Node.isStringLiteral(first) && isJobsIndex(first.getLiteralValue());
  });
}

/** `text` with the import of the jobs index added after its last import, or null when it already has one. */
export function withJobsImport(text: string): string | null {
  if (importsJobsIndex(text)) return null;
  const source = parse(text);
  const imports = source.getImportDeclarations();
  const last = imports.at(-1);
  if (last) {
    const end = last.getEnd();
    return `${text.slice(0, end)}\n${JOBS_IMPORT}${text.slice(end)}`;
  }
  const first = source.getStatements()[0];
  if (!first) return `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}${JOBS_IMPORT}\n`;
  const start = first.getStart();
  return `${text.slice(0, start)}${JOBS_IMPORT}\n${text.slice(start)}`;
}
