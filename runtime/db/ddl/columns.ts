/**
 * Shorthands for the descriptions of the framework's own tables (auth, media, `fw_sessions`): a column is NOT
 * NULL, without default and not auto-incremented unless it says so. These tables compare bytes on SQLite unless a
 * column names a collation (`FRAMEWORK_TABLE.sqliteTextCollation`), and keep MariaDB's table collation
 * (utf8mb4_unicode_ci) unless a column names its own (`UTF8MB4_BIN`, `ASCII_BIN`).
 */
import type { CharsetSpec, ColumnSpec, ForeignKeySpec, TableSpec } from './table-spec.js';

/** utf8mb4 compared byte by byte: `Photo` and `photo` differ, trailing spaces count. */
export const UTF8MB4_BIN: CharsetSpec = { charset: 'utf8mb4', collation: 'utf8mb4_bin' };
/** ASCII compared byte by byte (hex digests). */
export const ASCII_BIN: CharsetSpec = { charset: 'ascii', collation: 'ascii_bin' };

/** What every framework table shares: its text columns carry no collation on SQLite. */
export const FRAMEWORK_TABLE: Pick<TableSpec, 'sqliteTextCollation'> = { sqliteTextCollation: null };

type ColumnOptions = Partial<Omit<ColumnSpec, 'name' | 'type'>>;

/** A column, NOT NULL unless `nullable` is given. */
export function column(name: string, type: string, options: ColumnOptions = {}): ColumnSpec {
  return { name, type, nullable: false, autoIncrement: false, ...options };
}

/** The auto-increment key `id` (SQLite: `INTEGER PRIMARY KEY AUTOINCREMENT`). */
export function idColumn(type = 'INT UNSIGNED'): ColumnSpec {
  return column('id', type, { autoIncrement: true });
}

/** A column that holds the `id` of another table (`users.id`, `roles.id`…), declared INTEGER on SQLite. */
export function refColumn(name: string, options: ColumnOptions = {}): ColumnSpec {
  return column(name, 'INT UNSIGNED', { sqliteType: 'INTEGER', ...options });
}

/** A foreign key of one column to `id` of another table, whose rows take this table's rows with them. */
export function cascadeForeignKey(name: string, columnName: string, refTable: string): ForeignKeySpec {
  return { name, columns: [columnName], refTable, refColumns: ['id'], onDelete: 'CASCADE' };
}
