/**
 * Structural validation of definition files with Ajv and the JSON Schemas of `schemas/`, errors translated
 * into French diagnostics that name the key and say how to fix it. Ajv is loaded on first use (~50 ms), and
 * each schema is compiled once per process, when first used: the validators hold no state between calls.
 * The module manifests and routes files (cli/modules/, docs/modules.md) are checked with the same machinery.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Ajv as AjvInstance, ErrorObject, Options as AjvOptions, ValidateFunction } from 'ajv';
import { fromInstancePath, pointerTo } from './diagnostics.js';
import { closest, MAX_IDENTIFIER_LENGTH, pascalCase, PASCAL_CASE, snakeCase, SNAKE_CASE, transliterate } from './naming.js';

export type SchemaName = 'entity' | 'relations' | 'module' | 'module-routes';

/** One problem found by the schema, before it is attached to a file. */
export interface SchemaProblem {
  readonly pointer: string;
  readonly code: string;
  readonly message: string;
}

let ajv: AjvInstance | undefined;
const validators = new Map<SchemaName, ValidateFunction>();

/** Absolute path of `schemas/<name>.schema.json`, found above this file (from `compiler/` or `dist/compiler/`). */
export function schemaFile(name: SchemaName): string {
  const base = `${name}.schema.json`;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(dir, 'schemas', base);
    if (fs.existsSync(candidate)) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`schéma ${base} introuvable au-dessus de ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}

/** The parsed JSON Schema (for editors, tests and documentation). */
export function loadSchema(name: SchemaName): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(schemaFile(name), 'utf8')) as Record<string, unknown>;
}

function compiled(name: SchemaName): ValidateFunction {
  let validate = validators.get(name);
  if (!validate) {
    if (!ajv) {
      const require = createRequire(import.meta.url);
      const { default: Ajv } = require('ajv') as { default: new (options: AjvOptions) => AjvInstance };
      // The schemas are checked against the meta-schema by the tests; skipping that and the code optimiser
      // here halves the start-up cost of every command that compiles (strict mode still runs).
      ajv = new Ajv({ allErrors: true, strict: true, verbose: true, validateSchema: false, code: { optimize: false } });
    }
    validate = ajv.compile(loadSchema(name));
    validators.set(name, validate);
  }
  return validate;
}

/** Validates a parsed file against its schema; an empty list when it conforms. */
export function validateStructure(name: SchemaName, value: unknown): SchemaProblem[] {
  const validate = compiled(name);
  if (validate(value)) return [];
  return translateErrors(validate.errors ?? []);
}

/** Ajv errors → French problems, one per culprit (a wrong type hides the other complaints about the same value). */
export function translateErrors(errors: readonly ErrorObject[]): SchemaProblem[] {
  const typeErrorAt = new Set(errors.filter((e) => e.keyword === 'type').map((e) => e.instancePath));
  const problems: SchemaProblem[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    if (error.keyword !== 'type' && typeErrorAt.has(error.instancePath)) continue;
    const problem = translate(error);
    const key = `${problem.pointer}\u0000${problem.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(problem);
  }
  return problems;
}

const TYPE_NAMES: Readonly<Record<string, string>> = {
  string: 'une chaîne entre guillemets',
  integer: 'un nombre entier',
  number: 'un nombre',
  boolean: 'un booléen (true ou false)',
  object: 'un objet { … }',
  array: 'une liste [ … ]',
  null: 'null',
};

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'une liste';
  if (typeof value === 'string') return `la chaîne « ${value} »`;
  if (typeof value === 'number') return Number.isInteger(value) ? `le nombre ${value}` : `le nombre décimal ${value}`;
  if (typeof value === 'boolean') return `le booléen ${value}`;
  return 'un objet';
}

function segments(instancePath: string): string[] {
  return instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The culprit as written in messages: the key (`nullable`), or `fields[2]` for an array item. */
function culprit(instancePath: string): string {
  const parts = segments(instancePath);
  const last = parts[parts.length - 1];
  if (last === undefined) return 'le document';
  if (/^\d+$/.test(last)) return `${parts[parts.length - 2] ?? ''}[${last}]`;
  return last;
}

function translate(error: ErrorObject): SchemaProblem {
  const pointer = fromInstancePath(error.instancePath);
  const name = culprit(error.instancePath);
  const data: unknown = error.data;
  const schema: unknown = error.schema;
  const parentSchema = (error.parentSchema ?? {}) as Record<string, unknown>;
  const problem = (message: string, code = 'schema', at = pointer): SchemaProblem => ({ pointer: at, code, message });
  switch (error.keyword) {
    case 'additionalProperties': {
      const key = String((error.params as { additionalProperty: string }).additionalProperty);
      const allowed = Object.keys(parentSchema.properties ?? {});
      const guess = closest(key, allowed);
      const hint = guess ? `vouliez-vous dire « ${guess} » ? ` : '';
      return problem(
        `clé inconnue « ${key} » : ${hint}retirez-la ou corrigez son nom (clés permises : ${allowed.join(', ')})`,
        'schema',
        pointerTo(pointer, key),
      );
    }
    case 'required': {
      const key = String((error.params as { missingProperty: string }).missingProperty);
      const property = ((parentSchema.properties ?? {}) as Record<string, { examples?: unknown[]; type?: unknown }>)[key];
      const example = property?.examples?.[0] ?? (property?.type === 'array' ? [] : undefined);
      const hint = example === undefined ? '' : ` : ajoutez par exemple "${key}": ${JSON.stringify(example)}`;
      return problem(`clé obligatoire « ${key} » manquante${hint}`);
    }
    case 'type': {
      if (isPrimaryKeyPath(error.instancePath) && Array.isArray(data)) {
        return problem(
          'clé primaire composite non prise en charge : une seule clé simple est permise, par exemple "primary_key": {"name": "id", "sql_type": "INT"} ; pour relier deux entités, déclarez une relation many_to_many',
          'primary_key',
        );
      }
      const expected = String(schema);
      return problem(`« ${name} » doit être ${TYPE_NAMES[expected] ?? expected}, pas ${typeOf(data)}`);
    }
    case 'enum': {
      const allowed = (schema as unknown[]).map(String);
      const guess = typeof data === 'string' ? closest(data, allowed) : undefined;
      const hint = guess ? ` ; vouliez-vous dire « ${guess} » ?` : '';
      return problem(`« ${name} » vaut ${typeOf(data)} : valeurs permises : ${allowed.join(', ')}${hint}`);
    }
    case 'const':
      return problem(
        `« ${name} » doit valoir ${JSON.stringify(schema)}${name === 'format_version' ? ' (seule version du format prise en charge)' : ''}, pas ${typeOf(data)}`,
      );
    case 'pattern':
      if (name === 'label') return problem(`« label » doit être un texte sur une ligne, non blanc (sans tabulation ni caractère de contrôle)`, 'label');
      if (name === 'version') return problem(`« version » vaut ${typeOf(data)} : MAJEUR.MINEUR.CORRECTIF attendu, par exemple « 1.0.0 »`);
      if (name === 'path')
        return problem(`« path » vaut ${typeOf(data)} : un chemin de route commence par « / » et ne contient pas d'espace, par exemple « /blog/{id} »`);
      return namingProblem(error.instancePath, String(data), String(schema), pointer);
    case 'maxLength': {
      const limit = Number((error.params as { limit: number }).limit);
      if (name === 'label') return problem(`« label » compte ${String(data).length} caractères, ${limit} au plus : raccourcissez-le`, 'label');
      const length = String(data).length;
      const why = limit === MAX_IDENTIFIER_LENGTH ? ' (limite des identifiants MariaDB)' : '';
      return problem(`« ${name} » compte ${length} caractères, ${limit} au plus${why} : raccourcissez-le`, 'identifier_length');
    }
    case 'minLength':
      return problem(`« ${name} » ne doit pas être vide`);
    case 'minimum':
      return problem(`« ${name} » doit être au moins ${String((error.params as { limit: number }).limit)}, pas ${typeOf(data)}`);
    case 'maximum':
      return problem(`« ${name} » doit être au plus ${String((error.params as { limit: number }).limit)}, pas ${typeOf(data)}`);
    case 'uniqueItems': {
      const { i } = error.params as { i: number; j: number };
      const item: unknown = Array.isArray(data) ? data[i] : undefined;
      return problem(`« ${name} » contient ${typeOf(item)} en double : retirez le doublon`);
    }
    default:
      return problem(`« ${name} » : ${error.message ?? 'valeur refusée par le schéma'}`);
  }
}

function isPrimaryKeyPath(instancePath: string): boolean {
  return instancePath === '/primary_key' || instancePath === '/primary_key/name';
}

/** What a naming pattern applies to, from the pointer of the value. */
function namedThing(instancePath: string): string {
  const parts = segments(instancePath);
  const key = parts[parts.length - 1];
  const owner = parts[parts.length - 3] ?? parts[0];
  switch (key) {
    case 'entity':
      return "nom d'entité";
    case 'table':
      return 'nom de table';
    case 'plural':
      return 'pluriel';
    case 'sql':
      return 'nom de colonne';
    case 'role':
      return 'rôle de média';
    case 'from_entity':
    case 'to_entity':
      return `entité « ${key} »`;
    case 'from_field':
    case 'to_field':
      return `champ « ${key} »`;
    case 'foreign_key_name':
      return 'nom de contrainte';
    case 'name':
      if (parts.length === 1) return 'nom de module';
      if (parts[0] === 'routes') return 'nom de route';
      if (parts[0] === 'media') return 'nom de média';
      if (parts[0] === 'relations' && parts.length === 3) return 'nom de relation';
      return owner === 'pivot_fields' ? 'nom de champ pivot' : 'nom de champ';
    default:
      return `« ${key ?? ''} »`;
  }
}

function namingProblem(instancePath: string, value: string, pattern: string, pointer: string): SchemaProblem {
  const what = namedThing(instancePath);
  if (pattern === PASCAL_CASE.source) {
    // Accents transliterated, not dropped: `Prénom` → `Prenom`, not `Prnom`.
    const suggestion = pascalCase(snakeCase(transliterate(value).replace(/[^A-Za-z0-9_\s-]/g, '')));
    const hint = PASCAL_CASE.test(suggestion) ? `, par exemple « ${suggestion} »` : '';
    return { pointer, code: 'naming', message: `${what} « ${value} » invalide : PascalCase attendu (lettres et chiffres, initiale majuscule)${hint}` };
  }
  if (pattern === SNAKE_CASE.source) {
    const suggestion = snakeCase(transliterate(value).replace(/[^A-Za-z0-9_\s-]/g, ''));
    const hint = SNAKE_CASE.test(suggestion) ? `, par exemple « ${suggestion} »` : '';
    return { pointer, code: 'naming', message: `${what} « ${value} » invalide : snake_case attendu (minuscules, chiffres et _, initiale lettre)${hint}` };
  }
  return { pointer, code: 'naming', message: `${what} « ${value} » invalide : lettres, chiffres et _ seulement, sans chiffre en tête` };
}
