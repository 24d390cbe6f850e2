/**
 * CSV export of generated lists (docs/crud.md "CSV export"; the formula prefix: docs/decisions.md#crud-lists-search-and-csv;
 * the byte-order mark and the separator: docs/decisions.md#the-csv-for-a-spreadsheet).
 */
import { Response } from '../http/response.js';
import { trans } from '../translations.js';

/** The export's row cap. */
export const CSV_MAX_ROWS = 1000;

/** The UTF-8 byte-order mark the file starts with: a spreadsheet then reads its accents as UTF-8. */
export const CSV_BOM = '\uFEFF';

/** A cell that a spreadsheet would read as a formula: starts with `=`, `+`, `-`, `@`, a tab or a carriage return. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A plain number (`-1.5`, `-1,5`, `+3`, `42`) is left alone: it cannot run anything. */
const PLAIN_NUMBER = /^[+-]?(\d+([.,]\d*)?|[.,]\d+)$/;

/**
 * The separator of the cells: `;` where the locale writes decimals with a comma (French: a spreadsheet set to French
 * splits a line on `;`, and `12,50` is then one number), `,` otherwise, as RFC 4180 has it.
 */
export function csvSeparator(): ',' | ';' {
  return trans('format.decimal_separator') === ',' ? ';' : ',';
}

/** One cell: text of the value (booleans 1 / 0, null empty), formula prefix, quoted with `"` doubled. */
export function csvCell(value: unknown): string {
  let text: string;
  if (value === null || value === undefined) text = '';
  else if (typeof value === 'boolean') text = value ? '1' : '0';
  else if (value instanceof Date) text = value.toISOString();
  else text = String(value);
  if (FORMULA_START.test(text) && !PLAIN_NUMBER.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

/** The CSV text: a header line then one line per row, CRLF line ends, every cell quoted, cells split by `separator`. */
export function toCsv(headers: readonly string[], rows: Iterable<readonly unknown[]>, separator: ',' | ';' = ','): string {
  const lines = [headers.map(csvCell).join(separator)];
  for (const row of rows) lines.push(row.map(csvCell).join(separator));
  return lines.join('\r\n') + '\r\n';
}

/**
 * The download: the byte-order mark then the text, cells split by the locale's separator (`csvSeparator`);
 * `text/csv; charset=utf-8`, `attachment; filename="<name>"`, `Cache-Control: no-store`.
 */
export function csvResponse(filename: string, headers: readonly string[], rows: Iterable<readonly unknown[]>): Response {
  const safeName = filename.replace(/["\\\r\n]/g, '_');
  return new Response(200, CSV_BOM + toCsv(headers, rows, csvSeparator()), 'text/csv; charset=utf-8', {
    'Content-Disposition': `attachment; filename="${safeName}"`,
    'Cache-Control': 'no-store',
  });
}
