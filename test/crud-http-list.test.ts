// The generated Contacts list served for real (test/helpers/crud-seed.ts) and checked over HTTP on SQLite and on
// MariaDB (one body, run twice): pages, sort, search, filters, reset link and empty states
// (docs/crud.md "The list page"; docs/decisions.md#crud-lists-search-and-csv).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { DialectName } from '../runtime/db/index.js';
import { emptyState, inputValue, parseAttrs, parseLink, rowIds, selectOptions, tags, csvLines } from './helpers/crud-html.js';
import { CSV_HEADER, EMPTY, HX, compare, dbContacts, dbCount, searchIds, seededApp, sorted, type ContactRow } from './helpers/crud-seed.js';
import type { HttpResult } from './helpers/crud-app.js';
import { DIALECTS } from './helpers/dialects.js';

/** The sorted column's header: its `aria-sort` (on the <th>) and the link inside it. */
function sortedHeader(html: string): { sort: string; href: string } | undefined {
  const match = /<th [^>]*aria-sort="([^"]+)"[^>]*><a href="([^"]+)"/.exec(html);
  return match ? { sort: match[1]!, href: match[2]!.replace(/&amp;/g, '&') } : undefined;
}

function crudSuite(dialect: DialectName): void {
  const t = suite(`crud-http-list: ${dialect}`);
  let empty: { page: HttpResult; fragment: HttpResult; csv: HttpResult };
  // The empty table first (general empty state), then the seed data.
  const seeded = seededApp(t, dialect, async ({ get }) => {
    empty = { page: await get('/contacts'), fragment: await get('/contacts', HX), csv: await get('/contacts/export.csv') };
  });
  const { get, pageIds, allIds } = seeded;

  t('empty table: general empty state, no reset link, CSV with the header only', () => {
    for (const res of [empty.page, empty.fragment]) {
      assert.is(res.status, 200);
      assert.equal(emptyState(res.text), { context: 'general', message: EMPTY.general });
      assert.not.ok(res.text.includes('id="crud-reset"'), 'pas de lien de réinitialisation sans recherche ni filtre');
      assert.not.ok(res.text.includes('<table'), 'pas de tableau vide');
    }
    assert.is(empty.csv.status, 200);
    assert.equal(csvLines(empty.csv.text), [CSV_HEADER]);
  });

  t('list: 20 rows per page; absent, invalid or low page gives 1, above the last gives the last; no limit parameter', async () => {
    const rows = await dbContacts(seeded.app);
    assert.is(rows.length, 53);
    const byIdDesc = rows.map((r) => r.id).sort((a, b) => b - a);
    const first = await pageIds('/contacts');
    assert.equal(first, byIdDesc.slice(0, 20), 'page 1 : les 20 plus grands ids, du plus grand au plus petit');
    assert.equal(await pageIds('/contacts?page=2'), byIdDesc.slice(20, 40));
    const last = await pageIds('/contacts?page=3');
    assert.equal(last, byIdDesc.slice(40));
    assert.is(last.length, 13);
    for (const page of ['1', '0', '-3', 'abc', '', '2.5', '1e1', '%20']) {
      assert.equal(await pageIds(`/contacts?page=${page}`), first, `page=${page} → page 1`);
    }
    for (const page of ['4', '99', '99999999999999999999']) {
      assert.equal(await pageIds(`/contacts?page=${page}`), last, `page=${page} → dernière page`);
    }
    for (const query of ['limit=100', 'limit=5', 'limit=100&page=1', 'per_page=100']) {
      assert.equal(await pageIds(`/contacts?${query}`), first, `${query} ignoré`);
    }
    assert.equal(await pageIds('/contacts?limit=100&page=3'), last);
    // The current page is marked and the total shown.
    const middle = await get('/contacts?page=2');
    assert.match(middle.text, /<span aria-current="page"[^>]*>2<\/span>/);
    assert.match(middle.text, /<p class="ml-auto text-gray-500" id="crud-total">53 contacts<\/p>/);
  });

  t('list: default sort id DESC; an unknown sort is ignored; an invalid direction gives asc; a direction alone orders the id', async () => {
    const rows = await dbContacts(seeded.app);
    const byIdDesc = rows
      .map((r) => r.id)
      .sort((a, b) => b - a)
      .slice(0, 20);
    const byIdAsc = rows
      .map((r) => r.id)
      .sort((a, b) => a - b)
      .slice(0, 20);
    for (const query of [
      '',
      'sort=bogus',
      'sort=Nom',
      'sort=t.Nom',
      'sort=nom%3BDROP%20TABLE%20contacts',
      'sort=ville_id_label',
      'sort=__proto__',
      'sort=bogus&direction=asc',
      'direction=sideways',
    ]) {
      assert.equal(await pageIds(`/contacts?${query}`), byIdDesc, `« ${query} » → id DESC`);
    }
    for (const direction of ['sideways', 'ASCENDING', '', '1', 'desc%27']) {
      assert.equal(await pageIds(`/contacts?sort=id&direction=${direction}`), byIdAsc, `direction=${direction} → asc`);
    }
    assert.equal(await pageIds('/contacts?sort=id&direction=desc'), byIdDesc);
    // `direction` without `sort`: the primary key in that direction, kept by the page links and shown on its header.
    assert.equal(await pageIds('/contacts?direction=asc'), byIdAsc);
    assert.equal(await pageIds('/contacts?direction=desc'), byIdDesc);
    const asc = await get('/contacts?direction=asc&q=exemple');
    const next = tags(asc.text, 'a').find((a) => a.attrs['rel'] === 'next')!;
    assert.equal(Object.fromEntries(parseLink(next.attrs['href']!).params), { direction: 'asc', page: '2', q: 'exemple', sort: 'id' });
    assert.equal(
      await pageIds(next.attrs['href']!),
      rows
        .map((r) => r.id)
        .sort((a, b) => a - b)
        .slice(20, 40),
    );
    assert.is(sortedHeader(asc.text)?.href, '/contacts?direction=desc&q=exemple&sort=id');
    assert.is(await dbCount(seeded.app), 53, 'la table est intacte');
  });

  t('list: every column key sorts ascending and descending', async () => {
    const rows = await dbContacts(seeded.app);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const keys = ['id', 'nom', 'prenom', 'email', 'telephone', 'actif', 'notes', 'ville_id'] as const;
    for (const key of keys) {
      const values = rows.map((r) => r[key]).sort(compare);
      for (const direction of ['asc', 'desc'] as const) {
        const sign = direction === 'asc' ? 1 : -1;
        const ids = [
          ...(await pageIds(`/contacts?sort=${key}&direction=${direction}`)),
          ...(await pageIds(`/contacts?sort=${key}&direction=${direction}&page=2`)),
        ];
        assert.is(ids.length, 40);
        assert.is(new Set(ids).size, 40, `${key} ${direction} : pas de doublon entre les pages 1 et 2`);
        const seen = ids.map((id) => byId.get(id)![key]);
        for (let i = 1; i < seen.length; i++) {
          assert.ok(sign * compare(seen[i - 1]!, seen[i]!) <= 0, `${key} ${direction} : ${String(seen[i - 1])} puis ${String(seen[i])} (rang ${i})`);
        }
        const extreme = direction === 'asc' ? values[0]! : values[values.length - 1]!;
        assert.is(compare(seen[0]!, extreme), 0, `${key} ${direction} : la première ligne porte la valeur extrême`);
      }
      if (key === 'notes') continue; // TEXT: sortable, not a column of the table
      const page = await get(`/contacts?sort=${key}&direction=desc`);
      const header = sortedHeader(page.text);
      assert.ok(header, `${key} : en-tête trié marqué`);
      assert.is(header!.sort, 'descending');
      assert.is(parseLink(header!.href).params.get('sort'), key);
      assert.not.ok(
        tags(page.text, 'a').some((a) => a.attrs['aria-sort']),
        'aria-sort sur le <th>, pas sur son lien',
      );
    }
  });

  t('list: sort links reset the page and keep q and filters; page links keep q, filters, sort and direction', async () => {
    const res = await get('/contacts?q=exemple&actif=1&sort=prenom&direction=desc&page=2');
    assert.is(res.status, 200);
    const headerLinks = [...res.text.slice(res.text.indexOf('<thead'), res.text.indexOf('</thead>')).matchAll(/<a\b[^>]*>/g)].map((m) => parseAttrs(m[0]));
    assert.is(headerLinks.length, 7, 'un lien de tri par colonne affichée (notes, TEXT, n’est pas affichée)');
    const keys = new Set<string>();
    for (const attrs of headerLinks) {
      const { path, params } = parseLink(attrs['href']!);
      assert.is(path, '/contacts');
      assert.not.ok(params.has('page'), `lien de tri sans page : ${attrs['href']}`);
      assert.is(params.get('q'), 'exemple');
      assert.is(params.get('actif'), '1');
      assert.ok(['asc', 'desc'].includes(params.get('direction') ?? ''), attrs['href']);
      keys.add(params.get('sort')!);
    }
    assert.equal([...keys].sort(), ['actif', 'email', 'id', 'nom', 'prenom', 'telephone', 'ville_id']);
    // Following a sort link from page 2 lands on page 1 of the new order.
    const nomLink = headerLinks.find((a) => parseLink(a['href']!).params.get('sort') === 'nom')!;
    const followed = await get(nomLink['href']!);
    assert.match(followed.text, /<span aria-current="page"[^>]*>1<\/span>/);

    const pageLinks = tags(res.text, 'a').filter((a) => /[?&]page=\d+/.test(a.attrs['href'] ?? ''));
    assert.ok(pageLinks.length >= 2, 'liens de pagination (précédent, numéros)');
    for (const link of pageLinks) {
      const { path, params } = parseLink(link.attrs['href']!);
      assert.is(path, '/contacts');
      assert.is(params.get('q'), 'exemple', link.attrs['href']);
      assert.is(params.get('actif'), '1', link.attrs['href']);
      assert.is(params.get('sort'), 'prenom', link.attrs['href']);
      assert.is(params.get('direction'), 'desc', link.attrs['href']);
      assert.match(params.get('page')!, /^[12]$/);
    }
    // With the relation filter too.
    const withVille = await get('/contacts?q=exemple&ville_id=1&sort=email&direction=asc');
    const villeLinks = tags(withVille.text, 'a').filter((a) => /[?&]page=\d+/.test(a.attrs['href'] ?? ''));
    assert.ok(villeLinks.length >= 1, 'ville_id=1 : plus d’une page');
    for (const link of villeLinks) {
      const { params } = parseLink(link.attrs['href']!);
      assert.is(params.get('ville_id'), '1');
      assert.is(params.get('q'), 'exemple');
      assert.is(params.get('sort'), 'email');
      assert.is(params.get('direction'), 'asc');
    }
  });

  t('list: the reset link appears only with q or a filter, and goes back to /contacts', async () => {
    for (const query of ['q=Martin', 'actif=0', 'nom=Martin', 'ville_id=2', 'q=zzzz', 'q=Martin&actif=1']) {
      for (const headers of [{}, HX]) {
        const res = await get(`/contacts?${query}`, headers);
        const reset = tags(res.text, 'a').filter((a) => a.attrs['id'] === 'crud-reset');
        assert.is(reset.length, 1, `${query} : un lien de réinitialisation`);
        assert.is(reset[0]!.attrs['href'], '/contacts');
      }
    }
    for (const query of ['', 'sort=nom&direction=asc', 'page=2', 'actif=', 'ville_id=', 'q=', 'q=%20%20', 'bogus=1', 'ville_id=abc', 'actif=yes']) {
      const res = await get(`/contacts?${query}`);
      assert.not.ok(res.text.includes('id="crud-reset"'), `${query} : pas de lien de réinitialisation`);
    }
  });

  // --- search ---

  t('search: substring over nom, prenom, email, telephone and notes; % _ ! are literal', async () => {
    const rows = await dbContacts(seeded.app);
    const cases: Array<[string, number]> = [
      ['Martin', 4],
      ['mar', -1],
      ['%', 1],
      ['50%', 1],
      ['_', 1],
      ['e_s', 1],
      ['!', 1],
      ["'", 1],
      ["d'es", 1],
      ['\\', 1],
      [':\\t', 1],
      ['"', 0],
      ['mardi', 1],
      ['06 00 00 00 05', 1],
      ['c1', 10],
      ['Zoe', 1],
      ['exemple', 53],
      ['zzzz', 0],
    ];
    for (const [q, count] of cases) {
      const expected = searchIds(rows, q);
      if (count >= 0) assert.is(expected.length, count, `jeu de données : ${q}`);
      const got = await allIds(`q=${encodeURIComponent(q)}`);
      assert.equal(sorted(got), sorted(expected), `q=${q}`);
    }
    const percent = rows.find((r) => r.nom === 'Taux 50% net')!.id;
    assert.equal(await allIds('q=%25'), [percent], 'q=% ne trouve que le nom qui contient %');
    assert.equal(await allIds('q=_'), [rows.find((r) => r.nom === 'Remise_speciale')!.id]);
    // The search is kept in the search form.
    const res = await get('/contacts?q=50%25');
    assert.is(inputValue(res.text, 'q'), '50%');
    assert.match(res.text, /Taux 50% net/);
    assert.not.match(res.text, /Taux 500 brut/);
  });

  t('search: numbers, booleans and foreign keys are not searched', async () => {
    // Sansun: id 777, actif 1, ville_id 888 (Nantes), no 1, 7 or 8 in its text.
    assert.equal(await pageIds('/contacts?nom=Sansun'), [777]);
    assert.equal(await pageIds('/contacts?nom=Sansun&q=Zo'), [777]);
    for (const q of ['777', '7', '1', '888', '8', 'Nantes']) {
      const res = await get(`/contacts?nom=Sansun&q=${q}`);
      assert.equal(rowIds(res.text), [], `q=${q} ne cherche pas dans l’id, le booléen, la clé étrangère`);
      assert.equal(emptyState(res.text), { context: 'search_filters', message: EMPTY.search_filters });
    }
    const rows = await dbContacts(seeded.app);
    assert.equal(sorted(await allIds('q=777')), sorted(searchIds(rows, '777')));
    assert.equal(await allIds('q=777'), []);
  });

  // --- filters ---

  t('filters: actif 1 / 0 / All, ville_id select of labels, nom equality, AND with q; unknown keys ignored', async () => {
    const rows = await dbContacts(seeded.app);
    const idsWhere = (pred: (r: ContactRow) => boolean): number[] => sorted(rows.filter(pred).map((r) => r.id));
    assert.equal(
      sorted(await allIds('actif=1')),
      idsWhere((r) => r.actif === 1),
    );
    assert.equal(
      sorted(await allIds('actif=0')),
      idsWhere((r) => r.actif === 0),
    );
    assert.equal(
      sorted(await allIds('actif=')),
      idsWhere(() => true),
      'actif vide : tous',
    );
    assert.equal(
      sorted(await allIds('ville_id=1')),
      idsWhere((r) => r.ville_id === 1),
    );
    assert.equal(sorted(await allIds('ville_id=888')), [777]);
    assert.equal(
      sorted(await allIds('nom=Martin')),
      idsWhere((r) => r.nom === 'Martin'),
    );
    assert.is(idsWhere((r) => r.nom === 'Martin').length, 4);
    assert.equal(await allIds('nom=Mart'), [], 'égalité, pas sous-chaîne');
    assert.equal(
      sorted(await allIds('nom=Martin&actif=1')),
      idsWhere((r) => r.nom === 'Martin' && r.actif === 1),
    );
    assert.equal(
      sorted(await allIds('actif=1&ville_id=2')),
      idsWhere((r) => r.actif === 1 && r.ville_id === 2),
    );
    // The search group is in parentheses: a match on nom does not escape the filter.
    const expectedAnd = idsWhere((r) => searchIds([r], 'Martin').length > 0 && r.actif === 1);
    assert.ok(expectedAnd.length > 0);
    assert.equal(sorted(await allIds('q=Martin&actif=1')), expectedAnd);
    assert.equal(
      sorted(await allIds('q=exemple&actif=0&ville_id=2')),
      idsWhere((r) => r.actif === 0 && r.ville_id === 2),
    );
    assert.equal(
      sorted(await allIds('q=Note&nom=Dubois')),
      idsWhere((r) => r.nom === 'Dubois' && (r.notes ?? '').includes('Note')),
    );

    // Unknown filter keys (prenom is a column but not a filter) and junk values are ignored.
    const everyone = await pageIds('/contacts');
    for (const query of [
      'bogus=1',
      'prenom=Alice',
      'email=c01%40exemple.fr',
      'id=5',
      'Actif=1',
      'ville_id=abc',
      'actif=yes',
      'actif=2',
      'filters%5Bnom%5D=x',
    ]) {
      const res = await get(`/contacts?${query}`);
      assert.is(res.status, 200, query);
      assert.equal(rowIds(res.text), everyone, `${query} ignoré`);
    }

    // The filter widgets: All / Yes / No, the labels of the villes, the text input; the chosen values are kept.
    const page = await get('/contacts?actif=0&ville_id=2&nom=Martin');
    assert.equal(selectOptions(page.text, 'filter-actif'), [
      { value: '', label: 'Tous', selected: false },
      { value: '1', label: 'Oui', selected: false },
      { value: '0', label: 'Non', selected: true },
    ]);
    assert.equal(selectOptions(page.text, 'filter-ville_id'), [
      { value: '', label: 'Tous', selected: false },
      { value: '1', label: 'Lyon', selected: false },
      { value: '888', label: 'Nantes', selected: false },
      { value: '2', label: 'Paris', selected: true },
    ]);
    assert.is(tags(page.text, 'input').find((i) => i.attrs['id'] === 'filter-nom')!.attrs['value'], 'Martin');
    const none = await get('/contacts');
    assert.equal(
      selectOptions(none.text, 'filter-actif').filter((o) => o.selected),
      [],
      'Tous par défaut (aucune option forcée)',
    );
    assert.equal(
      selectOptions(none.text, 'filter-ville_id').filter((o) => o.selected),
      [],
    );
  });

  t('empty states: search, filters, search_filters with their French messages', async () => {
    const cases: Array<[string, string]> = [
      ['q=zzzz', 'search'],
      ['nom=Personne', 'filters'],
      ['actif=0&ville_id=888', 'filters'],
      ['q=zzzz&actif=1', 'search_filters'],
      ['q=Martin&nom=Dubois', 'search_filters'],
    ];
    for (const [query, context] of cases) {
      for (const headers of [{}, HX]) {
        const res = await get(`/contacts?${query}`, headers);
        assert.is(res.status, 200);
        assert.equal(emptyState(res.text), { context, message: EMPTY[context]! }, query);
        assert.equal(rowIds(res.text), []);
      }
    }
    assert.is(emptyState((await get('/contacts?q=Martin')).text), null, 'pas d’état vide quand il y a des lignes');
  });

  t.run();
}

for (const dialect of DIALECTS) crudSuite(dialect);
