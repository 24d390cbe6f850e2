// A migration file serves both dialects: one written by `migration:make --from-diff` against one database
// applies on the other dialect too (a project developed on SQLite and deployed on MariaDB, and the reverse),
// and `migration:apply` refuses a file that holds no statement for the current dialect instead of recording it
// as APPLIED. Real `fw` processes, real SQLite and MariaDB databases.
import fs from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { DialectName } from '../runtime/db/index.js';
import { okLines as ok, makeMigration as make, migrationFiles, MIGRATIONS } from './helpers/migrations.js';
import { lines, newProject, readSchema } from './helpers/cli.js';
import { DIALECTS } from './helpers/dialects.js';

const CONTACT = 'mvc/entities/contact/contact.json';

const Cross = suite('migrations-dialects: a --from-diff migration made on one dialect applies on the other');

// Every ordered pair of two dialects.
for (const [dev, prod] of DIALECTS.flatMap((dev) => DIALECTS.filter((prod) => prod !== dev).map((prod) => [dev, prod] as const))) {
  Cross(`made on ${dev}, applied on ${prod}: the same columns and keys, no drift`, async () => {
    const project = newProject('Carnet');
    try {
      ok(project, ['make:entity', 'Contact', '--no-input']);
      ok(project, ['build:model']);
      project.useDialect(dev);
      ok(project, ['db:init']);
      const init = make(project, ['init', '--from-entities']);
      ok(project, ['migration:apply']);

      // The entity gains a NOT NULL column with a unique key and a nullable one; the diff is read on `dev`.
      project.editJson<{ fields: unknown[] }>(CONTACT, (data) => {
        data.fields.push({ name: 'code', sql_type: 'VARCHAR(20)', unique: true });
        data.fields.push({ name: 'age', sql_type: 'INT UNSIGNED', nullable: true });
      });
      ok(project, ['sync:entity', 'Contact']);
      const change = make(project, ['ajout_code', '--from-diff', 'Contact']);
      const text = project.read(`${MIGRATIONS}/${change}`);
      assert.equal(
        lines(text).filter((line) => line.startsWith('-- fw:dialect')),
        DIALECTS.map((d) => `-- fw:dialect ${d}`),
      );
      ok(project, ['migration:apply']);
      assert.is(project.run(['migration:diff', '--all', '--check']).status, 0);
      const devSchema = await readSchema(project);

      // The same files on a fresh database of the other dialect.
      project.useDialect(prod);
      ok(project, ['db:init']);
      const applied = ok(project, ['migration:apply']);
      assert.equal(
        applied.filter((line) => line.includes('appliquée ')).map((line) => line.trim().split(/\s+/)[1]),
        [init, change],
      );
      const diff = project.run(['migration:diff', '--all', '--check']);
      assert.is(diff.status, 0, diff.stdout);
      const prodSchema = await readSchema(project);
      const columns = (schema: typeof devSchema): string[] => schema.tables.contact!.map((c) => `${c.name} ${c.nullable ? 'NULL' : 'NOT NULL'}`);
      assert.equal(columns(prodSchema), columns(devSchema));
      assert.equal(columns(prodSchema), ['Id NOT NULL', 'Nom NOT NULL', 'Code NOT NULL', 'Age NULL']);
      assert.equal(
        prodSchema.indexes.filter((i) => i.table === 'contact').map((i) => ({ ...i, columns: [...i.columns] })),
        [{ table: 'contact', name: 'uq_contact_code', unique: true, columns: ['Code'] }],
      );
    } finally {
      await project.cleanup();
    }
  });
}

Cross.run();

function refusal(dialect: DialectName): void {
  const t = suite(`migrations-dialects: ${dialect}: a file without a statement for the dialect is refused, not recorded`);
  const other = DIALECTS.find((d) => d !== dialect)!;

  t('refused with the file named and a Conseil; nothing after it runs; SELECT 1 in the section lets it through', async () => {
    const project = newProject('Vide');
    try {
      project.useDialect(dialect);
      ok(project, ['db:init']);
      project.write(`${MIGRATIONS}/20240101000000_avant.sql`, 'CREATE TABLE avant (id INT);\n');
      const only = `20240102000000_seulement_${other}.sql`;
      project.write(`${MIGRATIONS}/${only}`, `-- fw:dialect ${other}\nCREATE TABLE ailleurs (id INT);\n-- fw:dialect ${dialect}\n-- rien ici\n`);
      project.write(`${MIGRATIONS}/20240103000000_apres.sql`, 'CREATE TABLE apres (id INT);\n');
      const refused = project.run(['migration:apply']);
      assert.is(refused.status, 1);
      assert.is(refused.stdout, '');
      assert.equal(lines(refused.stderr), [
        `Erreur : la migration « ${only} » ne contient aucune instruction pour ${dialect} (sa section « -- fw:dialect ${dialect} » est vide ou absente, ou ne contient que des commentaires) ; aucune migration n'a été appliquée ni enregistrée.`,
        `Conseil : écrivez ses instructions ${dialect} sous « -- fw:dialect ${dialect} » (le fichier est encore PENDING, il peut être modifié) ; si ce dialecte n'a vraiment rien à faire, écrivez-y « SELECT 1; » pour le dire.`,
      ]);
      const status = ok(project, ['migration:status']);
      assert.is(status.at(-1), '0 APPLIED, 3 PENDING, 0 CHANGED, 0 MISSING.');
      assert.equal(Object.keys((await readSchema(project)).tables).sort(), ['fw_migrations', 'fw_sessions']);

      // An empty template from `migration:make` is announced at once, and refused the same way.
      const made = project.run(['migration:make', 'a_remplir']);
      assert.is(made.status, 0, made.stderr);
      const template = migrationFiles(project).find((f) => f.endsWith('_a_remplir.sql'))!;
      // One line per dialect, in the order of the file's sections.
      assert.equal(
        lines(made.stderr),
        DIALECTS.map(
          (d) =>
            `Attention : ${MIGRATIONS}/${template} n'a encore aucune instruction pour ${d} : « fw migration:apply » la refusera sur ${d} tant que sa section « -- fw:dialect ${d} » est vide.`,
        ),
      );
      fs.rmSync(project.path(`${MIGRATIONS}/${template}`));

      project.write(`${MIGRATIONS}/${only}`, `-- fw:dialect ${other}\nCREATE TABLE ailleurs (id INT);\n-- fw:dialect ${dialect}\nSELECT 1;\n`);
      const applied = ok(project, ['migration:apply']);
      assert.is(applied.at(-1), '3 migration(s) appliquée(s).');
      assert.equal(Object.keys((await readSchema(project)).tables).sort(), ['apres', 'avant', 'fw_migrations', 'fw_sessions']);
    } finally {
      await project.cleanup();
    }
  });

  t.run();
}

for (const dialect of DIALECTS) refusal(dialect);
