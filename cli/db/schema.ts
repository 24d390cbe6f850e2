/**
 * Introspection of the real schema, for `db:apply`, `migration:*` and `migration:diff`: tables, columns (type
 * as the server reports it), indexes, unique keys and foreign keys, read through the catalogue of the handle's
 * dialect (runtime/db/dialects/<name>/catalogue.ts: MariaDB's information_schema, SQLite's catalogue and pragmas).
 */
import type { CheckInfo, ColumnInfo, ForeignKeyInfo, IndexInfo } from '../../runtime/db/catalogue.js';
import { catalogueOf } from '../../runtime/db/dialects/index.js';
import type { Connection, Database, DialectName } from '../../runtime/db/index.js';

export type { CheckInfo, ColumnInfo, ForeignKeyInfo, IndexInfo } from '../../runtime/db/catalogue.js';

/** A handle or a connection held by `withConnection` / a transaction. */
export type Handle = Database | Connection;

/** The dialect behind a handle. */
export function dialectOf(handle: Handle): DialectName {
  return 'driver' in handle ? handle.driver : handle.database.driver;
}

/** What `migration:diff` compares: columns (with their defaults), indexes and unique keys, foreign keys, CHECK constraints. */
export interface TableInfo {
  readonly columns: readonly ColumnInfo[];
  readonly indexes: readonly IndexInfo[];
  readonly foreignKeys: readonly ForeignKeyInfo[];
  readonly checks: readonly CheckInfo[];
}

/** The columns of `table` in declaration order, or null when the table does not exist. */
export function readColumns(handle: Handle, table: string): Promise<ColumnInfo[] | null> {
  return catalogueOf(dialectOf(handle)).readColumns(handle, table);
}

/** Columns, indexes, foreign keys and CHECK constraints of `table`, or null when the table does not exist. */
export async function readTable(handle: Handle, table: string): Promise<TableInfo | null> {
  const columns = await readColumns(handle, table);
  if (columns === null) return null;
  const catalogue = catalogueOf(dialectOf(handle));
  return {
    columns,
    indexes: await readIndexes(handle, table),
    foreignKeys: await readForeignKeys(handle, table),
    checks: await catalogue.readChecks(handle, table),
  };
}

/** The indexes and unique keys of `table` (the primary key left out), the shape `migration:diff` compares (emitters/migration.ts). */
export function readIndexes(handle: Handle, table: string): Promise<IndexInfo[]> {
  return catalogueOf(dialectOf(handle)).readIndexes(handle, table);
}

/** The foreign keys of `table` (emitters/migration.ts). */
export function readForeignKeys(handle: Handle, table: string): Promise<ForeignKeyInfo[]> {
  return catalogueOf(dialectOf(handle)).readForeignKeys(handle, table);
}

/** True when `table` exists (a base table, not a view). */
export function tableExists(handle: Handle, table: string): Promise<boolean> {
  return catalogueOf(dialectOf(handle)).tableExists(handle, table);
}

/** The tables of the database, sorted (SQLite's internal `sqlite_*` tables excluded). */
export function listTables(handle: Handle): Promise<string[]> {
  return catalogueOf(dialectOf(handle)).listTables(handle);
}

/** True when the named constraint (foreign key, unique…) exists on `table` (MariaDB; SQLite does not name them: false). */
export function constraintExists(handle: Handle, table: string, name: string): Promise<boolean> {
  return catalogueOf(dialectOf(handle)).constraintExists(handle, table, name);
}

/** True when the named index exists (on `table` for MariaDB, where index names are per table). */
export function indexExists(handle: Handle, table: string, name: string): Promise<boolean> {
  return catalogueOf(dialectOf(handle)).indexExists(handle, table, name);
}
