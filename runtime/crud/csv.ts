/** CSV export of generated lists (docs/crud.md "CSV export"; the formula prefix: docs/decisions.md#crud-lists-search-and-csv). */
import { Response } from '../http/response.js';

/** The export's row cap. */
export const CSV_MAX_ROWS = 1000;

/** A cell that a spreadsheet would read as a formula: starts with `=`, `+`, `-`, `@`, a tab or a carriage return. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A plain number (`-1.5`, `+3`, `42`) is left alone: it cannot run anything. */
const PLAIN_NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

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

/** The CSV text: a header line then one line per row, CRLF line ends, every cell quoted. */
export function toCsv(headers: readonly string[], rows: Iterable<readonly unknown[]>): string {
  const lines = [headers.map(csvCell).join(',')];
  for (const row of rows) lines.push(row.map(csvCell).join(','));
  return lines.join('\r\n') + '\r\n';
}

/** The download: `text/csv; charset=utf-8`, `attachment; filename="<name>"`, `Cache-Control: no-store`. */
export function csvResponse(filename: string, headers: readonly string[], rows: Iterable<readonly unknown[]>): Response {
  const safeName = filename.replace(/["\\\r\n]/g, '_');
  return new Response(200, toCsv(headers, rows), 'text/csv; charset=utf-8', {
    'Content-Disposition': `attachment; filename="${safeName}"`,
    'Cache-Control': 'no-store',
  });
}
