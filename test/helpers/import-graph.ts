/**
 * The import graph of the framework's own sources, read with the TypeScript parser (no type checking): every
 * `import` / `export … from`, `import()` and `require()` of a string, what kind of edge it is, and the file or
 * package it names. test/architecture-imports.test.ts checks it against docs/architecture.md "What may import what".
 */
import fs from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import ts from 'typescript';

/**
 * `value`: a static import that loads the module with its importer; `type`: erased at compile time (`import type`,
 * `export type … from`, an import whose every name is `type`, an `import('…')` type); `dynamic`: loaded when the
 * code runs (`import()`, `require()`).
 */
export type EdgeKind = 'value' | 'type' | 'dynamic';

export interface ImportEdge {
  /** The importing file, from the repository's root, with `/`. */
  readonly from: string;
  /** The specifier as written. */
  readonly specifier: string;
  readonly kind: EdgeKind;
  /** Line of the import in `from` (1-based). */
  readonly line: number;
  /** A relative specifier: the file it names, from the root (`runtime/paths.ts`); undefined for a package. */
  readonly file?: string;
  /** A bare specifier: the package (`ts-morph`, `@scope/name`) or the built-in with its `node:` prefix (`node:fs`). */
  readonly pkg?: string;
}

/** Every `.ts` file under `folders` (from `root`), sorted, with `/`; `skip` names folders left out (`templates`). */
export function sourceFiles(root: string, folders: readonly string[], skip: readonly string[] = []): string[] {
  const out: string[] = [];
  const walk = (relative: string): void => {
    for (const entry of fs.readdirSync(path.join(root, relative), { withFileTypes: true })) {
      const child = `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!skip.includes(child)) walk(child);
      } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
        out.push(child);
      }
    }
  };
  for (const folder of folders) walk(folder);
  return out.sort();
}

/** The package a bare specifier loads: `node:fs/promises` → `node:fs`, `fs` → `node:fs`, `@a/b/c` → `@a/b`. */
export function packageOf(specifier: string): string {
  if (specifier.startsWith('node:')) return `node:${specifier.slice(5).split('/')[0]}`;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
  return isBuiltin(name) ? `node:${name}` : name;
}

/** The `.ts` (or `.json`) file a relative specifier of `from` names, from the root; the bare join when none exists. */
function resolveRelative(root: string, from: string, specifier: string): string {
  const joined = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  const candidates = [joined.replace(/\.js$/, '.ts'), joined, `${joined}.ts`, `${joined}/index.ts`];
  return candidates.find((candidate) => fs.existsSync(path.join(root, candidate)) && fs.statSync(path.join(root, candidate)).isFile()) ?? joined;
}

/** True when an import declaration loads nothing at run time (TypeScript erases it). */
function importIsTypeOnly(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return false; // `import './x.js'`: loaded for its effects
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  const bindings = clause.namedBindings;
  if (!bindings || ts.isNamespaceImport(bindings)) return false;
  return bindings.elements.length > 0 && bindings.elements.every((element) => element.isTypeOnly);
}

/** True when an `export … from` re-exports only types. */
function exportIsTypeOnly(node: ts.ExportDeclaration): boolean {
  if (node.isTypeOnly) return true;
  const clause = node.exportClause;
  return !!clause && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((element) => element.isTypeOnly);
}

/** The imports of one file (`file` from `root`, with `/`). */
export function importsOf(root: string, file: string): ImportEdge[] {
  const text = fs.readFileSync(path.join(root, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const edges: ImportEdge[] = [];
  const add = (literal: ts.Node, kind: EdgeKind): void => {
    if (!ts.isStringLiteralLike(literal)) return; // a computed import(): nothing to resolve
    const specifier = literal.text;
    const line = source.getLineAndCharacterOfPosition(literal.getStart(source)).line + 1;
    if (specifier.startsWith('.')) edges.push({ from: file, specifier, kind, line, file: resolveRelative(root, file, specifier) });
    else edges.push({ from: file, specifier, kind, line, pkg: packageOf(specifier) });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) add(node.moduleSpecifier, importIsTypeOnly(node) ? 'type' : 'value');
    else if (ts.isExportDeclaration(node) && node.moduleSpecifier) add(node.moduleSpecifier, exportIsTypeOnly(node) ? 'type' : 'value');
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node.moduleReference.expression, node.isTypeOnly ? 'type' : 'value');
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal, 'type');
    else if (ts.isCallExpression(node) && node.arguments.length > 0) {
      const callee = node.expression;
      const isImport = callee.kind === ts.SyntaxKind.ImportKeyword;
      // `require('x')`, `createRequire(import.meta.url)('x')`
      const isRequire =
        (ts.isIdentifier(callee) && callee.text === 'require') ||
        (ts.isCallExpression(callee) && ts.isIdentifier(callee.expression) && callee.expression.text === 'createRequire');
      if (isImport || isRequire) add(node.arguments[0]!, 'dynamic');
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return edges;
}

/** The imports of every file of `files`, by importing file. */
export function importGraph(root: string, files: readonly string[]): Map<string, ImportEdge[]> {
  return new Map(files.map((file) => [file, importsOf(root, file)]));
}

/**
 * The files and packages `start` loads with it: the closure of its `value` edges (not `type`, not `dynamic`).
 * Each reached file or package maps to the chain of files that leads to it (`start` first).
 */
export function staticClosure(graph: ReadonlyMap<string, readonly ImportEdge[]>, start: string): Map<string, string[]> {
  const reached = new Map<string, string[]>([[start, [start]]]);
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift()!;
    const chain = reached.get(file)!;
    for (const edge of graph.get(file) ?? []) {
      if (edge.kind !== 'value') continue;
      const target = edge.file ?? edge.pkg!;
      if (reached.has(target)) continue;
      reached.set(target, [...chain, target]);
      if (edge.file && graph.has(edge.file)) queue.push(edge.file);
    }
  }
  return reached;
}

/** The import cycles among `files` through their `value` and `dynamic` edges, each as its files in order (the first repeated last). */
export function importCycles(graph: ReadonlyMap<string, readonly ImportEdge[]>, files: ReadonlySet<string>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    stack.push(file);
    for (const edge of graph.get(file) ?? []) {
      if (edge.kind === 'type' || !edge.file || !files.has(edge.file)) continue;
      const seen = state.get(edge.file);
      if (seen === 'open') cycles.push([...stack.slice(stack.indexOf(edge.file)), edge.file]);
      else if (seen === undefined) visit(edge.file);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of [...files].sort()) if (!state.has(file)) visit(file);
  return cycles;
}
