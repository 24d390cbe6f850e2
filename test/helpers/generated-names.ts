/**
 * The names a generated project's TypeScript files bind or use, read with the TypeScript compiler: what they
 * import (from `fw-mvc` and its subpaths, or from each other), what they declare at the top level, and the
 * PascalCase names they use without binding them (the globals: Record, Promise, URL…). Each one that an entity
 * could take (a PascalCase name, or an upper-case constant ending like `<ENTITY>_LIST`) must be either a name
 * derived from one of the project's entities or one of the compiler's framework names (compiler/framework-names.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import * as assert from 'uvu/assert';
import { entityDerivedNames, frameworkNames } from '../../compiler/framework-names.js';
import { snakeCase } from '../../compiler/naming.js';
import { projectSources } from './project-sources.js';

/** Whether the identifier at `node` names something (not a property, a key or a member). */
function isReference(node: ts.Identifier): boolean {
  const parent = node.parent;
  if (ts.isPropertyAccessExpression(parent) && parent.name === node) return false;
  if (ts.isQualifiedName(parent) && parent.right === node) return false;
  if (
    (ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent) || ts.isMethodDeclaration(parent) || ts.isPropertySignature(parent)) &&
    parent.name === node
  )
    return false;
  if ((ts.isGetAccessorDeclaration(parent) || ts.isSetAccessorDeclaration(parent) || ts.isMethodSignature(parent)) && parent.name === node) return false;
  if (ts.isBindingElement(parent) && parent.propertyName === node) return false;
  if ((ts.isImportSpecifier(parent) || ts.isExportSpecifier(parent)) && parent.propertyName === node) return false;
  if (ts.isEnumMember(parent) || ts.isLabeledStatement(parent) || ts.isJsxAttribute(parent)) return false;
  return true;
}

/** Names bound anywhere in the file (declarations, parameters, imports), and the PascalCase names used. */
function namesOf(file: string): { imported: string[]; declared: string[]; used: Set<string>; bound: Set<string> } {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  const imported: string[] = [];
  const declared: string[] = [];
  const bound = new Set<string>();
  const used = new Set<string>();
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && statement.importClause) {
      const clause = statement.importClause;
      if (clause.name) imported.push(clause.name.text);
      const bindings = clause.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) imported.push(bindings.name.text);
      if (bindings && ts.isNamedImports(bindings)) for (const element of bindings.elements) imported.push(element.name.text);
    }
    const named = statement as ts.Statement & { name?: ts.Node };
    if (
      (ts.isClassDeclaration(statement) ||
        ts.isFunctionDeclaration(statement) ||
        ts.isInterfaceDeclaration(statement) ||
        ts.isTypeAliasDeclaration(statement) ||
        ts.isEnumDeclaration(statement)) &&
      named.name &&
      ts.isIdentifier(named.name)
    ) {
      declared.push(named.name.text);
    }
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) if (ts.isIdentifier(declaration.name)) declared.push(declaration.name.text);
    }
  }
  const visit = (node: ts.Node): void => {
    const name = (node as { name?: ts.Node }).name;
    if (
      name &&
      ts.isIdentifier(name) &&
      (ts.isDeclarationStatement(node) ||
        ts.isVariableDeclaration(node) ||
        ts.isParameter(node) ||
        ts.isTypeParameterDeclaration(node) ||
        ts.isBindingElement(node) ||
        ts.isClassExpression(node) ||
        ts.isFunctionExpression(node) ||
        ts.isImportSpecifier(node) ||
        ts.isNamespaceImport(node) ||
        ts.isImportClause(node))
    ) {
      bound.add(name.text);
    }
    if (ts.isIdentifier(node) && /^[A-Z]/.test(node.text) && isReference(node)) used.add(node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { imported, declared, used, bound };
}

/** Whether an entity could take `name` or make it (`<Entity>`, `<Entity>Controller`…, `<ENTITY>_LIST`). */
function entityCouldMake(name: string): boolean {
  return /^[A-Z][A-Za-z0-9]*$/.test(name) || /^[A-Z][A-Z0-9_]*_(LIST|FIELDS)$/.test(name);
}

/** Asserts that every name of the project's TypeScript files that an entity could make is its own or reserved. */
export function assertGeneratedNamesReserved(root: string, entities: readonly string[]): void {
  const own = new Set(entities.flatMap((name) => entityDerivedNames(name, snakeCase(name))));
  const reserved = frameworkNames();
  const missing = new Map<string, string>();
  let seen = 0;
  for (const file of projectSources(root)) {
    const { imported, declared, used, bound } = namesOf(file);
    const globals = [...used].filter((name) => !bound.has(name));
    for (const name of [...imported, ...declared, ...globals]) {
      seen++;
      if (!entityCouldMake(name) || own.has(name) || reserved.has(name)) continue;
      if (!missing.has(name)) missing.set(name, path.relative(root, file));
    }
  }
  assert.ok(seen > 50, `${seen} noms lus seulement`);
  assert.equal(
    [...missing].map(([name, file]) => `${name} (${file})`),
    [],
    'noms du code généré absents de compiler/framework-names.ts',
  );
}
