/**
 * Adds members to a controller file through its syntax tree (ts-morph), the way routes-edit.ts adds routes: what the
 * file already has is recognised by name (a static method of the class, a top-level declaration, a named import),
 * never by comparing text; the new text is spliced in at positions read from the tree and everything else stays byte
 * for byte. A new controller is the same edit applied to a skeleton, so both paths give the same code.
 */
import { Node, type ClassDeclaration, type SourceFile } from 'ts-morph';
import { boundNames } from './routes-import.js';
import { keepingBom, parse, parseErrors } from './routes-edit.js';

/** A named import: `{ from: 'fw-mvc', name: 'fetchAll' }`, `{ …, name: 'Request', typeOnly: true }`. */
export interface NamedImport {
  readonly from: string;
  readonly name: string;
  readonly typeOnly?: boolean;
}

/** A top-level declaration (constant, class, function) or a static method, by its name and its whole text. */
export interface Member {
  readonly name: string;
  readonly text: string;
}

export interface ControllerPart {
  readonly imports: readonly NamedImport[];
  /** Top-level declarations placed before the controller class (SQL constants, form fields, form class). */
  readonly before: readonly Member[];
  /** Static methods of the class, written with two spaces of indentation. */
  readonly methods: readonly Member[];
  /** Top-level functions placed after the class. */
  readonly after: readonly Member[];
}

export interface ControllerEdit {
  readonly text: string;
  /** Names of what was added (declarations, methods, functions; not the imports). */
  readonly added: readonly string[];
  /** Declarations before the class the file keeps although they differ from the part's: their text now and the part's. */
  readonly differing: ReadonlyArray<{ readonly name: string; readonly kept: string; readonly generated: string }>;
}

/** The controller cannot be edited safely: the message says why and what to do. */
export class ControllerEditError extends Error {
  override readonly name = 'ControllerEditError';
}

/** The names a file declares at its top level (variables, classes, functions, …). */
function topLevelNames(source: SourceFile): Set<string> {
  const names = new Set<string>();
  for (const statement of source.getStatements()) {
    if (Node.isVariableStatement(statement)) for (const d of statement.getDeclarations()) names.add(d.getName());
    else if (
      Node.isClassDeclaration(statement) ||
      Node.isFunctionDeclaration(statement) ||
      Node.isInterfaceDeclaration(statement) ||
      Node.isTypeAliasDeclaration(statement)
    ) {
      const name = statement.getName();
      if (name) names.add(name);
    }
  }
  return names;
}

/** The text (doc comment included) of the top-level statement declaring `name`, or null. */
function declarationText(source: SourceFile, name: string): string | null {
  for (const statement of source.getStatements()) {
    const names = Node.isVariableStatement(statement)
      ? statement.getDeclarations().map((d) => d.getName())
      : Node.isClassDeclaration(statement) || Node.isFunctionDeclaration(statement)
        ? [statement.getName()]
        : [];
    if (names.includes(name)) return statement.getText(true);
  }
  return null;
}

function memberNames(cls: ClassDeclaration): Set<string> {
  const names = new Set<string>();
  for (const member of cls.getMembers()) {
    if (
      Node.isMethodDeclaration(member) ||
      Node.isPropertyDeclaration(member) ||
      Node.isGetAccessorDeclaration(member) ||
      Node.isSetAccessorDeclaration(member)
    )
      names.add(member.getName());
  }
  return names;
}

/** The import lines to add, or the names to add to an existing value import of the same module. */
function importEdits(source: SourceFile, imports: readonly NamedImport[], newline: string): { edits: Array<{ at: number; insert: string }> } {
  const bound = boundNames(source);
  const missing = imports.filter((imp) => !bound.has(imp.name));
  const edits: Array<{ at: number; insert: string }> = [];
  const byModule = new Map<string, NamedImport[]>();
  for (const imp of missing) byModule.set(imp.from, [...(byModule.get(imp.from) ?? []), imp]);
  const declarations = source.getImportDeclarations();
  const fresh: string[] = [];
  for (const [from, list] of byModule) {
    const spelled = list.map((imp) => (imp.typeOnly ? `type ${imp.name}` : imp.name));
    const existing = declarations.find(
      (d) => d.getModuleSpecifierValue() === from && !d.isTypeOnly() && d.getNamedImports().length > 0 && !d.getNamespaceImport(),
    );
    if (existing) {
      const named = existing.getNamedImports();
      edits.push({ at: named[named.length - 1]!.getEnd(), insert: `, ${spelled.join(', ')}` });
    } else {
      fresh.push(`import { ${spelled.join(', ')} } from '${from}';`);
    }
  }
  if (fresh.length > 0) {
    const last = declarations[declarations.length - 1];
    if (last) edits.push({ at: last.getEnd(), insert: fresh.map((line) => `${newline}${line}`).join('') });
    else edits.push({ at: 0, insert: fresh.map((line) => `${line}${newline}`).join('') });
  }
  return { edits };
}

/**
 * Adds to `text` (the controller file) what `part` has and the file lacks: imports, declarations before the class,
 * static methods at the end of the class, functions at the end of the file. Members the file has (by name) are kept
 * as they are, even when they differ (`differing` names the declarations before the class that do). Throws ControllerEditError when the file does not parse or has no such class.
 */
export function addToController(text: string, file: string, className: string, part: ControllerPart): ControllerEdit {
  return keepingBom(text, (bare) => addToControllerText(bare, file, className, part));
}

function addToControllerText(text: string, file: string, className: string, part: ControllerPart): ControllerEdit {
  const source = parse(text);
  const errors = parseErrors(source);
  if (errors.length) throw new ControllerEditError(`${file} ne se lit pas (${errors.join(' ; ')}) : corrigez-le, puis relancez la commande.`);
  const cls = source.getClass(className);
  if (!cls) throw new ControllerEditError(`${file} ne déclare pas la classe « ${className} » : les méthodes générées ne peuvent pas y être ajoutées.`);
  const newline = text.includes('\r\n') ? '\r\n' : '\n';
  const declared = topLevelNames(source);
  const members = memberNames(cls);
  const before = part.before.filter((m) => !declared.has(m.name));
  const methods = part.methods.filter((m) => !members.has(m.name));
  const after = part.after.filter((m) => !declared.has(m.name));
  const differing = part.before.flatMap((m) => {
    const kept = declared.has(m.name) ? declarationText(source, m.name) : null;
    return kept !== null && kept.replace(/\r\n/g, '\n') !== m.text ? [{ name: m.name, kept, generated: m.text }] : [];
  });
  if (before.length + methods.length + after.length === 0) return { text, added: [], differing };

  const lines = (block: string): string => block.split('\n').join(newline);
  const { edits } = importEdits(source, part.imports, newline);
  if (before.length > 0) {
    // Before the class and its doc comment, at the start of its line.
    const start = cls.getStart(true);
    const at = text.lastIndexOf('\n', start - 1) + 1;
    edits.push({ at, insert: before.map((m) => lines(m.text) + newline + newline).join('') });
  }
  if (methods.length > 0) {
    const close = cls.getEnd() - 1;
    const lineStart = text.lastIndexOf('\n', close - 1) + 1;
    const body = methods.map((m) => lines(m.text)).join(newline + newline);
    const separator = cls.getMembers().length > 0 ? newline : '';
    if (/^[ \t]*$/.test(text.slice(lineStart, close))) edits.push({ at: lineStart, insert: separator + body + newline });
    else edits.push({ at: close, insert: newline + separator + body + newline });
  }
  if (after.length > 0) {
    const lead = text.endsWith('\n') ? newline : newline + newline;
    edits.push({ at: text.length, insert: lead + after.map((m) => lines(m.text)).join(newline + newline) + newline });
  }
  let next = text;
  for (const edit of edits.sort((a, b) => b.at - a.at)) next = next.slice(0, edit.at) + edit.insert + next.slice(edit.at);

  const check = parse(next);
  const after2 = check.getClass(className);
  const names = after2 ? memberNames(after2) : new Set<string>();
  const top = topLevelNames(check);
  if (parseErrors(check).length || methods.some((m) => !names.has(m.name)) || [...before, ...after].some((m) => !top.has(m.name))) {
    throw new ControllerEditError(`${file} : l'ajout automatique des méthodes a échoué, rien n'a été écrit.`);
  }
  return { text: next, added: [...before.map((m) => m.name), ...methods.map((m) => `${className}.${m.name}`), ...after.map((m) => m.name)], differing };
}
