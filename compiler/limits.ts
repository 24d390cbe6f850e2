/**
 * The limits of definition files (docs/entities.md "Limits and reserved names"): what one of the two dialects
 * would refuse when `db:apply` runs, and the sizes past which the generated project is no longer usable, are
 * refused by the compiler first, with the limit named.
 *
 * MariaDB (utf8mb4, InnoDB): a VARCHAR holds at most 16,383 characters (4 bytes each, 65,532 bytes), and the
 * columns of a table, counted at their largest, fit in a row of 65,535 bytes, which MariaDB checks at CREATE
 * TABLE (error 1118). Each column counts as MariaDB counts it (measured on a 10.11 server,
 * test/compiler-limits-server.test.ts): VARCHAR(n) and CHAR(n) 4 × n bytes, plus 1 length byte for VARCHAR up to
 * 255 bytes and 2 beyond; TINYTEXT/TINYBLOB 9, TEXT/BLOB 10, MEDIUMTEXT/MEDIUMBLOB 11, LONGTEXT/LONGBLOB/JSON 12
 * (their pointer; the text lives apart); integers 1 to 8, FLOAT 4, DOUBLE 8; DECIMAL 4 bytes per 9 digits on each
 * side of the point; DATE 3, TIME 3, TIMESTAMP 4, DATETIME 5, YEAR 1, plus the bytes of fractional seconds; and
 * one byte per 8 nullable columns.
 */
import type { SqlTypeNode } from './ir.js';

/** The largest VARCHAR in utf8mb4, in characters (65,532 bytes). */
export const MAX_VARCHAR_LENGTH = 16_383;
/** MariaDB's row size limit, in bytes, not counting the text of TEXT, BLOB and JSON columns. */
export const MAX_ROW_BYTES = 65_535;
/** An entity or relations file larger than this is not read. */
export const MAX_DEFINITION_BYTES = 512 * 1024;
/** Fields of one entity, its primary key included. */
export const MAX_FIELDS = 200;
/** Media of one entity. */
export const MAX_MEDIA = 20;
/** Relations of the project (relations.json). */
export const MAX_RELATIONS = 200;
/** Pivot fields of one many-to-many relation. */
export const MAX_PIVOT_FIELDS = 50;

const INTEGER_BYTES: Readonly<Record<string, number>> = { TINYINT: 1, SMALLINT: 2, MEDIUMINT: 3, INT: 4, BIGINT: 8 };
const POINTER_BYTES: Readonly<Record<string, number>> = {
  TINYTEXT: 9,
  TINYBLOB: 9,
  TEXT: 10,
  BLOB: 10,
  MEDIUMTEXT: 11,
  MEDIUMBLOB: 11,
  LONGTEXT: 12,
  LONGBLOB: 12,
  JSON: 12,
};
/** Bytes of 0 to 8 leftover decimal digits (MariaDB's packed DECIMAL). */
const DIGIT_BYTES = [0, 1, 1, 2, 2, 3, 3, 4, 4];

function decimalBytes(digits: number): number {
  return Math.floor(digits / 9) * 4 + (DIGIT_BYTES[digits % 9] ?? 0);
}

/** The bytes MariaDB counts for a column of this type in the row size (nullability aside). */
export function columnBytes(type: SqlTypeNode): number {
  const [first = 0, second = 0] = type.args;
  if (type.base in INTEGER_BYTES) return INTEGER_BYTES[type.base] ?? 0;
  if (type.base in POINTER_BYTES) return POINTER_BYTES[type.base] ?? 0;
  const fraction = Math.ceil(first / 2); // fractional seconds: 1 byte per 2 digits
  switch (type.base) {
    case 'VARCHAR':
      return first * 4 + (first * 4 > 255 ? 2 : 1);
    case 'CHAR':
      return first * 4;
    case 'DECIMAL':
      return decimalBytes(first - second) + decimalBytes(second);
    case 'FLOAT':
      return 4;
    case 'DOUBLE':
      return 8;
    case 'DATE':
      return 3;
    case 'YEAR':
      return 1;
    case 'TIME':
      return 3 + fraction;
    case 'TIMESTAMP':
      return 4 + fraction;
    case 'DATETIME':
      return 5 + fraction;
    default:
      return 0;
  }
}

/** A column as the row size sees it. */
export interface RowColumn {
  readonly type: SqlTypeNode;
  readonly nullable: boolean;
}

/** The row size MariaDB computes for these columns: their bytes and one byte per 8 nullable columns. */
export function rowBytes(columns: readonly RowColumn[]): number {
  const nullable = columns.filter((c) => c.nullable).length;
  return columns.reduce((sum, c) => sum + columnBytes(c.type), 0) + Math.ceil(nullable / 8);
}

/** `65 535` with a narrow no-break space, as French writes numbers. */
export function frenchNumber(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f');
}

/** `4,3 Mo`, `512 Ko`, `300 octets`. */
export function frenchBytes(n: number): string {
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1).replace('.', ',')} Mo`;
  if (n >= 1024) return `${Math.round(n / 1024)} Ko`;
  return `${n} octets`;
}
