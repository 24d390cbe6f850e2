/** Number and choice fields, table-driven (docs/api-mapping.md "Fields"): IntegerField, FloatField, DecimalField, TimeField, BooleanField, ChoiceField, RelationField, RelatedIdsField. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  BooleanField,
  ChoiceField,
  DecimalField,
  FloatField,
  Form,
  FormDefinitionError,
  FormValidationError,
  IntegerField,
  RelatedIdsField,
  RelationField,
  TimeField,
  formMessages as M,
  type Field,
} from '../runtime/index.js';

type Input = string | string[] | undefined;
type Accepted = ReadonlyArray<readonly [input: Input, cleaned: unknown]>;
type Refused = ReadonlyArray<readonly [input: Input, message: string]>;

function clean(field: Field, input: Input, label: string): unknown {
  const values = input === undefined ? [] : Array.isArray(input) ? input : [input];
  return field.clean({ value: values[0], values, file: undefined }, label);
}

function table(field: Field, label: string, accepted: Accepted, refused: Refused): void {
  for (const [input, want] of accepted) {
    let got: unknown;
    try {
      got = clean(field, input, label);
    } catch (err) {
      assert.unreachable(`${JSON.stringify(input)} refusé : ${(err as Error).message}`);
    }
    assert.equal(got, want, `${JSON.stringify(input)} → ${JSON.stringify(want)}`);
  }
  for (const [input, message] of refused) {
    try {
      const got = clean(field, input, label);
      assert.unreachable(`${JSON.stringify(input)} accepté (${JSON.stringify(got)})`);
    } catch (err) {
      assert.instance(err, FormValidationError, `${JSON.stringify(input)}: ${(err as Error).message}`);
      assert.is((err as Error).message, message, JSON.stringify(input));
    }
  }
}

test('FloatField with digits: a huge exponent is refused at once, never expanded digit by digit', () => {
  const field = new FloatField({ label: 'P', maxDigits: 10, decimalPlaces: 2 });
  for (const text of ['1e400000000', '1e-400000000', '1e999999999', '-1e-999999999', '1e-400']) {
    const form = new (class extends Form {
      static fields = { p: field };
    })({ p: text });
    assert.not.ok(form.isValid(), text);
  }
  const zero = new (class extends Form {
    static fields = { p: field };
  })({ p: '0e-400000000' });
  assert.ok(zero.isValid());
  assert.is(zero.cleanedData['p'], 0);
});

test('FloatField: point, comma or exponent, cleaned to a finite number; NaN, Infinity and garbage refused', () => {
  const notNumber = M.number('Poids kg');
  table(
    new FloatField({ label: 'Poids kg' }),
    'Poids kg',
    [
      ['0.25', 0.25],
      ['0,25', 0.25],
      ['-1e3', -1000],
      ['1.5E-7', 1.5e-7],
      ['+.5', 0.5],
      ['5.', 5],
      ['-0', 0],
      [' 12 ', 12],
      ['1e308', 1e308],
    ],
    [
      ['', M.required('Poids kg')],
      ['NaN', notNumber],
      ['Infinity', notNumber],
      ['-Infinity', notNumber],
      ['0x10', notNumber],
      ['1 000', notNumber],
      ['1,000.5', notNumber],
      ['e3', notNumber],
      ['1e', notNumber],
      ['douze', notNumber],
      ['1e400', M.tooLarge('Poids kg')],
    ],
  );
  table(
    new FloatField({ label: 'P', required: false, min: 0, max: 10 }),
    'P',
    [
      ['', null],
      ['10', 10],
      ['0', 0],
    ],
    [
      ['-0.1', M.min('P', 0)],
      ['10.5', M.max('P', 10)],
    ],
  );
  // DOUBLE(8,2): the server would round 0.255 to 0.26; the form refuses it, exactly, exponents included.
  table(
    new FloatField({ label: 'P', maxDigits: 8, decimalPlaces: 2 }),
    'P',
    [
      ['0.25', 0.25],
      ['2.50e1', 25],
      ['123456.7', 123456.7],
      ['1.2000', 1.2],
    ],
    [
      ['0.255', M.decimalPlaces('P', 2)],
      ['2.55e-1', M.decimalPlaces('P', 2)],
      ['1234567', M.wholeDigits('P', 6)],
      ['1e6', M.wholeDigits('P', 6)],
    ],
  );
  assert.throws(
    () => new FloatField({ min: Number.NaN }),
    (e: unknown) => e instanceof FormDefinitionError,
  );
  assert.throws(
    () => new FloatField({ maxDigits: 2, decimalPlaces: 3 }),
    (e: unknown) => e instanceof FormDefinitionError,
  );
  assert.equal(new FloatField().attrs(), { inputmode: 'decimal' });
});

test('TimeField: HH:MM or HH:MM:SS, cleaned to HH:MM:SS (the TIME text of MariaDB)', () => {
  const bad = M.time('Heure');
  table(
    new TimeField({ label: 'Heure' }),
    'Heure',
    [
      ['07:30', '07:30:00'],
      ['23:59:59', '23:59:59'],
      [' 00:00 ', '00:00:00'],
    ],
    [
      ['24:00', bad],
      ['7:30', bad],
      ['12:60', bad],
      ['12:00:60', bad],
      ['midi', bad],
      ['', M.required('Heure')],
    ],
  );
  const field = new TimeField();
  assert.is(field.format('07:30:00.000'), '07:30:00');
  assert.is(field.format(null), '');
  assert.is(field.type, 'time');
});

test('IntegerField: decimal digits only, bounds, cleaned to a number', () => {
  const notInteger = 'Le champ « Âge » doit être un nombre entier.';
  table(
    new IntegerField({ label: 'Âge', min: -5, max: 120 }),
    'Âge',
    [
      ['42', 42],
      [' 7 ', 7],
      ['007', 7],
      ['-5', -5],
      ['+3', 3],
      ['-0', 0],
      ['120', 120],
    ],
    [
      [undefined, 'Le champ « Âge » est obligatoire.'],
      ['   ', 'Le champ « Âge » est obligatoire.'],
      ['1.5', notInteger],
      ['1e3', notInteger],
      ['0x10', notInteger],
      ['1 000', notInteger],
      ['12abc', notInteger],
      ['--1', notInteger],
      ['١٢', notInteger],
      ['Infinity', notInteger],
      ['-6', 'Le champ « Âge » doit être supérieur ou égal à -5.'],
      ['121', 'Le champ « Âge » doit être inférieur ou égal à 120.'],
    ],
  );
  table(
    new IntegerField({ required: false }),
    'N',
    [
      ['', null],
      ['9007199254740991', 9007199254740991],
    ],
    [['9007199254740992', M.tooLarge('N')]],
  );
  assert.equal(clean(new IntegerField(), ['3', '4'], 'N'), 3, 'the first value is used');
  assert.throws(
    () => new IntegerField({ min: 1.5 }),
    (e: unknown) => e instanceof FormDefinitionError,
  );
  assert.throws(
    () => new IntegerField({ min: 3, max: 1 }),
    (e: unknown) => e instanceof FormDefinitionError,
  );
  assert.equal(new IntegerField({ min: 0 }).attrs(), { step: 1, min: 0 });
});

test('DecimalField: exact decimals as strings, DECIMAL(M, D) rules, bounds compared without floats', () => {
  table(
    new DecimalField({ label: 'Prix', maxDigits: 6, decimalPlaces: 2, min: '0.01', max: '9999.99' }),
    'Prix',
    [
      ['12.50', '12.50'],
      ['12,5', '12.50'],
      ['12', '12.00'],
      [' 0012.3 ', '12.30'],
      ['.5', '0.50'],
      ['5.', '5.00'],
      ['1.500', '1.50'],
      ['0.01', '0.01'],
      ['9999.99', '9999.99'],
    ],
    [
      ['', 'Le champ « Prix » est obligatoire.'],
      ['abc', 'Le champ « Prix » doit être un nombre décimal (par exemple 12,50).'],
      ['1e3', M.decimal('Prix')],
      ['1.2.3', M.decimal('Prix')],
      ['1 000,00', M.decimal('Prix')],
      ['.', M.decimal('Prix')],
      ['NaN', M.decimal('Prix')],
      ['1.005', 'Le champ « Prix » doit comporter au plus 2 décimales.'],
      ['10000', 'Le champ « Prix » doit comporter au plus 4 chiffres avant la virgule.'],
      ['0.00', 'Le champ « Prix » doit être supérieur ou égal à 0,01.'],
      ['-1', M.min('Prix', '0.01')],
      // 0.1 + 0.2 style traps: 9999.995 would round to 10000 as a float; here it is refused for its decimals.
      ['9999.995', M.decimalPlaces('Prix', 2)],
    ],
  );
  // Values beyond the float range of exact integers stay exact.
  const big = new DecimalField({ maxDigits: 30, decimalPlaces: 10, max: '12345678901234567890.1234567890' });
  table(
    big,
    'Gros',
    [
      ['12345678901234567890.123456789', '12345678901234567890.1234567890'],
      ['-0.0', '0.0000000000'],
    ],
    [['12345678901234567890.1234567891', M.max('Gros', '12345678901234567890.1234567890')]],
  );
  table(
    new DecimalField({ maxDigits: 3 }),
    'D',
    [
      ['1.25', '1.25'],
      ['-1.50', '-1.50'],
      ['0.123', '0.123'],
    ],
    [
      ['1.234', M.maxDigits('D', 3)],
      ['1000', M.maxDigits('D', 3)],
    ],
  );
  table(
    new DecimalField({ required: false }),
    'D',
    [
      ['', null],
      ['-007,250', '-7.250'],
    ],
    [],
  );
  assert.throws(
    () => new DecimalField({ maxDigits: 2, decimalPlaces: 3 }),
    (e: unknown) => e instanceof FormDefinitionError,
  );
  assert.throws(
    () => new DecimalField({ min: '1e-3' }),
    (e: unknown) => e instanceof FormDefinitionError,
  );
  assert.throws(
    () => new DecimalField({ min: 2, max: '1.5' }),
    (e: unknown) => e instanceof FormDefinitionError,
  );
});

test('BooleanField: checkbox semantics; required only through mustBeChecked', () => {
  table(
    new BooleanField({ label: 'Actif' }),
    'Actif',
    [
      [undefined, false],
      ['', false],
      ['on', true],
      ['1', true],
      ['true', true],
      ['oui', true],
      [' OUI ', true],
      ['0', false],
      ['false', false],
      ['non', false],
      ['off', false],
      [['0', '1'], true],
    ],
    [],
  );
  const terms = new BooleanField({ label: 'J’accepte les conditions', mustBeChecked: true });
  table(
    terms,
    'J’accepte les conditions',
    [['on', true]],
    [
      [undefined, 'Le champ « J’accepte les conditions » doit être coché.'],
      ['0', M.mustBeChecked('J’accepte les conditions')],
    ],
  );
  assert.is(new BooleanField({ required: true }).required, false, 'required alone does not force the box');
  assert.is(terms.required, true);
  assert.equal(
    [true, 1, '1', 'on', false, 0, null, 'non'].map((v) => terms.format(v)),
    ['1', '1', '1', '1', '', '', '', ''],
  );
});

test('ChoiceField: a value among the choices, compared as strings', () => {
  const statut = new ChoiceField({
    label: 'Statut',
    choices: [
      ['actif', 'Actif'],
      ['inactif', 'Inactif'],
      [3, 'Trois'],
    ],
  });
  table(
    statut,
    'Statut',
    [
      ['actif', 'actif'],
      [' inactif ', 'inactif'],
      ['3', '3'],
    ],
    [
      ['', 'Le champ « Statut » est obligatoire.'],
      ['Actif', 'Le champ « Statut » doit être l’une des valeurs proposées.'],
      ['autre', M.choice('Statut')],
      ['__proto__', M.choice('Statut')],
    ],
  );
  assert.equal(statut.choiceOptions(['inactif']), [
    { value: 'actif', label: 'Actif', selected: false },
    { value: 'inactif', label: 'Inactif', selected: true },
    { value: '3', label: 'Trois', selected: false },
  ]);
  assert.throws(
    () => new ChoiceField({ choices: ['a', 'b'] as never }),
    (e: unknown) => e instanceof FormDefinitionError,
  );
});

test('RelationField: choices from the options, integer strings cleaned to numbers, no query', () => {
  const ville = new RelationField({ label: 'Ville', required: false });
  table(ville, 'Ville', [['', null]], [['1', M.choice('Ville')]]);
  const loaded = ville.withChoices([
    [1, 'Paris'],
    [2, 'Lyon'],
    ['ext-9', 'Externe'],
    ['007', 'Agent'],
  ]);
  assert.instance(loaded, RelationField);
  assert.is(ville.choices.length, 0, 'the declared field is not changed');
  table(
    loaded,
    'Ville',
    [
      ['1', 1],
      [' 2 ', 2],
      ['ext-9', 'ext-9'],
      ['007', '007'],
      ['', null],
    ],
    [
      ['3', 'Le champ « Ville » doit être l’une des valeurs proposées.'],
      ['1.0', M.choice('Ville')],
    ],
  );
  table(new RelationField({ choices: [[5, 'Cinq']] }), 'R', [['5', 5]], [['', M.required('R')]]);
});

test('RelatedIdsField: positive ints from repeated values or a comma list, deduplicated', () => {
  const tags = new RelatedIdsField({ label: 'Étiquettes' });
  table(
    tags,
    'Étiquettes',
    [
      [
        ['3', '1', '2'],
        [3, 1, 2],
      ],
      ['1,2, 3', [1, 2, 3]],
      [
        ['2,1', '1', ' 4 ', ''],
        [2, 1, 4],
      ],
      [['5', '5', '05'], [5]],
    ],
    [
      [undefined, 'Le champ « Étiquettes » est obligatoire.'],
      [['', ' , '], M.required('Étiquettes')],
      [['1', '0'], 'Le champ « Étiquettes » doit contenir des identifiants entiers positifs.'],
      ['-1', M.ids('Étiquettes')],
      ['1.5', M.ids('Étiquettes')],
      ['abc', M.ids('Étiquettes')],
      ['99999999999999999999', M.ids('Étiquettes')],
    ],
  );
  table(
    new RelatedIdsField({ required: false }),
    'T',
    [
      [undefined, []],
      ['', []],
    ],
    [],
  );
  const limited = new RelatedIdsField({ required: false }).withChoices([
    [1, 'Un'],
    [2, 'Deux'],
  ]);
  table(limited, 'T', [['2,1', [2, 1]]], [['1,3', M.choice('T')]]);
  assert.equal(
    limited.choiceOptions(['2', '3,1']).map((c) => c.selected),
    [true, true],
  );
  assert.is(limited.multiple, true);
});

test.run();
