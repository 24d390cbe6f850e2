/** A valid project compiles into the expected, deeply frozen intermediate model (docs/entities.md). */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  compileProject,
  compileSources,
  defaultPlural,
  entityNameFrom,
  humanLabel,
  findEntity,
  formatDiagnostics,
  manyToOneFrom,
  pascalCase,
  snakeCase,
  toEntityFileName,
  type EntityNode,
  type FieldNode,
  type ModelNode,
} from '../compiler/index.js';

/** The fixture folder, found from the source (`test/`) or the compiled test (`dist/test/`). */
function fixture(name: string): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(dir, 'test', 'fixtures', 'entities', name);
    if (fs.existsSync(candidate)) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`fixture ${name} not found`);
    dir = parent;
  }
}

function compileValid(): ModelNode {
  const result = compileProject(fixture('valid'));
  assert.is(formatDiagnostics(result.diagnostics), '', 'no diagnostic');
  assert.ok(result.model, 'a model');
  return result.model as ModelNode;
}

const entity = (model: ModelNode, name: string): EntityNode => {
  const found = findEntity(model, name);
  if (!found) throw new Error(`no entity ${name}`);
  return found;
};

/** A field without its `kind`, `sqlType` reduced to its text: the comparable part. */
const summary = (f: FieldNode) => ({
  name: f.name,
  column: f.column,
  logicalType: f.logicalType,
  sql: f.sqlType.text,
  nullable: f.nullable,
  unique: f.unique,
  primaryKey: f.primaryKey,
  autoIncrement: f.autoIncrement,
  notEmpty: f.notEmpty,
  maxLength: f.maxLength,
  filter: f.filter,
  pointer: f.pointer,
});

const base = { nullable: false, unique: false, primaryKey: false, autoIncrement: false, notEmpty: false, maxLength: null, filter: false };

const Model = suite('compiler-model: the valid fixture project');

Model('entities are sorted by name, with snake, table, plural, description and file', () => {
  const model = compileValid();
  assert.is(model.kind, 'model');
  assert.equal(
    model.entities.map((e) => [e.name, e.snake, e.table, e.plural, e.description, e.file]),
    [
      ['Contact', 'contact', 'contacts', 'contacts', 'Personnes à recontacter', 'mvc/entities/contact/contact.json'],
      ['Tag', 'tag', 'tags', 'etiquettes', '', 'mvc/entities/tag/tag.json'],
      ['Ville', 'ville', 'villes', 'villes', 'Communes', 'mvc/entities/ville/ville.json'],
    ],
  );
});

Model('Contact: key from a field, derived columns, logical types, maxLength, filters', () => {
  const contact = entity(compileValid(), 'Contact');
  assert.equal(contact.fields.map(summary), [
    { ...base, name: 'id', column: 'Id', logicalType: 'int', sql: 'INT', primaryKey: true, autoIncrement: true, pointer: '#/fields/0' },
    { ...base, name: 'nom', column: 'Nom', logicalType: 'str', sql: 'VARCHAR(100)', notEmpty: true, maxLength: 80, filter: true, pointer: '#/fields/1' },
    { ...base, name: 'date_naissance', column: 'DateNaissance', logicalType: 'date', sql: 'DATE', nullable: true, pointer: '#/fields/2' },
    { ...base, name: 'email', column: 'Courriel', logicalType: 'str', sql: 'VARCHAR(255)', unique: true, maxLength: 255, pointer: '#/fields/3' },
    { ...base, name: 'actif', column: 'Actif', logicalType: 'bool', sql: 'TINYINT(1)', filter: true, pointer: '#/fields/4' },
    { ...base, name: 'solde', column: 'Solde', logicalType: 'decimal', sql: 'DECIMAL(10,2)', pointer: '#/fields/5' },
    { ...base, name: 'ville_id', column: 'VilleId', logicalType: 'int', sql: 'INT', nullable: true, filter: true, pointer: '#/fields/6' },
  ]);
  assert.is(contact.primaryKey, contact.fields[0], 'the key is the first field, the same node');
});

Model('every field carries its label: `label` from the file (accents kept), else the humanised name', () => {
  const model = compileValid();
  assert.equal(
    entity(model, 'Contact').fields.map((f) => f.label),
    ['Id', 'Nom', 'Date naissance', 'Adresse électronique', 'Actif', 'Solde', 'Ville'],
  );
  assert.equal(
    entity(model, 'Ville').fields.map((f) => f.label),
    ['Id', 'Nom', 'Code postal'],
  );
  const pivot = model.relations.find((r) => r.type === 'many_to_many');
  assert.equal(
    pivot?.pivotFields.map((f) => f.label),
    ['Ajoute le'],
  );
});

Model('Ville and Tag: key from the primary_key object, placed first; unsigned key; CHAR length', () => {
  const model = compileValid();
  const ville = entity(model, 'Ville');
  assert.equal(ville.fields.map(summary), [
    { ...base, name: 'id', column: 'Id', logicalType: 'int', sql: 'INT', primaryKey: true, autoIncrement: true, pointer: '#/primary_key' },
    { ...base, name: 'nom', column: 'Nom', logicalType: 'str', sql: 'VARCHAR(100)', notEmpty: true, maxLength: 100, filter: true, pointer: '#/fields/0' },
    { ...base, name: 'code_postal', column: 'CodePostal', logicalType: 'str', sql: 'CHAR(5)', unique: true, maxLength: 5, pointer: '#/fields/1' },
  ]);
  const tag = entity(model, 'Tag');
  assert.equal(summary(tag.primaryKey), {
    ...base,
    name: 'id',
    column: 'Id',
    logicalType: 'int',
    sql: 'BIGINT UNSIGNED',
    primaryKey: true,
    autoIncrement: true,
    pointer: '#/primary_key',
  });
  assert.equal(tag.primaryKey.sqlType, { kind: 'sql_type', base: 'BIGINT', args: [], unsigned: true, text: 'BIGINT UNSIGNED' });
});

Model('media and rbac', () => {
  const contact = entity(compileValid(), 'Contact');
  assert.equal(contact.media, [
    { kind: 'media', name: 'photo', field: 'image', role: 'cover', label: 'Photo', variants: true, multiple: false },
    { kind: 'media', name: 'pieces_jointes', field: 'file', role: 'pieces_jointes', label: 'Pieces jointes', variants: false, multiple: true },
  ]);
  assert.equal(contact.rbac, { kind: 'rbac', permissions: { index: ['admin', 'editeur'], delete: ['admin'] } });
  assert.is(entity(compileValid(), 'Ville').rbac, null);
  assert.equal(entity(compileValid(), 'Ville').media, []);
});

Model('relations: foreign-key names, defaults, pivot', () => {
  const model = compileValid();
  assert.equal(model.relations, [
    {
      kind: 'relation',
      name: 'contact_ville',
      type: 'many_to_one',
      fromEntity: 'Contact',
      fromField: 'ville_id',
      toEntity: 'Ville',
      toField: 'id',
      foreignKeyName: 'fk_contacts_villeid',
      onDelete: 'SET NULL',
      onUpdate: 'CASCADE',
      pivotTable: null,
      pivotFields: [],
      pointer: '#/relations/0',
    },
    {
      kind: 'relation',
      name: 'contact_tag',
      type: 'many_to_many',
      fromEntity: 'Contact',
      fromField: 'id',
      toEntity: 'Tag',
      toField: 'id',
      foreignKeyName: 'fk_contact_tag',
      onDelete: 'CASCADE',
      onUpdate: 'CASCADE',
      pivotTable: 'contact_tag',
      pivotFields: [
        {
          kind: 'field',
          name: 'ajoute_le',
          column: 'AjouteLe',
          label: 'Ajoute le',
          logicalType: 'datetime',
          sqlType: { kind: 'sql_type', base: 'DATETIME', args: [], unsigned: false, text: 'DATETIME' },
          nullable: true,
          unique: false,
          primaryKey: false,
          autoIncrement: false,
          notEmpty: false,
          maxLength: null,
          filter: false,
          pointer: '#/relations/1/pivot_fields/0',
        },
      ],
      pointer: '#/relations/1',
    },
  ]);
  assert.equal(
    manyToOneFrom(model, 'Contact').map((r) => r.name),
    ['contact_ville'],
  );
});

Model('the model is deeply frozen', () => {
  const model = compileValid();
  const unfrozen: string[] = [];
  const walk = (value: unknown, at: string): void => {
    if (value === null || typeof value !== 'object') return;
    if (!Object.isFrozen(value)) unfrozen.push(at);
    for (const [key, child] of Object.entries(value)) walk(child, `${at}.${key}`);
  };
  walk(model, 'model');
  assert.equal(unfrozen, []);
  const contact = entity(model, 'Contact');
  assert.throws(() => {
    (contact as { table: string }).table = 'x';
  }, TypeError);
  assert.throws(() => {
    (contact.fields as FieldNode[]).push(contact.primaryKey);
  }, TypeError);
  const result = compileProject(fixture('valid'));
  assert.ok(Object.isFrozen(result) && Object.isFrozen(result.diagnostics), 'the result too');
});

Model('compiling twice gives equal, independent models', () => {
  assert.equal(compileValid(), compileValid());
  assert.is.not(compileValid(), compileValid());
});

Model.run();

const Project = suite('compiler-model: compileProject and compileSources');

Project('no relations.json means no relations; no mvc/entities means an empty model', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-compiler-'));
  try {
    assert.equal(compileProject(root), { model: { kind: 'model', entities: [], relations: [] }, diagnostics: [] });
    const dir = path.join(root, 'mvc', 'entities', 'ville');
    fs.mkdirSync(dir, { recursive: true });
    fs.copyFileSync(path.join(fixture('valid'), 'mvc', 'entities', 'ville', 'ville.json'), path.join(dir, 'ville.json'));
    fs.writeFileSync(path.join(dir, 'ville.sql'), 'CREATE TABLE villes (Id INT);'); // not a definition: ignored
    const result = compileProject(root);
    assert.equal(result.diagnostics, []);
    assert.equal(
      result.model?.entities.map((e) => e.name),
      ['Ville'],
    );
    assert.equal(result.model?.relations, []);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

Project('compileProject reports every broken file at once, with project-relative paths', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-compiler-'));
  const write = (relative: string, text: string): void => {
    fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
    fs.writeFileSync(path.join(root, relative), text);
  };
  try {
    write(
      'mvc/entities/ville/ville.json',
      fs.readFileSync(path.join(fixture('valid'), 'mvc', 'entities', 'ville', 'ville.json'), 'utf8').replace('"villes"', '"group"'),
    );
    write('mvc/entities/tag/tag.json', '{ "format_version": 1, "entity": "Tag", }');
    write('mvc/entities/contact.json', '{}');
    write(
      'mvc/entities/relations.json',
      JSON.stringify({
        format_version: 1,
        relations: [{ name: 'r', type: 'many_to_one', from_entity: 'Ville', from_field: 'nom', to_entity: 'Pays', to_field: 'id' }],
      }),
    );
    const result = compileProject(root);
    assert.is(result.model, null);
    assert.equal(
      result.diagnostics.map((d) => `${d.file}${d.pointer} ${d.code}`),
      [
        'mvc/entities/contact.json# file_location',
        'mvc/entities/relations.json#/relations/0/to_entity unknown_entity',
        'mvc/entities/tag/tag.json# json_syntax',
        'mvc/entities/ville/ville.json#/table reserved_word',
      ],
    );
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

Project('compileSources reads the same files as compileProject', () => {
  const root = fixture('valid');
  const files = ['contact/contact.json', 'relations.json', 'tag/tag.json', 'ville/ville.json'].map((f) => `mvc/entities/${f}`);
  const result = compileSources(files.map((file) => ({ file, text: fs.readFileSync(path.join(root, file), 'utf8') })));
  assert.equal(result, compileProject(root));
});

Project('a lone entity with the defaults: auto_increment on an integer key, plural, column, logical type', () => {
  const result = compileSources([
    {
      file: 'mvc/entities/statut/statut.json',
      text: JSON.stringify({
        format_version: 1,
        entity: 'Statut',
        table: 'statuts',
        fields: [
          { name: 'code', sql_type: 'SMALLINT', primary_key: true },
          { name: 'est_actif', sql_type: 'bool' },
        ],
      }),
    },
  ]);
  assert.equal(result.diagnostics, []);
  const statut = result.model?.entities[0];
  assert.is(statut?.plural, 'statuts');
  assert.equal(statut?.fields.map(summary), [
    { ...base, name: 'code', column: 'Code', logicalType: 'int', sql: 'SMALLINT', primaryKey: true, autoIncrement: true, pointer: '#/fields/0' },
    { ...base, name: 'est_actif', column: 'EstActif', logicalType: 'bool', sql: 'TINYINT(1)', pointer: '#/fields/1' },
  ]);
  const manual = compileSources([
    {
      file: 'x.json',
      text: JSON.stringify({
        format_version: 1,
        entity: 'Lot',
        table: 'lots',
        primary_key: { name: 'numero', sql_type: 'INT', auto_increment: false },
        fields: [],
      }),
    },
  ]);
  assert.is(manual.model?.entities[0]?.primaryKey.autoIncrement, false, 'auto_increment: false is kept');
});

Project('an entity carries the names users read: `label` and `label_plural`, else its name and its plural in PascalCase', () => {
  const file = (entity: string, table: string, extra: Record<string, string>) => ({
    file: toEntityFileName(entity),
    text: JSON.stringify({ format_version: 1, entity, table, ...extra, fields: [{ name: 'id', sql_type: 'INT', primary_key: true }] }),
  });
  const result = compileSources([
    file('Eleve', 'eleves', { label: 'Élève', label_plural: 'Élèves' }),
    file('ObservationCours', 'observations_cours', { plural: 'observations_cours' }),
    file('Cours', 'cours', { label: 'Séance' }),
  ]);
  assert.equal(result.diagnostics, []);
  assert.equal(
    result.model?.entities.map((e) => [e.name, e.label, e.labelPlural]),
    [
      ['Cours', 'Séance', 'Cours'],
      ['Eleve', 'Élève', 'Élèves'],
      ['ObservationCours', 'ObservationCours', 'ObservationsCours'],
    ],
  );
});

Project('the file written by fw make:entity --no-input compiles', () => {
  const text = JSON.stringify({
    $schema: '../../../node_modules/fw-mvc/schemas/entity.schema.json',
    format_version: 1,
    entity: 'ContactClient',
    table: 'contact_client',
    description: '',
    primary_key: { name: 'id', sql: 'Id', python_type: 'int', sql_type: 'INT', auto_increment: true },
    fields: [{ name: 'nom', sql_type: 'VARCHAR(100)', nullable: false, unique: false, constraints: { not_empty: true, max_length: 100 } }],
  });
  const result = compileSources([{ file: toEntityFileName('ContactClient'), text }]);
  assert.equal(result.diagnostics, []);
  assert.is(result.model?.entities[0]?.plural, 'contact_clients');
});

Project.run();

const Names = suite('compiler-model: naming helpers');

Names('snakeCase, pascalCase, toEntityFileName, defaultPlural', () => {
  const snake: Array<[string, string]> = [
    ['ContactClient', 'contact_client'],
    ['Contact', 'contact'],
    ['HTTPServer', 'http_server'],
    ['Ville2', 'ville2'],
    ['ObservationCours', 'observation_cours'],
    ['dateNaissance', 'date_naissance'],
    ['date_naissance', 'date_naissance'],
  ];
  for (const [input, output] of snake) assert.is(snakeCase(input), output, input);
  const pascal: Array<[string, string]> = [
    ['date_naissance', 'DateNaissance'],
    ['id', 'Id'],
    ['ville_id', 'VilleId'],
    ['adresse_2', 'Adresse2'],
    ['contact_client', 'ContactClient'],
    ['dateNaissance', 'DateNaissance'],
  ];
  for (const [input, output] of pascal) assert.is(pascalCase(input), output, input);
  assert.is(toEntityFileName('ContactClient'), 'mvc/entities/contact_client/contact_client.json');
  assert.is(defaultPlural('contact'), 'contacts');
  assert.is(defaultPlural('cours'), 'cours');
  assert.is(defaultPlural('prix'), 'prix');
  assert.is(defaultPlural('quiz'), 'quiz');
});

Names('humanLabel: a capital, spaces, a trailing _id dropped (the label of a field without `label`)', () => {
  const cases: Array<[string, string]> = [
    ['date_naissance', 'Date naissance'],
    ['ville_id', 'Ville'],
    ['id', 'Id'],
    ['nom', 'Nom'],
    ['code__postal', 'Code postal'],
    ['id_externe', 'Id externe'],
    ['adresse_2', 'Adresse 2'],
  ];
  for (const [input, output] of cases) assert.is(humanLabel(input), output, input);
});

Names('entityNameFrom: what a user typed → the valid PascalCase entity name, or null', () => {
  const cases: Array<[string, string | null]> = [
    ['produit', 'Produit'],
    ['Produit', 'Produit'],
    ['ligne_commande', 'LigneCommande'],
    ['ligne-commande', 'LigneCommande'],
    ['ligne commande', 'LigneCommande'],
    ['LigneCommande', 'LigneCommande'],
    ['ligneCommande', 'LigneCommande'],
    ['écrou', 'Ecrou'],
    ['2fa_code', 'FaCode'],
    ['123', null],
    ['_', null],
    ['', null],
  ];
  for (const [input, output] of cases) assert.is(entityNameFrom(input), output, input);
});

Names('formatDiagnostics: sorted by file then pointer (numerically), one line each', () => {
  const text = formatDiagnostics([
    { file: 'mvc/entities/b/b.json', pointer: '#', code: 'x', message: 'deux' },
    { file: 'mvc/entities/a/a.json', pointer: '#/fields/10/name', code: 'x', message: 'quatre' },
    { file: 'mvc/entities/a/a.json', pointer: '#/fields/2/sql_type', code: 'x', message: 'trois' },
    { file: 'mvc/entities/a/a.json', pointer: '#', code: 'x', message: 'un' },
  ]);
  assert.is(
    text,
    [
      '[ERREUR] mvc/entities/a/a.json# : un',
      '[ERREUR] mvc/entities/a/a.json#/fields/2/sql_type : trois',
      '[ERREUR] mvc/entities/a/a.json#/fields/10/name : quatre',
      '[ERREUR] mvc/entities/b/b.json# : deux',
      '',
    ].join('\n'),
  );
  assert.is(formatDiagnostics([]), '');
});

Names.run();
