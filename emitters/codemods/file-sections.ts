/**
 * A file cut into named sections for the three-way merge of `fw make:crud --upgrade` (docs/decisions.md "Upgrading an
 * entity's files"): a TypeScript file into its imports (by module), its top-level declarations (by name) and the
 * header, members (by name) and end of each class; a view into what comes before its first top-level `{% block %}`
 * and each top-level block (by name, with the text after it). The sections, joined, give the file back exactly.
 */
import { ts } from 'ts-morph';

export interface Section {
  /** What the section is, the same in the three versions of a file (`import fw-mvc`, `class X.static show`, `block content`). */
  readonly key: string;
  readonly text: string;
  /** The line of the file where the section starts (1-based). */
  readonly line: number;
  /** A class member: the key of its class, whose `/end` section closes it. */
  readonly container?: string;
  /** A view's block: kept when the user changed it and the new view has it no more (it then overrides the framework's). */
  readonly keepWhenRemoved?: boolean;
  /** An import's names (`type Request`, `a as b`) when it imports only named bindings. */
  readonly names?: readonly string[];
  /** An import's module, to write it again with other names. */
  readonly module?: string;
  readonly typeOnly?: boolean;
}

/** The sections of `text`: a view when `path` ends in `.html`, TypeScript otherwise. */
export function fileSections(path: string, text: string): Section[] {
  const sections = path.endsWith('.html') ? templateSections(text) : tsSections(text);
  if (sections.map((s) => s.text).join('') !== text) throw new Error(`${path} : découpage incomplet`);
  return sections;
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

const BLOCK_TAG = /\{%-?\s*(block\s+(\w+)|endblock)\b[^%]*?-?%\}/g;

function templateSections(text: string): Section[] {
  const starts: Array<{ at: number; name: string }> = [];
  let depth = 0;
  for (const match of text.matchAll(BLOCK_TAG)) {
    if (match[2] !== undefined) {
      if (depth === 0) starts.push({ at: match.index, name: match[2] });
      depth++;
    } else depth = Math.max(0, depth - 1);
  }
  const first = starts[0]?.at ?? text.length;
  const sections: Section[] = [{ key: 'prelude', text: text.slice(0, first), line: 1 }];
  starts.forEach((start, i) => {
    const end = starts[i + 1]?.at ?? text.length;
    sections.push({ key: `block ${start.name}`, text: text.slice(start.at, end), line: lineAt(text, start.at), keepWhenRemoved: true });
  });
  return unique(sections);
}

function memberKey(member: ts.ClassElement, source: ts.SourceFile): string {
  const isStatic = ts.canHaveModifiers(member) && (ts.getModifiers(member) ?? []).some((m) => m.kind === ts.SyntaxKind.StaticKeyword);
  const name = member.name ? member.name.getText(source) : ts.isConstructorDeclaration(member) ? 'constructor' : member.getText(source);
  return `${isStatic ? 'static ' : ''}${name}`;
}

function statementKey(statement: ts.Statement, source: ts.SourceFile): string {
  if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
    return `import ${statement.importClause?.isTypeOnly ? 'type ' : ''}${statement.moduleSpecifier.text}`;
  }
  if (
    (ts.isFunctionDeclaration(statement) || ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement) || ts.isEnumDeclaration(statement)) &&
    statement.name
  ) {
    return `declaration ${statement.name.text}`;
  }
  if (ts.isClassDeclaration(statement) && statement.name) return `class ${statement.name.text}`;
  if (ts.isVariableStatement(statement)) return `declaration ${statement.declarationList.declarations.map((d) => d.name.getText(source)).join(', ')}`;
  return `statement ${statement.getText(source)}`;
}

function importNames(statement: ts.ImportDeclaration): string[] | undefined {
  const clause = statement.importClause;
  if (!clause || clause.name || !clause.namedBindings || !ts.isNamedImports(clause.namedBindings)) return undefined;
  return clause.namedBindings.elements.map((e) => `${e.isTypeOnly ? 'type ' : ''}${e.propertyName ? `${e.propertyName.text} as ` : ''}${e.name.text}`);
}

function tsSections(text: string): Section[] {
  const source = ts.createSourceFile('file.ts', text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const sections: Section[] = [];
  const push = (key: string, from: number, to: number, extra: Partial<Section> = {}): void => {
    sections.push({ key, text: text.slice(from, to), line: lineAt(text, from), ...extra });
  };
  // A statement or a member: the comments and blank lines before it are a section of their own, so that a comment
  // the user added above a declaration the new version changed merges.
  const pushNode = (key: string, node: ts.Node, to: number, extra: Partial<Section> = {}): void => {
    const start = node.getStart(source);
    if (start > node.pos) push(`${key} (comments)`, node.pos, start, extra.container === undefined ? {} : { container: extra.container });
    push(key, start, to, extra);
  };
  for (const statement of source.statements) {
    const key = statementKey(statement, source);
    if (ts.isClassDeclaration(statement) && statement.name) {
      const open = statement.members.pos;
      pushNode(key, statement, open);
      let at = open;
      for (const member of statement.members) {
        pushNode(`${key}.${memberKey(member, source)}`, member, member.end, { container: key });
        at = member.end;
      }
      // The end of the class: what follows its last member (comments), then the line of its closing brace.
      const close = text.lastIndexOf('\n', statement.end - 1);
      const split = close >= at ? close : at;
      push(`${key}/trivia`, at, split, { container: key });
      push(`${key}/end`, split, statement.end);
      continue;
    }
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const names = importNames(statement);
      pushNode(key, statement, statement.end, {
        module: statement.moduleSpecifier.text,
        typeOnly: statement.importClause?.isTypeOnly === true,
        ...(names ? { names } : {}),
      });
      continue;
    }
    pushNode(key, statement, statement.end);
  }
  push('end of file', source.statements.length > 0 ? source.statements[source.statements.length - 1]!.end : 0, text.length);
  return unique(sections);
}

/** The same key twice (two identical statements) gets a number, so that each section is found again. */
function unique(sections: Section[]): Section[] {
  const seen = new Map<string, number>();
  return sections.map((s) => {
    const n = (seen.get(s.key) ?? 0) + 1;
    seen.set(s.key, n);
    return n === 1 ? s : { ...s, key: `${s.key} #${n}` };
  });
}

/** An import with other names, written as the new version writes its imports. */
export function importText(section: Section, names: readonly string[]): string {
  return `import ${section.typeOnly ? 'type ' : ''}{ ${names.join(', ')} } from '${section.module}';`;
}
