// `addRoutes`, the edit of `mvc/routes.ts` behind `fw make:crud` (docs/architecture.md "Codemods: one recipe"): the anchor `registerRoutes`
// declared as an arrow function or a function expression rather than a function declaration. A block body is edited
// like a function's (twice is once, the user's bytes left alone, the parameter's own name used); an arrow whose body
// is an expression is refused with the lines for its body, never a second registerRoutes. The edited files run
// against the real Router.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { COMMENT, IMPORT_LINE, ROUTES, assertEachRouteOnce, edit, editError, keys, registeredRoutes, routeLines } from './helpers/crud-routes-edit.js';

const HEAD = "import type { Router } from 'fw-mvc';\nimport { HomeController } from './controllers/home_controller.js';\n\n";
const HOME = "router.add('GET', '/', HomeController.index, { name: 'home', public: true });";

const ARROW = `${HEAD}export const registerRoutes = (router: Router): void => {\n  ${HOME}\n};\n`;
const FUNCTION_EXPRESSION = `${HEAD}export const registerRoutes = function (r: Router) {\n    ${HOME.replace('router.', 'r.')}\n};\n`;

/** The text with the inserted lines (the import, the comment, the routes) taken out. */
function withoutInserted(text: string, receiver: string, indent: string): string {
  const inserted = new Set([IMPORT_LINE, `${indent}// ${COMMENT}`, ...routeLines(receiver, indent)]);
  const lines = text.split('\n');
  assert.is(lines.filter((line) => inserted.has(line)).length, inserted.size, 'each inserted line appears once');
  return lines.filter((line) => !inserted.has(line)).join('\n');
}

const A = suite('crud-routes-edit: registerRoutes as an arrow or a function expression');

A('an arrow with a block body: the routes at the end of its body, the import after the last import', () => {
  const result = edit(ARROW);
  assert.is(
    result.text,
    [
      "import type { Router } from 'fw-mvc';",
      "import { HomeController } from './controllers/home_controller.js';",
      IMPORT_LINE,
      '',
      'export const registerRoutes = (router: Router): void => {',
      `  ${HOME}`,
      `  // ${COMMENT}`,
      ...routeLines(),
      '};',
      '',
    ].join('\n'),
  );
  assert.equal(keys(result.added), keys(ROUTES));
  assert.is(result.importAdded, true);
  assertEachRouteOnce(result.text);
});

A("the arrow: the user's bytes are untouched, and a second run changes nothing", () => {
  const first = edit(ARROW);
  assert.is(withoutInserted(first.text, 'router', '  '), ARROW);
  const second = edit(first.text);
  assert.is(second.text, first.text);
  assert.equal(second.added, []);
  assert.equal(keys(second.existing), keys(ROUTES));
  assert.is(second.importAdded, false);
});

A("a function expression whose parameter is r: the routes use r, indented like the body's first statement", () => {
  const first = edit(FUNCTION_EXPRESSION);
  assert.ok(first.added.length === ROUTES.length);
  assert.is(withoutInserted(first.text, 'r', '    '), FUNCTION_EXPRESSION);
  assertEachRouteOnce(first.text);
  assert.ok(registeredRoutes(first.text).includes('GET /'), 'the home route is still there');
  const second = edit(first.text);
  assert.is(second.text, first.text);
  assert.equal(second.added, []);
});

A('the same parameter name r in a function declaration: the routes use r there too', () => {
  const text = `${HEAD}export function registerRoutes(r: Router): void {\n  ${HOME.replace('router.', 'r.')}\n}\n`;
  const first = edit(text);
  assert.is(withoutInserted(first.text, 'r', '  '), text);
  assertEachRouteOnce(first.text);
});

A('wrapped in parentheses or satisfies, an empty body on one line: edited', () => {
  for (const text of [
    `${HEAD}export const registerRoutes = ((router: Router) => {});\n`,
    `${HEAD}type Register = (router: Router) => void;\nexport const registerRoutes = function (router: Router) {} satisfies Register;\n`,
  ]) {
    const first = edit(text);
    assertEachRouteOnce(first.text);
    assert.is(edit(first.text).text, first.text, text);
  }
});

A('an arrow whose body is an expression: refused, the lines are the import and the routes for its body', () => {
  const text = `${HEAD}export const registerRoutes = (rt: Router): void => rt.add('GET', '/', HomeController.index, { name: 'home', public: true });\n`;
  const error = editError(text);
  assert.match(error.message, /mvc\/routes\.ts/);
  assert.match(error.message, /registerRoutes/);
  assert.match(error.message, /ligne 4\b/);
  assert.match(error.message, /accolades/);
  assert.is(error.placement, 'function');
  assert.is(error.manualLines, [IMPORT_LINE, '', ...routeLines('rt')].join('\n'));
  assert.not.match(error.manualLines, /registerRoutes/);
  // Given a block body and the refusal's own lines pasted (the import after the last import, the routes at the end of
  // the body), the file registers every route once, and a second run recognises them all and changes nothing.
  const [importLine, blank, ...routes] = error.manualLines.split('\n');
  assert.is(blank, '');
  const fixed = `${HEAD.replace('\n\n', `\n${importLine}\n\n`)}export const registerRoutes = (rt: Router): void => {\n  rt.add('GET', '/', HomeController.index, { name: 'home', public: true });\n${routes.join('\n')}\n};\n`;
  assertEachRouteOnce(fixed);
  for (let run = 0; run < 2; run++) {
    const again = edit(fixed);
    assert.is(again.text, fixed);
    assert.equal(again.added, []);
    assert.equal(keys(again.existing), keys(ROUTES));
  }
});

A('an arrow without a parameter: refused (no-parameter), the lines import Router and the controller, then the routes on router', () => {
  const head = "import { HomeController } from './controllers/home_controller.js';\n\n";
  const text = `${head}export const registerRoutes = () => {\n  void HomeController;\n};\n`;
  const error = editError(text);
  assert.match(error.message, /mvc\/routes\.ts/);
  assert.match(error.message, /« registerRoutes » \(ligne 3\)/);
  assert.match(error.message, /n'a pas de paramètre/);
  assert.is(error.placement, 'function');
  assert.ok(error.manualLines.startsWith("import type { Router } from 'fw-mvc';\n"), error.manualLines);
  assert.is(error.manualLines, ["import type { Router } from 'fw-mvc';", IMPORT_LINE, '', ...routeLines('router')].join('\n'));
  assert.not.match(error.manualLines, /registerRoutes/);
  // With the parameter given as told and the lines pasted, every route is registered once and a rerun changes nothing.
  const lines = error.manualLines.split('\n');
  const blank = lines.indexOf('');
  const fixed = `${lines.slice(0, blank).join('\n')}\n${head}export const registerRoutes = (router: Router) => {\n  void HomeController;\n${lines.slice(blank + 1).join('\n')}\n};\n`;
  assertEachRouteOnce(fixed);
  const again = edit(fixed);
  assert.is(again.text, fixed);
  assert.equal(again.added, []);
  // Router already imported: only the controller's import is asked for.
  const withRouter = editError(`${HEAD}export const registerRoutes = () => {\n  void HomeController;\n};\n`);
  assert.is(withRouter.placement, 'function');
  assert.match(withRouter.message, /\(ligne 4\)/);
  assert.is(withRouter.manualLines, [IMPORT_LINE, '', ...routeLines('router')].join('\n'));
});

A('a registerRoutes that is not a function (a number): the anchor is missing, the lines declare the whole function', () => {
  const error = editError(`${HEAD}export const registerRoutes = 1;\n`);
  assert.is(error.placement, 'file');
  assert.ok(error.manualLines.includes('export function registerRoutes(router: Router): void {'));
});

A.run();
