// The generated Contacts list over HTTP, on SQLite and on MariaDB, with accented and capitalised names: the search
// ignores case and accents and text sorts in Unicode order on both, and SQLite returns what MariaDB returns
// (docs/decisions.md#sqlite-text-like-mariadb, docs/crud.md "Search and sort on SQLite").
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { DialectName } from '../runtime/db/index.js';
import { insertContacts, seededApp, type NewContact } from './helpers/crud-seed.js';
import { DIALECTS } from './helpers/dialects.js';

const ACCENTED: NewContact[] = [
  ['Écrou', 901],
  ['ecrou', 902],
  ['Zèbre', 903],
  ['zebre', 904],
  ['Âne', 905],
  ['abricot', 906],
  ['Œuf', 907],
  ['oeuf', 908],
  ['Straße', 909],
  ['strasse', 910],
  ['Ærø', 911],
  ['Łódź', 912],
  ['école', 913],
  ['ÉCOLE', 914],
].map(([nom, id]) => ({
  id: id as number,
  nom: nom as string,
  prenom: 'Test',
  email: `u${id}@exemple.fr`,
  telephone: null,
  actif: 1,
  notes: null,
  ville_id: null,
}));

/** The list states asked on both dialects. */
const STATES = [
  'q=écrou',
  'q=ECROU',
  'q=zebre',
  'q=ane',
  'q=œuf',
  'q=oe',
  'q=ss',
  'q=ß',
  'q=lodz',
  'q=ecole',
  'sort=nom&direction=asc',
  'sort=nom&direction=desc',
  'q=e&sort=nom&direction=asc',
];

const results: Partial<Record<DialectName, Record<string, number[]>>> = {};

function listSuite(dialect: DialectName): void {
  const t = suite(`crud-http-unicode: ${dialect}`);
  const seeded = seededApp(t, dialect);

  t('the accented rows are searched and sorted over HTTP', async () => {
    await insertContacts(seeded.app, ACCENTED);
    const found: Record<string, number[]> = {};
    for (const state of STATES) found[state] = await seeded.allIds(state);
    results[dialect] = found;
    assert.equal([...found['q=écrou']!].sort(), [901, 902], 'q=écrou finds « Écrou » and « ecrou »');
    assert.equal([...found['q=zebre']!].sort(), [903, 904]);
    const byName = found['sort=nom&direction=asc']!;
    const at = (id: number): number => byName.indexOf(id);
    assert.ok(at(906) < at(905) && at(905) < at(901) && at(901) < at(903), `abricot < Âne < Écrou < Zèbre: ${byName.join(',')}`);
  });

  t.run();
}

for (const dialect of DIALECTS) listSuite(dialect);

const same = suite('crud-http-unicode: SQLite answers as MariaDB');

same('every list state gives the same ids in the same order on both dialects', () => {
  const sqlite = results.sqlite;
  const mariadb = results.mariadb;
  assert.ok(sqlite && mariadb, 'both dialects ran');
  for (const state of STATES) assert.equal(sqlite?.[state], mariadb?.[state], state);
});

same.run();
