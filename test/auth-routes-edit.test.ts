// addAuthRoutes and addMfaRoutes (emitters/auth/routes-edit.ts), table-driven: the shapes of mvc/routes.ts they edit
// (and the bytes they give, idempotent on their own output), recognise, and refuse with the lines to paste.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { addAuthRoutes, addMfaRoutes } from '../emitters/auth/routes-edit.js';
import { RoutesEditError } from '../emitters/codemods/routes-edit.js';

const IMPORT = "import { registerAuthRoutes } from 'fw-mvc/auth';";
const COMMENT = '// Authentification : GET /login, POST /login, POST /logout (fw auth:init)';

const EDITED: ReadonlyArray<{ name: string; given: string; want: string }> = [
  {
    name: 'an arrow function in a const, indented with tabs, no import yet',
    given: "import type { Router } from 'fw-mvc';\n\nexport const registerRoutes = (r: Router): void => {\n\tr.add('GET', '/', h);\n};\n",
    want: `import type { Router } from 'fw-mvc';\n${IMPORT}\n\nexport const registerRoutes = (r: Router): void => {\n\tr.add('GET', '/', h);\n\t${COMMENT}\n\tregisterAuthRoutes(r);\n};\n`,
  },
  {
    name: 'an empty body on one line, a file without imports',
    given: 'export function registerRoutes(router: Router): void {}\n',
    want: `${IMPORT}\nexport function registerRoutes(router: Router): void {\n  ${COMMENT}\n  registerAuthRoutes(router);\n}\n`,
  },
  {
    name: 'a function expression through `satisfies`, the comment of the last import kept with it',
    given:
      "import { x } from './x.js'; // helpers\n\nexport const registerRoutes = function (router: Router) {\n  x(router);\n} satisfies (r: Router) => void;\n",
    want: `import { x } from './x.js'; // helpers\n${IMPORT}\n\nexport const registerRoutes = function (router: Router) {\n  x(router);\n  ${COMMENT}\n  registerAuthRoutes(router);\n} satisfies (r: Router) => void;\n`,
  },
];

for (const { name, given, want } of EDITED) {
  test(`edits: ${name}`, () => {
    const edit = addAuthRoutes(given, 'mvc/routes.ts');
    assert.is(edit.text, want);
    assert.ok(edit.callAdded);
    const again = addAuthRoutes(edit.text, 'mvc/routes.ts');
    assert.is(again.text, edit.text, 'a second edit changes nothing');
    assert.is(again.callAdded, false);
  });
}

test('recognises the call made from a helper that registerRoutes calls, and the login routes the file declares', () => {
  const given = `${IMPORT}\nfunction auth(router: Router) { registerAuthRoutes(router); }\nexport function registerRoutes(router: Router) {\n  router.add('POST', '/logout', out);\n  auth(router);\n}\n`;
  const edit = addAuthRoutes(given, 'mvc/routes.ts');
  assert.is(edit.text, given);
  assert.equal(edit.conflicts, ['POST /logout']);
});

const REFUSED: ReadonlyArray<{ name: string; given: string; message: RegExp; manual: string }> = [
  {
    name: 'an arrow function with an expression body',
    given: 'export const registerRoutes = (router: Router): void => undefined;\n',
    message: /^mvc\/routes\.ts : la fonction « registerRoutes » \(ligne 1\) est une fonction fléchée sans bloc/,
    manual: `${IMPORT}\n\n  registerAuthRoutes(router);`,
  },
  {
    name: 'a registerRoutes without parameter',
    given: `${IMPORT}\nexport function registerRoutes() {}\n`,
    message: /^mvc\/routes\.ts : la fonction « registerRoutes » \(ligne 2\) n'a pas de paramètre/,
    manual: '  registerAuthRoutes(router);',
  },
  {
    name: 'the name imported as a type only',
    given: "import type { registerAuthRoutes } from 'fw-mvc/auth';\nexport function registerRoutes(router: Router) {}\n",
    message: /^mvc\/routes\.ts : le nom « registerAuthRoutes » est déjà pris \(ligne 1 : « import type \{ registerAuthRoutes \} from 'fw-mvc\/auth'; »\)/,
    manual: '',
  },
  {
    name: 'the name imported from another module',
    given: "import { registerAuthRoutes } from './mine.js';\nexport function registerRoutes(router: Router) {}\n",
    message: /^mvc\/routes\.ts : le nom « registerAuthRoutes » est déjà pris \(ligne 1 : « import \{ registerAuthRoutes \} from '\.\/mine\.js'; »\)/,
    manual: '',
  },
];

for (const { name, given, message, manual } of REFUSED) {
  test(`refuses: ${name}`, () => {
    let caught: unknown;
    try {
      addAuthRoutes(given, 'mvc/routes.ts');
    } catch (error) {
      caught = error;
    }
    assert.instance(caught, RoutesEditError);
    assert.match((caught as RoutesEditError).message, message);
    assert.is((caught as RoutesEditError).manualLines, manual);
  });
}

const MFA_IMPORT = "import { registerMfaRoutes } from 'fw-mvc/mfa';";
const MFA_COMMENT = '// Second facteur : GET et POST /login/mfa, pages /account/mfa (fw starter:build mfa)';

test('MFA: added after the auth call, its import after the auth import; a second edit changes nothing', () => {
  const given = `import type { Router } from 'fw-mvc';\n${IMPORT}\n\nexport function registerRoutes(router: Router): void {\n  ${COMMENT}\n  registerAuthRoutes(router);\n}\n`;
  const edit = addMfaRoutes(given, 'mvc/routes.ts');
  assert.is(
    edit.text,
    `import type { Router } from 'fw-mvc';\n${IMPORT}\n${MFA_IMPORT}\n\nexport function registerRoutes(router: Router): void {\n  ${COMMENT}\n  registerAuthRoutes(router);\n  ${MFA_COMMENT}\n  registerMfaRoutes(router);\n}\n`,
  );
  assert.ok(edit.importAdded);
  assert.ok(edit.callAdded);
  assert.equal(edit.conflicts, []);
  const again = addMfaRoutes(edit.text, 'mvc/routes.ts');
  assert.is(again.text, edit.text);
  assert.is(again.callAdded, false);
  // The auth edit does not mistake the MFA call for its own, and the MFA edit not the auth one.
  assert.is(addAuthRoutes(edit.text, 'mvc/routes.ts').text, edit.text);
  const mfaOnly = addMfaRoutes('export function registerRoutes(router: Router): void {}\n', 'mvc/routes.ts');
  assert.is(addAuthRoutes(mfaOnly.text, 'mvc/routes.ts').callAdded, true);
});

test('MFA: an aliased import is called under its alias; the routes the file declares itself are reported', () => {
  const given =
    "import { registerMfaRoutes as mfa } from 'fw-mvc/mfa';\nexport function registerRoutes(r: Router) {\n  r.add('GET', '/account/mfa', mine);\n}\n";
  const edit = addMfaRoutes(given, 'mvc/routes.ts');
  assert.is(
    edit.text,
    `import { registerMfaRoutes as mfa } from 'fw-mvc/mfa';\nexport function registerRoutes(r: Router) {\n  r.add('GET', '/account/mfa', mine);\n  ${MFA_COMMENT}\n  mfa(r);\n}\n`,
  );
  assert.is(edit.importAdded, false);
  assert.equal(edit.conflicts, ['GET /account/mfa']);
});

test('MFA refuses: no registerRoutes (the import and the call to paste), the name taken by another module', () => {
  let caught: unknown;
  try {
    addMfaRoutes("import type { Router } from 'fw-mvc';\n", 'mvc/routes.ts');
  } catch (error) {
    caught = error;
  }
  assert.instance(caught, RoutesEditError);
  assert.match(
    (caught as RoutesEditError).message,
    /^mvc\/routes\.ts : la fonction « export function registerRoutes\(router: Router\) » est introuvable : les routes du second facteur ne peuvent pas y être ajoutées automatiquement\.$/,
  );
  assert.is((caught as RoutesEditError).manualLines, `${MFA_IMPORT}\n\n  registerMfaRoutes(router);`);
  caught = undefined;
  try {
    addMfaRoutes("import { registerMfaRoutes } from 'fw-mvc/auth';\nexport function registerRoutes(router: Router) {}\n", 'mvc/routes.ts');
  } catch (error) {
    caught = error;
  }
  assert.instance(caught, RoutesEditError);
  assert.match(
    (caught as RoutesEditError).message,
    /le nom « registerMfaRoutes » est déjà pris \(ligne 1 : « import \{ registerMfaRoutes \} from 'fw-mvc\/auth'; »\) ; l'import de « fw-mvc\/mfa » ne peut pas être ajouté\.$/,
  );
});

test.run();
