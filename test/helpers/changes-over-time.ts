/**
 * Definitions that change over time (docs/entities.md "Removing an entity", "Destructive steps"; docs/architecture.md
 * "Codemods: one recipe"): the scenarios of the "changes over time" table of test/generator-definitions-chain.test.ts,
 * each in a project of its own, through real `fw` processes.
 */
import fs from 'node:fs';
import * as assert from 'uvu/assert';
import { lines, newProject, readSchema, type CliProject } from './cli.js';
import { linkFramework } from './crud-app.js';
import type { DialectName } from './dialects.js';
import { CONTACT_FILE, MIGRATIONS, makeMigration as make, okLines as ok, query } from './migrations.js';
import { runTsc } from './typecheck.js';

export type Dialect = DialectName;

// ---------------------------------------------------------------------------------------------------------------
// A removed entity

const GENERATED = ['mvc/forms/ville_fields.ts', 'mvc/models/ville_crud.ts', 'mvc/views/ville/_fields.html', 'mvc/entities/ville/ville_base.ts'];

/**
 * Ville removed: `build:model --check` exits 2 and names what is left; `build:model` deletes its generated files and
 * names its manual files and routes; `project:check` fails on them; `migration:diff --all` names its table on SQLite
 * then on MariaDB (the same migrations, in the same project); once the manual files and routes are gone, the project
 * type-checks and `--check` passes.
 */
export async function removedEntityScenario(): Promise<void> {
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
    const tsc = runTsc(project.root, ['--noEmit', '-p', 'tsconfig.json']);
    assert.is(tsc.status, 0, tsc.stdout + tsc.stderr);
  } finally {
    await project.cleanup();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Destructive steps

const LONG = 'Marie Salomea Sklodowska-Curie, née à Varsovie'; // 47 characters

async function nomType(project: CliProject): Promise<string> {
  return (await readSchema(project)).tables.contact!.find((c) => c.name === 'Nom')!.type;
}

function pendingCount(project: CliProject): string {
  return ok(project, ['migration:status']).at(-1)!;
}

/** The Contact table on `dialect`: Nom VARCHAR(50) holding a 47-character value (Id 2), Ville and Note; a PENDING migration narrows Nom to VARCHAR(20). */
async function narrowedProject(dialect: Dialect): Promise<{ project: CliProject; narrow: string; before: string }> {
  const project = newProject('Carnet');
  try {
    ok(project, ['make:entity', 'Contact', '--no-input']);
    project.editJson<{ fields: Array<Record<string, unknown>> }>(CONTACT_FILE, (data) => {
      data.fields[0]!.sql_type = 'VARCHAR(50)';
      data.fields[0]!.constraints = { not_empty: true, max_length: 50 };
      data.fields.push({ name: 'ville', sql_type: 'VARCHAR(40)', nullable: true });
      data.fields.push({ name: 'note', sql_type: 'TEXT', nullable: true });
    });
    ok(project, ['build:model']);
    project.useDialect(dialect);
    ok(project, ['db:init']);
    make(project, ['init', '--from-entities']);
    ok(project, ['migration:apply']);
    await project.sql([`INSERT INTO contact (Nom, Ville, Note) VALUES ('Noether', 'Erlangen', 'a'), ('${LONG}', NULL, 'b'), ('Meitner', 'Erlangen', NULL)`]);
    const before = 'varchar(50)';
    assert.is(await nomType(project), before);

    // VARCHAR(50) -> VARCHAR(20) with one value of 47 characters (Id 2).
    project.editJson<{ fields: Array<Record<string, unknown>> }>(CONTACT_FILE, (data) => {
      data.fields[0]!.sql_type = 'VARCHAR(20)';
      data.fields[0]!.constraints = { not_empty: true, max_length: 20 };
    });
    ok(project, ['sync:entity', 'Contact']);
    const narrow = make(project, ['nom_court', '--from-diff', 'Contact']);
    return { project, narrow, before };
  } catch (error) {
    await project.cleanup();
    throw error;
  }
}

/**
 * Item 11, on `dialect`: `migration:apply --allow-destructive` refuses the narrowing VARCHAR(50) → VARCHAR(20) over a
 * 47-character value before any statement, the row named, the schema and the row read back unchanged; once the value
 * fits it applies; then NOT NULL over a NULL and a unique key over duplicates are refused the same way, the rows named.
 */
export async function refusedBeforeAnyChangeScenario(dialect: Dialect): Promise<void> {
  const { project, narrow, before } = await narrowedProject(dialect);
  try {
    const refused = project.run(['migration:apply', '--allow-destructive']);
    assert.is(refused.status, 1, refused.stdout);
    assert.equal(lines(refused.stderr).slice(0, 3), [
      `Erreur : la migration « ${narrow} » échouerait sur MariaDB ou perdrait des données sur SQLite :`,
      `  ${narrow}, ligne ${lines(refused.stderr)[1]!.match(/ligne (\d+)/)![1]} : contact.Nom VARCHAR(50) → VARCHAR(20) : valeur de plus de 20 caractères : 1 ligne(s) (Id 2)`,
      "aucune migration n'a été appliquée ni enregistrée.",
    ]);
    assert.match(refused.stderr, /^Conseil : corrigez ces lignes/m);
    assert.is(await nomType(project), before);
    assert.equal(await query(project, 'SELECT Nom FROM contact WHERE Id = 2'), [{ Nom: LONG }]);
    assert.is(pendingCount(project), '1 APPLIED, 1 PENDING, 0 CHANGED, 0 MISSING.');

    // Once the value fits, the narrowing applies with the flag.
    await project.sql(["UPDATE contact SET Nom = 'Marie Curie' WHERE Id = 2"]);
    ok(project, ['migration:apply', '--allow-destructive']);
    assert.is(await nomType(project), 'varchar(20)');
    assert.is(project.run(['migration:diff', '--all', '--check']).status, 0);

    // NOT NULL over a NULL (Id 2) and a unique key over duplicates (Ids 1 and 3), in one migration.
    project.editJson<{ fields: Array<Record<string, unknown>> }>(CONTACT_FILE, (data) => {
      data.fields[1]!.nullable = false;
      data.fields[1]!.unique = true;
    });
    ok(project, ['sync:entity', 'Contact']);
    const strict = make(project, ['ville_stricte', '--from-diff', 'Contact']);
    const refusedAgain = project.run(['migration:apply', '--allow-destructive']);
    assert.is(refusedAgain.status, 1);
    const reasons = lines(refusedAgain.stderr).filter((l) => l.startsWith(`  ${strict}`));
    assert.equal(
      reasons.map((l) => l.replace(/ligne \d+/, 'ligne L')),
      [
        `  ${strict}, ligne L : contact.Ville devient NOT NULL : valeur NULL : 1 ligne(s) (Id 2)`,
        `  ${strict}, ligne L : clé unique sur contact (Ville) : valeur en double : 2 ligne(s) (Id 1, Id 3)`,
      ],
    );
    const schema = await readSchema(project);
    assert.is(schema.tables.contact!.find((c) => c.name === 'Ville')!.nullable, true);
    assert.equal(
      schema.indexes.filter((i) => i.table === 'contact'),
      [],
    );
    await project.sql(["UPDATE contact SET Ville = 'Berlin' WHERE Id = 2", "UPDATE contact SET Ville = 'Vienne' WHERE Id = 3"]);
    ok(project, ['migration:apply']);
    assert.is(project.run(['migration:diff', '--all', '--check']).status, 0);
  } finally {
    await project.cleanup();
  }
}

/**
 * Item 12, on `dialect`: the narrowing and a column dropped by hand are listed by `migration:lint` and
 * `migration:status` (text and JSON) with the rows they touch, refused by `migration:apply` without
 * `--allow-destructive` (nothing changed) and applied with it.
 */
export async function destructiveStepsListedScenario(dialect: Dialect): Promise<void> {
  const { project, narrow, before } = await narrowedProject(dialect);
  try {
    // migration:lint and migration:status list it, with the row, for CI too.
    const lint = project.run(['migration:lint']);
    assert.is(lint.status, 2, lint.stdout);
    assert.match(lint.stdout, /^NARROW\s+\S+nom_court\.sql\s+\d+\s+1\s+contact\.Nom VARCHAR\(50\) → VARCHAR\(20\) .*\(Id 2\) \[bloquante\]$/m);
    const json = JSON.parse(project.run(['migration:lint', '--json']).stdout) as Array<Record<string, unknown>>;
    assert.equal(
      json.map(({ migration, kind, table, column, rows, keys, blocking }) => ({ migration, kind, table, column, rows, keys, blocking })),
      [{ migration: narrow, kind: 'NARROW', table: 'contact', column: 'Nom', rows: 1, keys: ['Id 2'], blocking: true }],
    );
    assert.ok(lines(project.run(['migration:status']).stdout).some((l) => l.startsWith(`Étape destructive : ${narrow}, ligne `) && l.endsWith('[bloquante]')));
    const status = JSON.parse(project.run(['migration:status', '--json']).stdout) as Array<{ status: string; risks: Array<Record<string, unknown>> }>;
    assert.equal(
      status.map((s) => [s.status, s.risks.map((r) => `${String(r.kind)} ${String(r.rows)} ${String(r.blocking)}`)]),
      [
        ['APPLIED', []],
        ['PENDING', ['NARROW 1 true']],
      ],
    );

    // Once the value fits, the narrowing is still a destructive step: refused without the flag, applied with it.
    await project.sql(["UPDATE contact SET Nom = 'Marie Curie' WHERE Id = 2"]);
    const unflagged = project.run(['migration:apply']);
    assert.is(unflagged.status, 1);
    assert.match(unflagged.stderr, /^Erreur : 1 étape\(s\) destructive\(s\) dans les migrations PENDING :$/m);
    assert.match(unflagged.stderr, /--allow-destructive/);
    assert.is(await nomType(project), before);
    ok(project, ['migration:apply', '--allow-destructive']);
    assert.is(await nomType(project), 'varchar(20)');
    assert.is(project.run(['migration:diff', '--all', '--check']).status, 0);

    // A column dropped by hand: listed with the values it holds, refused without the flag.
    project.write(
      `${MIGRATIONS}/29990101000000_sans_note.sql`,
      '-- fw:dialect mariadb\nALTER TABLE `contact` DROP COLUMN `Note`;\n-- fw:dialect sqlite\nALTER TABLE "contact" DROP COLUMN "Note";\n',
    );
    const drop = project.run(['migration:lint']);
    assert.is(drop.status, 2);
    assert.match(drop.stdout, /^DROP_COLUMN\s+29990101000000_sans_note\.sql\s+\d+\s+2\s+suppression de la colonne contact\.Note : 2 valeur\(s\) perdue\(s\)$/m);
    assert.is(project.run(['migration:apply']).status, 1);
    assert.ok((await readSchema(project)).tables.contact!.some((c) => c.name === 'Note'));
    ok(project, ['migration:apply', '--allow-destructive']);
    assert.not.ok((await readSchema(project)).tables.contact!.some((c) => c.name === 'Note'));
    const clean = project.run(['migration:lint']);
    assert.is(clean.status, 0);
    assert.equal(lines(clean.stdout), ['Aucune étape destructive dans les migrations PENDING.']);
  } finally {
    await project.cleanup();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// A CRLF routes.ts with a byte order mark

/** `fw make:crud` on a CRLF `mvc/routes.ts` with a byte order mark keeps both on every line; a second run changes no byte. */
export async function crlfBomRoutesScenario(): Promise<void> {
  const project = newProject('Marque');
  try {
    const routes = project.read('mvc/routes.ts');
    project.write('mvc/routes.ts', `\uFEFF${routes.replace(/\n/g, '\r\n')}`);
    for (const args of [['make:entity', 'Contact', '--no-input'], ['build:model'], ['make:crud', 'Contact']]) {
      const run = project.run(args);
      assert.is(run.status, 0, run.stderr);
    }
    const edited = fs.readFileSync(project.path('mvc/routes.ts'));
    assert.equal([...edited.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
    const text = edited.toString('utf8');
    assert.not.match(text, /[^\r]\n/);
    assert.match(text, /\r\n {2}router\.add\('GET', '\/contacts', ContactController\.index/);
    const again = project.run(['make:crud', 'Contact']);
    assert.is(again.status, 0, again.stderr);
    assert.ok(fs.readFileSync(project.path('mvc/routes.ts')).equals(edited));
  } finally {
    await project.cleanup();
  }
}
