// The generated base class is run, not read: each case transpiles the emitted TypeScript, imports it and checks
// what the class does (validation messages, row conversions, the subclass returned by fromRow).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import ts from 'typescript';
import { modelNode, type EntityNode, type FieldNode } from '../compiler/ir.js';
import { emitBaseClass, EmitError, VALIDATION_MESSAGES } from '../emitters/index.js';
import { entity, field, idField } from './emitters-fixture.js';
import { fixtureEntity, fixtureModel } from './helpers/fixture-project.js';

const contactEntity = (): EntityNode => fixtureEntity('Contact');

type Row = Record<string, unknown>;
interface Instance {
  validate(): Record<string, string>;
  isValid(): boolean;
  toRow(): Row;
  [field: string]: unknown;
}
interface EntityClass {
  new (data?: Row): Instance;
  fromRow(row: Row): Instance;
  entity: string;
  table: string;
  primaryKey: string;
  columns: Record<string, string>;
}

/** Transpiles and imports the base class of `target`, with `Sub` (a subclass, as the user's file declares it). */
async function load(target: EntityNode): Promise<{ Base: EntityClass; Sub: EntityClass }> {
  const model = modelNode({ entities: [target], relations: [] });
  const source = `${emitBaseClass(model, target)}\nexport class Sub extends ${target.name}Base { hello(): string { return 'sub'; } }\n`;
  const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
  const module = (await import(`data:text/javascript;base64,${Buffer.from(js).toString('base64')}`)) as Record<string, EntityClass>;
  return { Base: module[`${target.name}Base`] as EntityClass, Sub: module.Sub as EntityClass };
}

const M = VALIDATION_MESSAGES;
const validContact = { nom: 'Dupont', prenom: 'Jean', email: 'jean@example.org', nb_visites: 0, actif: true };

const validationCases: Array<{ name: string; given: Row; want: Record<string, string> }> = [
  { name: 'every required value given: valid (the auto-increment key may be null)', given: validContact, want: {} },
  {
    name: 'nothing given: every non-nullable field is required, booleans default to false',
    given: {},
    want: { nom: M.required('Nom'), prenom: M.required('Prenom'), email: M.required('Email'), nb_visites: M.required('Nb visites') },
  },
  { name: 'empty string counts as missing', given: { ...validContact, prenom: '' }, want: { prenom: M.required('Prenom') } },
  { name: 'not_empty: blank after trim', given: { ...validContact, nom: '   ' }, want: { nom: M.notEmpty('Nom') } },
  { name: 'without not_empty, blank is accepted', given: { ...validContact, prenom: '  ' }, want: {} },
  { name: 'max_length: 101 characters refused', given: { ...validContact, nom: 'x'.repeat(101) }, want: { nom: M.maxLength('Nom', 100) } },
  { name: 'max_length counts characters, not UTF-16 units', given: { ...validContact, nom: '😀'.repeat(100) }, want: {} },
  {
    name: 'nullable field: null accepted, length still checked',
    given: { ...validContact, telephone: '0'.repeat(21) },
    want: { telephone: M.maxLength('Telephone', 20) },
  },
  { name: 'integer field: 1.5 refused', given: { ...validContact, nb_visites: 1.5 }, want: { nb_visites: M.integer('Nb visites') } },
  { name: 'integer field: a string refused', given: { ...validContact, nb_visites: '12' }, want: { nb_visites: M.integer('Nb visites') } },
  { name: 'unsigned integer: negative refused', given: { ...validContact, nb_visites: -1 }, want: { nb_visites: M.unsigned('Nb visites') } },
  { name: 'nullable foreign key: not an integer', given: { ...validContact, ville_id: 2.5 }, want: { ville_id: M.integer('Ville') } },
  {
    name: 'several fields at once, one message each',
    given: { ...validContact, nom: '', email: ' ', nb_visites: Number.NaN },
    want: { nom: M.required('Nom'), email: M.notEmpty('Email'), nb_visites: M.integer('Nb visites') },
  },
];

for (const c of validationCases) {
  test(`validate: ${c.name}`, async () => {
    const { Base } = await load(contactEntity());
    const item = new Base(c.given);
    assert.equal(item.validate(), c.want);
    assert.is(item.isValid(), Object.keys(c.want).length === 0);
  });
}

test('statics: entity, table, primary key, columns', async () => {
  const { Base } = await load(contactEntity());
  assert.is(Base.entity, 'Contact');
  assert.is(Base.table, 'contact');
  assert.is(Base.primaryKey, 'id');
  assert.equal(Base.columns, {
    id: 'Id',
    nom: 'Nom',
    prenom: 'Prenom',
    email: 'Email',
    telephone: 'Telephone',
    date_naissance: 'DateNaissance',
    solde: 'Solde',
    nb_visites: 'NbVisites',
    actif: 'Actif',
    ville_id: 'VilleId',
  });
});

test('constructor: defaults (null, false, empty string; a missing number stays undefined)', async () => {
  const { Base } = await load(contactEntity());
  const item = new Base();
  assert.equal(
    { ...item },
    { id: null, nom: '', prenom: '', email: '', telephone: null, date_naissance: null, solde: null, nb_visites: undefined, actif: false, ville_id: null },
  );
});

const rowCases: Array<{ name: string; row: Row; want: Row }> = [
  {
    name: 'SQLite row (numbers, 0/1, DECIMAL as a number: read at the declared scale)',
    row: {
      Id: 7,
      Nom: 'Dupont',
      Prenom: 'Jean',
      Email: 'j@x.org',
      Telephone: null,
      DateNaissance: '1990-05-17',
      Solde: 10.5,
      NbVisites: 3,
      Actif: 1,
      VilleId: 2,
    },
    want: {
      id: 7,
      nom: 'Dupont',
      prenom: 'Jean',
      email: 'j@x.org',
      telephone: null,
      date_naissance: '1990-05-17',
      solde: '10.50',
      nb_visites: 3,
      actif: true,
      ville_id: 2,
    },
  },
  {
    name: 'mysql2 row (DECIMAL as a string, DATE as a local Date, BIGINT as a string)',
    row: {
      Id: '7',
      Nom: 'Dupont',
      Prenom: 'Jean',
      Email: 'j@x.org',
      Telephone: '0102',
      DateNaissance: new Date(1990, 4, 17),
      Solde: '10.50',
      NbVisites: 3n,
      Actif: 0,
      VilleId: null,
    },
    want: {
      id: 7,
      nom: 'Dupont',
      prenom: 'Jean',
      email: 'j@x.org',
      telephone: '0102',
      date_naissance: '1990-05-17',
      solde: '10.50',
      nb_visites: 3,
      actif: false,
      ville_id: null,
    },
  },
  {
    name: 'absent columns fall back to the constructor defaults',
    row: { Nom: 'Seul' },
    want: {
      id: null,
      nom: 'Seul',
      prenom: '',
      email: '',
      telephone: null,
      date_naissance: null,
      solde: null,
      nb_visites: undefined,
      actif: false,
      ville_id: null,
    },
  },
];

for (const c of rowCases) {
  test(`fromRow: ${c.name}`, async () => {
    const { Base } = await load(contactEntity());
    assert.equal({ ...Base.fromRow(c.row) }, c.want);
  });
}

test('toRow: columns, booleans as 1 / 0', async () => {
  const { Base } = await load(contactEntity());
  const item = new Base({ ...validContact, id: 4, telephone: null, solde: '1.20' });
  assert.equal(item.toRow(), {
    Id: 4,
    Nom: 'Dupont',
    Prenom: 'Jean',
    Email: 'jean@example.org',
    Telephone: null,
    DateNaissance: null,
    Solde: '1.20',
    NbVisites: 0,
    Actif: 1,
    VilleId: null,
  });
  assert.equal(Base.fromRow(item.toRow()).toRow(), item.toRow(), 'fromRow(toRow()) round trip');
});

test('fromRow called on a subclass returns the subclass', async () => {
  const { Sub } = await load(contactEntity());
  const item = Sub.fromRow({ Id: 1, Nom: 'A' }) as Instance & { hello(): string };
  assert.instance(item, Sub);
  assert.is(item.hello(), 'sub');
});

const mixed = entity('Mesure', [
  idField(),
  field('valeur', 'DOUBLE'),
  field('poids', 'FLOAT', { nullable: true }),
  field('brut', 'BLOB', { nullable: true }),
  field('heure', 'TIME'),
  field('prise_le', 'DATETIME'),
  field('valide', 'TINYINT(1)', { nullable: true }),
]);

test('other types: float, bytes, time, datetime, nullable boolean', async () => {
  const { Base } = await load(mixed);
  const bytes = new Uint8Array([1, 2, 3]);
  const item = Base.fromRow({ Id: 1, Valeur: '2.5', Poids: null, Brut: bytes, Heure: '10:30:00', PriseLe: new Date(2024, 0, 31, 8, 5, 9), Valide: null });
  assert.equal({ ...item }, { id: 1, valeur: 2.5, poids: null, brut: bytes, heure: '10:30:00', prise_le: '2024-01-31 08:05:09', valide: null });
  assert.equal(item.toRow(), { Id: 1, Valeur: 2.5, Poids: null, Brut: bytes, Heure: '10:30:00', PriseLe: '2024-01-31 08:05:09', Valide: null });
  assert.equal(new Base({ ...item, valide: true }).toRow().Valide, 1);
  assert.equal(new Base({ ...item, valide: false }).toRow().Valide, 0);
  assert.equal(new Base({ heure: '1', prise_le: '2', valeur: Number.POSITIVE_INFINITY }).validate(), { valeur: M.number('Valeur') });
  assert.equal(new Base({ heure: '1', prise_le: '2' }).validate(), { valeur: M.required('Valeur') });
});

const money = entity('Compte', [
  idField(),
  field('solde', 'DECIMAL(10,2)'),
  field('taux', 'DECIMAL(6,4) UNSIGNED', { nullable: true }),
  field('unites', 'DECIMAL(5,0)', { nullable: true }),
  field('ecart', 'DOUBLE UNSIGNED', { nullable: true }),
  field('ouvert_le', 'DATETIME(3)', { nullable: true }),
  field('heure', 'TIME(6)', { nullable: true }),
]);

const decimalCases: Array<[given: unknown, scale: 'solde' | 'unites', want: unknown]> = [
  // What the drivers give: SQLite's TEXT as stored (or a number in a column made before it became TEXT), mysql2's string.
  ['3', 'solde', '3.00'],
  ['3.0', 'solde', '3.00'],
  [3, 'solde', '3.00'],
  [3n, 'solde', '3.00'],
  ['12.50', 'solde', '12.50'],
  [10.5, 'solde', '10.50'],
  [0.1, 'solde', '0.10'],
  ['-0.005', 'solde', '-0.01'],
  ['-0.004', 'solde', '0.00'],
  ['.5', 'solde', '0.50'],
  ['007.5', 'solde', '7.50'],
  [1e21, 'solde', '1000000000000000000000.00'],
  [5e-7, 'solde', '0.00'],
  ['99999999.995', 'solde', '100000000.00'],
  ['123456789012345678901234567890.125', 'solde', '123456789012345678901234567890.13'],
  ['3.5', 'unites', '4'],
  ['-2.5', 'unites', '-3'],
  [null, 'solde', undefined],
  ['abc', 'solde', 'abc'],
];

test('fromRow: DECIMAL at the declared scale, exactly (string arithmetic, rounding half away from zero as MariaDB)', async () => {
  const { Base } = await load(money);
  for (const [given, name, want] of decimalCases) {
    const column = name === 'solde' ? 'Solde' : 'Unites';
    const read = Base.fromRow({ [column]: given })[name];
    // A NULL read for the NOT NULL solde falls back to the constructor's default ('').
    assert.equal(read, want === undefined ? (name === 'solde' ? '' : null) : want, `${String(given)} -> ${String(want)}`);
  }
});

test('toRow writes DECIMAL at the declared scale; validate refuses what is not a decimal, extra decimals and negative UNSIGNED', async () => {
  const { Base } = await load(money);
  assert.equal(new Base({ solde: '3', taux: '0.5', unites: null }).toRow(), {
    Id: null,
    Solde: '3.00',
    Taux: '0.5000',
    Unites: null,
    Ecart: null,
    OuvertLe: null,
    Heure: null,
  });
  assert.equal(new Base({ solde: '3.00' }).validate(), {});
  assert.equal(new Base({ solde: '1.500' }).validate(), {}, 'trailing zeros are not decimals');
  assert.equal(new Base({ solde: '' }).validate(), { solde: M.required('Solde') });
  assert.equal(new Base({ solde: '3,5' }).validate(), { solde: M.decimal('Solde') });
  assert.equal(new Base({ solde: 3 }).validate(), { solde: M.decimal('Solde') }, 'a number is not the string the class holds');
  assert.equal(new Base({ solde: '3.456' }).validate(), { solde: M.decimalPlaces('Solde', 2) });
  assert.equal(new Base({ solde: '1', taux: '-0.0001' }).validate(), { taux: M.unsigned('Taux') });
  assert.equal(new Base({ solde: '1', taux: '-0.0000' }).validate(), {}, '-0 is not negative');
  assert.equal(new Base({ solde: '1', ecart: -0.5 }).validate(), { ecart: M.unsigned('Ecart') });
  assert.equal(new Base({ solde: '1', ecart: '0.5' }).validate(), { ecart: M.number('Ecart') });
});

test('fromRow: DATETIME(p) and TIME(p) read at the declared precision on both dialects', async () => {
  const { Base } = await load(money);
  const sqlite = Base.fromRow({ Solde: '1.00', OuvertLe: '2024-02-29 08:05:01', Heure: '07:30:00' });
  const mariadb = Base.fromRow({ Solde: '1.00', OuvertLe: '2024-02-29 08:05:01.000', Heure: '07:30:00.000000' });
  assert.equal([sqlite.ouvert_le, sqlite.heure], ['2024-02-29 08:05:01.000', '07:30:00.000000']);
  assert.equal({ ...sqlite }, { ...mariadb });
  assert.is(Base.fromRow({ Solde: '1', OuvertLe: '2024-02-29 08:05:01.5' }).ouvert_le, '2024-02-29 08:05:01.500');
});

test('messages name the field by its label, as the form does', async () => {
  const labelled = entity('Piece', [idField(), { ...field('prix_ht', 'DECIMAL(8,2)'), label: 'Prix hors taxes' } as FieldNode, field('ville_id', 'INT')]);
  const { Base } = await load(labelled);
  assert.equal(new Base({}).validate(), { prix_ht: 'Le champ « Prix hors taxes » est obligatoire.', ville_id: 'Le champ « Ville » est obligatoire.' });
});

test('the class text: marker first, self-contained, only the helpers it uses, one final newline', () => {
  const model = fixtureModel();
  const text = emitBaseClass(model, entity('Tag', [idField(), field('libelle', 'VARCHAR(50)')]));
  const lines = text.split('\n');
  assert.is(lines[0], '// fw-mvc: generated file, do not edit (regenerate with: fw sync:entity Tag)');
  assert.not.match(text, /^import /m);
  assert.equal(
    [...text.matchAll(/^function (\w+)/gm)].map((m) => m[1]),
    ['toNumber', 'toText', 'isMissing', 'tooLong'],
  );
  assert.ok(text.endsWith('}\n') && !text.endsWith('\n\n'));
  assert.is(emitBaseClass(model, contactEntity()), emitBaseClass(model, contactEntity()), 'deterministic');
});

test('a field that would shadow a class member is refused with its name', () => {
  const bad = entity('Truc', [idField(), field('validate', 'INT')]);
  assert.throws(
    () => emitBaseClass(modelNode({ entities: [bad], relations: [] }), bad),
    (e: unknown) => e instanceof EmitError && /« validate »/.test(e.message),
  );
});

test.run();
