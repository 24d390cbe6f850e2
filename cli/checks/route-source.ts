/**
 * `mvc/routes.ts` (and `mvc/api_routes.ts`, whose routes the server adds to the same router) read as syntax trees
 * (the TypeScript parser that ts-morph carries, loaded on first use), never imported or run: its routes (`*.add('METHOD', '/path', handler, { name })`, on the router or on a group, the
 * group's prefix joined by the router's own rule), the local route files it imports and calls
 * (`registerBlogRoutes(router)` from `./routes_blog.js`, read the same way), `registerRoutes` exported or not, the
 * calls it cannot read (a computed path, spread arguments) and the code that would run when the file is imported.
 * Recognises what the codemods of emitters/codemods/ recognise.
 */
import path from 'node:path';
import type { ts as TsNamespace } from 'ts-morph';
import { groupPattern } from '../../runtime/http/router.js';
import { readSourceFile } from './source-file.js';

export type TS = typeof TsNamespace;
export type SourceFile = TsNamespace.SourceFile;
type Node = TsNamespace.Node;

/** The TypeScript compiler API, loaded once (the one ts-morph carries: a dependency of the framework). */
let loaded: Promise<TS> | null = null;
export function typescript(): Promise<TS> {
  loaded ??= import('ts-morph').then((module) => module.ts);
  return loaded;
}

export const ROUTES_FILE = 'mvc/routes.ts';
export const ROUTES_FUNCTION = 'registerRoutes';
export const API_ROUTES_FILE = 'mvc/api_routes.ts';

/** Where something is: a posix path from the project root, 1-based line and column. */
export interface Place {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

/** `Controller.method` as a route names it. */
export interface HandlerRef {
  readonly object: string;
  readonly member: string;
}

export interface DeclaredRoute extends Place {
  /** As written (the router upper-cases it). */
  readonly method: string;
  /** The full pattern, a group's prefix joined. */
  readonly path: string;
  readonly name: string | null;
  /** `X.y` handlers only; null for any other expression (an arrow function…), which needs no controller. */
  readonly handler: HandlerRef | null;
  /** The parsed file the route is in, to resolve the handler's imports. */
  readonly source: ParsedFile;
}

export interface Unverifiable extends Place {
  readonly reason: string;
}

export interface SyntaxError extends Place {
  readonly message: string;
  /** How many syntax errors the file has. */
  readonly count: number;
}

export interface ParsedFile {
  readonly file: string;
  readonly source: SourceFile;
}

export type ParseOutcome = { readonly ok: true; readonly parsed: ParsedFile } | { readonly ok: false; readonly problem: FileProblem };

export type FileProblem =
  | { readonly kind: 'missing' | 'unreadable'; readonly file: string; readonly reason: string }
  | { readonly kind: 'syntax'; readonly file: string; readonly error: SyntaxError };

export interface RoutesAnalysis {
  /** mvc/routes.ts, the local route files it calls and mvc/api_routes.ts, in the order they were read. */
  readonly files: readonly ParsedFile[];
  /** A file that could not be read or parsed (routes.ts first); when set, the routes are not reliable. */
  readonly problems: readonly FileProblem[];
  readonly exported: boolean;
  readonly routes: readonly DeclaredRoute[];
  /** Calls of route functions of the framework's modules (`registerAuthRoutes(router)` from `fw-mvc/auth`). */
  readonly moduleCalls: readonly string[];
  readonly unverifiable: readonly Unverifiable[];
  /** Top-level statements that run code when the file is imported. */
  readonly sideEffects: readonly Unverifiable[];
}

export function place(ts: TS, parsed: ParsedFile, node: Node): Place {
  const { line, character } = ts.getLineAndCharacterOfPosition(parsed.source, node.getStart(parsed.source));
  return { file: parsed.file, line: line + 1, column: character + 1 };
}

/** The problem of a file the parser (or a walk of its tree) cannot go through: nested too deeply for the stack. */
function tooDeep(file: string, error: unknown): FileProblem {
  const why = error instanceof RangeError ? 'imbrication trop profonde' : error instanceof Error ? error.message.split('\n')[0]! : String(error);
  return { kind: 'unreadable', file, reason: `${file} ne s'analyse pas (${why})` };
}

/**
 * Reads and parses a project file (posix path from the root); a missing, unreadable or mis-written file is a problem.
 * `parents: false` parses about twice as fast, for a file whose nodes are never walked upwards (a controller).
 */
export function parseProjectFile(ts: TS, root: string, file: string, parents = true): ParseOutcome {
  const read = readSourceFile(root, file);
  if (!read.ok) return { ok: false, problem: { kind: read.missing ? 'missing' : 'unreadable', file, reason: read.reason } };
  let source: SourceFile;
  try {
    source = ts.createSourceFile(file, read.text, ts.ScriptTarget.Latest, parents, ts.ScriptKind.TS);
  } catch (error) {
    return { ok: false, problem: tooDeep(file, error) };
  }
  // The parser's own diagnostics: syntax only, no type checking (emitters/codemods/routes-edit.ts reads them too).
  const diagnostics = (source as unknown as { parseDiagnostics?: Array<{ start?: number; messageText: unknown }> }).parseDiagnostics ?? [];
  const first = diagnostics[0];
  if (first) {
    const { line, character } = ts.getLineAndCharacterOfPosition(source, first.start ?? 0);
    const message = ts.flattenDiagnosticMessageText(first.messageText as string, ' ');
    return { ok: false, problem: { kind: 'syntax', file, error: { file, line: line + 1, column: character + 1, message, count: diagnostics.length } } };
  }
  return { ok: true, parsed: { file, source } };
}

function literal(ts: TS, node: Node | undefined): string | null {
  if (node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))) return node.text;
  return null;
}

/** A short excerpt of a node's text for a message. */
export function excerpt(parsed: ParsedFile, node: Node): string {
  const text = node.getText(parsed.source).split(/\r?\n/)[0]!.trim();
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/** A `x.group(prefix, …)` call. */
function isGroupCall(ts: TS, node: Node | undefined): node is TsNamespace.CallExpression {
  return !!node && ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 'group';
}

/** What `receiverPrefix` answers for the router itself (or anything that is not a group). */
const ROUTER = Symbol('router');

/** The prefix the group receiving `x.add(…)` gives (null when computed), or ROUTER for the router itself. */
function receiverPrefix(ts: TS, receiver: Node): string | null | typeof ROUTER {
  const groupPrefix = (call: TsNamespace.CallExpression): string | null => literal(ts, call.arguments[0]);
  if (isGroupCall(ts, receiver)) return groupPrefix(receiver);
  if (!ts.isIdentifier(receiver)) return ROUTER;
  const name = receiver.text;
  for (let scope: Node | undefined = receiver.parent; scope; scope = scope.parent) {
    if (ts.isArrowFunction(scope) || ts.isFunctionExpression(scope) || ts.isFunctionDeclaration(scope) || ts.isMethodDeclaration(scope)) {
      if (scope.parameters.some((p) => ts.isIdentifier(p.name) && p.name.text === name)) {
        const parent = scope.parent;
        return isGroupCall(ts, parent) && parent.arguments[2] === scope ? groupPrefix(parent) : ROUTER;
      }
    }
    if (ts.isBlock(scope) || ts.isSourceFile(scope)) {
      for (const statement of scope.statements) {
        if (!ts.isVariableStatement(statement)) continue;
        const declaration = statement.declarationList.declarations.find((d) => ts.isIdentifier(d.name) && d.name.text === name);
        if (declaration) return isGroupCall(ts, declaration.initializer) ? groupPrefix(declaration.initializer) : ROUTER;
      }
    }
  }
  return ROUTER;
}

/** `name: 'x'` of a route's options literal; undefined when the options are not a literal or the name is computed. */
function routeName(ts: TS, options: Node | undefined): string | null | undefined {
  if (!options) return null;
  if (!ts.isObjectLiteralExpression(options)) return undefined;
  for (const property of options.properties) {
    if (ts.isSpreadAssignment(property)) return undefined;
    if (!property.name || (ts.isIdentifier(property.name) ? property.name.text : literal(ts, property.name)) !== 'name') continue;
    return ts.isPropertyAssignment(property) ? (literal(ts, property.initializer) ?? undefined) : undefined;
  }
  return null;
}

type Imports = Map<string, { readonly from: string; readonly imported: string; readonly typeOnly: boolean }>;
const importsCache = new WeakMap<SourceFile, Imports>();

/** Imports of a file: local name → module specifier and the name it has there (`default` for a default import). */
export function importsOf(ts: TS, source: SourceFile): Imports {
  const cached = importsCache.get(source);
  if (cached) return cached;
  const out: Imports = new Map();
  importsCache.set(source, out);
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const clause = statement.importClause;
    if (!clause) continue;
    const from = statement.moduleSpecifier.text;
    if (clause.name) out.set(clause.name.text, { from, imported: 'default', typeOnly: clause.isTypeOnly });
    const bindings = clause.namedBindings;
    if (bindings && ts.isNamedImports(bindings)) {
      for (const element of bindings.elements) {
        out.set(element.name.text, { from, imported: (element.propertyName ?? element.name).text, typeOnly: clause.isTypeOnly || element.isTypeOnly });
      }
    }
  }
  return out;
}

/** The project file a relative specifier of `from` names (`./controllers/x.js` → `mvc/controllers/x.ts`), or null. */
export function resolveRelative(from: string, specifier: string): string[] {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return [];
  const base = path.posix.join(path.posix.dirname(from), specifier);
  const stem = base.replace(/\.(js|ts|mjs|mts)$/, '');
  return [`${stem}.ts`, `${stem}.mts`, `${base}/index.ts`];
}

/** True when `registerRoutes` is exported by the file (a function, a variable, or an `export { … }` list). */
function exportsRoutesFunction(ts: TS, source: SourceFile): boolean {
  // A named export: `export default function registerRoutes` is the default export, which the server does not call.
  const exported = (node: Node): boolean => {
    const modifiers = (ts.canHaveModifiers(node) ? ts.getModifiers(node) : undefined) ?? [];
    return modifiers.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) && !modifiers.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);
  };
  for (const statement of source.statements) {
    if (ts.isFunctionDeclaration(statement) && statement.name?.text === ROUTES_FUNCTION && exported(statement)) return true;
    if (ts.isVariableStatement(statement) && exported(statement)) {
      if (statement.declarationList.declarations.some((d) => ts.isIdentifier(d.name) && d.name.text === ROUTES_FUNCTION)) return true;
    }
    if (ts.isExportDeclaration(statement) && !statement.isTypeOnly && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
      if (statement.exportClause.elements.some((e) => e.name.text === ROUTES_FUNCTION && !e.isTypeOnly)) return true;
    }
  }
  return false;
}

/** True for an expression that runs nothing when evaluated (a literal, a function, an object of those). */
function inert(ts: TS, node: Node): boolean {
  if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node)) return inert(ts, node.expression);
  if (ts.isArrowFunction(node) || ts.isFunctionExpression(node) || ts.isIdentifier(node)) return true;
  if (ts.isStringLiteral(node) || ts.isNumericLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isRegularExpressionLiteral(node)) return true;
  if (node.kind === ts.SyntaxKind.TrueKeyword || node.kind === ts.SyntaxKind.FalseKeyword || node.kind === ts.SyntaxKind.NullKeyword) return true;
  if (ts.isArrayLiteralExpression(node)) return node.elements.every((e) => inert(ts, e));
  if (ts.isObjectLiteralExpression(node)) {
    return node.properties.every(
      (p) =>
        ts.isMethodDeclaration(p) ||
        ts.isShorthandPropertyAssignment(p) ||
        (ts.isPropertyAssignment(p) && !ts.isComputedPropertyName(p.name) && inert(ts, p.initializer)),
    );
  }
  return false;
}

/** Top-level statements that run code at import (a call, an assignment, a loop…); declarations and imports do not. */
function sideEffects(ts: TS, parsed: ParsedFile): Unverifiable[] {
  const out: Unverifiable[] = [];
  for (const statement of parsed.source.statements) {
    if (
      ts.isImportDeclaration(statement) ||
      ts.isImportEqualsDeclaration(statement) ||
      ts.isExportDeclaration(statement) ||
      ts.isFunctionDeclaration(statement) ||
      ts.isInterfaceDeclaration(statement) ||
      ts.isTypeAliasDeclaration(statement) ||
      ts.isModuleDeclaration(statement) ||
      ts.isEmptyStatement(statement) ||
      (ts.isClassDeclaration(statement) && !statement.members.some((m) => ts.isClassStaticBlockDeclaration(m))) ||
      (ts.isExportAssignment(statement) && inert(ts, statement.expression)) ||
      (ts.isVariableStatement(statement) && statement.declarationList.declarations.every((d) => !d.initializer || inert(ts, d.initializer)))
    ) {
      continue;
    }
    out.push({ ...place(ts, parsed, statement), reason: excerpt(parsed, statement) });
  }
  return out;
}

interface FileRoutes {
  routes: DeclaredRoute[];
  unverifiable: Unverifiable[];
  /** Relative files whose imported functions the file calls (route files of local modules). */
  called: string[][];
  moduleCalls: string[];
}

/** The routes of one parsed file, the calls it cannot read, and the route functions it calls. */
function fileRoutes(ts: TS, parsed: ParsedFile): FileRoutes {
  const out: FileRoutes = { routes: [], unverifiable: [], called: [], moduleCalls: [] };
  const imports = importsOf(ts, parsed.source);
  const visit = (node: Node): void => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'add' && (node.arguments.length >= 3 || node.arguments.some(ts.isSpreadElement))) {
        addCall(node, callee);
      } else if (ts.isIdentifier(callee) && node.arguments.length > 0) {
        const binding = imports.get(callee.text);
        if (binding && !binding.typeOnly) {
          const files = resolveRelative(parsed.file, binding.from);
          if (files.length > 0) out.called.push(files);
          else if (/^fw-mvc(\/|$)/.test(binding.from) && /^register\w*Routes$/.test(binding.imported)) out.moduleCalls.push(binding.imported);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  const addCall = (call: TsNamespace.CallExpression, callee: TsNamespace.PropertyAccessExpression): void => {
    const where = place(ts, parsed, call);
    const skip = (reason: string): void => void out.unverifiable.push({ ...where, reason: `${excerpt(parsed, call)} : ${reason}` });
    const [methodArg, pathArg, handlerArg, optionsArg] = call.arguments;
    if (call.arguments.slice(0, 4).some((a) => ts.isSpreadElement(a))) return skip('arguments étalés (« ... »)');
    const method = literal(ts, methodArg);
    if (method === null) return skip('méthode calculée');
    const pattern = literal(ts, pathArg);
    if (pattern === null) return skip('chemin calculé');
    const prefix = receiverPrefix(ts, callee.expression);
    if (prefix === null) return skip('préfixe de groupe calculé');
    const name = routeName(ts, optionsArg);
    if (name === undefined) out.unverifiable.push({ ...where, reason: `${excerpt(parsed, call)} : options calculées, nom non vérifié` });
    const handler =
      handlerArg && ts.isPropertyAccessExpression(handlerArg) && ts.isIdentifier(handlerArg.expression)
        ? { object: handlerArg.expression.text, member: handlerArg.name.text }
        : null;
    const full = prefix === ROUTER ? pattern : groupPattern(prefix, pattern);
    out.routes.push({ ...where, method, path: full, name: name ?? null, handler, source: parsed });
  };
  visit(parsed.source);
  return out;
}

/** Reads mvc/routes.ts and the local route files it calls; never throws for a bad file. */
export async function analyseRoutes(root: string): Promise<RoutesAnalysis> {
  const ts = await typescript();
  const analysis = {
    files: [] as ParsedFile[],
    problems: [] as FileProblem[],
    exported: false,
    routes: [] as DeclaredRoute[],
    moduleCalls: [] as string[],
    unverifiable: [] as Unverifiable[],
    sideEffects: [] as Unverifiable[],
  };
  const seen = new Set<string>();
  const read = (candidates: readonly string[], required: boolean): void => {
    let outcome: ParseOutcome | null = null;
    for (const candidate of candidates) {
      if (seen.has(candidate)) return;
      outcome = parseProjectFile(ts, root, candidate);
      if (outcome.ok || outcome.problem.kind !== 'missing') {
        seen.add(candidate);
        break;
      }
    }
    if (!outcome) return;
    if (!outcome.ok) {
      // A relative import that is not a project file (a missing module) is for the type checker, not for this check.
      if (required || outcome.problem.kind !== 'missing') analysis.problems.push(outcome.problem);
      return;
    }
    let found: FileRoutes;
    let effects: Unverifiable[];
    try {
      found = fileRoutes(ts, outcome.parsed);
      effects = sideEffects(ts, outcome.parsed);
    } catch (error) {
      analysis.problems.push(tooDeep(outcome.parsed.file, error));
      return;
    }
    analysis.files.push(outcome.parsed);
    if (required) analysis.exported = exportsRoutesFunction(ts, outcome.parsed.source);
    analysis.sideEffects.push(...effects);
    analysis.routes.push(...found.routes);
    analysis.unverifiable.push(...found.unverifiable);
    analysis.moduleCalls.push(...found.moduleCalls);
    for (const called of found.called) read(called, false);
  };
  read([ROUTES_FILE], true);
  // The server adds the routes of mvc/api_routes.ts to the same router (runtime/application.ts `loadApiRoutes`), when it exists.
  if (analysis.files.length > 0) read([API_ROUTES_FILE], false);
  return analysis;
}
