// `unifiedDiff`, the `git diff -U0` of `fw make:crud --dry-run` for routes.ts: table-driven given/want cases.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { unifiedDiff } from '../emitters/crud/index.js';

const CASES: ReadonlyArray<readonly [string, string, string, string]> = [
  ['equal texts', 'a\nb\n', 'a\nb\n', ''],
  ['a line inserted inside', 'a\nb\nc\n', 'a\nb\nX\nc\n', '@@ -2,0 +3 @@\n+X\n'],
  ['lines inserted at two places', 'i1\ni2\n\nf {\n  r\n}\n', 'i1\ni2\ni3\n\nf {\n  r\n  s1\n  s2\n}\n', '@@ -2,0 +3 @@\n+i3\n@@ -5,0 +7,2 @@\n+  s1\n+  s2\n'],
  ['at the very start', 'a\n', 'X\na\n', '@@ -0,0 +1 @@\n+X\n'],
  ['a line split in two around inserted lines', 'f {}\n', 'f {\n  r\n}\n', '@@ -1 +1,3 @@\n-f {}\n+f {\n+  r\n+}\n'],
  ['removed and changed lines', 'a\nb\nc\nd\n', 'a\nc\nD\n', '@@ -2 +1,0 @@\n-b\n@@ -4 +3 @@\n-d\n+D\n'],
  ['CRLF read as lines', 'a\r\nb\r\n', 'a\r\nX\r\nb\r\n', '@@ -1,0 +2 @@\n+X\n'],
];

for (const [what, before, after, want] of CASES) {
  test(`unifiedDiff: ${what}`, () => {
    assert.fixture(unifiedDiff(before, after), want);
  });
}

test.run();
