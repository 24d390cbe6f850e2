// `fw sync:entity Animal` rewrites the CRUD pages of the related Proprietaire too: when proprietaire.json changed
// since its last sync, it refuses (Erreur naming Proprietaire and the command to run) and writes nothing, so that the
// project still type-checks; once Proprietaire is synced, it runs, and the project type-checks again
// (docs/entities.md "A related entity changed too"). sync:relations refuses the same way.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { newProject, type CliProject } from './helpers/cli.js';
import { ID, linkPackages, ok, writeEntity } from './helpers/crud-cli-project.js';
import { runTsc } from './helpers/typecheck.js';

const PROPRIETAIRE = {
  format_version: 1,
  entity: 'Proprietaire',
  table: 'proprietaires',
  fields: [ID, { name: 'nom', sql_type: 'VARCHAR(100)', constraints: { not_empty: true } }],
};

const ANIMAL = {
  format_version: 1,
  entity: 'Animal',
  table: 'animaux',
  fields: [ID, { name: 'nom', sql_type: 'VARCHAR(100)' }, { name: 'espece', sql_type: 'VARCHAR(50)' }, { name: 'proprietaire_id', sql_type: 'INT' }],
};

let project: CliProject;

test.after(async () => {
  await project?.cleanup();
});

function tsc(): { status: number | null; output: string } {
  const result = runTsc(project.root, ['--noEmit', '-p', 'tsconfig.json']);
  return { status: result.status, output: result.stdout + result.stderr };
}

function typeChecks(when: string): void {
  const checked = tsc();
  assert.is(checked.output, '', `tsc --noEmit ${when}`);
  assert.is(checked.status, 0);
}

/** The project's files, but node_modules (linked) and storage. */
function files(): Record<string, string> {
  return Object.fromEntries(Object.entries(project.snapshot()).filter(([file]) => !file.startsWith('node_modules') && !file.startsWith('storage/')));
}

test('two related entities with CRUD pages: an edited proprietaire.json makes sync:entity Animal refuse, writing nothing', () => {
  project = newProject('Veto');
  writeEntity(project, PROPRIETAIRE);
  writeEntity(project, ANIMAL);
  ok(project, [
    'make:relation',
    '--name',
    'animal_proprietaire',
    '--type',
    'many_to_one',
    '--from',
    'Animal.proprietaire_id',
    '--to',
    'Proprietaire.id',
    '--no-input',
  ]);
  ok(project, ['make:crud', 'Proprietaire']);
  ok(project, ['make:crud', 'Animal']);
  linkPackages(project);

  // A new required field: Proprietaire's pages would insert it, its base class does not know it yet.
  project.editJson('mvc/entities/proprietaire/proprietaire.json', (data: { fields: unknown[] }) => {
    data.fields.push({ name: 'telephone', sql_type: 'VARCHAR(30)' });
  });
  const before = files();
  for (const args of [['sync:entity', 'Animal'], ['sync:entity', 'Animal', '--dry-run'], ['sync:relations']]) {
    const run = project.run(args);
    const command = `fw ${args.filter((a) => a !== '--dry-run').join(' ')}`;
    assert.is(run.status, 1, `fw ${args.join(' ')}: ${run.stdout}${run.stderr}`);
    assert.is(run.stdout, '');
    assert.is(
      run.stderr,
      `Erreur : Proprietaire a changé (mvc/entities/proprietaire/proprietaire.json) depuis son dernier « fw sync:entity » : « ${command} » réécrirait ses pages sans sa classe de base ni son SQL, et le projet ne compilerait plus. Aucun fichier n'a été écrit.\n` +
        `Conseil : lancez « fw sync:entity Proprietaire » puis relancez « ${command} », ou « fw build:model », qui régénère toutes les entités d'un coup.\n`,
    );
    assert.equal(files(), before, `fw ${args.join(' ')} wrote something`);
  }
  typeChecks('after the refusals');
});

test('once Proprietaire is synced, sync:entity Animal runs and the project type-checks', () => {
  const synced = ok(project, ['sync:entity', 'Proprietaire']);
  assert.match(synced, 'mvc/entities/proprietaire/proprietaire_base.ts');
  assert.match(project.read('mvc/models/proprietaire_crud.ts'), "{ label: 'Telephone', field: 'telephone' }");
  // Animal's own change (a field) reaches its pages; Proprietaire's pages are in step, nothing refuses.
  project.editJson('mvc/entities/animal/animal.json', (data: { fields: unknown[] }) => {
    data.fields.push({ name: 'poids', sql_type: 'DECIMAL(5,2)', nullable: true });
  });
  ok(project, ['sync:entity', 'Animal']);
  assert.match(project.read('mvc/entities/animal/animal_base.ts'), 'poids');
  assert.match(project.read('mvc/models/animal_crud.ts'), "{ label: 'Poids', field: 'poids', show: 'number' }");
  ok(project, ['sync:relations']);
  typeChecks('after sync:entity Proprietaire, then Animal');
});

test.run();
