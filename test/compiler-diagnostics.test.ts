/**
 * Bad definitions of every kind each produce their diagnostic: file, JSON pointer, stable code and a French
 * message naming the culprit; nothing else is reported (docs/entities.md, docs/crud.md "The list page";
 * docs/decisions.md#entity-names-and-columns).
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { compileSources, formatDiagnostics, type CompileResult, type Diagnostic } from '../compiler/index.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- definition documents are edited freely in the cases */
type Doc = Record<string, any>;
type Files = Record<string, Doc | string>;

const CONTACT = 'mvc/entities/contact/contact.json';
const VILLE = 'mvc/entities/ville/ville.json';
const TAG = 'mvc/entities/tag/tag.json';
const NOTE = 'mvc/entities/note/note.json';
const RELATIONS = 'mvc/entities/relations.json';

const key = (): Doc => ({ name: 'id', sql_type: 'INT' });

/** A valid project: Contact → Ville (many_to_one), Contact ↔ Tag (many_to_many), and Note outside any relation. */
function project(): Files {
  return structuredClone({
    [CONTACT]: {
      format_version: 1,
      entity: 'Contact',
      table: 'contacts',
      primary_key: key(),
      fields: [
        { name: 'nom', sql_type: 'VARCHAR(100)' },
        { name: 'ville_id', sql_type: 'INT', nullable: true },
      ],
    },
    [VILLE]: { format_version: 1, entity: 'Ville', table: 'villes', primary_key: key(), fields: [{ name: 'nom', sql_type: 'VARCHAR(100)' }] },
    [TAG]: { format_version: 1, entity: 'Tag', table: 'tags', primary_key: key(), fields: [{ name: 'libelle', sql_type: 'VARCHAR(50)' }] },
    [NOTE]: {
      format_version: 1,
      entity: 'Note',
      table: 'notes',
      primary_key: key(),
      fields: [
        { name: 'titre', sql_type: 'VARCHAR(100)' },
        { name: 'texte', sql_type: 'TEXT', nullable: true },
        { name: 'jour', sql_type: 'DATE' },
        { name: 'montant', sql_type: 'DECIMAL(10,2)' },
      ],
    },
    [RELATIONS]: {
      format_version: 1,
      relations: [
        { name: 'contact_ville', type: 'many_to_one', from_entity: 'Contact', from_field: 'ville_id', to_entity: 'Ville', to_field: 'id' },
        { name: 'contact_tag', type: 'many_to_many', from_entity: 'Contact', from_field: 'id', to_entity: 'Tag', to_field: 'id' },
      ],
    },
  });
}

function compile(files: Files): CompileResult {
  return compileSources(Object.entries(files).map(([file, doc]) => ({ file, text: typeof doc === 'string' ? doc : JSON.stringify(doc, null, 2) })));
}

const doc = (files: Files, file: string): Doc => files[file] as Doc;
const note = (files: Files): Doc => doc(files, NOTE);
const relation = (files: Files, i: number): Doc => doc(files, RELATIONS).relations[i];

interface Want {
  readonly file: string;
  readonly pointer: string;
  readonly code: string;
  /** Substrings of the message: the culprit, and the way out. */
  readonly says: readonly string[];
}

interface Case {
  readonly name: string;
  readonly edit: (files: Files) => void;
  readonly want: readonly Want[];
}

const FILTERABLE = 'VARCHAR, CHAR, INT, BIGINT, SMALLINT, TINYINT, MEDIUMINT, BOOL, BOOLEAN';

const cases: Case[] = [
  // ---- structure (JSON Schema, translated) ----
  {
    name: 'unknown key in a field',
    edit: (f) => (note(f).fields[0].filtre = true),
    want: [
      {
        file: NOTE,
        pointer: '#/fields/0/filtre',
        code: 'schema',
        says: ['clé inconnue « filtre »', 'clés permises : name, sql, renamed_from, label, python_type'],
      },
    ],
  },
  {
    name: 'misspelt top-level key, with a suggestion',
    edit: (f) => {
      note(f).tabel = note(f).table;
      delete note(f).table;
    },
    want: [
      { file: NOTE, pointer: '#/tabel', code: 'schema', says: ['clé inconnue « tabel »', 'vouliez-vous dire « table »'] },
      { file: NOTE, pointer: '#', code: 'schema', says: ['clé obligatoire « table » manquante'] },
    ],
  },
  {
    name: 'unknown key under list',
    edit: (f) => (note(f).fields[0].list = { filtre: true }),
    want: [
      {
        file: NOTE,
        pointer: '#/fields/0/list/filtre',
        code: 'schema',
        says: ['clé inconnue « filtre »', 'vouliez-vous dire « filter »', 'clés permises : filter'],
      },
    ],
  },
  {
    name: 'wrong type: nullable as a string',
    edit: (f) => (note(f).fields[0].nullable = 'oui'),
    want: [{ file: NOTE, pointer: '#/fields/0/nullable', code: 'schema', says: ['« nullable » doit être un booléen', 'pas la chaîne « oui »'] }],
  },
  {
    name: 'wrong type: fields is an object',
    edit: (f) => (note(f).fields = { titre: 'VARCHAR(100)' }),
    want: [{ file: NOTE, pointer: '#/fields', code: 'schema', says: ['« fields » doit être une liste'] }],
  },
  {
    name: 'wrong type: max_length as a string',
    edit: (f) => (note(f).fields[0].constraints = { max_length: '50' }),
    want: [{ file: NOTE, pointer: '#/fields/0/constraints/max_length', code: 'schema', says: ['« max_length » doit être un nombre entier'] }],
  },
  {
    name: 'missing entity',
    edit: (f) => delete doc(f, CONTACT).entity,
    // The relations naming Contact are not reported as unknown: the file's own error says what to fix.
    want: [{ file: CONTACT, pointer: '#', code: 'schema', says: ['clé obligatoire « entity » manquante', '"entity": "Contact"'] }],
  },
  {
    name: 'missing sql_type in a field',
    edit: (f) => delete note(f).fields[0].sql_type,
    want: [{ file: NOTE, pointer: '#/fields/0', code: 'schema', says: ['clé obligatoire « sql_type » manquante', '"sql_type": "INT"'] }],
  },
  {
    name: 'format_version other than 1',
    edit: (f) => (note(f).format_version = 2),
    want: [{ file: NOTE, pointer: '#/format_version', code: 'schema', says: ['« format_version » doit valoir 1'] }],
  },
  {
    name: 'python_type outside the enum, with a suggestion',
    edit: (f) => (note(f).primary_key.python_type = 'integer'),
    want: [
      {
        file: NOTE,
        pointer: '#/primary_key/python_type',
        code: 'schema',
        says: ['« python_type » vaut la chaîne « integer »', 'int, str, bool, float, Decimal, date, datetime, time, bytes', 'vouliez-vous dire « int »'],
      },
    ],
  },
  {
    name: 'identifier longer than 64 characters',
    edit: (f) => (note(f).table = `notes_${'x'.repeat(60)}`),
    want: [{ file: NOTE, pointer: '#/table', code: 'identifier_length', says: ['« table » compte 66 caractères, 64 au plus'] }],
  },
  {
    name: 'rbac: unknown permission and a role twice',
    edit: (f) => (note(f).rbac = { permissions: { index: ['admin', 'admin'], destroy: ['admin'] } }),
    want: [
      { file: NOTE, pointer: '#/rbac/permissions/destroy', code: 'schema', says: ['clé inconnue « destroy »', 'index, show, create, update, delete, export'] },
      { file: NOTE, pointer: '#/rbac/permissions/index', code: 'schema', says: ['« index » contient la chaîne « admin » en double'] },
    ],
  },
  // ---- JSON syntax ----
  {
    name: 'JSON syntax error: trailing comma (line and column)',
    edit: (f) => (f[NOTE] = '{\n  "format_version": 1,\n  "entity": "Note",\n}\n'),
    want: [{ file: NOTE, pointer: '#', code: 'json_syntax', says: ['JSON invalide (ligne 4, colonne 1)', 'virgule en trop avant « } »'] }],
  },
  {
    name: 'JSON syntax error: missing comma inside a field',
    edit: (f) => (f[NOTE] = '{\n  "fields": [\n    { "name": "titre" "sql_type": "INT" }\n  ]\n}'),
    want: [{ file: NOTE, pointer: '#/fields/0', code: 'json_syntax', says: ['ligne 3, colonne 23', '« , » ou « } » attendu après la valeur de « name »'] }],
  },
  {
    name: 'JSON syntax error in an entity that relations name: only the syntax error',
    edit: (f) => (f[CONTACT] = "{ 'entity': 'Contact' }"),
    want: [{ file: CONTACT, pointer: '#', code: 'json_syntax', says: ['ligne 1, colonne 3', 'guillemets doubles'] }],
  },
  {
    name: 'empty file',
    edit: (f) => (f[NOTE] = '  \n'),
    want: [{ file: NOTE, pointer: '#', code: 'json_syntax', says: ['le fichier est vide'] }],
  },
  {
    name: 'a key repeated in one object',
    edit: (f) => (f[NOTE] = JSON.stringify(note(f)).replace('"table":"notes"', '"table":"notes","table":"carnets"')),
    want: [{ file: NOTE, pointer: '#/table', code: 'duplicate_key', says: ['clé « table » répétée'] }],
  },
  // ---- naming ----
  {
    name: 'camelCase table',
    edit: (f) => (note(f).table = 'carnetNotes'),
    want: [{ file: NOTE, pointer: '#/table', code: 'naming', says: ['nom de table « carnetNotes »', 'snake_case', '« carnet_notes »'] }],
  },
  {
    name: 'field name not in snake_case',
    edit: (f) => (note(f).fields[0].name = 'TitreCourt'),
    want: [{ file: NOTE, pointer: '#/fields/0/name', code: 'naming', says: ['nom de champ « TitreCourt »', 'snake_case', '« titre_court »'] }],
  },
  {
    name: 'a field name with an accent: the suggestion transliterates it (prenom, not prnom)',
    edit: (f) => (note(f).fields[0].name = 'prénom'),
    want: [{ file: NOTE, pointer: '#/fields/0/name', code: 'naming', says: ['nom de champ « prénom »', 'snake_case', '« prenom »'] }],
  },
  {
    name: 'a column with accents and a ligature: Prenom, Coeur',
    edit: (f) => (note(f).fields[0].sql = 'Prénom_cœur'),
    want: [{ file: NOTE, pointer: '#/fields/0/sql', code: 'naming', says: ['nom de colonne « Prénom_cœur »', 'PascalCase', '« PrenomCoeur »'] }],
  },
  {
    name: 'column in snake_case instead of PascalCase',
    edit: (f) => (note(f).fields[0].sql = 'titre_court'),
    want: [{ file: NOTE, pointer: '#/fields/0/sql', code: 'naming', says: ['nom de colonne « titre_court »', 'PascalCase', '« TitreCourt »'] }],
  },
  {
    name: 'entity name in snake_case',
    edit: (f) => (note(f).entity = 'note'),
    want: [{ file: NOTE, pointer: '#/entity', code: 'naming', says: ["nom d'entité « note »", 'PascalCase', '« Note »'] }],
  },
  {
    name: 'relation name not in snake_case',
    edit: (f) => (relation(f, 0).name = 'ContactVille'),
    want: [{ file: RELATIONS, pointer: '#/relations/0/name', code: 'naming', says: ['nom de relation « ContactVille »', '« contact_ville »'] }],
  },
  {
    name: 'entity file in the wrong folder',
    edit: (f) => {
      f['mvc/entities/notes/notes.json'] = note(f);
      delete f[NOTE];
    },
    want: [{ file: 'mvc/entities/notes/notes.json', pointer: '#/entity', code: 'file_name', says: ['« Note »', 'mvc/entities/note/note.json'] }],
  },
  {
    name: 'entity file directly under mvc/entities',
    edit: (f) => {
      f['mvc/entities/note.json'] = note(f);
      delete f[NOTE];
    },
    want: [{ file: 'mvc/entities/note.json', pointer: '#', code: 'file_location', says: ['fichier mal placé', 'mvc/entities/note/note.json'] }],
  },
  {
    name: 'table with the framework prefix',
    edit: (f) => (note(f).table = 'fw_notes'),
    want: [{ file: NOTE, pointer: '#/table', code: 'framework_table', says: ['« fw_notes »', 'préfixe fw_', '« notes »'] }],
  },
  // ---- labels ----
  {
    name: 'label: blank',
    edit: (f) => (note(f).fields[0].label = '   '),
    want: [{ file: NOTE, pointer: '#/fields/0/label', code: 'label', says: ['« label »', 'non blanc'] }],
  },
  {
    name: 'label: two lines',
    edit: (f) => (note(f).fields[0].label = 'Prénom\nNom'),
    want: [{ file: NOTE, pointer: '#/fields/0/label', code: 'label', says: ['« label »', 'sur une ligne'] }],
  },
  {
    name: 'label: longer than 100 characters',
    edit: (f) => (note(f).fields[0].label = 'é'.repeat(101)),
    want: [{ file: NOTE, pointer: '#/fields/0/label', code: 'label', says: ['101 caractères, 100 au plus'] }],
  },
  {
    name: 'label: empty',
    edit: (f) => (note(f).fields[0].label = ''),
    want: [{ file: NOTE, pointer: '#/fields/0/label', code: 'label', says: ['« label »', 'non blanc'] }],
  },
  // ---- reserved words ----
  {
    name: 'reserved word: entity Order',
    edit: (f) => {
      f['mvc/entities/order/order.json'] = { ...note(f), entity: 'Order', table: 'commandes' };
      delete f[NOTE];
    },
    want: [{ file: 'mvc/entities/order/order.json', pointer: '#/entity', code: 'reserved_word', says: ["nom d'entité « Order »", 'mot réservé SQL'] }],
  },
  {
    name: 'reserved word: table order (the suggestion orders is allowed)',
    edit: (f) => (note(f).table = 'order'),
    want: [{ file: NOTE, pointer: '#/table', code: 'reserved_word', says: ['table « order »', 'mot réservé SQL', '« orders »'] }],
  },
  {
    name: 'reserved word: table group (the suggestion groups is reserved by MySQL 8.0, so none is given)',
    edit: (f) => (note(f).table = 'group'),
    want: [{ file: NOTE, pointer: '#/table', code: 'reserved_word', says: ['table « group »', 'choisissez un autre nom'] }],
  },
  {
    name: 'reserved word: table position (MariaDB reads « position ( » as a function call; a column may be named so)',
    edit: (f) => (note(f).table = 'position'),
    want: [{ file: NOTE, pointer: '#/table', code: 'reserved_word', says: ['table « position »', 'mot réservé SQL', '« positions »'] }],
  },
  {
    name: 'reserved word: table key (the suggestion keys is reserved too, so none is given)',
    edit: (f) => (note(f).table = 'key'),
    want: [{ file: NOTE, pointer: '#/table', code: 'reserved_word', says: ['table « key »', 'choisissez un autre nom'] }],
  },
  {
    name: 'reserved word: field select (its column Select is not reported twice)',
    edit: (f) => (note(f).fields[0].name = 'select'),
    want: [{ file: NOTE, pointer: '#/fields/0/name', code: 'reserved_word', says: ['champ « select »', 'mot réservé SQL'] }],
  },
  {
    name: 'reserved word: column Rank (reserved by MySQL 8.0 only)',
    edit: (f) => note(f).fields.push({ name: 'classement', sql: 'Rank', sql_type: 'INT' }),
    want: [{ file: NOTE, pointer: '#/fields/4/sql', code: 'reserved_word', says: ['colonne « Rank »', 'mot réservé SQL', 'changez « sql »'] }],
  },

  {
    name: 'reserved word: derived column Int1 of field int_1',
    edit: (f) => note(f).fields.push({ name: 'int_1', sql_type: 'INT' }),
    want: [{ file: NOTE, pointer: '#/fields/4/name', code: 'reserved_word', says: ['colonne « Int1 »', 'donnez une autre colonne avec « sql »'] }],
  },
  {
    name: 'reserved word: pivot table order',
    edit: (f) => (relation(f, 1).name = 'order'),
    want: [{ file: RELATIONS, pointer: '#/relations/1/name', code: 'reserved_word', says: ['table pivot « order »', 'mot réservé SQL'] }],
  },
  // ---- primary key ----
  {
    name: 'no primary key',
    edit: (f) => delete note(f).primary_key,
    want: [{ file: NOTE, pointer: '#', code: 'primary_key', says: ['aucune clé primaire', '"primary_key": {"name": "id", "sql_type": "INT"}'] }],
  },
  {
    name: 'two primary keys: the object and a field',
    edit: (f) => note(f).fields.push({ name: 'numero', sql_type: 'INT', primary_key: true }),
    want: [{ file: NOTE, pointer: '#/fields/4/primary_key', code: 'primary_key', says: ['clé primaire déclarée deux fois', '« id »', '« numero »'] }],
  },
  {
    name: 'two primary keys: two fields',
    edit: (f) => {
      delete note(f).primary_key;
      note(f).fields.push({ name: 'id', sql_type: 'INT', primary_key: true }, { name: 'numero', sql_type: 'INT', primary_key: true });
    },
    want: [{ file: NOTE, pointer: '#/fields/5/primary_key', code: 'primary_key', says: ['composite non prise en charge', '« numero »'] }],
  },
  {
    name: 'composite key attempt: primary_key as a list',
    edit: (f) =>
      (note(f).primary_key = [
        { name: 'a', sql_type: 'INT' },
        { name: 'b', sql_type: 'INT' },
      ]),
    want: [{ file: NOTE, pointer: '#/primary_key', code: 'primary_key', says: ['clé primaire composite non prise en charge', 'une seule clé simple'] }],
  },
  {
    name: 'composite key attempt: a list of names',
    edit: (f) => (note(f).primary_key = { name: ['a', 'b'], sql_type: 'INT' }),
    want: [{ file: NOTE, pointer: '#/primary_key/name', code: 'primary_key', says: ['clé primaire composite non prise en charge'] }],
  },
  {
    name: 'primary key that is not an integer',
    edit: (f) => (note(f).primary_key = { name: 'code', sql_type: 'VARCHAR(10)' }),
    want: [
      { file: NOTE, pointer: '#/primary_key/sql_type', code: 'primary_key', says: ['clé primaire « code » de type VARCHAR(10)', 'un entier est attendu'] },
    ],
  },
  {
    name: 'nullable primary key',
    edit: (f) => {
      delete note(f).primary_key;
      note(f).fields.unshift({ name: 'id', sql_type: 'INT', primary_key: true, nullable: true });
    },
    want: [{ file: NOTE, pointer: '#/fields/0/nullable', code: 'primary_key', says: ['clé primaire « id »', 'ne peut pas être NULL'] }],
  },
  {
    name: 'auto_increment on a field that is not the key',
    edit: (f) => note(f).fields.push({ name: 'rang', sql_type: 'INT', auto_increment: true }),
    want: [
      { file: NOTE, pointer: '#/fields/4/auto_increment', code: 'auto_increment', says: ['champ « rang »', "n'est permis que sur une clé primaire entière"] },
    ],
  },
  // ---- fields ----
  {
    name: 'unknown SQL type',
    edit: (f) => (note(f).fields[0].sql_type = 'STRING'),
    want: [{ file: NOTE, pointer: '#/fields/0/sql_type', code: 'sql_type', says: ['champ « titre »', 'type SQL inconnu « STRING »', 'VARCHAR(n)'] }],
  },
  {
    name: 'VARCHAR without length',
    edit: (f) => (note(f).fields[0].sql_type = 'VARCHAR'),
    want: [{ file: NOTE, pointer: '#/fields/0/sql_type', code: 'sql_type', says: ['champ « titre »', 'VARCHAR exige une longueur', 'VARCHAR(100)'] }],
  },
  ...(
    [
      [1, 'TEXT'],
      [2, 'DATE'],
      [3, 'DECIMAL(10,2)'],
    ] as const
  ).map(([i, type]): Case => ({
    name: `list.filter on ${type}`,
    edit: (f) => (note(f).fields[i].list = { filter: true }),
    want: [
      {
        file: NOTE,
        pointer: `#/fields/${i}/list/filter`,
        code: 'filter_type',
        says: [`filtre de liste impossible sur le type ${type}`, `types filtrables : ${FILTERABLE}`],
      },
    ],
  })),
  ...(['q', 'page', 'sort', 'direction'] as const).map((name): Case => ({
    name: `a filter named like a list parameter (${name})`,
    edit: (f) => {
      note(f).fields[0].name = name;
      note(f).fields[0].list = { filter: true };
    },
    want: [
      { file: NOTE, pointer: '#/fields/0/list/filter', code: 'filter_name', says: [`champ « ${name} »`, 'déjà un paramètre de la liste', 'renommez le champ'] },
    ],
  })),
  {
    name: 'max_length beyond the VARCHAR length',
    edit: (f) => (note(f).fields[0].constraints = { max_length: 200 }),
    want: [{ file: NOTE, pointer: '#/fields/0/constraints/max_length', code: 'max_length', says: ['max_length 200 dépasse', 'VARCHAR(100)', 'au plus 100'] }],
  },
  {
    name: 'max_length on a date',
    edit: (f) => (note(f).fields[2].constraints = { max_length: 10 }),
    want: [{ file: NOTE, pointer: '#/fields/2/constraints/max_length', code: 'max_length', says: ['champ « jour »', 'types texte', 'DATE'] }],
  },
  {
    name: 'python_type that does not fit the SQL type',
    edit: (f) => (note(f).fields[0].python_type = 'int'),
    want: [{ file: NOTE, pointer: '#/fields/0/python_type', code: 'python_type', says: ['python_type « int »', 'VARCHAR(100)', 'écrivez str'] }],
  },
  {
    name: 'duplicate field name',
    edit: (f) => (note(f).fields[1].name = 'titre'),
    want: [{ file: NOTE, pointer: '#/fields/1/name', code: 'duplicate_field', says: ['champ « titre » en double', '#/fields/0'] }],
  },
  {
    name: 'field with the name of the key',
    edit: (f) => note(f).fields.push({ name: 'id', sql_type: 'INT' }),
    want: [{ file: NOTE, pointer: '#/fields/4/name', code: 'duplicate_field', says: ['champ « id » en double', '#/primary_key'] }],
  },
  {
    name: 'duplicate column (case-insensitive)',
    edit: (f) => (note(f).fields[1].sql = 'TITRE'),
    want: [{ file: NOTE, pointer: '#/fields/1/sql', code: 'duplicate_column', says: ['colonne « TITRE »', 'le champ « titre »'] }],
  },
  // ---- media ----
  {
    name: 'bad media field',
    edit: (f) => (note(f).media = [{ name: 'photo', field: 'video' }]),
    want: [{ file: NOTE, pointer: '#/media/0/field', code: 'schema', says: ['« field » vaut la chaîne « video »', 'valeurs permises : image, file'] }],
  },
  {
    name: 'media variants on a file',
    edit: (f) => (note(f).media = [{ name: 'piece', field: 'file', variants: true }]),
    want: [{ file: NOTE, pointer: '#/media/0/variants', code: 'media', says: ['média « piece »', 'field: image'] }],
  },
  {
    name: 'media named like a field, and a media twice',
    edit: (f) =>
      (note(f).media = [
        { name: 'titre', field: 'image' },
        { name: 'photo', field: 'image' },
        { name: 'photo', field: 'image', role: 'autre' },
      ]),
    want: [
      { file: NOTE, pointer: '#/media/0/name', code: 'media', says: ['média « titre »', 'un champ'] },
      { file: NOTE, pointer: '#/media/2/name', code: 'media', says: ['média « photo » en double'] },
    ],
  },
  // ---- project-wide ----
  {
    name: 'two entities with the same name',
    edit: (f) => (f['other/note.json'] = { ...note(f), table: 'autres_notes' }),
    want: [{ file: 'other/note.json', pointer: '#/entity', code: 'duplicate_entity', says: ['entité « Note » déjà définie', NOTE] }],
  },
  {
    name: 'two entities with the same table',
    edit: (f) => (doc(f, TAG).table = 'notes'),
    want: [{ file: TAG, pointer: '#/table', code: 'duplicate_table', says: ['table « notes »', '« Note »'] }],
  },
  {
    name: 'two entities with the same plural',
    edit: (f) => (doc(f, TAG).plural = 'notes'),
    want: [{ file: TAG, pointer: '#/plural', code: 'duplicate_plural', says: ['pluriel « notes »', '« Note »'] }],
  },
  {
    name: "a derived plural equal to another entity's plural",
    edit: (f) => {
      note(f).plural = 'tags';
    },
    want: [{ file: TAG, pointer: '#/entity', code: 'duplicate_plural', says: ['pluriel « tags » (déduit du nom)', '« Note »', '« plural »'] }],
  },
  // ---- what the framework owns, and the limits (docs/entities.md "Limits and reserved names") ----
  {
    name: 'an entity whose controller would be the framework’s (Base → BaseController)',
    edit: (f) => {
      delete f[NOTE];
      f['mvc/entities/base/base.json'] = { format_version: 1, entity: 'Base', table: 'bases', primary_key: key(), fields: [] };
    },
    want: [{ file: 'mvc/entities/base/base.json', pointer: '#/entity', code: 'framework_name', says: ['« BaseController »', 'choisissez un autre nom'] }],
  },
  {
    name: 'a table with SQLite’s prefix, and one with the suffix of the SQLite rebuild',
    edit: (f) => {
      note(f).table = 'sqlite_notes';
      doc(f, TAG).table = 'tags__fw_new';
    },
    want: [
      { file: NOTE, pointer: '#/table', code: 'framework_table', says: ['préfixe sqlite_', '« notes »'] },
      { file: TAG, pointer: '#/table', code: 'framework_table', says: ['suffixe __fw_new', '« tags »'] },
    ],
  },
  {
    name: 'the plural `account` (the auth module answers /account/…)',
    edit: (f) => (note(f).plural = 'account'),
    want: [{ file: NOTE, pointer: '#/plural', code: 'framework_path', says: ['pluriel « account »', 'module'] }],
  },
  {
    name: 'a pivot whose row is over 65,535 bytes',
    edit: (f) => {
      relation(f, 1).pivot_fields = [
        { name: 'a', sql_type: 'VARCHAR(10000)' },
        { name: 'b', sql_type: 'VARCHAR(10000)' },
      ];
    },
    want: [
      { file: RELATIONS, pointer: '#/relations/1/pivot_fields', code: 'sql_limit', says: ['table pivot « contact_tag »', '80\u202f012 octets', '65\u202f535'] },
    ],
  },
  {
    name: 'more than 200 relations',
    edit: (f) => {
      const one = relation(f, 0);
      doc(f, RELATIONS).relations = Array.from({ length: 201 }, (_, i) => ({ ...one, name: `r_${i}` }));
    },
    want: [{ file: RELATIONS, pointer: '#/relations', code: 'limit', says: ['201 relations', 'au plus 200'] }],
  },
  {
    name: 'more than 20 media',
    edit: (f) => (note(f).media = Array.from({ length: 21 }, (_, i) => ({ name: `photo_${i}`, field: 'image' }))),
    want: [{ file: NOTE, pointer: '#/media', code: 'limit', says: ['21 médias', 'au plus 20'] }],
  },
  // ---- relations ----
  {
    name: 'FK INT → BIGINT refused',
    edit: (f) => (doc(f, CONTACT).fields[1].sql_type = 'BIGINT'),
    want: [
      {
        file: RELATIONS,
        pointer: '#/relations/0/from_field',
        code: 'fk_type',
        says: ['« Contact.ville_id » est BIGINT', '« Ville.id » est INT', '"sql_type": "INT"'],
      },
    ],
  },
  {
    name: 'FK INT → INT UNSIGNED refused',
    edit: (f) => (doc(f, CONTACT).fields[1].sql_type = 'INT UNSIGNED'),
    want: [{ file: RELATIONS, pointer: '#/relations/0/from_field', code: 'fk_type', says: ['« Contact.ville_id » est INT UNSIGNED', '« Ville.id » est INT'] }],
  },
  {
    name: 'relation to an unknown entity',
    edit: (f) => (relation(f, 0).to_entity = 'Vile'),
    want: [
      {
        file: RELATIONS,
        pointer: '#/relations/0/to_entity',
        code: 'unknown_entity',
        says: ['entité inconnue « Vile »', 'vouliez-vous dire « Ville »', 'Contact, Note, Tag, Ville'],
      },
    ],
  },
  {
    name: 'relation to an unknown field',
    edit: (f) => (relation(f, 0).from_field = 'ville'),
    want: [
      {
        file: RELATIONS,
        pointer: '#/relations/0/from_field',
        code: 'unknown_field',
        says: ["l'entité « Contact » n'a pas de champ « ville »", 'vouliez-vous dire « ville_id »', 'champs : id, nom, ville_id'],
      },
    ],
  },
  {
    name: 'SET NULL on a non-nullable FK',
    edit: (f) => {
      doc(f, CONTACT).fields[1].nullable = false;
      relation(f, 0).on_delete = 'SET NULL';
    },
    want: [{ file: RELATIONS, pointer: '#/relations/0/on_delete', code: 'set_null', says: ['SET NULL', '« Contact.ville_id »', '"nullable": true'] }],
  },
  {
    name: 'SET NULL on a many_to_many',
    edit: (f) => (relation(f, 1).on_update = 'SET NULL'),
    want: [{ file: RELATIONS, pointer: '#/relations/1/on_update', code: 'set_null', says: ['many_to_many'] }],
  },
  {
    name: 'on_delete outside the enum',
    edit: (f) => (relation(f, 0).on_delete = 'SET DEFAULT'),
    want: [{ file: RELATIONS, pointer: '#/relations/0/on_delete', code: 'schema', says: ['« on_delete »', 'RESTRICT, CASCADE, SET NULL, NO ACTION'] }],
  },
  {
    name: 'relation type outside the enum',
    edit: (f) => (relation(f, 0).type = 'one_to_many'),
    want: [{ file: RELATIONS, pointer: '#/relations/0/type', code: 'schema', says: ['« type » vaut la chaîne « one_to_many »', 'many_to_one, many_to_many'] }],
  },
  {
    name: 'duplicate relation name',
    edit: (f) => (relation(f, 1).name = 'contact_ville'),
    want: [{ file: RELATIONS, pointer: '#/relations/1/name', code: 'duplicate_relation', says: ['relation « contact_ville » en double', '#/relations/0'] }],
  },
  {
    name: 'many_to_one from the primary key',
    edit: (f) => (relation(f, 0).from_field = 'id'),
    want: [{ file: RELATIONS, pointer: '#/relations/0/from_field', code: 'fk_target', says: ['« Contact.id » est la clé primaire', 'ville_id'] }],
  },
  {
    name: 'many_to_one to a field neither key nor unique (and of another type)',
    edit: (f) => (relation(f, 0).to_field = 'nom'),
    want: [
      { file: RELATIONS, pointer: '#/relations/0/to_field', code: 'fk_target', says: ['« Ville.nom »', 'ni la clé primaire ni un champ unique'] },
      { file: RELATIONS, pointer: '#/relations/0/from_field', code: 'fk_type', says: ['INT', 'VARCHAR(100)'] },
    ],
  },
  {
    name: 'one field as the foreign key of two relations',
    edit: (f) => doc(f, RELATIONS).relations.push({ ...relation(f, 0), name: 'contact_ville_bis' }),
    want: [
      { file: RELATIONS, pointer: '#/relations/2/from_field', code: 'fk_target', says: ['« Contact.ville_id » est déjà la clé étrangère'] },
      { file: RELATIONS, pointer: '#/relations/2', code: 'duplicate_constraint', says: ['« fk_contacts_villeid » déjà utilisé'] },
    ],
  },
  {
    name: 'constraint name used twice',
    edit: (f) => {
      relation(f, 0).foreign_key_name = 'fk_x_contacts';
      relation(f, 1).foreign_key_name = 'fk_x';
    },
    want: [{ file: RELATIONS, pointer: '#/relations/1/foreign_key_name', code: 'duplicate_constraint', says: ['« fk_x_contacts » déjà utilisé'] }],
  },
  {
    name: 'derived constraint names longer than 64 characters',
    edit: (f) => (doc(f, CONTACT).table = `contacts_${'x'.repeat(50)}`),
    want: [
      { file: RELATIONS, pointer: '#/relations/0', code: 'identifier_length', says: ['dépasse 64 caractères', 'foreign_key_name'] },
      { file: RELATIONS, pointer: '#/relations/1/name', code: 'identifier_length', says: ['dépasse 64 caractères', 'foreign_key_name'] },
    ],
  },
  {
    name: 'many_to_many between fields that are not keys',
    edit: (f) => (relation(f, 1).to_field = 'libelle'),
    want: [{ file: RELATIONS, pointer: '#/relations/1/to_field', code: 'fk_target', says: ['« Tag.libelle »', 'relie les clés primaires', '« id »'] }],
  },
  {
    name: 'pivot table named like an entity table',
    edit: (f) => (relation(f, 1).name = 'notes'),
    want: [{ file: RELATIONS, pointer: '#/relations/1/name', code: 'pivot', says: ['table pivot « notes »', '« Note »'] }],
  },
  {
    name: 'many_to_many of an entity with itself, its sides not named',
    edit: (f) => Object.assign(relation(f, 1), { to_entity: 'Contact' }),
    want: [{ file: RELATIONS, pointer: '#/relations/1', code: 'pivot', says: ['« Contact » vers elle-même', '« from_name » et « to_name »'] }],
  },
  {
    name: 'side names on a relation between two entities',
    edit: (f) => Object.assign(relation(f, 1), { from_name: 'source' }),
    want: [
      {
        file: RELATIONS,
        pointer: '#/relations/1/from_name',
        code: 'pivot',
        says: ["ne s'applique qu'à une relation many_to_many d'une entité vers elle-même"],
      },
    ],
  },
  {
    name: 'pivot_fields on a many_to_one',
    edit: (f) => (relation(f, 0).pivot_fields = [{ name: 'depuis', sql_type: 'DATE' }]),
    want: [{ file: RELATIONS, pointer: '#/relations/0/pivot_fields', code: 'pivot', says: ['many_to_many'] }],
  },
  {
    name: 'bad pivot fields: a key, an unknown type, a duplicate',
    edit: (f) =>
      (relation(f, 1).pivot_fields = [
        { name: 'depuis', sql_type: 'DATE', primary_key: true },
        { name: 'note', sql_type: 'NOTE' },
        { name: 'depuis', sql_type: 'DATE' },
      ]),
    want: [
      { file: RELATIONS, pointer: '#/relations/1/pivot_fields/0/primary_key', code: 'primary_key', says: ['champ pivot « depuis »'] },
      { file: RELATIONS, pointer: '#/relations/1/pivot_fields/1/sql_type', code: 'sql_type', says: ['champ pivot « note »', 'type SQL inconnu « NOTE »'] },
      { file: RELATIONS, pointer: '#/relations/1/pivot_fields/2/name', code: 'duplicate_field', says: ['champ pivot « depuis » en double'] },
    ],
  },
  {
    name: 'pivot field with the column of a side (<EntityName><KeyColumn>)',
    edit: (f) => (relation(f, 1).pivot_fields = [{ name: 'contact_id', sql_type: 'INT' }]),
    want: [
      {
        file: RELATIONS,
        pointer: '#/relations/1/pivot_fields/0/name',
        code: 'duplicate_column',
        says: ['champ pivot « contact_id »', '« ContactId »', '« Contact »'],
      },
    ],
  },
  {
    name: 'relations file: unknown key and missing relations',
    edit: (f) => (f[RELATIONS] = { format_version: 1, relation: [] }),
    want: [
      { file: RELATIONS, pointer: '#/relation', code: 'schema', says: ['clé inconnue « relation »', 'vouliez-vous dire « relations »'] },
      { file: RELATIONS, pointer: '#', code: 'schema', says: ['clé obligatoire « relations » manquante', '"relations": []'] },
    ],
  },
  {
    name: 'relation missing its target field',
    edit: (f) => delete relation(f, 0).to_field,
    want: [{ file: RELATIONS, pointer: '#/relations/0', code: 'schema', says: ['clé obligatoire « to_field » manquante', '"to_field": "id"'] }],
  },
];

const Bad = suite('compiler-diagnostics: each bad definition gives its diagnostic, and only it');

Bad('the base project is valid', () => {
  const result = compile(project());
  assert.is(formatDiagnostics(result.diagnostics), '');
  assert.equal(
    result.model?.entities.map((e) => e.name),
    ['Contact', 'Note', 'Tag', 'Ville'],
  );
});

const describe = (diags: readonly Diagnostic[]): string => diags.map((d) => `${d.file}${d.pointer} [${d.code}] ${d.message}`).join('\n');

for (const c of cases) {
  Bad(c.name, () => {
    const files = project();
    c.edit(files);
    const result = compile(files);
    assert.is(result.model, null, 'no model when anything is wrong');
    assert.is(result.diagnostics.length, c.want.length, `expected ${c.want.length} diagnostic(s), got:\n${describe(result.diagnostics)}`);
    for (const want of c.want) {
      const found = result.diagnostics.find((d) => d.file === want.file && d.pointer === want.pointer && d.code === want.code);
      assert.ok(found, `no ${want.code} at ${want.file}${want.pointer}; got:\n${describe(result.diagnostics)}`);
      for (const part of want.says) assert.ok(found?.message.includes(part), `« ${found?.message} » should contain « ${part} »`);
    }
  });
}

Bad('a label is trimmed and kept with its accents in the model', () => {
  const files = project();
  note(files).fields[0].label = "  Titre de l'œuvre ";
  const result = compile(files);
  assert.equal(result.diagnostics, [], describe(result.diagnostics));
  assert.is(result.model?.entities.find((e) => e.name === 'Note')?.fields.find((f) => f.pointer === '#/fields/0')?.label, "Titre de l'œuvre");
});

Bad('field position and column User are accepted: MariaDB 10.6+ and MySQL 8.0 take them unquoted (docs/decisions.md#reserved-words)', () => {
  const files = project();
  note(files).fields.push({ name: 'position', sql_type: 'INT' });
  note(files).fields.push({ name: 'utilisateur', sql: 'User', sql_type: 'VARCHAR(50)' });
  const result = compile(files);
  assert.equal(result.diagnostics, [], describe(result.diagnostics));
  const fields = result.model?.entities.find((e) => e.name === 'Note')?.fields.map((f) => f.column);
  assert.ok(fields?.includes('Position') && fields.includes('User'), String(fields));
});

Bad('FK INT(11) → INT is accepted (display width dropped)', () => {
  const files = project();
  doc(files, CONTACT).fields[1].sql_type = 'INT(11)';
  doc(files, VILLE).primary_key.sql_type = 'int';
  const result = compile(files);
  assert.equal(result.diagnostics, []);
  assert.is(result.model?.entities.find((e) => e.name === 'Contact')?.fields.find((x) => x.name === 'ville_id')?.sqlType.text, 'INT');
});

Bad('several errors in several files are reported at once, sorted', () => {
  const files = project();
  Object.assign(note(files), { table: 'group', couleur: 'bleu' });
  note(files).fields[0].sql_type = 'VARCHAR';
  note(files).fields[2].list = { filter: true };
  relation(files, 0).to_entity = 'Ville2';
  doc(files, TAG).fields[0].name = 'Libelle';
  const result = compile(files);
  assert.is(result.model, null);
  assert.equal(
    result.diagnostics.map((d) => `${d.file}${d.pointer} ${d.code}`),
    [
      `${NOTE}#/couleur schema`,
      `${NOTE}#/fields/0/sql_type sql_type`,
      `${NOTE}#/fields/2/list/filter filter_type`,
      `${NOTE}#/table reserved_word`,
      `${RELATIONS}#/relations/0/to_entity unknown_entity`,
      `${TAG}#/fields/0/name naming`,
    ],
  );
  const lines = formatDiagnostics(result.diagnostics).trimEnd().split('\n');
  assert.is(lines.length, 6);
  for (const line of lines) assert.match(line, /^\[ERREUR\] mvc\/entities\/\S+\.json#\S* : \S/);
  assert.is(
    lines[0],
    `[ERREUR] ${NOTE}#/couleur : clé inconnue « couleur » : retirez-la ou corrigez son nom (clés permises : $schema, format_version, entity, table, description, label, label_plural, display, plural, primary_key, fields, media, rbac)`,
  );
});

Bad('diagnostics are frozen values with file, pointer, message and code', () => {
  const files = project();
  note(files).table = 'group';
  const [d] = compile(files).diagnostics;
  assert.ok(d && Object.isFrozen(d));
  assert.equal(Object.keys(d ?? {}).sort(), ['code', 'file', 'message', 'pointer']);
});

Bad.run();
