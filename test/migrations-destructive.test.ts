// Destructive steps (docs/entities.md "Destructive steps"): a narrowed type over values that do not fit, NOT NULL
// over NULLs and a unique key over duplicates are refused by `migration:apply` on both dialects before any
// statement, the rows named; dropped columns and narrowed types are listed by `migration:lint` / `migration:status`
// with the rows they touch and need `--allow-destructive`. Real `fw` processes, SQLite and MariaDB, the schema
// and the rows read back.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CONTACT_FILE, MIGRATIONS, makeMigration as make, okLines as ok, query } from './helpers/migrations.js';
import { lines, newProject, readSchema, type CliProject } from './helpers/cli.js';

const LONG = 'Marie Salomea Sklodowska-Curie, née à Varsovie'; // 47 characters

async function nomType(project: CliProject): Promise<string> {
  return (await readSchema(project)).tables.contact!.find((c) => c.name === 'Nom')!.type;
}

function pendingCount(project: CliProject): string {
  return ok(project, ['migration:status']).at(-1)!;
}

const D = suite('migrations-destructive: refused before any change on both dialects, the rows named');

for (const dialect of ['sqlite', 'mariadb'] as const) {
  D(`${dialect}: a narrowed VARCHAR over a 47-character value, NOT NULL over NULL, a unique key over duplicates, a dropped column`, async () => {
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
      const before = dialect === 'mariadb' ? 'varchar(50)' : 'varchar(50)';
      assert.is(await nomType(project), before);

      // 1. VARCHAR(50) -> VARCHAR(20) with one value of 47 characters (Id 2).
      project.editJson<{ fields: Array<Record<string, unknown>> }>(CONTACT_FILE, (data) => {
        data.fields[0]!.sql_type = 'VARCHAR(20)';
        data.fields[0]!.constraints = { not_empty: true, max_length: 20 };
      });
      ok(project, ['sync:entity', 'Contact']);
      const narrow = make(project, ['nom_court', '--from-diff', 'Contact']);
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

      // migration:lint and migration:status list it, with the row, for CI too.
      const lint = project.run(['migration:lint']);
      assert.is(lint.status, 2, lint.stdout);
      assert.match(lint.stdout, /^NARROW\s+\S+nom_court\.sql\s+\d+\s+1\s+contact\.Nom VARCHAR\(50\) → VARCHAR\(20\) .*\(Id 2\) \[bloquante\]$/m);
      const json = JSON.parse(project.run(['migration:lint', '--json']).stdout) as Array<Record<string, unknown>>;
      assert.equal(
        json.map(({ migration, kind, table, column, rows, keys, blocking }) => ({ migration, kind, table, column, rows, keys, blocking })),
        [{ migration: narrow, kind: 'NARROW', table: 'contact', column: 'Nom', rows: 1, keys: ['Id 2'], blocking: true }],
      );
      assert.ok(
        lines(project.run(['migration:status']).stdout).some((l) => l.startsWith(`Étape destructive : ${narrow}, ligne `) && l.endsWith('[bloquante]')),
      );
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

      // 2. NOT NULL over a NULL (Id 2) and 3. a unique key over duplicates (Ids 1 and 3), in one migration.
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

      // 4. A column dropped by hand: listed with the values it holds, refused without the flag.
      project.write(
        `${MIGRATIONS}/29990101000000_sans_note.sql`,
        '-- fw:dialect mariadb\nALTER TABLE `contact` DROP COLUMN `Note`;\n-- fw:dialect sqlite\nALTER TABLE "contact" DROP COLUMN "Note";\n',
      );
      const drop = project.run(['migration:lint']);
      assert.is(drop.status, 2);
      assert.match(
        drop.stdout,
        /^DROP_COLUMN\s+29990101000000_sans_note\.sql\s+\d+\s+2\s+suppression de la colonne contact\.Note : 2 valeur\(s\) perdue\(s\)$/m,
      );
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
  });
}

D.run();
