/**
 * Spells a TableSpec in one dialect. Each dialect's syntax is in its folder (`runtime/db/dialects/<name>/spelling.ts`,
 * reached through `spellingOf`); these are the entry points of the generated entity tables (emitters/sql-table.ts,
 * sql-relations.ts, migration.ts) and of the framework's own tables (auth, media, mail, `fw_sessions`), which is why
 * they live in the runtime, below the emitters.
 */
import { spellingOf, type DialectName } from '../dialect.js';
import type { ColumnSpec, TableSpec } from './table-spec.js';

/** One column definition as written in CREATE TABLE or ALTER TABLE … ADD/MODIFY COLUMN (never the SQLite rowid form). */
export function renderColumn(column: ColumnSpec, dialect: DialectName): string {
  return spellingOf(dialect).column(column);
}

/** CREATE TABLE IF NOT EXISTS (and, for SQLite, its indexes): re-running the lines is harmless. */
export function renderCreateTable(spec: TableSpec, dialect: DialectName): string[] {
  return spellingOf(dialect).createTable(spec);
}

/**
 * The same CREATE TABLE IF NOT EXISTS (and SQLite indexes), one statement per item without its final `;`, for
 * `execute`: the framework's own tables are created this way by `fw db:init` and the tests.
 */
export function renderCreateStatements(spec: TableSpec, dialect: DialectName): string[] {
  return spellingOf(dialect).createStatements(spec);
}
