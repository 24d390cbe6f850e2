// The line numbers of i18n:check and i18n:init (cli/i18n/usage.ts): `lineCounter` gives the line of increasing
// offsets in one pass over the text, and `keysIn` the line of every literal trans() call, checked against a count
// of the newlines before each call on texts with tens of thousands of calls, many on one line or spread out.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { keysIn, lineCounter } from '../cli/i18n/usage.js';

/** The line of `offset` counted from the start of the text (what the scan did for each call before). */
function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

test('lineCounter: the line of each offset asked in increasing order, repeated offsets and the end of the text included', () => {
  const text = 'a\nbc\n\n\ndef\nlast';
  const lineAt = lineCounter(text);
  const offsets = [0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, text.length];
  assert.equal(
    offsets.map((offset) => lineAt(offset)),
    offsets.map((offset) => lineOf(text, offset)),
  );
  assert.is(lineCounter('')(0), 1);
  assert.throws(() => lineAt(3), /avant/, 'an offset before the last one asked is a programming error');
});

test('keysIn: 40 000 calls spread over 60 000 lines (CRLF and LF), each on its line', () => {
  // Block i holds three lines (3i + 1 to 3i + 3): k.i on the first, j.i on the third.
  const text = Array.from({ length: 20_000 }, (_, i) => `<p>{{ trans('k.${i}') }}</p>\r\n\n<b>{{ trans("j.${i}", { n: 1 }) }}</b>`).join('\n');
  const uses = keysIn(text, 'mvc/views/grand.html');
  const want = Array.from({ length: 20_000 }, (_, i) => [
    [`k.${i}`, 3 * i + 1],
    [`j.${i}`, 3 * i + 3],
  ]).flat();
  assert.equal(
    uses.map((use) => [use.key, use.line]),
    want,
  );
  assert.equal(uses[39_999], { key: 'j.19999', file: 'mvc/views/grand.html', line: 60_000 });
  // The same lines as counting the newlines before each call, on a sample.
  for (const index of [0, 1, 2, 999, 20_001, 39_998]) assert.is(uses[index]!.line, lineOf(text, nthCall(text, index)));
});

/** The offset of the n-th (0-based) `trans(` of the text. */
function nthCall(text: string, n: number): number {
  let position = -1;
  for (let i = 0; i <= n; i++) position = text.indexOf('trans(', position + 1);
  return position;
}

test('keysIn: 40 000 calls on one line after 1 000 empty lines, then one on the next line', () => {
  const text = `${'\n'.repeat(1000)}${"{{ trans('une.cle') }} ".repeat(40_000)}\n{{ trans('fin') }}`;
  const uses = keysIn(text, 'x.html');
  assert.is(uses.length, 40_001);
  assert.ok(uses.slice(0, 40_000).every((use) => use.key === 'une.cle' && use.line === 1001));
  assert.equal(uses[40_000], { key: 'fin', file: 'x.html', line: 1002 });
});

test.run();
