// The generated Contacts list served for real (test/helpers/crud-seed.ts) and checked over HTTP on SQLite and on
// MariaDB (one body, run twice): partial pages (HX-Request), the partial-update attributes and the no-script forms,
// the bulk selection, the CSV export and the security headers (docs/crud.md "Partial updates (htmx, optional)",
// "CSV export", "Bulk delete"; docs/decisions.md#crud-lists-search-and-csv).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { DialectName } from '../runtime/db/index.js';
import { assertSecurityHeaders } from './helpers/client.js';
import { csvCells, csvLines, forms, hiddenFields, hxAttrs, parseLink, rowIds, tags, type Tag } from './helpers/crud-html.js';
import { CONFIRM_DELETE, CSV_HEADER, HX, VILLES, dbContacts, dbCount, insertContacts, seededApp, withDb } from './helpers/crud-seed.js';
import { DIALECTS } from './helpers/dialects.js';

function crudSuite(dialect: DialectName): void {
  const t = suite(`crud-http-partials-csv: ${dialect}`);
  const seeded = seededApp(t, dialect);
  const { get, allIds } = seeded;

  t('HX-Request: true gives the results fragment, without it the full page; Vary: HX-Request', async () => {
    for (const query of ['', '?q=exemple&actif=1&sort=email&direction=asc&page=2', '?q=zzzz']) {
      const full = await get(`/contacts${query}`);
      const part = await get(`/contacts${query}`, HX);
      for (const res of [full, part]) {
        assert.is(res.status, 200);
        assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
        assert.ok(
          (res.headers.get('vary') ?? '')
            .split(',')
            .map((v) => v.trim().toLowerCase())
            .includes('hx-request'),
          `Vary: ${res.headers.get('vary')}`,
        );
      }
      assert.match(full.text, /^<!DOCTYPE html>/);
      assert.match(full.text, /<html\b/);
      assert.match(full.text, /<div id="crud-results">/);
      assert.match(full.text, /role="search"/);
      assert.match(full.text, /id="bulk-delete-form"/);
      assert.not.match(part.text, /<html\b|<!DOCTYPE|<head\b|<body\b/i);
      assert.not.match(part.text, /id="crud-results"/, 'le fragment est le contenu de #crud-results');
      assert.not.match(part.text, /role="search"|id="bulk-delete-form"/);
      // Same rows in both.
      assert.equal(rowIds(part.text), rowIds(full.text));
      if (query !== '?q=zzzz') assert.match(part.text, /<table\b[\s\S]*<\/table>/);
    }
    // HX-Request with another value is not a partial request.
    assert.match((await get('/contacts', { 'HX-Request': 'false' })).text, /<html\b/);
  });

  t('partial-update attributes on the search form, sort and page links, single delete; none on bulk form and CSV link', async () => {
    const token = await seeded.client.csrfToken();
    const res = await get('/contacts?q=exemple&sort=nom&direction=asc&page=2');
    const part = await get('/contacts?q=exemple&sort=nom&direction=asc&page=2', HX);
    const expectHx = (tag: Tag, verb: 'hx-get' | 'hx-post', target: string, push: boolean): void => {
      assert.is(tag.attrs[verb], target, `${verb} de ${tag.raw}`);
      assert.is(tag.attrs['hx-target'], '#crud-results', tag.raw);
      assert.is(tag.attrs['hx-swap'], 'innerHTML', tag.raw);
      if (push) assert.is(tag.attrs['hx-push-url'], 'true', tag.raw);
      else assert.not.ok('hx-push-url' in tag.attrs, `pas de hx-push-url : ${tag.raw}`);
    };
    for (const html of [res.text, part.text]) {
      assert.not.match(html, /hx-delete/i);
      assert.not.match(html, /hx-trigger/i, 'pas de recherche en direct');
      const anchors = tags(html, 'a');
      const sortLinks = anchors.filter(
        (a) => /^\/contacts\?/.test(a.attrs['href'] ?? '') && (a.attrs['href'] ?? '').includes('sort=') && !(a.attrs['href'] ?? '').includes('page='),
      );
      const pageLinks = anchors.filter((a) => /[?&]page=\d/.test(a.attrs['href'] ?? ''));
      assert.ok(sortLinks.length >= 7 && pageLinks.length >= 2);
      for (const a of [...sortLinks, ...pageLinks]) expectHx(a, 'hx-get', a.attrs['href']!, true);
      const deletes = forms(html).filter((f) => /^\/contacts\/\d+\/delete$/.test(f.attrs['action'] ?? ''));
      assert.is(deletes.length, 20, 'un formulaire de suppression par ligne');
      for (const f of deletes) {
        assert.is(f.attrs['method'], 'post');
        expectHx(f, 'hx-post', f.attrs['action']!, false);
        assert.is(f.attrs['hx-confirm'], CONFIRM_DELETE);
        const hidden = new Map(hiddenFields(f));
        assert.is(hidden.get('csrf_token'), token, 'jeton CSRF dans le formulaire de suppression');
        assert.is(hidden.get('q'), 'exemple');
        assert.is(hidden.get('sort'), 'nom');
        assert.is(hidden.get('direction'), 'asc');
        assert.is(hidden.get('page'), '2');
        assert.ok(
          tags(f.body, 'button').some((b) => b.attrs['type'] === 'submit'),
          'bouton d’envoi',
        );
      }
    }
    const search = forms(res.text).find((f) => f.attrs['role'] === 'search')!;
    assert.ok(search, 'formulaire de recherche');
    assert.is(search.attrs['method'], 'get');
    assert.is(search.attrs['action'], '/contacts');
    expectHx(search, 'hx-get', '/contacts', true);
    assert.equal(
      new Map(hiddenFields(search)),
      new Map([
        ['sort', 'nom'],
        ['direction', 'asc'],
      ]),
      'le tri est gardé par la recherche, pas la page',
    );

    const bulk = forms(res.text).find((f) => f.attrs['id'] === 'bulk-delete-form')!;
    assert.ok(bulk);
    assert.equal(hxAttrs(bulk), [], 'aucun hx-* sur le formulaire de suppression groupée');
    assert.is(bulk.attrs['method'], 'post');
    assert.is(bulk.attrs['action'], '/contacts/bulk-delete');
    assert.is(new Map(hiddenFields(bulk)).get('csrf_token'), token);
    const exportLink = tags(res.text, 'a').find((a) => a.attrs['id'] === 'crud-export')!;
    assert.ok(exportLink);
    assert.equal(hxAttrs(exportLink), [], 'aucun hx-* sur le lien CSV');

    // Every POST form of the list, the detail, the edit and the new page carries the session's CSRF token.
    const id = rowIds(res.text)[0]!;
    for (const url of ['/contacts?q=exemple&sort=nom&direction=asc&page=2', `/contacts/${id}`, `/contacts/${id}/edit`, '/contacts/new']) {
      const page = await get(url);
      assert.not.match(page.text, /hx-delete/i, url);
      const posts = forms(page.text).filter((f) => (f.attrs['method'] ?? 'get').toLowerCase() === 'post');
      assert.ok(posts.length >= 1, url);
      for (const f of posts) {
        assert.ok(f.attrs['action'], `${url} : action réelle`);
        assert.is(new Map(hiddenFields(f)).get('csrf_token'), token, `${url} : ${f.raw}`);
      }
    }
  });

  t('bulk selection: checkboxes inside the table reference #bulk-delete-form, declared outside the table', async () => {
    const res = await get('/contacts');
    const start = res.text.indexOf('<table');
    const end = res.text.indexOf('</table>');
    assert.ok(start > 0 && end > start);
    const boxes = tags(res.text, 'input').filter((i) => i.attrs['type'] === 'checkbox' && i.attrs['name'] === 'ids');
    assert.is(boxes.length, 20);
    for (const box of boxes) {
      assert.is(box.attrs['form'], 'bulk-delete-form');
      assert.ok(box.index > start && box.index < end, 'case dans le tableau');
    }
    const formTags = tags(res.text, 'form').filter((f) => f.attrs['id'] === 'bulk-delete-form');
    assert.is(formTags.length, 1, 'un seul formulaire bulk-delete-form');
    const bulkForm = forms(res.text).find((f) => f.attrs['id'] === 'bulk-delete-form')!;
    const bulkEnd = bulkForm.index + res.text.slice(bulkForm.index).indexOf('</form>');
    assert.ok(bulkEnd < start || bulkForm.index > end, 'le formulaire est hors du tableau');
    assert.not.ok(
      forms(res.text).some((f) => f.index < start && f.index + res.text.slice(f.index).indexOf('</form>') > end),
      'aucun formulaire n’englobe le tableau',
    );
  });

  // --- CSV ---

  t('CSV: headers, columns, every cell quoted, same query as the list without pagination', async () => {
    const rows = await dbContacts(seeded.app);
    const villes = new Map(VILLES);
    const res = await get('/contacts/export.csv');
    assert.is(res.status, 200);
    assert.is(res.headers.get('content-type'), 'text/csv; charset=utf-8');
    assert.is(res.headers.get('content-disposition'), 'attachment; filename="contacts.csv"');
    assert.is(res.headers.get('cache-control'), 'no-store');
    const lines = csvLines(res.text);
    assert.is(lines[0], CSV_HEADER);
    assert.is(lines.length, 54, 'tous les contacts, sans pagination');
    // Default order (id DESC) and the content of each row.
    const byIdDesc = [...rows].sort((a, b) => b.id - a.id);
    lines.slice(1).forEach((line, i) => {
      const r = byIdDesc[i]!;
      assert.equal(
        csvCells(line),
        [r.nom, r.prenom, r.email, r.telephone ?? '', String(r.actif), r.ville_id === null ? '' : villes.get(r.ville_id)!],
        `ligne ${i + 1}`,
      );
    });
    // Same search, filters and sort as the list (email is unique: the order is total).
    for (const query of [
      'q=exemple&actif=1&sort=email&direction=desc',
      'ville_id=1&sort=email&direction=asc',
      'q=Martin',
      'q=%25',
      'nom=Dubois&actif=0',
      'q=zzzz',
      'bogus=1&sort=bogus&direction=sideways',
    ]) {
      const listed = await allIds(query);
      const emails = listed.map((id) => rows.find((r) => r.id === id)!.email);
      const csv = await get(`/contacts/export.csv?${query}`);
      assert.is(csv.status, 200, query);
      assert.equal(
        csvLines(csv.text)
          .slice(1)
          .map((l) => csvCells(l)[2]),
        emails,
        `CSV ${query}`,
      );
    }
    // page is ignored by the export.
    assert.is(csvLines((await get('/contacts/export.csv?page=3')).text).length, 54);
  });

  t('CSV: the export link carries q, sort, direction and filters, not page', async () => {
    const res = await get('/contacts?q=exemple&actif=1&ville_id=2&nom=Martin&sort=email&direction=desc&page=2');
    const link = tags(res.text, 'a').find((a) => a.attrs['id'] === 'crud-export')!;
    const { path, params } = parseLink(link.attrs['href']!);
    assert.is(path, '/contacts/export.csv');
    assert.equal(Object.fromEntries(params), { actif: '1', direction: 'desc', nom: 'Martin', q: 'exemple', sort: 'email', ville_id: '2' });
    const plain = tags((await get('/contacts?page=2')).text, 'a').find((a) => a.attrs['id'] === 'crud-export')!;
    assert.is(plain.attrs['href'], '/contacts/export.csv');
    const following = await get(link.attrs['href']!);
    assert.is(following.status, 200);
    assert.is(following.headers.get('content-type'), 'text/csv; charset=utf-8');
  });

  t('CSV: a cell starting with = + - @ (or a tab) gets an apostrophe, a plain number does not', async () => {
    const prenoms = ['=SUM(A1)', '+33 6 12', '-danger', '@cmd', '-1.5', '\tTab', 'Dit "Jo"', '42', 'Normal'];
    await insertContacts(
      seeded.app,
      prenoms.map((prenom, i) => ({
        nom: 'Formule',
        prenom,
        email: `f${i + 1}@exemple.fr`,
        telephone: i === 0 ? '+33 6 00' : null,
        actif: 1,
        notes: '=HYPERLINK()',
        ville_id: null,
      })),
    );
    try {
      const res = await get('/contacts/export.csv?nom=Formule&sort=email&direction=asc');
      const lines = csvLines(res.text);
      assert.is(lines.length, 1 + prenoms.length);
      assert.equal(
        lines.slice(1).map((l) => csvCells(l)[1]),
        ["'=SUM(A1)", "'+33 6 12", "'-danger", "'@cmd", '-1.5', "'\tTab", 'Dit "Jo"', '42', 'Normal'],
      );
      assert.is(lines[1], `"Formule";"'=SUM(A1)";"f1@exemple.fr";"'+33 6 00";"1";""`);
      assert.is(lines[7], '"Formule";"Dit ""Jo""";"f7@exemple.fr";"";"1";""');
    } finally {
      await withDb(seeded.app, (db) => db.execute("DELETE FROM contacts WHERE Nom = 'Formule'"));
    }
  });

  t('CSV: at most 1000 rows; the list itself is not capped', async () => {
    const values = Array.from({ length: 1005 }, (_, i) => `('Masse', 'Lot', 'masse${String(i).padStart(4, '0')}@exemple.fr', 0)`);
    await withDb(seeded.app, (db) => db.execute(`INSERT INTO contacts (Nom, Prenom, Email, Actif) VALUES ${values.join(', ')}`));
    try {
      assert.is(await dbCount(seeded.app), 53 + 1005);
      const all = await get('/contacts/export.csv');
      assert.is(csvLines(all.text).length, 1 + 1000, 'sans filtre : 1000 lignes');
      const masse = await get('/contacts/export.csv?nom=Masse&sort=email&direction=asc');
      const lines = csvLines(masse.text);
      assert.is(lines.length, 1 + 1000);
      assert.is(csvCells(lines[1]!)[2], 'masse0000@exemple.fr');
      assert.is(csvCells(lines[1000]!)[2], 'masse0999@exemple.fr');
      // The list pages through all 1005 (51 pages, the last with 5 rows).
      const last = await get('/contacts?nom=Masse&page=51');
      assert.is(rowIds(last.text).length, 5);
      assert.match(last.text, /<p class="ml-auto text-gray-500" id="crud-total">1005 contacts<\/p>/);
      assert.equal(rowIds((await get('/contacts?nom=Masse&page=52')).text), rowIds(last.text));
      assert.is(rowIds((await get('/contacts?nom=Masse&limit=2000')).text).length, 20);
    } finally {
      await withDb(seeded.app, (db) => db.execute("DELETE FROM contacts WHERE Nom = 'Masse'"));
    }
    assert.is(await dbCount(seeded.app), 53);
  });

  t('security headers on the list, the fragment and the CSV', async () => {
    assertSecurityHeaders((await get('/contacts')).headers, 'liste');
    assertSecurityHeaders((await get('/contacts?q=Martin', HX)).headers, 'fragment');
    assertSecurityHeaders((await get('/contacts?q=zzzz', HX)).headers, 'fragment vide');
    assertSecurityHeaders((await get('/contacts/export.csv')).headers, 'CSV');
    assertSecurityHeaders((await get('/contacts/abc')).headers, '404');
  });

  t.run();
}

for (const dialect of DIALECTS) crudSuite(dialect);
