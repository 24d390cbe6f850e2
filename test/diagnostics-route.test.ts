// The route checks (FW-ROUTE-*) over a corpus of broken projects: a real `fw new` project with a CRUD page and the
// auth routes, copied and given one defect each, checked in a separate process (test/helpers/diagnostics-runner.ts)
// that must report exactly the expected id and status, exit 1 on a FAIL, and leave the project's tree untouched.
// mvc/routes.ts is read as a syntax tree, never run: a routes file that writes a file when imported is reported.
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ROUTE_DEFINITIONS } from '../cli/checks/route.js';
import { newProject, type CliProject } from './helpers/cli.js';
import { assertProblems, byId, Copies, diagnoseInert, edit, write } from './helpers/diagnostics-families.js';

const ROUTES = 'mvc/routes.ts';
const CONTROLLER = 'mvc/controllers/ville_controller.ts';
const test = suite<{ project: CliProject; copies: Copies }>('diagnostics: the route checks on broken projects');

test.before((context) => {
  context.project = newProject('Itineraires');
  for (const args of [['make:entity', 'Ville', '--no-input'], ['build:model'], ['make:crud', 'Ville'], ['auth:init']]) {
    const run = context.project.run(args);
    assert.is(run.status, 0, `fw ${args.join(' ')} : ${run.stdout}${run.stderr}`);
  }
  context.copies = new Copies(context.project.root);
});

test.after(async ({ project, copies }) => {
  copies?.cleanup();
  await project?.cleanup();
});

/** Adds lines at the end of registerRoutes. */
const addRoutes = (root: string, lines: string): void => edit(root, ROUTES, (text) => text.replace(/\n}\n$/, `\n${lines}\n}\n`));

test('a generated project (CRUD page, auth routes): every route check OK, in id order, exit 0', ({ copies }) => {
  const diagnosis = diagnoseInert(copies.make(), ['route']);
  assertProblems(diagnosis, []);
  assert.equal(
    diagnosis.checks.map((c) => `${c.id} ${c.status}`),
    ROUTE_DEFINITIONS.map((d) => `${d.id} OK`),
  );
  assert.ok(diagnosis.checks.every((c) => c.family === 'route' && c.label === ROUTE_DEFINITIONS.find((d) => d.id === c.id)!.label));
  assert.is(byId(diagnosis, 'FW-ROUTE-004')[0]!.detail, '11 route(s) et celles de registerAuthRoutes');
  assert.is(byId(diagnosis, 'FW-ROUTE-008')[0]!.detail, '11 méthode(s) de contrôleur trouvée(s)');
});

test('the suivi and mfa starters: their routes (controllers, account pages, module routes) are all OK', async () => {
  const project = newProject('Suivi');
  try {
    for (const starter of ['suivi', 'mfa']) {
      const run = project.run(['starter:build', starter]);
      assert.is(run.status, 0, `${run.stdout}${run.stderr}`);
    }
    const diagnosis = diagnoseInert(project.root, ['route']);
    assertProblems(diagnosis, []);
    assert.is(byId(diagnosis, 'FW-ROUTE-004')[0]!.detail, '34 route(s) et celles de registerAuthRoutes, registerMfaRoutes');
  } finally {
    await project.cleanup();
  }
});

test('FW-ROUTE-001 FAIL: mvc/routes.ts missing, a folder, binary, 2 MB, a symlink loop, nested too deeply; the others SKIP', ({ copies }) => {
  const cases: Array<[string, (root: string) => void, string]> = [
    ['absent', (root) => fs.rmSync(path.join(root, ROUTES)), 'mvc/routes.ts est introuvable'],
    ['dossier', (root) => (fs.rmSync(path.join(root, ROUTES)), fs.mkdirSync(path.join(root, ROUTES))), "mvc/routes.ts n'est pas un fichier"],
    ['binaire', (root) => write(root, ROUTES, Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 0, 0xff])), 'mvc/routes.ts est un fichier binaire, pas du texte'],
    ['2 Mo', (root) => write(root, ROUTES, `// ${'x'.repeat(2 * 1024 * 1024)}\n`), 'mvc/routes.ts est trop volumineux (2097156 octets, au plus 1048576)'],
    [
      'boucle',
      (root) => (fs.rmSync(path.join(root, ROUTES)), fs.symlinkSync('routes.ts', path.join(root, ROUTES))),
      'mvc/routes.ts est une boucle de liens symboliques',
    ],
  ];
  cases.push([
    'imbrication',
    (root) => write(root, ROUTES, `export const x = ${'['.repeat(100_000)}${']'.repeat(100_000)};\n`),
    "mvc/routes.ts ne s'analyse pas (imbrication trop profonde)",
  ]);
  for (const [label, defect, detail] of cases) {
    const diagnosis = diagnoseInert(copies.make(defect), ['route']);
    assertProblems(diagnosis, ['FW-ROUTE-001 FAIL']);
    const [fail] = byId(diagnosis, 'FW-ROUTE-001');
    assert.is(fail!.detail, detail, label);
    assert.is(fail!.file, ROUTES);
    assert.ok(
      diagnosis.checks.filter((c) => c.id !== 'FW-ROUTE-001').every((c) => c.status === 'SKIP'),
      label,
    );
  }
});

test('FW-ROUTE-002 FAIL: a syntax error, with its file, line and column; the checks that need the routes SKIP', ({ copies }) => {
  const root = copies.make((r) => edit(r, ROUTES, (text) => text.replace("router.add('GET', '/villes/new'", "router.add('GET' '/villes/new'")));
  const diagnosis = diagnoseInert(root, ['route']);
  assertProblems(diagnosis, ['FW-ROUTE-002 FAIL']);
  const [fail] = byId(diagnosis, 'FW-ROUTE-002');
  assert.equal({ file: fail!.file, line: fail!.line, column: fail!.column }, { file: ROUTES, line: 11, column: 20 });
  assert.is(fail!.detail, "mvc/routes.ts ligne 11, colonne 20 : ',' expected");
  assert.is(byId(diagnosis, 'FW-ROUTE-005')[0]!.status, 'SKIP');
});

test('FW-ROUTE-003 FAIL: registerRoutes not exported (declared without export, or only as a default export)', ({ copies }) => {
  for (const replacement of ['function registerRoutes(', 'export default function registerRoutes(']) {
    const root = copies.make((r) => edit(r, ROUTES, (text) => text.replace('export function registerRoutes(', replacement)));
    const diagnosis = diagnoseInert(root, ['route']);
    assertProblems(diagnosis, ['FW-ROUTE-003 FAIL']);
    assert.is(byId(diagnosis, 'FW-ROUTE-003')[0]!.detail, "mvc/routes.ts n'exporte pas registerRoutes");
  }
  // `export { registerRoutes }` and an exported arrow function count.
  const listed = copies.make((r) =>
    edit(r, ROUTES, (text) => `${text.replace('export function registerRoutes(', 'function registerRoutes(')}export { registerRoutes };\n`),
  );
  assertProblems(diagnoseInert(listed, ['route']), []);
});

test('FW-ROUTE-004 WARN for project:check when registerRoutes declares no route; INFO for doctor', ({ copies }) => {
  const root = copies.make((r) => write(r, ROUTES, "import type { Router } from 'fw-mvc';\n\nexport function registerRoutes(_router: Router): void {}\n"));
  assertProblems(diagnoseInert(root, ['route']), ['FW-ROUTE-004 WARN']);
  assertProblems(diagnoseInert(root, ['route'], 'project:audit'), ['FW-ROUTE-004 WARN']);
  const doctor = diagnoseInert(root, ['route'], 'doctor');
  assertProblems(doctor, []);
  assert.is(byId(doctor, 'FW-ROUTE-004')[0]!.status, 'INFO');
});

test("FW-ROUTE-005 FAIL: a path or a method the router refuses, by the router's own rule, with its line", ({ copies }) => {
  const root = copies.make((r) =>
    addRoutes(
      r,
      "  router.add('GET', 'villes/carte', VilleController.index);\n  router.add('FETCH', '/villes/carte', VilleController.index);\n  router.group('/admin', {}, (g) => g.add('GET', '/{id', VilleController.show));",
    ),
  );
  const diagnosis = diagnoseInert(root, ['route']);
  assertProblems(diagnosis, ['FW-ROUTE-005 FAIL', 'FW-ROUTE-005 FAIL', 'FW-ROUTE-005 FAIL']);
  assert.equal(
    byId(diagnosis, 'FW-ROUTE-005').map((c) => `${c.line}:${c.column} ${c.detail}`),
    [
      '23:3 le motif de route « villes/carte » doit commencer par « / » : le serveur refuse de démarrer',
      '24:3 méthode HTTP inconnue « FETCH » pour /villes/carte',
      '25:37 segment invalide « {id » dans la route /admin/{id : écrivez {nom} : le serveur refuse de démarrer',
    ],
  );
});

test('FW-ROUTE-006 FAIL: the same method and path twice (another parameter name, a group, a local route file)', ({ copies }) => {
  const root = copies.make((r) => {
    write(
      r,
      'mvc/routes_carte.ts',
      "import type { Router } from 'fw-mvc';\nimport { VilleController } from './controllers/ville_controller.js';\n\nexport function registerCarteRoutes(router: Router): void {\n  router.add('GET', '/villes/export.csv', VilleController.exportCsv);\n}\n",
    );
    edit(r, ROUTES, (text) =>
      text.replace(
        "import { registerAuthRoutes } from 'fw-mvc/auth';",
        "import { registerAuthRoutes } from 'fw-mvc/auth';\nimport { registerCarteRoutes } from './routes_carte.js';",
      ),
    );
    addRoutes(
      r,
      "  router.add('get', '/villes/{ville_id}', VilleController.show);\n  const group = router.group('/villes');\n  group.add('POST', '/', VilleController.store);\n  registerCarteRoutes(router);",
    );
  });
  const diagnosis = diagnoseInert(root, ['route']);
  assertProblems(diagnosis, ['FW-ROUTE-006 FAIL', 'FW-ROUTE-006 FAIL', 'FW-ROUTE-006 FAIL']);
  assert.equal(
    byId(diagnosis, 'FW-ROUTE-006').map((c) => `${c.file}:${c.line} ${c.detail}`),
    [
      'mvc/routes.ts:24 GET /villes/{ville_id} déjà déclarée (mvc/routes.ts ligne 17) : cette route ne répond jamais',
      'mvc/routes.ts:26 POST /villes déjà déclarée (mvc/routes.ts ligne 13) : cette route ne répond jamais',
      'mvc/routes_carte.ts:5 GET /villes/export.csv déjà déclarée (mvc/routes.ts ligne 14) : cette route ne répond jamais',
    ],
  );
});

test('FW-ROUTE-007 FAIL: two routes with the same name (the router refuses the second at start-up)', ({ copies }) => {
  const root = copies.make((r) => addRoutes(r, "  router.add('GET', '/villes/carte', VilleController.index, { name: 'villes.index', public: true });"));
  const diagnosis = diagnoseInert(root, ['route']);
  assertProblems(diagnosis, ['FW-ROUTE-007 FAIL']);
  const [fail] = byId(diagnosis, 'FW-ROUTE-007');
  assert.is(fail!.detail, "le nom « villes.index » est déjà celui d'une route (mvc/routes.ts ligne 10) : le serveur refuse de démarrer");
  assert.equal([fail!.file, fail!.line], [ROUTES, 23]);
});

test('FW-ROUTE-008 FAIL: a handler naming a controller method that does not exist, is not static, or a missing controller', ({ copies }) => {
  const cases: Array<[(root: string) => void, string]> = [
    [
      (r) => addRoutes(r, "  router.add('GET', '/villes/carte', VilleController.carte);"),
      "VilleController.carte : la classe VilleController de mvc/controllers/ville_controller.ts n'a pas de méthode statique carte",
    ],
    [
      (r) => (
        edit(r, CONTROLLER, (text) => text.replace(/^(export class VilleController extends .*\{)$/m, '$1\n  carte(): void {}\n')),
        addRoutes(r, "  router.add('GET', '/villes/carte', VilleController.carte);")
      ),
      "VilleController.carte : carte n'est pas « static » dans mvc/controllers/ville_controller.ts",
    ],
    [
      (r) => fs.rmSync(path.join(r, CONTROLLER)),
      'mvc/controllers/ville_controller.ts est introuvable (importé par mvc/routes.ts : « ./controllers/ville_controller.js »)',
    ],
    [(r) => addRoutes(r, "  router.add('GET', '/carte', CarteController.index);"), "CarteController n'est ni importé ni déclaré dans mvc/routes.ts"],
  ];
  for (const [defect, detail] of cases) {
    const diagnosis = diagnoseInert(copies.make(defect), ['route']);
    const fails = byId(diagnosis, 'FW-ROUTE-008');
    assert.ok(fails.length >= 1 && fails.every((c) => c.status === 'FAIL'), detail);
    assertProblems(
      diagnosis,
      fails.map(() => 'FW-ROUTE-008 FAIL'),
    );
    assert.is(fails[0]!.detail, detail);
    assert.is(fails[0]!.file, ROUTES);
  }
});

test('FW-ROUTE-008 FAIL: a binary or mis-written controller is named once, with the line of its syntax error', ({ copies }) => {
  const binary = diagnoseInert(
    copies.make((r) => write(r, CONTROLLER, Buffer.from([0, 1, 2, 3]))),
    ['route'],
  );
  assertProblems(binary, ['FW-ROUTE-008 FAIL']);
  assert.equal(
    byId(binary, 'FW-ROUTE-008').map((c) => `${c.file} ${c.detail}`),
    [`${CONTROLLER} ${CONTROLLER} est un fichier binaire, pas du texte`],
  );
  const broken = diagnoseInert(
    copies.make((r) => edit(r, CONTROLLER, (text) => text.replace('crudController(VILLE_CRUD, {', 'crudController(VILLE_CRUD, {{'))),
    ['route'],
  );
  assertProblems(broken, ['FW-ROUTE-008 FAIL']);
  const [fail] = byId(broken, 'FW-ROUTE-008');
  assert.is(fail!.file, CONTROLLER);
  assert.ok(fail!.line! > 1 && fail!.column! >= 1, JSON.stringify(fail));
  assert.match(fail!.detail!, new RegExp(`^${CONTROLLER} ligne ${fail!.line}, colonne ${fail!.column} : `));
});

test('mvc/api_routes.ts: its routes join the same router (a duplicate of mvc/routes.ts is a FW-ROUTE-006 FAIL)', ({ copies }) => {
  const root = copies.make((r) =>
    write(
      r,
      'mvc/api_routes.ts',
      "import type { Router } from 'fw-mvc';\nimport { VilleController } from './controllers/ville_controller.js';\n\nexport function registerApiRoutes(router: Router): void {\n  router.add('GET', '/villes', VilleController.index, { api: true });\n}\n",
    ),
  );
  const diagnosis = diagnoseInert(root, ['route']);
  assertProblems(diagnosis, ['FW-ROUTE-006 FAIL']);
  assert.equal(
    byId(diagnosis, 'FW-ROUTE-006').map((c) => `${c.file}:${c.line} ${c.detail}`),
    ['mvc/api_routes.ts:5 GET /villes déjà déclarée (mvc/routes.ts ligne 10) : cette route ne répond jamais'],
  );
});

test('FW-ROUTE-008: a method inherited from a parent class of the project is found', ({ copies }) => {
  const root = copies.make((r) => {
    // The actions of fw-mvc/crud two classes up: VilleController → BaseCarte (the project's) → crudController(…).
    const heritage = /^export class VilleController extends (crudController\([^)]*\))/m;
    const original = fs.readFileSync(path.join(r, CONTROLLER), 'utf8');
    write(
      r,
      'mvc/controllers/base_carte.ts',
      `${original
        .split('\n')
        .filter((line) => line.startsWith('import '))
        .join('\n')}\n\nexport class BaseCarte extends ${heritage.exec(original)![1]!} {\n  static carte(): Response {\n    return new Response('');\n  }\n}\n`,
    );
    edit(r, CONTROLLER, (text) => text.replace(heritage, "import { BaseCarte } from './base_carte.js';\nexport class VilleController extends BaseCarte"));
    addRoutes(r, "  router.add('GET', '/villes/carte', VilleController.carte);");
  });
  assertProblems(diagnoseInert(root, ['route']), []);
});

test('FW-ROUTE-008: an object of functions, a namespace import or a local function is no class to check: no false FAIL', ({ copies }) => {
  const root = copies.make((r) => {
    write(
      r,
      'mvc/controllers/carte.ts',
      "export const Carte = {\n  index: (): Response => new Response(''),\n};\nexport function plan(): Response {\n  return new Response('');\n}\n",
    );
    edit(r, ROUTES, (text) =>
      text.replace(
        "import { registerAuthRoutes } from 'fw-mvc/auth';",
        "import { registerAuthRoutes } from 'fw-mvc/auth';\nimport { Carte } from './controllers/carte.js';\nimport * as cartes from './controllers/carte.js';\n\nconst Local = { index: (): Response => new Response('') };",
      ),
    );
    addRoutes(r, "  router.add('GET', '/carte', Carte.index);\n  router.add('GET', '/plan', cartes.plan);\n  router.add('GET', '/local', Local.index);");
  });
  assertProblems(diagnoseInert(root, ['route']), []);
});

test('FW-ROUTE-009 INFO: a computed path or spread arguments are not verifiable, never a crash', ({ copies }) => {
  const root = copies.make((r) =>
    addRoutes(
      r,
      "  const base = '/cartes';\n  router.add('GET', `${base}/x`, VilleController.index);\n  router.add(...(['GET', '/y', VilleController.index] as const));",
    ),
  );
  const diagnosis = diagnoseInert(root, ['route']);
  assertProblems(diagnosis, []);
  assert.equal(
    byId(diagnosis, 'FW-ROUTE-009').map((c) => `${c.status} ${c.line} ${c.detail}`),
    [
      "INFO 24 non vérifiable : router.add('GET', `${base}/x`, VilleController.index) : chemin calculé",
      "INFO 25 non vérifiable : router.add(...(['GET', '/y', VilleController.index] as const)) : arguments étalés (« ... »)",
    ],
  );
});

test('FW-ROUTE-010 WARN: a routes file that would write a file and crash when imported is reported, not run', ({ copies }) => {
  const root = copies.make((r) =>
    edit(r, ROUTES, (text) =>
      text.replace(
        "import type { Router } from 'fw-mvc';",
        "import fs from 'node:fs';\nimport type { Router } from 'fw-mvc';\n\nfs.writeFileSync('pwned.txt', 'x');\nif (!fs.existsSync('x')) throw new Error('boom');",
      ),
    ),
  );
  const diagnosis = diagnoseInert(root, ['route']);
  assert.not.ok(fs.existsSync(path.join(root, 'pwned.txt')));
  assertProblems(diagnosis, ['FW-ROUTE-010 WARN', 'FW-ROUTE-010 WARN']);
  assert.equal(
    byId(diagnosis, 'FW-ROUTE-010').map((c) => `${c.line}:${c.column} ${c.detail}`),
    [
      "5:1 instruction exécutée à l'import du fichier : fs.writeFileSync('pwned.txt', 'x');",
      "6:1 instruction exécutée à l'import du fichier : if (!fs.existsSync('x')) throw new Error('boom');",
    ],
  );
});

test.run();
