/**
 * The controller method a route names (`ContactController.index`), looked for in the controller's file read as a
 * syntax tree, never imported: the class the route file imports (or declares), exported by its file (or re-exported
 * from another project file), and a static method or static property of that name on it or on a parent class of
 * the project. A class from a package (`BaseController` of fw-mvc) holds no handler of the project; the class
 * `crudController()` of fw-mvc/crud returns holds the CRUD actions (runtime/crud/action-names.ts).
 */
import type { ts as TsNamespace } from 'ts-morph';
import { CRUD_ACTIONS } from '../../runtime/crud/action-names.js';
import { importsOf, parseProjectFile, resolveRelative, type DeclaredRoute, type FileProblem, type ParsedFile, type TS } from './route-source.js';

type ClassDeclaration = TsNamespace.ClassDeclaration;

/** Why the handler of a route does not exist, or null when it does (or cannot be told: a package's class). */
export type HandlerProblem =
  { readonly kind: 'file'; readonly problem: FileProblem } | { readonly kind: 'handler'; readonly reason: string; readonly hint: string } | null;

interface FoundClass {
  readonly parsed: ParsedFile;
  readonly declaration: ClassDeclaration;
}

/** The names a file binds with `import * as name`. */
function namespaceImports(ts: TS, parsed: ParsedFile): Set<string> {
  const out = new Set<string>();
  for (const statement of parsed.source.statements) {
    const bindings = ts.isImportDeclaration(statement) ? statement.importClause?.namedBindings : undefined;
    if (bindings && ts.isNamespaceImport(bindings)) out.add(bindings.name.text);
  }
  return out;
}

/** Looks up handlers, each project file parsed once. */
export class HandlerResolver {
  private readonly files = new Map<string, ReturnType<typeof parseProjectFile>>();

  constructor(
    private readonly ts: TS,
    private readonly root: string,
  ) {}

  /** The first candidate file that exists, parsed (or the problem of reading it); null when none exists. */
  private parse(candidates: readonly string[]): ReturnType<typeof parseProjectFile> | null {
    for (const file of candidates) {
      let outcome = this.files.get(file);
      if (!outcome) {
        outcome = parseProjectFile(this.ts, this.root, file, false);
        this.files.set(file, outcome);
      }
      if (outcome.ok || outcome.problem.kind !== 'missing') return outcome;
    }
    return null;
  }

  private exported(node: TsNamespace.Node): boolean {
    const ts = this.ts;
    return ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  }

  private classNamed(parsed: ParsedFile, name: string): ClassDeclaration | undefined {
    return parsed.source.statements.find((s): s is ClassDeclaration => this.ts.isClassDeclaration(s) && s.name?.text === name);
  }

  /** True when `statement` declares `name` as something other than a class (a variable, a function, an enum…). */
  private declaresOther(statement: TsNamespace.Statement, name: string): boolean {
    const ts = this.ts;
    return (
      ((ts.isFunctionDeclaration(statement) || ts.isEnumDeclaration(statement) || ts.isModuleDeclaration(statement)) && statement.name?.text === name) ||
      (ts.isVariableStatement(statement) && statement.declarationList.declarations.some((d) => ts.isIdentifier(d.name) && d.name.text === name))
    );
  }

  /**
   * The class a file exports as `name` (`default` for its default export), following `export { X } from './x.js'`
   * and `export { X as Y }`; a problem when a file cannot be read; 'other' when the export is not a class (an object
   * of functions…) or may come from an `export *`: nothing to check then; null when the file does not export it.
   */
  private exportedClass(parsed: ParsedFile, name: string, depth = 0): FoundClass | FileProblem | 'other' | null {
    const ts = this.ts;
    if (depth > 8) return 'other';
    let star = false;
    for (const statement of parsed.source.statements) {
      if (ts.isClassDeclaration(statement) && this.exported(statement)) {
        const isDefault = (ts.getModifiers(statement) ?? []).some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);
        if ((isDefault && name === 'default') || (!isDefault && statement.name?.text === name)) return { parsed, declaration: statement };
      }
      if (this.exported(statement) && this.declaresOther(statement, name)) return 'other';
      if (ts.isExportAssignment(statement) && name === 'default') return 'other';
      if (ts.isExportDeclaration(statement) && !statement.exportClause) star = true;
      if (ts.isExportDeclaration(statement) && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
        const element = statement.exportClause.elements.find((e) => e.name.text === name);
        if (!element) continue;
        const local = (element.propertyName ?? element.name).text;
        if (!statement.moduleSpecifier) {
          const declaration = this.classNamed(parsed, local);
          return declaration ? { parsed, declaration } : 'other';
        }
        if (!ts.isStringLiteral(statement.moduleSpecifier)) return 'other';
        const next = this.parse(resolveRelative(parsed.file, statement.moduleSpecifier.text));
        if (!next) return 'other';
        return next.ok ? this.exportedClass(next.parsed, local, depth + 1) : next.problem;
      }
    }
    return star ? 'other' : null;
  }

  /**
   * The class `name` names in `parsed` (declared there, or imported from a project file), a problem, 'package' (a
   * package's export), 'other' (not a class: nothing to check), 'unbound' or 'not-exported'.
   */
  private classIn(parsed: ParsedFile, name: string): FoundClass | FileProblem | 'package' | 'other' | 'unbound' | 'not-exported' {
    const declaration = this.classNamed(parsed, name);
    if (declaration) return { parsed, declaration };
    if (parsed.source.statements.some((s) => this.declaresOther(s, name)) || namespaceImports(this.ts, parsed).has(name)) return 'other';
    const binding = importsOf(this.ts, parsed.source).get(name);
    if (!binding) return 'unbound';
    const candidates = resolveRelative(parsed.file, binding.from);
    if (candidates.length === 0) return 'package';
    const target = this.parse(candidates);
    if (!target)
      return { kind: 'missing', file: candidates[0]!, reason: `${candidates[0]} est introuvable (importé par ${parsed.file} : « ${binding.from} »)` };
    if (!target.ok) return target.problem;
    return this.exportedClass(target.parsed, binding.imported) ?? 'not-exported';
  }

  /** The static member `member` of the class or of a parent class of the project: 'static', 'instance' or null. */
  private member(found: FoundClass, member: string, depth = 0): 'static' | 'instance' | null {
    const ts = this.ts;
    let instance = false;
    for (const element of found.declaration.members) {
      if (!(ts.isMethodDeclaration(element) || ts.isPropertyDeclaration(element) || ts.isGetAccessorDeclaration(element))) continue;
      const name = element.name && (ts.isIdentifier(element.name) || ts.isStringLiteral(element.name) ? element.name.text : null);
      if (name !== member) continue;
      if ((ts.getModifiers(element) ?? []).some((m) => m.kind === ts.SyntaxKind.StaticKeyword)) return 'static';
      instance = true;
    }
    const heritage = found.declaration.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword)?.types[0]?.expression;
    // `extends crudController(…)` of fw-mvc/crud: its actions are known; a class another package's function makes cannot be read.
    if (heritage && ts.isCallExpression(heritage) && ts.isIdentifier(heritage.expression)) {
      const binding = importsOf(ts, found.parsed.source).get(heritage.expression.text);
      if (binding && resolveRelative(found.parsed.file, binding.from).length === 0) {
        if (binding.from !== 'fw-mvc/crud' || binding.imported !== 'crudController') return 'static';
        if ((CRUD_ACTIONS as readonly string[]).includes(member)) return 'static';
      }
    }
    if (heritage && ts.isIdentifier(heritage) && depth < 8) {
      const parent = this.classIn(found.parsed, heritage.text);
      if (typeof parent === 'object' && 'declaration' in parent) {
        const inherited = this.member(parent, member, depth + 1);
        if (inherited) return inherited;
      }
    }
    return instance ? 'instance' : null;
  }

  /** Whether the `X.y` handler of `route` exists. */
  check(route: DeclaredRoute): HandlerProblem {
    const handler = route.handler;
    if (!handler) return null;
    const found = this.classIn(route.source, handler.object);
    const label = `${handler.object}.${handler.member}`;
    if (found === 'package' || found === 'other') return null;
    if (found === 'unbound')
      return { kind: 'handler', reason: `${handler.object} n'est ni importé ni déclaré dans ${route.file}`, hint: `importez ${handler.object}` };
    if (found === 'not-exported') {
      return {
        kind: 'handler',
        reason: `${label} : le fichier importé n'exporte pas la classe ${handler.object}`,
        hint: "exportez la classe ou corrigez l'import",
      };
    }
    if (!('declaration' in found)) return { kind: 'file', problem: found };
    const member = this.member(found, handler.member);
    if (member === 'static') return null;
    if (member === 'instance') {
      return {
        kind: 'handler',
        reason: `${label} : ${handler.member} n'est pas « static » dans ${found.parsed.file}`,
        hint: `déclarez-la « static ${handler.member}(request) »`,
      };
    }
    return {
      kind: 'handler',
      reason: `${label} : la classe ${handler.object} de ${found.parsed.file} n'a pas de méthode statique ${handler.member}`,
      hint: 'ajoutez la méthode au contrôleur ou corrigez la route',
    };
  }
}
