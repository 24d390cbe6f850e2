// An entity whose definition is removed (docs/entities.md "Removing an entity"): `build:model --check` exits 2 and
// names what is left; `build:model` deletes its generated files and names its manual files and routes;
// `project:check` fails on them; `migration:diff --all` names its table (SQLite and MariaDB); once the manual files
// and routes are gone, the project type-checks and `--check` passes. Real `fw` processes.
import fs from 'node:fs';
import { spawnSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { TSC, lines, newProject } from './helpers/cli.js';
import { linkFramework } from './helpers/crud-app.js';
import { makeMigration as make, okLines as ok } from './helpers/migrations.js';

const GENERATED = ['mvc/forms/ville_fields.ts', 'mvc/models/ville_crud.ts', 'mvc/views/ville/_fields.html', 'mvc/entities/ville/ville_base.ts'];

test('Ville removed: reported by build:model --check, its generated files deleted, its table named on both dialects, then the project type-checks', async () => {
  const project = newProject('Carnet');
  try {
    for (const name of ['Ville', 'Contact']) ok(project, ['make:entity', name, '--no-input']);
    ok(project, ['build:model']);
    for (const name of ['Ville', 'Contact']) ok(project, ['make:crud', name]);
    project.useSqlite();
    ok(project, ['db:init']);
    make(project, ['init', '--from-entities']);
    ok(project, ['migration:apply']);
    await project.sql(["INSERT INTO ville (Nom) VALUES ('Lyon')"]);
    for (const file of GENERATED) assert.ok(project.exists(file), file);

    fs.rmSync(project.path('mvc/entities/ville/ville.json'));
    const check = project.run(['build:model', '--check']);
    assert.is(check.status, 2, check.stdout);
    const reported = lines(check.stdout);
    assert.ok(reported.includes('Entité supprimée « Ville » : ces fichiers et ces routes la référencent encore :'), check.stdout);
    for (const file of GENERATED) assert.ok(reported.includes(`  ${file} (généré)`), file);
    assert.ok(reported.includes('  mvc/controllers/ville_controller.ts (manuel)'));
    assert.ok(reported.some((l) => /^ {2}mvc\/routes\.ts:\d+ : router\.add\('GET', '\/villes', VilleController\.index/.test(l)));

    const before = project.snapshot();
    const dry = project.run(['build:model', '--dry-run']);
    assert.is(dry.status, 0);
    assert.ok(lines(dry.stdout).includes(`  à supprimer   mvc/models/ville_crud.ts (entité « Ville » supprimée)`), dry.stdout);
    assert.equal(project.snapshot(), before);

    const built = project.run(['build:model']);
    assert.is(built.status, 0, built.stderr);
    for (const file of GENERATED) assert.not.ok(project.exists(file), file);
    assert.match(built.stderr, /^Attention : l'entité « Ville » n'existe plus/m);
    assert.match(built.stderr, /^ {2}mvc\/models\/ville_model\.ts \(manuel\)$/m);
    assert.match(built.stderr, /^Conseil : /m);
    // Run twice, nothing more changes.
    const again = project.snapshot();
    ok(project, ['build:model']);
    assert.equal(project.snapshot(), again);

    const projectCheck = project.run(['project:check']);
    assert.is(projectCheck.status, 1);
    assert.match(projectCheck.stdout, /FW-ENTITY-004 .*l'entité « Ville » n'a plus de définition, mais mvc\/controllers\/ville_controller\.ts \(manuel\)/);

    const diff = project.run(['migration:diff', '--all', '--check']);
    assert.is(diff.status, 2, diff.stdout);
    assert.match(diff.stdout, /^TABLE_EXTRA\s+ville\s+table sans entité ni relation \(1 ligne\(s\)\)/m);
    const json = JSON.parse(project.run(['migration:diff', '--all', '--json']).stdout) as Array<{
      entity: string | null;
      table: string;
      rows: Array<{ status: string }>;
    }>;
    assert.equal(
      json.filter((e) => e.entity === null).map((e) => [e.table, e.rows[0]!.status]),
      [['ville', 'TABLE_EXTRA']],
    );

    // The same table on MariaDB, from the same migrations.
    project.useMariaDb();
    ok(project, ['db:init']);
    ok(project, ['migration:apply']);
    const onMariaDb = project.run(['migration:diff', '--all', '--check']);
    assert.is(onMariaDb.status, 2, onMariaDb.stdout);
    assert.match(onMariaDb.stdout, /^TABLE_EXTRA\s+ville\s+table sans entité ni relation \(0 ligne\(s\)\)/m);

    // The user removes the manual files and the routes: the project type-checks, --check passes.
    for (const file of [
      'mvc/controllers/ville_controller.ts',
      'mvc/models/ville_model.ts',
      'mvc/forms/ville_form.ts',
      'mvc/entities/ville',
      'mvc/views/ville',
    ]) {
      fs.rmSync(project.path(file), { recursive: true, force: true });
    }
    project.write(
      'mvc/routes.ts',
      project
        .read('mvc/routes.ts')
        .split('\n')
        .filter((l) => !l.includes('VilleController'))
        .join('\n'),
    );
    const final = project.run(['build:model', '--check']);
    assert.is(final.status, 0, final.stdout);
    linkFramework(project);
    const tsc = spawnSync(process.execPath, [TSC, '--noEmit', '-p', 'tsconfig.json'], { cwd: project.root, encoding: 'utf8' });
    assert.is(tsc.status, 0, tsc.stdout + tsc.stderr);
  } finally {
    await project.cleanup();
  }
});

test.run();
