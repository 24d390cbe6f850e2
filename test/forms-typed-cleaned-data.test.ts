// `Form<typeof FIELDS>` types `cleanedData` field by field, so that `new Entity(form.cleanedData)` is checked by
// tsc against the generated base class: the real emitted class and the runtime's declarations are compiled
// with `tsc --noEmit` in a temporary project, once. The right field classes compile; a DecimalField (string)
// into a DOUBLE (number), an optional field into a NOT NULL one, an untyped relation into an integer key, and
// a DOUBLE typed with DecimalField do not. Then the cleaned values are checked at run time.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { modelNode } from '../compiler/ir.js';
import { emitBaseClass } from '../emitters/index.js';
import {
  BooleanField,
  DateField,
  DateTimeField,
  DecimalField,
  FloatField,
  Form,
  IntegerField,
  RelationField,
  StringField,
  TimeField,
} from '../runtime/index.js';
import { entity, field, idField } from './emitters-fixture.js';
import { REPO } from './helpers/cli.js';
import { runTsc } from './helpers/typecheck.js';

const produit = entity('Produit', [
  idField(),
  field('libelle', 'VARCHAR(100)'),
  field('poids_kg', 'DOUBLE'),
  field('prix', 'DECIMAL(10,2)'),
  field('stock', 'INT'),
  field('actif', 'TINYINT(1)'),
  field('ne_le', 'DATE', { nullable: true }),
  field('cree_le', 'DATETIME', { nullable: true }),
  field('heure', 'TIME', { nullable: true }),
  field('notes', 'TEXT', { nullable: true }),
  field('ville_id', 'INT UNSIGNED', { nullable: true }),
]);

/** The field map a generated form declares for Produit, with the classes the emitter must use. */
const FIELDS_SOURCE = `{
  libelle: new StringField({ label: 'Libellé', maxLength: 100 }),
  poids_kg: new FloatField({ label: 'Poids kg' }),
  prix: new DecimalField({ label: 'Prix', maxDigits: 10, decimalPlaces: 2 }),
  stock: new IntegerField({ label: 'Stock', min: -2147483648, max: 2147483647 }),
  actif: new BooleanField({ label: 'Actif' }),
  ne_le: new DateField({ label: 'Né le', required: false }),
  cree_le: new DateTimeField({ label: 'Créé le', required: false }),
  heure: new TimeField({ label: 'Heure', required: false }),
  notes: new TextAreaField({ label: 'Notes', required: false }),
  ville_id: new RelationField({ label: 'Ville', integer: true, required: false }),
}`;

const IMPORTS = `import { BooleanField, DateField, DateTimeField, DecimalField, FloatField, Form, IntegerField, RelationField, StringField, TextAreaField, TimeField } from 'fw-mvc';
import { ProduitBase } from './produit_base.js';
`;

const GOOD = `${IMPORTS}
const PRODUIT_FORM_FIELDS = ${FIELDS_SOURCE};

export class ProduitForm extends Form<typeof PRODUIT_FORM_FIELDS> {
  static fields = PRODUIT_FORM_FIELDS;
}

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;

const form = ProduitForm.fromRequest({} as Parameters<typeof ProduitForm.fromRequest>[0]);
if (form.isValid()) {
  const produit = new ProduitBase(form.cleanedData);
  produit.validate();
}
// The exact type, not merely something assignable: null only where required is false.
const exact: Equal<typeof form.cleanedData, {
  libelle: string; poids_kg: number; prix: string; stock: number; actif: boolean; ne_le: string | null;
  cree_le: string | null; heure: string | null; notes: string | null; ville_id: number | null;
}> = true;

// A form declared as before (no type parameter) still compiles; its data is a record of unknowns.
export class LegacyForm extends Form {
  static fields = { nom: new StringField() };
  override clean(): void {
    const nom: unknown = this.cleanedData['nom'];
    if (nom === 'x') this.addError('nom', 'non');
  }
}
const legacy: Record<string, unknown> = new LegacyForm({ nom: 'a' }).cleanedData;
// A \`required\` that is not a literal may be false: the value may be null.
declare const maybe: boolean;
const loose = new IntegerField({ required: maybe });
const looseValue: Equal<ReturnType<typeof loose.clean>, number | null> = true;
export { exact, legacy, looseValue };
`;

/** Each bad file replaces one field of the map; the line marked BAD must be the one tsc refuses. */
const BAD: Record<string, { replace: [string, string]; why: string }> = {
  'bad-decimal-into-double': {
    replace: ["poids_kg: new FloatField({ label: 'Poids kg' })", "poids_kg: new DecimalField({ label: 'Poids kg' })"],
    why: 'a DecimalField cleans to a string, the base class wants a number',
  },
  'bad-optional-into-not-null': {
    replace: ["libelle: new StringField({ label: 'Libellé', maxLength: 100 })", "libelle: new StringField({ label: 'Libellé', required: false })"],
    why: 'an optional field cleans to string | null, libelle is NOT NULL',
  },
  'bad-untyped-relation': {
    replace: [
      "ville_id: new RelationField({ label: 'Ville', integer: true, required: false })",
      "ville_id: new RelationField({ label: 'Ville', required: false })",
    ],
    why: 'a RelationField without integer cleans to string | number',
  },
  'bad-float-into-decimal': {
    replace: ["prix: new DecimalField({ label: 'Prix', maxDigits: 10, decimalPlaces: 2 })", "prix: new FloatField({ label: 'Prix' })"],
    why: 'a FloatField cleans to a number, DECIMAL is a string',
  },
};

function badSource(replace: [string, string]): string {
  assert.ok(FIELDS_SOURCE.includes(replace[0]), replace[0]);
  return `${IMPORTS}
const FIELDS = ${FIELDS_SOURCE.replace(replace[0], replace[1])};
class BadForm extends Form<typeof FIELDS> {
  static fields = FIELDS;
}
const form = new BadForm({});
export const produit = new ProduitBase(form.cleanedData); // BAD
`;
}

test('tsc: Form<typeof FIELDS> into the generated base class compiles with the right field classes, not with the wrong ones', () => {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fw-typed-form-')));
  try {
    fs.mkdirSync(path.join(dir, 'node_modules'));
    fs.symlinkSync(REPO, path.join(dir, 'node_modules', 'fw-mvc'), 'dir');
    fs.symlinkSync(path.join(REPO, 'node_modules', '@types'), path.join(dir, 'node_modules', '@types'), 'dir');
    const compilerOptions = {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: ['node'],
    };
    fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['*.ts'] }));
    fs.writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }');
    fs.writeFileSync(path.join(dir, 'produit_base.ts'), emitBaseClass(modelNode({ entities: [produit], relations: [] }), produit));
    fs.writeFileSync(path.join(dir, 'good.ts'), GOOD);
    for (const [name, bad] of Object.entries(BAD)) fs.writeFileSync(path.join(dir, `${name}.ts`), badSource(bad.replace));

    const run = runTsc(dir, ['-p', 'tsconfig.json']);
    const output = run.stdout + run.stderr;
    const errors = [...output.matchAll(/^([\w-]+)\.ts\((\d+),\d+\): error (TS\d+)/gm)].map((m) => ({ file: m[1]!, line: Number(m[2]), code: m[3]! }));
    assert.equal(
      errors.filter((e) => e.file === 'good' || e.file === 'produit_base'),
      [],
      output,
    );
    for (const [name, bad] of Object.entries(BAD)) {
      const badLine =
        badSource(bad.replace)
          .split('\n')
          .findIndex((l) => l.includes('// BAD')) + 1;
      const found = errors.filter((e) => e.file === name);
      assert.equal(
        found.map((e) => e.line),
        [badLine],
        `${name} (${bad.why}):\n${output}`,
      );
    }
    assert.is(errors.length, Object.keys(BAD).length, output);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('run time: the cleaned values have the types tsc was told', () => {
  const FIELDS = {
    libelle: new StringField({ maxLength: 100 }),
    poids_kg: new FloatField(),
    prix: new DecimalField({ maxDigits: 10, decimalPlaces: 2 }),
    stock: new IntegerField(),
    actif: new BooleanField(),
    ne_le: new DateField({ required: false }),
    cree_le: new DateTimeField({ required: false }),
    heure: new TimeField({ required: false }),
    ville_id: new RelationField({ integer: true, required: false }),
  };
  class ProduitForm extends Form<typeof FIELDS> {
    static fields = FIELDS;
  }
  const form = new ProduitForm(
    { libelle: ' Vis ', poids_kg: '0,25', prix: '3', stock: '-4', actif: 'on', ne_le: '', cree_le: '2024-02-29T08:05', heure: '07:30', ville_id: '12' },
    { choices: { ville_id: [[12, 'Lyon']] } },
  );
  assert.ok(form.isValid(), JSON.stringify(form.errors));
  assert.equal(form.cleanedData, {
    libelle: 'Vis',
    poids_kg: 0.25,
    prix: '3.00',
    stock: -4,
    actif: true,
    ne_le: null,
    cree_le: '2024-02-29 07:05:00',
    heure: '07:30:00',
    ville_id: 12,
  });
});

test('RelationField integer: a choice that is not an integer is refused, the default keeps strings', () => {
  class Integer extends Form {
    static fields = { cible: new RelationField({ label: 'Cible', integer: true }) };
  }
  const refused = new Integer({ cible: 'abc' }, { choices: { cible: [['abc', 'ABC']] } });
  assert.equal(refused.errors, { cible: ['Le champ « Cible » doit être l’une des valeurs proposées.'] });
  class Loose extends Form {
    static fields = { cible: new RelationField({ label: 'Cible' }) };
  }
  const loose = new Loose({ cible: 'abc' }, { choices: { cible: [['abc', 'ABC']] } });
  assert.equal(loose.cleanedData, { cible: 'abc' });
});

test.run();
