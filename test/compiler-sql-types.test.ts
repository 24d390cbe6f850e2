/** SQL type normalisation (docs/decisions.md#migrations: INT(11) = INT, BOOLEAN = TINYINT(1)) and reserved words. */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  analyseSqlType,
  isFilterCapable,
  isReservedWord,
  isTextual,
  logicalTypeOf,
  parseSqlType,
  sameSqlType,
  type LogicalType,
  type SqlTypeNode,
} from '../compiler/index.js';

const must = (text: string): SqlTypeNode => {
  const t = parseSqlType(text);
  if (!t) throw new Error(`parseSqlType(${JSON.stringify(text)}) returned null`);
  return t;
};

const Parse = suite('compiler-sql-types: parseSqlType');

// [written, base, args, unsigned, canonical text]
const accepted: Array<[string, string, number[], boolean, string]> = [
  // entity files
  ['INT', 'INT', [], false, 'INT'],
  ['INT(11)', 'INT', [], false, 'INT'],
  ['INTEGER', 'INT', [], false, 'INT'],
  ['int unsigned', 'INT', [], true, 'INT UNSIGNED'],
  ['INT(10) UNSIGNED ZEROFILL', 'INT', [], true, 'INT UNSIGNED'],
  ['BIGINT', 'BIGINT', [], false, 'BIGINT'],
  ['SMALLINT', 'SMALLINT', [], false, 'SMALLINT'],
  ['MEDIUMINT(9)', 'MEDIUMINT', [], false, 'MEDIUMINT'],
  ['TINYINT', 'TINYINT', [], false, 'TINYINT'],
  ['BOOLEAN', 'TINYINT', [1], false, 'TINYINT(1)'],
  ['bool', 'TINYINT', [1], false, 'TINYINT(1)'],
  ['DECIMAL(10,2)', 'DECIMAL', [10, 2], false, 'DECIMAL(10,2)'],
  ['NUMERIC(10, 2)', 'DECIMAL', [10, 2], false, 'DECIMAL(10,2)'],
  ['DECIMAL', 'DECIMAL', [10, 0], false, 'DECIMAL(10,0)'],
  ['DECIMAL(8)', 'DECIMAL', [8, 0], false, 'DECIMAL(8,0)'],
  ['FLOAT', 'FLOAT', [], false, 'FLOAT'],
  ['DOUBLE', 'DOUBLE', [], false, 'DOUBLE'],
  ['CHAR(2)', 'CHAR', [2], false, 'CHAR(2)'],
  ['VARCHAR(100)', 'VARCHAR', [100], false, 'VARCHAR(100)'],
  ['  varchar( 100 )  ', 'VARCHAR', [100], false, 'VARCHAR(100)'],
  ['VARCHAR(65535)', 'VARCHAR', [65535], false, 'VARCHAR(65535)'],
  ['TEXT', 'TEXT', [], false, 'TEXT'],
  ['TINYTEXT', 'TINYTEXT', [], false, 'TINYTEXT'],
  ['MEDIUMTEXT', 'MEDIUMTEXT', [], false, 'MEDIUMTEXT'],
  ['LONGTEXT', 'LONGTEXT', [], false, 'LONGTEXT'],
  ['DATE', 'DATE', [], false, 'DATE'],
  ['DATETIME', 'DATETIME', [], false, 'DATETIME'],
  ['TIMESTAMP', 'TIMESTAMP', [], false, 'TIMESTAMP'],
  ['TIME', 'TIME', [], false, 'TIME'],
  ['YEAR', 'YEAR', [], false, 'YEAR'],
  ['BLOB', 'BLOB', [], false, 'BLOB'],
  ['JSON', 'JSON', [], false, 'JSON'],
  // information_schema.COLUMNS.COLUMN_TYPE (MariaDB, MySQL 5.7 / 8)
  ['int(11)', 'INT', [], false, 'INT'],
  ['int', 'INT', [], false, 'INT'],
  ['tinyint(1)', 'TINYINT', [1], false, 'TINYINT(1)'],
  ['tinyint(4)', 'TINYINT', [], false, 'TINYINT'],
  ['varchar(100)', 'VARCHAR', [100], false, 'VARCHAR(100)'],
  ['decimal(10,2)', 'DECIMAL', [10, 2], false, 'DECIMAL(10,2)'],
  ['bigint(20) unsigned', 'BIGINT', [], true, 'BIGINT UNSIGNED'],
  ['int(10) unsigned', 'INT', [], true, 'INT UNSIGNED'],
  ['smallint(6)', 'SMALLINT', [], false, 'SMALLINT'],
  ['char(5)', 'CHAR', [5], false, 'CHAR(5)'],
  ['year(4)', 'YEAR', [], false, 'YEAR'],
  ['datetime(6)', 'DATETIME', [6], false, 'DATETIME(6)'],
  ['timestamp(0)', 'TIMESTAMP', [], false, 'TIMESTAMP'],
  ['double', 'DOUBLE', [], false, 'DOUBLE'],
  ['float(7,4)', 'FLOAT', [7, 4], false, 'FLOAT(7,4)'],
  ['longtext', 'LONGTEXT', [], false, 'LONGTEXT'],
  ['mediumblob', 'MEDIUMBLOB', [], false, 'MEDIUMBLOB'],
  // SQLite declared types
  ['INTEGER', 'INT', [], false, 'INT'],
  ['REAL', 'DOUBLE', [], false, 'DOUBLE'],
  ['DOUBLE PRECISION', 'DOUBLE', [], false, 'DOUBLE'],
  ['NUMERIC', 'DECIMAL', [10, 0], false, 'DECIMAL(10,0)'],
  ['BOOLEAN', 'TINYINT', [1], false, 'TINYINT(1)'],
];

for (const [written, base, args, unsigned, text] of accepted) {
  Parse(`${JSON.stringify(written)} → ${text}`, () => {
    const t = must(written);
    assert.equal({ kind: t.kind, base: t.base, args: [...t.args], unsigned: t.unsigned, text: t.text }, { kind: 'sql_type', base, args, unsigned, text });
    assert.ok(Object.isFrozen(t) && Object.isFrozen(t.args), 'the node is frozen');
    // The canonical text reads back to the same type.
    assert.ok(sameSqlType(must(t.text), t), `canonical ${t.text} is stable`);
  });
}

// [written, substring of the reason]
const refused: Array<[string, string]> = [
  ['', 'type SQL vide'],
  ['   ', 'type SQL vide'],
  ['STRING', 'type SQL inconnu « STRING »'],
  ['VARCHAR2(10)', 'type SQL inconnu'],
  ['ENUM(1,2)', 'type SQL inconnu'],
  ['VARCHAR', 'VARCHAR exige une longueur'],
  ['CHAR', 'CHAR exige une longueur'],
  ['VARCHAR(0)', 'de 1 à 65535'],
  ['VARCHAR(70000)', 'de 1 à 65535'],
  ['CHAR(256)', 'de 1 à 255'],
  ['VARCHAR(abc)', 'arguments illisibles'],
  ['VARCHAR(10', 'illisible'],
  ['TEXT(100)', "TEXT s'écrit sans argument"],
  ['VARCHAR(10) UNSIGNED', 'UNSIGNED'],
  ['DECIMAL(70,2)', 'de 1 à 65'],
  ['DECIMAL(5,6)', 'échelle'],
  ['INT(4,2)', "largeur d'affichage"],
  ['BOOLEAN(1)', 'sans argument'],
  ['DATETIME(7)', 'de 0 à 6'],
  ['YEAR(2)', 'YEAR'],
  ['INT SIGNED UNSIGNEDX', 'illisible'],
];

for (const [written, reason] of refused) {
  Parse(`${JSON.stringify(written)} refused`, () => {
    assert.is(parseSqlType(written), null);
    const analysis = analyseSqlType(written);
    assert.is(analysis.ok, false);
    if (!analysis.ok) assert.ok(analysis.error.includes(reason), `${analysis.error} ⊇ ${reason}`);
  });
}

Parse.run();

const Compare = suite('compiler-sql-types: sameSqlType, categories, logical types');

Compare('compatibility after normalisation', () => {
  const same: Array<[string, string]> = [
    ['INT(11)', 'INT'],
    ['INTEGER', 'int(11)'],
    ['BOOLEAN', 'TINYINT(1)'],
    ['bool', 'tinyint(1)'],
    ['NUMERIC(10,2)', 'decimal(10,2)'],
    ['bigint(20) unsigned', 'BIGINT UNSIGNED'],
    ['VARCHAR(100)', 'varchar(100)'],
  ];
  for (const [a, b] of same) assert.ok(sameSqlType(must(a), must(b)), `${a} = ${b}`);
  const different: Array<[string, string]> = [
    ['INT', 'BIGINT'],
    ['INT', 'INT UNSIGNED'],
    ['TINYINT', 'TINYINT(1)'],
    ['VARCHAR(100)', 'VARCHAR(255)'],
    ['DECIMAL(10,2)', 'DECIMAL(10,3)'],
    ['DATETIME', 'TIMESTAMP'],
    ['CHAR(5)', 'VARCHAR(5)'],
  ];
  for (const [a, b] of different) assert.not.ok(sameSqlType(must(a), must(b)), `${a} ≠ ${b}`);
});

Compare('textual and filter-capable types (docs/crud.md "The list page")', () => {
  for (const t of ['VARCHAR(10)', 'CHAR(2)', 'TEXT', 'TINYTEXT', 'MEDIUMTEXT', 'LONGTEXT']) assert.ok(isTextual(must(t)), t);
  for (const t of ['INT', 'DATE', 'JSON', 'BLOB', 'DECIMAL(10,2)']) assert.not.ok(isTextual(must(t)), t);
  for (const t of ['VARCHAR(10)', 'CHAR(2)', 'INT', 'BIGINT', 'SMALLINT', 'TINYINT', 'MEDIUMINT', 'BOOL', 'BOOLEAN', 'INT UNSIGNED']) {
    assert.ok(isFilterCapable(must(t)), t);
  }
  for (const t of ['TEXT', 'DATE', 'DATETIME', 'TIMESTAMP', 'DECIMAL(10,2)', 'FLOAT', 'DOUBLE', 'TIME', 'JSON', 'BLOB', 'YEAR']) {
    assert.not.ok(isFilterCapable(must(t)), t);
  }
});

Compare('logical type deduced from the SQL type', () => {
  const cases: Array<[string, LogicalType]> = [
    ['INT', 'int'],
    ['BIGINT UNSIGNED', 'int'],
    ['TINYINT', 'int'],
    ['BOOLEAN', 'bool'],
    ['DECIMAL(10,2)', 'decimal'],
    ['FLOAT', 'float'],
    ['DOUBLE', 'float'],
    ['VARCHAR(10)', 'str'],
    ['TEXT', 'str'],
    ['JSON', 'str'],
    ['DATE', 'date'],
    ['DATETIME', 'datetime'],
    ['TIMESTAMP', 'datetime'],
    ['TIME', 'time'],
    ['YEAR', 'int'],
    ['BLOB', 'bytes'],
  ];
  for (const [t, logical] of cases) assert.is(logicalTypeOf(must(t)), logical, t);
});

Compare("reserved words: MariaDB's and MySQL 8.0's, compared case-insensitively", () => {
  for (const word of ['order', 'Order', 'GROUP', 'select', 'table', 'key', 'index', 'desc', 'interval', 'range', 'rows', 'current_user', 'system', 'Rank']) {
    assert.ok(isReservedWord(word), word);
  }
  for (const word of ['contact', 'nom', 'date', 'text', 'time', 'timestamp', 'action', 'status', 'name', 'ville_id', 'position', 'User']) {
    assert.not.ok(isReservedWord(word), word);
  }
});

Compare.run();
