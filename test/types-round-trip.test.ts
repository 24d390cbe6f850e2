// Every sql_type the compiler accepts, through every layer, on both databases (docs/decisions.md#sql-types-round-trip,
// docs/entities.md "Types"): a posted form value -> the field class the CRUD emitter uses for the type (cleaned
// value) -> the generated base class (validate, toRow) -> INSERT into the table the SQL emitter declares, applied
// for real on SQLite and MariaDB -> SELECT -> fromRow -> the same canonical value on both dialects -> the value
// shown back by the edit form and the CSV cell.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import ts from 'typescript';
import { splitSqlStatements } from '../cli/db/sql-split.js';
import { fieldNode, modelNode, type FieldNode } from '../compiler/ir.js';
import { KNOWN_SQL_TYPES, analyseSqlType, logicalTypeOf } from '../compiler/sql-types.js';
import { emitBaseClass, emitTableSql } from '../emitters/index.js';
import { csvCell } from '../runtime/crud/csv.js';
import { openDatabase, type Database, type DialectName } from '../runtime/db/index.js';
import {
  BooleanField,
  DateField,
  DateTimeField,
  DecimalField,
  FloatField,
  Form,
  IntegerField,
  StringField,
  TextAreaField,
  TimeField,
  type Field,
  type FieldMap,
} from '../runtime/forms/index.js';
import { entity, idField, pascal } from './emitters-fixture.js';
import { MARIADB_ADMIN } from './helpers/cli.js';
import { DIALECTS } from './helpers/dialects.js';

interface Case {
  /** The field name (one field per case). */
  readonly name: string;
  /** As written in an entity file. */
  readonly sql: string;
  readonly nullable?: boolean;
  /** The form field the CRUD emitter declares for this type; null: not in forms (BLOB). */
  readonly field: Field | null;
  /** The posted value (undefined: absent, an unchecked box). */
  readonly input?: string;
  /** What the form cleans it to. */
  readonly cleaned: unknown;
  /** What fromRow gives back, the same on both dialects (default: `cleaned`). */
  readonly stored?: unknown;
  /** The edit form's value for the stored value. */
  readonly display: string;
  /** The CSV cell of the stored value (without its quotes). */
  readonly csv: string;
}

const opt = { required: false } as const;

const CASES: readonly Case[] = [
  {
    name: 'n_int',
    sql: 'INT',
    field: new IntegerField({ min: -2147483648, max: 2147483647 }),
    input: '-2147483648',
    cleaned: -2147483648,
    display: '-2147483648',
    csv: '-2147483648',
  },
  {
    name: 'n_integer',
    sql: 'INTEGER',
    field: new IntegerField({ min: -2147483648, max: 2147483647 }),
    input: '2147483647',
    cleaned: 2147483647,
    display: '2147483647',
    csv: '2147483647',
  },
  {
    name: 'n_int_unsigned',
    sql: 'INT UNSIGNED',
    field: new IntegerField({ min: 0, max: 4294967295 }),
    input: '4294967295',
    cleaned: 4294967295,
    display: '4294967295',
    csv: '4294967295',
  },
  {
    name: 'n_bigint_max',
    sql: 'BIGINT',
    field: new IntegerField(),
    input: '9007199254740991',
    cleaned: 9007199254740991,
    display: '9007199254740991',
    csv: '9007199254740991',
  },
  {
    name: 'n_bigint_min',
    sql: 'BIGINT',
    field: new IntegerField(),
    input: '-9007199254740991',
    cleaned: -9007199254740991,
    display: '-9007199254740991',
    csv: '-9007199254740991',
  },
  { name: 'n_bigint_unsigned', sql: 'BIGINT UNSIGNED', field: new IntegerField({ min: 0 }), input: '+42', cleaned: 42, display: '42', csv: '42' },
  {
    name: 'n_smallint',
    sql: 'SMALLINT',
    field: new IntegerField({ min: -32768, max: 32767 }),
    input: '-32768',
    cleaned: -32768,
    display: '-32768',
    csv: '-32768',
  },
  { name: 'n_tinyint', sql: 'TINYINT', field: new IntegerField({ min: -128, max: 127 }), input: '-128', cleaned: -128, display: '-128', csv: '-128' },
  {
    name: 'n_tinyint_unsigned',
    sql: 'TINYINT UNSIGNED',
    field: new IntegerField({ min: 0, max: 255 }),
    input: '255',
    cleaned: 255,
    display: '255',
    csv: '255',
  },
  {
    name: 'n_mediumint',
    sql: 'MEDIUMINT',
    field: new IntegerField({ min: -8388608, max: 8388607 }),
    input: '8388607',
    cleaned: 8388607,
    display: '8388607',
    csv: '8388607',
  },
  { name: 'n_year', sql: 'YEAR', field: new IntegerField({ min: 1901, max: 2155 }), input: '2024', cleaned: 2024, display: '2024', csv: '2024' },
  { name: 'b_bool', sql: 'BOOL', field: new BooleanField(), input: 'on', cleaned: true, display: '1', csv: '1' },
  { name: 'b_boolean', sql: 'BOOLEAN', field: new BooleanField(), cleaned: false, display: '', csv: '0' },
  { name: 'b_tinyint1', sql: 'TINYINT(1)', field: new BooleanField(), input: '1', cleaned: true, display: '1', csv: '1' },
  {
    name: 'd_decimal',
    sql: 'DECIMAL(10,2)',
    field: new DecimalField({ maxDigits: 10, decimalPlaces: 2 }),
    input: '3',
    cleaned: '3.00',
    display: '3.00',
    csv: '3.00',
  },
  {
    name: 'd_decimal_comma',
    sql: 'DECIMAL(10,2)',
    field: new DecimalField({ maxDigits: 10, decimalPlaces: 2 }),
    input: '1234,5',
    cleaned: '1234.50',
    display: '1234.50',
    csv: '1234.50',
  },
  {
    name: 'd_decimal_cents',
    sql: 'DECIMAL(10,2)',
    field: new DecimalField({ maxDigits: 10, decimalPlaces: 2 }),
    input: '0.10',
    cleaned: '0.10',
    display: '0.10',
    csv: '0.10',
  },
  {
    name: 'd_numeric',
    sql: 'NUMERIC(12,4)',
    field: new DecimalField({ maxDigits: 12, decimalPlaces: 4 }),
    input: '-0,0001',
    cleaned: '-0.0001',
    display: '-0.0001',
    csv: '-0.0001',
  },
  {
    name: 'd_decimal_wide',
    sql: 'DECIMAL(65,30)',
    field: new DecimalField({ maxDigits: 65, decimalPlaces: 30 }),
    input: '12345678901234567890123456789012345.123456789012345678901234567891',
    cleaned: '12345678901234567890123456789012345.123456789012345678901234567891',
    display: '12345678901234567890123456789012345.123456789012345678901234567891',
    csv: '12345678901234567890123456789012345.123456789012345678901234567891',
  },
  {
    name: 'd_decimal_unsigned',
    sql: 'DECIMAL(5,0) UNSIGNED',
    field: new DecimalField({ maxDigits: 5, decimalPlaces: 0, min: '0' }),
    input: '42',
    cleaned: '42',
    display: '42',
    csv: '42',
  },
  {
    name: 'd_decimal_default',
    sql: 'DECIMAL',
    field: new DecimalField({ maxDigits: 10, decimalPlaces: 0 }),
    input: '7.000',
    cleaned: '7',
    display: '7',
    csv: '7',
  },
  { name: 'f_float', sql: 'FLOAT', field: new FloatField(), input: '0.25', cleaned: 0.25, display: '0.25', csv: '0.25' },
  { name: 'f_double', sql: 'DOUBLE', field: new FloatField(), input: '0,25', cleaned: 0.25, display: '0.25', csv: '0.25' },
  { name: 'f_double_exp', sql: 'DOUBLE', field: new FloatField(), input: '-1e3', cleaned: -1000, display: '-1000', csv: '-1000' },
  { name: 'f_real', sql: 'REAL', field: new FloatField(), input: '1.5e-7', cleaned: 1.5e-7, display: '1.5e-7', csv: '1.5e-7' },
  {
    name: 'f_double_precision',
    sql: 'DOUBLE PRECISION',
    field: new FloatField(),
    input: '123456789.123456',
    cleaned: 123456789.123456,
    display: '123456789.123456',
    csv: '123456789.123456',
  },
  { name: 'f_float_53', sql: 'FLOAT(53)', field: new FloatField(), input: '0.1', cleaned: 0.1, display: '0.1', csv: '0.1' },
  {
    name: 'f_double_md',
    sql: 'DOUBLE(10,2)',
    field: new FloatField({ maxDigits: 10, decimalPlaces: 2 }),
    input: '12.5',
    cleaned: 12.5,
    display: '12.5',
    csv: '12.5',
  },
  { name: 'f_double_unsigned', sql: 'DOUBLE UNSIGNED', field: new FloatField({ min: 0 }), input: '2.5', cleaned: 2.5, display: '2.5', csv: '2.5' },
  { name: 's_char', sql: 'CHAR(5)', field: new StringField({ maxLength: 5 }), input: ' AB12 ', cleaned: 'AB12', display: 'AB12', csv: 'AB12' },
  {
    name: 's_varchar',
    sql: 'VARCHAR(100)',
    field: new StringField({ maxLength: 100 }),
    input: ' Écrou « inox » ',
    cleaned: 'Écrou « inox »',
    display: 'Écrou « inox »',
    csv: 'Écrou « inox »',
  },
  { name: 's_varchar_formula', sql: 'VARCHAR(20)', field: new StringField({ maxLength: 20 }), input: '=1+2', cleaned: '=1+2', display: '=1+2', csv: "'=1+2" },
  { name: 's_varchar_digits', sql: 'VARCHAR(10)', field: new StringField({ maxLength: 10 }), input: '007', cleaned: '007', display: '007', csv: '007' },
  {
    name: 't_text',
    sql: 'TEXT',
    field: new TextAreaField(),
    input: 'ligne 1\r\nligne "2"',
    cleaned: 'ligne 1\nligne "2"',
    display: 'ligne 1\nligne "2"',
    csv: 'ligne 1\nligne ""2""',
  },
  { name: 't_tinytext', sql: 'TINYTEXT', field: new TextAreaField(), input: 'court', cleaned: 'court', display: 'court', csv: 'court' },
  { name: 't_mediumtext', sql: 'MEDIUMTEXT', field: new TextAreaField(), input: '😀 moyen', cleaned: '😀 moyen', display: '😀 moyen', csv: '😀 moyen' },
  { name: 't_longtext', sql: 'LONGTEXT', field: new TextAreaField(), input: 'long', cleaned: 'long', display: 'long', csv: 'long' },
  {
    name: 'j_json',
    sql: 'JSON',
    field: new StringField(),
    input: '{"a": [1, 2.50]}',
    cleaned: '{"a": [1, 2.50]}',
    display: '{"a": [1, 2.50]}',
    csv: '{""a"": [1, 2.50]}',
  },
  { name: 'dt_date', sql: 'DATE', field: new DateField(), input: '2024-02-29', cleaned: '2024-02-29', display: '2024-02-29', csv: '2024-02-29' },
  {
    name: 'dt_datetime',
    sql: 'DATETIME',
    field: new DateTimeField(),
    input: '2024-02-29T08:05',
    // Typed in the application's zone (Europe/Paris, +1 in February), stored in UTC, shown back in the zone.
    cleaned: '2024-02-29 07:05:00',
    display: '2024-02-29T08:05:00',
    csv: '2024-02-29 07:05:00',
  },
  {
    name: 'dt_timestamp',
    sql: 'TIMESTAMP',
    field: new DateTimeField(),
    input: '2024-02-29T23:59:59',
    cleaned: '2024-02-29 22:59:59',
    display: '2024-02-29T23:59:59',
    csv: '2024-02-29 22:59:59',
  },
  { name: 'dt_time', sql: 'TIME', field: new TimeField(), input: '07:30', cleaned: '07:30:00', display: '07:30:00', csv: '07:30:00' },
  // Fractional seconds are read at the declared precision on both dialects (MariaDB pads them, SQLite keeps the text).
  {
    name: 'dt_datetime3',
    sql: 'DATETIME(3)',
    field: new DateTimeField(),
    input: '2024-02-29T08:05:01',
    cleaned: '2024-02-29 07:05:01',
    stored: '2024-02-29 07:05:01.000',
    display: '2024-02-29T08:05:01',
    csv: '2024-02-29 07:05:01.000',
  },
  {
    name: 'dt_timestamp6',
    sql: 'TIMESTAMP(6)',
    field: new DateTimeField(),
    input: '2024-02-29T08:05:01',
    cleaned: '2024-02-29 07:05:01',
    stored: '2024-02-29 07:05:01.000000',
    display: '2024-02-29T08:05:01',
    csv: '2024-02-29 07:05:01.000000',
  },
  {
    name: 'dt_time3',
    sql: 'TIME(3)',
    field: new TimeField(),
    input: '07:30',
    cleaned: '07:30:00',
    stored: '07:30:00.000',
    display: '07:30:00',
    csv: '07:30:00.000',
  },
  { name: 'f_float_tenth', sql: 'FLOAT', field: new FloatField(), input: '0.1', cleaned: 0.1, display: '0.1', csv: '0.1' },
  {
    name: 'f_float_md',
    sql: 'FLOAT(7,3)',
    field: new FloatField({ maxDigits: 7, decimalPlaces: 3 }),
    input: '-2.5e-2',
    cleaned: -0.025,
    display: '-0.025',
    csv: '-0.025',
  },
  { name: 'x_blob', sql: 'BLOB', field: null, cleaned: new Uint8Array([0, 1, 255]), display: '', csv: '' },
  { name: 'x_longblob', sql: 'LONGBLOB', field: null, cleaned: new Uint8Array([10, 13, 0]), display: '', csv: '' },
  // Empty optional fields: null on every layer.
  { name: 'o_int', sql: 'INT', nullable: true, field: new IntegerField(opt), input: '', cleaned: null, display: '', csv: '' },
  {
    name: 'o_decimal',
    sql: 'DECIMAL(8,3)',
    nullable: true,
    field: new DecimalField({ ...opt, maxDigits: 8, decimalPlaces: 3 }),
    input: ' ',
    cleaned: null,
    display: '',
    csv: '',
  },
  { name: 'o_double', sql: 'DOUBLE', nullable: true, field: new FloatField(opt), input: '', cleaned: null, display: '', csv: '' },
  { name: 'o_date', sql: 'DATE', nullable: true, field: new DateField(opt), input: '', cleaned: null, display: '', csv: '' },
  { name: 'o_datetime', sql: 'DATETIME', nullable: true, field: new DateTimeField(opt), input: '', cleaned: null, display: '', csv: '' },
  { name: 'o_time', sql: 'TIME', nullable: true, field: new TimeField(opt), input: '', cleaned: null, display: '', csv: '' },
  { name: 'o_varchar', sql: 'VARCHAR(10)', nullable: true, field: new StringField({ ...opt, maxLength: 10 }), input: '', cleaned: null, display: '', csv: '' },
  { name: 'o_bool', sql: 'BOOLEAN', nullable: true, field: new BooleanField(), input: 'on', cleaned: true, display: '1', csv: '1' },
];

function fieldOf(c: Case): FieldNode {
  const analysis = analyseSqlType(c.sql);
  if (!analysis.ok) throw new Error(`${c.sql}: ${analysis.error}`);
  const type = analysis.type;
  const length = type.base === 'VARCHAR' || type.base === 'CHAR' ? (type.args[0] ?? null) : null;
  return fieldNode({
    name: c.name,
    column: pascal(c.name),
    logicalType: logicalTypeOf(type),
    sqlType: type,
    nullable: c.nullable ?? false,
    unique: false,
    primaryKey: false,
    autoIncrement: false,
    notEmpty: false,
    maxLength: length,
    filter: false,
    pointer: `/fields/${c.name}`,
    label: c.name,
  });
}

const sonde = entity('Sonde', [idField(), ...CASES.map(fieldOf)]);
const model = modelNode({ entities: [sonde], relations: [] });

interface Instance {
  validate(): Record<string, string>;
  toRow(): Record<string, unknown>;
  [field: string]: unknown;
}
interface EntityClass {
  new (data?: Record<string, unknown>): Instance;
  fromRow(row: Record<string, unknown>): Instance;
}

/** The emitted base class, transpiled and imported. */
async function loadBase(): Promise<EntityClass> {
  const js = ts.transpileModule(emitBaseClass(model, sonde), { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
  const module = (await import(`data:text/javascript;base64,${Buffer.from(js).toString('base64')}`)) as Record<string, EntityClass>;
  return module.SondeBase!;
}

const FIELDS: FieldMap = Object.fromEntries(CASES.flatMap((c) => (c.field ? [[c.name, c.field]] : [])));
class SondeForm extends Form {
  static fields = FIELDS;
}

const POSTED = Object.fromEntries(CASES.flatMap((c) => (c.input === undefined || !c.field ? [] : [[c.name, c.input]])));

/** Every value read back, by dialect, compared across dialects at the end. */
const readBack = new Map<DialectName, Record<string, unknown>>();

formSuite();

function formSuite(): void {
  const t = suite('types-round-trip: form and base class');
  t('every accepted sql_type of KNOWN_SQL_TYPES is in the table', () => {
    const bases = new Set(CASES.map((c) => analyseSqlType(c.sql)).map((a) => (a.ok ? a.type.base : '?')));
    for (const written of KNOWN_SQL_TYPES) {
      const analysis = analyseSqlType(written.replace('(p,s)', '(10,2)').replace('(n)', '(10)'));
      assert.ok(analysis.ok, written);
      if (analysis.ok) assert.ok(bases.has(analysis.type.base), `${written} (${analysis.type.base}) has no case`);
    }
  });
  t('the form cleans each value to the type the base class declares', () => {
    const form = new SondeForm(POSTED);
    assert.ok(form.isValid(), JSON.stringify(form.errors));
    for (const c of CASES.filter((x) => x.field)) assert.equal(form.cleanedData[c.name], c.cleaned, c.name);
  });
  t('the base class accepts the cleaned data as is', async () => {
    const Base = await loadBase();
    const data = { ...new SondeForm(POSTED).cleanedData, ...Object.fromEntries(CASES.filter((c) => !c.field).map((c) => [c.name, c.cleaned])) };
    assert.equal(new Base(data).validate(), {});
  });
  t.run();
}

function dialectSuite(dialect: DialectName): void {
  const t = suite(`types-round-trip: ${dialect}`);
  const mariaName = `fw_test_types_${randomBytes(4).toString('hex')}`;
  let dir = '';
  let db: Database;
  let loaded: Instance;

  t.before(async () => {
    if (dialect === 'sqlite') {
      dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fw-types-')));
      db = openDatabase({ driver: 'sqlite', file: path.join(dir, 'types.sqlite') });
    } else {
      const server = openDatabase({ driver: 'mariadb', ...MARIADB_ADMIN });
      try {
        await server.execute(`CREATE DATABASE \`${mariaName}\` CHARACTER SET utf8mb4`);
      } finally {
        await server.close();
      }
      db = openDatabase({ driver: 'mariadb', ...MARIADB_ADMIN, database: mariaName });
    }
    for (const statement of splitSqlStatements(emitTableSql(model, sonde, dialect), dialect)) await db.execute(statement.text);
    const Base = await loadBase();
    const form = new SondeForm(POSTED);
    assert.ok(form.isValid(), JSON.stringify(form.errors));
    const item = new Base({ ...form.cleanedData, ...Object.fromEntries(CASES.filter((c) => !c.field).map((c) => [c.name, c.cleaned])) });
    const row = Object.entries(item.toRow()).filter(([column]) => column !== 'Id');
    const q = (name: string): string => (dialect === 'sqlite' ? `"${name}"` : `\`${name}\``);
    const id = await db.insert(
      `INSERT INTO ${q('sonde')} (${row.map(([c]) => q(c)).join(', ')}) VALUES (${row.map(() => '?').join(', ')})`,
      row.map(([, v]) => v),
    );
    const read = await db.fetchOne(`SELECT * FROM ${q('sonde')} WHERE ${q('Id')} = ?`, [id]);
    assert.ok(read, 'row read back');
    loaded = Base.fromRow(read!);
  });

  t.after(async () => {
    await db?.close();
    if (dialect === 'sqlite') fs.rmSync(dir, { recursive: true, force: true });
    else {
      const server = openDatabase({ driver: 'mariadb', ...MARIADB_ADMIN });
      try {
        await server.execute(`DROP DATABASE IF EXISTS \`${mariaName}\``);
      } finally {
        await server.close();
      }
    }
  });

  t('read back through fromRow: the canonical value of each type', () => {
    const got: Record<string, unknown> = {};
    for (const c of CASES) {
      const value = loaded[c.name];
      // A driver gives bytes as a Buffer (a Uint8Array): compare the bytes.
      got[c.name] = value instanceof Uint8Array ? new Uint8Array(value) : value;
    }
    readBack.set(dialect, got);
    for (const c of CASES) assert.equal(got[c.name], c.stored ?? c.cleaned, `${c.name} (${c.sql})`);
  });

  t('shown back by the edit form, and in the CSV export', () => {
    const form = new SondeForm(null, { initial: { ...loaded } });
    for (const c of CASES.filter((x) => x.field)) assert.is(form.value(c.name), c.display, `${c.name} (${c.sql}) in the form`);
    for (const c of CASES.filter((x) => x.field)) assert.is(csvCell(loaded[c.name]), `"${c.csv}"`, `${c.name} (${c.sql}) in the CSV`);
  });

  t('the value read back, posted again, cleans to the same value (an edit without change changes nothing)', () => {
    const edit = new SondeForm(null, { initial: { ...loaded } });
    const again = new SondeForm(Object.fromEntries(CASES.filter((c) => c.field && edit.value(c.name) !== '').map((c) => [c.name, edit.value(c.name)])));
    assert.ok(again.isValid(), JSON.stringify(again.errors));
    for (const c of CASES.filter((x) => x.field)) assert.equal(again.cleanedData[c.name], c.cleaned, c.name);
  });

  t.run();
}

for (const dialect of DIALECTS) dialectSuite(dialect);

const across = suite('types-round-trip: both dialects');
across('SQLite and MariaDB give back the same values', () => {
  assert.ok(readBack.has('sqlite') && readBack.has('mariadb'), 'both dialects ran');
  assert.equal(readBack.get('sqlite'), readBack.get('mariadb'));
});
across.run();
