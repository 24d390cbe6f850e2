// `migration:make --from-diff` on a changed column: SQLite cannot modify a column, so its section rebuilds the
// table (new table, copy, drop, rename, keys), and migration:apply runs it with foreign keys off in a
// transaction of its own, committed only when PRAGMA foreign_key_check is empty. Checked on real rows of a
// child table (Contact) and of the table it references (Ville), then the same files on MariaDB.
import fs from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CONTACT_FILE, okLines as ok, makeMigration as make, MIGRATIONS, newVilleContactProject, query } from './helpers/migrations.js';
import { lines, type CliProject } from './helpers/cli.js';

const VILLE = 'mvc/entities/ville/ville.json';

async function refused(promise: Promise<unknown>, reason: RegExp): Promise<void> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  assert.ok(error instanceof Error, 'the statement should have failed');
  assert.match(error.message, reason);
}

/** Sets `sql_type` / `nullable` of one field of an entity file, then syncs the entity. */
function changeField(project: CliProject, file: string, entity: string, name: string, change: Record<string, unknown>): void {
  project.editJson<{ fields: Array<Record<string, unknown>> }>(file, (data) => {
    const field = data.fields.find((f) => f.name === name);
    assert.ok(field, name);
    Object.assign(field, change);
  });
  ok(project, ['sync:entity', entity]);
}

const CONTACTS = [
  { Id: 1, Nom: 'Ada', VilleId: 1, Code: 'A1' },
  { Id: 2, Nom: 'Bob', VilleId: 2, Code: null },
  { Id: 3, Nom: 'Cy', VilleId: null, Code: 'C3' },
];

const t = suite('migrations-sqlite-rebuild');
let project: CliProject;
const applied: string[] = [];

t.after(async () => {
  await project?.cleanup();
});

t('setup: Ville and Contact (VilleId many-to-one, unique Code) on SQLite, with rows', async () => {
  const made = await newVilleContactProject('sqlite');
  project = made.project;
  applied.push(made.init);
  await project.sql([
    `INSERT INTO "ville" ("Nom") VALUES ('Lyon'), ('Paris')`,
    ...CONTACTS.map((c) => `INSERT INTO "contact" ("Nom", "VilleId", "Code") VALUES ('${c.Nom}', ${c.VilleId ?? 'NULL'}, ${c.Code ? `'${c.Code}'` : 'NULL'})`),
  ]);
});

/** What must hold after each rebuild: rows, foreign key, keys, no drift, the file recorded. */
async function assertIntact(): Promise<void> {
  assert.equal(await query(project, 'SELECT "Id", "Nom", "VilleId", "Code" FROM "contact" ORDER BY "Id"'), CONTACTS);
  assert.equal(await query(project, 'SELECT "Id", "Nom" FROM "ville" ORDER BY "Id"'), [
    { Id: 1, Nom: 'Lyon' },
    { Id: 2, Nom: 'Paris' },
  ]);
  assert.equal(await query(project, 'PRAGMA foreign_key_check'), []);
  const fks = await query<{ table: string; from: string; to: string; on_delete: string; on_update: string }>(project, `PRAGMA foreign_key_list("contact")`);
  assert.equal(
    fks.map((fk) => [fk.table, fk.from, fk.to, fk.on_delete, fk.on_update]),
    [['ville', 'VilleId', 'Id', 'RESTRICT', 'CASCADE']],
  );
  const orphan = project.open();
  try {
    await refused(orphan.execute(`INSERT INTO "contact" ("Nom", "VilleId") VALUES ('Zed', 999)`), /FOREIGN KEY constraint failed/);
    await refused(orphan.execute(`DELETE FROM "ville" WHERE "Id" = 1`), /FOREIGN KEY constraint failed/);
  } finally {
    await orphan.close();
  }
  const indexes = await query<{ name: string; tbl_name: string; sql: string | null }>(
    project,
    `SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('contact', 'ville') ORDER BY name`,
  );
  assert.equal(
    indexes.map((i) => [i.tbl_name, i.name]),
    [
      ['contact', 'ix_contact_villeid'],
      ['contact', 'uq_contact_code'],
    ],
  );
  const list = await query<{ name: string; unique: number }>(project, `PRAGMA index_list("contact")`);
  assert.equal(list.map((i) => [i.name, i.unique]).sort(), [
    ['ix_contact_villeid', 0],
    ['uq_contact_code', 1],
  ]);
  assert.equal(await query(project, `SELECT name FROM sqlite_master WHERE name LIKE '%__fw_new'`), []);
  assert.is(project.run(['migration:diff', '--all', '--check']).status, 0, project.run(['migration:diff', '--all']).stdout);
  const status = ok(project, ['migration:status']);
  for (const file of applied)
    assert.ok(
      status.some((line) => line.startsWith('APPLIED') && line.endsWith(file)),
      status.join('\n'),
    );
}

t('a Contact column changed (longer, nullable): the SQLite section rebuilds the table; apply keeps rows, keys and the foreign key', async () => {
  changeField(project, CONTACT_FILE, 'Contact', 'nom', { sql_type: 'VARCHAR(150)', nullable: true });
  const file = make(project, ['nom_plus_long', '--from-diff', 'Contact']);
  const text = project.read(`${MIGRATIONS}/${file}`);
  const sqlite = text.slice(text.indexOf('-- fw:dialect sqlite'));
  const statements = lines(sqlite).filter((line) => /^[A-Z]/.test(line));
  assert.equal(statements, [
    'PRAGMA foreign_keys = OFF;',
    'CREATE TABLE "contact__fw_new" (',
    'INSERT INTO "contact__fw_new" ("Id", "Nom", "VilleId", "Code") SELECT "Id", "Nom", "VilleId", "Code" FROM "contact";',
    'DROP TABLE "contact";',
    'ALTER TABLE "contact__fw_new" RENAME TO "contact";',
    'CREATE UNIQUE INDEX IF NOT EXISTS "uq_contact_code" ON "contact" ("Code");',
    'CREATE INDEX IF NOT EXISTS "ix_contact_villeid" ON "contact" ("VilleId");',
  ]);
  // The new table is the entity's generated SQLite DDL under another name.
  const ddl = project.read('mvc/entities/contact/contact.sqlite.sql');
  const create = (from: string): string => from.slice(from.indexOf('CREATE TABLE'), from.indexOf(');') + 2);
  assert.is(create(sqlite), create(ddl).replace('CREATE TABLE IF NOT EXISTS "contact"', 'CREATE TABLE "contact__fw_new"'));
  assert.ok(text.includes('-- fw:dialect mariadb\nALTER TABLE `contact` MODIFY COLUMN `Nom` VARCHAR(150) NULL;\n'), text);
  const run = ok(project, ['migration:apply']);
  assert.match(run[0]!, new RegExp(`^ {2}appliquée {2}${file.replace('.', '\\.')} `));
  applied.push(file);
  const columns = await query<{ name: string; type: string; notnull: number }>(project, `PRAGMA table_info("contact")`);
  assert.equal(
    columns.find((c) => c.name === 'Nom'),
    { ...columns.find((c) => c.name === 'Nom')!, type: 'VARCHAR(150)', notnull: 0 },
  );
  await assertIntact();
  assert.is(project.run(['migration:diff', '--entity', 'Contact', '--check']).status, 0);
});

t('a Ville column changed (the referenced table): the children still point to their rows, foreign_key_check is clean', async () => {
  changeField(project, VILLE, 'Ville', 'nom', { sql_type: 'VARCHAR(120)' });
  const file = make(project, ['ville_nom', '--from-diff', 'Ville']);
  assert.ok(project.read(`${MIGRATIONS}/${file}`).includes('\nDROP TABLE "ville";\nALTER TABLE "ville__fw_new" RENAME TO "ville";\n'));
  ok(project, ['migration:apply']);
  applied.push(file);
  assert.equal(await query(project, 'SELECT c."Nom" AS contact, v."Nom" AS ville FROM "contact" c JOIN "ville" v ON v."Id" = c."VilleId" ORDER BY c."Id"'), [
    { contact: 'Ada', ville: 'Lyon' },
    { contact: 'Bob', ville: 'Paris' },
  ]);
  await assertIntact();
});

t('a rebuild that would leave orphans is rolled back and not recorded; the foreign keys are back on', async () => {
  const file = '29990101000000_orphelins.sql';
  project.write(
    `${MIGRATIONS}/${file}`,
    '-- fw:dialect mariadb\nSELECT 1;\n-- fw:dialect sqlite\nPRAGMA foreign_keys = OFF;\nDELETE FROM "ville" WHERE "Id" = 1;\n',
  );
  const refused = project.run(['migration:apply']);
  assert.is(refused.status, 1, refused.stdout);
  assert.match(
    refused.stderr,
    /« 29990101000000_orphelins\.sql » laisserait 1 ligne\(s\) sans parent \(PRAGMA foreign_key_check : contact \(rowid 1\) → ville\)/,
  );
  assert.ok(ok(project, ['migration:status']).some((line) => line.startsWith('PENDING') && line.endsWith(file)));
  fs.rmSync(project.path(`${MIGRATIONS}/${file}`));
  await assertIntact();
});

t('the same files on MariaDB: the other section (MODIFY COLUMN) applies, no drift', async () => {
  const target = project.useMariaDb();
  assert.ok(target.database);
  ok(project, ['db:init']);
  const out = ok(project, ['migration:apply']);
  assert.is(out.at(-1), `${applied.length} migration(s) appliquée(s).`);
  const diff = project.run(['migration:diff', '--all', '--check']);
  assert.is(diff.status, 0, diff.stdout);
  const nom = await query<{ COLUMN_TYPE: string; IS_NULLABLE: string }>(
    project,
    "SELECT COLUMN_TYPE, IS_NULLABLE FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'contact' AND COLUMN_NAME = 'Nom'",
  );
  assert.equal(nom, [{ COLUMN_TYPE: 'varchar(150)', IS_NULLABLE: 'YES' }]);
});

t.run();
