// The many-to-one selects past their first 1000 rows. The model lists at most CHOICES_MAX targets by label and
// RelationField refuses anything else, so without care a record pointing at a later target showed nothing selected
// on its edit page and lost its foreign key when saved unchanged, and posting its own id gave 422. Checked over HTTP
// on the generated Contacts app (Contact.ville_id → Ville) with 1105 villes, on SQLite and on MariaDB, and
// `missingChoiceKeys` itself.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CHOICES_MAX, missingChoiceKeys } from '../runtime/crud/index.js';
import type { DialectName } from '../runtime/db/index.js';
import { HttpClient, startCrudApp, type CrudApp } from './helpers/crud-app.js';
import { fieldError, forms, inputValue, isChecked, rowIds, selectOptions, textareaValue } from './helpers/crud-html.js';
import { dbContact, dbCount, withDb } from './helpers/crud-seed.js';
import { DIALECTS } from './helpers/dialects.js';

const K = suite('crud-relation-choices: missingChoiceKeys');

K('the keys to look up: not listed, not empty, not repeated; the first of a list; integers as the choices write them', () => {
  const rows = [{ id: 1 }, { id: 2 }, { id: '3' }];
  assert.equal(missingChoiceKeys(rows, [1, '2', ['3'], 3]), []);
  assert.equal(missingChoiceKeys(rows, [1500, ['1501', '1502'], '1500', ' 1503 ', null, undefined, '', [], {}]), [1500, 1501, 1503]);
  // '0012' or '12abc' can never be chosen (the choices say '12'); MariaDB would read '12abc' as 12.
  assert.equal(missingChoiceKeys(rows, ['0012', '12abc', '1e3', '1.0', 'abc', '-0', '99999999999999999', true]), []);
  assert.equal(missingChoiceKeys(rows, ['-4', '0', 12n]), [-4, 0, 12]);
  assert.equal(missingChoiceKeys([{ id: 'FR' }], ['FR', 'BE', ['DE'], ' LU '], 'text'), ['BE', 'DE', 'LU']);
  assert.is(CHOICES_MAX, 1000);
});

K.run();

/** 1105 villes, `V0001` … `V1105` (ids = their rank by label): the last 105 are past the first 1000 by label. */
const VILLES = 1105;
const label = (id: number): string => `V${String(id).padStart(4, '0')}`;
const MSG_CHOICE = 'Le champ « Ville » doit être l’une des valeurs proposées.';

function choicesSuite(dialect: DialectName): void {
  const t = suite(`crud-relation-choices: ${dialect}`);
  let app: CrudApp;
  let client: HttpClient;

  const villeOf = async (id: number): Promise<number | null> => (await dbContact(app, id))?.ville_id ?? null;
  const count = (): Promise<number> => dbCount(app);
  const contact = (email: string, ville: string): Array<[string, string]> => [
    ['nom', 'Far'],
    ['prenom', 'Away'],
    ['email', email],
    ['actif', '1'],
    ['ville_id', ville],
  ];

  t.before(async () => {
    app = await startCrudApp(dialect);
    client = new HttpClient(app.url);
    const villes = Array.from({ length: VILLES }, (_, i) => `(${i + 1}, '${label(i + 1)}')`);
    await withDb(app, async (db) => {
      await db.execute(`INSERT INTO villes (Id, Nom) VALUES ${villes.join(', ')}`);
      await db.execute(
        "INSERT INTO contacts (Id, Nom, Prenom, Email, Actif, Notes, VilleId) VALUES (1, 'Loin', 'Zoe', 'loin@exemple.fr', 1, 'garder', 1100), (2, 'Pres', 'Yves', 'pres@exemple.fr', 0, NULL, 5)",
      );
    });
  });

  t.after(async () => {
    if (app) await app.stop();
  });

  t('edit page of a record pointing past the first 1000: its ville is an option, selected, after the 1000 by label', async () => {
    const edit = await client.get('/contacts/1/edit');
    assert.is(edit.status, 200);
    const options = selectOptions(edit.text, 'field-ville_id');
    assert.is(options.length, 1 + CHOICES_MAX + 1, 'the empty option, the first 1000, the record’s own');
    assert.equal(
      options.filter((o) => o.selected),
      [{ value: '1100', label: 'V1100', selected: true }],
    );
    assert.equal(
      options.slice(-2).map((o) => o.label),
      ['V1000', 'V1100'],
      'still in label order',
    );
    // A record among the first 1000 gets no extra option.
    assert.is(selectOptions((await client.get('/contacts/2/edit')).text, 'field-ville_id').length, 1 + CHOICES_MAX);
  });

  t('saving the edit form unchanged keeps the ville (no silent NULL); posting its id explicitly is accepted', async () => {
    const page = (await client.get('/contacts/1/edit')).text;
    const form = forms(page).find((f) => f.attrs['action'] === '/contacts/1')!;
    // What a browser submits: the fields as shown, the selected option of the select.
    const selected = selectOptions(form.body, 'field-ville_id').find((o) => o.selected)?.value ?? '';
    const fields: Array<[string, string]> = [
      ['nom', inputValue(form.body, 'nom')!],
      ['prenom', inputValue(form.body, 'prenom')!],
      ['email', inputValue(form.body, 'email')!],
      ['telephone', inputValue(form.body, 'telephone') ?? ''],
      ['notes', textareaValue(form.body, 'notes') ?? ''],
      ...(isChecked(form.body, 'actif') ? [['actif', '1'] as [string, string]] : []),
      ['ville_id', selected],
    ];
    const saved = await client.post('/contacts/1', fields);
    assert.is(saved.status, 302, saved.text.slice(0, 500));
    assert.is(await villeOf(1), 1100);
    const other = await client.post('/contacts/1', [...fields.filter(([name]) => name !== 'ville_id'), ['ville_id', '1105']]);
    assert.is(other.status, 302);
    assert.is(await villeOf(1), 1105);
  });

  t('an unknown or malformed id is still refused with 422; a later valid one comes back selected on a 422 page', async () => {
    for (const ville of ['999999', '1106', 'abc', '01100']) {
      const res = await client.post('/contacts/1', contact('loin@exemple.fr', ville));
      assert.is(res.status, 422, ville);
      assert.is(fieldError(res.text, 'ville_id'), MSG_CHOICE, ville);
      assert.equal(
        selectOptions(res.text, 'field-ville_id').filter((o) => o.selected),
        [],
        ville,
      );
    }
    assert.is(await villeOf(1), 1105, 'unchanged');
    const invalid = await client.post('/contacts/1', [...contact('pas-une-adresse', '1102')]);
    assert.is(invalid.status, 422);
    assert.is(fieldError(invalid.text, 'ville_id'), undefined);
    assert.equal(
      selectOptions(invalid.text, 'field-ville_id')
        .filter((o) => o.selected)
        .map((o) => o.label),
      ['V1102'],
    );
  });

  t('create with a ville past the first 1000: stored; with an unknown one: 422, nothing stored', async () => {
    const before = await count();
    const created = await client.post('/contacts', contact('nouveau@exemple.fr', '1050'));
    assert.is(created.status, 302, created.text.slice(0, 500));
    assert.is(await count(), before + 1);
    const id = await withDb(app, async (db) =>
      Number((await db.fetchOne<{ id: unknown }>("SELECT Id AS id FROM contacts WHERE Email = 'nouveau@exemple.fr'"))!.id),
    );
    assert.is(await villeOf(id), 1050);
    const refused = await client.post('/contacts', contact('refuse@exemple.fr', '5000'));
    assert.is(refused.status, 422);
    assert.is(fieldError(refused.text, 'ville_id'), MSG_CHOICE);
    assert.is(await count(), before + 1);
  });

  t('the list filter on a ville past the first 1000 keeps its option, selected, and filters', async () => {
    const list = await client.get('/contacts?ville_id=1105');
    assert.is(list.status, 200);
    assert.equal(rowIds(list.text), [1]);
    const options = selectOptions(list.text, 'filter-ville_id');
    assert.is(options.length, 1 + CHOICES_MAX + 1);
    assert.equal(
      options.filter((o) => o.selected),
      [{ value: '1105', label: 'V1105', selected: true }],
    );
    assert.is(selectOptions((await client.get('/contacts?ville_id=5')).text, 'filter-ville_id').length, 1 + CHOICES_MAX);
    assert.is(selectOptions((await client.get('/contacts')).text, 'filter-ville_id').length, 1 + CHOICES_MAX, 'bounded without a filter');
  });

  t.run();
}

for (const dialect of DIALECTS) choicesSuite(dialect);
