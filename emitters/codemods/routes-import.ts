/**
 * How `mvc/routes.ts` binds the controller that generated routes name: read from the syntax tree, by module and
 * by type-only-ness, not by identifier alone. An identifier alone would take `import { ContactController } from
 * './legacy.js'` for the generated controller (routes silently wired to another class) and `import type { … }` for
 * a value (routes that do not compile).
 */
import { Node, type ImportDeclaration, type SourceFile } from 'ts-morph';

/** What the file holds for the controller. */
export type ControllerBinding =
  /** A value import of the controller from its module (or its folder's index), under `local`: nothing to add. */
  | { readonly kind: 'imported'; readonly local: string }
  /** The name is free: an import is to be added. */
  | { readonly kind: 'free' }
  /** Imported from its module, but as a type only: the routes need the value. */
  | { readonly kind: 'type-only'; readonly line: number; readonly text: string }
  /** The name is bound to something else: another module, another export, a declaration of the file. */
  | { readonly kind: 'taken'; readonly line: number; readonly text: string; readonly by: string };

/** `./controllers/contact_controller.js` → `./controllers/contact_controller`; `./controllers/index.ts` → `./controllers`. */
function moduleKey(specifier: string): string {
  return specifier
    .replace(/\/+$/, '')
    .replace(/\.(?:[cm]?[jt]s|[jt]sx)$/, '')
    .replace(/\/index$/, '');
}

/**
 * The controller's own module, written with or without its extension, or the index of its folder (a barrel such as
 * `./controllers/index.js`, which is taken to re-export it: if it does not, the compiler says so, nothing is silent).
 */
export function isControllerModule(specifier: string, expected: string): boolean {
  const target = moduleKey(expected);
  const folder = target.slice(0, target.lastIndexOf('/'));
  const given = moduleKey(specifier);
  return given === target || (folder !== '' && given === folder);
}

function firstLine(node: Node): string {
  const text = node.getText().split(/\r?\n/)[0]!.trim();
  return text.length > 100 ? `${text.slice(0, 99)}…` : text;
}

/** Names bound by the file's own top-level declarations (an import of the same name would not compile). */
function declaredNames(source: SourceFile): Array<{ name: string; node: Node }> {
  const out: Array<{ name: string; node: Node }> = [];
  for (const statement of source.getStatements()) {
    if (Node.isVariableStatement(statement)) {
      for (const declaration of statement.getDeclarations()) out.push({ name: declaration.getName(), node: statement });
    } else if (
      Node.isClassDeclaration(statement) ||
      Node.isFunctionDeclaration(statement) ||
      Node.isEnumDeclaration(statement) ||
      Node.isInterfaceDeclaration(statement) ||
      Node.isTypeAliasDeclaration(statement) ||
      Node.isModuleDeclaration(statement) ||
      Node.isImportEqualsDeclaration(statement)
    ) {
      const name = statement.getName();
      if (name) out.push({ name, node: statement });
    }
  }
  return out;
}

/** The local names an import declaration binds, each with what it imports. */
function importedNames(decl: ImportDeclaration): Array<{ local: string; imported: string | null; typeOnly: boolean }> {
  const out: Array<{ local: string; imported: string | null; typeOnly: boolean }> = [];
  const whole = decl.isTypeOnly();
  const defaultImport = decl.getDefaultImport();
  if (defaultImport) out.push({ local: defaultImport.getText(), imported: null, typeOnly: whole });
  const namespace = decl.getNamespaceImport();
  if (namespace) out.push({ local: namespace.getText(), imported: null, typeOnly: whole });
  for (const named of decl.getNamedImports()) {
    out.push({ local: named.getAliasNode()?.getText() ?? named.getName(), imported: named.getName(), typeOnly: whole || named.isTypeOnly() });
  }
  return out;
}

/** How `source` binds the controller `name` exported by the module `from`. */
export function controllerBinding(source: SourceFile, name: string, from: string): ControllerBinding {
  const imports = source.getImportDeclarations();
  // A value import of the controller from its module, under any local name: the routes use that name.
  for (const decl of imports) {
    if (!isControllerModule(decl.getModuleSpecifierValue(), from)) continue;
    const found = importedNames(decl).find((i) => i.imported === name && !i.typeOnly);
    if (found) return { kind: 'imported', local: found.local };
  }
  for (const decl of imports) {
    const bound = importedNames(decl).find((i) => i.local === name);
    if (!bound) continue;
    const line = decl.getStartLineNumber();
    const text = firstLine(decl);
    const specifier = decl.getModuleSpecifierValue();
    if (bound.typeOnly && bound.imported === name && isControllerModule(specifier, from)) return { kind: 'type-only', line, text };
    return { kind: 'taken', line, text, by: `l'import de « ${specifier} »` };
  }
  const declared = declaredNames(source).find((d) => d.name === name);
  if (declared) return { kind: 'taken', line: declared.node.getStartLineNumber(), text: firstLine(declared.node), by: 'une déclaration du fichier' };
  return { kind: 'free' };
}

/** Every name the file binds at its top level: its imports and its declarations. */
export function boundNames(source: SourceFile): Set<string> {
  const bound = new Set<string>(declaredNames(source).map((d) => d.name));
  for (const decl of source.getImportDeclarations()) for (const i of importedNames(decl)) bound.add(i.local);
  return bound;
}

/** A local name for the controller that nothing in the file binds: `CrudContactController`, then `CrudContactController2`… */
export function freeAlias(source: SourceFile, name: string): string {
  const bound = boundNames(source);
  const base = `Crud${name}`;
  let alias = base;
  for (let n = 2; bound.has(alias); n++) alias = `${base}${n}`;
  return alias;
}
