// The rule of definition files (docs/entities.md "Limits and reserved names"): what `fw check:model` accepts
// type-checks, applies on SQLite and MariaDB and serves every page; what it refuses is refused with `Erreur :`, the
// file and the JSON pointer, and nothing written. One row per case (test/helpers/definitions-chain.ts); the
// accepted rows share one project, so that tsc runs once. Last, the names the generated files import, declare or
// take from the globals are all in the compiler's list of framework names (compiler/framework-names.ts). A second
// table, "changes over time", runs what happens when definitions change after a first build (test/helpers/
// changes-over-time.ts), each row in a project of its own, on SQLite and MariaDB where a database is involved.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { buildAccepted, cleanupChain, entityFiles, runAcceptedOn, runRefusedCase, type AcceptedProject, type ChainCase } from './helpers/definitions-chain.js';
import {
  crlfBomRoutesScenario,
  destructiveStepsListedScenario,
  refusedBeforeAnyChangeScenario,
  removedEntityScenario,
  type Dialect,
} from './helpers/changes-over-time.js';
import { DIALECTS, productOf } from './helpers/dialects.js';
import { CONSTRAINT_CASES } from './helpers/constraint-cases.js';
import { assertGeneratedNamesReserved } from './helpers/generated-names.js';
import { query } from './helpers/migrations.js';

const ID = { name: 'id', sql_type: 'INT', primary_key: true, auto_increment: true };

type Definition = { entity: string } & Record<string, unknown>;

/** An entity file with an id and the given fields; its table is `<lower name>_t` unless `extra` says. */
function entity(name: string, fields: Array<Record<string, unknown>>, extra: Record<string, unknown> = {}): Definition {
  return { format_version: 1, entity: name, table: `${name.toLowerCase()}_t`, fields: [ID, ...fields], ...extra };
}

const path = (name: string): string => {
  const snake = name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
  return `mvc/entities/${snake}/${snake}.json`;
};

const TITRE = { name: 'titre', sql_type: 'VARCHAR(100)' };

/** Item 13: a tutor's mentors and students, a many-to-many from Tuteur to itself. */
const SELF_RELATION = {
  name: 'tutorat',
  type: 'many_to_many',
  from_entity: 'Tuteur',
  from_field: 'id',
  to_entity: 'Tuteur',
  to_field: 'id',
  from_name: 'mentor',
  to_name: 'eleve',
  from_label: 'Mentors',
  to_label: 'Élèves',
};

/** Item 1: names of the framework, of TypeScript and of Node, and names whose generated classes would be theirs. */
const FRAMEWORK_NAMES = [
  'Transaction',
  'Request',
  'Response',
  'Permission',
  'Choice',
  'Pagination',
  'Base',
  'Record',
  'Readonly',
  'Partial',
  'Promise',
  'Object',
  'String',
  'Home',
  'Pages',
];

/** Item 2: the keys a form gives its template, and the CSRF input. */
const FORM_NAMES = ['errors', 'fields', 'non_field_errors', 'is_bound', 'csrf_token'];

/** Item 3: tables of the framework's modules, and its prefixes. */
const FRAMEWORK_TABLES = ['users', 'media', 'roles', 'mail_log', 'user_roles', 'fw_sessions', 'auth_tokens', 'Users'];

/** Item 4: paths the framework answers itself. */
const FRAMEWORK_PATHS = ['static', 'media', 'login', 'logout', 'account', 'api'];

/** Item 6: a 4 MB file of 40,000 fields. */
function hugeEntity(): Definition {
  return entity(
    'Enorme',
    Array.from({ length: 40_000 }, (_, i) => ({ name: `champ_${i}`, sql_type: 'INT', label: `Un libellé assez long pour le champ numéro ${i}` })),
  );
}

/** Item 7: a label holding the byte 0xFF, which is not UTF-8. */
function invalidUtf8(): Buffer {
  const text = JSON.stringify(entity('Brouillon', [{ ...TITRE, label: 'Titre @' }]), null, 2);
  const bytes = Buffer.from(text, 'utf8');
  bytes[bytes.indexOf('@')] = 0xff;
  return bytes;
}

export const CASES: ChainCase[] = [
  // ---- display and constraints (test/helpers/constraint-cases.ts) ----
  ...CONSTRAINT_CASES,
  // ---- accepted ----
  {
    name: 'an ordinary entity passes the whole chain',
    files: entityFiles(entity('Carnet', [TITRE, { name: 'actif', sql_type: 'BOOLEAN' }])),
    expect: 'passes',
  },
  {
    name: 'item 1: names close to the framework’s but not one of them (Document, Contact, Etiquette), with relations, pass',
    files: {
      ...entityFiles(
        entity('Document', [TITRE]),
        entity('Etiquette', [TITRE]),
        entity('Contact', [TITRE, { name: 'document_id', sql_type: 'INT', nullable: true }]),
      ),
      'mvc/entities/relations.json': {
        format_version: 1,
        relations: [
          {
            name: 'contact_document',
            type: 'many_to_one',
            from_entity: 'Contact',
            from_field: 'document_id',
            to_entity: 'Document',
            to_field: 'id',
            on_delete: 'SET NULL',
          },
          { name: 'contact_etiquette', type: 'many_to_many', from_entity: 'Contact', from_field: 'id', to_entity: 'Etiquette', to_field: 'id' },
        ],
      },
    },
    entities: [{ name: 'Document' }, { name: 'Etiquette' }, { name: 'Contact', values: { document_id: '1' } }],
    expect: 'passes',
  },
  {
    name: 'an entity with media (make:crud --media, media:init) passes the whole chain',
    files: entityFiles(
      entity('Album', [TITRE], {
        media: [
          { name: 'photo', field: 'image', role: 'cover', label: 'Photo {{ 1+1 }}', variants: true },
          { name: 'pieces', field: 'file', label: 'Pièces', multiple: true },
        ],
      }),
    ),
    entities: [{ name: 'Album', flags: ['--media'] }],
    commands: [['upload:init'], ['media:init']],
    expect: 'passes',
    pages: { contains: ['Photo {{ 1+1 }}'], absent: ['Photo 2'] },
  },
  {
    name: 'item 5: VARCHAR(16383), the largest in utf8mb4, beside a TINYINT key (65,535 bytes) applies on MariaDB',
    files: entityFiles(
      entity('Ample', [], {
        fields: [
          { ...ID, sql_type: 'TINYINT' },
          { name: 'texte', sql_type: 'VARCHAR(16383)' },
        ],
      }),
    ),
    expect: 'passes',
  },
  {
    name: 'item 5: a row of exactly 65,535 bytes (INT 4 + VARCHAR(16382) 65,530 + TINYINT 1) applies on MariaDB',
    files: entityFiles(
      entity('Plein', [
        { name: 'texte', sql_type: 'VARCHAR(16382)' },
        { name: 'petit', sql_type: 'TINYINT' },
      ]),
    ),
    expect: 'passes',
  },
  {
    name: 'item 8: template syntax in labels, titles and descriptions is shown as written, never run',
    files: entityFiles(
      entity(
        'Note',
        [
          { name: 'calcul', sql_type: 'VARCHAR(50)', label: 'Calcul {{ 7*7 }}', list: { filter: true } },
          { name: 'commentaire', sql_type: 'VARCHAR(50)', label: 'Commentaire {# pas fini */ `${y}`' },
          { name: 'bloc', sql_type: 'VARCHAR(50)', label: 'Bloc {% if %} ouvert' },
        ],
        { label: 'Note {{ 6*7 }} */ `${x}` \\', label_plural: 'Notes {% raw %} */', description: 'Une {# description */' },
      ),
    ),
    expect: 'passes',
    pages: { contains: ['Calcul {{ 7*7 }}', 'Note {{ 6*7 }}'], absent: ['Calcul 49', 'Note 42'] },
  },
  {
    name: 'item 9: a field that says what it was called (renamed_from) passes; a new database gets the new column',
    files: entityFiles(entity('Fichier', [TITRE, { name: 'petit_nom', sql_type: 'VARCHAR(40)', nullable: true, renamed_from: 'prenom' }])),
    expect: 'passes',
  },
  {
    name: 'item 13: a many-to-many from an entity to itself, its two sides named (mentors, students), passes',
    files: {
      ...entityFiles(entity('Tuteur', [TITRE])),
      'mvc/entities/relations.json': { format_version: 1, relations: [SELF_RELATION] },
    },
    expect: 'passes',
    check: async ({ project, client }) => {
      const form = (await client.get('/tuteurs/new')).text;
      for (const label of ['Mentors', 'Élèves']) assert.ok(form.includes(`>${label}</label>`), label);
      const columns = await query<Record<string, unknown>>(project, 'SELECT * FROM tutorat');
      assert.equal(columns, []);
      await project.sql(['INSERT INTO tutorat (MentorId, EleveId) VALUES (1, 1)']);
      assert.ok((await client.get('/tuteurs/1')).text.includes('Mentors'));
    },
  },

  // ---- refused ----
  {
    name: 'item 13: a many-to-many from an entity to itself without from_name / to_name is refused',
    files: {
      ...entityFiles(entity('Tuteur', [TITRE])),
      'mvc/entities/relations.json': { format_version: 1, relations: [{ ...SELF_RELATION, from_name: undefined, to_name: undefined }] },
    },
    expect: { file: 'mvc/entities/relations.json', pointer: '#/relations/0', message: 'nommez ses deux côtés avec « from_name » et « to_name »' },
  },
  {
    name: 'item 13: side names on a relation between two entities are refused',
    files: {
      ...entityFiles(entity('Membre', [TITRE]), entity('Groupe', [TITRE])),
      'mvc/entities/relations.json': {
        format_version: 1,
        relations: [
          { name: 'membre_groupe', type: 'many_to_many', from_entity: 'Membre', from_field: 'id', to_entity: 'Groupe', to_field: 'id', from_name: 'membre' },
        ],
      },
    },
    expect: { file: 'mvc/entities/relations.json', pointer: '#/relations/0/from_name', message: "d'une entité vers elle-même" },
  },
  {
    name: "item 9: renamed_from naming another field's column is refused",
    files: entityFiles(entity('Fiche', [TITRE, { name: 'sous_titre', sql_type: 'VARCHAR(40)', renamed_from: 'titre' }])),
    expect: { file: path('Fiche'), pointer: '#/fields/2/renamed_from', message: 'celle du champ « titre »' },
  },
  ...FRAMEWORK_NAMES.map((name): ChainCase => ({
    name: `item 1: an entity named ${name} is refused`,
    files: entityFiles(entity(name, [TITRE])),
    expect: { file: path(name), pointer: '#/entity', message: /framework, TypeScript ou Node/ },
  })),
  ...FORM_NAMES.map((field): ChainCase => ({
    name: `item 2: a field named ${field} is refused`,
    files: entityFiles(entity('Fiche', [TITRE, { name: field, sql_type: 'VARCHAR(20)' }])),
    expect: { file: path('Fiche'), pointer: '#/fields/2/name', message: 'réservé par les formulaires générés' },
  })),
  ...FRAMEWORK_TABLES.map((table): ChainCase => ({
    name: `item 3: an entity table named ${table} is refused`,
    files: entityFiles(entity('Fiche', [TITRE], { table })),
    expect: { file: path('Fiche'), pointer: '#/table', message: /du framework|est réservé/ },
  })),
  {
    name: 'item 3: a pivot table (many-to-many relation) named user_roles is refused',
    files: {
      ...entityFiles(entity('Membre', [TITRE]), entity('Groupe', [TITRE])),
      'mvc/entities/relations.json': {
        format_version: 1,
        relations: [{ name: 'user_roles', type: 'many_to_many', from_entity: 'Membre', from_field: 'id', to_entity: 'Groupe', to_field: 'id' }],
      },
    },
    expect: { file: 'mvc/entities/relations.json', pointer: '#/relations/0/name', message: 'module auth' },
  },
  ...FRAMEWORK_PATHS.map((plural): ChainCase => ({
    name: `item 4: the plural ${plural} is refused`,
    files: entityFiles(entity('Fiche', [TITRE], { plural })),
    expect: { file: path('Fiche'), pointer: '#/plural', message: `les routes /${plural}… ne seraient jamais atteintes` },
  })),
  {
    name: 'item 5: VARCHAR(16384) is refused, the utf8mb4 limit named',
    files: entityFiles(entity('Fiche', [{ name: 'texte', sql_type: 'VARCHAR(16384)' }])),
    expect: { file: path('Fiche'), pointer: '#/fields/1/sql_type', message: 'VARCHAR(16383)' },
  },
  {
    name: 'item 5: 70 × VARCHAR(255) is refused, the row size named',
    files: entityFiles(
      entity(
        'Fiche',
        Array.from({ length: 70 }, (_, i) => ({ name: `texte_${i}`, sql_type: 'VARCHAR(255)' })),
      ),
    ),
    expect: { file: path('Fiche'), pointer: '#/fields', message: /ligne de 71\u202f544 octets : MariaDB limite une ligne à 65\u202f535 octets/ },
  },
  {
    name: 'item 5: a row of 65,536 bytes (one byte over) is refused',
    files: entityFiles(
      entity('Fiche', [
        { name: 'texte', sql_type: 'VARCHAR(16382)' },
        { name: 'petit', sql_type: 'SMALLINT' },
      ]),
    ),
    expect: { file: path('Fiche'), pointer: '#/fields', message: 'ligne de 65\u202f536 octets' },
  },
  {
    name: 'item 6: a 4 MB entity file of 40,000 fields is refused before it is read',
    files: entityFiles(hugeEntity()),
    expect: { file: path('Enorme'), pointer: '#', message: /fichier de [\d,]+ Mo : un fichier de définitions fait au plus 512 Ko/ },
  },
  {
    name: 'item 6: 201 fields are refused',
    files: entityFiles(
      entity(
        'Fiche',
        Array.from({ length: 200 }, (_, i) => ({ name: `champ_${i}`, sql_type: 'INT' })),
      ),
    ),
    expect: { file: path('Fiche'), pointer: '#/fields', message: '201 champs : une entité en a au plus 200' },
  },
  {
    name: 'item 7: invalid UTF-8 is refused with its byte offset',
    files: { [path('Brouillon')]: invalidUtf8() },
    entities: [{ name: 'Brouillon' }],
    expect: { file: path('Brouillon'), pointer: '#', message: new RegExp(`octet 0xFF invalide à la position ${invalidUtf8().indexOf(0xff)} `) },
  },
];

/** A row of the "changes over time" table: its issue item, what it shows, and its scenario on each of `dialects`. */
interface ChangeCase {
  readonly item: number;
  readonly name: string;
  /** The dialects the scenario runs on, one test each; `'both'`: one run that uses SQLite then MariaDB; `'none'`: no database. */
  readonly dialects: readonly Dialect[] | 'both' | 'none';
  readonly run: (dialect?: Dialect) => Promise<void>;
}

export const CHANGES: ChangeCase[] = [
  {
    item: 10,
    name: 'a removed entity (Ville): build:model --check names what is left, build:model deletes its generated files, migration:diff names its table, then the project type-checks',
    dialects: 'both',
    run: () => removedEntityScenario(),
  },
  {
    item: 11,
    name: 'VARCHAR(50) → VARCHAR(20) over a 47-character value, NOT NULL over NULL and a unique key over duplicates are refused before any change, the rows named',
    dialects: DIALECTS,
    run: (dialect) => refusedBeforeAnyChangeScenario(dialect!),
  },
  {
    item: 12,
    name: 'a narrowed type and a dropped column are listed by migration:lint / migration:status with their rows and refused by migration:apply without --allow-destructive',
    dialects: DIALECTS,
    run: (dialect) => destructiveStepsListedScenario(dialect!),
  },
  {
    item: 14,
    name: 'make:crud on a CRLF routes.ts with a byte order mark keeps both on every line, and a second run changes no byte',
    dialects: 'none',
    run: () => crlfBomRoutesScenario(),
  },
];

const t = suite('generator-definitions-chain');
let accepted: AcceptedProject;

t.after(async () => {
  await cleanupChain();
});

for (const row of CASES.filter((c) => c.expect !== 'passes')) {
  t(`refused: ${row.name}`, () => runRefusedCase(row));
}

const passing = CASES.filter((c) => c.expect === 'passes');
t(`accepted (${passing.length} cases in one project): check:model, build:model, make:crud, sync:relations, tsc`, () => {
  accepted = buildAccepted(passing);
});
t('the names the generated files import, declare or take from the globals are the compiler’s framework names', () => {
  assertGeneratedNamesReserved(
    accepted.project.root,
    accepted.entities.map((e) => e.name),
  );
});
for (const dialect of DIALECTS) {
  t(`accepted: db:apply on ${productOf(dialect)}, every page served and posted`, async () => {
    await runAcceptedOn(accepted, dialect);
  });
}

for (const row of CHANGES) {
  const label = `changes over time: item ${row.item}: ${row.name}`;
  if (Array.isArray(row.dialects)) for (const dialect of row.dialects) t(`${label} (${dialect})`, () => row.run(dialect));
  else t(`${label}${row.dialects === 'both' ? ' (SQLite then MariaDB)' : ''}`, () => row.run());
}

t.run();
