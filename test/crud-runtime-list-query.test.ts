// The list state of the generated CRUD pages (docs/crud.md "The list page"; docs/decisions.md#crud-lists-search-and-csv): read
// through allow-lists (search, filters, sort, direction), its SQL run on a real SQLite database, the links that keep
// it and the empty states.
import Sqlite from 'better-sqlite3';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ListQuery, UnknownFilterError, escapeLike, textOrder, withQuery, type ListSpec } from '../runtime/crud/index.js';
import { configure, resetConfig } from '../runtime/config.js';
import { registerUnicodeFunctions } from '../runtime/db/dialects/sqlite/unicode-ci.js';

/** The allow-lists `fw make:crud` would write for a Contact with filters of every kind. */
const SPEC: ListSpec = {
  sortable: { id: 't.Id', nom: 't.Nom', email: 't.Email', actif: 't.Actif', visites: 't.Visites', ville_id: 't.VilleId' },
  defaultSort: 'id',
  searchable: ['t.Nom', 't.Email'],
  filters: {
    nom: { column: 't.Nom', kind: 'text' },
    actif: { column: 't.Actif', kind: 'bool' },
    visites: { column: 't.Visites', kind: 'int' },
    ville_id: { column: 't.VilleId', kind: 'relation' },
  },
};

/** A fake request: `?a=1&a=2` is `{ a: ['1', '2'] }`. */
function query(params: Record<string, string | string[]>, spec: ListSpec = SPEC): ListQuery {
  const multi: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(params)) multi[name] = Array.isArray(value) ? value : [value];
  return ListQuery.fromRequest({ params: multi }, spec);
}

// --- ListQuery: q, LIKE escaping, WHERE ---

const Q = suite('crud-runtime: ListQuery search and filters');

Q('q is trimmed; absent or blank q narrows nothing', () => {
  assert.is(query({ q: '  Dupont \t' }).q, 'Dupont');
  assert.is(query({ q: '   ' }).q, '');
  assert.is(query({}).q, '');
  assert.equal(query({}).where('mariadb'), { sql: '', params: [] });
  assert.equal(query({ q: '  ' }).where('mariadb'), { sql: '', params: [] });
});

Q('escapeLike makes %, _ and the escape character ! literal', () => {
  assert.is(escapeLike('50%'), '50!%');
  assert.is(escapeLike('a_b'), 'a!_b');
  assert.is(escapeLike('wow!'), 'wow!!');
  assert.is(escapeLike('!%_'), '!!!%!_');
  assert.is(escapeLike('plain text'), 'plain text');
});

Q("q searches every searchable column with OR inside parentheses, ESCAPE '!', one parameter per column", () => {
  const where = query({ q: ' 50%_! ' }).where('mariadb');
  assert.is(where.sql, "WHERE (t.Nom LIKE ? ESCAPE '!' OR t.Email LIKE ? ESCAPE '!')");
  assert.equal(where.params, ['%50!%!_!!%', '%50!%!_!!%']);
});

Q('filters are ANDed after the search group, each an equality with a parameter', () => {
  const where = query({ q: 'du', nom: 'Dupont', actif: '1', visites: '-3', ville_id: '7' }).where('mariadb');
  assert.is(where.sql, "WHERE (t.Nom LIKE ? ESCAPE '!' OR t.Email LIKE ? ESCAPE '!') AND t.Nom = ? AND t.Actif = ? AND t.Visites = ? AND t.VilleId = ?");
  assert.equal(where.params, ['%du%', '%du%', 'Dupont', 1, -3, 7]);
  const filtersOnly = query({ actif: '0' }).where('mariadb');
  assert.equal(filtersOnly, { sql: 'WHERE t.Actif = ?', params: [0] });
});

Q('a search on an entity without textual columns finds nothing rather than everything', () => {
  const spec: ListSpec = { ...SPEC, searchable: [] };
  assert.equal(query({ q: 'x' }, spec).where('mariadb'), { sql: 'WHERE 1 = 0', params: [] });
});

Q('a filter key outside the allow-list is ignored from the request', () => {
  const q = query({ zzz: '1', Nom: 'x', 't.Nom': 'x', ['__proto__']: 'x', constructor: '1', nom: 'Dupont' });
  assert.equal({ ...q.filters }, { nom: 'Dupont' });
  assert.equal(q.where('mariadb'), { sql: 'WHERE t.Nom = ?', params: ['Dupont'] });
});

Q('filterClause with a key outside the allow-list throws UnknownFilterError naming it and the allowed keys', () => {
  const q = query({});
  assert.equal(q.filterClause('actif', '1'), { sql: 't.Actif = ?', params: [1] });
  assert.equal(q.filterClause('nom', ' x ', 'mariadb'), { sql: 't.Nom = ?', params: [' x '] });
  // SQLite: both sides through fw_sort_key, trailing spaces dropped, as MariaDB's collation compares them.
  assert.equal(q.filterClause('nom', ' x ', 'sqlite'), { sql: "fw_sort_key(RTRIM(t.Nom, ' ')) = fw_sort_key(?)", params: [' x'] });
  let caught: unknown;
  try {
    q.filterClause('zzz', '1');
  } catch (err) {
    caught = err;
  }
  assert.instance(caught, UnknownFilterError);
  const error = caught as UnknownFilterError;
  assert.is(error.name, 'UnknownFilterError');
  assert.match(error.message, /« zzz »/);
  for (const key of ['nom', 'actif', 'visites', 'ville_id']) assert.match(error.message, `« ${key} »`);
  // Inherited properties are not filters either.
  assert.throws(
    () => q.filterClause('constructor', '1'),
    (err: unknown) => err instanceof UnknownFilterError && /« constructor »/.test((err as Error).message),
  );
  assert.throws(
    () => q.filterClause('toString', '1'),
    (err: unknown) => err instanceof UnknownFilterError,
  );
});

Q('a bool filter accepts only 1 and 0', () => {
  assert.equal({ ...query({ actif: '1' }).filters }, { actif: '1' });
  assert.equal({ ...query({ actif: ' 0 ' }).filters }, { actif: '0' });
  for (const bad of ['true', 'false', 'yes', 'on', '2', '-1', '01', '']) {
    assert.equal({ ...query({ actif: bad }).filters }, {}, `actif=${bad}`);
  }
  assert.throws(
    () => query({}).filterClause('actif', 'oui'),
    (err: unknown) => err instanceof RangeError,
  );
});

Q('int and relation filters accept only integers', () => {
  assert.equal({ ...query({ visites: '12', ville_id: '3' }).filters }, { visites: '12', ville_id: '3' });
  assert.equal({ ...query({ visites: '-4' }).filters }, { visites: '-4' });
  for (const bad of ['1.5', '1e3', 'abc', '0x10', '3 OR 1=1', '1,2', '+']) {
    assert.equal({ ...query({ visites: bad, ville_id: bad }).filters }, {}, `value ${bad}`);
  }
  assert.throws(
    () => query({}).filterClause('ville_id', '1 OR 1=1'),
    (err: unknown) => err instanceof RangeError,
  );
});

Q('a text filter keeps its value; an empty value is no filter', () => {
  assert.equal({ ...query({ nom: "O'Brien; DROP TABLE x" }).filters }, { nom: "O'Brien; DROP TABLE x" });
  assert.equal({ ...query({ nom: '' }).filters }, {});
  assert.equal(query({ nom: "O'Brien" }).where('mariadb').params, ["O'Brien"]);
});

Q('only the first value of a repeated parameter counts', () => {
  const q = query({ q: ['a', 'b'], actif: ['x', '1'], sort: ['nom', 'id'] });
  assert.is(q.q, 'a');
  assert.equal({ ...q.filters }, {});
  assert.is(q.sort, 'nom');
});

Q.run();

// --- ListQuery: the SQL of each dialect ---

const D = suite('crud-runtime: ListQuery SQL per dialect (unicode search and sort on SQLite)');

D.after(() => {
  resetConfig();
});

D('on SQLite the search is one fw_contains call with the folded q (no LIKE: % and _ stay literal); MariaDB keeps LIKE', () => {
  const q = query({ q: ' Écrou 50%_! ' });
  assert.equal(q.where('sqlite'), { sql: 'WHERE fw_contains(?, t.Nom, t.Email)', params: ['ecrou 50%_!'] });
  assert.equal(q.where('mariadb').params, ['%Écrou 50!%!_!!%', '%Écrou 50!%!_!!%']);
  // A text filter compares sort keys (case and accents ignored, as MariaDB's `=`); the others stay plain equality.
  assert.is(query({ nom: 'Dupont' }).where('sqlite').sql, "WHERE fw_sort_key(RTRIM(t.Nom, ' ')) = fw_sort_key(?)");
  assert.equal(query({ q: 'du', actif: '1' }).where('sqlite'), { sql: 'WHERE fw_contains(?, t.Nom, t.Email) AND t.Actif = ?', params: ['du', 1] });
});

D('on SQLite a textual sort key is ordered by fw_sort_key, numbers and the primary key tie-break stay raw', () => {
  assert.is(query({ sort: 'nom', direction: 'desc' }).orderBy('sqlite'), 'ORDER BY fw_sort_key(t.Nom) DESC, t.Id DESC');
  assert.is(query({ sort: 'email' }).orderBy('sqlite'), 'ORDER BY fw_sort_key(t.Email) ASC, t.Id ASC');
  assert.is(query({ sort: 'visites' }).orderBy('sqlite'), 'ORDER BY t.Visites ASC, t.Id ASC');
  assert.is(query({}).orderBy('sqlite'), 'ORDER BY t.Id DESC');
});

D('textSorts, when given, says which sort keys are text (a text primary key included)', () => {
  const spec: ListSpec = { ...SPEC, textSorts: ['email', 'id'] };
  assert.is(query({ sort: 'nom' }, spec).orderBy('sqlite'), 'ORDER BY t.Nom ASC, t.Id ASC');
  assert.is(query({ sort: 'email' }, spec).orderBy('sqlite'), 'ORDER BY fw_sort_key(t.Email) ASC, t.Id ASC');
  assert.is(query({}, spec).orderBy('sqlite'), 'ORDER BY fw_sort_key(t.Id) DESC, t.Id DESC');
  assert.is(query({}, spec).orderBy('mariadb'), 'ORDER BY t.Id DESC');
});

D('decimalSorts: a DECIMAL (TEXT on SQLite) is ordered by its value there, by the column on MariaDB; textOrder for choices', () => {
  const spec: ListSpec = { ...SPEC, decimalSorts: ['visites'] };
  assert.is(query({ sort: 'visites', direction: 'desc' }, spec).orderBy('sqlite'), 'ORDER BY CAST(t.Visites AS REAL) DESC, t.Id DESC');
  assert.is(query({ sort: 'visites' }, spec).orderBy('mariadb'), 'ORDER BY t.Visites ASC, t.Id ASC');
  assert.is(textOrder('Nom', 'sqlite'), 'fw_sort_key(Nom)');
  assert.is(textOrder('o.Nom', 'mariadb'), 'o.Nom');
  // Proof on the real SQLite: '9.00' before '10.00', as numbers.
  const db = new Sqlite(':memory:');
  db.exec("CREATE TABLE t (Id INTEGER PRIMARY KEY, Visites TEXT); INSERT INTO t (Visites) VALUES ('10.00'), ('9.00'), ('100.50'), ('-2.00')");
  const order = query({ sort: 'visites' }, spec).orderBy('sqlite');
  assert.equal(
    db
      .prepare(`SELECT Visites AS v FROM t ${order}`)
      .all()
      .map((r) => (r as { v: string }).v),
    ['-2.00', '9.00', '10.00', '100.50'],
  );
  db.close();
});

D('without a dialect, where() and orderBy() follow the driver of the default database (db_driver)', () => {
  configure({ db_driver: 'sqlite' });
  assert.match(query({ q: 'x', sort: 'nom' }).where().sql, 'fw_contains(?, t.Nom, t.Email)');
  assert.match(query({ q: 'x', sort: 'nom' }).orderBy(), 'fw_sort_key(t.Nom)');
  configure({ db_driver: 'mariadb', db_name: 'unused' });
  assert.is(query({ q: 'x' }).where().sql, "WHERE (t.Nom LIKE ? ESCAPE '!' OR t.Email LIKE ? ESCAPE '!')");
  assert.is(query({ sort: 'nom' }).orderBy(), 'ORDER BY t.Nom ASC, t.Id ASC');
});

D.run();

// --- ListQuery on a real database ---

const DB = suite('crud-runtime: ListQuery SQL on SQLite');

let db: Sqlite.Database;

DB.before(() => {
  db = new Sqlite(':memory:');
  registerUnicodeFunctions(db);
  db.exec('CREATE TABLE contacts (Id INTEGER PRIMARY KEY, Nom TEXT, Email TEXT, Actif INTEGER, Visites INTEGER, VilleId INTEGER)');
  const insert = db.prepare('INSERT INTO contacts (Id, Nom, Email, Actif, Visites, VilleId) VALUES (?, ?, ?, ?, ?, ?)');
  insert.run(1, '50% off', 'promo@x.fr', 1, 0, 1);
  insert.run(2, '500 items', 'stock@x.fr', 1, 3, 1);
  insert.run(3, 'a_b', 'ab@x.fr', 0, 3, 2);
  insert.run(4, 'axb', 'axb@x.fr', 1, 5, null);
  insert.run(5, 'Wow!', 'wow@x.fr', 0, 5, 2);
  insert.run(6, 'Dupont', 'jean_dupont@x.fr', 1, 1, 2);
});

DB.after(() => {
  db?.close();
});

function ids(params: Record<string, string>): number[] {
  const q = query(params);
  const where = q.where('sqlite');
  return db
    .prepare(`SELECT t.Id AS id FROM contacts t ${where.sql} ${q.orderBy('sqlite')}`)
    .all(...(where.params as unknown[]))
    .map((row) => (row as { id: number }).id);
}

DB('accents and case are ignored by the search; text sorts in Unicode order', () => {
  db.prepare('INSERT INTO contacts (Id, Nom, Email, Actif, Visites, VilleId) VALUES (?, ?, ?, ?, ?, ?)').run(7, 'Écrou', 'zebre@x.fr', 1, 9, null);
  try {
    assert.equal(ids({ q: 'ecrou' }), [7]);
    assert.equal(ids({ q: 'ÉCROU' }), [7]);
    // Punctuation sorts before digits (« 50% off » before « 500 items »), « Écrou » between « Dupont » and « Wow! ».
    assert.equal(ids({ sort: 'nom', direction: 'asc' }), [1, 2, 3, 4, 6, 7, 5]);
  } finally {
    db.prepare('DELETE FROM contacts WHERE Id = 7').run();
  }
});

DB('% and _ in q are literal; the default order is the primary key descending', () => {
  assert.equal(ids({}), [6, 5, 4, 3, 2, 1]);
  assert.equal(ids({ q: '50%' }), [1]);
  assert.equal(ids({ q: 'a_b' }), [3]);
  assert.equal(ids({ q: '_' }), [6, 3]);
  assert.equal(ids({ q: 'wow!' }), [5]);
  assert.equal(ids({ q: '!' }), [5]);
});

DB('the search covers every searchable column (OR), the filters narrow it (AND)', () => {
  assert.equal(ids({ q: 'dupont' }), [6]);
  assert.equal(ids({ q: 'x.fr', actif: '0' }), [5, 3]);
  assert.equal(ids({ q: 'x.fr', actif: '1', ville_id: '1' }), [2, 1]);
  assert.equal(ids({ visites: '5', sort: 'email', direction: 'asc' }), [4, 5]);
  assert.equal(ids({ visites: '5', sort: 'email', direction: 'desc' }), [5, 4]);
});

DB('the search group keeps its parentheses: an OR never escapes a filter', () => {
  // Without them, `Nom LIKE ? OR Email LIKE ? AND Actif = ?` would return the active row 1 through its Nom.
  assert.equal(ids({ q: '50%' }), [1]);
  assert.equal(ids({ q: '50%', actif: '0' }), []);
});

DB.run();

// --- ListQuery: sort, direction, links, empty states ---

const S = suite('crud-runtime: ListQuery sort, links and empty states');

S('a sort key must be in sortable; unknown falls back to the primary key descending whatever the direction', () => {
  const byNom = query({ sort: 'nom', direction: 'desc' });
  assert.is(byNom.sort, 'nom');
  assert.is(byNom.direction, 'desc');
  assert.is(byNom.orderBy('mariadb'), 'ORDER BY t.Nom DESC, t.Id DESC');
  assert.is(query({ sort: 'nom' }).orderBy('mariadb'), 'ORDER BY t.Nom ASC, t.Id ASC');
  assert.is(query({ sort: 'id', direction: 'asc' }).orderBy('mariadb'), 'ORDER BY t.Id ASC');
  for (const bad of ['Nom', 't.Nom', 'nom; DROP TABLE contacts', '__proto__', 'constructor']) {
    const q = query({ sort: bad, direction: 'asc' });
    assert.is(q.sort, null, `sort=${bad}`);
    assert.is(q.direction, 'desc', `sort=${bad}`);
    assert.is(q.orderBy('mariadb'), 'ORDER BY t.Id DESC', `sort=${bad}`);
  }
  assert.is(query({}).orderBy('mariadb'), 'ORDER BY t.Id DESC');
});

S('a direction without sort orders the primary key that way and becomes a chosen sort; an unknown sort stays id DESC', () => {
  for (const [direction, expected] of [
    ['asc', 'asc'],
    ['ASC', 'asc'],
    ['desc', 'desc'],
    [' Desc ', 'desc'],
  ] as const) {
    for (const params of [{ direction }, { sort: '', direction }, { sort: '  ', direction, q: 'x' }] as Array<Record<string, string>>) {
      const q = query(params);
      assert.is(q.sort, 'id', JSON.stringify(params));
      assert.is(q.direction, expected, JSON.stringify(params));
      assert.is(q.orderBy('mariadb'), `ORDER BY t.Id ${expected.toUpperCase()}`, JSON.stringify(params));
      assert.is(q.sortState('id'), expected);
      assert.equal(q.linkParams(), { q: 'q' in params ? 'x' : '', sort: 'id', direction: expected });
    }
  }
  for (const params of [{ direction: 'sideways' }, { direction: '' }, { sort: 'bogus', direction: 'asc' }, { sort: 'bogus', direction: 'desc' }] as Array<
    Record<string, string>
  >) {
    const q = query(params);
    assert.is(q.sort, null, JSON.stringify(params));
    assert.is(q.orderBy('mariadb'), 'ORDER BY t.Id DESC', JSON.stringify(params));
    assert.equal(q.linkParams(), { q: '' });
  }
});

S('an invalid direction gives asc; the direction is case-insensitive', () => {
  assert.is(query({ sort: 'email', direction: 'sideways' }).direction, 'asc');
  assert.is(query({ sort: 'email', direction: 'desc; DROP' }).orderBy('mariadb'), 'ORDER BY t.Email ASC, t.Id ASC');
  assert.is(query({ sort: 'email', direction: 'DESC' }).direction, 'desc');
  assert.is(query({ sort: 'email' }).direction, 'asc');
});

S('sortUrl toggles the direction of the current sort, keeps q and filters, drops page', () => {
  const q = query({ q: 'du', actif: '1', sort: 'nom', direction: 'asc', page: '4' });
  assert.is(q.sortUrl('/contacts', 'nom'), '/contacts?actif=1&direction=desc&q=du&sort=nom');
  assert.is(q.sortUrl('/contacts', 'email'), '/contacts?actif=1&direction=asc&q=du&sort=email');
  const desc = query({ sort: 'nom', direction: 'desc', page: '2' });
  assert.is(desc.sortUrl('/contacts', 'nom'), '/contacts?direction=asc&sort=nom');
  // The default sort is not a chosen sort: the first click on any header sorts ascending.
  assert.is(query({ page: '3' }).sortUrl('/contacts', 'id'), '/contacts?direction=asc&sort=id');
  assert.is(q.sortState('nom'), 'asc');
  assert.is(q.sortState('email'), '');
  assert.is(desc.sortState('nom'), 'desc');
});

S('linkParams: q, active filters, and sort/direction only when a sort was chosen', () => {
  assert.equal(query({ q: 'x', nom: 'A', visites: 'bad', sort: 'nom', direction: 'desc', page: '2' }).linkParams(), {
    q: 'x',
    nom: 'A',
    sort: 'nom',
    direction: 'desc',
  });
  assert.equal(query({ q: 'x', sort: 'nom' }).linkParams({ sort: false }), { q: 'x' });
  assert.equal(query({ sort: 'unknown', direction: 'asc' }).linkParams(), { q: '' });
});

S('urlWithState keeps the whole state but the page, with sorted names and no empty values', () => {
  assert.is(query({}).urlWithState('/contacts/export.csv'), '/contacts/export.csv');
  assert.is(
    query({ q: 'a b&c', ville_id: '2', sort: 'email', direction: 'desc', page: '5' }).urlWithState('/contacts/export.csv'),
    '/contacts/export.csv?direction=desc&q=a+b%26c&sort=email&ville_id=2',
  );
  assert.is(query({ q: 'x', sort: 'zzz' }).urlWithState('/contacts'), '/contacts?q=x');
});

S('withQuery sorts names, repeats list values and leaves out empty ones', () => {
  assert.is(withQuery('/p', { b: '2', a: 1, c: '', d: null, e: undefined, f: ['x', 'y'] }), '/p?a=1&b=2&f=x&f=y');
  assert.is(withQuery('/p', {}), '/p');
});

S('emptyContext: general, search, filters, search_filters, and their message keys', () => {
  const cases: Array<[Record<string, string>, string, string, boolean]> = [
    [{}, 'general', 'crud.empty', false],
    [{ q: 'x' }, 'search', 'crud.empty_search', true],
    [{ actif: '0' }, 'filters', 'crud.empty_filters', true],
    [{ q: 'x', ville_id: '2' }, 'search_filters', 'crud.empty_search_filters', true],
    // A dropped filter value and a sort are not a narrowing.
    [{ q: ' ', actif: 'maybe', sort: 'nom' }, 'general', 'crud.empty', false],
  ];
  for (const [params, context, key, filtered] of cases) {
    const q = query(params);
    assert.is(q.emptyContext, context, JSON.stringify(params));
    assert.is(q.emptyMessageKey, key, JSON.stringify(params));
    assert.is(q.isFiltered, filtered, JSON.stringify(params));
  }
});

S.run();
