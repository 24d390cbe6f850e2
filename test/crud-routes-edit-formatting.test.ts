// `addRoutes`, the edit of `mvc/routes.ts` behind `fw make:crud` (docs/architecture.md "Codemods: one recipe"): the layout of the edited file,
// its line ends, indentation, parameter name, empty bodies and where the import goes. `fw make:crud` itself on a CRLF routes.ts with
// a byte order mark is a row of the "changes over time" table of test/generator-definitions-chain.test.ts.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { addAuthRoutes } from '../emitters/auth/routes-edit.js';
import { addToController } from '../emitters/codemods/controller-edit.js';
import { COMMENT, IMPORT_LINE, TEMPLATE, assertEachRouteOnce, edit, routeLines } from './helpers/crud-routes-edit.js';

// --- layout of the file ---

const L = suite('crud-routes-edit: line ends, indentation, empty bodies');

L('a CRLF file keeps CRLF everywhere', () => {
  const crlf = TEMPLATE.replace(/\n/g, '\r\n');
  const result = edit(crlf);
  assert.not.match(result.text, /[^\r]\n/);
  assert.is(result.text, edit(TEMPLATE).text.replace(/\n/g, '\r\n'));
  assert.is(edit(result.text).text, result.text);
});

L('a CRLF file with a byte order mark keeps both: no bare LF, the mark first, the same edit as without it', () => {
  const crlf = TEMPLATE.replace(/\n/g, '\r\n');
  const result = edit(`\uFEFF${crlf}`);
  assert.not.match(result.text, /[^\r]\n/);
  assert.not.match(result.text, /\r\r/);
  assert.is(result.text, `\uFEFF${edit(crlf).text}`);
  assert.is(edit(result.text).text, result.text);
  assertEachRouteOnce(result.text.slice(1));
});

L('the module routes and the controller edits keep the mark and CRLF too', () => {
  const crlf = TEMPLATE.replace(/\n/g, '\r\n');
  const auth = addAuthRoutes(`\uFEFF${crlf}`, 'mvc/routes.ts');
  assert.is(auth.text, `\uFEFF${addAuthRoutes(crlf, 'mvc/routes.ts').text}`);
  assert.not.match(auth.text, /[^\r]\n/);
  const controller = 'export class HomeController {\r\n  static index(): null {\r\n    return null;\r\n  }\r\n}\r\n';
  const part = { imports: [], before: [], methods: [{ name: 'about', text: '  static about(): null {\n    return null;\n  }' }], after: [] };
  const withMark = addToController(`\uFEFF${controller}`, 'mvc/controllers/home_controller.ts', 'HomeController', part);
  assert.is(withMark.text, `\uFEFF${addToController(controller, 'mvc/controllers/home_controller.ts', 'HomeController', part).text}`);
  assert.not.match(withMark.text, /[^\r]\n/);
  assert.ok(withMark.text.includes('static about()'), withMark.text);
});

L('an empty body {} on one line gets the routes on their own lines, indented by two', () => {
  const text = "import type { Router } from 'fw-mvc';\n\nexport function registerRoutes(router: Router): void {}\n";
  const result = edit(text);
  assert.is(
    result.text,
    [
      "import type { Router } from 'fw-mvc';",
      IMPORT_LINE,
      '',
      'export function registerRoutes(router: Router): void {',
      `  // ${COMMENT}`,
      ...routeLines(),
      '}',
      '',
    ].join('\n'),
  );
  assertEachRouteOnce(result.text);
});

L("the parameter's name and the body's indentation are the user's", () => {
  const text = "import type { Router } from 'fw-mvc';\n\nexport function registerRoutes(r: Router): void {\n\tr.add('GET', '/x', () => null as never);\n}\n";
  const result = edit(text);
  assert.is(
    result.text,
    `${text.replace("from 'fw-mvc';", `from 'fw-mvc';\n${IMPORT_LINE}`).replace(/\}\n$/, '')}\t// ${COMMENT}\n${routeLines('r', '\t').join('\n')}\n}\n`,
  );
  assertEachRouteOnce(result.text);
});

L('a file without imports gets the import on its first line', () => {
  const text = 'export function registerRoutes(router: { add(...args: unknown[]): void }): void {\n}\n';
  const result = edit(text);
  assert.ok(result.text.startsWith(`${IMPORT_LINE}\nexport function registerRoutes(`), result.text);
  assert.is(result.importAdded, true);
});

L('a comment after the last import stays on its line', () => {
  const text = TEMPLATE.replace("home_controller.js';", "home_controller.js'; // la page d'accueil");
  const result = edit(text);
  assert.ok(result.text.includes(`home_controller.js'; // la page d'accueil\n${IMPORT_LINE}\n`), result.text);
});

L.run();
