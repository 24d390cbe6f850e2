/** The strict JSON reader of definition files: same values as JSON.parse, French errors with line, column and pointer. */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readJson } from '../compiler/json-source.js';

const Json = suite('compiler-json: readJson');

Json('reads what JSON.parse reads, to the same value', () => {
  const texts = [
    '{}',
    '[]',
    '{"a": 1, "b": [true, false, null], "c": {"d": "e"}}',
    ' \n\t{ "n": -12.5e-3, "z": 0, "big": 12345678901234 }\r\n',
    '{"s": "guillemet \\" barre \\\\ slash \\/ \\b\\f\\n\\r\\t é \\u00e9 \\ud83d\\ude00 😀"}',
    '"seul"',
    '42',
    '{"__proto__": {"x": 1}, "constructor": 2}',
  ];
  for (const text of texts) {
    const result = readJson(text);
    assert.ok(result.ok, text);
    if (result.ok) {
      assert.equal(result.value, JSON.parse(text), text);
      assert.equal(result.duplicates, []);
    }
  }
  const proto = readJson('{"__proto__": {"x": 1}}');
  assert.ok(proto.ok && Object.getPrototypeOf(proto.value) === Object.prototype, '__proto__ stays an own key');
  assert.ok(proto.ok && Object.keys(proto.value as object).includes('__proto__'));
});

Json('a byte-order mark is ignored', () => {
  const result = readJson('\ufeff{"a": 1}');
  assert.ok(result.ok);
});

Json('duplicated keys are listed with their pointer', () => {
  const result = readJson('{"a": 1, "b": {"c": 1, "c": 2}, "a": 3, "l": [{"x": 1, "x": 1}]}');
  assert.ok(result.ok);
  if (result.ok) {
    assert.equal(result.duplicates, [
      { pointer: '#/b/c', key: 'c' },
      { pointer: '#/a', key: 'a' },
      { pointer: '#/l/0/x', key: 'x' },
    ]);
  }
  const slash = readJson('{"a/b": {"k": 1, "k": 2}}');
  assert.ok(slash.ok && slash.duplicates[0]?.pointer === '#/a~1b/k', 'pointer segments are escaped');
});

// [text, line, column, pointer, message substring]
const broken: Array<[string, number, number, string, string]> = [
  ['', 1, 1, '#', 'le fichier est vide'],
  ['{"a": 1,}', 1, 9, '#', 'virgule en trop avant « } »'],
  ['{"a": [1, 2,]}', 1, 13, '#/a', 'virgule en trop avant « ] »'],
  ['{\n  "a": 1\n  "b": 2\n}', 3, 3, '#', '« , » ou « } » attendu après la valeur de « a »'],
  ['{"a": [1 2]}', 1, 10, '#/a', '« , » ou « ] » attendu'],
  ['{"a": 1', 1, 8, '#', '« } » manquant'],
  ['{"a": "b', 1, 7, '#/a', 'chaîne non terminée'],
  ["{'a': 1}", 1, 2, '#', 'guillemets doubles'],
  ['{"a": \'b\'}', 1, 7, '#/a', 'guillemets doubles'],
  ['{a: 1}', 1, 2, '#', 'clé entre guillemets doubles attendue'],
  ['{"a" 1}', 1, 6, '#', '« : » attendu après la clé « a »'],
  ['{"a": True}', 1, 7, '#/a', 'true / false en minuscules'],
  ['{"a": 01}', 1, 7, '#/a', 'nombre invalide'],
  ['{"a": "x\ny"}', 1, 9, '#/a', 'retour à la ligne'],
  ['{"a": "\\x"}', 1, 8, '#/a', 'échappement invalide'],
  ['{"a": 1} {}', 1, 10, '#', 'contenu après la fin'],
  ['{\n  // note\n  "a": 1\n}', 2, 3, '#', 'commentaires ne sont pas permis'],
  ['{"f": [{"n": 1,, "m": 2}]}', 1, 16, '#/f/0', 'clé entre guillemets doubles attendue'],
];

for (const [text, line, column, pointer, says] of broken) {
  Json(`syntax error: ${JSON.stringify(text)}`, () => {
    assert.throws(() => JSON.parse(text));
    const result = readJson(text);
    assert.is(result.ok, false);
    if (!result.ok) {
      assert.equal({ line: result.error.line, column: result.error.column, pointer: result.error.pointer }, { line, column, pointer });
      assert.ok(result.error.message.includes(says), `« ${result.error.message} » ⊇ « ${says} »`);
    }
  });
}

Json.run();
