// `addRoutes` on routes that already exist with another public flag than the one asked (issue: `make:crud X --public`
// after `make:crud X` left them protected without a word). The flag is read from the syntax tree as the Router sets it
// (route options, then group options, else protected); each reported route comes with the line it should become,
// the text itself is never changed; pasting the proposed lines gives the router the requested flag.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { addRoutes, crudRoutes, planCrud, type RouteToAdd } from '../emitters/crud/index.js';
import { COMMENT, IMPORT, IMPORT_LINE, ROUTES, TEMPLATE, applyFixes, publicFlags } from './helpers/crud-routes-edit.js';
import { fixtureModel } from './helpers/fixture-project.js';

const PUBLIC_ROUTES = crudRoutes(planCrud(fixtureModel(), 'Contact', { isPublic: true })).routes;
const FILE = 'mvc/routes.ts';

function edit(text: string, routes: readonly RouteToAdd[]) {
  return addRoutes(text, FILE, IMPORT, routes, COMMENT);
}

/** registerRoutes with these body lines, the controller imported. */
function routesFile(body: readonly string[]): string {
  return ["import type { Router } from 'fw-mvc';", IMPORT_LINE, '', 'export function registerRoutes(router: Router): void {', ...body, '}', ''].join('\n');
}

const key = (route: RouteToAdd): string => `${route.method} ${route.path.replace(/\{[^}]*\}/g, '{}')}`;

/** The router's flag of each route of the plan in a text. */
function flagsOf(text: string): boolean[] {
  const flags = publicFlags(text);
  return ROUTES.map((r) => {
    const flag = flags.get(key(r));
    assert.ok(flag !== undefined, `${key(r)} registered`);
    return flag;
  });
}

// --- the whole CRUD, one way then the other ---

const W = suite('crud-routes-edit-public: make:crud X then make:crud X --public, and back');

W('protected routes, --public asked: all 10 reported with the line to write; the text is unchanged', () => {
  const protectedText = edit(TEMPLATE, ROUTES).text;
  const result = edit(protectedText, PUBLIC_ROUTES);
  assert.is(result.text, protectedText);
  assert.equal(result.added, []);
  assert.is(result.existing.length, 10);
  assert.equal(
    result.mismatched.map((m) => [m.method, m.path, m.isPublic]),
    PUBLIC_ROUTES.map((r) => [r.method, r.path, false]),
  );
  const first = result.mismatched[0];
  assert.ok(first);
  assert.is(first.before, "  router.add('GET', '/contacts', ContactController.index, { name: 'contacts.index' });");
  assert.is(first.after, "  router.add('GET', '/contacts', ContactController.index, { name: 'contacts.index', public: true });");
  assert.is(protectedText.split('\n')[first.line - 1], first.before);
  // Pasted, the proposed lines are exactly what make:crud --public writes, and the router sees them public.
  const fixed = applyFixes(protectedText, result.mismatched);
  assert.is(fixed, edit(TEMPLATE, PUBLIC_ROUTES).text);
  assert.equal(
    flagsOf(fixed),
    ROUTES.map(() => true),
  );
  assert.equal(edit(fixed, PUBLIC_ROUTES).mismatched, []);
});

W('public routes, protected asked: reported the other way; pasted, the file is the protected one byte for byte', () => {
  const protectedText = edit(TEMPLATE, ROUTES).text;
  const publicText = edit(TEMPLATE, PUBLIC_ROUTES).text;
  const result = edit(publicText, ROUTES);
  assert.is(result.text, publicText);
  assert.equal(
    result.mismatched.map((m) => m.isPublic),
    ROUTES.map(() => true),
  );
  assert.is(applyFixes(publicText, result.mismatched), protectedText);
  assert.equal(edit(protectedText, ROUTES).mismatched, [], 'same flag: nothing reported');
});

W('only the existing routes are compared; the missing ones are added with the requested flag', () => {
  const text = routesFile(["  router.add('GET', '/contacts', ContactController.index, { name: 'contacts.index' });"]);
  const result = edit(text, PUBLIC_ROUTES);
  assert.is(result.added.length, 9);
  assert.equal(
    result.mismatched.map((m) => `${m.method} ${m.path}`),
    ['GET /contacts'],
  );
  assert.equal(
    flagsOf(applyFixes(result.text, result.mismatched)),
    ROUTES.map(() => true),
  );
});

// --- how the flag is read, and the line proposed ---

const F = suite('crud-routes-edit-public: the flag read by meaning, the line to write');

const INDEX_PUBLIC = PUBLIC_ROUTES.filter((r) => r.path === '/contacts' && r.method === 'GET');
const INDEX_PROTECTED = ROUTES.filter((r) => r.path === '/contacts' && r.method === 'GET');

const cases: Array<{ name: string; body: string[]; routes: readonly RouteToAdd[]; want: Array<[string, string]> | 'none' }> = [
  {
    name: 'explicit public: false, --public asked: the literal becomes true',
    body: ["  router.add('GET', '/contacts', ContactController.index, { public: false, name: 'contacts.index' });"],
    routes: INDEX_PUBLIC,
    want: [
      [
        "  router.add('GET', '/contacts', ContactController.index, { public: false, name: 'contacts.index' });",
        "  router.add('GET', '/contacts', ContactController.index, { public: true, name: 'contacts.index' });",
      ],
    ],
  },
  {
    name: 'public: true first, protected asked: removed with its comma',
    body: ["  router.add('GET', '/contacts', ContactController.index, { public: true, name: 'contacts.index' });"],
    routes: INDEX_PROTECTED,
    want: [
      [
        "  router.add('GET', '/contacts', ContactController.index, { public: true, name: 'contacts.index' });",
        "  router.add('GET', '/contacts', ContactController.index, { name: 'contacts.index' });",
      ],
    ],
  },
  {
    name: "a quoted key 'public' is the same key",
    body: ["  router.add('GET', '/contacts', ContactController.index, { 'public': true });"],
    routes: INDEX_PROTECTED,
    want: [
      ["  router.add('GET', '/contacts', ContactController.index, { 'public': true });", "  router.add('GET', '/contacts', ContactController.index, {});"],
    ],
  },
  {
    name: 'no options argument: one is added',
    body: ["  router.add('GET', '/contacts', ContactController.index);"],
    routes: INDEX_PUBLIC,
    want: [["  router.add('GET', '/contacts', ContactController.index);", "  router.add('GET', '/contacts', ContactController.index, { public: true });"]],
  },
  {
    name: 'an empty options object gets the property',
    body: ["  router.add('GET', '/contacts', ContactController.index, {});"],
    routes: INDEX_PUBLIC,
    want: [["  router.add('GET', '/contacts', ContactController.index, {});", "  router.add('GET', '/contacts', ContactController.index, { public: true });"]],
  },
  {
    name: "a public group's route, protected asked: public: false on the route (the group stays as it is)",
    body: ["  router.group('/contacts', { public: true }, (g) => {", "    g.add('GET', '/', ContactController.index, { name: 'contacts.index' });", '  });'],
    routes: INDEX_PROTECTED,
    want: [
      [
        "    g.add('GET', '/', ContactController.index, { name: 'contacts.index' });",
        "    g.add('GET', '/', ContactController.index, { name: 'contacts.index', public: false });",
      ],
    ],
  },
  {
    name: "public: true in a public group, protected asked: the literal becomes false (removing it would keep the group's)",
    body: [
      "  router.group('/contacts', { public: true }, (g) => {",
      "    g.add('GET', '/', ContactController.index, { name: 'contacts.index', public: true });",
      '  });',
    ],
    routes: INDEX_PROTECTED,
    want: [
      [
        "    g.add('GET', '/', ContactController.index, { name: 'contacts.index', public: true });",
        "    g.add('GET', '/', ContactController.index, { name: 'contacts.index', public: false });",
      ],
    ],
  },
  {
    name: 'a route of a protected group (chained group call), --public asked',
    body: ["  router.group('/contacts').add('GET', '', ContactController.index, { name: 'contacts.index' });"],
    routes: INDEX_PUBLIC,
    want: [
      [
        "  router.group('/contacts').add('GET', '', ContactController.index, { name: 'contacts.index' });",
        "  router.group('/contacts').add('GET', '', ContactController.index, { name: 'contacts.index', public: true });",
      ],
    ],
  },
  {
    name: 'a route written over several lines: all its lines, only the options changed',
    body: ['  router.add(', "    'GET',", "    '/contacts',", '    ContactController.index,', "    { name: 'contacts.index', public: true },", '  );'],
    routes: INDEX_PROTECTED,
    want: [
      [
        ['  router.add(', "    'GET',", "    '/contacts',", '    ContactController.index,', "    { name: 'contacts.index', public: true },", '  );'].join('\n'),
        ['  router.add(', "    'GET',", "    '/contacts',", '    ContactController.index,', "    { name: 'contacts.index' },", '  );'].join('\n'),
      ],
    ],
  },
  {
    name: 'the same flag: nothing reported',
    body: ["  router.add('GET', '/contacts', ContactController.index, { name: 'x', public: true });"],
    routes: INDEX_PUBLIC,
    want: 'none',
  },
  {
    name: 'a computed flag cannot be told: nothing reported',
    body: ['  const open = true;', "  router.add('GET', '/contacts', ContactController.index, { public: open });"],
    routes: INDEX_PROTECTED,
    want: 'none',
  },
  {
    name: 'a spread may bring the flag: nothing reported',
    body: ["  router.add('GET', '/contacts', ContactController.index, { ...defaults });"],
    routes: INDEX_PUBLIC,
    want: 'none',
  },
  {
    name: 'options in a variable: nothing reported',
    body: ["  router.add('GET', '/contacts', ContactController.index, defaults);"],
    routes: INDEX_PUBLIC,
    want: 'none',
  },
  {
    name: 'a group whose options are a variable: cannot be told for its routes without their own flag',
    body: ["  router.group('/contacts', defaults, (g) => g.add('GET', '', ContactController.index, { name: 'contacts.index' }));"],
    routes: INDEX_PUBLIC,
    want: 'none',
  },
];

for (const c of cases) {
  F(c.name, () => {
    const text = routesFile(c.body);
    const result = edit(text, c.routes);
    assert.is(result.text, text, 'the user file is never changed');
    assert.equal(result.existing.length, 1, 'the route is recognised');
    if (c.want === 'none') {
      assert.equal(result.mismatched, []);
      return;
    }
    assert.equal(
      result.mismatched.map((m) => [m.before, m.after]),
      c.want,
    );
    // The reported line is where the route is, and pasting the proposed lines gives the router the requested flag.
    const wanted = c.routes[0]?.options.includes('public: true') === true;
    const fixed = applyFixes(text, result.mismatched);
    assert.is(publicFlags(fixed).get('GET /contacts'), wanted);
    assert.is(publicFlags(text).get('GET /contacts'), !wanted, 'the router saw the other flag before');
    assert.equal(edit(fixed, c.routes).mismatched, [], 'nothing left to report');
  });
}

W.run();
F.run();
