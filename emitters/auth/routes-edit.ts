/**
 * `fw auth:init`'s edit of `mvc/routes.ts` (DECISIONS §8): `import { registerAuthRoutes } from 'fw-mvc/auth';` and a
 * `registerAuthRoutes(router);` call at the end of `registerRoutes`, through the syntax tree, with the machinery of
 * the CRUD routes (emitters/crud/routes-edit.ts): the anchor, the splice, the user's bytes left alone. The import is
 * recognised by its module and name (any local alias), the call by what it calls, never by comparing text. A pure
 * function: text in, text out.
 */
import { Node, SyntaxKind, type ImportDeclaration, type SourceFile } from 'ts-morph';
import { declaredRoutes, findAnchor, parse, parseErrors, RoutesEditError, ROUTES_FUNCTION, spliceIntoBody } from '../crud/routes-edit.js';
import { boundNames } from '../crud/routes-import.js';

export const AUTH_MODULE = 'fw-mvc/auth';
export const AUTH_ROUTES_FUNCTION = 'registerAuthRoutes';
export const AUTH_IMPORT_LINE = `import { ${AUTH_ROUTES_FUNCTION} } from '${AUTH_MODULE}';`;

/** The routes `registerAuthRoutes` declares, as `METHOD /path`. */
export const AUTH_ROUTE_KEYS: readonly string[] = ['GET /login', 'POST /login', 'POST /logout'];

export interface AuthRoutesEdit {
  /** The new text (identical to the input when nothing was missing). */
  readonly text: string;
  readonly importAdded: boolean;
  readonly callAdded: boolean;
  /** Routes of the file that `registerAuthRoutes` also declares (`GET /login`…): the first declared answers. */
  readonly conflicts: readonly string[];
}

/** How the file binds `registerAuthRoutes`. */
type Binding =
  | { readonly kind: 'imported'; readonly local: string }
  | { readonly kind: 'free' }
  | { readonly kind: 'taken'; readonly line: number; readonly text: string };

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
  return (Node.isFunctionDeclaration(statement) || Node.isClassDeclaration(statement) || Node.isEnumDeclaration(statement) || Node.isInterfaceDeclaration(statement) || Node.isTypeAliasDeclaration(statement) || Node.isModuleDeclaration(statement)) && statement.getName() === name;
}

function authBinding(source: SourceFile): Binding {
  for (const decl of source.getImportDeclarations()) {
    if (decl.getModuleSpecifierValue() !== AUTH_MODULE || decl.isTypeOnly()) continue;
    const named = decl.getNamedImports().find((n) => n.getName() === AUTH_ROUTES_FUNCTION && !n.isTypeOnly());
    if (named) return { kind: 'imported', local: named.getAliasNode()?.getText() ?? AUTH_ROUTES_FUNCTION };
  }
  if (!boundNames(source).has(AUTH_ROUTES_FUNCTION)) return { kind: 'free' };
  // Bound by another import (or a type-only one) or by a declaration of the file: say which line.
  const holder: Node | undefined =
    source.getImportDeclarations().find((decl) => importedLocals(decl).includes(AUTH_ROUTES_FUNCTION)) ??
    source.getStatements().find((statement) => declares(statement, AUTH_ROUTES_FUNCTION));
  return { kind: 'taken', line: holder?.getStartLineNumber() ?? 1, text: holder ? firstLine(holder) : AUTH_ROUTES_FUNCTION };
}

/** True when the file calls `local(…)` somewhere (in registerRoutes or in a helper it calls). */
function callsLocal(source: SourceFile, local: string): boolean {
  return source.getDescendantsOfKind(SyntaxKind.CallExpression).some((call) => {
    const callee = call.getExpression();
    return Node.isIdentifier(callee) && callee.getText() === local;
  });
}

/** What to paste by hand: the import (when the file lacks it), then the call inside registerRoutes. */
function manualLines(withImport: boolean, variable: string): string {
  return [...(withImport ? [AUTH_IMPORT_LINE, ''] : []), `  ${AUTH_ROUTES_FUNCTION}(${variable});`].join('\n');
}

/**
 * Adds the import and the call when missing. Refuses (RoutesEditError, with the lines to paste) a file that does
 * not parse, that has no `registerRoutes(router)` with a block body, or where the name is already bound to something
 * else.
 */
export function addAuthRoutes(text: string, file: string): AuthRoutesEdit {
  const source = parse(text);
  const errors = parseErrors(source);
  if (errors.length) throw new RoutesEditError(`${file} ne se lit pas (${errors.join(' ; ')}) : corrigez-le, puis relancez la commande.`, '');
  const declared = declaredRoutes(source);
  const conflicts = AUTH_ROUTE_KEYS.filter((key) => declared.has(key));
  const binding = authBinding(source);
  if (binding.kind === 'taken') {
    throw new RoutesEditError(
      `${file} : le nom « ${AUTH_ROUTES_FUNCTION} » est déjà pris (ligne ${binding.line} : « ${binding.text} ») ; l'import de « ${AUTH_MODULE} » ne peut pas être ajouté.`,
      '',
    );
  }
  if (binding.kind === 'imported' && callsLocal(source, binding.local)) return { text, importAdded: false, callAdded: false, conflicts };

  const local = binding.kind === 'imported' ? binding.local : AUTH_ROUTES_FUNCTION;
  const anchor = findAnchor(source);
  if (anchor.kind !== 'block') {
    const why =
      anchor.kind === 'missing'
        ? `la fonction « export function ${ROUTES_FUNCTION}(router: Router) » est introuvable`
        : anchor.kind === 'expression-body'
          ? `la fonction « ${ROUTES_FUNCTION} » (ligne ${anchor.line}) est une fonction fléchée sans bloc (« => expression »)`
          : `la fonction « ${ROUTES_FUNCTION} » (ligne ${anchor.line}) n'a pas de paramètre`;
    throw new RoutesEditError(
      `${file} : ${why} : les routes d'authentification ne peuvent pas y être ajoutées automatiquement.`,
      manualLines(binding.kind === 'free', anchor.kind === 'missing' ? 'router' : (anchor.parameter ?? 'router')),
      'function',
    );
  }
  const importAdded = binding.kind === 'free';
  const next = spliceIntoBody(
    text,
    source,
    anchor,
    ["// Authentification : GET /login, POST /login, POST /logout (fw auth:init)", `${local}(${anchor.parameter});`],
    importAdded ? AUTH_IMPORT_LINE : null,
  );
  const check = parse(next);
  if (parseErrors(check).length || !callsLocal(check, local)) {
    throw new RoutesEditError(`${file} : l'ajout automatique des routes d'authentification a échoué, rien n'a été écrit.`, manualLines(importAdded, anchor.parameter), 'function');
  }
  return { text: next, importAdded, callAdded: true, conflicts };
}
