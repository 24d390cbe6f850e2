/**
 * The public flag of a route already in `mvc/routes.ts`, read from the syntax tree as the Router reads it at run
 * time: the `public` property of the route's options object (`{ name: 'x', public: true }`), else the one of the
 * options of its `group()`, else protected. Only literal `true` / `false` count; anything computed is "cannot tell".
 * And, for a route whose flag differs from the request, the line it should become (docs/crud.md "Routes"): the user's
 * routes are never changed by the generator, make:crud shows both lines (emitters/crud/routes-report.ts).
 */
import { Node, type CallExpression, type ObjectLiteralExpression, type PropertyAssignment, type SourceFile } from 'ts-morph';

/** An existing route whose public flag is not the one asked for. */
export interface RouteMismatch {
  readonly method: string;
  readonly path: string;
  /** The flag the route has in the file (true: public). */
  readonly isPublic: boolean;
  /** 1-based line of the route's first line in the file. */
  readonly line: number;
  /** The route's line(s) as written, and as they should read (same indentation, only the options changed). */
  readonly before: string;
  readonly after: string;
}

type Flag = boolean | null | undefined;

/** The property's name as the object literal means it: `public`, `'public'` and `"public"` are the same key. */
function propertyName(property: PropertyAssignment): string {
  const name = property.getNameNode();
  return Node.isStringLiteral(name) || Node.isNoSubstitutionTemplateLiteral(name) ? name.getLiteralText() : name.getText();
}

/**
 * What an options argument says: `true` / `false`, `undefined` when it says nothing about `public` (absent argument,
 * no such key), `null` when it cannot be told without running the code (a variable, a spread, a computed value).
 */
function optionsFlag(options: Node | undefined): Flag {
  if (options === undefined) return undefined;
  if (!Node.isObjectLiteralExpression(options)) return null;
  let flag: Flag = undefined;
  for (const property of options.getProperties()) {
    // A spread may bring `public` in; later literal keys still override it, as in the object itself.
    if (Node.isSpreadAssignment(property)) flag = null;
    else if (Node.isShorthandPropertyAssignment(property) && property.getName() === 'public') flag = null;
    else if (Node.isPropertyAssignment(property) && propertyName(property) === 'public') flag = literalFlag(property.getInitializer());
  }
  return flag;
}

function literalFlag(value: Node | undefined): boolean | null {
  if (value && Node.isTrueLiteral(value)) return true;
  if (value && Node.isFalseLiteral(value)) return false;
  return null;
}

/** Whether an options object literal asks for a public route (a literal `public: true`), read as routePublicFlag reads a route's. */
export function asksPublic(options: Node | undefined): boolean {
  return optionsFlag(options) === true;
}

/** The last `public` property assignment of an object literal (the one that counts), if any. */
function publicProperty(options: ObjectLiteralExpression): PropertyAssignment | undefined {
  const found = options.getProperties().filter((p): p is PropertyAssignment => Node.isPropertyAssignment(p) && propertyName(p) === 'public');
  return found[found.length - 1];
}

/**
 * The route's public flag as the Router would set it (`{ ...groupDefaults, ...options }`, `public ?? false`), or null
 * when it cannot be told. `group` is the `group(prefix, options, …)` call the route is added to, if any.
 */
export function routePublicFlag(call: CallExpression, group: CallExpression | null): boolean | null {
  const own = optionsFlag(call.getArguments()[3]);
  if (own !== undefined) return own;
  if (!group) return false;
  const inherited = optionsFlag(group.getArguments()[1]);
  return inherited === undefined ? false : inherited;
}

/**
 * The route's lines with the flag set to `wanted`, changing only its options: `public: true` removed when protected
 * is asked and the group (if any) is protected, the literal replaced otherwise; the property added when the value
 * comes from the group or the default (`public: false` in a public group); the options object added when there is none.
 */
export function mismatch(
  source: SourceFile,
  call: CallExpression,
  group: CallExpression | null,
  route: { method: string; path: string },
  isPublic: boolean,
  wanted: boolean,
): RouteMismatch {
  const text = source.getFullText();
  const args = call.getArguments();
  const options = args[3];
  const value = String(wanted);
  let edit: { start: number; end: number; insert: string };
  if (options && Node.isObjectLiteralExpression(options)) {
    const property = publicProperty(options);
    const properties = options.getProperties();
    // Without its own property the route would take the group's flag: removing it is right only when that is protected.
    const inherited = group ? optionsFlag(group.getArguments()[1]) : undefined;
    if (property && !wanted && (inherited === undefined || inherited === false)) {
      // Remove `public: true` with the comma that joins it to its neighbour.
      const index = properties.indexOf(property);
      const previous = properties[index - 1];
      const next = properties[index + 1];
      if (previous) edit = { start: previous.getEnd(), end: property.getEnd(), insert: '' };
      else if (next) edit = { start: property.getStart(), end: next.getStart(), insert: '' };
      else edit = { start: options.getStart(), end: options.getEnd(), insert: '{}' };
    } else if (property) {
      const initializer = property.getInitializerOrThrow();
      edit = { start: initializer.getStart(), end: initializer.getEnd(), insert: value };
    } else {
      const last = properties[properties.length - 1];
      edit = last
        ? { start: last.getEnd(), end: last.getEnd(), insert: `, public: ${value}` }
        : { start: options.getStart(), end: options.getEnd(), insert: `{ public: ${value} }` };
    }
  } else {
    const handler = args[2] ?? args[args.length - 1] ?? call;
    edit = { start: handler.getEnd(), end: handler.getEnd(), insert: `, { public: ${value} }` };
  }
  const from = text.lastIndexOf('\n', call.getStart() - 1) + 1;
  const newline = text.indexOf('\n', call.getEnd());
  const to = newline === -1 ? text.length : text[newline - 1] === '\r' ? newline - 1 : newline;
  const before = text.slice(from, to);
  const after = text.slice(from, edit.start) + edit.insert + text.slice(edit.end, to);
  return { method: route.method, path: route.path, isPublic, line: call.getStartLineNumber(), before, after };
}
