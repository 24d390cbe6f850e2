// Ids and htmx in the generated CRUD pages (docs/crud.md "Bulk delete", "Partial updates (htmx, optional)"):
// bulk ids and route ids parsed, SQL placeholders, the htmx request header, target and redirect.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { IDS_MAX, PLACEHOLDERS_MAX, htmxRedirect, htmxTarget, isHtmx, parseId, parseIds, placeholders } from '../runtime/crud/index.js';
import { HttpError, TooManyIdsError } from '../runtime/index.js';

// --- ids ---

const I = suite('crud-runtime: bulk ids and route ids');

I('parseIds takes a scalar or a list', () => {
  assert.equal(parseIds('5'), [5]);
  assert.equal(parseIds(['5', '6']), [5, 6]);
  assert.equal(parseIds(9), [9]);
  assert.equal(parseIds(undefined), []);
  assert.equal(parseIds(null), []);
  assert.equal(parseIds([]), []);
  assert.equal(parseIds({ 0: '1' }), []);
});

I('parseIds drops non-integers, 0 and negatives, trims, and dedupes in the order given', () => {
  assert.equal(parseIds(['3', 'x', '-1', '0', '3', '7']), [3, 7]);
  assert.equal(parseIds(['1.5', '1e3', '0x10', '', ' ', '+4', '12abc', 1.5, -2, true, null, ['8']]), []);
  assert.equal(parseIds([' 7 ', '7', '\t8\n']), [7, 8]);
  assert.equal(parseIds(['9', '2', '9', '2', '1']), [9, 2, 1]);
  assert.equal(parseIds(['007', '7']), [7]);
  // Beyond 15 digits an id would lose precision: dropped.
  assert.equal(parseIds(['1234567890123456']), []);
});

I('placeholders: one ? per value; zero values is an error', () => {
  assert.is(placeholders(1), '?');
  assert.is(placeholders(3), '?, ?, ?');
  assert.throws(
    () => placeholders(0),
    (err: unknown) => err instanceof RangeError,
  );
  assert.throws(
    () => placeholders(-1),
    (err: unknown) => err instanceof RangeError,
  );
  assert.throws(
    () => placeholders(1.5),
    (err: unknown) => err instanceof RangeError,
  );
});

I('parseIds: at most 1,000 values (valid or not); past that TooManyIdsError, a 413 naming the limit', () => {
  assert.is(IDS_MAX, 1000);
  const thousand = Array.from({ length: 1000 }, (_, i) => String(i + 1));
  assert.is(parseIds(thousand).length, 1000);
  for (const items of [[...thousand, '1001'], Array.from({ length: 40_000 }, (_, i) => String(i + 1)), Array.from({ length: 1001 }, () => 'x')]) {
    assert.throws(
      () => parseIds(items),
      (err: unknown) =>
        err instanceof TooManyIdsError &&
        err instanceof HttpError &&
        err.status === 413 &&
        err.code === 'too_many_ids' &&
        err.message === `Trop d'identifiants : ${items.length} reçus, 1000 au plus.`,
    );
  }
});

I("placeholders refuses more than 10,000 values (under SQLite's 32,766 and MariaDB's 65,535 parameters)", () => {
  assert.is(PLACEHOLDERS_MAX, 10_000);
  assert.is(placeholders(PLACEHOLDERS_MAX).split(', ').length, 10_000);
  assert.throws(
    () => placeholders(10_001),
    (err: unknown) => err instanceof TooManyIdsError && err.status === 413 && err.message === "Trop d'identifiants : 10001 reçus, 10000 au plus.",
  );
});

I('parseId: a positive integer, else null (the page answers 404)', () => {
  assert.is(parseId('12'), 12);
  assert.is(parseId('1'), 1);
  for (const bad of ['abc', '0', '-1', '1.0', '1e3', ' 12', '12 ', '', '12abc', '0x1', '1234567890123456', undefined]) {
    assert.is(parseId(bad), null, JSON.stringify(bad));
  }
});

I.run();

// --- htmx ---

const H = suite('crud-runtime: isHtmx');

H('true only for HX-Request: true, and not for a history restore', () => {
  assert.is(isHtmx({ headers: { 'hx-request': 'true' } }), true);
  assert.is(isHtmx({ headers: {} }), false);
  assert.is(isHtmx({ headers: { 'hx-request': 'false' } }), false);
  assert.is(isHtmx({ headers: { 'hx-request': '1' } }), false);
  assert.is(isHtmx({ headers: { 'hx-request': '' } }), false);
  assert.is(isHtmx({ headers: { 'hx-request': 'true', 'hx-history-restore-request': 'true' } }), false);
  assert.is(isHtmx({ headers: { 'hx-request': 'true', 'hx-history-restore-request': 'false' } }), true);
});

H('htmxTarget reads HX-Target; htmxRedirect answers 200 with HX-Redirect', () => {
  assert.is(htmxTarget({ headers: { 'hx-target': 'crud-delete' } }), 'crud-delete');
  assert.is(htmxTarget({ headers: {} }), null);
  const res = htmxRedirect('/contacts');
  assert.equal([res.status, res.headers['HX-Redirect'], res.body], [200, '/contacts', '']);
});

H.run();
