// `addRoutes`, the edit of `mvc/routes.ts` behind `fw make:crud` (STYLE.md example 6): routes recognised by
// method and path read from the syntax tree, the import added once, the user's bytes left alone, the second run a
// no-op, and errors that give the lines to paste. The edited files are also run against the real Router, so that
// "recognised" means "the router already answers this route".
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ts } from 'ts-morph';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { addRoutes, crudRoutes, planCrud, RoutesEditError, type RoutesEdit } from '../emitters/crud/index.js';
import { Router } from '../runtime/http/router.js';
import { fixtureModel } from './emitters-fixture.js';

const REPO = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
const TEMPLATE = fs.readFileSync(path.join(REPO, 'cli', 'templates', 'project', 'mvc', 'routes.ts'), 'utf8');
const FILE = 'mvc/routes.ts';
const COMMENT = 'Contact (fw make:crud Contact)';
const { import: IMPORT, routes: ROUTES } = crudRoutes(planCrud(fixtureModel(), 'Contact'));
const IMPORT_LINE = "import { ContactController } from './controllers/contact_controller.js';";

/** The route lines `addRoutes` writes for a receiver, in the plan's order. */
function routeLines(receiver = 'router', indent = '  '): string[] {
  return ROUTES.map((r) => `${indent}${receiver}.add('${r.method}', '${r.path}', ${r.handler}, ${r.options});`);
}

function edit(text: string): RoutesEdit {
  return addRoutes(text, FILE, IMPORT, ROUTES, COMMENT);
}

function keys(routes: RoutesEdit['added']): string[] {
  return routes.map((r) => `${r.method} ${r.path}`);
}

function editError(text: string): RoutesEditError {
  try {
    edit(text);
  } catch (err) {
    if (err instanceof RoutesEditError) return err;
    throw err;
  }
  throw new Error('addRoutes should have thrown RoutesEditError');
}

/**
 * Runs a routes.ts text against the real Router: transpiled to CommonJS, every import a proxy whose members are
 * controllers whose members are handlers. Returns the router's routes as `METHOD pattern` (parameters written `{}`)
 * with where each handler comes from, `module#Export.method` (a route wired to a same-named class shows).
 */
function registered(text: string): Array<{ key: string; origin: string }> {
  const js = ts.transpileModule(text, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
  const handlers = (origin: string): unknown => new Proxy({}, { get: (_c, method) => Object.assign(() => undefined, { origin: `${origin}.${String(method)}` }) });
  const fakeRequire = (specifier: string): unknown => new Proxy({}, { get: (_m, exported) => handlers(`${specifier}#${String(exported)}`) });
  const exports: { registerRoutes?: (router: Router) => void } = {};
  new Function('require', 'exports', js)(fakeRequire, exports);
  const router = new Router();
  exports.registerRoutes!(router);
  return router.iterRoutes().map((r) => ({ key: `${r.method} ${r.pattern.replace(/\{[^}]*\}/g, '{}')}`, origin: (r.handler as unknown as { origin?: string }).origin ?? '?' }));
}

function registeredRoutes(text: string): string[] {
  return registered(text).map((r) => r.key);
}

function handlerOrigins(text: string): Map<string, string> {
  return new Map(registered(text).map((r) => [r.key, r.origin]));
}

/** Every route of the plan is registered exactly once. */
function assertEachRouteOnce(text: string): void {
  const registered = registeredRoutes(text);
  for (const route of ROUTES) {
    const key = `${route.method} ${route.path.replace(/\{[^}]*\}/g, '{}')}`;
    assert.is(registered.filter((r) => r === key).length, 1, `${key} in ${JSON.stringify(registered)}`);
  }
}

// --- the template of fw new ---

const T = suite('crud-routes-edit: the fw new template');

T('routes go at the end of registerRoutes after a comment, the import after the last import', () => {
  const result = edit(TEMPLATE);
  assert.is(
    result.text,
    [
      '// Application routes. Generators (fw make:crud, fw make:public-*) add their routes to this function.',
      "import type { Router } from 'fw-mvc';",
      "import { HomeController } from './controllers/home_controller.js';",
      IMPORT_LINE,
      '',
      'export function registerRoutes(router: Router): void {',
      "  router.add('GET', '/', HomeController.index, { name: 'home', public: true });",
      `  // ${COMMENT}`,
      ...routeLines(),
      '}',
      '',
    ].join('\n'),
  );
  assert.equal(keys(result.added), keys(ROUTES));
  assert.equal(result.existing, []);
  assert.is(result.importAdded, true);
  assertEachRouteOnce(result.text);
});

T("the user's bytes are untouched: removing the inserted lines gives back the original exactly", () => {
  const result = edit(TEMPLATE);
  const inserted = new Set([IMPORT_LINE, `  // ${COMMENT}`, ...routeLines()]);
  const added = result.text.split('\n').filter((line) => inserted.has(line));
  assert.is(added.length, inserted.size, 'each inserted line appears once');
  assert.is(result.text.split('\n').filter((line) => !inserted.has(line)).join('\n'), TEMPLATE);
  assert.is(result.text.split(IMPORT_LINE).length - 1, 1, 'the import once');
});

T('a second run returns the same text and adds nothing', () => {
  const first = edit(TEMPLATE);
  const second = edit(first.text);
  assert.is(second.text, first.text);
  assert.equal(second.added, []);
  assert.equal(keys(second.existing), keys(ROUTES));
  assert.is(second.importAdded, false);
});

T('only the missing routes are added; the import is not repeated', () => {
  const partial = TEMPLATE.replace(
    "import { HomeController } from './controllers/home_controller.js';",
    `import { HomeController } from './controllers/home_controller.js';\n${IMPORT_LINE}`,
  ).replace('\n}\n', "\n  router.add('GET', '/contacts', ContactController.index, { name: 'contacts.index' });\n}\n");
  const result = edit(partial);
  assert.equal(keys(result.existing), ['GET /contacts']);
  assert.equal(keys(result.added), keys(ROUTES.slice(1)));
  assert.is(result.importAdded, false);
  assert.is(result.text.split(IMPORT_LINE).length - 1, 1);
  assertEachRouteOnce(result.text);
});

T.run();

// --- existing routes written differently ---

const R = suite('crud-routes-edit: existing routes are recognised by method and path');

const WRITTEN_DIFFERENTLY = `import type { Router } from 'fw-mvc';
import { HomeController, ContactController } from './controllers/index.js';

export function registerRoutes(router: Router): void {
  router.add("get", "/contacts", ContactController.index, { name: "mes_contacts" });
  router.add(
    'GET' ,
      '/contacts/{contact_id}'  ,

    ContactController.show,
  );
  router.group('/contacts', {}, (g) => {
    g.add('GET', '/new', ContactController.create);
    g.add(\`POST\`, \`/{contact_id}/delete\`, ContactController.destroy);
  });
  // router.add('POST', '/contacts', ContactController.store);
  const note = "router.add('GET', '/contacts/export.csv', x)";
  router.group('/admin', {}, (a) => {
    a.add('POST', '/contacts/bulk-delete', ContactController.bulkDelete);
  });
  void note;
}
`;

R('double quotes, another parameter name, spaces and newlines, a group: recognised; comments, strings, other prefixes: not', () => {
  const result = edit(WRITTEN_DIFFERENTLY);
  assert.equal(keys(result.existing), ['GET /contacts', 'GET /contacts/new', 'GET /contacts/{id}', 'POST /contacts/{id}/delete']);
  assert.equal(keys(result.added), [
    'POST /contacts',
    'GET /contacts/export.csv',
    'POST /contacts/bulk-delete',
    'POST /contacts/bulk-delete/confirm',
    'GET /contacts/{id}/edit',
    'POST /contacts/{id}',
  ]);
  // ContactController is already imported among other names.
  assert.is(result.importAdded, false);
  assert.ok(!result.text.includes(IMPORT_LINE));
  assert.ok(result.text.startsWith(WRITTEN_DIFFERENTLY.slice(0, WRITTEN_DIFFERENTLY.lastIndexOf('}'))), 'the user text is a prefix of the result');
  assertEachRouteOnce(result.text);
  assert.is(edit(result.text).text, result.text);
});

R('a group route without a leading slash, a chained group and a group held in a variable are recognised', () => {
  const text = `import type { Router } from 'fw-mvc';
import { ContactController } from './controllers/contact_controller.js';

export function registerRoutes(router: Router): void {
  router.group('/contacts/', {}, (g) => {
    g.add('GET', 'new', ContactController.create);
    g.add('GET', '', ContactController.index);
  });
  router.group('/contacts').add('GET', '/export.csv', ContactController.exportCsv);
  const contacts = router.group('/contacts', {});
  contacts.add('POST', '/bulk-delete', ContactController.bulkDelete);
}
`;
  const result = edit(text);
  assert.equal(keys(result.existing), ['GET /contacts', 'GET /contacts/new', 'GET /contacts/export.csv', 'POST /contacts/bulk-delete']);
  assert.equal(keys(result.added).length, ROUTES.length - 4);
  assertEachRouteOnce(result.text);
});

R('router.add inside a group callback is not prefixed by the group; a trailing slash is another route', () => {
  const text = `import type { Router } from 'fw-mvc';
import { ContactController } from './controllers/contact_controller.js';

export function registerRoutes(router: Router): void {
  router.group('/admin', {}, () => {
    router.add('GET', '/contacts/new', ContactController.create);
  });
  router.add('GET', '/contacts/', ContactController.index);
}
`;
  const result = edit(text);
  assert.equal(keys(result.existing), ['GET /contacts/new']);
  assert.ok(keys(result.added).includes('GET /contacts'), 'GET /contacts is not GET /contacts/ for the router');
  assertEachRouteOnce(result.text);
});

R.run();

// --- layout of the file ---

const L = suite('crud-routes-edit: line ends, indentation, empty bodies');

L('a CRLF file keeps CRLF everywhere', () => {
  const crlf = TEMPLATE.replace(/\n/g, '\r\n');
  const result = edit(crlf);
  assert.not.match(result.text, /[^\r]\n/);
  assert.is(result.text, edit(TEMPLATE).text.replace(/\n/g, '\r\n'));
  assert.is(edit(result.text).text, result.text);
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
  assert.is(result.text, `${text.replace("from 'fw-mvc';", `from 'fw-mvc';\n${IMPORT_LINE}`).replace(/\}\n$/, '')}\t// ${COMMENT}\n${routeLines('r', '\t').join('\n')}\n}\n`);
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

// --- refusals ---

const E = suite('crud-routes-edit: files that cannot be edited');

E('no registerRoutes: RoutesEditError whose manualLines hold the import and every route line', () => {
  const text = "import type { Router } from 'fw-mvc';\n\nexport function routes(router: Router): void {\n}\n";
  const error = editError(text);
  assert.match(error.message, /registerRoutes/);
  assert.match(error.message, /mvc\/routes\.ts/);
  const manual = error.manualLines.split('\n');
  assert.ok(manual.includes(IMPORT_LINE), error.manualLines);
  for (const line of routeLines()) assert.ok(manual.includes(line), `${line}\n${error.manualLines}`);
  assert.is(manual[0], IMPORT_LINE);
});

E('registerRoutes without a parameter, or declared as an arrow function: the same refusal', () => {
  for (const text of [
    'export function registerRoutes(): void {}\n',
    "import type { Router } from 'fw-mvc';\nexport const registerRoutes = (router: Router): void => {};\n",
  ]) {
    const error = editError(text);
    assert.ok(error.manualLines.split('\n').includes(IMPORT_LINE), text);
  }
});

E('a syntax error: RoutesEditError with the line number and no manual lines', () => {
  const text = "import type { Router } from 'fw-mvc';\n\nexport function registerRoutes(router: Router): void {\n  router.add('GET', '/', x;\n}\n";
  const error = editError(text);
  assert.match(error.message, /ligne 4\b/);
  assert.match(error.message, /mvc\/routes\.ts/);
  assert.is(error.manualLines, '');
});

E('nothing missing: even a file without registerRoutes is returned as it is', () => {
  const done = edit(TEMPLATE).text.replace('export function registerRoutes', 'export function autreNom');
  const result = edit(done);
  assert.is(result.text, done);
  assert.equal(result.added, []);
});

E.run();

// --- the controller's import: by module and by type-only-ness, not by name alone ---

const I = suite("crud-routes-edit: the controller's import");

const CONTROLLER = './controllers/contact_controller.js';

/** The template with `line` instead of the home controller's import. */
function withImport(line: string): string {
  return TEMPLATE.replace("import { HomeController } from './controllers/home_controller.js';", `import { HomeController } from './controllers/home_controller.js';\n${line}`);
}

/** Every plan route's handler comes from the generated controller's module. */
function assertWiredToController(text: string): void {
  const origins = handlerOrigins(text);
  for (const route of ROUTES) {
    const key = `${route.method} ${route.path.replace(/\{[^}]*\}/g, '{}')}`;
    assert.is(origins.get(key), `${CONTROLLER}#ContactController.${route.handler.split('.')[1]}`, key);
  }
}

I('an aliased import, or one without extension, from the controller module is used as it is: no import added', () => {
  for (const [line, local] of [
    [`import { ContactController as Contacts } from '${CONTROLLER}';`, 'Contacts'],
    ["import { ContactController } from './controllers/contact_controller';", 'ContactController'],
    ["import { type HomeController as H, ContactController } from './controllers/contact_controller.ts';", 'ContactController'],
  ] as const) {
    const text = withImport(line);
    const first = edit(text);
    assert.is(first.importAdded, false, line);
    assert.ok(first.added.every((r) => r.handler.startsWith(`${local}.`)), line);
    const inserted = new Set([`  // ${COMMENT}`, ...first.added.map((r) => `  router.add('${r.method}', '${r.path}', ${r.handler}, ${r.options});`)]);
    assert.is(inserted.size, ROUTES.length + 1);
    assert.is(first.text.split('\n').filter((l) => !inserted.has(l)).join('\n'), text, `user bytes untouched: ${line}`);
    const second = edit(first.text);
    assert.is(second.text, first.text, 'second run: no change');
    assert.equal(second.added, []);
  }
  assertWiredToController(edit(withImport(`import { ContactController as Contacts } from '${CONTROLLER}';`)).text);
});

I('the name imported from another module: refused, the conflict named, lines to paste that import the controller under an alias', () => {
  const text = withImport("import { ContactController } from './legacy/contact_controller.js';");
  for (let run = 0; run < 2; run++) {
    const error = editError(text);
    assert.is(
      error.message,
      "mvc/routes.ts : « ContactController » est déjà pris par l'import de « ./legacy/contact_controller.js » (ligne 4 : « import { ContactController } from './legacy/contact_controller.js'; ») : les routes générées désigneraient cet autre ContactController. Les lignes ci-dessous importent le contrôleur sous le nom CrudContactController.",
    );
    assert.equal(error.manualLines.split('\n'), [`import { ContactController as CrudContactController } from '${CONTROLLER}';`, '', ...routeLines().map((l) => l.replace('ContactController.', 'CrudContactController.'))]);
  }
  // Pasted as told: the routes are recognised, nothing is added, and each is wired to the generated controller.
  const [importLine, , ...routes] = editError(text).manualLines.split('\n');
  const pasted = text.replace("legacy/contact_controller.js';", `legacy/contact_controller.js';\n${importLine}`).replace(/\n}\n$/, `\n${routes.join('\n')}\n}\n`);
  for (let run = 0; run < 2; run++) {
    const again = edit(pasted);
    assert.is(again.text, pasted);
    assert.equal(again.added, []);
  }
  assertWiredToController(pasted);
});

I('the name bound by a default or namespace import, another export, or a declaration of the file: refused the same way', () => {
  const cases: Array<[string, RegExp]> = [
    [`import ContactController from '${CONTROLLER}';`, /déjà pris par l'import de « \.\/controllers\/contact_controller\.js » \(ligne 4/],
    ["import * as ContactController from './controllers/contact.js';", /l'import de « \.\/controllers\/contact\.js »/],
    [`import { VilleController as ContactController } from '${CONTROLLER}';`, /l'import de « \.\/controllers\/contact_controller\.js »/],
    ['const ContactController = { index: () => null };', /déjà pris par une déclaration du fichier \(ligne 4 : « const ContactController = \{ index: \(\) => null \}; »\)/],
  ];
  for (const [line, message] of cases) {
    const error = editError(withImport(line));
    assert.match(error.message, message, line);
    assert.ok(error.manualLines.startsWith(`import { ContactController as CrudContactController } from '${CONTROLLER}';\n`), error.manualLines);
  }
  // The alias is free too: CrudContactController2.
  const both = withImport(`import { ContactController } from './legacy.js';\nimport { CrudContactController } from './other.js';`);
  assert.match(editError(both).manualLines, /^import \{ ContactController as CrudContactController2 \} from/);
});

I('imported as a type only: refused with the line to write instead, nothing to paste', () => {
  for (const line of [`import type { ContactController } from '${CONTROLLER}';`, `import { type ContactController } from '${CONTROLLER}';`]) {
    const error = editError(withImport(line));
    assert.is(
      error.message,
      `mvc/routes.ts importe ContactController comme un type seulement (ligne 4 : « ${line} ») : les routes ont besoin de la classe. Remplacez cet import par « ${IMPORT_LINE} », puis relancez la commande.`,
    );
    assert.is(error.manualLines, '');
  }
  // A value import beside it is enough.
  const result = edit(withImport(`import type { ContactController as C } from '${CONTROLLER}';\n${IMPORT_LINE}`));
  assert.is(result.importAdded, false);
  assertEachRouteOnce(result.text);
});

I('no registerRoutes and the name taken: the function to paste uses the alias; the Router import when the file lacks it', () => {
  const text = "import { ContactController } from './legacy.js';\n\nexport function mesRoutes(): void {}\n";
  const error = editError(text);
  assert.match(error.message, /registerRoutes.*introuvable.*De plus, « ContactController » est déjà pris par l'import de « \.\/legacy\.js » \(ligne 1/);
  assert.equal(error.manualLines.split('\n').slice(0, 4), [
    "import type { Router } from 'fw-mvc';",
    `import { ContactController as CrudContactController } from '${CONTROLLER}';`,
    '',
    'export function registerRoutes(router: Router): void {',
  ]);
  assert.ok(error.manualLines.includes("router.add('GET', '/contacts', CrudContactController.index,"), error.manualLines);
});

I.run();
