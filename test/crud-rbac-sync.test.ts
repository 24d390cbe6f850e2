// The role block of an entity lives in the regenerable `<snake>_crud.ts` (docs/crud.md "Permissions"): a block added
// after make:crud is stale for `make:crud --check` and `build:model --check`, and `sync:entity` brings it. A controller
// of an earlier make:crud that keeps its own role map still type-checks (the crud module keeps the older names it
// imports); it is reported by sync:entity, and by --check (exit 2) once its map no longer matches the entity's block;
// moved to `crud.allowed`, it is no longer reported.
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { REPO, newProject, type CliProject } from './helpers/cli.js';
import { ID, linkPackages, ok, writeEntity } from './helpers/crud-cli-project.js';
import { runTsc } from './helpers/typecheck.js';

const FICHE = {
  format_version: 1,
  entity: 'Fiche',
  table: 'fiches',
  fields: [ID, { name: 'titre', sql_type: 'VARCHAR(100)' }],
};

const projects: CliProject[] = [];

test.after(async () => {
  for (const made of projects) await made.cleanup();
});

function fresh(): CliProject {
  const made = newProject('Fiches');
  projects.push(made);
  return made;
}

function setRoles(project: CliProject, permissions: Record<string, string[]> | null): void {
  project.editJson('mvc/entities/fiche/fiche.json', (data: Record<string, unknown>) => {
    if (permissions) data['rbac'] = { permissions };
    else delete data['rbac'];
  });
}

const STALE_CRUD =
  "Fichiers générés périmés (1) :\n  mvc/models/fiche_crud.ts\nRégénérez-les avec « fw make:crud Fiche » ; une modification faite à la main y serait perdue : déplacez-la d'abord dans le fichier manuel (docs/diagnostics.md, FW-GEN-001).\n";

test('a role block added after make:crud: --check reports fiche_crud.ts, sync:entity brings it, the controller is untouched', () => {
  const project = fresh();
  writeEntity(project, FICHE);
  ok(project, ['make:crud', 'Fiche']);
  const controller = project.read('mvc/controllers/fiche_controller.ts');
  setRoles(project, { index: ['admin', 'editeur'], delete: ['admin'] });
  const check = project.run(['make:crud', 'Fiche', '--check']);
  assert.is(check.status, 2, check.stdout + check.stderr);
  assert.is(check.stdout, STALE_CRUD);
  const build = project.run(['build:model', '--check']);
  assert.is(build.status, 2);
  assert.match(build.stdout, '  mvc/models/fiche_crud.ts\n');

  const synced = ok(project, ['sync:entity', 'Fiche']);
  assert.match(synced, 'mvc/models/fiche_crud.ts');
  assert.not.match(synced, 'Attention');
  assert.match(project.read('mvc/models/fiche_crud.ts'), "  roles: { index: ['admin', 'editeur'], delete: ['admin'] },\n");
  assert.is(project.read('mvc/controllers/fiche_controller.ts'), controller);
  // The controller hands the description to fw-mvc/crud, whose actions check its roles.
  assert.match(controller, 'extends crudController(FICHE_CRUD, ');
  assert.is(ok(project, ['make:crud', 'Fiche', '--check']), 'Fichiers générés à jour.\n');
});

/**
 * The controller and the model of Fiche as the make:crud of before fw-mvc/crud wrote them (`import * as crud`, the
 * crud module's older names): the fixture's Contact files (test/fixtures/crud-before-runtime/) with the names of Fiche.
 */
function olderFile(file: string): string {
  const text = fs.readFileSync(path.join(REPO, 'test', 'fixtures', 'crud-before-runtime', 'mvc', file), 'utf8');
  return text
    .replace(/contacts/g, 'fiches')
    .replace(/Contact/g, 'Fiche')
    .replace(/contact/g, 'fiche')
    .replace(/CONTACT/g, 'FICHE');
}

/** The helper of a controller written by an earlier make:crud, with its own role map. */
function legacyHelper(roles: string): string {
  return `/** Roles allowed per permission, from the role block of mvc/entities/fiche/fiche.json. */
const ROLES: Readonly<Record<string, readonly string[]>> = {
${roles}
};

/** A permission the role block declares needs one of its roles (or the \`fiche.<permission>\` permission); others are open. */
function allowed(request: Request, permission: string): boolean {
  const roles = ROLES[permission];
  if (!roles) return true;
  return userCan(request, \`fiche.\${permission}\`) || roles.some((role) => userHasRole(request, role));
}
`;
}

/** The controller as an earlier make:crud wrote it: its own ROLES and allowed, nothing passed to the views. */
function legacyController(current: string, roles: string): string {
  const legacy = current
    .replace(/\/\*\*\n \* The role block[\s\S]*?const allowed = crud\.allowed;\n/, legacyHelper(roles))
    .replace('trans, type Request', 'trans, userCan, userHasRole, type Request')
    .replace(/, allowed: crud\.allowedActions\(request\)/, '')
    .replace(/\n {4}\/\/ The actions the signed-in user's roles allow[^\n]*\n {4}allowed: crud\.allowedActions\(request\),/, '');
  assert.not.match(legacy, 'crud.allowed');
  return legacy;
}

const ATTENTION =
  'Attention : ce contrôleur garde sa propre table des rôles (ROLES), que fw ne met pas à jour :\n' +
  '  mvc/controllers/fiche_controller.ts{differs}\n' +
  'Remplacez ROLES et la fonction allowed par « const allowed = crud.allowed; » et passez « allowed: crud.allowedActions(request) » aux vues (docs/crud.md « Permissions »).\n';
const DIFFERS = ' (ne suit pas le bloc « rbac » de mvc/entities/fiche/fiche.json)';

test('a controller keeping its own role map: it type-checks, it is reported, and --check fails once the block changes', () => {
  const project = fresh();
  const withRoles = { ...FICHE, rbac: { permissions: { index: ['admin', 'editeur'], delete: ['admin'] } } };
  writeEntity(project, withRoles);
  ok(project, ['make:crud', 'Fiche']);
  // The files of an earlier make:crud (their crud module's names are written again: build:model sees the imports).
  const current = olderFile('controllers/contact_controller.ts');
  project.write('mvc/models/fiche_model.ts', olderFile('models/contact_model.ts'));
  project.write('mvc/controllers/fiche_controller.ts', legacyController(current, "  index: ['admin', 'editeur'],\n  delete: ['admin'],"));
  ok(project, ['build:model']);
  assert.match(project.read('mvc/models/fiche_crud.ts'), '} = legacyCrudNames(FICHE_CRUD);');
  linkPackages(project);
  const checked = runTsc(project.root, ['--noEmit', '-p', 'tsconfig.json']);
  assert.is(checked.stdout + checked.stderr, '', 'tsc --noEmit with the older controller');
  assert.is(checked.status, 0);

  // Its map matches the block: up to date, with the warning (the next change would not reach it).
  assert.is(ok(project, ['make:crud', 'Fiche', '--check']), `Fichiers générés à jour.\n${ATTENTION.replace('{differs}', '')}`);
  // The block changes: fiche_crud.ts follows with sync:entity, the controller does not, and --check says so.
  setRoles(project, { index: ['admin', 'editeur'], delete: ['admin', 'chef'] });
  const check = project.run(['make:crud', 'Fiche', '--check']);
  assert.is(check.status, 2);
  assert.is(check.stdout, `${STALE_CRUD}${ATTENTION.replace('{differs}', DIFFERS)}`);
  assert.ok(ok(project, ['sync:entity', 'Fiche']).endsWith(ATTENTION.replace('{differs}', DIFFERS)));
  const after = project.run(['build:model', '--check']);
  assert.is(after.status, 2);
  assert.is(after.stdout, ATTENTION.replace('{differs}', DIFFERS));

  // Moved to crud.allowed (docs/crud.md): nothing reported any more.
  project.write('mvc/controllers/fiche_controller.ts', current);
  assert.is(ok(project, ['make:crud', 'Fiche', '--check']), 'Fichiers générés à jour.\n');
  assert.is(ok(project, ['build:model', '--check']), 'Fichiers générés à jour.\n');
});

test.run();
