// LinkRowsField (docs/crud.md "Pivot fields"): the links of a many-to-many with their pivot values, one row of inputs
// per link; each refused input keeps its own message, the rows come back as typed, an initial value shows the links.
// Plus the helpers of the crud module: the keys a row's select must offer, the detail page's text.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { linkDetails, linkRowKeys, relatedKeys } from '../runtime/crud/index.js';
import { BooleanField, DateField, DecimalField, Form, IntegerField, LinkRowsField } from '../runtime/forms/index.js';

const FIELDS = {
  vaccin_ids: new LinkRowsField({
    name: 'vaccin_ids',
    label: 'Vaccins',
    rowLabel: 'Vaccin',
    required: false,
    fields: {
      date_injection: new DateField({ label: 'Date d’injection' }),
      rang: new IntegerField({ label: 'Rang', required: false, min: 0, max: 255 }),
      dose: new DecimalField({ label: 'Dose', required: false, maxDigits: 4, decimalPlaces: 2 }),
      rappel: new BooleanField({ label: 'Rappel' }),
    },
  }),
};
class AnimalForm extends Form<typeof FIELDS> {
  static fields = FIELDS;
}
const CHOICES = {
  vaccin_ids: [
    [1, 'Rage'],
    [2, 'Leptospirose'],
    [3, 'Toux'],
  ] as const,
};

test('rows cleaned by their fields; empty rows skipped whatever their inputs; a checkbox unchecked is false', () => {
  const form = new AnimalForm(
    {
      'vaccin_ids.0': ['2'],
      'vaccin_ids.0.date_injection': ['2025-03-12'],
      'vaccin_ids.0.rang': ['1'],
      'vaccin_ids.0.dose': ['1,5'],
      'vaccin_ids.0.rappel': ['1'],
      'vaccin_ids.1': [''],
      'vaccin_ids.1.date_injection': ['n’importe quoi'],
      'vaccin_ids.10': ['1'],
      'vaccin_ids.10.date_injection': ['2025-04-01'],
      'vaccin_ids.10.rang': [''],
    },
    { choices: CHOICES },
  );
  assert.ok(form.isValid(), JSON.stringify(form.errors));
  assert.equal(form.cleanedData.vaccin_ids, [
    { id: 2, values: { date_injection: '2025-03-12', rang: 1, dose: '1.50', rappel: true } },
    { id: 1, values: { date_injection: '2025-04-01', rang: null, dose: null, rappel: false } },
  ]);
});

test('each refused input has its message by input name; the row select too; the rows come back as typed, then empty ones', () => {
  const form = new AnimalForm(
    {
      'vaccin_ids.0': ['2'],
      'vaccin_ids.0.date_injection': ['2025-02-30'],
      'vaccin_ids.0.rang': ['300'],
      'vaccin_ids.1': ['2'],
      'vaccin_ids.1.date_injection': ['2025-01-01'],
      'vaccin_ids.2': ['9'],
    },
    { choices: CHOICES },
  );
  assert.not.ok(form.isValid());
  assert.equal(form.errors, { vaccin_ids: ['Le champ « Vaccins » contient des valeurs à corriger (voir les lignes ci-dessous).'] });
  const context = form.context().vaccin_ids as unknown as {
    rows: Array<{
      name: string;
      error: string;
      options: Array<{ value: string; selected: boolean }>;
      inputs: Array<{ name: string; value: string; error: string }>;
    }>;
  };
  assert.is(context.rows.length, 6, 'three rows posted, three empty ones');
  const [first, second, third] = context.rows;
  assert.equal(
    first!.inputs.map((i) => [i.name, i.value, i.error]),
    [
      ['vaccin_ids.0.date_injection', '2025-02-30', 'Le champ « Date d’injection » doit être une date valide au format AAAA-MM-JJ.'],
      ['vaccin_ids.0.rang', '300', 'Le champ « Rang » doit être inférieur ou égal à 255.'],
      ['vaccin_ids.0.dose', '', ''],
      ['vaccin_ids.0.rappel', '', ''],
    ],
  );
  assert.is(second!.error, 'Ce choix de « Vaccin » figure déjà sur une autre ligne.');
  assert.is(third!.error, 'Le champ « Vaccin » doit être l’une des valeurs proposées.');
  assert.equal(
    first!.options.filter((o) => o.selected).map((o) => o.value),
    ['2'],
  );
  assert.equal(
    context.rows.slice(3).map((r) => r.name),
    ['vaccin_ids.3', 'vaccin_ids.4', 'vaccin_ids.5'],
  );
});

test('a plain list of ids still works (rows with empty inputs: a required one is refused); required with no link', () => {
  const plain = new AnimalForm({ vaccin_ids: ['1,3'] }, { choices: CHOICES });
  assert.not.ok(plain.isValid());
  const rows = (plain.context().vaccin_ids as unknown as { rows: Array<{ inputs: Array<{ error: string }> }> }).rows;
  assert.is(rows[0]!.inputs[0]!.error, 'Le champ « Date d’injection » est obligatoire.');
  const required = new LinkRowsField({ name: 'v', label: 'Vaccins', fields: {} });
  assert.throws(() => required.withChoices([[1, 'Rage']]).clean({ value: undefined, values: [], file: undefined }, 'Vaccins'), /est obligatoire/);
  assert.equal(new LinkRowsField({ name: 'v', fields: {} }).withChoices([[1, 'Rage']]).clean({ value: '1', values: ['1'], file: undefined }, 'V'), [
    { id: 1, values: {} },
  ]);
});

test('an unbound form shows the links of its initial value with their values formatted, then the empty rows', () => {
  const form = new AnimalForm(null, {
    choices: CHOICES,
    initial: { vaccin_ids: [{ id: 3, values: { date_injection: new Date(Date.UTC(2025, 2, 12)), rang: 2, dose: '0.50', rappel: 1 } }] },
  });
  const context = form.context().vaccin_ids as unknown as {
    values: string[];
    rows: Array<{ options: Array<{ value: string; selected: boolean }>; inputs: Array<{ value: string }> }>;
  };
  assert.equal(context.values, ['3']);
  assert.is(context.rows.length, 4);
  assert.equal(
    context.rows[0]!.inputs.map((i) => i.value),
    ['2025-03-12', '2', '0.50', '1'],
  );
  assert.equal(
    context.rows[0]!.options.filter((o) => o.selected).map((o) => o.value),
    ['3'],
  );
});

test('the keys a row select must offer; the detail page text', () => {
  assert.equal(
    linkRowKeys({ vaccin_ids: [{ id: 7, values: {} }, 8], 'vaccin_ids.0': ['1200'], 'vaccin_ids.1': [''], 'vaccin_ids.x': ['5'], autre: ['6'] }, 'vaccin_ids'),
    ['7', '8', '1200'],
  );
  assert.equal(relatedKeys([{ id: 4, values: {} }, '5,6']), ['4', '5', '6']);
  const detail = linkDetails(
    'Vaccins',
    [
      { label: 'Rage', v0: '2025-03-12', v1: null },
      { label: 'Toux', v0: '2025-04-01', v1: 2 },
    ],
    [
      { label: 'Date', show: (v) => `le ${String(v)}` },
      { label: 'Rang', show: (v) => v },
    ],
  );
  assert.is(detail.value, 'Rage (Date\u00a0: le 2025-03-12 ; Rang\u00a0: —), Toux (Date\u00a0: le 2025-04-01 ; Rang\u00a0: 2)');
  assert.equal(detail.links[1], {
    label: 'Toux',
    values: [
      { label: 'Date', value: 'le 2025-04-01' },
      { label: 'Rang', value: '2' },
    ],
  });
});

test.run();
