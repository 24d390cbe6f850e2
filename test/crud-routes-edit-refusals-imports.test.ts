// `addRoutes`, the edit of `mvc/routes.ts` behind `fw make:crud` (docs/architecture.md "Codemods: one recipe"): files it refuses to edit, with
// errors that give the lines to paste, and the controller's import recognised by module and type-only-ness. Pasted
// lines are run against the real Router, so that each route is wired to the generated controller.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { COMMENT, IMPORT_LINE, ROUTES, TEMPLATE, assertEachRouteOnce, edit, editError, handlerOrigins, routeLines } from './helpers/crud-routes-edit.js';

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

E('registerRoutes without a parameter: refused, the lines are the routes for its body, not a second registerRoutes', () => {
  const error = editError('export function registerRoutes(): void {}\n');
  assert.match(error.message, /paramètre/);
  assert.is(error.placement, 'function');
  const manual = error.manualLines.split('\n');
  assert.equal(manual.slice(0, 2), ["import type { Router } from 'fw-mvc';", IMPORT_LINE]);
  for (const line of routeLines()) assert.ok(manual.includes(line), `${line}\n${error.manualLines}`);
  assert.not.match(error.manualLines, /registerRoutes/);
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
  return TEMPLATE.replace(
    "import { HomeController } from './controllers/home_controller.js';",
    `import { HomeController } from './controllers/home_controller.js';\n${line}`,
  );
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
    assert.ok(
      first.added.every((r) => r.handler.startsWith(`${local}.`)),
      line,
    );
    const inserted = new Set([`  // ${COMMENT}`, ...first.added.map((r) => `  router.add('${r.method}', '${r.path}', ${r.handler}, ${r.options});`)]);
    assert.is(inserted.size, ROUTES.length + 1);
    assert.is(
      first.text
        .split('\n')
        .filter((l) => !inserted.has(l))
        .join('\n'),
      text,
      `user bytes untouched: ${line}`,
    );
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
    assert.equal(error.manualLines.split('\n'), [
      `import { ContactController as CrudContactController } from '${CONTROLLER}';`,
      '',
      ...routeLines().map((l) => l.replace('ContactController.', 'CrudContactController.')),
    ]);
  }
  // Pasted as told: the routes are recognised, nothing is added, and each is wired to the generated controller.
  const [importLine, , ...routes] = editError(text).manualLines.split('\n');
  const pasted = text
    .replace("legacy/contact_controller.js';", `legacy/contact_controller.js';\n${importLine}`)
    .replace(/\n}\n$/, `\n${routes.join('\n')}\n}\n`);
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
    [
      'const ContactController = { index: () => null };',
      /déjà pris par une déclaration du fichier \(ligne 4 : « const ContactController = \{ index: \(\) => null \}; »\)/,
    ],
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
