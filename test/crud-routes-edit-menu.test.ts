// The menu lines of mvc/routes.ts (docs/crud.md "The menu"): `addRoutes` writes the list's `router.menu()` after
// its routes, recognises an entry by its path (a second run, or an entry the user relabelled, changes no byte),
// adds the line alone where the routes are already there; `addMenu` (the mfa starter) the same, the file's line ends
// and byte order mark kept; the lines to paste carry the menu line; the runtime's Router reads what was written.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { addRoutes, RoutesEditError } from '../emitters/crud/index.js';
import { addMenu } from '../emitters/codemods/routes-menu.js';
import { menuLine } from '../emitters/codemods/routes-lines.js';
import { Router, RouteError } from '../runtime/http/router.js';
import { COMMENT, IMPORT, ROUTES, TEMPLATE, routeLines } from './helpers/crud-routes-edit.js';

const FILE = 'mvc/routes.ts';
const MENU = [{ path: '/contacts', label: 'Contacts' }];
const LINE = "  router.menu('/contacts', 'Contacts');";

test('the menu line follows the routes, once; a second run changes no byte', () => {
  const first = addRoutes(TEMPLATE, FILE, IMPORT, ROUTES, COMMENT, MENU);
  assert.equal(first.menuAdded, MENU);
  assert.ok(first.text.endsWith(`  // ${COMMENT}\n${routeLines().join('\n')}\n${LINE}\n}\n`), first.text);
  const second = addRoutes(first.text, FILE, IMPORT, ROUTES, COMMENT, MENU);
  assert.is(second.text, first.text);
  assert.equal(second.menuAdded, []);
});

test('an entry is recognised by its path, whatever its label, quotes or options', () => {
  const done = addRoutes(TEMPLATE, FILE, IMPORT, ROUTES, COMMENT, MENU).text;
  const mine = done.replace(LINE, '  router.menu("/contacts", "Mes contacts", { roles: ["admin"] });');
  assert.is(addRoutes(mine, FILE, IMPORT, ROUTES, COMMENT, MENU).text, mine);
});

test('routes already there (an earlier release): the menu line alone, after the comment', () => {
  const old = addRoutes(TEMPLATE, FILE, IMPORT, ROUTES, COMMENT).text;
  const edit = addRoutes(old, FILE, IMPORT, ROUTES, COMMENT, MENU);
  assert.equal(edit.added, []);
  assert.is(edit.text, old.replace(/\n}\n$/, `\n  // ${COMMENT}\n${LINE}\n}\n`));
});

test('addMenu keeps CRLF line ends and the byte order mark, and is idempotent', () => {
  const crlf = `\uFEFF${TEMPLATE.replace(/\n/g, '\r\n')}`;
  const entries = [{ path: '/account/mfa', label: 'Second facteur' }];
  const edit = addMenu(crlf, FILE, entries, 'Menu : second facteur (fw starter:build mfa)');
  assert.ok(edit.text.startsWith('\uFEFF'));
  assert.ok(
    edit.text.endsWith("\r\n  // Menu : second facteur (fw starter:build mfa)\r\n  router.menu('/account/mfa', 'Second facteur');\r\n}\r\n"),
    edit.text,
  );
  assert.is(addMenu(edit.text, FILE, entries, 'x').text, edit.text);
});

test('a label with an apostrophe is written as a valid string', () => {
  assert.is(menuLine('router', { path: '/aide', label: "Centre d'aide" }), "router.menu('/aide', 'Centre d\\'aide');");
});

test('no registerRoutes: the lines to paste include the menu line', () => {
  const error = (() => {
    try {
      addRoutes(TEMPLATE.replace('export function registerRoutes', 'export function autre'), FILE, IMPORT, ROUTES, COMMENT, MENU);
    } catch (e) {
      return e;
    }
    return null;
  })();
  assert.instance(error, RoutesEditError);
  assert.ok((error as RoutesEditError).manualLines.endsWith(`${routeLines().join('\n')}\n${LINE}\n}`), (error as RoutesEditError).manualLines);
});

test('the Router keeps the entries in order and refuses a path twice or a path that is not one', () => {
  const router = new Router();
  router.menu('/contacts', 'Contacts').menu('/villes', 'Villes', { roles: ['admin'] });
  assert.equal(router.menuEntries(), [
    { path: '/contacts', label: 'Contacts' },
    { path: '/villes', label: 'Villes', roles: ['admin'] },
  ]);
  assert.throws(
    () => router.menu('/contacts', 'Encore'),
    (e: unknown) => e instanceof RouteError && /déjà dans le menu/.test(e.message),
  );
  assert.throws(
    () => router.menu('contacts', 'Contacts'),
    (e: unknown) => e instanceof RouteError,
  );
});

test.run();
