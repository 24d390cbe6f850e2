/**
 * The pieces of DDL every dialect writes the same way but for the quoting of names: column lists, foreign-key
 * clauses, defaults, the body of a CREATE TABLE. Each dialect's `spelling.ts` puts them together (runtime/db/dialect.ts).
 */
import type { CheckSpec, ColumnSpec, ForeignKeySpec } from './table-spec.js';

/** Quotes one identifier. */
export type Quote = (name: string) => string;

/** `(a, b)`, each name quoted. */
export function columnList(columns: readonly string[], quote: Quote): string {
  return `(${columns.map(quote).join(', ')})`;
}

/** `FOREIGN KEY (…) REFERENCES … (…) ON DELETE … ON UPDATE …` (the part after the constraint name). */
export function foreignKeyClause(fk: ForeignKeySpec, quote: Quote): string {
  return (
    `FOREIGN KEY ${columnList(fk.columns, quote)} REFERENCES ${quote(fk.refTable)} ${columnList(fk.refColumns, quote)}` +
    ` ON DELETE ${fk.onDelete}${fk.onUpdate ? ` ON UPDATE ${fk.onUpdate}` : ''}`
  );
}

/** `CONSTRAINT <name> FOREIGN KEY …`. */
export function constraint(fk: ForeignKeySpec, quote: Quote): string {
  return `CONSTRAINT ${quote(fk.name)} ${foreignKeyClause(fk, quote)}`;
}

/** ` DEFAULT <literal>`, or nothing. */
export function defaultClause(column: ColumnSpec): string {
  return column.default === undefined ? '' : ` DEFAULT ${column.default}`;
}

/** The definitions of a CREATE TABLE, indented, each but the last followed by a comma. */
export function body(definitions: readonly string[]): string[] {
  return definitions.map((line, i) => `  ${line}${i < definitions.length - 1 ? ',' : ''}`);
}

/** One statement of `lines` without its final `;`, for `execute`. */
export function statement(lines: readonly string[]): string {
  return lines.join('\n').replace(/;$/, '');
}

/** What a dialect says of a CHECK: its names' quotes, its character count, how a number held as text compares, a regular expression test. */
export interface CheckSyntax {
  readonly quote: Quote;
  readonly charLength: (expression: string) => string;
  readonly textNumber: (expression: string) => string;
  /** `<expression> REGEXP '…'`, or null when the dialect has none. */
  readonly matches: ((expression: string, pattern: string) => string) | null;
}

/** `CONSTRAINT <name> CHECK (…)` of one column constraint; null when the dialect cannot test it. */
export function checkClause(check: CheckSpec, syntax: CheckSyntax): string | null {
  const column = syntax.quote(check.column);
  let test: string;
  switch (check.kind) {
    case 'min':
    case 'max': {
      const value = check.numeric === 'text' ? syntax.textNumber(column) : column;
      test = `${value} ${check.kind === 'min' ? '>=' : '<='} ${check.value}`;
      break;
    }
    case 'min_length':
      test = `${syntax.charLength(column)} >= ${check.value}`;
      break;
    case 'pattern':
      if (!syntax.matches) return null;
      test = syntax.matches(column, check.value);
      break;
  }
  return `CONSTRAINT ${syntax.quote(check.name)} CHECK (${test})`;
}
