// `migration:diff` compares indexes, unique keys and foreign keys, not only columns: a key dropped or altered by
// hand on the real MariaDB or SQLite database makes `--check` exit 2 and names it; `migration:make --from-diff`
// writes the statements that restore it (MariaDB ALTER TABLE, SQLite CREATE INDEX or a table rebuild), and once
// `migration:apply` ran them `--check` exits 0 again. Real `fw` processes, one body run on both dialects.
import fs from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { DialectName } from '../runtime/db/index.js';
import { CONTACT_FILE, okLines as ok, newVilleContactProject, query } from './helpers/migrations.js';
import { lines, readSchema, type CliProject } from './helpers/cli.js';
import { DIALECTS } from './helpers/dialects.js';

const DRIFT = 'Écarts trouvés : « fw migration:make <nom> --from-diff <Entité> » prépare la migration.';
const FK = 'FOREIGN KEY (VilleId) → ville (Id)';

/** `fw migration:diff --entity Contact --check`: its exit status and the rows that are not OK. */
function drift(project: CliProject): { status: number | null; rows: string[][]; last: string | undefined } {
  const run = project.run(['migration:diff', '--entity', 'Contact', '--check']);
  const out = lines(run.stdout);
  const rows = out
    .slice(1, -1)
    .map((line) => line.split(/\s{2,}/))
    .filter((row) => row[0] !== 'OK');
  return { status: run.status, rows, last: out.at(-1) };
}

/** `fw migration:make <name> --from-diff Contact`: the file's text; both sections hold statements, so no warning. */
function makeFromDiff(project: CliProject, name: string): string {
  const run = project.run(['migration:make', name, '--from-diff', 'Contact']);
  assert.is(run.status, 0, run.stderr);
  assert.is(run.stderr, '');
  return project.read(lines(run.stdout)[0]!.trim().split(/\s+/)[1]!);
}

function assertNoDrift(project: CliProject): void {
  const after = drift(project);
  assert.equal(after.rows, []);
  assert.is(after.status, 0);
  assert.is(after.last, 'Aucun écart.');
}

/** The statements (not the comments) of one dialect section of a migration file. */
function section(text: string, dialect: DialectName): string[] {
  const start = text.indexOf(`-- fw:dialect ${dialect}`);
  const next = text.indexOf('-- fw:dialect ', start + 1);
  return lines(text.slice(start, next === -1 ? undefined : next)).filter((line) => line !== '' && !line.startsWith('--'));
}

/** SQLite drops a foreign key only by rebuilding the table: the contact table again, without it (indexes kept). */
const SQLITE_CONTACT_WITHOUT_FK = [
  'CREATE TABLE "contact_tmp" ("Id" INTEGER PRIMARY KEY AUTOINCREMENT, "Nom" VARCHAR(100) NOT NULL, "VilleId" INT, "Code" VARCHAR(20))',
  'INSERT INTO "contact_tmp" SELECT "Id", "Nom", "VilleId", "Code" FROM "contact"',
  'DROP TABLE "contact"',
  'ALTER TABLE "contact_tmp" RENAME TO "contact"',
  'CREATE UNIQUE INDEX "uq_contact_code" ON "contact" ("Code")',
  'CREATE INDEX "ix_contact_villeid" ON "contact" ("VilleId")',
];

function conformance(dialect: DialectName): void {
  const t = suite(`migrations-keys: ${dialect}`);
  const sqlite = dialect === 'sqlite';
  const q = (name: string): string => (sqlite ? `"${name}"` : `\`${name}\``);
  let project: CliProject;

  t.after(async () => {
    await project?.cleanup();
  });

  t('setup: Ville, Contact (unique Code, VilleId many-to-one), migrated from the entities; no drift, keys listed as OK', async () => {
    ({ project } = await newVilleContactProject(dialect));
    await project.sql([
      `INSERT INTO ${q('ville')} (${q('Nom')}) VALUES ('Lyon')`,
      `INSERT INTO ${q('contact')} (${q('Nom')}, ${q('VilleId')}, ${q('Code')}) VALUES ('Ada', 1, 'A1')`,
    ]);
    const out = ok(project, ['migration:diff', '--entity', 'Contact', '--check']);
    assert.equal(out.slice(-4), [
      'OK      uq_contact_code     UNIQUE (Code)',
      'OK      ix_contact_villeid  INDEX (VilleId)',
      `OK      fk_contact_villeid  ${FK} ON DELETE RESTRICT ON UPDATE CASCADE`,
      'Aucun écart.',
    ]);
    const json = JSON.parse(project.run(['migration:diff', '--entity', 'Contact', '--json']).stdout) as Array<{
      rows: Array<{ status: string; column: string }>;
    }>;
    assert.equal(
      json[0]!.rows.slice(-3).map((row) => [row.status, row.column]),
      [
        ['OK', 'uq_contact_code'],
        ['OK', 'ix_contact_villeid'],
        ['OK', 'fk_contact_villeid'],
      ],
    );
  });

  t('a dropped unique index: INDEX_MISSING, --check exits 2; --from-diff re-creates it; after apply --check exits 0', async () => {
    await project.sql([sqlite ? 'DROP INDEX "uq_contact_code"' : 'ALTER TABLE `contact` DROP INDEX `uq_contact_code`']);
    const before = drift(project);
    assert.is(before.status, 2);
    assert.equal(before.rows, [['INDEX_MISSING', 'uq_contact_code', 'attendu UNIQUE (Code)']]);
    assert.is(before.last, DRIFT);
    const json = JSON.parse(project.run(['migration:diff', '--entity', 'Contact', '--json']).stdout) as Array<{
      rows: Array<{ status: string; column: string; detail: string }>;
    }>;
    assert.equal(
      json[0]!.rows.filter((row) => row.status !== 'OK'),
      [{ status: 'INDEX_MISSING', column: 'uq_contact_code', detail: 'attendu UNIQUE (Code)' }],
    );

    const text = makeFromDiff(project, 'remet_uq');
    assert.equal(section(text, 'mariadb'), ['ALTER TABLE `contact` ADD UNIQUE KEY `uq_contact_code` (`Code`);']);
    assert.equal(section(text, 'sqlite'), ['CREATE UNIQUE INDEX IF NOT EXISTS "uq_contact_code" ON "contact" ("Code");']);
    ok(project, ['migration:apply']);
    assertNoDrift(project);
    const index = (await readSchema(project)).indexes.find((i) => i.name === 'uq_contact_code');
    assert.equal(index && { ...index, columns: [...index.columns] }, { table: 'contact', name: 'uq_contact_code', unique: true, columns: ['Code'] });
  });

  t('a dropped foreign key: FK_MISSING; --from-diff adds it (MariaDB ALTER TABLE, SQLite table rebuild); after apply --check exits 0', async () => {
    await project.sql(sqlite ? SQLITE_CONTACT_WITHOUT_FK : ['ALTER TABLE `contact` DROP FOREIGN KEY `fk_contact_villeid`']);
    assert.equal((await readSchema(project)).foreignKeys, []);
    const before = drift(project);
    assert.is(before.status, 2);
    assert.equal(before.rows, [['FK_MISSING', 'fk_contact_villeid', `attendu ${FK} ON DELETE RESTRICT ON UPDATE CASCADE`]]);

    const text = makeFromDiff(project, 'remet_fk');
    assert.equal(section(text, 'mariadb'), [
      'ALTER TABLE `contact` ADD CONSTRAINT `fk_contact_villeid` FOREIGN KEY (`VilleId`) REFERENCES `ville` (`Id`) ON DELETE RESTRICT ON UPDATE CASCADE;',
    ]);
    assert.ok(text.includes('-- fk_contact_villeid : SQLite ne sait pas ajouter ni modifier une clé étrangère, la table contact est reconstruite\n'), text);
    assert.equal(
      section(text, 'sqlite').filter((line) => /^[A-Z]/.test(line)),
      [
        'PRAGMA foreign_keys = OFF;',
        'CREATE TABLE "contact__fw_new" (',
        'INSERT INTO "contact__fw_new" ("Id", "Nom", "VilleId", "Code") SELECT "Id", "Nom", "VilleId", "Code" FROM "contact";',
        'DROP TABLE "contact";',
        'ALTER TABLE "contact__fw_new" RENAME TO "contact";',
        'CREATE UNIQUE INDEX IF NOT EXISTS "uq_contact_code" ON "contact" ("Code");',
        'CREATE INDEX IF NOT EXISTS "ix_contact_villeid" ON "contact" ("VilleId");',
      ],
    );
    ok(project, ['migration:apply']);
    assertNoDrift(project);
    const schema = await readSchema(project);
    assert.equal(schema.foreignKeys, [{ table: 'contact', column: 'VilleId', refTable: 'ville', refColumn: 'Id', onDelete: 'RESTRICT', onUpdate: 'CASCADE' }]);
    assert.equal(await query(project, `SELECT ${q('Nom')}, ${q('VilleId')}, ${q('Code')} FROM ${q('contact')}`), [{ Nom: 'Ada', VilleId: 1, Code: 'A1' }]);
    // The key holds again: an orphan is refused.
    const error = await project.sql([`INSERT INTO ${q('contact')} (${q('Nom')}, ${q('VilleId')}) VALUES ('Zed', 999)`]).then(
      () => null,
      (e: unknown) => e,
    );
    assert.match(String(error), /foreign key constraint fails|FOREIGN KEY constraint failed/i);
  });

  t('ON DELETE changed in relations.json: FK_CHANGED; --from-diff drops and re-adds it (rebuild on SQLite); --check exits 0', async () => {
    project.editJson<{ relations: Array<Record<string, unknown>> }>('mvc/entities/relations.json', (data) => {
      data.relations[0]!.on_delete = 'SET NULL';
    });
    ok(project, ['sync:relations']);
    const before = drift(project);
    assert.is(before.status, 2);
    assert.equal(before.rows, [
      ['FK_CHANGED', 'fk_contact_villeid', `attendu ${FK} ON DELETE SET NULL ON UPDATE CASCADE, trouvé ${FK} ON DELETE RESTRICT ON UPDATE CASCADE`],
    ]);
    const text = makeFromDiff(project, 'fk_set_null');
    assert.equal(section(text, 'mariadb'), [
      'ALTER TABLE `contact` DROP FOREIGN KEY `fk_contact_villeid`;',
      'ALTER TABLE `contact` ADD CONSTRAINT `fk_contact_villeid` FOREIGN KEY (`VilleId`) REFERENCES `ville` (`Id`) ON DELETE SET NULL ON UPDATE CASCADE;',
    ]);
    assert.ok(
      section(text, 'sqlite').includes(
        '  CONSTRAINT "fk_contact_villeid" FOREIGN KEY ("VilleId") REFERENCES "ville" ("Id") ON DELETE SET NULL ON UPDATE CASCADE',
      ),
      text,
    );
    ok(project, ['migration:apply']);
    assertNoDrift(project);
    assert.equal(
      (await readSchema(project)).foreignKeys.map((fk) => fk.onDelete),
      ['SET NULL'],
    );
  });

  t('a unique key made a plain index: INDEX_CHANGED; --from-diff drops and re-creates it; --check exits 0', async () => {
    await project.sql(
      sqlite
        ? ['DROP INDEX "uq_contact_code"', 'CREATE INDEX "uq_contact_code" ON "contact" ("Code")']
        : ['ALTER TABLE `contact` DROP INDEX `uq_contact_code`, ADD KEY `uq_contact_code` (`Code`)'],
    );
    const before = drift(project);
    assert.is(before.status, 2);
    assert.equal(before.rows, [['INDEX_CHANGED', 'uq_contact_code', 'attendu UNIQUE (Code), trouvé INDEX (Code)']]);
    const text = makeFromDiff(project, 'uq_unique');
    assert.equal(section(text, 'mariadb'), ['ALTER TABLE `contact` DROP INDEX `uq_contact_code`, ADD UNIQUE KEY `uq_contact_code` (`Code`);']);
    assert.equal(section(text, 'sqlite'), ['DROP INDEX "uq_contact_code";', 'CREATE UNIQUE INDEX IF NOT EXISTS "uq_contact_code" ON "contact" ("Code");']);
    ok(project, ['migration:apply']);
    assertNoDrift(project);
  });

  t('an index the entity does not declare: INDEX_EXTRA, reported and left alone (a commented DROP), like an extra column', async () => {
    await project.sql([`CREATE INDEX ${q('ix_nom_a_la_main')} ON ${q('contact')} (${q('Nom')})`]);
    const before = drift(project);
    assert.is(before.status, 2);
    assert.equal(before.rows, [['INDEX_EXTRA', 'ix_nom_a_la_main', "INDEX (Nom) absent de l'entité"]]);
    const made = project.run(['migration:make', 'index_en_trop', '--from-diff', 'Contact']);
    assert.is(made.status, 0, made.stderr);
    const file = lines(made.stdout)[0]!.trim().split(/\s+/)[1]!;
    const text = project.read(file);
    assert.ok(
      text.includes(
        "-- fw:dialect mariadb\n-- ix_nom_a_la_main n'est plus dans l'entité. Pour le supprimer, décommentez :\n-- ALTER TABLE `contact` DROP INDEX `ix_nom_a_la_main`;\n",
      ),
      text,
    );
    assert.ok(
      text.includes(
        '-- fw:dialect sqlite\n-- ix_nom_a_la_main n\'est plus dans l\'entité. Pour le supprimer, décommentez :\n-- DROP INDEX "ix_nom_a_la_main";\n',
      ),
      text,
    );
    // Nothing but comments on either side: both sections are announced as empty.
    assert.equal(
      lines(made.stderr),
      DIALECTS.map(
        (d) =>
          `Attention : ${file} n'a encore aucune instruction pour ${d} : « fw migration:apply » la refusera sur ${d} tant que sa section « -- fw:dialect ${d} » est vide.`,
      ),
    );
    fs.rmSync(project.path(file));
  });

  t('a foreign key changed while an extra index exists: the SQLite rebuild keeps the extra index; only INDEX_EXTRA is left', async () => {
    project.editJson<{ relations: Array<Record<string, unknown>> }>('mvc/entities/relations.json', (data) => {
      data.relations[0]!.on_update = 'RESTRICT';
    });
    ok(project, ['sync:relations']);
    const extra = ['INDEX_EXTRA', 'ix_nom_a_la_main', "INDEX (Nom) absent de l'entité"];
    const before = drift(project);
    assert.equal(before.rows, [
      extra,
      ['FK_CHANGED', 'fk_contact_villeid', `attendu ${FK} ON DELETE SET NULL ON UPDATE RESTRICT, trouvé ${FK} ON DELETE SET NULL ON UPDATE CASCADE`],
    ]);
    const text = makeFromDiff(project, 'fk_restrict');
    assert.ok(section(text, 'sqlite').includes('CREATE INDEX IF NOT EXISTS "ix_nom_a_la_main" ON "contact" ("Nom");'), text);
    ok(project, ['migration:apply']);
    const after = drift(project);
    assert.is(after.status, 2);
    assert.equal(after.rows, [extra]);
  });

  t('the commented DROP INDEX of an INDEX_EXTRA migration, uncommented, removes it: --check exits 0', () => {
    const made = project.run(['migration:make', 'sans_index_en_trop', '--from-diff', 'Contact']);
    assert.is(made.status, 0, made.stderr);
    const file = lines(made.stdout)[0]!.trim().split(/\s+/)[1]!;
    project.write(file, project.read(file).replace(/-- (ALTER TABLE `contact` DROP INDEX|DROP INDEX ")/g, '$1'));
    ok(project, ['migration:apply']);
    assertNoDrift(project);
  });

  if (sqlite) {
    t('SQLite: a UNIQUE constraint written in CREATE TABLE (sqlite_autoindex_*) matches the unique field by meaning', async () => {
      await project.sql([
        'CREATE TABLE "contact_tmp" ("Id" INTEGER PRIMARY KEY AUTOINCREMENT, "Nom" VARCHAR(100) NOT NULL, ' +
          '"VilleId" INT REFERENCES "ville" ("Id") ON DELETE SET NULL ON UPDATE RESTRICT, "Code" VARCHAR(20) UNIQUE)',
        'INSERT INTO "contact_tmp" SELECT "Id", "Nom", "VilleId", "Code" FROM "contact"',
        'DROP TABLE "contact"',
        'ALTER TABLE "contact_tmp" RENAME TO "contact"',
        'CREATE INDEX "ix_contact_villeid" ON "contact" ("VilleId")',
      ]);
      assert.ok((await readSchema(project)).indexes.some((i) => i.name === 'sqlite_autoindex_contact_1' && i.unique));
      assertNoDrift(project);
    });

    t('SQLite: the entity wants a plain index instead: INDEX_CHANGED; DROP INDEX cannot remove a constraint, so the table is rebuilt', async () => {
      project.editJson<{ fields: Array<Record<string, unknown>> }>(CONTACT_FILE, (data) => {
        const code = data.fields.find((f) => f.name === 'code')!;
        code.unique = false;
        code.list = { filter: true };
      });
      ok(project, ['sync:entity', 'Contact']);
      assert.equal(drift(project).rows, [['INDEX_CHANGED', 'ix_contact_code', 'attendu INDEX (Code), trouvé sqlite_autoindex_contact_1 UNIQUE (Code)']]);
      const text = makeFromDiff(project, 'code_index');
      assert.ok(
        text.includes('-- ix_contact_code : SQLite ne sait pas retirer une contrainte UNIQUE de CREATE TABLE, la table contact est reconstruite\n'),
        text,
      );
      assert.ok(section(text, 'sqlite').includes('CREATE INDEX IF NOT EXISTS "ix_contact_code" ON "contact" ("Code");'), text);
      ok(project, ['migration:apply']);
      assertNoDrift(project);
      assert.equal(await query(project, 'SELECT "Nom", "VilleId", "Code" FROM "contact"'), [{ Nom: 'Ada', VilleId: 1, Code: 'A1' }]);
    });
  }

  t.run();
}

for (const dialect of DIALECTS) conformance(dialect);
