/**
 * Adds routes to `mvc/routes.ts` through its syntax tree (ts-morph): existing routes are recognised by the
 * method and path of their `*.add('METHOD', '/path', …)` calls (inside `group()` callbacks too, with the group's
 * prefix), never by comparing text; the import is added once; the user's code stays byte for byte as it was, the
 * new lines are spliced in at positions read from the tree. A pure function: text in, text out.
 */
import { Node, Project, SyntaxKind, type CallExpression, type SourceFile } from 'ts-morph';

export interface RouteToAdd {
  readonly method: string;
  readonly path: string;
  /** The handler expression, e.g. `ContactController.index`. */
  readonly handler: string;
  /** The options object literal, e.g. `{ name: 'contacts.index', public: true }`. */
  readonly options: string;
}

export interface ImportToAdd {
  /** Named import, e.g. `ContactController`. */
  readonly name: string;
  /** Module specifier, e.g. `./controllers/contact_controller.js`. */
  readonly from: string;
}

export interface RoutesEdit {
  /** The new text (identical to the input when nothing was missing). */
  readonly text: string;
  readonly added: readonly RouteToAdd[];
  readonly existing: readonly RouteToAdd[];
  readonly importAdded: boolean;
}

/** The file cannot be edited safely: the message says why and, when useful, gives the lines to paste by hand. */
export class RoutesEditError extends Error {
  override readonly name = 'RoutesEditError';
  constructor(
    message: string,
    /** The exact lines to paste by hand (import first), or '' when the file must be fixed first. */
    readonly manualLines: string,
  ) {
    super(message);
  }
}

/** The function that generators add routes to. */
export const ROUTES_FUNCTION = 'registerRoutes';

/** `/contacts/{contact_id}` and `/contacts/{id}` are the same route. */
function routeKey(method: string, path: string): string {
  const normalised = path.replace(/\{[^}]*\}/g, '{}').replace(/\/+$/, '') || '/';
  return `${method.toUpperCase()} ${normalised}`;
}

function stringValue(node: Node | undefined): string | null {
  if (node && (Node.isStringLiteral(node) || Node.isNoSubstitutionTemplateLiteral(node))) return node.getLiteralText();
  return null;
}

/** The prefixes of the `x.group('/prefix', …, (g) => { … })` calls around a node, outermost first. */
function groupPrefix(call: CallExpression): string {
  let prefix = '';
  for (const ancestor of call.getAncestors()) {
    if (!Node.isCallExpression(ancestor)) continue;
    const callee = ancestor.getExpression();
    if (!Node.isPropertyAccessExpression(callee) || callee.getName() !== 'group') continue;
    const first = stringValue(ancestor.getArguments()[0]);
    if (first !== null) prefix = first.replace(/\/+$/, '') + prefix;
  }
  return prefix;
}

/** Every `*.add('METHOD', '/path', …)` of the file, as `METHOD /path` keys. */
export function declaredRoutes(source: SourceFile): Set<string> {
  const keys = new Set<string>();
  for (const call of source.getDescendantsOfKind(SyntaxKind.CallExpression)) {
    const callee = call.getExpression();
    if (!Node.isPropertyAccessExpression(callee) || callee.getName() !== 'add') continue;
    const [methodArg, pathArg] = call.getArguments();
    const method = stringValue(methodArg);
    const path = stringValue(pathArg);
    if (method === null || path === null) continue;
    keys.add(routeKey(method, groupPrefix(call) + path));
  }
  return keys;
}

function importLine(imp: ImportToAdd): string {
  return `import { ${imp.name} } from '${imp.from}';`;
}

function routeLine(variable: string, route: RouteToAdd): string {
  return `${variable}.add('${route.method}', '${route.path}', ${route.handler}, ${route.options});`;
}

/** What to paste by hand when the file has no usable anchor. */
export function manualLines(imp: ImportToAdd, routes: readonly RouteToAdd[]): string {
  return [importLine(imp), '', `export function ${ROUTES_FUNCTION}(router: Router): void {`, ...routes.map((r) => `  ${routeLine('router', r)}`), '}'].join('\n');
}

function hasNamedImport(source: SourceFile, imp: ImportToAdd): boolean {
  return source.getImportDeclarations().some((decl) => decl.getNamedImports().some((named) => (named.getAliasNode()?.getText() ?? named.getName()) === imp.name));
}

function parseErrors(source: SourceFile): string[] {
  // The parser's own diagnostics: syntax only, no type checking (fast, and independent of the project's types).
  const diagnostics = (source.compilerNode as unknown as { parseDiagnostics?: Array<{ start?: number; messageText: unknown }> }).parseDiagnostics ?? [];
  return diagnostics.map((d) => {
    const { line, column } = source.getLineAndColumnAtPos(d.start ?? 0);
    const text = typeof d.messageText === 'string' ? d.messageText : String((d.messageText as { messageText?: string }).messageText ?? '');
    return `ligne ${line}, colonne ${column} : ${text}`;
  });
}

function parse(text: string): SourceFile {
  const project = new Project({ useInMemoryFileSystem: true, skipFileDependencyResolution: true, compilerOptions: { allowJs: false } });
  return project.createSourceFile('/routes.ts', text, { overwrite: true });
}

/**
 * Adds the missing routes (and the import, once) to the text of `mvc/routes.ts`. Routes go at the end of the
 * body of `registerRoutes(router)`, after a comment line, indented like the function's first statement.
 */
export function addRoutes(text: string, file: string, imp: ImportToAdd, routes: readonly RouteToAdd[], comment: string): RoutesEdit {
  const source = parse(text);
  const errors = parseErrors(source);
  if (errors.length) throw new RoutesEditError(`${file} ne se lit pas (${errors.join(' ; ')}) : corrigez-le, puis relancez la commande.`, '');
  const declared = declaredRoutes(source);
  const missing = routes.filter((r) => !declared.has(routeKey(r.method, r.path)));
  const existing = routes.filter((r) => declared.has(routeKey(r.method, r.path)));
  if (missing.length === 0) return { text, added: [], existing, importAdded: false };

  const fn = source.getFunction(ROUTES_FUNCTION);
  const body = fn?.getBody();
  const parameter = fn?.getParameters()[0];
  if (!fn || !body || !Node.isBlock(body) || !parameter) {
    throw new RoutesEditError(
      `${file} : la fonction « export function ${ROUTES_FUNCTION}(router: Router) » est introuvable, les routes ne peuvent pas y être ajoutées automatiquement.`,
      manualLines(imp, missing),
    );
  }
  const variable = parameter.getName();
  const newline = text.includes('\r\n') ? '\r\n' : '\n';

  // Indentation: that of the first statement, else the function's own plus two spaces.
  const lineIndent = (pos: number): string => {
    const start = text.lastIndexOf('\n', pos - 1) + 1;
    return /^[ \t]*/.exec(text.slice(start))?.[0] ?? '';
  };
  const first = body.getStatements()[0];
  const indent = first ? lineIndent(first.getStart()) : `${lineIndent(fn.getStart())}  `;
  const lines = [`${indent}// ${comment}`, ...missing.map((r) => indent + routeLine(variable, r))];

  // Splice the routes in before the closing brace of the body: on its own line when the brace starts its line.
  const edits: Array<{ at: number; insert: string }> = [];
  const close = body.getEnd() - 1;
  const lineStart = text.lastIndexOf('\n', close - 1) + 1;
  if (/^[ \t]*$/.test(text.slice(lineStart, close))) edits.push({ at: lineStart, insert: lines.join(newline) + newline });
  else edits.push({ at: close, insert: `${newline}${lines.join(newline)}${newline}` });

  const importAdded = !hasNamedImport(source, imp);
  if (importAdded) {
    const imports = source.getImportDeclarations();
    const last = imports[imports.length - 1];
    edits.push(last ? { at: last.getEnd(), insert: `${newline}${importLine(imp)}` } : { at: 0, insert: `${importLine(imp)}${newline}` });
  }
  // From the end backwards, so that each position read from the tree is still right when it is used.
  let next = text;
  for (const edit of edits.sort((a, b) => b.at - a.at)) next = next.slice(0, edit.at) + edit.insert + next.slice(edit.at);

  const check = parse(next);
  const after = declaredRoutes(check);
  if (parseErrors(check).length || missing.some((r) => !after.has(routeKey(r.method, r.path)))) {
    throw new RoutesEditError(`${file} : l'ajout automatique des routes a échoué, rien n'a été écrit.`, manualLines(imp, missing));
  }
  return { text: next, added: missing, existing, importAdded };
}
