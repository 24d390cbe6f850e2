// `migration:diff` compares each column's DEFAULT and the table's CHECK constraints with the entity's `default` and
// `constraints` (min, max, min_length, pattern), by meaning: a table made by the generator's DDL is OK, a DEFAULT or a
// CHECK added, changed or removed in the entity makes `--check` exit 2 and names it (text and --json);
// `migration:make --from-diff` writes what brings the table in line (MariaDB ALTER TABLE in place, SQLite a table
// rebuild), `migration:apply` refuses a file whose new CHECK existing rows break (naming the table, the constraint
// and the rows, recording nothing) and applies it once they are fixed. Real `fw` processes on both dialects.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { DialectName } from '../runtime/db/index.js';
import { CONTACT_FILE, makeMigration, migrationFiles, MIGRATIONS, newVilleContactProject, okLines, query } from './helpers/migrations.js';
import { lines, type CliProject } from './helpers/cli.js';
import { DIALECTS } from './helpers/dialects.js';

interface Field {
  name: string;
  default?: unknown;
  constraints?: Record<string, unknown>;
}

/** `fw migration:diff --entity Contact --check`: its exit status, the rows that are not OK and the last line. */
function drift(project: CliProject): { status: number | null; rows: string[][]; last: string | undefined } {
  const run = project.run(['migration:diff', '--entity', 'Contact', '--check']);
  const out = lines(run.stdout);
  const rows = out
    .slice(1, -1)
    .map((line) => line.split(/\s{2,}/))
    .filter((row) => row[0] !== 'OK');
  return { status: run.status, rows, last: out.at(-1) };
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

function editFields(project: CliProject, edit: (field: (name: string) => Field) => void): void {
  project.editJson<{ fields: Field[] }>(CONTACT_FILE, (data) => edit((name) => data.fields.find((f) => f.name === name)!));
  okLines(project, ['build:model']);
}

function conformance(dialect: DialectName): void {
  const t = suite(`migrations-constraints: ${dialect}`);
  const sqlite = dialect === 'sqlite';
  const q = (name: string): string => (sqlite ? `"${name}"` : `\`${name}\``);
  let project: CliProject;

  t.after(async () => {
    await project?.cleanup();
  });

  t('setup: an applied Ville / Contact project, an age column added by a migration; no drift', async () => {
    ({ project } = await newVilleContactProject(dialect));
    project.editJson<{ fields: Field[] }>(CONTACT_FILE, (data) => {
      data.fields.push({ name: 'age', sql_type: 'INT', nullable: true } as Field);
    });
    okLines(project, ['build:model']);
    makeMigration(project, ['ajout_age', '--from-diff', 'Contact']);
    okLines(project, ['migration:apply']);
    assertNoDrift(project);
    await project.sql([`INSERT INTO ${q('contact')} (${q('Nom')}, ${q('Code')}, ${q('Age')}) VALUES ('Ada', 'A1', 36)`]);
  });

  t('a min, a max, a min_length, a pattern and two defaults added to the entity: DEFAULT_MISSING and CHECK_MISSING rows, --check exits 2', () => {
    editFields(project, (field) => {
      field('age').default = 18;
      field('age').constraints = { min: 0, max: 130 };
      field('nom').default = "Sans nom d'usage";
      field('nom').constraints = { min_length: 2 };
      field('code').constraints = { pattern: '[A-Z][0-9]+', pattern_message: 'une lettre puis des chiffres' };
    });
    const found = drift(project);
    assert.is(found.status, 2);
    assert.is(found.last, 'Écarts trouvés : « fw migration:make <nom> --from-diff <Entité> » prépare la migration.');
    const checks = [
      ['CHECK_MISSING', 'ck_contact_nom_min_length', `attendu CHECK (${sqlite ? 'LENGTH' : 'CHAR_LENGTH'}(${q('Nom')}) >= 2)`],
      ['CHECK_MISSING', 'ck_contact_age_min', `attendu CHECK (${q('Age')} >= 0)`],
      ['CHECK_MISSING', 'ck_contact_age_max', `attendu CHECK (${q('Age')} <= 130)`],
    ];
    // SQLite has no REGEXP: the pattern is the form's alone there, so it is no difference.
    if (!sqlite) checks.splice(1, 0, ['CHECK_MISSING', 'ck_contact_code_pattern', "attendu CHECK (`Code` REGEXP '(?-i)^(?:[A-Z][0-9]+)$')"]);
    assert.equal(found.rows, [
      ['DEFAULT_MISSING', 'Nom', "attendu DEFAULT 'Sans nom d''usage', la colonne n'en a pas"],
      ['DEFAULT_MISSING', 'Age', "attendu DEFAULT 18, la colonne n'en a pas"],
      ...checks,
    ]);
    const json = project.run(['migration:diff', '--entity', 'Contact', '--json', '--check']);
    assert.is(json.status, 2);
    const [entry] = JSON.parse(json.stdout) as Array<{ entity: string; table: string; rows: Array<{ status: string; column: string; detail: string }> }>;
    assert.is(entry!.table, 'contact');
    assert.equal(
      entry!.rows.filter((row) => row.status !== 'OK').map((row) => [row.status, row.column, row.detail]),
      found.rows,
    );
  });

  let file = '';
  t('migration:make --from-diff writes ALTER TABLE on MariaDB and a rebuild with the CHECKs and DEFAULTs on SQLite', () => {
    file = makeMigration(project, ['contraintes', '--from-diff', 'Contact']);
    const text = project.read(`${MIGRATIONS}/${file}`);
    assert.equal(section(text, 'mariadb'), [
      "ALTER TABLE `contact` ALTER COLUMN `Nom` SET DEFAULT 'Sans nom d''usage';",
      'ALTER TABLE `contact` ALTER COLUMN `Age` SET DEFAULT 18;',
      'ALTER TABLE `contact` ADD CONSTRAINT `ck_contact_nom_min_length` CHECK (CHAR_LENGTH(`Nom`) >= 2);',
      ...(sqlite ? [] : ["ALTER TABLE `contact` ADD CONSTRAINT `ck_contact_code_pattern` CHECK (`Code` REGEXP '(?-i)^(?:[A-Z][0-9]+)$');"]),
      'ALTER TABLE `contact` ADD CONSTRAINT `ck_contact_age_min` CHECK (`Age` >= 0);',
      'ALTER TABLE `contact` ADD CONSTRAINT `ck_contact_age_max` CHECK (`Age` <= 130);',
    ]);
    const rebuilt = section(text, 'sqlite');
    assert.is(rebuilt[0], 'PRAGMA foreign_keys = OFF;');
    assert.ok(rebuilt.includes('CREATE TABLE "contact__fw_new" ('), rebuilt.join('\n'));
    assert.ok(rebuilt.includes(`  "Nom" VARCHAR(100) NOT NULL DEFAULT 'Sans nom d''usage' COLLATE NOCASE,`), rebuilt.join('\n'));
    assert.ok(rebuilt.includes('  "Age" INT DEFAULT 18,'), rebuilt.join('\n'));
    assert.ok(rebuilt.includes('  CONSTRAINT "ck_contact_age_min" CHECK ("Age" >= 0),'), rebuilt.join('\n'));
    assert.ok(rebuilt.includes('  CONSTRAINT "ck_contact_age_max" CHECK ("Age" <= 130)'), rebuilt.join('\n'));
    assert.ok(rebuilt.includes('DROP TABLE "contact";'));
    assert.ok(rebuilt.includes('ALTER TABLE "contact__fw_new" RENAME TO "contact";'));
  });

  t(
    'a row that breaks a new CHECK: migration:lint says so, migration:apply refuses naming the table, the constraint and the rows, and records nothing',
    async () => {
      await project.sql([`INSERT INTO ${q('contact')} (${q('Nom')}, ${q('Code')}, ${q('Age')}) VALUES ('Bob', 'B2', -1)`]);
      const [bob] = await query<{ Id: unknown }>(project, `SELECT ${q('Id')} AS ${q('Id')} FROM ${q('contact')} WHERE ${q('Nom')} = 'Bob'`);
      const lint = project.run(['migration:lint']);
      assert.match(lint.stdout + lint.stderr, /ck_contact_age_min/);
      assert.match(lint.stdout + lint.stderr, /\[bloquante\]/);
      const before = (await query<{ n: unknown }>(project, 'SELECT COUNT(*) AS n FROM fw_migrations'))[0]!.n;
      const refused = project.run(['migration:apply']);
      assert.is(refused.status, 1, refused.stdout + refused.stderr);
      assert.match(refused.stderr, /^Erreur : /);
      assert.ok(refused.stderr.includes(file), refused.stderr);
      assert.ok(
        refused.stderr.includes(`contrainte ck_contact_age_min CHECK (${q('Age')} >= 0) sur contact : valeur refusée : 1 ligne(s) (Id ${String(bob!.Id)})`),
        refused.stderr,
      );
      assert.ok(refused.stderr.includes("aucune migration n'a été appliquée ni enregistrée"), refused.stderr);
      assert.is((await query<{ n: unknown }>(project, 'SELECT COUNT(*) AS n FROM fw_migrations'))[0]!.n, before);
      const status = project.run(['migration:status']);
      assert.match(status.stdout, new RegExp(`^PENDING\\s+${file.slice(0, 14)}\\s`, 'm'));
      // Nothing ran: the table still takes a negative age and has no default.
      assert.is(drift(project).status, 2);
    },
  );

  t('once the row is fixed, the migration applies: no drift, the database refuses what the entity refuses and fills the defaults', async () => {
    await project.sql([`UPDATE ${q('contact')} SET ${q('Age')} = 1 WHERE ${q('Nom')} = 'Bob'`]);
    okLines(project, ['migration:apply']);
    assertNoDrift(project);
    let refused = false;
    try {
      await project.sql([`INSERT INTO ${q('contact')} (${q('Nom')}, ${q('Age')}) VALUES ('Eve', 131)`]);
    } catch {
      refused = true;
    }
    assert.ok(refused, 'age > 130');
    await project.sql([`INSERT INTO ${q('contact')} (${q('Code')}) VALUES ('C3')`]);
    const [row] = await query<{ Nom: string; Age: unknown }>(
      project,
      `SELECT ${q('Nom')} AS Nom, ${q('Age')} AS Age FROM ${q('contact')} WHERE ${q('Code')} = 'C3'`,
    );
    assert.equal([row!.Nom, Number(row!.Age)], ["Sans nom d'usage", 18]);
    const kept = await query<{ Nom: string }>(project, `SELECT ${q('Nom')} AS Nom FROM ${q('contact')} ORDER BY ${q('Id')}`);
    assert.equal(
      kept.map((r) => r.Nom),
      ['Ada', 'Bob', "Sans nom d'usage"],
    );
  });

  t('a min changed, a max and a default removed: CHECK_CHANGED, DEFAULT_EXTRA, CHECK_EXTRA; the migration drops and re-adds them', () => {
    editFields(project, (field) => {
      field('age').constraints = { min: 1 };
      delete field('nom').default;
    });
    const found = drift(project);
    assert.is(found.status, 2);
    assert.equal(found.rows, [
      ['DEFAULT_EXTRA', 'Nom', "DEFAULT 'Sans nom d''usage' absent de l'entité"],
      ['CHECK_CHANGED', 'ck_contact_age_min', `attendu CHECK (${q('Age')} >= 1), trouvé CHECK (${q('Age')} >= 0)`],
      ['CHECK_EXTRA', 'ck_contact_age_max', `CHECK (${q('Age')} <= 130) absente de l'entité`],
    ]);
    const made = makeMigration(project, ['contraintes_bis', '--from-diff', 'Contact']);
    const text = project.read(`${MIGRATIONS}/${made}`);
    assert.equal(section(text, 'mariadb'), [
      'ALTER TABLE `contact` ALTER COLUMN `Nom` DROP DEFAULT;',
      'ALTER TABLE `contact` DROP CONSTRAINT `ck_contact_age_min`;',
      'ALTER TABLE `contact` ADD CONSTRAINT `ck_contact_age_min` CHECK (`Age` >= 1);',
      'ALTER TABLE `contact` DROP CONSTRAINT `ck_contact_age_max`;',
    ]);
    okLines(project, ['migration:apply']);
    assertNoDrift(project);
    assert.is(migrationFiles(project).length, 4);
  });

  t('a pattern changed: a difference on MariaDB only, where the SQLite section has nothing to do; none on SQLite', () => {
    editFields(project, (field) => {
      field('code').constraints = { pattern: '[A-Z][0-9]*' };
    });
    if (sqlite) {
      assertNoDrift(project);
      return;
    }
    assert.equal(drift(project).rows, [
      [
        'CHECK_CHANGED',
        'ck_contact_code_pattern',
        "attendu CHECK (`Code` REGEXP '(?-i)^(?:[A-Z][0-9]*)$'), trouvé CHECK (`Code` regexp '(?-i)^(?:[A-Z][0-9]+)$')",
      ],
    ]);
    const made = makeMigration(project, ['motif', '--from-diff', 'Contact']);
    const text = project.read(`${MIGRATIONS}/${made}`);
    assert.equal(section(text, 'sqlite'), ['SELECT 1;']);
    assert.ok(text.includes("-- ck_contact_code_pattern : SQLite n'écrit pas de CHECK pour « pattern » (le formulaire le vérifie) ; rien à changer ici."));
    okLines(project, ['migration:apply']);
    assertNoDrift(project);
  });

  t.run();
}

for (const dialect of DIALECTS) conformance(dialect);
