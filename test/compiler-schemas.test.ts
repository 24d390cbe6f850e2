/** The JSON Schemas editors use: complete, closed, documented, and valid for Ajv in strict mode. */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { loadSchema, schemaFile } from '../compiler/index.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- the JSON Schemas are walked by path, as the cases name their parts */

type Schema = Record<string, unknown>;

const Schemas = suite('compiler-schemas');

function fixtureFile(relative: string): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, 'test', 'fixtures', 'entities'))) dir = path.dirname(dir);
  return path.join(dir, 'test', 'fixtures', 'entities', 'valid', relative);
}

/** Every sub-schema with the JSON pointer that leads to it. */
function* subSchemas(schema: Schema, at = '#'): Generator<[string, Schema]> {
  yield [at, schema];
  for (const [key, value] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) yield* subSchemas(value, `${at}/properties/${key}`);
  for (const [key, value] of Object.entries((schema.definitions ?? {}) as Record<string, Schema>)) yield* subSchemas(value, `${at}/definitions/${key}`);
  if (schema.items && typeof schema.items === 'object') yield* subSchemas(schema.items as Schema, `${at}/items`);
}

for (const name of ['entity', 'relations', 'module', 'module-routes'] as const) {
  Schemas(`${name}: draft-07 with $id, title, description and examples; compiles in strict mode`, () => {
    const schema = loadSchema(name);
    assert.is(schema.$schema, 'http://json-schema.org/draft-07/schema#');
    assert.is(schema.$id, `https://fw-mvc.dev/schemas/${name}.schema.json`);
    assert.type(schema.title, 'string');
    assert.type(schema.description, 'string');
    assert.ok(Array.isArray(schema.examples) && schema.examples.length > 0);
    assert.is(path.basename(schemaFile(name)), `${name}.schema.json`);
    const ajv = new Ajv({ strict: true, allErrors: true });
    const validate = ajv.compile(schema);
    for (const example of schema.examples as unknown[]) assert.ok(validate(example), `example valid: ${ajv.errorsText(validate.errors)}`);
  });

  Schemas(`${name}: every object is closed and every key has a description`, () => {
    for (const [at, sub] of subSchemas(loadSchema(name))) {
      if (sub.$ref) continue;
      if (sub.type === 'object') assert.is(sub.additionalProperties, false, `${at} closed`);
      assert.type(sub.description, 'string', `${at} has a description`);
      assert.ok(String(sub.description).length > 10, `${at} description says something`);
      if (sub.type !== 'object' && sub.type !== 'array' && at.includes('/properties/')) {
        assert.ok(Array.isArray(sub.examples) || Array.isArray(sub.enum), `${at} has examples or an enum`);
      }
    }
  });
}

Schemas('enums where the values are known', () => {
  const entity = loadSchema('entity') as any;
  const relations = loadSchema('relations') as any;
  const field = entity.definitions.field.properties;
  assert.equal(field.python_type.enum, ['int', 'str', 'bool', 'float', 'Decimal', 'date', 'datetime', 'time', 'bytes']);
  assert.equal(entity.properties.primary_key.properties.python_type.enum, field.python_type.enum);
  assert.equal(entity.properties.media.items.properties.field.enum, ['image', 'file']);
  assert.equal(Object.keys(entity.properties.rbac.properties.permissions.properties), ['index', 'show', 'create', 'update', 'delete', 'export']);
  const relation = relations.properties.relations.items.properties;
  assert.equal(relation.type.enum, ['many_to_one', 'many_to_many']);
  assert.equal(relation.on_delete.enum, ['RESTRICT', 'CASCADE', 'SET NULL', 'NO ACTION']);
  assert.equal(relation.on_update.enum, relation.on_delete.enum);
  assert.is(relation.on_delete.default, 'RESTRICT');
  assert.is(relation.on_update.default, 'CASCADE');
  assert.is(entity.properties.format_version.const, 1);
  assert.is(relations.properties.format_version.const, 1);
});

Schemas('entity keys are those of format_version 1', () => {
  const entity = loadSchema('entity') as any;
  assert.equal(Object.keys(entity.properties), [
    '$schema',
    'format_version',
    'entity',
    'table',
    'description',
    'label',
    'label_plural',
    'display',
    'plural',
    'primary_key',
    'fields',
    'media',
    'rbac',
  ]);
  assert.equal(Object.keys(entity.properties.primary_key.properties), ['name', 'sql', 'python_type', 'sql_type', 'auto_increment']);
  assert.equal(Object.keys(entity.definitions.field.properties), [
    'name',
    'sql',
    'renamed_from',
    'label',
    'python_type',
    'sql_type',
    'nullable',
    'unique',
    'primary_key',
    'auto_increment',
    'constraints',
    'default',
    'list',
  ]);
  assert.equal(Object.keys(entity.definitions.field.properties.constraints.properties), [
    'not_empty',
    'max_length',
    'min_length',
    'min',
    'max',
    'pattern',
    'pattern_message',
  ]);
  assert.equal(Object.keys(entity.definitions.field.properties.list.properties), ['filter']);
  assert.equal(Object.keys(entity.properties.media.items.properties), ['name', 'field', 'role', 'label', 'variants', 'multiple']);
  const relations = loadSchema('relations') as any;
  assert.equal(Object.keys(relations.properties.relations.items.properties), [
    'name',
    'type',
    'from_entity',
    'from_field',
    'to_entity',
    'to_field',
    'foreign_key_name',
    'on_delete',
    'on_update',
    'pivot_fields',
    'from_name',
    'to_name',
    'from_label',
    'to_label',
  ]);
});

Schemas('pivot fields share the field definition of entities (kept identical in both files)', () => {
  assert.equal((loadSchema('relations') as any).definitions.field, (loadSchema('entity') as any).definitions.field);
});

Schemas('the fixture files validate as an editor would check them', () => {
  const ajv = new Ajv({ strict: true, allErrors: true });
  const entity = ajv.compile(loadSchema('entity'));
  const relations = ajv.compile(loadSchema('relations'));
  for (const file of ['contact/contact.json', 'ville/ville.json', 'tag/tag.json']) {
    assert.ok(entity(JSON.parse(fs.readFileSync(fixtureFile(`mvc/entities/${file}`), 'utf8'))), `${file}: ${ajv.errorsText(entity.errors)}`);
  }
  assert.ok(relations(JSON.parse(fs.readFileSync(fixtureFile('mvc/entities/relations.json'), 'utf8'))), ajv.errorsText(relations.errors));
});

Schemas('a field label: any text on one line, accents welcome, 1 to 100 characters', () => {
  const ajv = new Ajv({ strict: true, allErrors: true });
  const validate = ajv.compile(loadSchema('entity'));
  const withLabel = (label: unknown): unknown => ({
    format_version: 1,
    entity: 'Contact',
    table: 'contacts',
    fields: [
      { name: 'id', sql_type: 'INT', primary_key: true },
      { name: 'prenom', label, sql_type: 'VARCHAR(50)' },
    ],
  });
  for (const label of ['Prénom', "Date d'entrée", 'Œuvre « principale » — n°', 'Ω', 'x'.repeat(100), ' Prénom ']) {
    assert.ok(validate(withLabel(label)), `${JSON.stringify(label)} accepted: ${ajv.errorsText(validate.errors)}`);
  }
  for (const label of ['', '   ', 'x'.repeat(101), 'Prénom\nNom', 'a\tb', 42, null]) {
    assert.not.ok(validate(withLabel(label)), `${JSON.stringify(label)} refused`);
  }
  const description = (loadSchema('entity') as any).definitions.field.properties.label.description as string;
  assert.match(description, 'Date naissance');
});

Schemas("an entity's label and label_plural: the same rule as a field label", () => {
  const ajv = new Ajv({ strict: true, allErrors: true });
  const validate = ajv.compile(loadSchema('entity'));
  const withLabels = (label: unknown): unknown => ({
    format_version: 1,
    entity: 'Eleve',
    table: 'eleves',
    label,
    label_plural: label,
    fields: [{ name: 'id', sql_type: 'INT', primary_key: true }],
  });
  for (const label of ['Élève', 'Observations « cours »', 'x'.repeat(100)]) {
    assert.ok(validate(withLabels(label)), `${JSON.stringify(label)} accepted: ${ajv.errorsText(validate.errors)}`);
  }
  for (const label of ['', '   ', 'x'.repeat(101), 'Élève\nÉlèves', 42, null]) {
    assert.not.ok(validate(withLabels(label)), `${JSON.stringify(label)} refused`);
  }
});

Schemas.run();
