/**
 * The cheaper nunjucks `Frame.set` and `escape` (runtime/templates/nunjucks-hot-paths.ts) are in place on the
 * nunjucks this project installs, and templates mean what they meant: loop variables of nested loops, a `set` inside
 * a loop that writes the outer variable, pairs of an object, an empty loop's `else` (the expected text was rendered
 * by nunjucks' own method); the escape gives nunjucks' text for every string. nunjucks is the exact version they were
 * checked against (NUNJUCKS_CHECKED, pinned in package.json): another one fails here, saying what to re-read.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import nunjucks from 'nunjucks';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { NUNJUCKS_CHECKED, nunjucksEscape, installHotPaths } from '../runtime/templates/nunjucks-hot-paths.js';

const test = suite('templates: nunjucks hot paths');
const REPO = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');

/** What to read again before a nunjucks other than NUNJUCKS_CHECKED is accepted. */
const RECHECK =
  're-read Frame.prototype.set (nunjucks/src/runtime.js) and escape (nunjucks/src/lib.js), which ' +
  'runtime/templates/nunjucks-hot-paths.ts replaces, and Template.prototype.render (src/environment.js) and _prettifyError ' +
  '(src/lib.js), which runtime/templates/nunjucks-compile-errors.ts relies on; then put the new version in NUNJUCKS_CHECKED ' +
  'and, exactly, in package.json';

test('nunjucks is pinned to the version the replaced functions were checked against, and that version is installed', () => {
  const pinned = (JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies.nunjucks;
  assert.ok(pinned !== undefined && /^\d+\.\d+\.\d+$/.test(pinned), `package.json gives nunjucks ${pinned}, not an exact version: ${RECHECK}`);
  assert.is(pinned, NUNJUCKS_CHECKED, `package.json pins nunjucks ${pinned}, the code was checked against ${NUNJUCKS_CHECKED}: ${RECHECK}`);
  const installed = (createRequire(import.meta.url)('nunjucks/package.json') as { version: string }).version;
  assert.is(installed, NUNJUCKS_CHECKED, `nunjucks ${installed} is installed, the code was checked against ${NUNJUCKS_CHECKED}: ${RECHECK}`);
});

const TEMPLATE =
  '{% set total = 0 %}{% for a in xs %}{% set total = total + a %}[{{ loop.index }}{{ loop.index0 }}{{ loop.revindex }}{{ loop.first }}{{ loop.last }}{{ loop.length }}:' +
  '{% for b in ys %}{{ loop.index }}{{ a }}{{ b }}{% endfor %}]{% endfor %}{{ total }}|{% for k, v in obj %}{{ k }}={{ v }};{% endfor %}|' +
  '{% for x, y in pairs %}{{ x }}{{ y }}{% else %}none{% endfor %}|{{ html }}|{{ html | safe }}';

test('both are installed on this nunjucks, once, over the functions nunjucks renders with', () => {
  const first = installHotPaths();
  assert.equal(first, { frameSet: true, escape: true });
  assert.is(installHotPaths(), first, 'a second call changes nothing');
  const require = createRequire(import.meta.url);
  assert.is(require('nunjucks/src/lib').escape, nunjucksEscape);
  const { Frame } = (nunjucks as unknown as { runtime: { Frame: { prototype: { set: unknown } } } }).runtime;
  assert.not.match(String(Frame.prototype.set), /name\.split\('\.'\)/);
});

test('loops, a set inside a loop, pairs and autoescape render as with nunjucks’ own functions', () => {
  installHotPaths();
  const env = new nunjucks.Environment(null, { autoescape: true });
  const out = env.renderString(TEMPLATE, { xs: [1, 2, 3], ys: ['p', 'q'], obj: { a: 1, b: 2 }, pairs: [], html: `<a href="x">O'Neil & \\</a>` });
  assert.is(
    out,
    '[103truefalse3:11p21q][212falsefalse3:12p22q][321falsetrue3:13p23q]6|a=1;b=2;|none|' +
      '&lt;a href=&quot;x&quot;&gt;O&#39;Neil &amp; &#92;&lt;/a&gt;|<a href="x">O\'Neil & \\</a>',
  );
});

test('the escape gives nunjucks’ text for every string', () => {
  // nunjucks' own escape, as written in its lib.js: the six characters, one entity each.
  const reference = (value: string): string =>
    value.replace(/[&"'<>\\]/g, (ch) => ({ '&': '&amp;', '"': '&quot;', "'": '&#39;', '<': '&lt;', '>': '&gt;', '\\': '&#92;' })[ch]!);
  let seed = 7;
  const next = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const alphabet = `ab é&"'<>\\;#0`;
  for (let i = 0; i < 5000; i++) {
    const text = Array.from({ length: Math.floor(next() * 12) }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
    assert.is(nunjucksEscape(text), reference(text), JSON.stringify(text));
  }
  const plain = 'Prenom4242';
  assert.is(nunjucksEscape(plain), plain, 'a value with nothing to escape comes back as it is');
});

test.run();
