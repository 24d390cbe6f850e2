/**
 * The rows of test/generator-definitions-chain.test.ts for `display` and the fields' constraints (docs/entities.md
 * "How a record is named", "Constraints"): what passes the whole chain, and each refusal with its pointer and the
 * words of its message.
 */
import { entityFiles, entityPath, type ChainCase } from './definitions-chain.js';

const ID = { name: 'id', sql_type: 'INT', primary_key: true, auto_increment: true };

function entity(name: string, fields: Array<Record<string, unknown>>, extra: Record<string, unknown> = {}): { entity: string } & Record<string, unknown> {
  return { format_version: 1, entity: name, table: `${name.toLowerCase()}_t`, fields: [ID, ...fields], ...extra };
}

const NOM = { name: 'nom', sql_type: 'VARCHAR(50)' };

/** One refused field: `Regle` with `field` as its second field. */
function refusedField(name: string, field: Record<string, unknown>, key: string, message: string | RegExp): ChainCase {
  return {
    name: `constraints: ${name} is refused`,
    files: entityFiles(entity('Regle', [NOM, field])),
    expect: { file: entityPath('Regle'), pointer: `#/fields/2/${key}`, message },
  };
}

export const CONSTRAINT_CASES: ChainCase[] = [
  {
    name: 'item 6 and 12: display as a pattern and every kind of constraint pass the whole chain',
    files: entityFiles(
      entity(
        'Adherent',
        [
          { name: 'prenom', sql_type: 'VARCHAR(50)' },
          NOM,
          { name: 'age', sql_type: 'SMALLINT', constraints: { min: 0, max: 130 } },
          { name: 'prix', sql_type: 'DECIMAL(6,2)', default: '9.90', constraints: { min: '0.50', max: 999 } },
          { name: 'code', sql_type: 'CHAR(5)', nullable: true, constraints: { pattern: "[A-Z]{2}\\d{3}|l'\\w+" } },
          { name: 'pseudo', sql_type: 'VARCHAR(30)', nullable: true, constraints: { min_length: 2 } },
          { name: 'actif', sql_type: 'BOOLEAN', default: true },
          { name: 'depuis', sql_type: 'DATE', nullable: true, default: '2025-01-31' },
        ],
        { display: "{prenom} {nom} (l'adhérent n° {id})" },
      ),
    ),
    entities: [{ name: 'Adherent', values: { prenom: 'Jean', nom: 'Dupont', age: '40', prix: '9.90', code: 'AB123', pseudo: 'jd' } }],
    expect: 'passes',
  },
  refusedField('min above max', { name: 'n', sql_type: 'INT', constraints: { min: 10, max: 5 } }, 'constraints/min', '« min » (10) dépasse « max » (5)'),
  refusedField('min on a text field', { name: 't', sql_type: 'VARCHAR(20)', constraints: { min: 1 } }, 'constraints/min', 'écrivez « min_length »'),
  refusedField('a decimal min on an integer', { name: 'n', sql_type: 'INT', constraints: { min: 1.5 } }, 'constraints/min', 'doit être un nombre entier'),
  refusedField(
    'a negative min on UNSIGNED',
    { name: 'n', sql_type: 'INT UNSIGNED', constraints: { min: -1 } },
    'constraints/min',
    "n'a pas de valeur négative",
  ),
  refusedField('min_length on a number', { name: 'n', sql_type: 'INT', constraints: { min_length: 2 } }, 'constraints/min_length', 'écrivez « min »'),
  refusedField(
    'min_length above the column',
    { name: 't', sql_type: 'VARCHAR(4)', constraints: { min_length: 5 } },
    'constraints/min_length',
    'dépasse la longueur permise (4)',
  ),
  refusedField(
    'a pattern that is not a regular expression',
    { name: 't', sql_type: 'VARCHAR(9)', constraints: { pattern: '[A-Z' } },
    'constraints/pattern',
    "n'est pas une expression régulière valide",
  ),
  refusedField(
    'a pattern on a number',
    { name: 'n', sql_type: 'INT', constraints: { pattern: '\\d+' } },
    'constraints/pattern',
    "ne s'applique qu'aux champs VARCHAR ou CHAR",
  ),
  refusedField('a text default on a number', { name: 'n', sql_type: 'INT', default: 'dix' }, 'default', 'écrivez un nombre sans guillemets'),
  refusedField('a default below min', { name: 'n', sql_type: 'INT', default: 1, constraints: { min: 5 } }, 'default', 'plus petit que « min » (5)'),
  refusedField(
    'a default that does not follow the pattern',
    { name: 't', sql_type: 'VARCHAR(9)', default: 'ab', constraints: { pattern: '[A-Z]+' } },
    'default',
    'ne suit pas « pattern »',
  ),
  refusedField('an impossible date default', { name: 'd', sql_type: 'DATE', default: '2025-02-30' }, 'default', "n'est pas une date AAAA-MM-JJ"),
  refusedField(
    'a default on DATETIME',
    { name: 'd', sql_type: 'DATETIME', default: '2025-01-01 00:00:00' },
    'default',
    'pas de valeur par défaut pour le type DATETIME',
  ),
  refusedField('a default longer than the column', { name: 't', sql_type: 'VARCHAR(3)', default: 'France' }, 'default', 'plus que la longueur permise (3)'),
  {
    name: 'display: a field the entity does not have is refused',
    files: entityFiles(entity('Regle', [NOM], { display: '{prenom} {nom}' })),
    expect: { file: entityPath('Regle'), pointer: '#/display', message: 'aucun champ « prenom »' },
  },
  {
    name: 'display: a pattern without a field is refused',
    files: entityFiles(entity('Regle', [NOM], { display: 'nom' })),
    expect: { file: entityPath('Regle'), pointer: '#/display', message: 'ne nomme aucun champ' },
  },
  {
    name: 'display: an unclosed brace is refused',
    files: entityFiles(entity('Regle', [NOM], { display: '{nom' })),
    expect: { file: entityPath('Regle'), pointer: '#/display', message: 'sans « } »' },
  },
  {
    name: 'display: a boolean field is refused',
    files: entityFiles(entity('Regle', [NOM, { name: 'actif', sql_type: 'BOOLEAN' }], { display: ['nom', 'actif'] })),
    expect: { file: entityPath('Regle'), pointer: '#/display/1', message: 'est un booléen' },
  },
];
