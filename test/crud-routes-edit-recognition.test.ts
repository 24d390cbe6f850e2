// `addRoutes`, the edit of `mvc/routes.ts` behind `fw make:crud` (docs/architecture.md "Codemods: one recipe"): in the template of fw new,
// the routes and the import added once with the user's bytes left alone and the second run a no-op; existing routes
// recognised by method and path read from the syntax tree. The edited files are also run against the real Router, so
// that "recognised" means "the router already answers this route".
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { COMMENT, IMPORT_LINE, ROUTES, TEMPLATE, assertEachRouteOnce, edit, keys, routeLines } from './helpers/crud-routes-edit.js';

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
  assert.is(
    result.text
      .split('\n')
      .filter((line) => !inserted.has(line))
      .join('\n'),
    TEMPLATE,
  );
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
