/**
 * The cheaper nunjucks `Frame.set` (runtime/templates/nunjucks-frame.ts) is in place on the nunjucks this project
 * installs, and templates mean what they meant: loop variables of nested loops, a `set` inside a loop that writes
 * the outer variable, pairs of an object, an empty loop's `else`. The expected text was rendered by nunjucks' own
 * method.
 */
import nunjucks from 'nunjucks';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { installFrameSet } from '../runtime/templates/nunjucks-frame.js';

const test = suite('templates: nunjucks Frame.set');

const TEMPLATE =
  '{% set total = 0 %}{% for a in xs %}{% set total = total + a %}[{{ loop.index }}{{ loop.index0 }}{{ loop.revindex }}{{ loop.first }}{{ loop.last }}{{ loop.length }}:' +
  '{% for b in ys %}{{ loop.index }}{{ a }}{{ b }}{% endfor %}]{% endfor %}{{ total }}|{% for k, v in obj %}{{ k }}={{ v }};{% endfor %}|' +
  '{% for x, y in pairs %}{{ x }}{{ y }}{% else %}none{% endfor %}';

test('installed on this nunjucks, once', () => {
  assert.ok(installFrameSet());
  assert.ok(installFrameSet(), 'a second call changes nothing');
});

test('loops, nested loops, a set inside a loop and pairs render as with nunjucks’ own method', () => {
  installFrameSet();
  const env = new nunjucks.Environment(null, { autoescape: true });
  const out = env.renderString(TEMPLATE, { xs: [1, 2, 3], ys: ['p', 'q'], obj: { a: 1, b: 2 }, pairs: [] });
  assert.is(out, '[103truefalse3:11p21q][212falsefalse3:12p22q][321falsetrue3:13p23q]6|a=1;b=2;|none');
});

test.run();
