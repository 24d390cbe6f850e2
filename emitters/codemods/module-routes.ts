/**
 * The edit of `mvc/routes.ts` that wires a routes function exported by a runtime module: `import { registerAuthRoutes }
 * from 'fw-mvc/auth';` and a `registerAuthRoutes(router);` call at the end of `registerRoutes`. One spec object per
 * module (emitters/auth/routes-edit.ts holds those of fw-mvc/auth and fw-mvc/mfa); the edit goes through the syntax
 * tree, with the machinery of routes-edit.ts: the anchor, the splice, the user's bytes left alone. The import is
 * recognised by its module and name (any local alias), the call by what it calls, never by comparing text. Pure
 * functions: text in, text out.
 */
import { Node, SyntaxKind, type ImportDeclaration, type SourceFile } from 'ts-morph';
import { declaredRoutes, findAnchor, keepingBom, parse, parseErrors, RoutesEditError, ROUTES_FUNCTION, spliceIntoBody } from './routes-edit.js';
import { boundNames } from './routes-import.js';

/** What an opt-in module's routes function is, and how the edit speaks of it. */
export interface ModuleRoutesSpec {
  /** The module to import from, e.g. `fw-mvc/auth`. */
  readonly module: string;
  /** The exported function that adds the routes, e.g. `registerAuthRoutes`. */
  readonly function: string;
  /** The routes that function declares, as `METHOD /path`. */
  readonly routeKeys: readonly string[];
  /** The comment line put above the call (without `//`). */
  readonly comment: string;
  /** How messages name these routes: `les routes d'authentification`. */
  readonly label: string;
}

/** `import { registerAuthRoutes } from 'fw-mvc/auth';` */
export function moduleImportLine(spec: ModuleRoutesSpec): string {
  return `import { ${spec.function} } from '${spec.module}';`;
}

export interface ModuleRoutesEdit {
  /** The new text (identical to the input when nothing was missing). */
  readonly text: string;
  readonly importAdded: boolean;
  readonly callAdded: boolean;
  /** Routes of the file that the module's function also declares (`GET /login`…): the first declared answers. */
  readonly conflicts: readonly string[];
}

/** How the file binds the module's function. */
type Binding =
  { readonly kind: 'imported'; readonly local: string } | { readonly kind: 'free' } | { readonly kind: 'taken'; readonly line: number; readonly text: string };

function firstLine(node: Node): string {
  const text = node.getText().split(/\r?\n/)[0]!.trim();
  return text.length > 100 ? `${text.slice(0, 99)}…` : text;
}

/** The local names an import declaration binds. */
function importedLocals(decl: ImportDeclaration): string[] {
  const named = decl.getNamedImports().map((n) => n.getAliasNode()?.getText() ?? n.getName());
  return [decl.getDefaultImport()?.getText(), decl.getNamespaceImport()?.getText(), ...named].filter((name): name is string => name !== undefined);
}

/** The name a top-level statement declares, when it declares one (variables: any of them). */
function declares(statement: Node, name: string): boolean {
  if (Node.isVariableStatement(statement)) return statement.getDeclarations().some((d) => d.getName() === name);
  return (
    (Node.isFunctionDeclaration(statement) ||
      Node.isClassDeclaration(statement) ||
      Node.isEnumDeclaration(statement) ||
      Node.isInterfaceDeclaration(statement) ||
      Node.isTypeAliasDeclaration(statement) ||
      Node.isModuleDeclaration(statement)) &&
    statement.getName() === name
  );
}

function moduleBinding(source: SourceFile, spec: ModuleRoutesSpec): Binding {
  for (const decl of source.getImportDeclarations()) {
    if (decl.getModuleSpecifierValue() !== spec.module || decl.isTypeOnly()) continue;
    const named = decl.getNamedImports().find((n) => n.getName() === spec.function && !n.isTypeOnly());
    if (named) return { kind: 'imported', local: named.getAliasNode()?.getText() ?? spec.function };
  }
  if (!boundNames(source).has(spec.function)) return { kind: 'free' };
  // Bound by another import (or a type-only one) or by a declaration of the file: say which line.
  const holder: Node | undefined =
    source.getImportDeclarations().find((decl) => importedLocals(decl).includes(spec.function)) ??
    source.getStatements().find((statement) => declares(statement, spec.function));
  return { kind: 'taken', line: holder?.getStartLineNumber() ?? 1, text: holder ? firstLine(holder) : spec.function };
}

/** True when the file calls `local(…)` somewhere (in registerRoutes or in a helper it calls). */
function callsLocal(source: SourceFile, local: string): boolean {
  return source.getDescendantsOfKind(SyntaxKind.CallExpression).some((call) => {
    const callee = call.getExpression();
    return Node.isIdentifier(callee) && callee.getText() === local;
  });
}

/** What to paste by hand: the import (when the file lacks it), then the call inside registerRoutes. */
function manualLines(spec: ModuleRoutesSpec, withImport: boolean, variable: string): string {
  return [...(withImport ? [moduleImportLine(spec), ''] : []), `  ${spec.function}(${variable});`].join('\n');
}

/**
 * Adds the module's import and call when missing. Refuses (RoutesEditError, with the lines to paste) a file that
 * does not parse, that has no `registerRoutes(router)` with a block body, or where the name is already bound to
 * something else.
 */
export function addModuleRoutes(text: string, file: string, spec: ModuleRoutesSpec): ModuleRoutesEdit {
  return keepingBom(text, (bare) => addModuleRoutesTo(bare, file, spec));
}

function addModuleRoutesTo(text: string, file: string, spec: ModuleRoutesSpec): ModuleRoutesEdit {
  const source = parse(text);
  const errors = parseErrors(source);
  if (errors.length) throw new RoutesEditError(`${file} ne se lit pas (${errors.join(' ; ')}) : corrigez-le, puis relancez la commande.`, '');
  const declared = declaredRoutes(source);
  const conflicts = spec.routeKeys.filter((key) => declared.has(key));
  const binding = moduleBinding(source, spec);
  if (binding.kind === 'taken') {
    throw new RoutesEditError(
      `${file} : le nom « ${spec.function} » est déjà pris (ligne ${binding.line} : « ${binding.text} ») ; l'import de « ${spec.module} » ne peut pas être ajouté.`,
      '',
    );
  }
  if (binding.kind === 'imported' && callsLocal(source, binding.local)) return { text, importAdded: false, callAdded: false, conflicts };

  const local = binding.kind === 'imported' ? binding.local : spec.function;
  const anchor = findAnchor(source);
  if (anchor.kind !== 'block') {
    const why =
      anchor.kind === 'missing'
        ? `la fonction « export function ${ROUTES_FUNCTION}(router: Router) » est introuvable`
        : anchor.kind === 'expression-body'
          ? `la fonction « ${ROUTES_FUNCTION} » (ligne ${anchor.line}) est une fonction fléchée sans bloc (« => expression »)`
          : `la fonction « ${ROUTES_FUNCTION} » (ligne ${anchor.line}) n'a pas de paramètre`;
    throw new RoutesEditError(
      `${file} : ${why} : ${spec.label} ne peuvent pas y être ajoutées automatiquement.`,
      manualLines(spec, binding.kind === 'free', anchor.kind === 'missing' ? 'router' : (anchor.parameter ?? 'router')),
      'function',
    );
  }
  const importAdded = binding.kind === 'free';
  const next = spliceIntoBody(text, source, anchor, [`// ${spec.comment}`, `${local}(${anchor.parameter});`], importAdded ? moduleImportLine(spec) : null);
  const check = parse(next);
  if (parseErrors(check).length || !callsLocal(check, local)) {
    throw new RoutesEditError(
      `${file} : l'ajout automatique ${spec.label.replace(/^les /, 'des ')} a échoué, rien n'a été écrit.`,
      manualLines(spec, importAdded, anchor.parameter),
      'function',
    );
  }
  return { text: next, importAdded, callAdded: true, conflicts };
}

/** The modules among `specs` whose routes `text` registers: their function imported from the module and called (none when it does not parse). */
export function registeredModules(text: string, specs: readonly ModuleRoutesSpec[]): ModuleRoutesSpec[] {
  const source = parse(text);
  if (parseErrors(source).length) return [];
  return specs.filter((spec) => {
    const binding = moduleBinding(source, spec);
    return binding.kind === 'imported' && callsLocal(source, binding.local);
  });
}
