/**
 * Adds routes to `mvc/routes.ts` through its syntax tree (ts-morph): existing routes are recognised by the
 * method and path of their `*.add('METHOD', '/path', …)` calls (on groups too: a `group()` callback's
 * parameter, a chained `group()`, a variable holding one, joined as `RouteGroup.add` joins them), never by
 * comparing text; the import is added once; the user's code stays byte for byte as it was, the
 * new lines are spliced in at positions read from the tree. A pure function: text in, text out.
 */
import { Node, Project, SyntaxKind, type Block, type SourceFile } from 'ts-morph';
import { declaredRouteCalls, declaredRoutes, routeKey, type DeclaredRoute } from './routes-declared.js';
import { boundNames, controllerBinding, freeAlias } from './routes-import.js';
import { asksPublic, mismatch, routePublicFlag, type RouteMismatch } from './routes-public.js';
import {
  declaredMenuPaths,
  importLine,
  manualLines,
  menuLine,
  pasteLines,
  routeLine,
  ROUTER_IMPORT,
  ROUTES_FUNCTION,
  type ImportToAdd,
  type MenuToAdd,
  type RouteToAdd,
} from './routes-lines.js';

export type { RouteMismatch } from './routes-public.js';
export { declaredRoute, declaredRoutes, type DeclaredRoute } from './routes-declared.js';
export { manualLines, ROUTES_FUNCTION, type ImportToAdd, type MenuToAdd, type RouteToAdd } from './routes-lines.js';

export interface RoutesEdit {
  /** The new text (identical to the input when nothing was missing). */
  readonly text: string;
  readonly added: readonly RouteToAdd[];
  readonly existing: readonly RouteToAdd[];
  /**
   * The existing routes whose public flag differs from the request (`public: true` in `RouteToAdd.options`), with the
   * line to change and what it should become. Never changed in the text: the user's routes are the user's code.
   */
  readonly mismatched: readonly RouteMismatch[];
  readonly importAdded: boolean;
  /** The menu entries added (those whose path had no `*.menu()` call yet). */
  readonly menuAdded: readonly MenuToAdd[];
}

/** The file cannot be edited safely: the message says why and, when useful, gives the lines to paste by hand. */
export class RoutesEditError extends Error {
  override readonly name = 'RoutesEditError';
  constructor(
    message: string,
    /** The exact lines to paste by hand (imports first), or '' when the file must be fixed first. */
    readonly manualLines: string,
    /** Where the lines after the imports go: a whole `registerRoutes` to add to the file, or routes for the one it has. */
    readonly placement: 'file' | 'function' = 'file',
  ) {
    super(message);
  }
}

/**
 * Whether each route asks to be public: its options literal (`RouteToAdd.options`) read through the parser, all in one
 * file, as the flag of a route of routes.ts is read (a literal `public: true`).
 */
function requestedFlags(routes: readonly RouteToAdd[]): boolean[] {
  const list = parse(`void [${routes.map((r) => `(${r.options})`).join(', ')}];`).getDescendantsOfKind(SyntaxKind.ArrayLiteralExpression)[0];
  return (list?.getElements() ?? []).map((element) => asksPublic(Node.isParenthesizedExpression(element) ? element.getExpression() : element));
}

/** The existing routes whose public flag (when it can be told) is not the requested one. */
function mismatches(source: SourceFile, declared: Map<string, DeclaredRoute>, existing: readonly RouteToAdd[]): RouteMismatch[] {
  if (existing.length === 0) return [];
  const wanted = requestedFlags(existing);
  const out: RouteMismatch[] = [];
  existing.forEach((route, index) => {
    const found = declared.get(routeKey(route.method, route.path));
    if (!found) return;
    const isPublic = routePublicFlag(found.call, found.group);
    const asked = wanted[index] === true;
    if (isPublic !== null && isPublic !== asked) out.push(mismatch(source, found.call, found.group, route, isPublic, asked));
  });
  return out;
}

/** The route with its handler on `local` (`ContactController.index` → `CrudContactController.index`). */
function onBinding(route: RouteToAdd, name: string, local: string): RouteToAdd {
  return local !== name && route.handler.startsWith(`${name}.`) ? { ...route, handler: local + route.handler.slice(name.length) } : route;
}

/** The parser's syntax errors, as `ligne L, colonne C : message`. */
export function parseErrors(source: SourceFile): string[] {
  // The parser's own diagnostics: syntax only, no type checking (fast, and independent of the project's types).
  const diagnostics = (source.compilerNode as unknown as { parseDiagnostics?: Array<{ start?: number; messageText: unknown }> }).parseDiagnostics ?? [];
  return diagnostics.map((d) => {
    const { line, column } = source.getLineAndColumnAtPos(d.start ?? 0);
    const text = typeof d.messageText === 'string' ? d.messageText : String((d.messageText as { messageText?: string }).messageText ?? '');
    return `ligne ${line}, colonne ${column} : ${text}`;
  });
}

/** Parses the text of a routes file in memory (no disk, no type checking). */
export function parse(text: string): SourceFile {
  const project = new Project({ useInMemoryFileSystem: true, skipFileDependencyResolution: true, compilerOptions: { allowJs: false } });
  return project.createSourceFile('/routes.ts', text, { overwrite: true });
}

/** A `registerRoutes` with a block body and a parameter: where lines can be added. */
export interface BlockAnchor {
  readonly kind: 'block';
  readonly body: Block;
  readonly parameter: string;
  readonly statement: Node;
}

/** Where `registerRoutes` is, and whether routes can be added to it. */
export type Anchor =
  BlockAnchor | { readonly kind: 'expression-body' | 'no-parameter'; readonly line: number; readonly parameter: string | null } | { readonly kind: 'missing' };

/**
 * The anchor: `function registerRoutes(router) { … }`, or a variable holding an arrow function or a function
 * expression (`const registerRoutes = (router: Router): void => { … };`), through parentheses, `as` and `satisfies`.
 * Routes go into a block body; an arrow whose body is an expression, or a function without a parameter, has no place
 * for them.
 */
export function findAnchor(source: SourceFile): Anchor {
  let fn: Node | undefined = source.getFunction(ROUTES_FUNCTION);
  let statement: Node | undefined = fn;
  if (!fn) {
    const declaration = source.getVariableDeclaration(ROUTES_FUNCTION);
    fn = declaration?.getInitializer();
    while (fn && (Node.isParenthesizedExpression(fn) || Node.isAsExpression(fn) || Node.isSatisfiesExpression(fn))) fn = fn.getExpression();
    statement = declaration?.getVariableStatement() ?? declaration;
  }
  if (!fn || !statement || !(Node.isFunctionDeclaration(fn) || Node.isArrowFunction(fn) || Node.isFunctionExpression(fn))) return { kind: 'missing' };
  const body = fn.getBody();
  if (!body) return { kind: 'missing' };
  const parameter = fn.getParameters()[0]?.getName() ?? null;
  const line = fn.getStartLineNumber();
  if (!Node.isBlock(body)) return { kind: 'expression-body', line, parameter };
  if (parameter === null) return { kind: 'no-parameter', line, parameter };
  return { kind: 'block', body, parameter, statement };
}

/**
 * Adds the missing routes (and the import, once) to the text of `mvc/routes.ts`. Routes go at the end of the
 * body of `registerRoutes(router)` (a function, or an arrow or function expression with a block body), after a comment line, indented like the function's first statement. The
 * controller is the file's own import of it when there is one (under its local name); the import is added when
 * the name is free; a name bound to something else, or imported as a type only, is refused (RoutesEditError).
 */
export function addRoutes(
  text: string,
  file: string,
  imp: ImportToAdd,
  routes: readonly RouteToAdd[],
  comment: string,
  menu: readonly MenuToAdd[] = [],
): RoutesEdit {
  return keepingBom(text, (bare) => addRoutesTo(bare, file, imp, routes, comment, menu));
}

/**
 * Runs an edit on the text without its byte order mark and puts the mark back: the syntax tree counts its positions
 * from after the mark, so the splices would land one character early (docs/crud.md "Routes": the file's line ends
 * and its mark are kept).
 */
export function keepingBom<T extends { text: string }>(text: string, edit: (text: string) => T): T {
  if (!text.startsWith('\uFEFF')) return edit(text);
  const result = edit(text.slice(1));
  return { ...result, text: `\uFEFF${result.text}` };
}

function addRoutesTo(text: string, file: string, imp: ImportToAdd, routes: readonly RouteToAdd[], comment: string, menu: readonly MenuToAdd[]): RoutesEdit {
  const source = parse(text);
  const errors = parseErrors(source);
  if (errors.length) throw new RoutesEditError(`${file} ne se lit pas (${errors.join(' ; ')}) : corrigez-le, puis relancez la commande.`, '');
  const declared = declaredRouteCalls(source);
  const missing = routes.filter((r) => !declared.has(routeKey(r.method, r.path)));
  const existing = routes.filter((r) => declared.has(routeKey(r.method, r.path)));
  const mismatched = mismatches(source, declared, existing);
  const menuPaths = declaredMenuPaths(source);
  const menuMissing = menu.filter((entry) => !menuPaths.has(entry.path));
  if (missing.length === 0) {
    // The routes are there (pasted, or of an earlier release): only the menu entries they lack go in.
    const menuText = menuMissing.length === 0 ? text : spliceMenu(text, source, file, menuMissing, comment);
    return { text: menuText, added: [], existing, mismatched, importAdded: false, menuAdded: menuMissing };
  }

  const binding = controllerBinding(source, imp.name, imp.from);
  if (binding.kind === 'type-only') {
    throw new RoutesEditError(
      `${file} importe ${imp.name} comme un type seulement (ligne ${binding.line} : « ${binding.text} ») : les routes ont besoin de la classe. Remplacez cet import par « ${importLine(imp)} », puis relancez la commande.`,
      '',
    );
  }
  // The name the routes use: the file's import of the controller, else its name, else (taken) an alias of it.
  const local = binding.kind === 'imported' ? binding.local : binding.kind === 'taken' ? freeAlias(source, imp.name) : imp.name;
  const bound: ImportToAdd = local === imp.name ? imp : { ...imp, alias: local };
  const toAdd = missing.map((r) => onBinding(r, imp.name, local));
  const taken = binding.kind === 'taken' ? ` « ${imp.name} » est déjà pris par ${binding.by} (ligne ${binding.line} : « ${binding.text} »)` : '';

  const anchor = findAnchor(source);
  if (anchor.kind !== 'block') {
    const also = taken ? ` De plus,${taken} : les lignes ci-dessous importent le contrôleur sous le nom ${local}.` : '';
    const controller = binding.kind === 'imported' ? null : bound;
    if (anchor.kind === 'missing') {
      throw new RoutesEditError(
        `${file} : la fonction « export function ${ROUTES_FUNCTION}(router: Router) » est introuvable, les routes ne peuvent pas y être ajoutées automatiquement.${also}`,
        manualLines(controller, toAdd, { routerImport: !boundNames(source).has('Router'), menu: menuMissing }),
      );
    }
    // The function is there: the lines go into it, a second registerRoutes would not compile.
    const fix =
      anchor.kind === 'expression-body'
        ? `est une fonction fléchée sans bloc (« => expression ») : il n'y a pas d'endroit où ajouter les routes. Donnez-lui un corps entre accolades, { … }, et collez-y les routes`
        : `n'a pas de paramètre : les routes ne sauraient pas sur quel routeur s'ajouter. Donnez-lui le paramètre (router: Router) et collez les routes dans son corps`;
    const routerImport = anchor.kind === 'no-parameter' && !boundNames(source).has('Router') ? [ROUTER_IMPORT] : [];
    throw new RoutesEditError(
      `${file} : la fonction « ${ROUTES_FUNCTION} » (ligne ${anchor.line}) ${fix}.${also}`,
      pasteLines(controller, toAdd, anchor.parameter ?? 'router', routerImport, menuMissing),
      'function',
    );
  }
  const { parameter } = anchor;
  const variable = parameter;
  if (binding.kind === 'taken') {
    throw new RoutesEditError(
      `${file} :${taken} : les routes générées désigneraient cet autre ${imp.name}. Les lignes ci-dessous importent le contrôleur sous le nom ${local}.`,
      pasteLines(bound, toAdd, variable, [], menuMissing),
      'function',
    );
  }
  const importAdded = binding.kind === 'free';
  const lines = [`// ${comment}`, ...toAdd.map((r) => routeLine(variable, r)), ...menuMissing.map((entry) => menuLine(variable, entry))];
  const next = spliceIntoBody(text, source, anchor, lines, importAdded ? importLine(imp) : null);

  const check = parse(next);
  const after = declaredRoutes(check);
  if (parseErrors(check).length || missing.some((r) => !after.has(routeKey(r.method, r.path)))) {
    throw new RoutesEditError(
      `${file} : l'ajout automatique des routes a échoué, rien n'a été écrit.`,
      pasteLines(importAdded ? imp : null, toAdd, variable, [], menuMissing),
      'function',
    );
  }
  return { text: next, added: toAdd, existing, mismatched, importAdded, menuAdded: menuMissing };
}

/**
 * `entries` (none of them in the file yet) spliced at the end of `registerRoutes`, after the comment line; a file
 * without a block anchor is refused with the lines to paste (RoutesEditError).
 */
export function spliceMenu(text: string, source: SourceFile, file: string, entries: readonly MenuToAdd[], comment: string | null): string {
  const anchor = findAnchor(source);
  if (anchor.kind !== 'block') {
    const where = anchor.kind === 'missing' ? 'est introuvable' : `(ligne ${anchor.line}) n'a pas de corps entre accolades avec un paramètre`;
    throw new RoutesEditError(
      `${file} : la fonction « ${ROUTES_FUNCTION} » ${where}, le menu ne peut pas y être complété automatiquement.`,
      pasteLines(null, [], anchor.kind === 'missing' ? 'router' : (anchor.parameter ?? 'router'), [], entries),
      'function',
    );
  }
  const lines = [...(comment === null ? [] : [`// ${comment}`]), ...entries.map((entry) => menuLine(anchor.parameter, entry))];
  const next = spliceIntoBody(text, source, anchor, lines, null);
  const check = parse(next);
  const after = declaredMenuPaths(check);
  if (parseErrors(check).length || entries.some((entry) => !after.has(entry.path))) {
    throw new RoutesEditError(
      `${file} : l'ajout automatique du menu a échoué, rien n'a été écrit.`,
      pasteLines(null, [], anchor.parameter, [], entries),
      'function',
    );
  }
  return next;
}

/**
 * Splices `lines` at the end of the anchor's body (after its last statement, before the closing brace, on lines of
 * their own), each indented like the body's first statement (else the function's own indentation plus two spaces),
 * and `importText` after the file's last import (after a comment that ends that import's line), or at the top of a
 * file without imports. Everything else stays byte for byte; the file's line ending is kept.
 */
export function spliceIntoBody(text: string, source: SourceFile, anchor: BlockAnchor, lines: readonly string[], importText: string | null): string {
  const { body, statement } = anchor;
  const newline = text.includes('\r\n') ? '\r\n' : '\n';
  const lineIndent = (pos: number): string => {
    const start = text.lastIndexOf('\n', pos - 1) + 1;
    return /^[ \t]*/.exec(text.slice(start))?.[0] ?? '';
  };
  const first = body.getStatements()[0];
  const indent = first ? lineIndent(first.getStart()) : `${lineIndent(statement.getStart())}  `;
  const indented = lines.map((line) => indent + line);

  // Splice the lines in before the closing brace of the body: on its own line when the brace starts its line.
  const edits: Array<{ at: number; insert: string }> = [];
  const close = body.getEnd() - 1;
  const lineStart = text.lastIndexOf('\n', close - 1) + 1;
  if (/^[ \t]*$/.test(text.slice(lineStart, close))) edits.push({ at: lineStart, insert: indented.join(newline) + newline });
  else edits.push({ at: close, insert: `${newline}${indented.join(newline)}${newline}` });

  if (importText !== null) {
    const imports = source.getImportDeclarations();
    const last = imports[imports.length - 1];
    if (last) {
      // After a comment that ends the import's line, so that the comment stays with its import.
      const lineEnd = text.slice(last.getEnd()).search(/\r?\n|$/) + last.getEnd();
      const at = /^[ \t]*(\/\/.*)?$/.test(text.slice(last.getEnd(), lineEnd)) ? lineEnd : last.getEnd();
      edits.push({ at, insert: `${newline}${importText}` });
    } else {
      edits.push({ at: 0, insert: `${importText}${newline}` });
    }
  }
  // From the end backwards, so that each position read from the tree is still right when it is used.
  let next = text;
  for (const edit of edits.sort((a, b) => b.at - a.at)) next = next.slice(0, edit.at) + edit.insert + next.slice(edit.at);
  return next;
}
