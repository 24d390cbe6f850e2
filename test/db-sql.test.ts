// Pure parts of the database layer: the SQL lexer, `?` binding, script splitting, dialect sections,
// migration checksums and statuses, and `loadQueries` with its cache (no database needed).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { dialectSection, splitSqlStatements } from '../cli/db/sql-split.js';
import { computeStatuses, migrationChecksum, type MigrationFile, type MigrationRecord } from '../cli/db/migrations.js';
import { CliError } from '../cli/errors.js';
import { bindParameters } from '../runtime/db/dialects/mariadb/binding.js';
import { placeholderPositions } from '../runtime/db/sql-lexer.js';
import { clearQueryCache, loadQueries, parseQueries, QueryFileError, QueryParameterError } from '../runtime/db/index.js';
import { configure, resetConfig } from '../runtime/config.js';

const Lexer = suite('db-sql: placeholders and binding');

Lexer('a ? inside a literal, an identifier or a comment is not a placeholder', () => {
  const sql = 'SELECT \'?\', "?", `a?`, ? -- why?\n/* ? */ FROM t WHERE a = ? # mariadb?';
  assert.is(placeholderPositions(sql, 'mariadb').length, 2);
  // SQLite: "…" is an identifier, # is not a comment, so the final ? counts.
  assert.is(placeholderPositions(sql, 'sqlite').length, 3);
});

Lexer('MariaDB binding escapes values and keeps literals', () => {
  assert.is(bindParameters("SELECT '?' AS q, ? AS v", [5]), "SELECT '?' AS q, 5 AS v");
  assert.is(bindParameters('SELECT ?, ?, ?', [null, 'O\'Brien \\ "x"', Buffer.from('ab')]), "SELECT NULL, 'O''Brien \\\\ \"x\"', X'6162'");
  assert.is(bindParameters('SELECT ??', [1, 2]), 'SELECT 12');
  assert.is(bindParameters("SELECT 'it''s ?' -- ?\n, ?", [1n]), "SELECT 'it''s ?' -- ?\n, 1");
  assert.is(bindParameters("SELECT 'a\\'?', ?", ['x']), "SELECT 'a\\'?', 'x'");
});

Lexer('MariaDB binding for a session with NO_BACKSLASH_ESCAPES: only quotes doubled; a backslash escapes nothing', () => {
  assert.is(bindParameters('SELECT ?, ?', ['O\'Brien \\ "x"', 'nul\0'], true), "SELECT 'O''Brien \\ \"x\"', 'nul\0'");
  assert.is(bindParameters("SELECT 'a\\', ?", ['x'], true), "SELECT 'a\\', 'x'");
});

Lexer('a placeholder count mismatch is refused', () => {
  assert.throws(
    () => bindParameters('SELECT ?', []),
    (error: unknown) => error instanceof QueryParameterError && /1 paramètre/.test((error as Error).message),
  );
  assert.throws(
    () => bindParameters('SELECT 1', [1]),
    (error: unknown) => error instanceof QueryParameterError,
  );
});

Lexer.run();

const Split = suite('db-sql: statements and dialect sections');

Split('splits on ; outside quotes, backticks, double quotes and comments; keeps the statement line', () => {
  const script = [
    '-- header; not a statement',
    "CREATE TABLE `a;b` (x VARCHAR(10) DEFAULT 'x;y');",
    '/* block; comment */ INSERT INTO t VALUES ("1;2");',
    '',
    '  ;  ',
    "INSERT INTO t VALUES ('last')",
  ].join('\n');
  const statements = splitSqlStatements(script, 'mariadb');
  assert.equal(
    statements.map((statement) => [statement.line, statement.text]),
    [
      [2, "CREATE TABLE `a;b` (x VARCHAR(10) DEFAULT 'x;y')"],
      [3, 'INSERT INTO t VALUES ("1;2")'],
      [6, "INSERT INTO t VALUES ('last')"],
    ],
  );
});

Split('a trigger or procedure body stays one statement', () => {
  const sqlite = 'CREATE TRIGGER tg AFTER INSERT ON t BEGIN UPDATE c SET n = n + 1; INSERT INTO l VALUES (1); END;\nSELECT 1;';
  assert.equal(
    splitSqlStatements(sqlite, 'sqlite').map((statement) => statement.text.slice(0, 14)),
    ['CREATE TRIGGER', 'SELECT 1'],
  );
  const maria = [
    'CREATE PROCEDURE p() BEGIN',
    '  IF 1 THEN SELECT CASE WHEN 1 THEN 2 END; END IF;',
    '  WHILE 0 DO SELECT 1; END WHILE;',
    'END;',
    'SELECT 2;',
  ].join('\n');
  assert.is(splitSqlStatements(maria, 'mariadb').length, 2);
});

Split('DELIMITER is refused with advice', () => {
  assert.throws(
    () => splitSqlStatements('DELIMITER //\nSELECT 1//', 'mariadb', 'x.sql'),
    (error: unknown) => error instanceof CliError && /DELIMITER/.test(error.message) && /x\.sql/.test(error.message),
  );
});

Split('dialect sections: text before any marker is for both; lines of other sections are blanked', () => {
  const text = 'A;\n-- fw:dialect mariadb\nM;\n-- fw:dialect sqlite\nS;\n-- fw:dialect all\nB;\n';
  assert.is(dialectSection(text, 'mariadb'), 'A;\n\nM;\n\n\n\nB;\n');
  assert.is(dialectSection(text, 'sqlite'), 'A;\n\n\n\nS;\n\nB;\n');
  assert.equal(
    splitSqlStatements(dialectSection(text, 'sqlite'), 'sqlite').map((s) => [s.line, s.text]),
    [
      [1, 'A'],
      [5, 'S'],
      [7, 'B'],
    ],
  );
  assert.throws(() => dialectSection('-- fw:dialect oracle\n', 'sqlite', 'm.sql'), /oracle/);
});

Split.run();

const Status = suite('db-sql: checksums and statuses');

Status('the checksum is SHA-256 hex of the file with CRLF turned into LF', () => {
  const lf = migrationChecksum('CREATE TABLE t (id INT);\nSELECT 1;\n');
  assert.match(lf, /^[0-9a-f]{64}$/);
  assert.is(migrationChecksum(Buffer.from('CREATE TABLE t (id INT);\r\nSELECT 1;\r\n')), lf);
  assert.is.not(migrationChecksum('CREATE TABLE t (id INT);\nSELECT 2;\n'), lf);
});

Status('statuses join files and rows on the version', () => {
  const file = (version: string, checksum: string): MigrationFile => ({
    version,
    name: 'n',
    filename: `${version}_n.sql`,
    path: '',
    text: '',
    checksum,
  });
  const row = (version: string, checksum: string): MigrationRecord => ({
    version,
    name: 'n',
    filename: `${version}_n.sql`,
    checksum,
    appliedAt: '2024-01-01 00:00:00',
    executionMs: 1,
  });
  const statuses = computeStatuses(
    [file('20240103000000', 'c'), file('20240101000000', 'a'), file('20240102000000', 'b2')],
    [row('20240101000000', 'a'), row('20240102000000', 'b'), row('20231231000000', 'z')],
  );
  assert.equal(
    statuses.map((status) => [status.status, status.version]),
    [
      ['MISSING', '20231231000000'],
      ['APPLIED', '20240101000000'],
      ['CHANGED', '20240102000000'],
      ['PENDING', '20240103000000'],
    ],
  );
});

Status.run();

const Queries = suite('db-sql: loadQueries');
let root = '';

Queries.before.each(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fw-queries-')));
  fs.mkdirSync(path.join(root, 'mvc', 'models', 'sql', 'dev'), { recursive: true });
  configure({ project_root: root });
  clearQueryCache();
});

Queries.after.each(() => {
  resetConfig();
  fs.rmSync(root, { recursive: true, force: true });
});

function writeQueries(text: string, mtime?: Date): string {
  const file = path.join(root, 'mvc', 'models', 'sql', 'dev', 'contacts.sql');
  fs.writeFileSync(file, text);
  if (mtime) fs.utimesSync(file, mtime, mtime);
  return file;
}

Queries('parses -- name: blocks, trims them and drops the trailing ;', () => {
  writeQueries('-- Contacts\n\n-- name: findAll\nSELECT *\n  FROM contacts;\n\n-- name: byId\r\nSELECT * FROM contacts WHERE id = ?  ;  \r\n');
  const queries = loadQueries('contacts.sql');
  assert.equal({ ...queries }, { findAll: 'SELECT *\n  FROM contacts', byId: 'SELECT * FROM contacts WHERE id = ?' });
  assert.ok(Object.isFrozen(queries));
});

Queries('cached until the size or the mtime (ns) changes', () => {
  const first = new Date('2024-01-01T00:00:00Z');
  const file = writeQueries('-- name: q\nSELECT 1\n', first);
  const a = loadQueries('contacts.sql');
  assert.is(loadQueries('contacts.sql'), a, 'same object from the cache');

  // Same size, same mtime: still cached (proves the cache is used, not re-read).
  fs.writeFileSync(file, '-- name: q\nSELECT 2\n');
  fs.utimesSync(file, first, first);
  assert.is(loadQueries('contacts.sql').q, 'SELECT 1');

  // Same size, other mtime: re-read.
  const second = new Date('2024-01-01T00:00:01.5Z');
  fs.utimesSync(file, second, second);
  assert.is(loadQueries('contacts.sql').q, 'SELECT 2');

  // Other size, mtime forced back: re-read.
  fs.writeFileSync(file, '-- name: q\nSELECT 333\n');
  fs.utimesSync(file, second, second);
  assert.is(loadQueries('contacts.sql').q, 'SELECT 333');
});

Queries('the cache is keyed by absolute path: two projects do not share it', () => {
  writeQueries('-- name: q\nSELECT 1\n', new Date('2024-01-01T00:00:00Z'));
  assert.is(loadQueries('contacts.sql').q, 'SELECT 1');
  const other = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fw-queries-')));
  try {
    fs.mkdirSync(path.join(other, 'mvc', 'models', 'sql', 'dev'), { recursive: true });
    const file = path.join(other, 'mvc', 'models', 'sql', 'dev', 'contacts.sql');
    fs.writeFileSync(file, '-- name: q\nSELECT 2\n');
    fs.utimesSync(file, new Date('2024-01-01T00:00:00Z'), new Date('2024-01-01T00:00:00Z'));
    configure({ project_root: other });
    assert.is(loadQueries('contacts.sql').q, 'SELECT 2');
  } finally {
    fs.rmSync(other, { recursive: true, force: true });
  }
});

Queries('reads {sql_dir}/{app_env}/', () => {
  fs.mkdirSync(path.join(root, 'mvc', 'models', 'sql', 'prod'), { recursive: true });
  fs.writeFileSync(path.join(root, 'mvc', 'models', 'sql', 'prod', 'contacts.sql'), '-- name: q\nSELECT 42\n');
  configure({ app_env: 'prod' });
  assert.is(loadQueries('contacts.sql').q, 'SELECT 42');
});

Queries('a missing file, a duplicate name, an escaping path: errors naming the file', () => {
  assert.throws(
    () => loadQueries('absent.sql'),
    (error: unknown) => error instanceof QueryFileError && /introuvable/.test(error.message) && /absent\.sql/.test(error.message),
  );
  writeQueries('-- name: q\nSELECT 1;\n-- name: q\nSELECT 2;\n');
  assert.throws(
    () => loadQueries('contacts.sql'),
    (error: unknown) => error instanceof QueryFileError && /contacts\.sql:3/.test(error.message) && /deux fois/.test(error.message),
  );
  assert.throws(
    () => loadQueries('../../../x.sql'),
    (error: unknown) => error instanceof QueryFileError,
  );
  assert.throws(() => parseQueries('SELECT 1;\n-- name: q\nSELECT 2', 'f.sql'), /précède/);
  assert.throws(() => parseQueries('-- name: q\n\n-- name: r\nSELECT 1', 'f.sql'), /vide/);
});

Queries.run();
