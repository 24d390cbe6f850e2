// Deleting records that others still refer to (ON DELETE RESTRICT, the default), in generated pages served for real
// on SQLite and on MariaDB (test/helpers/crud-restrict-app.ts): single delete from the list, from the detail page and
// through htmx, bulk delete all or nothing; 409 and a message naming what refers to the record, nothing deleted
// (docs/crud.md "Deleting a record that others refer to").
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { DialectName } from '../runtime/db/index.js';
import type { HttpClient } from './helpers/crud-app.js';
import { decode, rowIds } from './helpers/crud-html.js';
import { startRestrictApp, type RestrictApp } from './helpers/crud-restrict-app.js';
import { DIALECTS } from './helpers/dialects.js';

const HX = { 'HX-Request': 'true' };

/** The flash of a page (components/alert.html), decoded. */
function flash(html: string): string {
  const match = /<div[^>]*role="(?:alert|status)"[^>]*>([\s\S]*?)<\/div>/.exec(html);
  return match
    ? decode(match[1]!.replace(/<[^>]+>/g, ''))
        .replace(/\s+/g, ' ')
        .trim()
    : '';
}

function restrictSuite(dialect: DialectName): void {
  const t = suite(`crud-http-delete-restrict: ${dialect}`);
  let app: RestrictApp;
  let client: HttpClient;
  const count = async (table: string): Promise<number> => Number((await app.rows(`SELECT COUNT(*) AS n FROM ${table}`))[0]!['n']);

  t.before(async () => {
    app = await startRestrictApp(dialect);
    client = app.client();
    await client.csrfToken('/proprietaires/new');
    for (const [id, nom] of [
      [1, 'Dupont'],
      [2, 'Martin'],
      [3, 'Petit'],
    ] as const)
      await app.exec('INSERT INTO proprietaires (Id, Nom) VALUES (?, ?)', [id, nom]);
    for (const [nom, owner] of [
      ['Rex', 1],
      ['Medor', 1],
      ['Felix', 1],
      ['Tom', 2],
    ] as const) {
      await app.exec('INSERT INTO animaux (Nom, Poids, ProprietaireId) VALUES (?, ?, ?)', [nom, '1.50', owner]);
    }
  });
  t.after(async () => {
    await app?.stop();
  });

  t('single delete from the list: 409, the list again with its state, a message counting the referencing rows; nothing deleted', async () => {
    const res = await client.post('/proprietaires/1/delete', [
      ['q', 'o'],
      ['sort', 'nom'],
      ['direction', 'asc'],
    ]);
    assert.is(res.status, 409);
    assert.is(
      flash(res.text),
      'Suppression impossible : 3 animaux font encore référence à Propriétaire #1. Supprimez-les ou rattachez-les d’abord à un autre enregistrement.',
    );
    assert.ok(res.text.includes('value="o"'), 'la recherche de la liste est gardée');
    assert.equal(rowIds(res.text), [1], 'la liste, filtrée par q=o (Dupont)');
    const one = await client.post('/proprietaires/2/delete');
    assert.is(one.status, 409);
    assert.match(flash(one.text), /^Suppression impossible : 1 animal fait encore référence à Propriétaire #2\./);
    assert.is(await count('proprietaires'), 3);
    assert.is(await count('animaux'), 4);
    // The flash was shown once: the next page has none.
    assert.is(flash((await client.get('/proprietaires')).text), '');
  });

  t('single delete from the detail page: 409 and the detail page again; with htmx, 409 and HX-Redirect to the page holding the message', async () => {
    const show = await client.post('/proprietaires/1/delete', [['from', 'show']]);
    assert.is(show.status, 409);
    assert.match(show.text, /<h1[^>]*>Propriétaire #1<\/h1>/);
    assert.match(flash(show.text), /3 animaux font encore référence à Propriétaire #1/);
    const hxShow = await client.post('/proprietaires/1/delete', [], { ...HX, 'HX-Target': 'crud-delete' });
    assert.is(hxShow.status, 409);
    assert.is(hxShow.headers.get('hx-redirect'), '/proprietaires/1');
    assert.match(flash((await client.get('/proprietaires/1')).text), /3 animaux font encore référence/);
    const hxList = await client.post('/proprietaires/2/delete', [['q', 'Mar']], { ...HX, 'HX-Target': 'crud-results' });
    assert.is(hxList.status, 409);
    assert.is(hxList.headers.get('hx-redirect'), '/proprietaires?q=Mar');
    assert.match(flash((await client.get('/proprietaires?q=Mar')).text), /1 animal fait encore référence à Propriétaire #2/);
    assert.is(await count('proprietaires'), 3);
  });

  t('bulk delete: all or nothing; 409 naming the blocking ids; the free record is not deleted either', async () => {
    const res = await client.post('/proprietaires/bulk-delete/confirm', [
      ['ids', '1'],
      ['ids', '2'],
      ['ids', '3'],
    ]);
    assert.is(res.status, 409);
    assert.is(
      flash(res.text),
      'Rien n’a été supprimé : des enregistrements font encore référence à #1 (3 animaux), #2 (1 animal). Retirez-les de la sélection, ou supprimez d’abord ce qui y fait référence.',
    );
    assert.is(await count('proprietaires'), 3, 'Petit (#3), libre, est resté');
    // The free one alone goes.
    const free = await client.post('/proprietaires/bulk-delete/confirm', [['ids', '3']]);
    assert.is(free.status, 302);
    assert.is(await count('proprietaires'), 2);
  });

  t('once nothing refers to it, the record is deleted (single and bulk)', async () => {
    await app.exec('DELETE FROM animaux WHERE ProprietaireId = ?', [2]);
    const res = await client.post('/proprietaires/2/delete');
    assert.is(res.status, 302);
    await app.exec('UPDATE animaux SET ProprietaireId = NULL');
    const bulk = await client.post('/proprietaires/bulk-delete/confirm', [['ids', '1']]);
    assert.is(bulk.status, 302);
    assert.is(await count('proprietaires'), 0);
  });

  t('a row the pages did not count (inserted by hand with an unknown table) still gives 409, not 500', async () => {
    await app.exec('INSERT INTO proprietaires (Id, Nom) VALUES (?, ?)', [7, 'Leroy']);
    await app.exec(
      'CREATE TABLE colliers (Id INT PRIMARY KEY, ProprietaireId INT NOT NULL, CONSTRAINT fk_colliers_p FOREIGN KEY (ProprietaireId) REFERENCES proprietaires (Id))',
    );
    await app.exec('INSERT INTO colliers (Id, ProprietaireId) VALUES (1, 7)');
    const res = await client.post('/proprietaires/7/delete');
    assert.is(res.status, 409);
    assert.is(flash(res.text), 'Suppression impossible : d’autres enregistrements font encore référence à Propriétaire #7.');
    const bulk = await client.post('/proprietaires/bulk-delete/confirm', [['ids', '7']]);
    assert.is(bulk.status, 409);
    assert.is(flash(bulk.text), 'Rien n’a été supprimé : d’autres enregistrements font encore référence à une partie de la sélection.');
    assert.is(await count('proprietaires'), 1);
    await app.exec('DROP TABLE colliers');
  });

  return void t.run();
}

for (const dialect of DIALECTS) restrictSuite(dialect);
