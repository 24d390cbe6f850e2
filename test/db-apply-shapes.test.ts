// `fw db:apply` then `fw migration:diff --all --check` as real processes, on SQLite and on MariaDB (one body, run
// twice), for model shapes beyond the plain INT key: BIGINT, INT UNSIGNED and SMALLINT auto-increment keys
// (SQLite writes them all as INTEGER PRIMARY KEY, which is no drift), and a foreign-key cycle between two
// entities (applied on both dialects; a cycle of NOT NULL keys is applied too, with a warning that says why no
// row could be inserted).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { DialectName } from '../runtime/db/index.js';
import { lines, newProject, readSchema, type CliProject } from './helpers/cli.js';
import { DIALECTS } from './helpers/dialects.js';

interface Field {
  name: string;
  sql_type: string;
  nullable?: boolean;
}

function conformance(dialect: DialectName): void {
  const t = suite(`db-apply-shapes: ${dialect}`);
  const projects: CliProject[] = [];

  t.after(async () => {
    for (const made of projects) await made.cleanup();
  });

  function fresh(): CliProject {
    const made = newProject('Formes');
    projects.push(made);
    made.useDialect(dialect);
    return made;
  }

  function ok(project: CliProject, args: string[]): string[] {
    const run = project.run(args);
    assert.is(run.status, 0, `fw ${args.join(' ')} : ${run.stdout}${run.stderr}`);
    return lines(run.stdout);
  }

  /** make:entity <name> --no-input, then its key type and extra fields. */
  function entity(project: CliProject, name: string, keyType: string, fields: Field[] = []): void {
    ok(project, ['make:entity', name, '--no-input']);
    const snake = name.toLowerCase();
    project.editJson<{ primary_key: { sql_type: string }; fields: Field[] }>(`mvc/entities/${snake}/${snake}.json`, (data) => {
      data.primary_key.sql_type = keyType;
      data.fields.push(...fields);
    });
  }

  function relation(project: CliProject, name: string, from: string, to: string): void {
    ok(project, ['make:relation', '--no-input', '--name', name, '--type', 'many_to_one', '--from', from, '--to', to]);
  }

  t('BIGINT, INT UNSIGNED and SMALLINT keys: db:apply, then migration:diff --check exits 0', async () => {
    const project = fresh();
    entity(project, 'Ville', 'BIGINT');
    entity(project, 'Contact', 'INT UNSIGNED', [{ name: 'ville_id', sql_type: 'BIGINT', nullable: true }]);
    entity(project, 'Etiquette', 'SMALLINT', [{ name: 'contact_id', sql_type: 'INT UNSIGNED' }]);
    relation(project, 'contact_ville', 'Contact.ville_id', 'Ville.id');
    relation(project, 'etiquette_contact', 'Etiquette.contact_id', 'Contact.id');
    ok(project, ['build:model']);
    ok(project, ['db:init']);
    assert.is(ok(project, ['db:apply']).at(-1), 'Schéma appliqué : 4 fichier(s).');
    const diff = project.run(['migration:diff', '--all', '--check']);
    assert.is(diff.status, 0, diff.stdout + diff.stderr);
    assert.is(lines(diff.stdout).at(-1), 'Aucun écart.');
    for (const [column, detail] of [
      ['Id', 'BIGINT NOT NULL'],
      ['Id', 'INT UNSIGNED NOT NULL'],
      ['Id', 'SMALLINT NOT NULL'],
    ]) {
      assert.ok(
        lines(diff.stdout).some((line) => new RegExp(`^OK +${column} +${detail}$`).test(line)),
        `${detail}\n${diff.stdout}`,
      );
    }
    // The keys hold what their type promises: a BIGINT id past 2^31 is stored and read back.
    const db = project.open();
    try {
      await db.execute('INSERT INTO ville (Id, Nom) VALUES (?, ?)', [5_000_000_000, 'Loin']);
      const id = await db.insert('INSERT INTO contact (Nom, VilleId) VALUES (?, ?)', ['Ada', 5_000_000_000]);
      await db.execute('INSERT INTO etiquette (Nom, ContactId) VALUES (?, ?)', ['vip', id]);
      assert.equal(await db.fetchOne('SELECT VilleId FROM contact WHERE Id = ?', [id]), { VilleId: 5_000_000_000 });
    } finally {
      await db.close();
    }
  });

  t('a foreign-key cycle with nullable keys: applied, both keys enforced, no drift', async () => {
    const project = fresh();
    entity(project, 'Equipe', 'INT', [{ name: 'capitaine_id', sql_type: 'INT', nullable: true }]);
    entity(project, 'Joueur', 'INT', [{ name: 'equipe_id', sql_type: 'INT', nullable: true }]);
    relation(project, 'equipe_capitaine', 'Equipe.capitaine_id', 'Joueur.id');
    relation(project, 'joueur_equipe', 'Joueur.equipe_id', 'Equipe.id');
    ok(project, ['build:model']);
    ok(project, ['db:init']);
    const apply = project.run(['db:apply']);
    assert.is(apply.status, 0, apply.stdout + apply.stderr);
    assert.is(apply.stderr, '');
    assert.is(lines(apply.stdout).at(-1), 'Schéma appliqué : 3 fichier(s).');
    const again = project.run(['db:apply']);
    assert.is(again.status, 0, again.stderr);
    assert.ok(
      lines(again.stdout)
        .slice(0, -1)
        .every((line) => line.includes('(0 instruction(s)')),
      again.stdout,
    );
    const diff = project.run(['migration:diff', '--all', '--check']);
    assert.is(diff.status, 0, diff.stdout + diff.stderr);

    const schema = await readSchema(project);
    assert.equal(schema.foreignKeys.map((fk) => `${fk.table}.${fk.column} -> ${fk.refTable}.${fk.refColumn}`).sort(), [
      'equipe.CapitaineId -> joueur.Id',
      'joueur.EquipeId -> equipe.Id',
    ]);
    const db = project.open();
    try {
      const equipe = await db.insert('INSERT INTO equipe (Nom) VALUES (?)', ['Bleus']);
      const joueur = await db.insert('INSERT INTO joueur (Nom, EquipeId) VALUES (?, ?)', ['Zoé', equipe]);
      assert.is(await db.execute('UPDATE equipe SET CapitaineId = ? WHERE Id = ?', [joueur, equipe]), 1);
      // Both keys are enforced: a missing player or team is refused.
      for (const sql of ['UPDATE equipe SET CapitaineId = 999 WHERE Id = ?', 'UPDATE joueur SET EquipeId = 999 WHERE Id = ?']) {
        const error = await db.execute(sql, [1]).then(
          () => null,
          (e: unknown) => e,
        );
        assert.ok(error instanceof Error, `${sql}: the statement should have been refused`);
        assert.match(error.message, /FOREIGN KEY constraint failed|foreign key constraint fails/i, sql);
      }
    } finally {
      await db.close();
    }
  });

  t('a cycle of NOT NULL keys: applied, with a warning naming the keys and why no row fits', () => {
    const project = fresh();
    entity(project, 'Poule', 'INT', [{ name: 'oeuf_id', sql_type: 'INT' }]);
    entity(project, 'Oeuf', 'INT', [{ name: 'poule_id', sql_type: 'INT' }]);
    relation(project, 'poule_oeuf', 'Poule.oeuf_id', 'Oeuf.id');
    relation(project, 'oeuf_poule', 'Oeuf.poule_id', 'Poule.id');
    ok(project, ['build:model']);
    ok(project, ['db:init']);
    const apply = project.run(['db:apply']);
    assert.is(apply.status, 0, apply.stdout + apply.stderr);
    assert.is(lines(apply.stdout).at(-1), 'Schéma appliqué : 3 fichier(s).');
    assert.equal(lines(apply.stderr), [
      'Attention : les clés étrangères NOT NULL Poule.oeuf_id → Oeuf, Oeuf.poule_id → Poule forment un cycle : les tables existent, ' +
        "mais aucune ligne ne pourra y être insérée sans désactiver la vérification des clés étrangères (chacune exige d'abord une ligne de la table suivante).",
      'Conseil : rendez une de ces clés nullable (« nullable »: true dans son entité).',
    ]);
    const diff = project.run(['migration:diff', '--all', '--check']);
    assert.is(diff.status, 0, diff.stdout + diff.stderr);
  });

  t('a statement that fails: file, statement and line named, the reason once, a Conseil; exit 1', async () => {
    const project = fresh();
    entity(project, 'Ville', 'INT');
    entity(project, 'Contact', 'INT', [{ name: 'ville_id', sql_type: 'INT', nullable: true }]);
    relation(project, 'contact_ville', 'Contact.ville_id', 'Ville.id');
    ok(project, ['build:model']);
    ok(project, ['db:init']);
    // A contact table made by hand, without the key column: its index (SQLite) or its foreign key (MariaDB) fails.
    await project.sql([
      dialect === 'sqlite'
        ? 'CREATE TABLE contact (Id INTEGER PRIMARY KEY, Nom VARCHAR(100) NOT NULL)'
        : 'CREATE TABLE contact (Id INT PRIMARY KEY, Nom VARCHAR(100) NOT NULL)',
    ]);
    const run = project.run(['db:apply']);
    assert.is(run.status, 1, run.stdout + run.stderr);
    const failed = dialect === 'sqlite' ? 'mvc/entities/contact/contact.sqlite.sql' : 'mvc/entities/relations.sql';
    assert.ok(
      lines(run.stdout).some((line) => line.startsWith(`  ÉCHEC      ${failed}`)),
      run.stdout,
    );
    const [error, advice, ...rest] = lines(run.stderr);
    assert.equal(rest, []);
    assert.match(error!, new RegExp(`^Erreur : ${failed.replace(/\./g, '\\.')}, instruction \\d+ \\(ligne \\d+\\) : .*VilleId`));
    assert.not.match(error!, /\.\./);
    if (dialect === 'mariadb') assert.match(error!, /[^.]\. Sur MariaDB, les instructions précédentes de ce fichier sont peut-être déjà validées/);
    else assert.match(error!, /[^.][.?!]$/);
    assert.is(advice, 'Conseil : corrigez la définition puis « fw build:model » et relancez « fw db:apply ».');
  });

  t.run();
}

for (const dialect of DIALECTS) conformance(dialect);
