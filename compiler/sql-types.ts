/**
 * SQL type normalisation (foreign-key types must match after normalisation, and
 * `migration:diff` compares normalised types: `INT(11)` equals `INT`, `BOOLEAN` equals `TINYINT(1)`; docs/decisions.md#migrations).
 * Reads the spellings of entity files, of `information_schema.COLUMNS.COLUMN_TYPE` (`bigint(20) unsigned`)
 * and of SQLite declared types (`INTEGER`, `REAL`, `NUMERIC`), case-insensitively.
 */
import { sqlTypeNode, type LogicalType, type SqlTypeNode } from './ir.js';

const INTEGER_BASES = ['TINYINT', 'SMALLINT', 'MEDIUMINT', 'INT', 'BIGINT'] as const;
const TEXT_BASES = ['TINYTEXT', 'TEXT', 'MEDIUMTEXT', 'LONGTEXT'] as const;
const BLOB_BASES = ['TINYBLOB', 'BLOB', 'MEDIUMBLOB', 'LONGBLOB'] as const;
const TEMPORAL_WITH_FRACTION = ['DATETIME', 'TIMESTAMP', 'TIME'] as const;

/** Spellings accepted for another base (MariaDB synonyms and SQLite declared types). */
const SYNONYMS: Readonly<Record<string, string>> = {
  INTEGER: 'INT',
  NUMERIC: 'DECIMAL',
  DEC: 'DECIMAL',
  FIXED: 'DECIMAL',
  REAL: 'DOUBLE',
  'DOUBLE PRECISION': 'DOUBLE',
};

/** The types an entity file may use, as listed in messages. */
export const KNOWN_SQL_TYPES: readonly string[] = [
  'INT',
  'INTEGER',
  'BIGINT',
  'SMALLINT',
  'TINYINT',
  'MEDIUMINT',
  'BOOL',
  'BOOLEAN',
  'DECIMAL(p,s)',
  'NUMERIC(p,s)',
  'FLOAT',
  'DOUBLE',
  'CHAR(n)',
  'VARCHAR(n)',
  'TEXT',
  'TINYTEXT',
  'MEDIUMTEXT',
  'LONGTEXT',
  'DATE',
  'DATETIME',
  'TIMESTAMP',
  'TIME',
  'YEAR',
  'BLOB',
  'JSON',
];

/** The types a `list.filter` accepts (docs/crud.md "The list page"), as written in messages. */
export const FILTER_CAPABLE_TYPES: readonly string[] = ['VARCHAR', 'CHAR', 'INT', 'BIGINT', 'SMALLINT', 'TINYINT', 'MEDIUMINT', 'BOOL', 'BOOLEAN'];

const FILTER_CAPABLE_BASES = new Set<string>(['VARCHAR', 'CHAR', ...INTEGER_BASES]);
const TEXTUAL_BASES = new Set<string>(['VARCHAR', 'CHAR', ...TEXT_BASES]);
const NUMERIC_BASES = new Set<string>([...INTEGER_BASES, 'DECIMAL', 'FLOAT', 'DOUBLE']);
const KNOWN_BASES = new Set<string>([
  ...INTEGER_BASES,
  'BOOL',
  'BOOLEAN',
  'DECIMAL',
  'FLOAT',
  'DOUBLE',
  'CHAR',
  'VARCHAR',
  ...TEXT_BASES,
  'DATE',
  ...TEMPORAL_WITH_FRACTION,
  'YEAR',
  ...BLOB_BASES,
  'JSON',
]);

/** The outcome of reading a SQL type: the normalised node, or a French sentence saying what is wrong. */
export type SqlTypeAnalysis = { readonly ok: true; readonly type: SqlTypeNode } | { readonly ok: false; readonly error: string };

const SHAPE = /^([A-Za-z][A-Za-z0-9]*(?:\s+PRECISION)?)\s*(?:\(([^()]*)\))?((?:\s+(?:UNSIGNED|SIGNED|ZEROFILL))*)$/i;

/** Normalises a SQL type, or returns null when it is not a known type (see `analyseSqlType` for the reason). */
export function parseSqlType(text: string): SqlTypeNode | null {
  const result = analyseSqlType(text);
  return result.ok ? result.type : null;
}

/** Normalises a SQL type, or explains in French why it is refused and how to write it. */
export function analyseSqlType(text: string): SqlTypeAnalysis {
  const source = text.trim();
  if (source === '') return fail('type SQL vide : écrivez par exemple « VARCHAR(100) » ou « INT »');
  const shape = SHAPE.exec(source);
  if (!shape) return fail(`type SQL illisible « ${source} » : écrivez par exemple « VARCHAR(100) », « INT UNSIGNED » ou « DECIMAL(10,2) »`);
  const written = (shape[1] ?? '').toUpperCase().replace(/\s+/g, ' ');
  const argsText = shape[2];
  const modifiers = (shape[3] ?? '').trim().toUpperCase().split(/\s+/).filter(Boolean);
  if (!KNOWN_BASES.has(written) && !(written in SYNONYMS)) {
    return fail(`type SQL inconnu « ${source} » : types permis : ${KNOWN_SQL_TYPES.join(', ')}`);
  }
  let args: number[] = [];
  if (argsText !== undefined) {
    const parts = argsText.split(',').map((part) => part.trim());
    if (parts.some((part) => !/^\d+$/.test(part))) {
      return fail(`arguments illisibles dans « ${source} » : des entiers sont attendus, par exemple « ${written}(100) »`);
    }
    args = parts.map(Number);
  }
  const unsigned = modifiers.includes('UNSIGNED') || modifiers.includes('ZEROFILL');
  if (written === 'BOOL' || written === 'BOOLEAN') {
    if (argsText !== undefined || unsigned) return fail(`« ${source} » : ${written} s'écrit sans argument ni UNSIGNED`);
    return done('TINYINT', [1], false);
  }
  const base = SYNONYMS[written] ?? written;
  if (unsigned && !NUMERIC_BASES.has(base)) return fail(`« ${source} » : UNSIGNED ne s'applique qu'aux types numériques`);
  if ((INTEGER_BASES as readonly string[]).includes(base)) return integer(source, base, args, unsigned);
  switch (base) {
    case 'DECIMAL':
      return decimal(source, args, unsigned);
    case 'FLOAT':
    case 'DOUBLE':
      return floating(source, base, args, unsigned);
    case 'CHAR':
    case 'VARCHAR':
      return character(source, base, args);
    case 'DATETIME':
    case 'TIMESTAMP':
    case 'TIME':
      if (args.length === 0) return done(base, [], false);
      if (args.length > 1 || (args[0] ?? 0) > 6) return fail(`« ${source} » : la précision des fractions de seconde va de 0 à 6, par exemple « ${base}(3) »`);
      return done(base, args[0] === 0 ? [] : args, false);
    case 'YEAR':
      // information_schema spells it `year(4)`; the two-digit YEAR(2) no longer exists.
      if (args.length === 0 || (args.length === 1 && args[0] === 4)) return done('YEAR', [], false);
      return fail(`« ${source} » : écrivez simplement « YEAR »`);
    default:
      if (args.length > 0) {
        const hint = TEXTUAL_BASES.has(base) ? ` ; pour limiter la longueur, utilisez « VARCHAR(${args[0] ?? 255}) »` : '';
        return fail(`« ${source} » : ${base} s'écrit sans argument${hint}`);
      }
      return done(base, [], false);
  }
}

function integer(source: string, base: string, args: number[], unsigned: boolean): SqlTypeAnalysis {
  if (args.length > 1) return fail(`« ${source} » : un entier n'a qu'une largeur d'affichage, par exemple « ${base}(11) » ou simplement « ${base} »`);
  // The display width means nothing for storage and is dropped, except TINYINT(1), the boolean marker.
  const keepsWidth = base === 'TINYINT' && args[0] === 1;
  return done(base, keepsWidth ? [1] : [], unsigned);
}

function decimal(source: string, args: number[], unsigned: boolean): SqlTypeAnalysis {
  if (args.length > 2) return fail(`« ${source} » : DECIMAL prend au plus deux arguments, par exemple « DECIMAL(10,2) »`);
  const precision = args[0] ?? 10;
  const scale = args[1] ?? 0;
  if (precision < 1 || precision > 65) return fail(`« ${source} » : la précision de DECIMAL va de 1 à 65, par exemple « DECIMAL(10,2) »`);
  if (scale > 30 || scale > precision) return fail(`« ${source} » : l'échelle de DECIMAL va de 0 à 30 et ne dépasse pas la précision (${precision})`);
  return done('DECIMAL', [precision, scale], unsigned);
}

function floating(source: string, base: 'FLOAT' | 'DOUBLE', args: number[], unsigned: boolean): SqlTypeAnalysis {
  if (args.length === 0) return done(base, [], unsigned);
  if (base === 'FLOAT' && args.length === 1) {
    // FLOAT(p) only chooses the storage: single precision up to 24 bits, double beyond.
    const bits = args[0] ?? 0;
    if (bits > 53) return fail(`« ${source} » : FLOAT(p) accepte p de 0 à 53 ; écrivez plutôt « FLOAT » ou « DOUBLE »`);
    return done(bits <= 24 ? 'FLOAT' : 'DOUBLE', [], unsigned);
  }
  const [digits = 0, decimals = 0] = args;
  if (args.length !== 2 || digits < 1 || digits > 255 || decimals > 30 || decimals > digits) {
    return fail(`« ${source} » : écrivez « ${base} » (conseillé) ou « ${base}(M,D) » avec M de 1 à 255 et D ≤ M`);
  }
  return done(base, [digits, decimals], unsigned);
}

function character(source: string, base: 'CHAR' | 'VARCHAR', args: number[]): SqlTypeAnalysis {
  const max = base === 'CHAR' ? 255 : 65535;
  if (args.length === 0)
    return fail(`${base} exige une longueur : écrivez par exemple « ${base}(${base === 'CHAR' ? 10 : 100}) » (« ${source} » n'en donne pas)`);
  const length = args[0] ?? 0;
  if (args.length > 1 || length < 1 || length > max) return fail(`« ${source} » : la longueur de ${base} va de 1 à ${max}, par exemple « ${base}(100) »`);
  return done(base, [length], false);
}

function done(base: string, args: number[], unsigned: boolean): SqlTypeAnalysis {
  const text = `${base}${args.length > 0 ? `(${args.join(',')})` : ''}${unsigned ? ' UNSIGNED' : ''}`;
  return { ok: true, type: sqlTypeNode({ base, args, unsigned, text }) };
}

function fail(error: string): SqlTypeAnalysis {
  return { ok: false, error };
}

/** True when both normalise to the same type (`INT(11)` = `INT`; `INT` ≠ `BIGINT`; `INT` ≠ `INT UNSIGNED`). */
export function sameSqlType(a: SqlTypeNode, b: SqlTypeNode): boolean {
  return a.base === b.base && a.unsigned === b.unsigned && a.args.length === b.args.length && a.args.every((arg, i) => arg === b.args[i]);
}

/** VARCHAR, CHAR and the TEXT family: the columns searched by `q` (docs/crud.md "The list page"). */
export function isTextual(t: SqlTypeNode): boolean {
  return TEXTUAL_BASES.has(t.base);
}

/** VARCHAR, CHAR, the integer types and BOOL/BOOLEAN (stored as TINYINT(1)): the types `list.filter` accepts. */
export function isFilterCapable(t: SqlTypeNode): boolean {
  return FILTER_CAPABLE_BASES.has(t.base);
}

/** TINYINT … BIGINT, including TINYINT(1). */
export function isInteger(t: SqlTypeNode): boolean {
  return (INTEGER_BASES as readonly string[]).includes(t.base);
}

/** TINYINT(1), which is what BOOL and BOOLEAN are. */
export function isBooleanType(t: SqlTypeNode): boolean {
  return t.base === 'TINYINT' && t.args.length === 1 && t.args[0] === 1;
}

/** The declared length of CHAR(n) / VARCHAR(n), else null. */
export function characterLength(t: SqlTypeNode): number | null {
  return t.base === 'CHAR' || t.base === 'VARCHAR' ? (t.args[0] ?? null) : null;
}

/** The logical type deduced from a SQL type when `python_type` is absent (docs/decisions.md#entity-names-and-columns). */
export function logicalTypeOf(t: SqlTypeNode): LogicalType {
  return acceptedLogicalTypes(t)[0] ?? 'str';
}

/** The logical types a `python_type` may declare for this SQL type; the first one is the deduced type. */
export function acceptedLogicalTypes(t: SqlTypeNode): readonly LogicalType[] {
  if (isBooleanType(t)) return ['bool', 'int'];
  if (t.base === 'TINYINT') return ['int', 'bool'];
  if (isInteger(t) || t.base === 'YEAR') return ['int'];
  switch (t.base) {
    case 'DECIMAL':
      return ['decimal', 'float'];
    case 'FLOAT':
    case 'DOUBLE':
      return ['float', 'decimal'];
    case 'DATE':
      return ['date'];
    case 'DATETIME':
    case 'TIMESTAMP':
      return ['datetime'];
    case 'TIME':
      return ['time'];
    default:
      return (BLOB_BASES as readonly string[]).includes(t.base) ? ['bytes'] : ['str'];
  }
}
