// `fw auth:init` and `fw auth:list-sql` as real processes in a project made by `fw new`: the SQL files of both
// dialects and the routes.ts edit (exact bytes), --dry-run, idempotence, files the user took over, and the
// routes.ts shapes that are refused with nothing written.
import fs from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { authSqlContent, authSqlPath } from '../emitters/auth/sql-files.js';
import { AUTH_TABLES } from '../runtime/auth/schema.js';
import { fateLine, lines, newProject, type CliProject } from './helpers/cli.js';
import { DIALECTS } from './helpers/dialects.js';

const ROUTES = 'mvc/routes.ts';
const TEMPLATE_ROUTES = `// Application routes. Generators (fw make:crud, fw make:public-*) add their routes to this function.
import type { Router } from 'fw-mvc';
import { HomeController } from './controllers/home_controller.js';

export function registerRoutes(router: Router): void {
  router.add('GET', '/', HomeController.index, { name: 'home', public: true });
}
`;
const EDITED_ROUTES = `// Application routes. Generators (fw make:crud, fw make:public-*) add their routes to this function.
import type { Router } from 'fw-mvc';
import { HomeController } from './controllers/home_controller.js';
import { registerAuthRoutes } from 'fw-mvc/auth';

export function registerRoutes(router: Router): void {
  router.add('GET', '/', HomeController.index, { name: 'home', public: true });
  // Authentification : GET /login, POST /login, POST /logout (fw auth:init)
  registerAuthRoutes(router);
}
`;

/** Every auth SQL file, in the order auth:init lists them. */
const FILES = AUTH_TABLES.flatMap((table) => DIALECTS.map((dialect) => ({ path: authSqlPath(table.name, dialect), content: authSqlContent(table, dialect) })));

const t = suite('auth:init and auth:list-sql');
let project: CliProject;

t.before(() => {
  project = newProject('AuthInit');
  project.useSqlite();
});
t.after(async () => {
  await project?.cleanup();
});

function ok(args: string[]): string[] {
  const run = project.run(args);
  assert.is(run.status, 0, `fw ${args.join(' ')} : ${run.stdout}${run.stderr}`);
  assert.is(run.stderr, '', `fw ${args.join(' ')}`);
  return lines(run.stdout);
}

/** Runs a command that must be refused: exit 1, nothing on stdout, nothing written. */
function refused(args: string[]): string[] {
  const before = project.snapshot();
  const run = project.run(args);
  assert.is(run.status, 1, `fw ${args.join(' ')} : ${run.stdout}${run.stderr}`);
  assert.is(run.stdout, '');
  assert.equal(project.snapshot(), before, 'nothing written');
  return lines(run.stderr);
}

function removeFile(relative: string): void {
  fs.rmSync(project.path(relative), { force: true });
}

function removeAuthFiles(): void {
  for (const file of FILES) removeFile(file.path);
}

t('auth:list-sql before auth:init: all twenty files absent, by dialect', () => {
  const out = ok(['auth:list-sql']);
  assert.is(out[0], 'MariaDB / MySQL (<table>.sql) :');
  assert.equal(
    out.slice(1, 11),
    AUTH_TABLES.map((table) => `  absent   ${authSqlPath(table.name, 'mariadb')}`),
  );
  assert.is(out[11], 'SQLite (<table>.sqlite.sql) — dialecte de la base (DB_DRIVER) :');
  assert.equal(
    out.slice(12, 22),
    AUTH_TABLES.map((table) => `  absent   ${authSqlPath(table.name, 'sqlite')}`),
  );
  assert.equal(out.slice(22), ['20 fichiers : 0 présent(s), 20 absent(s).', '« fw auth:init » écrit les fichiers absents.']);
});

t('auth:init --dry-run lists the files and the routes.ts change, and writes nothing', () => {
  const before = project.snapshot();
  const out = ok(['auth:init', '--dry-run']);
  assert.equal(project.snapshot(), before);
  assert.equal(out, [
    "Simulation (--dry-run) : aucun fichier n'est écrit.",
    ...FILES.map((file) => fateLine('créé', file.path)),
    fateLine('mis à jour', ROUTES),
    'Résumé (simulation) : 20 créés, 1 mis à jour.',
    "Routes d'authentification à ajouter à mvc/routes.ts : l'import « import { registerAuthRoutes } from 'fw-mvc/auth'; » et l'appel « registerAuthRoutes(…) » dans registerRoutes (GET /login, POST /login, POST /logout).",
    'Modifications de mvc/routes.ts :',
    '@@ -3,0 +4 @@',
    "+import { registerAuthRoutes } from 'fw-mvc/auth';",
    '@@ -6,0 +8,2 @@',
    '+  // Authentification : GET /login, POST /login, POST /logout (fw auth:init)',
    '+  registerAuthRoutes(router);',
  ]);
});

t('auth:init writes the twenty files and adds the import and the call to registerRoutes', () => {
  assert.is(project.read(ROUTES), TEMPLATE_ROUTES);
  const out = ok(['auth:init']);
  assert.equal(out, [
    ...FILES.map((file) => fateLine('créé', file.path)),
    fateLine('mis à jour', ROUTES),
    'Résumé : 20 créés, 1 mis à jour.',
    "Routes d'authentification ajoutées à mvc/routes.ts : l'import « import { registerAuthRoutes } from 'fw-mvc/auth'; » et l'appel « registerAuthRoutes(…) » dans registerRoutes (GET /login, POST /login, POST /logout).",
    'Ensuite : « fw db:apply » crée les tables, puis « fw auth:user:create --email <EMAIL> --password-prompt » crée un utilisateur.',
  ]);
  for (const file of FILES) assert.is(project.read(file.path), file.content, file.path);
  assert.ok(FILES[0]!.content.startsWith('-- fw-mvc: generated file, do not edit (regenerate with: fw auth:init)\n-- Table users (MariaDB / MySQL) : '));
  assert.is(project.read(ROUTES), EDITED_ROUTES);
});

t('a second auth:init changes nothing and says so', () => {
  const before = project.snapshot();
  const out = ok(['auth:init']);
  assert.equal(project.snapshot(), before);
  assert.equal(out, [
    ...FILES.map((file) => fateLine('inchangé', file.path)),
    fateLine('inchangé', ROUTES),
    'Résumé : 21 inchangés.',
    "Routes d'authentification : registerAuthRoutes est déjà importé et appelé dans mvc/routes.ts.",
    "Rien à faire : les fichiers SQL et les routes d'authentification sont déjà en place.",
  ]);
});

t('auth:list-sql after auth:init: all present; a file taken over is « modifié », a stale one « périmé »; --json', () => {
  const users = authSqlPath('users', 'sqlite');
  const roles = authSqlPath('roles', 'mariadb');
  project.write(users, project.read(users).split('\n').slice(1).join('\n'));
  project.write(roles, `${project.read(roles)}-- edited\n`);
  const out = ok(['auth:list-sql']);
  assert.ok(out.includes(`  modifié  ${users}`), out.join('\n'));
  assert.ok(out.includes(`  périmé   ${roles}`), out.join('\n'));
  assert.is(
    out.at(-1),
    '20 fichiers : 18 présent(s), 0 absent(s), 1 périmé(s) : « fw auth:init » les réécrit, 1 modifié(s) (ligne « fw-mvc: generated file » retirée : appliqués tels quels).',
  );
  const json = JSON.parse(project.run(['auth:list-sql', '--json']).stdout) as {
    configuredDialect: string;
    files: Array<{ path: string; state: string; table: string; dialect: string }>;
  };
  assert.is(json.configuredDialect, 'sqlite');
  assert.is(json.files.length, 20);
  assert.equal(
    json.files.find((f) => f.path === users),
    { table: 'users', dialect: 'sqlite', path: users, state: 'owned' },
  );
  assert.is(json.files.find((f) => f.path === roles)?.state, 'stale');

  // auth:init rewrites the stale file and leaves the one the user took over alone.
  const taken = project.read(users);
  const again = ok(['auth:init']);
  assert.ok(again.includes(fateLine('mis à jour', roles)), again.join('\n'));
  assert.ok(
    again.includes(fateLine('ignoré', users, 'ligne « fw-mvc: generated file » retirée : le fichier est à vous ; --force le régénère')),
    again.join('\n'),
  );
  assert.is(project.read(users), taken);
  assert.is(project.read(roles), FILES.find((f) => f.path === roles)!.content);
  project.write(users, FILES.find((f) => f.path === users)!.content);
});

t('routes.ts without registerRoutes: refused with the lines to paste, nothing written', () => {
  removeAuthFiles();
  project.write(ROUTES, "import type { Router } from 'fw-mvc';\n\nexport function routes(router: Router): void {}\n");
  assert.equal(refused(['auth:init']), [
    "Erreur : mvc/routes.ts : la fonction « export function registerRoutes(router: Router) » est introuvable : les routes d'authentification ne peuvent pas y être ajoutées automatiquement. Aucun fichier n'a été écrit.",
    "Conseil : ajoutez à la main dans mvc/routes.ts (l'import en tête avec les autres, l'appel dans registerRoutes), puis relancez « fw auth:init » :",
    "import { registerAuthRoutes } from 'fw-mvc/auth';",
    '',
    '  registerAuthRoutes(router);',
  ]);
  assert.not.ok(project.exists(FILES[0]!.path));
});

t('routes.ts absent, unreadable, or the name taken: refused, nothing written', () => {
  project.write(ROUTES, 'export function registerRoutes(router: Router): void {\n  router.add(\n');
  const unreadable = refused(['auth:init']);
  assert.match(
    unreadable[0]!,
    /^Erreur : mvc\/routes\.ts ne se lit pas \(ligne \d+, colonne \d+ : .+\) : corrigez-le, puis relancez la commande\. Aucun fichier n'a été écrit\.$/,
  );
  assert.is(unreadable[1], 'Conseil : corrigez mvc/routes.ts, puis relancez « fw auth:init ».');
  project.write(ROUTES, "import type { Router } from 'fw-mvc';\nconst registerAuthRoutes = 1;\n\nexport function registerRoutes(router: Router): void {}\n");
  assert.equal(refused(['auth:init']), [
    "Erreur : mvc/routes.ts : le nom « registerAuthRoutes » est déjà pris (ligne 2 : « const registerAuthRoutes = 1; ») ; l'import de « fw-mvc/auth » ne peut pas être ajouté. Aucun fichier n'a été écrit.",
    'Conseil : corrigez mvc/routes.ts, puis relancez « fw auth:init ».',
  ]);
  removeFile(ROUTES);
  assert.equal(refused(['auth:init']), [
    "Erreur : mvc/routes.ts est introuvable : les routes d'authentification ne peuvent pas être ajoutées (aucun fichier n'a été écrit).",
    'Conseil : créez mvc/routes.ts avec une fonction « export function registerRoutes(router: Router) », puis relancez « fw auth:init ».',
  ]);
});

t('an aliased import already called is recognised; an import without its call gets the call only', () => {
  const aliased =
    "import type { Router } from 'fw-mvc';\nimport { registerAuthRoutes as auth } from 'fw-mvc/auth';\n\nexport const registerRoutes = (r: Router): void => {\n  auth(r);\n};\n";
  project.write(ROUTES, aliased);
  ok(['auth:init']);
  assert.is(project.read(ROUTES), aliased);
  project.write(
    ROUTES,
    "import type { Router } from 'fw-mvc';\r\nimport { registerAuthRoutes } from 'fw-mvc/auth';\r\n\r\nexport function registerRoutes(app: Router): void {\r\n}\r\n",
  );
  const out = ok(['auth:init']);
  assert.ok(
    out.includes(
      "Routes d'authentification ajoutées à mvc/routes.ts : l'appel « registerAuthRoutes(…) » dans registerRoutes (GET /login, POST /login, POST /logout).",
    ),
    out.join('\n'),
  );
  assert.is(
    project.read(ROUTES),
    "import type { Router } from 'fw-mvc';\r\nimport { registerAuthRoutes } from 'fw-mvc/auth';\r\n\r\nexport function registerRoutes(app: Router): void {\r\n  // Authentification : GET /login, POST /login, POST /logout (fw auth:init)\r\n  registerAuthRoutes(app);\r\n}\r\n",
  );
});

t('routes.ts that already declares GET /login: the routes are added, and a warning says which ones clash', () => {
  project.write(
    ROUTES,
    TEMPLATE_ROUTES.replace(
      "{ name: 'home', public: true });",
      "{ name: 'home', public: true });\n  router.add('GET', '/login', HomeController.index, { name: 'my_login', public: true });",
    ),
  );
  const run = project.run(['auth:init']);
  assert.is(run.status, 0, run.stderr);
  assert.equal(lines(run.stderr), [
    'Attention : mvc/routes.ts déclare déjà GET /login : ces routes passent avant celles de registerAuthRoutes si elles sont déclarées avant son appel.',
    'Conseil : retirez-les de mvc/routes.ts pour utiliser les pages de connexion de fw-mvc/auth.',
  ]);
  assert.match(project.read(ROUTES), /\n {2}registerAuthRoutes\(router\);\n\}\n$/);
});

t.run();
