// The database half of the pipeline, run as real `fw` processes against SQLite and against MariaDB (one body,
// run twice): db:init and db:apply (schema read back from the catalogue), refusal of stale generated SQL,
// migration:diff rows and --check, migration:make --from-diff / --from-entities / --from-entity, migration:apply.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { DialectName } from '../runtime/db/index.js';
import { MIGRATIONS, migrationFiles } from './helpers/migrations.js';
import { fateLine, lines, newProject, readSchema, type CliProject, type Schema } from './helpers/cli.js';
import { DIALECTS } from './helpers/dialects.js';

const C = 'mvc/entities/contact';
const DRIFT = 'Écarts trouvés : « fw migration:make <nom> --from-diff <Entité> » prépare la migration.';
const MIGRATION_HEAD = (name: string, origin: string): string =>
  `-- Migration ${name} (${origin}).\n-- Relisez-la avant « fw migration:apply » : une fois appliquée, ne la modifiez plus.\n\n`;

/** `STATUT  COLONNE  DETAIL`, each column padded to its widest cell (docs/decisions.md#migrations). */
function diffTable(rows: ReadonlyArray<readonly [string, string, string]>): string[] {
  const all = [['STATUT', 'COLONNE', 'DETAIL'], ...rows];
  const [w0, w1] = [0, 1].map((i) => Math.max(...all.map((row) => row[i]!.length)));
  return all.map(([status, column, detail]) => `${status!.padEnd(w0!)}  ${column!.padEnd(w1!)}  ${detail}`);
}

/** Runs `fw migration:make <args>` and returns the name of the file it wrote (checked against its report). */
function makeMigration(project: CliProject, args: string[]): string {
  const before = migrationFiles(project);
  const run = project.run(['migration:make', ...args]);
  assert.is(run.status, 0, run.stderr);
  const made = migrationFiles(project).filter((f) => !before.includes(f));
  assert.is(made.length, 1, run.stdout);
  const file = made[0]!;
  assert.match(file, new RegExp(`^\\d{14}_${args[0]}\\.sql$`));
  const stamp = file.slice(0, 14);
  const when = Date.UTC(+stamp.slice(0, 4), +stamp.slice(4, 6) - 1, +stamp.slice(6, 8), +stamp.slice(8, 10), +stamp.slice(10, 12), +stamp.slice(12, 14));
  assert.ok(Math.abs(when - Date.now()) < 10 * 60_000, `version ${stamp} is the current UTC time`);
  assert.equal(lines(run.stdout), [
    fateLine('créé', `${MIGRATIONS}/${file}`),
    'Résumé : 1 créé.',
    "Relisez le fichier, puis « fw migration:apply » l'appliquera (« fw migration:status » montre l'état).",
  ]);
  return file;
}

/** Runs `fw migration:apply`, which must apply exactly `files`, in this order. */
function applyMigrations(project: CliProject, files: readonly string[]): void {
  const run = project.run(['migration:apply']);
  assert.is(run.status, 0, run.stderr);
  const out = lines(run.stdout);
  assert.is(out.length, files.length + 1, run.stdout);
  files.forEach((file, i) => assert.match(out[i]!, new RegExp(`^ {2}appliquée {2}${file.replace('.', '\\.')} {2}\\(\\d+ ms\\)$`)));
  assert.is(out.at(-1), `${files.length} migration(s) appliquée(s).`);
}

function conformance(dialect: DialectName): void {
  const t = suite(`pipeline-database: ${dialect}`);
  const sqlite = dialect === 'sqlite';
  const suffix = sqlite ? '.sqlite.sql' : '.sql';
  const q = (name: string): string => (sqlite ? `"${name}"` : `\`${name}\``);
  const projects: CliProject[] = [];
  let project: CliProject;
  let schema: Schema;

  t.after(async () => {
    for (const made of projects) await made.cleanup();
  });

  /** A project made by `fw new`, with env/dev for a database of its own. */
  function fresh(): CliProject {
    const made = newProject('Carnet');
    projects.push(made);
    made.useDialect(dialect);
    return made;
  }

  function run(target: CliProject, args: string[], status = 0): string[] {
    const result = target.run(args);
    assert.is(result.status, status, `fw ${args.join(' ')} : ${result.stdout}${result.stderr}`);
    if (status === 0) assert.is(result.stderr, '', `fw ${args.join(' ')}`);
    return lines(result.stdout);
  }

  /** `  <label> <file> (<n> instruction(s), <m> déjà présente(s))`: one db:apply line. */
  const applied = (label: string, file: string, executed: number, skipped: number): string =>
    `  ${label.padEnd(10)} mvc/entities/${file}${suffix} (${executed} instruction(s), ${skipped} déjà présente(s))`;

  const FK_OK = 'FOREIGN KEY (VilleId) → ville (Id) ON DELETE RESTRICT ON UPDATE CASCADE';
  const CONTACT_FK = { table: 'contact', column: 'VilleId', refTable: 'ville', refColumn: 'Id', onDelete: 'RESTRICT', onUpdate: 'CASCADE' };
  const idType = sqlite ? 'integer' : 'int';

  t('setup with the CLI: entities, relation, build:model, db:init', () => {
    project = fresh();
    for (const name of ['Contact', 'Ville']) run(project, ['make:entity', name, '--no-input']);
    project.editJson<{ fields: unknown[] }>(`${C}/contact.json`, (data) => {
      data.fields.push({ name: 'ville_id', sql_type: 'INT', nullable: true, unique: false });
    });
    run(project, ['make:relation', '--no-input', '--name', 'contact_ville', '--type', 'many_to_one', '--from', 'Contact.ville_id', '--to', 'Ville.id']);
    run(project, ['build:model']);
    const init = run(project, ['db:init']);
    assert.match(
      init[0]!,
      sqlite
        ? /^db:init — SQLite .*storage\/database\.sqlite$/
        : /^db:init — MariaDB 127\.0\.0\.1:3306, base fw_pipe_[0-9a-f]{12}, compte root \(DB_ADMIN_LOGIN\)$/,
    );
    assert.ok(
      init.some((line) => /^ {2}créé +table fw_migrations$/.test(line)),
      init.join('\n'),
    );
    assert.match(init.at(-1)!, /^Terminé : \d+ élément\(s\) créé\(s\) ou accordé\(s\)\.$/);
  });

  t('db:apply creates the tables in dependency order; columns and foreign keys read back', async () => {
    assert.equal(run(project, ['db:apply']), [
      applied('appliqué', 'ville/ville', 1, 0),
      applied('appliqué', 'contact/contact', sqlite ? 2 : 1, 0),
      sqlite ? applied('inchangé', 'relations', 0, 0) : applied('appliqué', 'relations', 1, 0),
      'Schéma appliqué : 3 fichier(s).',
    ]);
    schema = await readSchema(project);
    assert.equal(Object.keys(schema.tables).sort(), ['contact', 'fw_migrations', 'fw_sessions', 'ville']);
    assert.equal(schema.tables.ville, [
      { name: 'Id', type: idType, nullable: false },
      { name: 'Nom', type: 'varchar(100)', nullable: false },
    ]);
    assert.equal(schema.tables.contact, [
      { name: 'Id', type: idType, nullable: false },
      { name: 'Nom', type: 'varchar(100)', nullable: false },
      { name: 'VilleId', type: 'int', nullable: true },
    ]);
    assert.equal(schema.foreignKeys, [CONTACT_FK]);
    assert.equal(
      schema.indexes.filter((i) => !i.table.startsWith('fw_')),
      [{ table: 'contact', name: 'ix_contact_villeid', unique: false, columns: ['VilleId'] }],
    );
  });

  t('a second db:apply changes nothing', async () => {
    assert.equal(run(project, ['db:apply']), [
      applied('inchangé', 'ville/ville', 0, 1),
      applied('inchangé', 'contact/contact', 0, sqlite ? 2 : 1),
      applied('inchangé', 'relations', 0, sqlite ? 0 : 1),
      'Schéma appliqué : 3 fichier(s).',
    ]);
    assert.equal(await readSchema(project), schema);
  });

  t('migration:diff --entity Contact: OK rows, exit 0, with and without --check; --json', () => {
    const expected = [
      'STATUT  COLONNE             DETAIL',
      'OK      Id                  INT NOT NULL',
      'OK      Nom                 VARCHAR(100) NOT NULL',
      'OK      VilleId             INT NULL',
      'OK      ix_contact_villeid  INDEX (VilleId)',
      `OK      fk_contact_villeid  ${FK_OK}`,
      'Aucun écart.',
    ];
    assert.equal(run(project, ['migration:diff', '--entity', 'Contact']), expected);
    assert.equal(run(project, ['migration:diff', '--entity', 'Contact', '--check']), expected);
    const json = JSON.parse(project.run(['migration:diff', '--entity', 'Contact', '--json']).stdout);
    assert.equal(json, [
      {
        entity: 'Contact',
        table: 'contact',
        rows: [
          { status: 'OK', column: 'Id', detail: 'INT NOT NULL' },
          { status: 'OK', column: 'Nom', detail: 'VARCHAR(100) NOT NULL' },
          { status: 'OK', column: 'VilleId', detail: 'INT NULL' },
          { status: 'OK', column: 'ix_contact_villeid', detail: 'INDEX (VilleId)' },
          { status: 'OK', column: 'fk_contact_villeid', detail: FK_OK },
        ],
      },
    ]);
  });

  t('an entity edited but not synced: db:apply refuses and advises fw build:model', async () => {
    project.editJson<{ fields: unknown[] }>(`${C}/contact.json`, (data) => {
      data.fields.push({ name: 'code', sql_type: 'VARCHAR(20)', nullable: true, unique: true });
    });
    const refused = project.run(['db:apply']);
    assert.is(refused.status, 1);
    assert.is(refused.stdout, '');
    assert.equal(lines(refused.stderr), [
      `Erreur : fichiers SQL générés absents ou périmés : ${C}/contact${suffix} (périmé). Rien n'a été appliqué.`,
      'Conseil : lancez « fw build:model » puis relancez « fw db:apply ».',
    ]);
    assert.equal(await readSchema(project), schema);
  });

  t('a field added and synced: --check exits 2 with a COLUMN_MISSING row and the INDEX_MISSING row of its unique key', () => {
    run(project, ['sync:entity', 'Contact']);
    const expected = [
      ...diffTable([
        ['OK', 'Id', 'INT NOT NULL'],
        ['OK', 'Nom', 'VARCHAR(100) NOT NULL'],
        ['OK', 'VilleId', 'INT NULL'],
        ['COLUMN_MISSING', 'Code', 'attendu VARCHAR(20) NULL'],
        ['INDEX_MISSING', 'uq_contact_code', 'attendu UNIQUE (Code)'],
        ['OK', 'ix_contact_villeid', 'INDEX (VilleId)'],
        ['OK', 'fk_contact_villeid', FK_OK],
      ]),
      DRIFT,
    ];
    assert.is(expected[0], 'STATUT          COLONNE             DETAIL');
    assert.equal(run(project, ['migration:diff', '--entity', 'Contact', '--check'], 2), expected);
    assert.equal(run(project, ['migration:diff', '--entity', 'Contact']), expected);
  });

  t('migration:make x --from-diff Contact fixes the column and its unique key, for both dialects; apply; --check exits 0', async () => {
    const file = makeMigration(project, ['x', '--from-diff', 'Contact']);
    assert.is(
      project.read(`${MIGRATIONS}/${file}`),
      `${MIGRATION_HEAD('x', 'fw migration:make --from-diff Contact')}` +
        '-- fw:dialect mariadb\nALTER TABLE `contact` ADD COLUMN `Code` VARCHAR(20) NULL;\nALTER TABLE `contact` ADD UNIQUE KEY `uq_contact_code` (`Code`);\n\n' +
        '-- fw:dialect sqlite\nALTER TABLE "contact" ADD COLUMN "Code" VARCHAR(20) COLLATE NOCASE;\nCREATE UNIQUE INDEX IF NOT EXISTS "uq_contact_code" ON "contact" ("Code");\n',
    );
    assert.ok(run(project, ['migration:status']).some((line) => line.startsWith('PENDING') && line.endsWith(file)));
    applyMigrations(project, [file]);
    assert.equal(run(project, ['migration:diff', '--entity', 'Contact', '--check']).at(-1), 'Aucun écart.');
    schema = await readSchema(project);
    assert.equal(schema.tables.contact!.at(-1), { name: 'Code', type: 'varchar(20)', nullable: true });
    assert.ok(
      schema.indexes.some((i) => i.name === 'uq_contact_code' && i.unique && i.columns.join() === 'Code'),
      JSON.stringify(schema.indexes),
    );
    // The migrated database is what the generated SQL describes: db:apply has nothing left to do.
    assert.equal(
      run(project, ['db:apply']).filter((line) => !line.includes('(0 instruction(s)')),
      ['Schéma appliqué : 3 fichier(s).'],
    );
  });

  t('a column altered and one added by hand: COLUMN_CHANGED and COLUMN_EXTRA', async () => {
    if (sqlite) {
      await project.sql([
        'CREATE TABLE "contact_tmp" ("Id" INTEGER PRIMARY KEY AUTOINCREMENT, "Nom" VARCHAR(50) NOT NULL, "VilleId" INT REFERENCES "ville" ("Id") ON DELETE RESTRICT ON UPDATE CASCADE, "Code" VARCHAR(20), "Extra" INT)',
        'DROP TABLE "contact"',
        'ALTER TABLE "contact_tmp" RENAME TO "contact"',
        'CREATE UNIQUE INDEX "uq_contact_code" ON "contact" ("Code")',
        'CREATE INDEX "ix_contact_villeid" ON "contact" ("VilleId")',
      ]);
    } else {
      await project.sql(['ALTER TABLE `contact` MODIFY `Nom` VARCHAR(50) NOT NULL', 'ALTER TABLE `contact` ADD COLUMN `Extra` INT NULL']);
    }
    // Found types are upper-case on both dialects (MariaDB reports them lower-case).
    const changed = ['COLUMN_CHANGED', 'Nom', 'attendu VARCHAR(100) NOT NULL, trouvé VARCHAR(50) NOT NULL'] as const;
    const extra = ['COLUMN_EXTRA', 'Extra', `${sqlite ? 'INT' : 'INT(11)'} NULL absente de l'entité`] as const;
    const keys = [
      ['OK', 'uq_contact_code', 'UNIQUE (Code)'],
      ['OK', 'ix_contact_villeid', 'INDEX (VilleId)'],
      ['OK', 'fk_contact_villeid', FK_OK],
    ] as const;
    const rows = [['OK', 'Id', 'INT NOT NULL'], changed, ['OK', 'VilleId', 'INT NULL'], ['OK', 'Code', 'VARCHAR(20) NULL'], extra, ...keys] as const;
    assert.equal(run(project, ['migration:diff', '--entity', 'Contact', '--check'], 2), [...diffTable(rows), DRIFT]);

    const file = makeMigration(project, ['fix_nom', '--from-diff', 'Contact']);
    const drop = (d: DialectName): string => {
      const quote = (name: string): string => (d === 'sqlite' ? `"${name}"` : `\`${name}\``);
      return `-- Extra n'est plus dans l'entité. Pour la supprimer (données perdues), décommentez :\n-- ALTER TABLE ${quote('contact')} DROP COLUMN ${quote('Extra')};\n`;
    };
    assert.is(
      project.read(`${MIGRATIONS}/${file}`),
      `${MIGRATION_HEAD('fix_nom', 'fw migration:make --from-diff Contact')}` +
        `-- fw:dialect mariadb\nALTER TABLE \`contact\` MODIFY COLUMN \`Nom\` VARCHAR(100) NOT NULL;\n${drop('mariadb')}\n` +
        '-- fw:dialect sqlite\n' +
        '-- Nom : SQLite ne sait pas modifier une colonne, la table contact est reconstruite\n' +
        '-- (https://www.sqlite.org/lang_altertable.html#otheralter). « fw migration:apply » exécute cette migration\n' +
        '-- dans sa propre transaction, clés étrangères désactivées, et ne la valide que si PRAGMA foreign_key_check est vide.\n' +
        'PRAGMA foreign_keys = OFF;\n' +
        'CREATE TABLE "contact__fw_new" (\n' +
        '  "Id" INTEGER PRIMARY KEY AUTOINCREMENT,\n  "Nom" VARCHAR(100) NOT NULL COLLATE NOCASE,\n  "VilleId" INT,\n  "Code" VARCHAR(20) COLLATE NOCASE,\n' +
        // The extra column keeps the type the diff read (here on the database the file was made against).
        `  "Extra" ${sqlite ? 'INT' : 'int(11)'},\n` +
        '  CONSTRAINT "fk_contact_villeid" FOREIGN KEY ("VilleId") REFERENCES "ville" ("Id") ON DELETE RESTRICT ON UPDATE CASCADE\n);\n' +
        'INSERT INTO "contact__fw_new" ("Id", "Nom", "VilleId", "Code", "Extra") SELECT "Id", "Nom", "VilleId", "Code", "Extra" FROM "contact";\n' +
        'DROP TABLE "contact";\n' +
        'ALTER TABLE "contact__fw_new" RENAME TO "contact";\n' +
        'CREATE UNIQUE INDEX IF NOT EXISTS "uq_contact_code" ON "contact" ("Code");\n' +
        'CREATE INDEX IF NOT EXISTS "ix_contact_villeid" ON "contact" ("VilleId");\n' +
        drop('sqlite'),
    );
    // SQLite rebuilds the table (the extra column kept with its data), MariaDB modifies the column.
    applyMigrations(project, [file]);
    const after = rows.map((row) => (row === changed ? (['OK', 'Nom', 'VARCHAR(100) NOT NULL'] as const) : row));
    assert.equal(run(project, ['migration:diff', '--entity', 'Contact', '--check'], 2), [...diffTable(after), DRIFT]);
  });

  t('a dropped table: TABLE_MISSING; the --from-diff migration recreates it with its keys and, on MariaDB, its foreign key', async () => {
    await project.sql([`DROP TABLE ${q('contact')}`]);
    assert.equal(run(project, ['migration:diff', '--entity', 'Contact', '--check'], 2), [
      'STATUT         COLONNE  DETAIL',
      'TABLE_MISSING  contact  table « contact » absente de la base',
      DRIFT,
    ]);
    const file = makeMigration(project, ['recree_contact', '--from-diff', 'Contact']);
    const text = project.read(`${MIGRATIONS}/${file}`);
    assert.ok(
      text.startsWith(
        `${MIGRATION_HEAD('recree_contact', 'fw migration:make --from-diff Contact')}-- fw:dialect mariadb\nCREATE TABLE IF NOT EXISTS \`contact\` (\n`,
      ),
      text,
    );
    assert.ok(text.includes('\n-- fw:dialect sqlite\nCREATE TABLE IF NOT EXISTS "contact" (\n'), text);
    // As --from-entity, the MariaDB section adds the foreign key the dropped table took away (SQLite has it inline).
    if (!sqlite) {
      assert.ok(
        text.includes(
          '\nALTER TABLE `contact` ADD CONSTRAINT `fk_contact_villeid` FOREIGN KEY (`VilleId`) REFERENCES `ville` (`Id`) ON DELETE RESTRICT ON UPDATE CASCADE;\n',
        ),
        text,
      );
    }
    applyMigrations(project, [file]);
    assert.equal(run(project, ['migration:diff', '--entity', 'Contact', '--check']).at(-1), 'Aucun écart.');
    assert.equal(
      run(project, ['db:apply']).filter((line) => !line.includes('(0 instruction(s)')),
      ['Schéma appliqué : 3 fichier(s).'],
    );
    assert.equal(await readSchema(project), schema);
  });

  /** A fresh project and database holding the same entity and relation files. */
  function twin(): CliProject {
    const copy = fresh();
    for (const file of [`${C}/contact.json`, 'mvc/entities/ville/ville.json', 'mvc/entities/relations.json']) copy.write(file, project.read(file));
    run(copy, ['db:init']);
    return copy;
  }

  function assertBothSections(text: string): void {
    const markers = lines(text).filter((line) => line.startsWith('-- fw:dialect'));
    assert.equal(markers, ['-- fw:dialect mariadb', '-- fw:dialect sqlite']);
  }

  t('migration:make --from-entities: both dialect sections; applied on a fresh database it gives the same schema', async () => {
    const copy = twin();
    const file = makeMigration(copy, ['y', '--from-entities']);
    const text = copy.read(`${MIGRATIONS}/${file}`);
    assert.ok(text.startsWith(MIGRATION_HEAD('y', 'fw migration:make --from-entities')), text);
    assertBothSections(text);
    applyMigrations(copy, [file]);
    assert.equal(await readSchema(copy), schema);
    run(copy, ['build:model']);
    assert.equal(
      run(copy, ['db:apply']).filter((line) => !line.includes('(0 instruction(s)')),
      ['Schéma appliqué : 3 fichier(s).'],
    );
    assert.equal(run(copy, ['migration:diff', '--all', '--check']).at(-1), 'Aucun écart.');
  });

  t('migration:make --from-entity Ville then Contact: both sections; applied in order on a fresh database', async () => {
    const copy = twin();
    const ville = makeMigration(copy, ['ville', '--from-entity', 'Ville']);
    const contact = makeMigration(copy, ['contact', '--from-entity', 'Contact']);
    assert.ok(ville < contact, `${ville} < ${contact}`);
    for (const [file, entity] of [
      [ville, 'Ville'],
      [contact, 'Contact'],
    ] as const) {
      const text = copy.read(`${MIGRATIONS}/${file}`);
      assert.ok(text.startsWith(MIGRATION_HEAD(file.slice(15, -4), `fw migration:make --from-entity ${entity}`)), text);
      assertBothSections(text);
    }
    applyMigrations(copy, [ville, contact]);
    assert.equal(await readSchema(copy), schema);
    const status = run(copy, ['migration:status']);
    assert.equal(status.filter((line) => line.startsWith('APPLIED')).length, 2, status.join('\n'));
    assert.is(status.at(-1), '2 APPLIED, 0 PENDING, 0 CHANGED, 0 MISSING.');
  });

  t('migration:make refuses a bad name or two sources, and writes nothing', () => {
    const before = project.snapshot();
    for (const name of ['Bad', 'bad-name', '1x']) {
      const refused = project.run(['migration:make', name, '--from-entities']);
      assert.is(refused.status, 1);
      assert.is(refused.stdout, '');
      assert.equal(lines(refused.stderr), [
        `Erreur : nom de migration invalide « ${name} » : snake_case attendu (minuscules, chiffres, « _ »).`,
        'Conseil : exemple : fw migration:make ajout_contacts --from-entity Contact',
      ]);
    }
    const two = project.run(['migration:make', 'z', '--from-entities', '--from-entity', 'Contact']);
    assert.is(two.status, 1);
    assert.is(lines(two.stderr)[0], 'Erreur : choisissez une seule source parmi --from-entity, --from-entities, --from-diff et --framework.');
    assert.equal(project.snapshot(), before);
  });

  t.run();
}

for (const dialect of DIALECTS) conformance(dialect);
