/**
 * Validator and Pagination (docs/api-mapping.md "Validator", "Pagination"; page rules of
 * docs/crud.md "The list page").
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { NunjucksRenderer, Pagination, Request, Validator, configure, resetConfig } from '../runtime/index.js';
import { FRAMEWORK_VIEWS } from '../runtime/paths.js';

test('Validator: required, maxLength, first message kept, isValid', () => {
  const v = new Validator();
  assert.is(v.isValid(), true);
  const requiredCases: Array<[unknown, boolean]> = [
    ['Léa', true],
    [0, true],
    [false, true],
    [['a'], true],
    ['', false],
    ['   ', false],
    [null, false],
    [undefined, false],
    [[], false],
  ];
  for (const [value, ok] of requiredCases) assert.is(new Validator().required('f', value), ok, JSON.stringify(value));

  assert.is(v.required('nom', ''), false);
  assert.is(v.maxLength('nom', 'x'.repeat(200), 100), false, 'a second message for the same field is dropped');
  assert.is(v.required('email', null, 'Email requis.'), false);
  assert.is(v.maxLength('ville', 'Paris', 5), true);
  assert.is(v.maxLength('code', '😀😀😀', 3), true, 'characters, not UTF-16 units');
  assert.is(v.maxLength('code', '123456', 5), false);
  assert.is(v.maxLength('absent', null, 5), true);
  v.addError('global', 'Autre chose.');
  v.addError('global', 'Ignoré.');
  assert.equal(v.errors, {
    nom: 'Le champ « nom » est obligatoire.',
    email: 'Email requis.',
    code: 'Le champ « code » doit contenir au plus 5 caractères.',
    global: 'Autre chose.',
  });
  assert.is(v.isValid(), false);
  const custom = new Validator();
  custom.maxLength('titre', 'abc', 2, 'Trop long.');
  assert.equal(custom.errors, { titre: 'Trop long.' });
  assert.throws(() => custom.maxLength('x', 'a', -1), RangeError);
});

const at = (query: string): Request => new Request({ method: 'GET', path: '/contacts', query });

test('Pagination: page clamping on 45 items, 20 per page', () => {
  const cases: Array<[query: string, page: number]> = [
    ['', 1],
    ['page=', 1],
    ['page=abc', 1],
    ['page=0', 1],
    ['page=-3', 1],
    ['page=2.5', 1],
    ['page=1e1', 1],
    ['page=+2', 1],
    ['page=%202', 1],
    ['page=1', 1],
    ['page=2', 2],
    ['page=02', 2],
    ['page=3', 3],
    ['page=999', 3],
    ['page=99999999999999999999999', 3],
    ['page=2&page=1', 2],
  ];
  for (const [query, page] of cases) {
    const p = new Pagination(at(query), 45, 20);
    assert.is(p.page, page, `?${query}`);
    assert.is(p.offset, (page - 1) * 20, `?${query}`);
  }
  const last = new Pagination(at('page=999'), 45, 20);
  assert.equal([last.total, last.perPage, last.pageCount, last.page, last.limit, last.offset], [45, 20, 3, 3, 20, 40]);
  assert.equal(last.pages, [1, 2, 3]);
});

test('Pagination: page count at least 1, default 20 per page, bad arguments refused', () => {
  const none = new Pagination(at('page=4'), 0);
  assert.equal([none.perPage, none.pageCount, none.page, none.offset, none.pages], [20, 1, 1, 0, [1]]);
  assert.equal([new Pagination(at(''), 40).pageCount, new Pagination(at(''), 41).pageCount, new Pagination(at(''), 7n, 3).pageCount], [2, 3, 3]);
  assert.throws(() => new Pagination(at(''), -1), RangeError);
  assert.throws(() => new Pagination(at(''), 1.5), RangeError);
  assert.throws(() => new Pagination(at(''), 10, 0), RangeError);
});

test('Pagination: pages window with gaps as null', () => {
  const cases: Array<[count: number, page: number, pages: Array<number | null>]> = [
    [1, 1, [1]],
    [7, 4, [1, 2, 3, 4, 5, 6, 7]],
    [20, 1, [1, 2, 3, 4, 5, null, 20]],
    [20, 4, [1, 2, 3, 4, 5, null, 20]],
    [20, 5, [1, null, 4, 5, 6, null, 20]],
    [20, 10, [1, null, 9, 10, 11, null, 20]],
    [20, 16, [1, null, 15, 16, 17, null, 20]],
    [20, 17, [1, null, 16, 17, 18, 19, 20]],
    [20, 20, [1, null, 16, 17, 18, 19, 20]],
    [8, 5, [1, null, 4, 5, 6, 7, 8]],
  ];
  for (const [count, page, pages] of cases) {
    assert.equal(new Pagination(at(`page=${page}`), count * 10, 10).pages, pages, `page ${page} of ${count}`);
  }
});

test('Pagination: toDict with hasPrev, hasNext, prevPage, nextPage', () => {
  assert.equal(new Pagination(at('page=2'), 45, 20).toDict(), {
    total: 45,
    perPage: 20,
    pageCount: 3,
    page: 2,
    limit: 20,
    offset: 20,
    pages: [1, 2, 3],
    hasPrev: true,
    hasNext: true,
    prevPage: 1,
    nextPage: 3,
  });
  const first = new Pagination(at(''), 45, 20).toDict();
  assert.equal([first.hasPrev, first.hasNext, first.prevPage, first.nextPage], [false, true, null, 2]);
  const last = new Pagination(at('page=3'), 45, 20).toDict();
  assert.equal([last.hasPrev, last.hasNext, last.prevPage, last.nextPage], [true, false, 2, null]);
});

test('Pagination: urlFor keeps the list parameters, sorted, without page or empty values', () => {
  const p = new Pagination(at('page=2'), 100, 20, {
    params: { sort: 'nom', q: 'dupont & fils', direction: 'desc', ville_id: 3, actif: '', page: 7, tag: ['a', 'b'], vide: null },
  });
  assert.is(p.urlFor(3), '?direction=desc&q=dupont+%26+fils&sort=nom&tag=a&tag=b&ville_id=3&page=3');
  assert.is(new Pagination(at(''), 100, 20).urlFor(2), '?page=2');
  // The same parameters given in another order give the same link.
  const q = new Pagination(at(''), 100, 20, { params: { ville_id: 3, q: 'dupont & fils', tag: ['a', 'b'], direction: 'desc', sort: 'nom' } });
  assert.is(q.urlFor(3), p.urlFor(3));
});

test('Pagination: context() with CSS classes from the configuration and links', () => {
  try {
    configure({ css_visible: 'flex', css_hidden: 'invisible' });
    const ctx = new Pagination(at('page=1'), 45, 20, { params: { q: 'a' } }).context();
    assert.equal([ctx.prevClass, ctx.nextClass, ctx.cssVisible, ctx.cssHidden], ['invisible', 'flex', 'flex', 'invisible']);
    assert.equal([ctx.url, ctx.prevUrl, ctx.nextUrl, ctx.urlFor(3)], ['?q=a&', null, '?q=a&page=2', '?q=a&page=3']);
    assert.equal(ctx.links, [
      { page: 1, url: '?q=a&page=1', current: true },
      { page: 2, url: '?q=a&page=2', current: false },
      { page: 3, url: '?q=a&page=3', current: false },
    ]);
    resetConfig();
    const middle = new Pagination(at('page=5'), 200, 10).context();
    assert.equal([middle.prevClass, middle.nextClass, middle.url], ['block', 'block', '?']);
    assert.equal(middle.links[1], { page: null, url: null, current: false });
  } finally {
    resetConfig();
  }
});

test('Pagination: context() drives components/pagination.html (gaps as …, links keep the parameters)', () => {
  const ctx = new Pagination(at('page=5'), 200, 10, { params: { q: 'a b', sort: 'nom' } }).context();
  const html = new NunjucksRenderer({ searchPaths: [FRAMEWORK_VIEWS] }).render('components/pagination.html', { pagination: ctx });
  assert.ok(html.includes('href="?q=a+b&amp;sort=nom&amp;page=4" rel="prev"'), html);
  assert.ok(html.includes('href="?q=a+b&amp;sort=nom&amp;page=6" rel="next"'), html);
  assert.ok(html.includes('aria-current="page"'), html);
  assert.is(html.split('…').length - 1, 2, 'two gaps');
  assert.ok(html.includes('page=20"'), html);
});

test.run();
