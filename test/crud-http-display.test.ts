// What the generated list and detail pages show, served for real on SQLite and on MariaDB
// (test/helpers/crud-restrict-app.ts): the list's total labelled with the entity's labels on one page and on
// several, no bulk-delete button on an empty list, `aria-sort` on the sorted column's <th>, decimals with the French
// separator on the pages (the CSV and the form keep the point, and an edit round trip keeps the value), and the line
// breaks of a MEDIUMTEXT on the detail page (docs/crud.md "The list page", "Numbers").
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { DialectName } from '../runtime/db/index.js';
import type { HttpClient } from './helpers/crud-app.js';
import { csvLines, decode, inputValue, tags, textareaValue } from './helpers/crud-html.js';
import { startRestrictApp, type RestrictApp } from './helpers/crud-restrict-app.js';
import { DIALECTS } from './helpers/dialects.js';

const BULK = 'Supprimer la sélection';

/** The text of the list's total (`#crud-total`), or null when absent. */
function total(html: string): string | null {
  const match = /<p[^>]*id="crud-total"[^>]*>([\s\S]*?)<\/p>/.exec(html);
  return match ? decode(match[1]!).trim() : null;
}

/** The cells of the list's row of `id`, as text. */
function rowCells(html: string, id: number): string[] {
  const row = new RegExp(`<tr>\\s*<td[^>]*><input type="checkbox" name="ids" value="${id}"[\\s\\S]*?</tr>`).exec(html);
  if (!row) throw new Error(`ligne #${id} introuvable`);
  return [...row[0].matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((m) => decode(m[1]!.replace(/<[^>]+>/g, '')).trim());
}

/** The value shown on the detail page under `label`. */
function detail(html: string, label: string): { cls: string; text: string } {
  const match = new RegExp(`<dt[^>]*>${label}</dt>\\s*<dd class="([^"]*)">([\\s\\S]*?)</dd>`).exec(html);
  if (!match) throw new Error(`détail « ${label} » introuvable`);
  return { cls: match[1]!, text: decode(match[2]!) };
}

function displaySuite(dialect: DialectName): void {
  const t = suite(`crud-http-display: ${dialect}`);
  let app: RestrictApp;
  let client: HttpClient;

  t.before(async () => {
    app = await startRestrictApp(dialect);
    client = app.client();
  });
  t.after(async () => {
    await app?.stop();
  });

  t('empty list: no bulk-delete button, no total', async () => {
    for (const headers of [{}, { 'HX-Request': 'true' }] as Array<Record<string, string>>) {
      const res = await client.get('/animaux', headers);
      assert.is(res.status, 200);
      assert.not.ok(res.text.includes(BULK), 'pas de « Supprimer la sélection » sur une liste vide');
      assert.is(total(res.text), null);
    }
  });

  t('one page: the total is labelled (« 1 animal », « 3 animaux ») and the bulk button shows', async () => {
    await app.exec('INSERT INTO animaux (Id, Nom, Poids, Taille, Notes) VALUES (?, ?, ?, ?, ?)', [
      1,
      'Rex',
      '0.50',
      0.25,
      'Vacciné le 3 mars\nAllergique au poulet\n\nCalme',
    ]);
    const one = await client.get('/animaux');
    assert.is(total(one.text), '1 animal');
    assert.ok(one.text.includes(BULK));
    await app.exec('INSERT INTO animaux (Id, Nom, Poids) VALUES (?, ?, ?), (?, ?, ?)', [2, 'Medor', '12.00', 3, 'Felix', '3.75']);
    assert.is(total((await client.get('/animaux')).text), '3 animaux');
    // A search that finds nothing, through htmx: the button goes out of band.
    const none = await client.get('/animaux?q=zzz', { 'HX-Request': 'true' });
    assert.match(none.text, /<span id="crud-bulk-box" hx-swap-oob="true"><\/span>/);
    const some = await client.get('/animaux?q=Rex', { 'HX-Request': 'true' });
    assert.match(some.text, /<span id="crud-bulk-box" hx-swap-oob="true"><button[^>]*>Supprimer la sélection<\/button><\/span>/);
  });

  t('several pages: « 25 animaux » beside the page links; aria-sort on the sorted <th>, not on its link', async () => {
    for (let id = 4; id <= 25; id++)
      await app.exec('INSERT INTO animaux (Id, Nom, Poids) VALUES (?, ?, ?)', [id, `Animal ${String(id).padStart(2, '0')}`, '1.00']);
    const res = await client.get('/animaux?sort=nom&direction=desc');
    assert.is(total(res.text), '25 animaux');
    assert.match(res.text, /<nav aria-label="[^"]*"/);
    const ths = tags(res.text, 'th').filter((tag) => tag.attrs['aria-sort'] !== undefined);
    assert.is(ths.length, 1);
    assert.is(ths[0]!.attrs['aria-sort'], 'descending');
    assert.not.match(res.text, /<a [^>]*aria-sort/);
    const asc = await client.get('/animaux?sort=poids');
    assert.equal(
      tags(asc.text, 'th')
        .map((tag) => tag.attrs['aria-sort'])
        .filter(Boolean),
      ['ascending'],
    );
  });

  t('decimals: « 0,50 » on the list and the detail page; « 0.50 » in the CSV and the form', async () => {
    const list = await client.get('/animaux?sort=id');
    const cells = rowCells(list.text, 1);
    assert.ok(cells.includes('0,50'), `cellules : ${cells.join(' | ')}`);
    assert.ok(cells.includes('0,25'), `cellules : ${cells.join(' | ')}`);
    assert.not.ok(cells.includes('0.50'));
    const show = await client.get('/animaux/1');
    assert.is(detail(show.text, 'Poids').text, '0,50');
    assert.is(detail(show.text, 'Taille').text, '0,25');
    const csv = csvLines((await client.get('/animaux/export.csv?sort=id')).text);
    assert.match(csv[1]!, /"Rex";"0,50";"0,25"/);
    const edit = await client.get('/animaux/1/edit');
    assert.is(inputValue(edit.text, 'poids'), '0.50');
    assert.is(inputValue(edit.text, 'taille'), '0.25');
  });

  t('edit round trip: the form sent back as shown keeps the value; « 12,75 » typed is stored as 12.75 and shown « 12,75 »', async () => {
    await client.csrfToken('/animaux/new');
    const edit = await client.get('/animaux/1/edit');
    const form = (poids: string): Array<[string, string]> => [
      ['nom', inputValue(edit.text, 'nom')!],
      ['poids', poids],
      ['taille', inputValue(edit.text, 'taille')!],
      ['notes', textareaValue(edit.text, 'notes')!],
      ['proprietaire_id', ''],
    ];
    const stored = async (): Promise<string> => String((await app.rows('SELECT Poids AS p FROM animaux WHERE Id = 1'))[0]!['p']);
    const same = await client.post('/animaux/1', form(inputValue(edit.text, 'poids')!));
    assert.is(same.status, 302);
    assert.is(Number(await stored()), 0.5);
    // The value as the list and the detail show it, with the comma.
    const shown = await client.post('/animaux/1', form('0,50'));
    assert.is(shown.status, 302);
    assert.is(Number(await stored()), 0.5);
    const typed = await client.post('/animaux/1', form('12,75'));
    assert.is(typed.status, 302);
    assert.is(Number(await stored()), 12.75);
    assert.is(detail((await client.get('/animaux/1')).text, 'Poids').text, '12,75');
    assert.is(inputValue((await client.get('/animaux/1/edit')).text, 'poids'), '12.75');
  });

  t('detail page: a MEDIUMTEXT keeps its line breaks (whitespace-pre-line, as the public page)', async () => {
    const show = await client.get('/animaux/1');
    const notes = detail(show.text, 'Notes');
    assert.is(notes.text, 'Vacciné le 3 mars\nAllergique au poulet\n\nCalme');
    assert.ok(notes.cls.split(' ').includes('whitespace-pre-line'), notes.cls);
  });

  return void t.run();
}

for (const dialect of DIALECTS) displaySuite(dialect);
