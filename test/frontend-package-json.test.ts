// The textual edit of package.json by `fw js:init` (cli/frontend/package-json.ts addDependencies), table-driven:
// each case gives a file and the exact text wanted, every byte but the inserted line kept.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { addDependencies } from '../cli/frontend/package-json.js';

const HTMX = [['htmx.org', '^2']] as const;

const cases: ReadonlyArray<{ what: string; given: string; want: string; wanted?: ReadonlyArray<readonly [string, string]> }> = [
  {
    what: 'first place',
    given: '{\n  "dependencies": {\n    "kysely": "^0.27"\n  }\n}\n',
    want: '{\n  "dependencies": {\n    "htmx.org": "^2",\n    "kysely": "^0.27"\n  }\n}\n',
  },
  {
    what: 'last place',
    given: '{\n  "dependencies": {\n    "fw-mvc": "1"\n  }\n}\n',
    want: '{\n  "dependencies": {\n    "fw-mvc": "1",\n    "htmx.org": "^2"\n  }\n}\n',
  },
  {
    what: 'empty object',
    given: '{\n  "name": "x",\n  "dependencies": {}\n}\n',
    want: '{\n  "name": "x",\n  "dependencies": {\n    "htmx.org": "^2"\n  }\n}\n',
  },
  { what: 'object on one line, compact separator', given: '{"dependencies":{"a":"1","z":"2"}}', want: '{"dependencies":{"a":"1","htmx.org":"^2", "z":"2"}}' },
  {
    what: 'absent, CRLF, after the last field',
    given: '{\r\n  "name": "x",\r\n  "n": 12345678901234567890\r\n}\r\n',
    want: '{\r\n  "name": "x",\r\n  "n": 12345678901234567890,\r\n  "dependencies": {\r\n    "htmx.org": "^2"\r\n  }\r\n}\r\n',
  },
  { what: 'empty file object', given: '{}\n', want: '{\n  "dependencies": {\n    "htmx.org": "^2"\n  }\n}\n' },
  {
    what: 'nested "dependencies" keys and strings with braces are not the top-level one',
    given: '{\n  "x": { "dependencies": { "b": "}{\\"" } },\n  "dependencies": { "a": "1" }\n}\n',
    want: '{\n  "x": { "dependencies": { "b": "}{\\"" } },\n  "dependencies": { "a": "1", "htmx.org": "^2" }\n}\n',
  },
  {
    what: 'two packages',
    given: '{\n  "dependencies": {\n    "b": "1"\n  }\n}\n',
    want: '{\n  "dependencies": {\n    "@alpinejs/csp": "^3",\n    "b": "1",\n    "htmx.org": "^2"\n  }\n}\n',
    wanted: [
      ['htmx.org', '^2'],
      ['@alpinejs/csp', '^3'],
    ],
  },
  {
    what: 'declared with an empty range in peerDependencies',
    given: '{ "peerDependencies": { "htmx.org": "" } }',
    want: '{ "peerDependencies": { "htmx.org": "" } }',
  },
];

for (const { what, given, want, wanted } of cases) {
  test(`addDependencies: ${what}`, () => {
    const result = addDependencies(given, JSON.parse(given) as Record<string, unknown>, wanted ?? HTMX);
    assert.is(result.text, want);
    // The data: what was there, plus the added packages in dependencies.
    const data = JSON.parse(given) as { dependencies?: Record<string, string> };
    const added = (wanted ?? HTMX).filter(([name]) => result.added.includes(name));
    const expected = added.length === 0 ? data : { ...data, dependencies: { ...data.dependencies, ...Object.fromEntries(added) } };
    assert.equal(JSON.parse(result.text), expected);
  });
}

test('addDependencies: a dependencies field that is not an object is refused', () => {
  assert.throws(() => addDependencies('{"dependencies": "htmx"}', { dependencies: 'htmx' }, HTMX), /« dependencies » n'est pas un objet/);
});

test.run();
