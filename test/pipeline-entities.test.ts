// `fw make:entity` and `fw make:relation` run as real processes in a project made by `fw new`: the canonical
// JSON written byte for byte, refusals that write nothing, piped answers to the assistants.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fateLine, lines, newProject, type CliProject } from './helpers/cli.js';

const projects: CliProject[] = [];
let project: CliProject;

test.after(async () => {
  for (const made of projects) await made.cleanup();
});

function fresh(): CliProject {
  const made = newProject('Carnet');
  projects.push(made);
  return made;
}

const CONTACT_JSON = 'mvc/entities/contact/contact.json';
const RELATIONS_JSON = 'mvc/entities/relations.json';
const PK = { name: 'id', sql: 'Id', python_type: 'int', sql_type: 'INT', auto_increment: true };

/** What `make:entity <Name> --no-input` writes, key order included. */
function skeleton(entity: string, table: string, fields: unknown[]): string {
  const definition = {
    $schema: '../../../node_modules/fw-mvc/schemas/entity.schema.json',
    format_version: 1,
    entity,
    table,
    description: '',
    primary_key: PK,
    fields,
  };
  return `${JSON.stringify(definition, null, 2)}\n`;
}

const NOM = { name: 'nom', sql_type: 'VARCHAR(100)', nullable: false, unique: false, constraints: { not_empty: true, max_length: 100 } };

/** The `[ERREUR] <file>#/<pointer> : …` lines of an output, as `<file>#/<pointer>`. */
function errorPointers(stderr: string): string[] {
  return lines(stderr)
    .filter((line) => line.startsWith('[ERREUR] '))
    .map((line) => /^\[ERREUR\] (\S+#\/\S*) : ./.exec(line)?.[1] ?? `(ligne mal formée) ${line}`);
}

test('make:entity Contact --no-input writes the skeleton with its $schema, and it compiles', () => {
  project = fresh();
  const run = project.run(['make:entity', 'Contact', '--no-input']);
  assert.is(run.status, 0, run.stderr);
  assert.is(run.stderr, '');
  assert.equal(lines(run.stdout), [
    fateLine('créé', CONTACT_JSON),
    'Résumé : 1 créé.',
    `Étape suivante : complétez ${CONTACT_JSON} puis lancez « fw sync:entity Contact ».`,
  ]);
  assert.is(project.read(CONTACT_JSON), skeleton('Contact', 'contact', [NOM]));
  const check = project.run(['check:model']);
  assert.is(check.status, 0, check.stdout + check.stderr);
  assert.equal(lines(check.stdout), ['OK : 1 entité(s), 0 relation(s), aucune erreur.']);
});

test('a second make:entity Contact fails and leaves the (edited) file as it is', () => {
  project.editJson(CONTACT_JSON, (data) => (data.description = 'Mes contacts'));
  const before = project.snapshot();
  const run = project.run(['make:entity', 'Contact', '--no-input']);
  assert.is(run.status, 1);
  assert.is(run.stdout, '');
  assert.equal(lines(run.stderr), [
    `Erreur : l'entité « Contact » existe déjà (${CONTACT_JSON}) : rien n'a été écrit.`,
    'Conseil : modifiez le fichier puis lancez « fw sync:entity Contact ».',
  ]);
  assert.equal(project.snapshot(), before);
});

test('bad entity names fail and write nothing', () => {
  const before = project.snapshot();
  const lower = project.run(['make:entity', 'contact', '--no-input']);
  assert.is(lower.status, 1);
  assert.is(lower.stdout, '');
  assert.equal(lines(lower.stderr), [
    "Erreur : nom d'entité invalide « contact » : PascalCase attendu (lettres et chiffres, initiale majuscule).",
    'Conseil : exemple : fw make:entity ContactClient',
  ]);

  const reserved = project.run(['make:entity', 'Order', '--no-input']);
  assert.is(reserved.status, 1);
  assert.is(reserved.stdout, '');
  assert.equal(errorPointers(reserved.stderr), ['mvc/entities/order/order.json#/entity', 'mvc/entities/order/order.json#/table']);
  assert.equal(lines(reserved.stderr).slice(2), [
    "Erreur : la définition de « Order » est invalide : rien n'a été écrit.",
    'Conseil : changez les noms indiqués (mots réservés SQL, snake_case pour les champs).',
  ]);

  const table = project.run(['make:entity', 'Commande', '--no-input', '--table', 'order']);
  assert.is(table.status, 1);
  assert.equal(errorPointers(table.stderr), ['mvc/entities/commande/commande.json#/table']);

  const missing = project.run(['make:entity']);
  assert.is(missing.status, 1);
  assert.equal(lines(missing.stderr), ["Erreur : il manque l'argument <Entité> de « fw make:entity ».", 'Conseil : par exemple « fw make:entity Contact ».']);
  assert.equal(project.snapshot(), before);
});

test('interactive make:entity: piped answers (name, type, nullable, unique, filter; empty name ends)', () => {
  const answers = [
    ['email', 'varchar(120)', 'n', 'o', 'o'],
    ['note', 'TEXT', 'o', 'n', 'n'],
    ['actif', 'BOOLEAN', '', '', 'oui'],
    ['ville', '', '', '', ''],
  ];
  const input = `${answers.map((a) => a.join('\n')).join('\n')}\n\n`;
  const run = project.run(['make:entity', 'Personne'], { input });
  assert.is(run.status, 0, run.stderr);
  assert.is(run.stderr, '');
  const prompt = 'Nom du champ (snake_case, vide pour terminer) [] : ';
  assert.is(run.stdout.split(prompt).length - 1, 5, run.stdout);
  assert.is(run.stdout.split('  Type SQL [VARCHAR(255)] : ').length - 1, 4);
  // Piped answers are not echoed: the prompts share one line, the last one followed by the writer's report.
  assert.ok(
    lines(run.stdout)
      .at(-3)!
      .endsWith(`${prompt}${fateLine('créé', 'mvc/entities/personne/personne.json')}`),
    run.stdout,
  );
  assert.equal(lines(run.stdout).slice(-2), [
    'Résumé : 1 créé.',
    'Étape suivante : complétez mvc/entities/personne/personne.json puis lancez « fw sync:entity Personne ».',
  ]);
  assert.is(
    project.read('mvc/entities/personne/personne.json'),
    skeleton('Personne', 'personne', [
      { name: 'email', sql_type: 'VARCHAR(120)', nullable: false, unique: true, constraints: { not_empty: true, max_length: 120 }, list: { filter: true } },
      { name: 'note', sql_type: 'TEXT', nullable: true, unique: false },
      { name: 'actif', sql_type: 'BOOLEAN', nullable: false, unique: false, list: { filter: true } },
      { name: 'ville', sql_type: 'VARCHAR(255)', nullable: false, unique: false, constraints: { not_empty: true, max_length: 255 } },
    ]),
  );
  const check = project.run(['check:model']);
  assert.is(check.status, 0, check.stdout);
  assert.equal(lines(check.stdout), ['OK : 2 entité(s), 0 relation(s), aucune erreur.']);
});

test('interactive make:entity: a reserved field name and a TEXT filter are refused, nothing is written', () => {
  const before = project.snapshot();
  const run = project.run(['make:entity', 'Note'], { input: 'select\nINT\n\n\n\nnotes\nTEXT\no\n\no\n\n' });
  assert.is(run.status, 1);
  assert.equal(errorPointers(run.stderr), ['mvc/entities/note/note.json#/fields/0/name', 'mvc/entities/note/note.json#/fields/1/list/filter']);
  assert.match(run.stderr, /^\[ERREUR\] mvc\/entities\/note\/note\.json#\/fields\/0\/name : champ « select » : mot réservé SQL/m);
  assert.match(lines(run.stderr)[2]!, /^Erreur : la définition de « Note » est invalide : rien n'a été écrit\.$/);
  assert.equal(project.snapshot(), before);
});

// ---------------------------------------------------------------------------------------------- make:relation

test('make:relation setup: Contact.ville_id and Contact.region_id, Ville (INT key), Region (BIGINT key)', () => {
  project = fresh();
  for (const name of ['Contact', 'Ville', 'Region']) {
    const run = project.run(['make:entity', name, '--no-input']);
    assert.is(run.status, 0, run.stderr);
  }
  project.editJson<{ fields: unknown[] }>(CONTACT_JSON, (data) => {
    data.fields.push({ name: 'ville_id', sql_type: 'INT', nullable: true, unique: false });
    data.fields.push({ name: 'region_id', sql_type: 'INT', nullable: true, unique: false });
  });
  project.editJson<{ primary_key: { sql_type: string } }>('mvc/entities/region/region.json', (data) => (data.primary_key.sql_type = 'BIGINT'));
  const check = project.run(['check:model']);
  assert.equal(lines(check.stdout), ['OK : 3 entité(s), 0 relation(s), aucune erreur.']);
});

const REFUSED = (name: string): string[] => [
  `Erreur : la relation « ${name} » est invalide : ${RELATIONS_JSON} n'a pas été modifié.`,
  'Conseil : corrigez les valeurs indiquées puis relancez « fw make:relation ».',
];
const FLAGS_EXAMPLE = 'fw make:relation --no-input --name contact_ville --type many_to_one --from Contact.ville_id --to Ville.id';

test('make:relation refusals before relations.json exists: bad target, missing flags; nothing is written', () => {
  const before = project.snapshot();
  const base = ['make:relation', '--no-input', '--name', 'contact_ville', '--type', 'many_to_one', '--from', 'Contact.ville_id'];
  const badTarget = project.run([...base, '--to', 'Ville.nope']);
  assert.is(badTarget.status, 1);
  assert.is(badTarget.stdout, '');
  assert.equal(errorPointers(badTarget.stderr), [`${RELATIONS_JSON}#/relations/0/to_field`]);
  assert.match(lines(badTarget.stderr)[0]!, /l'entité « Ville » n'a pas de champ « nope »/);
  assert.equal(lines(badTarget.stderr).slice(1), REFUSED('contact_ville'));

  const noTo = project.run(base);
  assert.is(noTo.status, 1);
  assert.equal(lines(noTo.stderr), ['Erreur : option(s) manquante(s) avec --no-input : --to.', `Conseil : exemple : ${FLAGS_EXAMPLE}`]);
  const nothing = project.run(['make:relation', '--no-input']);
  assert.is(nothing.status, 1);
  assert.equal(lines(nothing.stderr)[0], 'Erreur : option(s) manquante(s) avec --no-input : --name, --from, --to.');
  assert.not.ok(project.exists(RELATIONS_JSON));
  assert.equal(project.snapshot(), before);
});

const CONTACT_VILLE = {
  name: 'contact_ville',
  type: 'many_to_one',
  from_entity: 'Contact',
  from_field: 'ville_id',
  to_entity: 'Ville',
  to_field: 'id',
  on_delete: 'RESTRICT',
  on_update: 'CASCADE',
};
const RELATIONS_HEAD = { $schema: '../../node_modules/fw-mvc/schemas/relations.schema.json', format_version: 1 };

test('make:relation with flags writes relations.json', () => {
  const run = project.run([
    'make:relation',
    '--no-input',
    '--name',
    'contact_ville',
    '--type',
    'many_to_one',
    '--from',
    'Contact.ville_id',
    '--to',
    'Ville.id',
  ]);
  assert.is(run.status, 0, run.stderr);
  assert.is(run.stderr, '');
  assert.equal(lines(run.stdout), [fateLine('créé', RELATIONS_JSON), 'Résumé : 1 créé.', 'Étape suivante : « fw sync:relations » génère relations.sql.']);
  assert.is(project.read(RELATIONS_JSON), `${JSON.stringify({ ...RELATIONS_HEAD, relations: [CONTACT_VILLE] }, null, 2)}\n`);
  const check = project.run(['check:model']);
  assert.equal(lines(check.stdout), ['OK : 3 entité(s), 1 relation(s), aucune erreur.']);
});

test('make:relation refusals leave relations.json byte-identical: type mismatch, bad target, duplicate, bad reference', () => {
  const before = project.snapshot();
  const mismatch = project.run(['make:relation', '--no-input', '--name', 'contact_region', '--from', 'Contact.region_id', '--to', 'Region.id']);
  assert.is(mismatch.status, 1);
  assert.equal(errorPointers(mismatch.stderr), [`${RELATIONS_JSON}#/relations/1/from_field`]);
  assert.match(lines(mismatch.stderr)[0]!, /type de clé étrangère incompatible : « Contact\.region_id » est INT, « Region\.id » est BIGINT/);
  assert.equal(lines(mismatch.stderr).slice(1), REFUSED('contact_region'));

  const badTarget = project.run(['make:relation', '--no-input', '--name', 'contact_region', '--from', 'Contact.region_id', '--to', 'Region.nope']);
  assert.is(badTarget.status, 1);
  assert.equal(errorPointers(badTarget.stderr), [`${RELATIONS_JSON}#/relations/1/to_field`]);

  const duplicate = project.run(['make:relation', '--no-input', '--name', 'contact_ville', '--from', 'Contact.ville_id', '--to', 'Ville.id']);
  assert.is(duplicate.status, 1);
  assert.equal(errorPointers(duplicate.stderr), [
    `${RELATIONS_JSON}#/relations/1`,
    `${RELATIONS_JSON}#/relations/1/from_field`,
    `${RELATIONS_JSON}#/relations/1/name`,
  ]);

  const badType = project.run([
    'make:relation',
    '--no-input',
    '--name',
    'contact_region',
    '--type',
    'one_to_one',
    '--from',
    'Contact.region_id',
    '--to',
    'Region.id',
  ]);
  assert.is(badType.status, 1);
  assert.ok(errorPointers(badType.stderr).includes(`${RELATIONS_JSON}#/relations/1/type`), badType.stderr);

  const badRef = project.run(['make:relation', '--no-input', '--name', 'contact_region', '--from', 'contact.region_id', '--to', 'Region.id']);
  assert.is(badRef.status, 1);
  assert.equal(lines(badRef.stderr)[0], 'Erreur : valeur invalide pour --from : « contact.region_id » (forme attendue : Entité.champ, ex. Contact.ville_id).');
  for (const run of [mismatch, badTarget, duplicate, badType, badRef]) assert.is(run.stdout, '');
  assert.equal(project.snapshot(), before);
});

test('interactive make:relation: piped answers, defaults filled, the first relation kept', () => {
  project.editJson<{ fields: Array<{ name: string; sql_type: string }> }>(CONTACT_JSON, (data) => {
    data.fields.find((f) => f.name === 'region_id')!.sql_type = 'BIGINT';
  });
  // name, type (default), from, to, on delete, on update (default)
  const run = project.run(['make:relation', '--fk-name', 'fk_contact_region'], { input: 'contact_region\n\nContact.region_id\nRegion.id\nset null\n\n' });
  assert.is(run.status, 0, run.stderr);
  assert.equal(lines(run.stdout).slice(-2), ['Résumé : 1 mis à jour.', 'Étape suivante : « fw sync:relations » génère relations.sql.']);
  assert.match(run.stdout, /Nom de la relation \(snake_case\) : Type \(many_to_one ou many_to_many\) \[many_to_one\] : /);
  assert.ok(
    lines(run.stdout).some((line) => line.endsWith(fateLine('mis à jour', RELATIONS_JSON))),
    run.stdout,
  );
  const written = JSON.parse(project.read(RELATIONS_JSON)) as { relations: unknown[] };
  assert.equal(written.relations, [
    CONTACT_VILLE,
    {
      name: 'contact_region',
      type: 'many_to_one',
      from_entity: 'Contact',
      from_field: 'region_id',
      to_entity: 'Region',
      to_field: 'id',
      on_delete: 'SET NULL',
      on_update: 'CASCADE',
      foreign_key_name: 'fk_contact_region',
    },
  ]);
  const check = project.run(['check:model']);
  assert.equal(lines(check.stdout), ['OK : 3 entité(s), 2 relation(s), aucune erreur.']);
});

test('make:relation many_to_many: ON DELETE defaults to CASCADE, with flags and in the assistant', () => {
  const flags = project.run(['make:relation', '--no-input', '--name', 'contact_favori', '--type', 'many_to_many', '--from', 'Contact.id', '--to', 'Ville.id']);
  assert.is(flags.status, 0, flags.stderr);
  // type, on delete and on update left to their defaults
  const asked = project.run(['make:relation'], { input: 'contact_visite\nmany_to_many\nContact.id\nRegion.id\n\n\n' });
  assert.is(asked.status, 0, asked.stderr);
  assert.match(
    asked.stdout,
    /ON DELETE \(RESTRICT, CASCADE, SET NULL, NO ACTION\) \[CASCADE\] : ON UPDATE \(RESTRICT, CASCADE, SET NULL, NO ACTION\) \[CASCADE\] : /,
  );
  const written = JSON.parse(project.read(RELATIONS_JSON)) as { relations: Array<Record<string, string>> };
  const pivot = (name: string, to: string) => ({
    name,
    type: 'many_to_many',
    from_entity: 'Contact',
    from_field: 'id',
    to_entity: to,
    to_field: 'id',
    on_delete: 'CASCADE',
    on_update: 'CASCADE',
  });
  assert.equal(written.relations.slice(2), [pivot('contact_favori', 'Ville'), pivot('contact_visite', 'Region')]);
  // A many_to_one keeps RESTRICT.
  assert.equal(
    written.relations.slice(0, 2).map((r) => r.on_delete),
    ['RESTRICT', 'SET NULL'],
  );
  const check = project.run(['check:model']);
  assert.equal(lines(check.stdout), ['OK : 3 entité(s), 4 relation(s), aucune erreur.']);
});

test.run();
