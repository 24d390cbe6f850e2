// A field renamed with `renamed_from` (docs/entities.md "Renaming a field"): `migration:diff` sees a rename, not an
// added column and an extra one; `migration:make --from-diff` writes RENAME COLUMN on both dialects, the values and
// the unique key follow the column, and the diff is clean afterwards. Real `fw` processes, SQLite and MariaDB.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CONTACT_FILE, MIGRATIONS, makeMigration as make, okLines as ok, query } from './helpers/migrations.js';
import { lines, newProject, readSchema } from './helpers/cli.js';
import { DIALECTS } from './helpers/dialects.js';

const Rename = suite('migrations-rename: renamed_from writes a rename, the values are kept');

for (const dialect of DIALECTS) {
  Rename(`${dialect}: prenom renamed petit_nom (type narrowed too on the way): the values stay, the key follows, no drift`, async () => {
    const project = newProject('Carnet');
    try {
      ok(project, ['make:entity', 'Contact', '--no-input']);
      project.editJson<{ fields: unknown[] }>(CONTACT_FILE, (data) => {
        data.fields.push({ name: 'prenom', sql_type: 'VARCHAR(50)', nullable: true, unique: true });
      });
      ok(project, ['build:model']);
      project.useDialect(dialect);
      ok(project, ['db:init']);
      make(project, ['init', '--from-entities']);
      ok(project, ['migration:apply']);
      await project.sql(["INSERT INTO contact (Nom, Prenom) VALUES ('Curie', 'Marie'), ('Noether', 'Emmy')"]);

      project.editJson<{ fields: Array<Record<string, unknown>> }>(CONTACT_FILE, (data) => {
        const field = data.fields.find((f) => f.name === 'prenom')!;
        field.name = 'petit_nom';
        field.renamed_from = 'prenom';
        field.sql_type = 'VARCHAR(40)';
      });
      ok(project, ['sync:entity', 'Contact']);
      const diff = project.run(['migration:diff', '--entity', 'Contact', '--check']);
      assert.is(diff.status, 2, diff.stdout);
      assert.match(diff.stdout, /^COLUMN_RENAMED\s+PetitNom\s+renommée depuis Prenom/m);
      assert.not.match(diff.stdout, /COLUMN_MISSING|COLUMN_EXTRA|INDEX_/);
      const json = JSON.parse(project.run(['migration:diff', '--entity', 'Contact', '--json']).stdout) as Array<{ rows: Array<Record<string, unknown>> }>;
      assert.equal(
        json[0]!.rows.filter((r) => r.status === 'COLUMN_RENAMED').map((r) => [r.column, r.from]),
        [['PetitNom', 'Prenom']],
      );

      const file = make(project, ['renommage', '--from-diff', 'Contact']);
      const text = project.read(`${MIGRATIONS}/${file}`);
      const renames = lines(text).filter((line) => line.includes('RENAME COLUMN'));
      assert.equal(renames, ['ALTER TABLE `contact` RENAME COLUMN `Prenom` TO `PetitNom`;', 'ALTER TABLE "contact" RENAME COLUMN "Prenom" TO "PetitNom";']);
      assert.not.match(text, /DROP COLUMN|ADD COLUMN/);

      // The rename loses nothing; the narrowed type is the one destructive step (all values fit): it needs the flag.
      const refused = project.run(['migration:apply']);
      assert.is(refused.status, 1);
      assert.match(refused.stderr, /^Erreur : 1 étape\(s\) destructive\(s\) dans les migrations PENDING :$/m);
      assert.match(refused.stderr, /contact\.PetitNom VARCHAR\(50\) → VARCHAR\(40\)|contact\.Prenom VARCHAR\(50\) → VARCHAR\(40\)/i);
      ok(project, ['migration:apply', '--allow-destructive']);
      const after = project.run(['migration:diff', '--entity', 'Contact', '--check']);
      assert.is(after.status, 0, after.stdout);
      const rows = await query<{ Nom: string; PetitNom: string }>(project, 'SELECT Nom, PetitNom FROM contact ORDER BY Id');
      assert.equal(
        rows.map((r) => `${r.Nom} ${r.PetitNom}`),
        ['Curie Marie', 'Noether Emmy'],
      );
      const schema = await readSchema(project);
      assert.equal(
        schema.tables.contact!.map((c) => c.name),
        ['Id', 'Nom', 'PetitNom'],
      );
      assert.equal(
        schema.indexes.filter((i) => i.table === 'contact' && i.unique).map((i) => [...i.columns]),
        [['PetitNom']],
      );
    } finally {
      await project.cleanup();
    }
  });
}

Rename.run();

const Refused = suite('migrations-rename: check:model refuses a renamed_from that cannot be a rename');

Refused("the current column, another field's column, the same old column twice, a primary key: Erreur with the pointer, nothing written", () => {
  const project = newProject('Carnet');
  try {
    ok(project, ['make:entity', 'Contact', '--no-input']);
    ok(project, ['build:model']);
    const cases: Array<{ fields: Array<Record<string, unknown>>; pointer: string; message: RegExp }> = [
      {
        fields: [{ name: 'prenom', sql_type: 'VARCHAR(50)', renamed_from: 'Prenom' }],
        pointer: '#/fields/1/renamed_from',
        message: /colonne actuelle du champ/,
      },
      { fields: [{ name: 'prenom', sql_type: 'VARCHAR(50)', renamed_from: 'nom' }], pointer: '#/fields/1/renamed_from', message: /celle du champ « nom »/ },
      {
        fields: [
          { name: 'prenom', sql_type: 'VARCHAR(50)', renamed_from: 'ancien' },
          { name: 'surnom', sql_type: 'VARCHAR(50)', renamed_from: 'Ancien' },
        ],
        pointer: '#/fields/2/renamed_from',
        message: /déjà l'ancienne colonne du champ « prenom »/,
      },
      {
        fields: [{ name: 'code', sql_type: 'INT', primary_key: true, renamed_from: 'ancien' }],
        pointer: '#/fields/1/renamed_from',
        message: /la clé primaire/,
      },
    ];
    const original = project.read(CONTACT_FILE);
    for (const { fields, pointer, message } of cases) {
      project.write(CONTACT_FILE, original);
      project.editJson<{ fields: unknown[]; primary_key?: unknown }>(CONTACT_FILE, (data) => {
        data.fields.push(...fields);
        if (fields.some((f) => f.primary_key === true)) delete data.primary_key;
      });
      const before = project.snapshot();
      const run = project.run(['build:model']);
      assert.is(run.status, 1, run.stdout);
      const line = lines(run.stderr).find((l) => l.includes(`${CONTACT_FILE}${pointer}`));
      assert.ok(line, run.stderr);
      assert.match(line!, message);
      assert.match(run.stderr, /^Erreur : /m);
      assert.equal(project.snapshot(), before);
    }
  } finally {
    void project.cleanup();
  }
});

Refused.run();
