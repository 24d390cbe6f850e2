// Environment files (docs/runtime.md "Environment files"): the dotenv format, and loadEnv letting the process win.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import util from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { EnvSyntaxError, loadEnv, parseEnv } from '../runtime/env.js';

test('quotes: single, double and backquotes keep blanks and #, and may hold the other quotes', () => {
  const parsed = parseEnv([`SINGLE='  a # b  '`, `DOUBLE="x = 'y' # z"`, 'BACK=`say "hi" and \'bye\'`', `EMPTY_QUOTED=""`, `SPACED  =   "v"  `].join('\n'));
  assert.equal(parsed, { SINGLE: '  a # b  ', DOUBLE: "x = 'y' # z", BACK: `say "hi" and 'bye'`, EMPTY_QUOTED: '', SPACED: 'v' });
});

test('escapes: \\n, \\r, \\t, \\" and \\\\ in double quotes only; other backslashes stay', () => {
  const parsed = parseEnv(
    [
      String.raw`NL="a\nb"`,
      String.raw`CRTAB="c\rd\te"`,
      String.raw`QUOTE="say \"hi\""`,
      String.raw`WIN="C:\\dir\\new"`,
      String.raw`OTHER="\d\w"`,
      String.raw`LITERAL='a\nb \"'`,
      String.raw`UNQUOTED=a\nb`,
    ].join('\n'),
  );
  assert.equal(parsed, {
    NL: 'a\nb',
    CRTAB: 'c\rd\te',
    QUOTE: 'say "hi"',
    WIN: 'C:\\dir\\new',
    OTHER: '\\d\\w',
    LITERAL: 'a\\nb \\"',
    UNQUOTED: 'a\\nb',
  });
});

test('comments: whole lines, and inline after a blank; a # inside a word is kept', () => {
  const parsed = parseEnv(
    [
      '# a comment line',
      '   # an indented one',
      'A=value # inline',
      'B=value\t# after a tab',
      'PASSWORD=abc#def',
      'URL=http://127.0.0.1/page#part',
      'ONLY_COMMENT= # nothing',
      'QUOTED="v" # after quotes',
      'EMPTY=',
    ].join('\n'),
  );
  assert.equal(parsed, {
    A: 'value',
    B: 'value',
    PASSWORD: 'abc#def',
    URL: 'http://127.0.0.1/page#part',
    ONLY_COMMENT: '',
    QUOTED: 'v',
    EMPTY: '',
  });
});

test('multi-line values in double and single quotes, and the lines after them', () => {
  const text = ['KEY="-----BEGIN-----', 'abc', '-----END-----"', "NOTE='one", "two'", 'AFTER=1'].join('\n');
  assert.equal(parseEnv(text), { KEY: '-----BEGIN-----\nabc\n-----END-----', NOTE: 'one\ntwo', AFTER: '1' });
});

test('export prefix, CRLF line ends, a byte-order mark, lines without =, and the last of two equal keys', () => {
  const text = '\uFEFFexport A=1\r\n  export   B="two"\r\nNOT A SETTING\r\nC=3\r\nA=last\r\nexport=plain\r\n';
  assert.equal(parseEnv(text), { A: 'last', B: 'two', C: '3', export: 'plain' });
});

test('an unclosed quote or text after a closing quote is an error naming the file and the line', () => {
  const unclosed = () => parseEnv('A=1\nB="x\\ny\nC=2', 'env/dev');
  assert.throws(
    unclosed,
    (error: unknown) => error instanceof EnvSyntaxError && error.line === 2 && error.message === 'env/dev, ligne 2 : guillemet fermant " manquant.',
  );
  assert.throws(() => parseEnv("A='x", 'env/prod'), /^env\/prod, ligne 1 : guillemet fermant ' manquant\.$/);
  // The line is counted after a multi-line value.
  const trailing = () => parseEnv('M="a\nb"\nT="v" extra', 'env/dev');
  assert.throws(trailing, /^env\/dev, ligne 3 : texte inattendu après la valeur entre guillemets de T : « extra »\.$/);
});

test("where Node's util.parseEnv gives the dotenv reading, so does parseEnv", () => {
  const text = [
    '# comment',
    'PLAIN=hello world',
    'INLINE=value # comment',
    'HASH_IN_QUOTES="a # b"',
    "SINGLE='x y'",
    'DOUBLE="line1\\nline2"',
    'BACK=`b`',
    'export EXPORTED=yes',
    '  SPACED  =  trimmed  ',
    'EMPTY=',
    'MULTI="first',
    'second"',
    'DUP=1',
    'DUP=2',
  ].join('\n');
  const expected = {
    PLAIN: 'hello world',
    INLINE: 'value',
    HASH_IN_QUOTES: 'a # b',
    SINGLE: 'x y',
    DOUBLE: 'line1\nline2',
    BACK: 'b',
    EXPORTED: 'yes',
    SPACED: 'trimmed',
    EMPTY: '',
    MULTI: 'first\nsecond',
    DUP: '2',
  };
  assert.equal(parseEnv(text), expected);
  assert.equal({ ...util.parseEnv(text) }, expected);
});

test('loadEnv reads env/<APP_ENV> (dev by default); variables already in the process win', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-env-'));
  const saved = process.env.APP_ENV;
  const keys = ['FW_ENV_TEST_FROM_FILE', 'FW_ENV_TEST_SET', 'FW_ENV_TEST_EMPTY_SET', 'FW_ENV_TEST_PROD'];
  try {
    fs.mkdirSync(path.join(root, 'env'));
    fs.writeFileSync(path.join(root, 'env', 'dev'), 'FW_ENV_TEST_FROM_FILE="from file" # comment\nFW_ENV_TEST_SET=file\nFW_ENV_TEST_EMPTY_SET=file\n');
    fs.writeFileSync(path.join(root, 'env', 'prod'), "FW_ENV_TEST_PROD='prod'\n");
    fs.writeFileSync(path.join(root, 'env', 'broken'), 'OK=1\nBAD="open\n');
    delete process.env.APP_ENV;
    process.env.FW_ENV_TEST_SET = 'process';
    process.env.FW_ENV_TEST_EMPTY_SET = '';

    const values = loadEnv(root);
    assert.equal(values, { FW_ENV_TEST_FROM_FILE: 'from file', FW_ENV_TEST_SET: 'file', FW_ENV_TEST_EMPTY_SET: 'file' });
    assert.is(process.env.FW_ENV_TEST_FROM_FILE, 'from file');
    assert.is(process.env.FW_ENV_TEST_SET, 'process');
    assert.is(process.env.FW_ENV_TEST_EMPTY_SET, '', 'a variable set to the empty string is still set');

    process.env.APP_ENV = 'prod';
    assert.equal(loadEnv(root), { FW_ENV_TEST_PROD: 'prod' });
    assert.is(process.env.FW_ENV_TEST_PROD, 'prod');

    process.env.APP_ENV = 'absent';
    assert.equal(loadEnv(root), {});

    process.env.APP_ENV = 'broken';
    assert.throws(() => loadEnv(root), /^env\/broken, ligne 2 : guillemet fermant " manquant\.$/);
    assert.is(process.env.OK, undefined, 'nothing is loaded from a file with an error');
  } finally {
    if (saved === undefined) delete process.env.APP_ENV;
    else process.env.APP_ENV = saved;
    for (const key of keys) delete process.env[key];
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test.run();
