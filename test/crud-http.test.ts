// The generated Contacts CRUD served for real (test/helpers/crud-app.ts) and checked over HTTP on SQLite and on
// MariaDB (one body, run twice): list (pagination, sort, search, filters, empty states), partial pages
// (HX-Request), partial-update attributes and no-script forms, show / edit / create / update, single and bulk
// delete, CSV export, security headers (cli-and-generators.md "Generated CRUD routes", "List query parameters",
// "Partial-page behaviour", "Bulk delete rules", "CSV export rules", "Limits"; DECISIONS §5 "CRUD and CLI").
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Database, DialectName } from '../runtime/db/index.js';
import { assertSecurityHeaders } from './helpers/client.js';
import { HttpClient, startCrudApp, type CrudApp, type HttpResult } from './helpers/crud-app.js';

// --- French texts the pages must show -------------------------------------------------------------------------

const EMPTY: Record<string, string> = {
  general: 'Aucun enregistrement pour le moment.',
  search: 'Aucun résultat pour cette recherche.',
  filters: 'Aucun résultat pour ces filtres.',
  search_filters: 'Aucun résultat pour cette recherche avec ces filtres.',
};
const CONFIRM_DELETE = 'Supprimer définitivement cet enregistrement ?';
const FLASH = {
  created: 'Enregistrement créé.',
  updated: 'Enregistrement mis à jour.',
  deleted: 'Enregistrement supprimé.',
  bulkDeleted: 'Enregistrements supprimés.',
  noneSelected: 'Aucun enregistrement sélectionné.',
};
const MSG = {
  nomRequired: 'Le champ « Nom » est obligatoire.',
  emailInvalid: 'Le champ « Email » doit être une adresse e-mail valide.',
  duplicate: 'Cette valeur est déjà utilisée.',
};
const HX = { 'HX-Request': 'true' } as const;
const CSV_HEADER = '"nom","prenom","email","telephone","actif","ville_id_label"';

// --- seed data ------------------------------------------------------------------------------------------------
// Every textual value is ASCII with a consistent case, so that SQLite's binary order and MariaDB's
// utf8mb4_unicode_ci order agree with the comparator below.

interface ContactRow {
  id: number;
  nom: string;
  prenom: string;
  email: string;
  telephone: string | null;
  actif: number;
  notes: string | null;
  ville_id: number | null;
}
type NewContact = Omit<ContactRow, 'id'> & { id?: number };

const NOMS = ['Bernard', 'Dubois', 'Durand', 'Laurent', 'Leroy', 'Martin', 'Moreau', 'Petit', 'Richard', 'Robert', 'Simon', 'Thomas'];
const PRENOMS = ['Alice', 'Bruno', 'Chloe', 'David', 'Emma', 'Felix', 'Gabriel', 'Hugo', 'Ines', 'Jules', 'Karim', 'Lea', 'Manon'];
const VILLES: ReadonlyArray<readonly [number, string]> = [[1, 'Lyon'], [2, 'Paris'], [888, 'Nantes']];
const pad2 = (n: number): string => String(n).padStart(2, '0');

/** 48 ordinary contacts and 5 special ones: 53 rows, 3 pages (20, 20, 13); 25 in Lyon, 10 in Paris, 1 in Nantes. */
function seedContacts(): NewContact[] {
  const rows: NewContact[] = [];
  for (let i = 1; i <= 48; i++) {
    rows.push({
      nom: NOMS[i % 12]!,
      prenom: PRENOMS[i % 13]!,
      email: `c${pad2(i)}@exemple.fr`,
      telephone: i % 3 === 0 ? null : `06 00 00 00 ${pad2(i)}`,
      actif: i % 2,
      notes: i % 4 === 0 ? null : i === 7 ? 'Rappeler mardi' : `Note ${pad2(i)}`,
      ville_id: i % 3 === 0 ? null : i % 3 === 1 || i % 6 === 2 ? 1 : 2,
    });
  }
  rows.push(
    { nom: 'Taux 50% net', prenom: 'Alice', email: 'taux.net@exemple.fr', telephone: null, actif: 1, notes: null, ville_id: 1 },
    { nom: 'Taux 500 brut', prenom: 'Bruno', email: 'taux.brut@exemple.fr', telephone: null, actif: 0, notes: "Taux d'escompte", ville_id: 2 },
    { nom: 'Remise_speciale', prenom: 'Chloe', email: 'remise@exemple.fr', telephone: null, actif: 1, notes: null, ville_id: 2 },
    { nom: 'Hourra!', prenom: 'David', email: 'hourra@exemple.fr', telephone: null, actif: 0, notes: 'Chemin C:\\temp\\x', ville_id: null },
    // No digit 1, 7 or 8 in its text: its id (777), its boolean (1) and its foreign key (888) are not searchable.
    { id: 777, nom: 'Sansun', prenom: 'Zoe', email: 'zoe@exemple.fr', telephone: null, actif: 1, notes: null, ville_id: 888 },
  );
  return rows;
}

async function withDb<T>(app: CrudApp, fn: (db: Database) => Promise<T>): Promise<T> {
  const db = app.project.open();
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

async function insertContacts(app: CrudApp, rows: readonly NewContact[]): Promise<void> {
  await withDb(app, async (db) => {
    for (const r of rows) {
      const columns = ['Nom', 'Prenom', 'Email', 'Telephone', 'Actif', 'Notes', 'VilleId'];
      const values: unknown[] = [r.nom, r.prenom, r.email, r.telephone, r.actif, r.notes, r.ville_id];
      if (r.id !== undefined) {
        columns.unshift('Id');
        values.unshift(r.id);
      }
      await db.execute(`INSERT INTO contacts (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`, values);
    }
  });
}

/** Every contact as stored (read with the admin account, no fw code involved). */
async function dbContacts(app: CrudApp): Promise<ContactRow[]> {
  return withDb(app, async (db) => {
    const rows = await db.fetchAll<Record<string, unknown>>('SELECT Id, Nom, Prenom, Email, Telephone, Actif, Notes, VilleId FROM contacts ORDER BY Id');
    return rows.map((r) => ({
      id: Number(r['Id']),
      nom: String(r['Nom']),
      prenom: String(r['Prenom']),
      email: String(r['Email']),
      telephone: r['Telephone'] === null ? null : String(r['Telephone']),
      actif: Number(r['Actif']),
      notes: r['Notes'] === null ? null : String(r['Notes']),
      ville_id: r['VilleId'] === null ? null : Number(r['VilleId']),
    }));
  });
}

async function dbCount(app: CrudApp): Promise<number> {
  return withDb(app, async (db) => Number((await db.fetchOne<{ n: unknown }>('SELECT COUNT(*) AS n FROM contacts'))!.n));
}

async function dbContact(app: CrudApp, id: number): Promise<ContactRow | undefined> {
  return (await dbContacts(app)).find((r) => r.id === id);
}

/** null first, numbers by value, text by lower-cased code units (see the seed data). */
function compare(a: string | number | null, b: string | number | null): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? -1 : 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = String(a).toLowerCase();
  const y = String(b).toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
}

const TEXT_COLUMNS = ['nom', 'prenom', 'email', 'telephone', 'notes'] as const;

/** The ids a literal, case-insensitive substring search over the textual columns finds. */
function searchIds(rows: readonly ContactRow[], q: string): number[] {
  const needle = q.toLowerCase();
  return rows.filter((r) => TEXT_COLUMNS.some((c) => (r[c] ?? '').toLowerCase().includes(needle))).map((r) => r.id);
}

// --- HTML reading ---------------------------------------------------------------------------------------------

function decode(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#0*39;|&#x0*27;/gi, "'")
    .replace(/&amp;/g, '&');
}

interface Tag {
  readonly raw: string;
  readonly index: number;
  readonly attrs: Record<string, string>;
}

function parseAttrs(tag: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  const inner = tag.replace(/^<[a-zA-Z0-9]+/, '').replace(/\/?>$/, '');
  for (const m of inner.matchAll(/([a-zA-Z_:][-a-zA-Z0-9_:.]*)(?:\s*=\s*"([^"]*)")?/g)) attrs[m[1]!.toLowerCase()] = decode(m[2] ?? '');
  return attrs;
}

/** Opening tags `<name …>` of the page, with their decoded attributes. */
function tags(html: string, name: string): Tag[] {
  return [...html.matchAll(new RegExp(`<${name}\\b[^>]*>`, 'gi'))].map((m) => ({ raw: m[0], index: m.index!, attrs: parseAttrs(m[0]) }));
}

interface FormTag extends Tag {
  readonly body: string;
}

function forms(html: string): FormTag[] {
  return [...html.matchAll(/<form\b[^>]*>([\s\S]*?)<\/form>/gi)].map((m) => {
    const open = /^<form\b[^>]*>/i.exec(m[0])![0];
    return { raw: open, index: m.index!, attrs: parseAttrs(open), body: m[1]! };
  });
}

/** The hidden inputs of a form, as form pairs. */
function hiddenFields(form: FormTag): Array<[string, string]> {
  return tags(form.body, 'input').filter((t) => t.attrs['type'] === 'hidden').map((t) => [t.attrs['name']!, t.attrs['value'] ?? '']);
}

/** Ids of the rows of a list page, in order (from the selection checkboxes). */
function rowIds(html: string): number[] {
  return tags(html, 'input').filter((t) => t.attrs['type'] === 'checkbox' && t.attrs['name'] === 'ids').map((t) => Number(t.attrs['value']));
}

function hxAttrs(tag: Tag): string[] {
  return Object.keys(tag.attrs).filter((name) => name.startsWith('hx-'));
}

function parseLink(href: string): { path: string; params: URLSearchParams } {
  const url = new URL(href, 'http://x');
  return { path: url.pathname, params: url.searchParams };
}

/** The `data-empty` value of an empty state and its text, or null. */
function emptyState(html: string): { context: string; message: string } | null {
  const m = /<p\b[^>]*data-empty="([^"]*)"[^>]*>([\s\S]*?)<\/p>/.exec(html);
  return m ? { context: m[1]!, message: decode(m[2]!.trim()) } : null;
}

function inputValue(html: string, name: string): string | undefined {
  return tags(html, 'input').find((t) => t.attrs['name'] === name)?.attrs['value'];
}

function textareaValue(html: string, name: string): string | undefined {
  const m = new RegExp(`<textarea\\b[^>]*name="${name}"[^>]*>([\\s\\S]*?)</textarea>`).exec(html);
  return m ? decode(m[1]!) : undefined;
}

/** The options of a select (by its id): value, label, selected. */
function selectOptions(html: string, id: string): Array<{ value: string; label: string; selected: boolean }> {
  const m = new RegExp(`<select\\b[^>]*id="${id}"[^>]*>([\\s\\S]*?)</select>`).exec(html);
  assert.ok(m, `select #${id} présent`);
  return [...m![1]!.matchAll(/<option\b([^>]*)>([\s\S]*?)<\/option>/g)].map((o) => {
    const attrs = parseAttrs(`<option${o[1]}>`);
    return { value: attrs['value'] ?? '', label: decode(o[2]!), selected: 'selected' in attrs };
  });
}

/** The error message under a form field, or undefined. */
function fieldError(html: string, name: string): string | undefined {
  const m = new RegExp(`<p id="field-${name}-error"[^>]*>([\\s\\S]*?)</p>`).exec(html);
  return m ? decode(m[1]!.trim()) : undefined;
}

function isChecked(html: string, name: string): boolean {
  const tag = tags(html, 'input').find((t) => t.attrs['name'] === name && t.attrs['type'] === 'checkbox');
  assert.ok(tag, `case à cocher ${name}`);
  return 'checked' in tag!.attrs;
}

/** The CSV lines (CRLF), without the trailing empty string. */
function csvLines(text: string): string[] {
  assert.ok(text.endsWith('\r\n'), 'CSV terminé par CRLF');
  return text.slice(0, -2).split('\r\n');
}

/** One CSV line whose every cell is quoted; returns the cells. */
function csvCells(line: string): string[] {
  assert.match(line, /^"(?:[^"]|"")*"(?:,"(?:[^"]|"")*")*$/, `chaque cellule entre guillemets : ${line}`);
  return [...line.matchAll(/"((?:[^"]|"")*)"/g)].map((m) => m[1]!.replace(/""/g, '"'));
}

// --- the suites -----------------------------------------------------------------------------------------------

function crudSuite(dialect: DialectName): void {
  const t = suite(`crud-http: ${dialect}`);
  let app: CrudApp;
  let client: HttpClient;
  let empty: { page: HttpResult; fragment: HttpResult; csv: HttpResult };

  const get = (url: string, headers: Record<string, string> = {}): Promise<HttpResult> => client.get(url, headers);

  /** GET a list page (200 expected) and return its row ids. */
  async function pageIds(url: string, headers: Record<string, string> = {}): Promise<number[]> {
    const res = await get(url, headers);
    assert.is(res.status, 200, `${url} : ${res.text.slice(0, 300)}`);
    return rowIds(res.text);
  }

  /** Every id of a list state, page after page (a page above the last gives the last: stop on a repeat). */
  async function allIds(query: string): Promise<number[]> {
    const out: number[] = [];
    let previous = '';
    for (let page = 1; page <= 60; page++) {
      const ids = await pageIds(`/contacts?${query}${query ? '&' : ''}page=${page}`);
      if (ids.join(',') === previous) break;
      out.push(...ids);
      previous = ids.join(',');
      if (ids.length < 20) break;
    }
    return out;
  }

  const sorted = (ids: number[]): number[] => [...ids].sort((a, b) => a - b);

  t.before(async () => {
    app = await startCrudApp(dialect);
    client = new HttpClient(app.url);
    // The empty table first (general empty state), then the seed data.
    empty = { page: await get('/contacts'), fragment: await get('/contacts', HX), csv: await get('/contacts/export.csv') };
    await withDb(app, async (db) => {
      for (const [id, nom] of VILLES) await db.execute('INSERT INTO villes (Id, Nom) VALUES (?, ?)', [id, nom]);
    });
    await insertContacts(app, seedContacts());
  });

  t.after(async () => {
    if (app) await app.stop();
  });

  // --- list ---------------------------------------------------------------------------------------------------

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
    const rows = await dbContacts(app);
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
    assert.match(middle.text, /<span class="ml-auto text-gray-500">53<\/span>/);
  });

  t('list: default sort id DESC; an unknown sort is ignored; an invalid direction gives asc', async () => {
    const rows = await dbContacts(app);
    const byIdDesc = rows.map((r) => r.id).sort((a, b) => b - a).slice(0, 20);
    const byIdAsc = rows.map((r) => r.id).sort((a, b) => a - b).slice(0, 20);
    for (const query of ['', 'sort=bogus', 'sort=Nom', 'sort=t.Nom', 'sort=nom%3BDROP%20TABLE%20contacts', 'sort=ville_id_label', 'sort=__proto__', 'sort=bogus&direction=asc', 'direction=asc']) {
      assert.equal(await pageIds(`/contacts?${query}`), byIdDesc, `« ${query} » → id DESC`);
    }
    for (const direction of ['sideways', 'ASCENDING', '', '1', 'desc%27']) {
      assert.equal(await pageIds(`/contacts?sort=id&direction=${direction}`), byIdAsc, `direction=${direction} → asc`);
    }
    assert.equal(await pageIds('/contacts?sort=id&direction=desc'), byIdDesc);
    assert.is(await dbCount(app), 53, 'la table est intacte');
  });

  t('list: every column key sorts ascending and descending', async () => {
    const rows = await dbContacts(app);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const keys = ['id', 'nom', 'prenom', 'email', 'telephone', 'actif', 'notes', 'ville_id'] as const;
    for (const key of keys) {
      const values = rows.map((r) => r[key]).sort(compare);
      for (const direction of ['asc', 'desc'] as const) {
        const sign = direction === 'asc' ? 1 : -1;
        const ids = [...(await pageIds(`/contacts?sort=${key}&direction=${direction}`)), ...(await pageIds(`/contacts?sort=${key}&direction=${direction}&page=2`))];
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
      const header = tags(page.text, 'a').find((a) => a.attrs['aria-sort']);
      assert.ok(header, `${key} : en-tête trié marqué`);
      assert.is(header!.attrs['aria-sort'], 'descending');
      assert.is(parseLink(header!.attrs['href']!).params.get('sort'), key);
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

  // --- search ---------------------------------------------------------------------------------------------------

  t('search: substring over nom, prenom, email, telephone and notes; % _ ! are literal', async () => {
    const rows = await dbContacts(app);
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
    const rows = await dbContacts(app);
    assert.equal(sorted(await allIds('q=777')), sorted(searchIds(rows, '777')));
    assert.equal(await allIds('q=777'), []);
  });

  // --- filters --------------------------------------------------------------------------------------------------

  t('filters: actif 1 / 0 / All, ville_id select of labels, nom equality, AND with q; unknown keys ignored', async () => {
    const rows = await dbContacts(app);
    const idsWhere = (pred: (r: ContactRow) => boolean): number[] => sorted(rows.filter(pred).map((r) => r.id));
    assert.equal(sorted(await allIds('actif=1')), idsWhere((r) => r.actif === 1));
    assert.equal(sorted(await allIds('actif=0')), idsWhere((r) => r.actif === 0));
    assert.equal(sorted(await allIds('actif=')), idsWhere(() => true), 'actif vide : tous');
    assert.equal(sorted(await allIds('ville_id=1')), idsWhere((r) => r.ville_id === 1));
    assert.equal(sorted(await allIds('ville_id=888')), [777]);
    assert.equal(sorted(await allIds('nom=Martin')), idsWhere((r) => r.nom === 'Martin'));
    assert.is(idsWhere((r) => r.nom === 'Martin').length, 4);
    assert.equal(await allIds('nom=Mart'), [], 'égalité, pas sous-chaîne');
    assert.equal(sorted(await allIds('nom=Martin&actif=1')), idsWhere((r) => r.nom === 'Martin' && r.actif === 1));
    assert.equal(sorted(await allIds('actif=1&ville_id=2')), idsWhere((r) => r.actif === 1 && r.ville_id === 2));
    // The search group is in parentheses: a match on nom does not escape the filter.
    const expectedAnd = idsWhere((r) => searchIds([r], 'Martin').length > 0 && r.actif === 1);
    assert.ok(expectedAnd.length > 0);
    assert.equal(sorted(await allIds('q=Martin&actif=1')), expectedAnd);
    assert.equal(sorted(await allIds('q=exemple&actif=0&ville_id=2')), idsWhere((r) => r.actif === 0 && r.ville_id === 2));
    assert.equal(sorted(await allIds('q=Note&nom=Dubois')), idsWhere((r) => r.nom === 'Dubois' && (r.notes ?? '').includes('Note')));

    // Unknown filter keys (prenom is a column but not a filter) and junk values are ignored.
    const everyone = await pageIds('/contacts');
    for (const query of ['bogus=1', 'prenom=Alice', 'email=c01%40exemple.fr', 'id=5', 'Actif=1', 'ville_id=abc', 'actif=yes', 'actif=2', 'filters%5Bnom%5D=x']) {
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
    assert.equal(selectOptions(none.text, 'filter-actif').filter((o) => o.selected), [], 'Tous par défaut (aucune option forcée)');
    assert.equal(selectOptions(none.text, 'filter-ville_id').filter((o) => o.selected), []);
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

  // --- partial pages and attributes -------------------------------------------------------------------------------

  t('HX-Request: true gives the results fragment, without it the full page; Vary: HX-Request', async () => {
    for (const query of ['', '?q=exemple&actif=1&sort=email&direction=asc&page=2', '?q=zzzz']) {
      const full = await get(`/contacts${query}`);
      const part = await get(`/contacts${query}`, HX);
      for (const res of [full, part]) {
        assert.is(res.status, 200);
        assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
        assert.ok((res.headers.get('vary') ?? '').split(',').map((v) => v.trim().toLowerCase()).includes('hx-request'), `Vary: ${res.headers.get('vary')}`);
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
    const token = await client.csrfToken();
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
      const sortLinks = anchors.filter((a) => /^\/contacts\?/.test(a.attrs['href'] ?? '') && (a.attrs['href'] ?? '').includes('sort=') && !(a.attrs['href'] ?? '').includes('page='));
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
        assert.ok(tags(f.body, 'button').some((b) => b.attrs['type'] === 'submit'), 'bouton d’envoi');
      }
    }
    const search = forms(res.text).find((f) => f.attrs['role'] === 'search')!;
    assert.ok(search, 'formulaire de recherche');
    assert.is(search.attrs['method'], 'get');
    assert.is(search.attrs['action'], '/contacts');
    expectHx(search, 'hx-get', '/contacts', true);
    assert.equal(new Map(hiddenFields(search)), new Map([['sort', 'nom'], ['direction', 'asc']]), 'le tri est gardé par la recherche, pas la page');

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
    assert.not.ok(forms(res.text).some((f) => f.index < start && f.index + res.text.slice(f.index).indexOf('</form>') > end), 'aucun formulaire n’englobe le tableau');
  });

  // --- CSV ------------------------------------------------------------------------------------------------------

  t('CSV: headers, columns, every cell quoted, same query as the list without pagination', async () => {
    const rows = await dbContacts(app);
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
      assert.equal(csvCells(line), [r.nom, r.prenom, r.email, r.telephone ?? '', String(r.actif), r.ville_id === null ? '' : villes.get(r.ville_id)!], `ligne ${i + 1}`);
    });
    // Same search, filters and sort as the list (email is unique: the order is total).
    for (const query of ['q=exemple&actif=1&sort=email&direction=desc', 'ville_id=1&sort=email&direction=asc', 'q=Martin', 'q=%25', 'nom=Dubois&actif=0', 'q=zzzz', 'bogus=1&sort=bogus&direction=sideways']) {
      const listed = await allIds(query);
      const emails = listed.map((id) => rows.find((r) => r.id === id)!.email);
      const csv = await get(`/contacts/export.csv?${query}`);
      assert.is(csv.status, 200, query);
      assert.equal(csvLines(csv.text).slice(1).map((l) => csvCells(l)[2]), emails, `CSV ${query}`);
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
    await insertContacts(app, prenoms.map((prenom, i) => ({ nom: 'Formule', prenom, email: `f${i + 1}@exemple.fr`, telephone: i === 0 ? '+33 6 00' : null, actif: 1, notes: '=HYPERLINK()', ville_id: null })));
    try {
      const res = await get('/contacts/export.csv?nom=Formule&sort=email&direction=asc');
      const lines = csvLines(res.text);
      assert.is(lines.length, 1 + prenoms.length);
      assert.equal(lines.slice(1).map((l) => csvCells(l)[1]), ["'=SUM(A1)", "'+33 6 12", "'-danger", "'@cmd", '-1.5', "'\tTab", 'Dit "Jo"', '42', 'Normal']);
      assert.is(lines[1], `"Formule","'=SUM(A1)","f1@exemple.fr","'+33 6 00","1",""`);
      assert.is(lines[7], '"Formule","Dit ""Jo""","f7@exemple.fr","","1",""');
    } finally {
      await withDb(app, (db) => db.execute("DELETE FROM contacts WHERE Nom = 'Formule'"));
    }
  });

  t('CSV: at most 1000 rows; the list itself is not capped', async () => {
    const values = Array.from({ length: 1005 }, (_, i) => `('Masse', 'Lot', 'masse${String(i).padStart(4, '0')}@exemple.fr', 0)`);
    await withDb(app, (db) => db.execute(`INSERT INTO contacts (Nom, Prenom, Email, Actif) VALUES ${values.join(', ')}`));
    try {
      assert.is(await dbCount(app), 53 + 1005);
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
      assert.match(last.text, /<span class="ml-auto text-gray-500">1005<\/span>/);
      assert.equal(rowIds((await get('/contacts?nom=Masse&page=52')).text), rowIds(last.text));
      assert.is(rowIds((await get('/contacts?nom=Masse&limit=2000')).text).length, 20);
    } finally {
      await withDb(app, (db) => db.execute("DELETE FROM contacts WHERE Nom = 'Masse'"));
    }
    assert.is(await dbCount(app), 53);
  });

  t('security headers on the list, the fragment and the CSV', async () => {
    assertSecurityHeaders((await get('/contacts')).headers, 'liste');
    assertSecurityHeaders((await get('/contacts?q=Martin', HX)).headers, 'fragment');
    assertSecurityHeaders((await get('/contacts?q=zzzz', HX)).headers, 'fragment vide');
    assertSecurityHeaders((await get('/contacts/export.csv')).headers, 'CSV');
    assertSecurityHeaders((await get('/contacts/abc')).headers, '404');
  });

  // --- show / edit ---------------------------------------------------------------------------------------------

  t('show and edit: an id that is not a positive integer, or unknown, gives 404', async () => {
    for (const id of ['abc', '1.5', '0', '-1', '00', '1e2', '%201', '999999', '99999999999999999999']) {
      for (const suffix of ['', '/edit']) {
        const res = await get(`/contacts/${id}${suffix}`);
        assert.is(res.status, 404, `/contacts/${id}${suffix}`);
        assert.match(res.text, /Page introuvable/);
      }
    }
    for (const id of ['abc', '1.5', '0', '-1', '999999']) {
      const count = await dbCount(app);
      assert.is((await client.post(`/contacts/${id}`, [['nom', 'X'], ['prenom', 'Y'], ['email', 'xy@exemple.fr']])).status, 404, `POST /contacts/${id}`);
      assert.is((await client.post(`/contacts/${id}/delete`)).status, 404, `POST /contacts/${id}/delete`);
      assert.is(await dbCount(app), count);
    }
  });

  t('show and edit: the detail and the form filled with the record (values, checkbox, selected ville)', async () => {
    const rows = await dbContacts(app);
    const r = rows.find((x) => x.notes === 'Rappeler mardi')!; // i = 7: actif 1, ville 1 (Lyon), telephone set
    assert.is(r.ville_id, 1);
    const show = await get(`/contacts/${r.id}`);
    assert.is(show.status, 200);
    for (const value of [r.nom, r.prenom, r.email, r.telephone!, 'Rappeler mardi', 'Lyon', 'Oui']) assert.ok(show.text.includes(`>${value}</dd>`), `détail : ${value}`);
    const edit = await get(`/contacts/${r.id}/edit`);
    assert.is(edit.status, 200);
    const form = forms(edit.text).find((f) => f.attrs['action'] === `/contacts/${r.id}`)!;
    assert.ok(form, 'formulaire de modification vers POST /contacts/{id}');
    assert.is(form.attrs['method'], 'post');
    assert.is(inputValue(form.body, 'nom'), r.nom);
    assert.is(inputValue(form.body, 'prenom'), r.prenom);
    assert.is(inputValue(form.body, 'email'), r.email);
    assert.is(inputValue(form.body, 'telephone'), r.telephone!);
    assert.is(textareaValue(form.body, 'notes'), 'Rappeler mardi');
    assert.ok(isChecked(form.body, 'actif'), 'actif coché');
    const villes = selectOptions(form.body, 'field-ville_id');
    assert.equal(villes.filter((o) => o.selected).map((o) => o.value), ['1'], 'Lyon sélectionnée');
    assert.equal(villes.map((o) => o.label), ['', 'Lyon', 'Nantes', 'Paris']);
    // A record with actif 0, no ville, no telephone.
    const other = rows.find((x) => x.actif === 0 && x.ville_id === null && x.telephone === null && x.notes === null)!;
    const edit2 = await get(`/contacts/${other.id}/edit`);
    assert.not.ok(isChecked(edit2.text, 'actif'), 'actif décoché');
    assert.equal(selectOptions(edit2.text, 'field-ville_id').filter((o) => o.selected).map((o) => o.value), []);
    assert.is(inputValue(edit2.text, 'telephone'), '');
    assert.is(inputValue(edit2.text, 'nom'), other.nom);
  });

  // --- create / update ------------------------------------------------------------------------------------------

  t('create: invalid → 422 with the messages and the values entered; nothing inserted', async () => {
    const count = await dbCount(app);
    const cases: Array<{ form: Array<[string, string]>; errors: Record<string, string> }> = [
      { form: [['nom', ''], ['prenom', 'Jean <b>'], ['email', 'jean@exemple.fr'], ['telephone', '06 11'], ['actif', '1'], ['notes', 'Une "note" & <i>'], ['ville_id', '2']], errors: { nom: MSG.nomRequired } },
      { form: [['nom', 'Nouveau'], ['prenom', 'Jean'], ['email', 'pas-une-adresse'], ['telephone', ''], ['notes', ''], ['ville_id', '888']], errors: { email: MSG.emailInvalid } },
      { form: [['nom', ''], ['prenom', 'Jean'], ['email', 'x@'], ['ville_id', '']], errors: { nom: MSG.nomRequired, email: MSG.emailInvalid } },
    ];
    for (const { form, errors } of cases) {
      const res = await client.post('/contacts', form);
      assert.is(res.status, 422, JSON.stringify(form));
      assertSecurityHeaders(res.headers, '422');
      for (const [field, message] of Object.entries(errors)) assert.is(fieldError(res.text, field), message, `${field} : ${JSON.stringify(form)}`);
      for (const field of ['nom', 'prenom', 'email', 'telephone']) if (!(field in errors)) assert.is(fieldError(res.text, field), undefined, field);
      const entered = new Map(form);
      for (const field of ['nom', 'prenom', 'email', 'telephone']) assert.is(inputValue(res.text, field), entered.get(field) ?? '', `valeur de ${field} gardée`);
      if (entered.has('notes')) assert.is(textareaValue(res.text, 'notes'), entered.get('notes'));
      assert.is(isChecked(res.text, 'actif'), entered.get('actif') === '1', 'actif gardé');
      assert.equal(selectOptions(res.text, 'field-ville_id').filter((o) => o.selected).map((o) => o.value), entered.get('ville_id') ? [entered.get('ville_id')] : []);
    }
    // Entered text is escaped when shown again.
    const escaped = await client.post('/contacts', cases[0]!.form);
    assert.ok(escaped.text.includes('value="Jean &lt;b&gt;"'), 'prénom échappé');
    assert.not.ok(escaped.text.includes('<b>') || escaped.text.includes('<i>'), 'aucune balise saisie dans la page');
    assert.is(await dbCount(app), count, 'rien n’est inséré');
  });

  t('create and update: a duplicate email → 422 with the message under the email field; nothing written', async () => {
    const rows = await dbContacts(app);
    const count = rows.length;
    const created = await client.post('/contacts', [['nom', 'Nouveau'], ['prenom', 'Jean'], ['email', 'c05@exemple.fr'], ['actif', '1'], ['ville_id', '1']]);
    assert.is(created.status, 422);
    assertSecurityHeaders(created.headers, '422 doublon');
    assert.is(inputValue(created.text, 'nom'), 'Nouveau');
    assert.is(inputValue(created.text, 'email'), 'c05@exemple.fr');
    assert.ok(isChecked(created.text, 'actif'));
    assert.equal(selectOptions(created.text, 'field-ville_id').filter((o) => o.selected).map((o) => o.value), ['1']);
    assert.is(await dbCount(app), count, 'rien n’est inséré');
    const r = rows.find((x) => x.email === 'c12@exemple.fr')!;
    const updated = await client.post(`/contacts/${r.id}`, [['nom', 'Dupont'], ['prenom', 'Paul'], ['email', 'c11@exemple.fr']]);
    assert.is(updated.status, 422);
    assert.is(inputValue(updated.text, 'prenom'), 'Paul');
    assert.is(inputValue(updated.text, 'email'), 'c11@exemple.fr');
    assert.equal(await dbContact(app, r.id), r, 'ligne inchangée');
    // The message is shown, and on the email field (as the generated UNIQUE_COLUMNS map intends), on both dialects.
    for (const res of [created, updated]) {
      assert.ok(res.text.includes(MSG.duplicate), 'message de doublon affiché');
      assert.is(fieldError(res.text, 'email'), MSG.duplicate, 'message sous le champ email');
    }
  });

  t('create: success → 302 to /contacts, the flash on the next page only, the row stored', async () => {
    const count = await dbCount(app);
    const res = await client.post('/contacts', [['nom', 'Nouveau'], ['prenom', 'Jean'], ['email', 'jean.nouveau@exemple.fr'], ['telephone', '06 12 34 56 78'], ['actif', '1'], ['notes', 'Cree par HTTP'], ['ville_id', '2']]);
    assert.is(res.status, 302);
    assert.is(res.headers.get('location'), '/contacts');
    assertSecurityHeaders(res.headers, '302');
    assert.is(await dbCount(app), count + 1);
    const stored = (await dbContacts(app)).find((r) => r.email === 'jean.nouveau@exemple.fr')!;
    assert.equal({ ...stored, id: 0 }, { id: 0, nom: 'Nouveau', prenom: 'Jean', email: 'jean.nouveau@exemple.fr', telephone: '06 12 34 56 78', actif: 1, notes: 'Cree par HTTP', ville_id: 2 });
    const next = await get('/contacts');
    assert.ok(next.text.includes(`>${FLASH.created}</div>`), 'flash affiché');
    assert.is(rowIds(next.text)[0], stored.id, 'la nouvelle ligne est en tête (id DESC)');
    assert.not.ok((await get('/contacts')).text.includes(FLASH.created), 'flash consommé');
  });

  t('update: invalid → 422 and row unchanged; success → 302, flash, row changed', async () => {
    const rows = await dbContacts(app);
    const r = rows.find((x) => x.email === 'c10@exemple.fr')!;
    const before = { ...r };
    for (const [form, field, message] of [
      [[['nom', '  '], ['prenom', 'Paul'], ['email', r.email]], 'nom', MSG.nomRequired],
      [[['nom', 'Dupont'], ['prenom', 'Paul'], ['email', 'faux@']], 'email', MSG.emailInvalid],
    ] as Array<[Array<[string, string]>, string, string]>) {
      const res = await client.post(`/contacts/${r.id}`, form);
      assert.is(res.status, 422, JSON.stringify(form));
      assertSecurityHeaders(res.headers, '422 modification');
      assert.is(fieldError(res.text, field), message);
      assert.is(inputValue(res.text, 'prenom'), 'Paul', 'valeur saisie, pas celle de la base');
      assert.is(inputValue(res.text, 'email'), new Map(form).get('email'));
      assert.ok(forms(res.text).some((f) => f.attrs['action'] === `/contacts/${r.id}`), 'le formulaire renvoie vers la même fiche');
      assert.equal(await dbContact(app, r.id), before, 'ligne inchangée');
    }
    // Keeping its own email is not a duplicate; actif unchecked becomes 0; the ville changes.
    const ok = await client.post(`/contacts/${r.id}`, [['nom', 'Dupont'], ['prenom', 'Paul'], ['email', r.email], ['telephone', '07 00 00 00 00'], ['notes', 'Modifie'], ['ville_id', '888']]);
    assert.is(ok.status, 302);
    assert.is(ok.headers.get('location'), '/contacts');
    assertSecurityHeaders(ok.headers, '302 modification');
    assert.equal(await dbContact(app, r.id), { id: r.id, nom: 'Dupont', prenom: 'Paul', email: r.email, telephone: '07 00 00 00 00', actif: 0, notes: 'Modifie', ville_id: 888 });
    assert.ok((await get('/contacts')).text.includes(`>${FLASH.updated}</div>`));
    const again = await client.post(`/contacts/${r.id}`, [['nom', 'Dupont'], ['prenom', 'Paul'], ['email', 'paul.dupont@exemple.fr'], ['actif', '1'], ['ville_id', '1']]);
    assert.is(again.status, 302);
    const after = (await dbContact(app, r.id))!;
    assert.is(after.email, 'paul.dupont@exemple.fr');
    assert.is(after.actif, 1);
    assert.is(after.ville_id, 1);
    assert.is(await dbCount(app), rows.length, 'pas de ligne en plus');
  });

  // --- delete ---------------------------------------------------------------------------------------------------

  t('delete without HX-Request: 302 back to the list with q, filters, sort and page; flash', async () => {
    const state = '/contacts?q=exemple&actif=1&sort=email&direction=asc&page=2';
    const page = await get(state);
    const form = forms(page.text).find((f) => /^\/contacts\/\d+\/delete$/.test(f.attrs['action'] ?? ''))!;
    const id = Number(/(\d+)\/delete$/.exec(form.attrs['action']!)![1]);
    const count = await dbCount(app);
    const res = await client.post(form.attrs['action']!, hiddenFields(form));
    assert.is(res.status, 302);
    assertSecurityHeaders(res.headers, '302 suppression');
    const { path, params } = parseLink(res.headers.get('location')!);
    assert.is(path, '/contacts');
    assert.equal(Object.fromEntries(params), { actif: '1', direction: 'asc', page: '2', q: 'exemple', sort: 'email' });
    assert.is(await dbCount(app), count - 1);
    assert.is(await dbContact(app, id), undefined);
    const back = await get(res.headers.get('location')!);
    assert.is(back.status, 200);
    assert.ok(back.text.includes(`>${FLASH.deleted}</div>`));
    assert.match(back.text, /<span aria-current="page"[^>]*>2<\/span>/);
    // Without any state: back to /contacts.
    const plain = await client.post(`/contacts/${rowIds((await get('/contacts')).text)[5]}/delete`);
    assert.is(plain.status, 302);
    assert.is(plain.headers.get('location'), '/contacts');
    assert.is(await dbCount(app), count - 2);
  });

  t('delete with HX-Request: the list fragment with the posted q, filters, sort and page, and the flash', async () => {
    const state = '/contacts?q=exemple&actif=1&sort=email&direction=asc&page=2';
    const page = await get(state, HX);
    const deleteForms = forms(page.text).filter((f) => /^\/contacts\/\d+\/delete$/.test(f.attrs['action'] ?? ''));
    const form = deleteForms[1]!;
    const id = Number(/(\d+)\/delete$/.exec(form.attrs['action']!)![1]);
    const count = await dbCount(app);
    const res = await client.post(form.attrs['hx-post']!, hiddenFields(form), HX);
    assert.is(res.status, 200);
    assertSecurityHeaders(res.headers, 'fragment après suppression');
    assert.not.match(res.text, /<html\b|<!DOCTYPE/i);
    assert.ok(res.text.includes(`>${FLASH.deleted}</div>`), 'flash dans le fragment');
    assert.is(await dbCount(app), count - 1);
    assert.is(await dbContact(app, id), undefined);
    assert.not.ok(rowIds(res.text).includes(id));
    assert.match(res.text, /<span aria-current="page"[^>]*>2<\/span>/, 'toujours la page 2');
    // The same rows as the list in that state, now.
    const expected = await get(state, HX);
    assert.equal(rowIds(res.text), rowIds(expected.text));
    assert.not.ok(expected.text.includes(FLASH.deleted), 'le flash n’est montré qu’une fois');
    for (const f of forms(res.text).filter((x) => /\/delete$/.test(x.attrs['action'] ?? ''))) {
      assert.equal(Object.fromEntries(hiddenFields(f).filter(([n]) => n !== 'csrf_token')), { actif: '1', direction: 'asc', page: '2', q: 'exemple', sort: 'email' });
    }
    // A search with no result left: the empty state with the search context.
    const lone = (await dbContacts(app)).find((r) => r.nom === 'Hourra!')!;
    const emptied = await client.post(`/contacts/${lone.id}/delete`, [['q', 'Hourra']], HX);
    assert.is(emptied.status, 200);
    assert.equal(emptyState(emptied.text), { context: 'search', message: EMPTY.search });
  });

  t('delete: without or with a wrong CSRF token → 403 and nothing deleted; unknown id → 404', async () => {
    const id = rowIds((await get('/contacts')).text)[0]!;
    const count = await dbCount(app);
    const noToken = await client.request('POST', `/contacts/${id}/delete`, { form: [['q', 'x']] });
    assert.is(noToken.status, 403);
    assertSecurityHeaders(noToken.headers, '403');
    const badToken = await client.request('POST', `/contacts/${id}/delete`, { form: [['csrf_token', 'f'.repeat(64)]], headers: HX });
    assert.is(badToken.status, 403);
    const otherSession = await new HttpClient(app.url).request('POST', `/contacts/${id}/delete`, { form: [['csrf_token', await client.csrfToken()]] });
    assert.is(otherSession.status, 403, 'le jeton d’une autre session est refusé');
    for (const url of ['/contacts/bulk-delete', '/contacts/bulk-delete/confirm', '/contacts', `/contacts/${id}`]) {
      assert.is((await client.request('POST', url, { form: [['ids', String(id)], ['nom', 'X'], ['prenom', 'Y'], ['email', 'csrf@exemple.fr']] })).status, 403, url);
    }
    assert.is(await dbCount(app), count);
    assert.ok(await dbContact(app, id));
    assert.is((await client.post('/contacts/999999/delete')).status, 404);
    assert.is(await dbCount(app), count);
  });

  // --- bulk delete ----------------------------------------------------------------------------------------------

  t('bulk delete: scalar or repeated ids, junk dropped, duplicates removed; the confirmation page lists them', async () => {
    const rows = await dbContacts(app);
    const [a, b] = [rows[3]!, rows[4]!];
    const count = await dbCount(app);
    const res = await client.post('/contacts/bulk-delete', [['ids', String(b.id)], ['ids', 'x'], ['ids', '0'], ['ids', '-2'], ['ids', '1.5'], ['ids', ''], ['ids', String(a.id)], ['ids', String(b.id)], ['ids', ` ${a.id}`]]);
    assert.is(res.status, 200);
    assert.match(res.text, /<html\b/);
    assert.ok(res.text.includes('Confirmer la suppression'));
    const items = [...res.text.matchAll(/<li>([^<]*)<\/li>/g)].map((m) => decode(m[1]!));
    assert.equal(items, [`#${a.id} ${a.nom}`, `#${b.id} ${b.nom}`]);
    const confirm = forms(res.text).find((f) => f.attrs['action'] === '/contacts/bulk-delete/confirm')!;
    assert.ok(confirm, 'formulaire de confirmation');
    assert.is(confirm.attrs['method'], 'post');
    assert.equal(hxAttrs(confirm), []);
    assert.is(new Map(hiddenFields(confirm)).get('csrf_token'), await client.csrfToken());
    assert.equal(hiddenFields(confirm).filter(([n]) => n === 'ids').map(([, v]) => Number(v)), [a.id, b.id], 'les ids, sans doublon ni rebut');
    assert.is(await dbCount(app), count, 'rien n’est supprimé avant la confirmation');
    // A scalar.
    const one = await client.post('/contacts/bulk-delete', [['ids', String(a.id)]]);
    assert.is(one.status, 200);
    assert.equal([...one.text.matchAll(/<li>([^<]*)<\/li>/g)].map((m) => decode(m[1]!)), [`#${a.id} ${a.nom}`]);
    // Unknown ids are not listed.
    const unknown = await client.post('/contacts/bulk-delete', [['ids', '999999'], ['ids', String(b.id)]]);
    assert.equal(hiddenFields(forms(unknown.text).find((f) => f.attrs['action'] === '/contacts/bulk-delete/confirm')!).filter(([n]) => n === 'ids').map(([, v]) => Number(v)), [b.id]);
    assert.is(await dbCount(app), count);
  });

  t('bulk delete: nothing usable → 302 at once, nothing deleted; confirm deletes exactly those ids', async () => {
    const count = await dbCount(app);
    for (const form of [[], [['ids', '']], [['ids', 'x'], ['ids', '0'], ['ids', '-2'], ['ids', '1.5']]] as Array<Array<[string, string]>>) {
      for (const url of ['/contacts/bulk-delete', '/contacts/bulk-delete/confirm']) {
        const res = await client.post(url, form);
        assert.is(res.status, 302, `${url} ${JSON.stringify(form)}`);
        assert.is(res.headers.get('location'), '/contacts');
        assertSecurityHeaders(res.headers, '302 sélection vide');
      }
    }
    assert.is(await dbCount(app), count);
    assert.ok((await get('/contacts')).text.includes(FLASH.noneSelected));

    // Through the page: two checkboxes of the list, the confirmation page, its form.
    const ids = rowIds((await get('/contacts?sort=email&direction=asc')).text).slice(2, 5);
    const page = await client.post('/contacts/bulk-delete', [...ids.map((id) => ['ids', String(id)] as [string, string]), ['ids', String(ids[0])], ['ids', 'junk']]);
    const confirm = forms(page.text).find((f) => f.attrs['action'] === '/contacts/bulk-delete/confirm')!;
    const before = await dbContacts(app);
    const res = await client.post(confirm.attrs['action']!, hiddenFields(confirm));
    assert.is(res.status, 302);
    assert.is(res.headers.get('location'), '/contacts');
    assertSecurityHeaders(res.headers, '302 suppression groupée');
    const after = await dbContacts(app);
    assert.is(after.length, before.length - 3, 'exactement trois lignes supprimées');
    assert.equal(after.map((r) => r.id), before.map((r) => r.id).filter((id) => !ids.includes(id)));
    assert.ok((await get('/contacts')).text.includes(`${FLASH.bulkDeleted} (3)`));
    // Confirm with repeated, junk and unknown ids.
    const [x, y] = [after[0]!.id, after[1]!.id];
    const direct = await client.post('/contacts/bulk-delete/confirm', [['ids', String(x)], ['ids', String(x)], ['ids', '-1'], ['ids', String(y)], ['ids', '999999']]);
    assert.is(direct.status, 302);
    assert.equal((await dbContacts(app)).map((r) => r.id), after.map((r) => r.id).filter((id) => id !== x && id !== y));
  });

  t.run();
}

crudSuite('sqlite');
crudSuite('mariadb');
