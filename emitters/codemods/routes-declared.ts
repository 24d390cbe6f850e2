/**
 * The routes `mvc/routes.ts` declares, read from its syntax tree (ts-morph): each `*.add('METHOD', '/path', …)` call
 * by its `METHOD /path` key, on the router or on a group (a `group()` callback's parameter, a chained `group()`, a
 * variable holding one), joined as `RouteGroup.add` joins them. The codemods (routes-edit.ts) recognise existing
 * routes this way, never by comparing text.
 */
import { Node, SyntaxKind, type CallExpression, type SourceFile } from 'ts-morph';

/**
 * `/contacts/{contact_id}` and `/contacts/{id}` are the same route. The method is upper-cased as the router does;
 * the path is otherwise kept as written: for the router `/contacts/` and `/contacts` are two routes.
 */
export function routeKey(method: string, path: string): string {
  return `${method.toUpperCase()} ${path.replace(/\{[^}]*\}/g, '{}')}`;
}

function stringValue(node: Node | undefined): string | null {
  if (node && (Node.isStringLiteral(node) || Node.isNoSubstitutionTemplateLiteral(node))) return node.getLiteralText();
  return null;
}

/** What `receiverGroup` answers for the router itself (or anything that is not a group). */
const ROUTER = Symbol('router');

/** A `x.group('/prefix', …)` call. */
function isGroupCall(node: Node | undefined): node is CallExpression {
  if (!node || !Node.isCallExpression(node)) return false;
  const callee = node.getExpression();
  return Node.isPropertyAccessExpression(callee) && callee.getName() === 'group';
}

/** The path a group gives to `pattern`, joined exactly as `RouteGroup.add` joins it. */
function joinGroup(prefix: string, pattern: string): string {
  const base = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
  if (pattern === '/' || pattern === '') return base || '/';
  return `${base}${pattern.startsWith('/') ? '' : '/'}${pattern}`;
}

/**
 * The `group(prefix, options, …)` call whose group `receiver` (the `x` of `x.add(…)`) is, or `ROUTER` for the router
 * itself. A group is the callback parameter of `group(prefix, options, (g) => …)`, a `group(prefix)` call chained with
 * `.add`, or a variable initialised with one (RouteGroup has no `group()`).
 */
function receiverGroup(receiver: Node): CallExpression | typeof ROUTER {
  if (isGroupCall(receiver)) return receiver;
  if (!Node.isIdentifier(receiver)) return ROUTER;
  const name = receiver.getText();
  for (const scope of receiver.getAncestors()) {
    if (Node.isArrowFunction(scope) || Node.isFunctionExpression(scope) || Node.isFunctionDeclaration(scope) || Node.isMethodDeclaration(scope)) {
      if (scope.getParameters().some((p) => p.getName() === name)) {
        const parent = scope.getParent();
        return isGroupCall(parent) && parent.getArguments()[2] === scope ? parent : ROUTER;
      }
    }
    if (Node.isBlock(scope) || Node.isSourceFile(scope)) {
      for (const statement of scope.getStatements()) {
        if (!Node.isVariableStatement(statement)) continue;
        const declaration = statement.getDeclarations().find((d) => d.getName() === name);
        if (declaration) {
          const init = declaration.getInitializer();
          return isGroupCall(init) ? init : ROUTER;
        }
      }
    }
  }
  return ROUTER;
}

/** A route of the file: its `add` call and the `group()` call it is added to (null for the router itself). */
export interface DeclaredRoute {
  readonly call: CallExpression;
  readonly group: CallExpression | null;
}

/**
 * Every `*.add('METHOD', '/path', …)` of the file by its `METHOD /path` key (with the prefix of its group; a group
 * whose prefix is not a string literal is left out). The first of two same keys is kept: it is the one that answers.
 */
export function declaredRouteCalls(source: SourceFile): Map<string, DeclaredRoute> {
  const routes = new Map<string, DeclaredRoute>();
  for (const call of source.getDescendantsOfKind(SyntaxKind.CallExpression)) {
    const callee = call.getExpression();
    if (!Node.isPropertyAccessExpression(callee) || callee.getName() !== 'add') continue;
    const [methodArg, pathArg] = call.getArguments();
    const method = stringValue(methodArg);
    const path = stringValue(pathArg);
    if (method === null || path === null) continue;
    const group = receiverGroup(callee.getExpression());
    const prefix = group === ROUTER ? '' : stringValue(group.getArguments()[0]);
    if (prefix === null) continue;
    const key = routeKey(method, group === ROUTER ? path : joinGroup(prefix, path));
    if (!routes.has(key)) routes.set(key, { call, group: group === ROUTER ? null : group });
  }
  return routes;
}

/** The route of the file that answers `METHOD /path` (a group's prefix joined), or null. */
export function declaredRoute(source: SourceFile, method: string, path: string): DeclaredRoute | null {
  return declaredRouteCalls(source).get(routeKey(method, path)) ?? null;
}

/** Every `*.add('METHOD', '/path', …)` of the file, as `METHOD /path` keys (with the prefix of its group). */
export function declaredRoutes(source: SourceFile): Set<string> {
  return new Set(declaredRouteCalls(source).keys());
}
